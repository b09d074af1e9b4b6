// The checkpoint readers (core/formats/tensor_file.h) through the position table they open
// (core/encodings/position_table.h): safetensors and GGUF files written by the tests as their
// specifications lay them out read the same values as the .npy of those values, bit for bit;
// bfloat16 is read exactly; every malformation the reference readers refuse is refused in one line;
// the table is found by its name, and each model's convention (OPT's offset, a ViT's class token
// and grid) is applied and stated.
#include "checkpoint_files.h"

#include "encodings/encoding.h"
#include "encodings/position_table.h"
#include "export/data_export.h"
#include "formats/json_text.h"
#include "formats/tensor_file.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <fstream>

using namespace checkpoint;

namespace {

using Table = std::shared_ptr<const pe::PositionTable>;
using Role = pe::PositionTable::Role;

Table parse(const std::string &bytes, const std::string &tensor = {}, Role role = Role::Positions)
{
    return pe::PositionTable::fromBytes(reinterpret_cast<const unsigned char *>(bytes.data()), bytes.size(), "m",
                                        tensor, role);
}

QString refusal(const std::string &bytes, const std::string &tensor = {}, Role role = Role::Positions)
{
    try {
        parse(bytes, tensor, role);
    } catch (const std::runtime_error &e) {
        return QString::fromStdString(e.what());
    }
    return QStringLiteral("(opened)");
}

// rows x cols values no float rounds: sin of a position and a column, to float precision.
std::vector<double> values(std::int64_t rows, int cols)
{
    std::vector<double> v;
    for (std::int64_t r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            v.push_back(static_cast<float>(std::sin(0.37 * static_cast<double>(r) + 1.3 * c)));
    return v;
}

// The .npy of the same values (float64, C order: exact, the values are floats), through the export's header writer.
std::string npyOf(const std::vector<double> &v, std::int64_t rows, int cols)
{
    return pe::npyHeader({rows, cols}) + f64(v);
}

void sameValues(const Table &a, const Table &b)
{
    QCOMPARE(a->rows(), b->rows());
    QCOMPARE(a->cols(), b->cols());
    QCOMPARE(a->maxAbs(), b->maxAbs());
    std::vector<double> ra(static_cast<std::size_t>(a->cols())), rb(ra.size());
    for (std::int64_t r = 0; r < a->rows(); ++r) {
        a->readRow(r, 0, 1, a->cols(), ra.data());
        b->readRow(r, 0, 1, b->cols(), rb.data());
        QVERIFY(std::memcmp(ra.data(), rb.data(), ra.size() * sizeof(double)) == 0);
    }
}

} // namespace

class TestTensorFile : public QObject
{
    Q_OBJECT

  private slots:
    void aSafetensorsTableReadsAsItsNpyBitForBit()
    {
        const auto v = values(64, 48);
        const Table npy = parse(npyOf(v, 64, 48));
        // Unaligned data: a header of odd length puts the floats at an odd offset, which the
        // format allows.
        const Table st = parse(safetensors({{"transformer.wte.weight", "F32", {2, 48}, f32(values(2, 48))},
                                            {"transformer.wpe.weight", "F32", {64, 48}, f32(v)}},
                                           1));
        QCOMPARE(QString::fromStdString(st->tensorName()), QStringLiteral("transformer.wpe.weight"));
        QCOMPARE(QString::fromStdString(st->path()), QStringLiteral("m:transformer.wpe.weight"));
        QCOMPARE(QString::fromStdString(st->description()), QStringLiteral("safetensors, float32"));
        sameValues(st, npy);
        // And the encoding a view fills from it.
        const pe::Encoding a(pe::tableParams({}, st)), b(pe::tableParams({}, npy));
        const pe::Block block = pe::sampledBlock(pe::Layout::Interleaved, 0, 64, 64, 0, 48, 48);
        std::vector<double> x(static_cast<std::size_t>(block.size())), y(x.size());
        a.fill(block, x.data());
        b.fill(block, y.data());
        QVERIFY(x == y);
        // F64 too.
        sameValues(parse(safetensors({{"wpe.weight", "F64", {64, 48}, f64(v)}})), npy);
    }

    void aGgufTableReadsAsItsNpyWithItsDimensionsInnermostFirst()
    {
        const auto v = values(40, 24);
        const Table npy = parse(npyOf(v, 40, 24));
        for (std::uint32_t alignment : {32u, 64u, 8u}) {
            const Table g = parse(gguf(
                {{"token_embd.weight", 0, {3, 24}, f32(values(3, 24))}, {"position_embd.weight", 0, {40, 24}, f32(v)}},
                {{"general.architecture", ggufString("gpt2")}, {"gpt2.context_length", ggufUint32(40)}}, alignment));
            QCOMPARE(QString::fromStdString(g->tensorName()), QStringLiteral("position_embd.weight"));
            sameValues(g, npy);
        }
        const pe::TensorIndex index = pe::readTensorIndex(
            reinterpret_cast<const unsigned char *>(
                gguf({{"position_embd.weight", 0, {40, 24}, f32(v)}}, {{"gpt2.context_length", ggufUint32(40)}})
                    .data()),
            gguf({{"position_embd.weight", 0, {40, 24}, f32(v)}}, {{"gpt2.context_length", ggufUint32(40)}}).size(),
            "m");
        QCOMPARE(index.tensors.front().shape, (std::vector<std::int64_t>{40, 24}));
        QCOMPARE(index.find("gpt2.context_length")->number, 40.0);
    }

    void bfloat16AndFloat16AreReadExactly()
    {
        // bfloat16 keeps 8 significant bits: these values are exact in it.
        const std::vector<double> v = {1.0, -0.5,  0.15625,   std::ldexp(1.5, 127), -std::ldexp(1.0, -126),
                                       0.0, 256.0, -0.0078125};
        const Table b = parse(safetensors({{"wpe.weight", "BF16", {2, 4}, bf16(v)}}));
        for (int k = 0; k < 8; ++k)
            QCOMPARE(b->value(k / 4, k % 4), static_cast<double>(static_cast<float>(v[static_cast<std::size_t>(k)])));
        const Table g = parse(gguf({{"position_embd.weight", 30, {2, 4}, bf16(v)}}));
        sameValues(g, b);
        // float16: 1, -2, 0.5, the largest (65504).
        std::string half;
        for (std::uint16_t h : {0x3c00, 0xc000, 0x3800, 0x7bff})
            half += le(h);
        const Table f = parse(safetensors({{"wpe.weight", "F16", {1, 4}, half}}));
        QCOMPARE(f->value(0, 3), 65504.0);
        QCOMPARE(f->value(0, 1), -2.0);
    }

    void malformedFilesAreRefusedInOneLine_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expected");
        const std::string good = "{\"wpe.weight\":{\"dtype\":\"F32\",\"shape\":[2,2],\"data_offsets\":[0,16]}}";
        auto row = [](const char *name, const std::string &bytes, const char *expected) {
            QTest::newRow(name) << QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size()))
                                << QString::fromUtf8(expected);
        };
        row("header longer than the format allows", le(std::uint64_t{100'000'001}) + "{}", "the format's limit");
        row("header past the end", le(std::uint64_t{4096}) + "{\"a\":1}", "truncated");
        row("not JSON", safetensorsRaw("{\"wpe.weight\":", ""), "not valid JSON");
        row("header not an object", le(std::uint64_t{2}) + "[]", "not a NumPy .npy, safetensors or GGUF");
        row("unknown dtype",
            safetensorsRaw("{\"wpe.weight\":{\"dtype\":\"F3\",\"shape\":[1],\"data_offsets\":[0,4]}}",
                           std::string(4, '\0')),
            "\"F3\" is not a safetensors dtype");
        row("integer tensor chosen",
            safetensorsRaw("{\"wpe.weight\":{\"dtype\":\"I64\",\"shape\":[2,2],\"data_offsets\":[0,32]}}",
                           std::string(32, '\0')),
            "its values are I64");
        row("size not the shape's", safetensorsRaw(good, std::string(12, '\0')),
            "cover 16 bytes of data but the file holds 12");
        row("data longer than the tensors", safetensorsRaw(good, std::string(20, '\0')), "the file holds 20");
        row("shape and offsets disagree",
            safetensorsRaw("{\"wpe.weight\":{\"dtype\":\"F32\",\"shape\":[2,3],\"data_offsets\":[0,16]}}",
                           std::string(16, '\0')),
            "needs 24 bytes but its data_offsets span 16");
        row("overlapping offsets",
            safetensorsRaw("{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
                           "\"wpe.weight\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[4,12]}}",
                           std::string(12, '\0')),
            "overlap at byte 4");
        row("a gap between tensors",
            safetensorsRaw("{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]},"
                           "\"wpe.weight\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[8,12]}}",
                           std::string(12, '\0')),
            "gap at bytes 4 to 8");
        row("duplicate names",
            safetensorsRaw("{\"wpe.weight\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]},"
                           "\"wpe.weight\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]}}",
                           std::string(8, '\0')),
            "appears twice");
        row("shape overflows",
            safetensorsRaw("{\"wpe.weight\":{\"dtype\":\"F32\",\"shape\":[4294967296,4294967296],\"data_offsets\":[0,"
                           "4]}}",
                           std::string(4, '\0')),
            "overflows 64 bits");
        row("NaN", safetensors({{"wpe.weight", "F32", {2, 2}, f32({0, 1, std::nan(""), 2})}}),
            "NaN at row 1, column 0");
        row("1-D", safetensors({{"wpe.weight", "F32", {4}, f32({0, 1, 2, 3})}}), "1 dimension");
        row("3-D not a ViT", safetensors({{"wpe.weight", "F32", {2, 2, 1}, f32({0, 1, 2, 3})}}), "3 dimensions");
        row("wider than any table", safetensors({{"wpe.weight", "F32", {1, 16385}, std::string(4 * 16385, '\0')}}),
            "at most 16,384");
        row("GGUF wrong version", "GGUF" + le(std::uint32_t{1}) + std::string(16, '\0'), "GGUF version 1");
        row("GGUF big endian", "GGUF" + le(std::uint32_t{0x03000000}) + std::string(16, '\0'), "big-endian");
        row("GGUF truncated", gguf({{"position_embd.weight", 0, {4, 4}, f32(values(4, 4))}}).substr(0, 90),
            "truncated");
        row("GGUF alignment not a power of two",
            gguf({{"position_embd.weight", 0, {1, 4}, f32(values(1, 4))}}, {{"general.alignment", ggufUint32(24)}}),
            "power of two");
        row("GGUF quantized tensor chosen", gguf({{"position_embd.weight", 12, {1, 256}, std::string(144, '\0')}}),
            "its values are Q4_K");
        row(
            "GGUF tensors sharing bytes",
            [] {
                std::string g =
                    gguf({{"a", 0, {1, 8}, f32(values(1, 8))}, {"position_embd.weight", 0, {1, 8}, f32(values(1, 8))}});
                // The second tensor's offset (32, after the first's 32 bytes) set to 0: the same bytes.
                const std::string second = "position_embd.weight";
                const auto at = g.find(second) + second.size() + 4 + 16 + 4;
                g.replace(at, 8, std::string(8, '\0'));
                return g;
            }(),
            "overlap");
        row("NaN past OPT's two skipped rows",
            safetensors({{"model.decoder.embed_positions.weight", "F32", {6, 1}, f32({0, 1, 2, 3, std::nan(""), 5})}}),
            "NaN at position 2 (row 4 of the tensor), column 0");
        // A name holding a newline (a JSON escape) is quoted with the escape: the refusal stays one line.
        row("a name with a newline", safetensors({{"a\\n.wpe.weight", "I64", {2, 2}, std::string(32, '\0')}}),
            "tensor \"a\\n.wpe.weight\": its values are I64");
        row("GGUF counts beyond the file",
            "GGUF" + le(std::uint32_t{3}) + le(std::uint64_t{1} << 60) + le(std::uint64_t{0}), "claims");
        row("neither format", "PK\x03\x04 a zip file", "not a NumPy .npy, safetensors or GGUF file");
        row("empty", "", "empty");
    }

    void malformedFilesAreRefusedInOneLine()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expected);
        const QString why = refusal(bytes.toStdString());
        QVERIFY2(why.contains(expected), qPrintable(why));
        QVERIFY(!why.contains(QLatin1Char('\n')));
    }

    void theTableIsFoundByNameOrNamedAfterAColon()
    {
        const std::string two =
            safetensors({{"bert.embeddings.position_embeddings.weight", "F32", {4, 2}, f32(values(4, 2))},
                         {"transformer.wpe.weight", "F32", {3, 2}, f32(values(3, 2))},
                         {"lm_head.weight", "F32", {5, 2}, f32(values(5, 2))}});
        const QString several = refusal(two);
        QVERIFY2(several.contains(QStringLiteral("several tensors")) &&
                     several.contains(QStringLiteral("\"transformer.wpe.weight\" (3 x 2, F32)")) &&
                     several.contains(QStringLiteral("\"bert.embeddings.position_embeddings.weight\" (4 x 2, F32)")),
                 qPrintable(several));
        QCOMPARE(parse(two, "lm_head.weight")->rows(), 5);
        QVERIFY(refusal(two, "missing").contains(QStringLiteral("no tensor named \"missing\"")));
        // The end of a name is not the name: the whole one is suggested.
        const QString near = refusal(two, "wpe.weight");
        QVERIFY2(near.contains(QStringLiteral("did you mean \"transformer.wpe.weight\"?")), qPrintable(near));
        const QString none = refusal(safetensors({{"lm_head.weight", "F32", {5, 2}, f32(values(5, 2))}}));
        QVERIFY2(none.contains(QStringLiteral("none of its 1 tensor is named")), qPrintable(none));
        // A .npy has one array and no names.
        QVERIFY(refusal(npyOf(values(2, 2), 2, 2), "x").contains(QStringLiteral("holds one array")));
        // T5's bias: the encoder's and the decoder's are two candidates.
        const std::string t5 = safetensors({{"encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight",
                                             "F32",
                                             {32, 8},
                                             f32(values(32, 8))},
                                            {"decoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight",
                                             "F32",
                                             {32, 8},
                                             f32(values(32, 8))}});
        QVERIFY(refusal(t5, {}, Role::T5Bias).contains(QStringLiteral("several tensors are named as a T5 bias table")));
        QCOMPARE(
            parse(t5, "decoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", Role::T5Bias)->cols(), 8);
        QCOMPARE(
            parse(gguf({{"enc.blk.0.attn_rel_b.weight", 0, {32, 6}, f32(values(32, 6))}}), {}, Role::T5Bias)->rows(),
            32);
    }

    void aFileOnDiskIsNamedFileColonTensor()
    {
        QTemporaryDir dir;
        const std::string path = (dir.path() + QStringLiteral("/a:b.safetensors")).toStdString(); // a colon in the name
        {
            std::ofstream out(path, std::ios::binary);
            const std::string bytes = safetensors(
                {{"wpe.weight", "F32", {3, 2}, f32(values(3, 2))}, {"other", "F32", {4, 2}, f32(values(4, 2))}});
            out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        }
        QCOMPARE(pe::PositionTable::open(path)->rows(), 3);
        const Table other = pe::PositionTable::open(path + ":other");
        QCOMPARE(other->rows(), 4);
        QCOMPARE(other->path(), path + ":other"); // what a session keeps, and opens again
        QCOMPARE(pe::PositionTable::open(other->path())->rows(), 4);
        QCOMPARE(pe::PositionTable::index(path).tensors.size(), std::size_t{2});
        // A tensor's name may hold a colon (TensorFlow's "position_embeddings:0").
        const std::string colon = (dir.path() + QStringLiteral("/tf.safetensors")).toStdString();
        {
            std::ofstream out(colon, std::ios::binary);
            const std::string bytes = safetensors({{"position_embeddings:0", "F32", {5, 2}, f32(values(5, 2))}});
            out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        }
        QCOMPARE(pe::PositionTable::open(colon + ":position_embeddings:0")->rows(), 5);
    }

    void whispersEncoderTableIsItsSinusoids()
    {
        // openai/whisper's sinusoids(1500, 384): [sin | cos], inv_timescales exp(-i·ln(10000)/(192 - 1)),
        // written here from its definition (whisper/model.py) and stored as float32 and float16.
        const int half = 192;
        std::vector<double> exact;
        for (int t = 0; t < 1500; ++t) {
            for (int i = 0; i < half; ++i)
                exact.push_back(std::sin(t * std::exp(-std::log(10000.0) / (half - 1) * i)));
            for (int i = 0; i < half; ++i)
                exact.push_back(std::cos(t * std::exp(-std::log(10000.0) / (half - 1) * i)));
        }
        const Table w = parse(safetensors({{"model.encoder.embed_positions.weight", "F32", {1500, 384}, f32(exact)}}));
        QCOMPARE(w->rows(), 1500); // read whole
        const QString said = QString::fromStdString(w->convention());
        QVERIFY2(said.startsWith(QStringLiteral("Whisper's encoder table: its sinusoids")), qPrintable(said));
        // float32's rounding of values up to 1: at most 2^-25, about 3e-8.
        const double worst = said.section(QStringLiteral("at most "), 1).section(QLatin1Char(' '), 0, 0).toDouble();
        QVERIFY2(worst > 0 && worst <= 3.0e-8, qPrintable(said));
        // The halves swapped (sin and cos interleaved instead) are not its sinusoids.
        std::vector<double> interleaved(exact.size());
        for (int t = 0; t < 1500; ++t)
            for (int i = 0; i < half; ++i) {
                interleaved[static_cast<std::size_t>(t * 384 + 2 * i)] = exact[static_cast<std::size_t>(t * 384 + i)];
                interleaved[static_cast<std::size_t>(t * 384 + 2 * i + 1)] =
                    exact[static_cast<std::size_t>(t * 384 + half + i)];
            }
        const Table other =
            parse(safetensors({{"model.encoder.embed_positions.weight", "F32", {1500, 384}, f32(interleaved)}}));
        QVERIFY2(other->convention().starts_with("not Whisper's sinusoids"), other->convention().c_str());
        // Another table says nothing of Whisper.
        QVERIFY(parse(safetensors({{"wpe.weight", "F32", {1500, 384}, f32(exact)}}))->convention().empty());
    }

    void eachModelsConventionIsAppliedAndStated()
    {
        // OPT: 2,048 positions in 2,050 rows, position p in row p + 2.
        const auto opt = values(2050, 4);
        const Table o = parse(safetensors({{"model.decoder.embed_positions.weight", "F32", {2050, 4}, f32(opt)}}));
        QCOMPARE(o->rows(), 2048);
        QCOMPARE(o->skippedRows(), 2);
        QCOMPARE(o->value(0, 1), opt[2 * 4 + 1]);
        QVERIFY(QString::fromStdString(o->convention()).contains(QStringLiteral("row p + 2")));
        // RoBERTa: 514 rows, padding_idx 1.
        QCOMPARE(parse(safetensors(
                           {{"roberta.embeddings.position_embeddings.weight", "F32", {514, 2}, f32(values(514, 2))}}))
                     ->rows(),
                 512);
        // BERT's 512 and Whisper's 448 and 1,500 are read whole.
        QCOMPARE(
            parse(safetensors({{"bert.embeddings.position_embeddings.weight", "F32", {512, 2}, f32(values(512, 2))}}))
                ->rows(),
            512);
        QCOMPARE(parse(safetensors({{"model.decoder.embed_positions.weight", "F32", {448, 2}, f32(values(448, 2))}}))
                     ->skippedRows(),
                 0);
        // ViT-B/16 at 224: [1, 197, D], the class token and 14 x 14 patches.
        const auto vit = values(197, 6);
        const Table v = parse(safetensors({{"vit.embeddings.position_embeddings", "F32", {1, 197, 6}, f32(vit)}}));
        QCOMPARE(v->rows(), 196);
        QCOMPARE(v->gridSide(), 14);
        QCOMPARE(v->value(0, 0), vit[6]);
        // DeiT's distillation token, and a grid with no class token (timm's pos_embed of a model
        // without one).
        const Table d =
            parse(safetensors({{"deit.embeddings.position_embeddings", "F32", {1, 198, 2}, f32(values(198, 2))}}));
        QCOMPARE(d->skippedRows(), 2);
        QCOMPARE(d->gridSide(), 14);
        QCOMPARE(parse(safetensors({{"pos_embed", "F32", {1, 196, 2}, f32(values(196, 2))}}))->skippedRows(), 0);
        const QString ragged = refusal(safetensors({{"pos_embed", "F32", {1, 200, 2}, f32(values(200, 2))}}));
        QVERIFY2(ragged.contains(QStringLiteral("not a square grid")), qPrintable(ragged));
        // A 5,120-wide table (OPT-13B) opens and validates.
        const Table wide =
            parse(safetensors({{"wpe.weight", "BF16", {2, 5120}, bf16(std::vector<double>(10240, 0.5))}}));
        QVERIFY(!pe::validate(pe::tableParams({}, wide)));
    }

    void jsonIsReadStrictly()
    {
        std::string error;
        QVERIFY(pe::parseJson(R"({"a": [1, 2.5e3, -0, "x\u00e9\ud83d\ude00"], "b": {"c": null, "d": true}})", &error));
        for (const char *bad : {"{\"a\":1,}", "{\"a\":1} x", "[01]", "{\"a\":1,\"a\":2}", "\"\\ud800\"", "[1e999]",
                                "{'a':1}", "[\"\t\"]"}) {
            error.clear();
            QVERIFY2(!pe::parseJson(bad, &error), bad);
            QVERIFY(!error.empty());
        }
        const auto big = pe::parseJson("[9007199254740993]", &error);
        QCOMPARE(big->items.front().unsignedInteger().value(), std::uint64_t{9007199254740993ull});
    }
};

QTEST_APPLESS_MAIN(TestTensorFile)
#include "tst_tensor_file.moc"

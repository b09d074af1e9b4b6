// Checkpoints from the command line as a researcher opens them: --table FILE[:TENSOR] on safetensors
// and GGUF files gives the same --export-data encoding, bit for bit, as the .npy of the same values;
// every view draws a GPT-2-shaped table (1,024 x 768) and a ViT's; --list-tensors lists a file and
// marks the table; the refusals name the candidates.
#include "checkpoint_files.h"
#include "command_line_support.h"

#include "export/data_export.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace checkpoint;

namespace {

std::vector<double> gpt2Shaped(std::int64_t rows, int cols)
{
    // Learned-looking values: a slow sinusoid per column plus a float-exact ripple.
    std::vector<double> v;
    for (std::int64_t r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            v.push_back(static_cast<float>(0.1 * std::sin(static_cast<double>(r) * std::pow(1e4, -c / double(cols))) +
                                           0.01 * std::cos(1.7 * c + 0.3 * static_cast<double>(r))));
    return v;
}

struct Output {
    int code;
    QString out, err;
};

Output runWithOutput(const QStringList &args)
{
    QProcess p;
    p.start(qEnvironmentVariable("PE_EXPLORER"), args);
    if (!p.waitForFinished(240000))
        return {-1, {}, QStringLiteral("timed out")};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromLocal8Bit(p.readAllStandardError())};
}

} // namespace

class TestCommandLineCheckpoints : public QObject
{
    Q_OBJECT

  private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void everyFormatExportsTheNpysValuesBitForBit()
    {
        const auto v = gpt2Shaped(1024, 768);
        const QString npy = write(QStringLiteral("wpe.npy"), pe::npyHeader({1024, 768}) + f64(v));
        const QString st = write(QStringLiteral("gpt2.safetensors"),
                                 safetensors({{"transformer.wte.weight", "F32", {8, 768}, f32(gpt2Shaped(8, 768))},
                                              {"transformer.wpe.weight", "F32", {1024, 768}, f32(v)}},
                                             3));
        const QString gg = write(QStringLiteral("gpt2.gguf"), gguf({{"position_embd.weight", 0, {1024, 768}, f32(v)}},
                                                                   {{"general.architecture", ggufString("gpt2")}}));
        const QByteArray reference = exportEncoding(npy);
        QVERIFY(!reference.isEmpty());
        QCOMPARE(exportEncoding(st), reference);
        QCOMPARE(exportEncoding(st + QStringLiteral(":transformer.wpe.weight")), reference);
        QCOMPARE(exportEncoding(gg), reference);
        // bfloat16: the .npy of the values bfloat16 holds.
        std::vector<double> rounded;
        const std::string b = bf16(v);
        for (std::size_t k = 0; k < v.size(); ++k) {
            const std::uint32_t bits = static_cast<std::uint32_t>(static_cast<unsigned char>(b[2 * k]) |
                                                                  static_cast<unsigned char>(b[2 * k + 1]) << 8)
                                       << 16;
            float f;
            std::memcpy(&f, &bits, 4);
            rounded.push_back(f);
        }
        QCOMPARE(exportEncoding(
                     write(QStringLiteral("bf16.safetensors"), safetensors({{"wpe.weight", "BF16", {1024, 768}, b}}))),
                 exportEncoding(write(QStringLiteral("bf16.npy"), pe::npyHeader({1024, 768}) + f64(rounded))));
    }

    void everyViewDrawsACheckpointsTable_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("drawn");
        QTest::newRow("GPT-2's wpe, 1,024 x 768")
            << write(QStringLiteral("views-gpt2.safetensors"),
                     safetensors({{"transformer.wpe.weight", "F32", {1024, 768}, f32(gpt2Shaped(1024, 768))}}))
            << 11;
        QTest::newRow("ViT-B/16's [1, 197, 768]")
            << write(QStringLiteral("vit.safetensors"),
                     safetensors(
                         {{"vit.embeddings.position_embeddings", "F32", {1, 197, 768}, f32(gpt2Shaped(197, 768))}}))
            << 12;
    }

    void everyViewDrawsACheckpointsTable()
    {
        QFETCH(QString, file);
        QFETCH(int, drawn);
        const QString out = dir_.filePath(QFileInfo(file).baseName() + QStringLiteral("-views"));
        const Run r = run({QStringLiteral("--table"), file, QStringLiteral("--export"), QStringLiteral("all"),
                           QStringLiteral("--out"), out, QStringLiteral("--size"), QStringLiteral("640x400")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        // The views of RoPE, ALiBi and T5 say they need their scheme, the probe that d 768 is past
        // its budget (as for the sinusoids at 768), the grid that GPT-2's table has none; every other
        // view is drawn (the grid of a ViT's too).
        const QStringList pngs = QDir(out).entryList({QStringLiteral("*.png")});
        QVERIFY2(pngs.size() == drawn, qPrintable(pngs.join(QLatin1Char(' ')) + QLatin1Char('\n') + r.err));
        for (const QString &line : r.err.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
            QVERIFY2(line.contains(QStringLiteral("shows the")) || line.contains(QStringLiteral("probe would take")) ||
                         line.contains(QStringLiteral("not a ViT's table")),
                     qPrintable(line));
    }

    void aVitTableOnItsGrid()
    {
        // ViT's figure 7: each patch's cosine similarity to one patch, on the 4 x 4 grid after the
        // class token; checked against the rows' cosine computed here.
        const int side = 4, d = 6;
        const auto v = gpt2Shaped(1 + side * side, d);
        const QString file = write(QStringLiteral("vit-small.safetensors"),
                                   safetensors({{"vit.embeddings.position_embeddings", "F32", {1, 17, d}, f32(v)}}));
        const QString out = dir_.filePath(QStringLiteral("grid.csv"));
        const Run r = run({QStringLiteral("--table"), file, QStringLiteral("--position"), QStringLiteral("6"),
                           QStringLiteral("--export-data"), QStringLiteral("grid"), QStringLiteral("--out"), out});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.first(), QStringLiteral("position,frame,row,column,similarity"));
        QCOMPARE(lines.size(), 1 + side * side);
        auto row = [&](int patch) {
            return std::vector<double>(v.begin() + (1 + patch) * d, v.begin() + (2 + patch) * d);
        };
        const auto ref = row(6);
        for (int k = 0; k < side * side; ++k) {
            const QStringList cells = lines[k + 1].split(QLatin1Char(','));
            QCOMPARE(cells[2].toInt(), k / side);
            QCOMPARE(cells[3].toInt(), k % side);
            const auto x = row(k);
            double dot = 0, nx = 0, nr = 0;
            for (int j = 0; j < d; ++j) {
                dot += x[j] * ref[j];
                nx += x[j] * x[j];
                nr += ref[j] * ref[j];
            }
            QVERIFY2(std::abs(cells[4].toDouble() - dot / std::sqrt(nx * nr)) < 1e-12, qPrintable(lines[k + 1]));
        }
        // A table with no grid says how to give one; with --grid it is read as patches.
        const QString plain = write(QStringLiteral("plain.safetensors"),
                                    safetensors({{"wpe.weight", "F32", {16, d}, f32(gpt2Shaped(16, d))}}));
        Run refused = run({QStringLiteral("--table"), plain, QStringLiteral("--export-data"), QStringLiteral("grid"),
                           QStringLiteral("--out"), out});
        QVERIFY2(refused.code == 2 && refused.err.contains(QStringLiteral("--grid HxW")), qPrintable(refused.err));
        const Run given = run({QStringLiteral("--table"), plain, QStringLiteral("--grid"), QStringLiteral("4x4"),
                               QStringLiteral("--export"), QStringLiteral("grid"), QStringLiteral("--out"),
                               dir_.filePath(QStringLiteral("plain-grid.png"))});
        QVERIFY2(given.code == 0, qPrintable(given.err));
    }

    void listTensorsMarksTheTable()
    {
        const QString st =
            write(QStringLiteral("list.safetensors"),
                  safetensors({{"model.decoder.embed_tokens.weight", "F32", {4, 8}, f32(gpt2Shaped(4, 8))},
                               {"model.decoder.embed_positions.weight", "BF16", {2050, 8}, bf16(gpt2Shaped(2050, 8))},
                               {"model.decoder.layers.0.fc1.bias", "I64", {3}, std::string(24, '\0')}}));
        const Output o = runWithOutput({QStringLiteral("--list-tensors"), st});
        QVERIFY2(o.code == 0, qPrintable(o.err));
        QVERIFY2(o.out.contains(QStringLiteral("safetensors, 3 tensors")), qPrintable(o.out));
        QVERIFY2(o.out.contains(QRegularExpression(
                     QStringLiteral("model.decoder.embed_positions.weight +BF16 +2,050 x 8  <- --table takes it"))),
                 qPrintable(o.out));
        QVERIFY(o.out.contains(QRegularExpression(QStringLiteral("fc1.bias +I64 +3\n"))));
        // OPT's table: 2,048 positions, the convention in the data export's rows.
        const Run r = run({QStringLiteral("--table"), st, QStringLiteral("--export-data"), QStringLiteral("encoding"),
                           QStringLiteral("--out"), dir_.filePath(QStringLiteral("opt.csv"))});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QFile csv(dir_.filePath(QStringLiteral("opt.csv")));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QCOMPARE(csv.readAll().count('\n'), 2049); // a header and 2,048 positions
        // A GGUF's metadata count, and a file refused.
        const Output g = runWithOutput(
            {QStringLiteral("--list-tensors"),
             write(QStringLiteral("list.gguf"), gguf({{"position_embd.weight", 0, {4, 8}, f32(gpt2Shaped(4, 8))}},
                                                     {{"general.architecture", ggufString("gpt2")}}))});
        QVERIFY2(g.out.contains(QStringLiteral("GGUF, 1 tensor, 1 metadata key\n")), qPrintable(g.out));
        const Output bad = runWithOutput({QStringLiteral("--list-tensors"), dir_.path()});
        QCOMPARE(bad.code, 2);
        QVERIFY2(bad.err.contains(QStringLiteral("a folder")), qPrintable(bad.err));
    }

    void ambiguousAndBadTablesAreRefused()
    {
        const QString two =
            write(QStringLiteral("two.safetensors"),
                  safetensors(
                      {{"text_model.embeddings.position_embedding.weight", "F32", {77, 8}, f32(gpt2Shaped(77, 8))},
                       {"vision_model.embeddings.position_embedding.weight", "F32", {50, 8}, f32(gpt2Shaped(50, 8))}}));
        const QStringList exportArgs{QStringLiteral("--export-data"), QStringLiteral("encoding"),
                                     QStringLiteral("--out"), dir_.filePath(QStringLiteral("never.csv"))};
        Run r = run(QStringList{QStringLiteral("--table"), two} + exportArgs);
        QCOMPARE(r.code, 2);
        QVERIFY2(
            r.err.contains(QStringLiteral("\"text_model.embeddings.position_embedding.weight\" (77 x 8, F32)")) &&
                r.err.contains(QStringLiteral("\"vision_model.embeddings.position_embedding.weight\" (50 x 8, F32)")) &&
                r.err.count(QLatin1Char('\n')) == 1,
            qPrintable(r.err));
        QVERIFY(!QFile::exists(dir_.filePath(QStringLiteral("never.csv"))));
        // The vision model's: CLIP's class token and 7 x 7 patches.
        r = run(QStringList{QStringLiteral("--table"),
                            two + QStringLiteral(":vision_model.embeddings.position_embedding.weight")} +
                exportArgs);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        r = run(QStringList{QStringLiteral("--table"), two + QStringLiteral(":nope")} + exportArgs);
        QVERIFY2(r.code == 2 && r.err.contains(QStringLiteral("no tensor named \"nope\"")), qPrintable(r.err));
        const QString truncated =
            write(QStringLiteral("truncated.safetensors"),
                  safetensors({{"wpe.weight", "F32", {4, 8}, f32(gpt2Shaped(4, 8))}}).substr(0, 80));
        r = run(QStringList{QStringLiteral("--table"), truncated} + exportArgs);
        QVERIFY2(r.code == 2 && r.err.contains(QStringLiteral("truncated")), qPrintable(r.err));
    }

    void modelConfigsAreTheirFlags()
    {
        // Every shipped config through --model gives what the flags --model-info prints give.
        const QDir models(QStringLiteral(PE_SOURCE_DIR "/resources/models"));
        const QStringList files = models.entryList({QStringLiteral("*.json")}, QDir::Files);
        QCOMPARE(files.size(), 11);
        for (const QString &file : files) {
            const QString path = models.filePath(file);
            const Output info = runWithOutput({QStringLiteral("--model-info"), path});
            QVERIFY2(info.code == 0, qPrintable(info.err));
            const QStringList lines = info.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
            QVERIFY2(lines.size() >= 3 && lines.last().startsWith(QStringLiteral("As flags: --scheme ")),
                     qPrintable(info.out));
            const QString data = lines.last().contains(QStringLiteral("--scheme alibi"))
                                     ? QStringLiteral("slopes")
                                     : QStringLiteral("frequencies");
            const QString a = dir_.filePath(file + QStringLiteral(".model.csv")),
                          b = dir_.filePath(file + QStringLiteral(".flags.csv"));
            Run r = run(
                {QStringLiteral("--model"), path, QStringLiteral("--export-data"), data, QStringLiteral("--out"), a});
            QVERIFY2(r.code == 0, qPrintable(file + r.err));
            r = run(lines.last().mid(QStringLiteral("As flags: ").size()).split(QLatin1Char(' ')) +
                    QStringList{QStringLiteral("--export-data"), data, QStringLiteral("--out"), b});
            QVERIFY2(r.code == 0, qPrintable(file + r.err));
            QFile fa(a), fb(b);
            QVERIFY(fa.open(QIODevice::ReadOnly) && fb.open(QIODevice::ReadOnly));
            QVERIFY2(fa.readAll() == fb.readAll(), qPrintable(file));
        }
    }

    void modelFlagsAndRefusals()
    {
        const QString llama = QStringLiteral(PE_SOURCE_DIR "/resources/models/llama-3.1-8b.json");
        const QString out = dir_.filePath(QStringLiteral("model.csv"));
        const QStringList exportArgs{QStringLiteral("--export-data"), QStringLiteral("frequencies"),
                                     QStringLiteral("--out"), out};
        // Flags given with --model change what they name.
        Run r = run(QStringList{QStringLiteral("--model"), llama, QStringLiteral("--factor"), QStringLiteral("16"),
                                QStringLiteral("--seq-len"), QStringLiteral("4096")} +
                    exportArgs);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const Run flags = run(QStringList{
            QStringLiteral("--scheme"), QStringLiteral("rope"), QStringLiteral("--base"), QStringLiteral("500000"),
            QStringLiteral("--layout"), QStringLiteral("split"), QStringLiteral("--scaling"), QStringLiteral("llama3"),
            QStringLiteral("--factor"), QStringLiteral("16"), QStringLiteral("--original-context"),
            QStringLiteral("8192"), QStringLiteral("--seq-len"), QStringLiteral("4096"),
            QStringLiteral("--export-data"), QStringLiteral("frequencies"), QStringLiteral("--out"),
            dir_.filePath(QStringLiteral("flags.csv"))});
        QVERIFY2(flags.code == 0, qPrintable(flags.err));
        QFile a(out), b(dir_.filePath(QStringLiteral("flags.csv")));
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        QCOMPARE(a.readAll(), b.readAll());
        QFile::remove(out);
        // One line each, code 2, nothing written.
        const QString gpt2 =
            write(QStringLiteral("gpt2-config.json"), R"({"model_type": "gpt2", "n_positions": 1024})");
        const QString t5 = write(QStringLiteral("t5-config.json"),
                                 R"({"model_type": "t5", "num_heads": 12, "relative_attention_num_buckets": 32})");
        const QString bias16 =
            write(QStringLiteral("bias16.npy"), pe::npyHeader({16, 12}) + f64(std::vector<double>(16 * 12, 0.5)));
        const QString folder = dir_.filePath(QStringLiteral("empty-model"));
        QVERIFY(QDir().mkpath(folder));
        const std::pair<QStringList, QString> refused[] = {
            {{QStringLiteral("--model"), llama, QStringLiteral("--preset"), QStringLiteral("llama2-rope")},
             QStringLiteral("--model and --preset both give the parameters")},
            {{QStringLiteral("--model"), llama, QStringLiteral("--table"), llama},
             QStringLiteral("a table is its own")},
            {{QStringLiteral("--model"), gpt2}, QStringLiteral("--table FILE")},
            {{QStringLiteral("--model-info"), llama, QStringLiteral("--factor"), QStringLiteral("16")},
             QStringLiteral("--model-info shows the file alone")},
            {{QStringLiteral("--model"), t5, QStringLiteral("--bias-table"), bias16},
             QStringLiteral("the table has 16 buckets and 12 heads, the model's config 32 and 12")},
            {{QStringLiteral("--model"), folder}, QStringLiteral("without a config.json")},
            {{QStringLiteral("--model"), QStringLiteral("/dev/zero")}, QStringLiteral("character device")},
            {{QStringLiteral("--model"), llama, QStringLiteral("--factor"), QStringLiteral("0.5")},
             QStringLiteral("--factor")},
        };
        for (const auto &[args, expected] : refused) {
            r = run(args + exportArgs);
            QVERIFY2(r.code == 2 && r.err.contains(expected) && r.err.count(QLatin1Char('\n')) == 1,
                     qPrintable(args.join(QLatin1Char(' ')) + QStringLiteral(": ") + r.err));
            QVERIFY(!QFile::exists(out));
        }
        const Output info = runWithOutput({QStringLiteral("--model-info"), gpt2});
        QVERIFY2(info.code == 2 && info.out.isEmpty() && info.err.contains(QStringLiteral("--table")),
                 qPrintable(info.err));
    }

    void ggufModel()
    {
        // A GGUF's metadata as --model reads it (the full mapping: tst_model_config).
        const QString gg =
            write(QStringLiteral("mistral.gguf"), gguf({}, {{"general.architecture", ggufString("llama")},
                                                            {"general.name", ggufString("Mistral 7B")},
                                                            {"llama.context_length", ggufUint32(32768)},
                                                            {"llama.embedding_length", ggufUint32(4096)},
                                                            {"llama.attention.head_count", ggufUint32(32)},
                                                            {"llama.rope.dimension_count", ggufUint32(128)},
                                                            {"llama.rope.freq_base", ggufFloat32(1e6f)}}));
        const Output info = runWithOutput({QStringLiteral("--model-info"), gg});
        QVERIFY2(info.code == 0 && info.out.contains(QStringLiteral("Mistral 7B (llama)")) &&
                     info.out.contains(QStringLiteral("--base 1000000")),
                 qPrintable(info.out + info.err));
    }

  private:
    QString write(const QString &name, const std::string &bytes)
    {
        const QString path = dir_.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write(bytes.data(), static_cast<qint64>(bytes.size()));
        return path;
    }
    QByteArray exportEncoding(const QString &table)
    {
        const QString out = dir_.filePath(QStringLiteral("encoding-%1.npy").arg(++exports_));
        const Run r = run({QStringLiteral("--table"), table, QStringLiteral("--export-data"),
                           QStringLiteral("encoding"), QStringLiteral("--out"), out});
        if (r.code != 0)
            qWarning("%s", qPrintable(r.err));
        QFile f(out);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
    QTemporaryDir dir_;
    int exports_ = 0;
};

QTEST_MAIN(TestCommandLineCheckpoints)
#include "tst_command_line_checkpoints.moc"

// A model's config.json read into the scheme (core/models/model_config.h): every shipped config's
// frequencies against a direct implementation of transformers' formula for its rope type
// (modeling_rope_utils.py: _compute_default/linear/llama3/yarn/longrope_parameters, written here
// from their definitions), ALiBi's and T5's configs, GGUF metadata, and the refusals.
#include "checkpoint_files.h"
#include "encodings/rope.h"
#include "encodings/scheme.h"
#include "models/model_config.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace {

std::vector<double> defaultInvFreq(double base, int dim)
{
    std::vector<double> f;
    for (int i = 0; i < dim; i += 2)
        f.push_back(1.0 / std::pow(base, static_cast<double>(i) / dim));
    return f;
}

std::vector<double> llama3(double base, int dim, double factor, double low, double high, double old)
{
    std::vector<double> f = defaultInvFreq(base, dim);
    const double lowWavelen = old / low, highWavelen = old / high;
    for (double &x : f) {
        const double wavelen = 2 * std::numbers::pi / x;
        if (wavelen > lowWavelen)
            x = x / factor;
        else if (wavelen >= highWavelen) {
            const double smooth = (old / wavelen - low) / (high - low);
            x = (1 - smooth) * x / factor + smooth * x;
        }
    }
    return f;
}

std::vector<double> yarn(double base, int dim, double factor, double betaFast, double betaSlow, double maxPos)
{
    const auto correction = [&](double rotations) {
        return dim * std::log(maxPos / (rotations * 2 * std::numbers::pi)) / (2 * std::log(base));
    };
    double low = std::max(std::floor(correction(betaFast)), 0.0);
    double high = std::min(std::ceil(correction(betaSlow)), dim - 1.0);
    if (low == high)
        high += 0.001;
    std::vector<double> f;
    for (int i = 0; i < dim / 2; ++i) {
        const double posFreq = std::pow(base, 2.0 * i / dim);
        const double ramp = std::clamp((i - low) / (high - low), 0.0, 1.0);
        const double extrapolation = 1 - ramp;
        f.push_back(1 / (factor * posFreq) * (1 - extrapolation) + 1 / posFreq * extrapolation);
    }
    return f;
}

// transformers' _compute_longrope_parameters: inv_freq = 1 / (ext_factors · base^(2i/dim)), the long
// factors past the original context.
std::vector<double> longrope(double base, int dim, const std::vector<double> &factors)
{
    std::vector<double> f;
    for (int i = 0; i < dim / 2; ++i)
        f.push_back(1.0 / (factors[static_cast<std::size_t>(i)] * std::pow(base, 2.0 * i / dim)));
    return f;
}

pe::ModelConfig fromText(const std::string &json)
{
    return pe::readModelConfig(json, "config.json");
}

// The refusal of a config, or "" when it is read.
QString refusal(const std::string &json)
{
    try {
        fromText(json);
    } catch (const std::exception &e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

pe::ModelConfig read(const QString &file)
{
    QFile f(QStringLiteral(PE_SOURCE_DIR "/resources/models/") + file);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(file));
    const QByteArray text = f.readAll();
    return pe::readModelConfig(std::string_view(text.constData(), static_cast<std::size_t>(text.size())),
                               file.toStdString());
}

void sameFrequencies(const pe::EncodingParams &p, const std::vector<double> &expected, std::int64_t length)
{
    const std::vector<double> got = pe::ropeFrequencies(p.base, p.dModel, p.rope, length);
    QCOMPARE(got.size(), expected.size());
    for (std::size_t i = 0; i < got.size(); ++i)
        QVERIFY2(std::abs(got[i] - expected[i]) <= 1e-12 * expected[i],
                 qPrintable(
                     QStringLiteral("pair %1: %2 vs %3").arg(i).arg(got[i], 0, 'g', 17).arg(expected[i], 0, 'g', 17)));
}

} // namespace

class TestModelConfig : public QObject
{
    Q_OBJECT

  private slots:
    void llamaConfigs()
    {
        const auto l2 = read(QStringLiteral("llama-2-7b.json"));
        QCOMPARE(l2.params.base, 10000.0); // rope_theta absent
        QCOMPARE(l2.params.dModel, 128);
        sameFrequencies(l2.params, defaultInvFreq(1e4, 128), 4096);
        const auto l31 = read(QStringLiteral("llama-3.1-8b.json"));
        QCOMPARE(l31.params.rope.scaling, pe::RopeScaling::Llama3);
        sameFrequencies(l31.params, llama3(5e5, 128, 8, 1, 4, 8192), 131072);
        const auto l32 = read(QStringLiteral("llama-3.2-1b.json"));
        QCOMPARE(l32.params.dModel, 64);
        sameFrequencies(l32.params, llama3(5e5, 64, 32, 1, 4, 8192), 131072);
    }

    void yarnConfigs()
    {
        const auto q = read(QStringLiteral("qwen2.5-7b-yarn.json"));
        QCOMPARE(q.params.dModel, 128);
        sameFrequencies(q.params, yarn(1e6, 128, 4, 32, 1, 32768), 32768);
        const auto ds = read(QStringLiteral("deepseek-v3.json"));
        QCOMPARE(ds.params.dModel, 64);
        QCOMPARE(ds.params.layout, pe::Layout::Interleaved);
        sameFrequencies(ds.params, yarn(1e4, 64, 40, 32, 1, 4096), 163840);
    }

    void longRopeAndPartialAndLocal()
    {
        const auto phi = read(QStringLiteral("phi-3-mini-128k.json"));
        QCOMPARE(phi.params.rope.scaling, pe::RopeScaling::LongRope);
        QCOMPARE(phi.params.rope.factor, 32.0);
        const auto neox = read(QStringLiteral("gpt-neox-20b.json"));
        QCOMPARE(neox.params.rope.rotaryFraction, 0.25);
        auto rotated = defaultInvFreq(1e4, 24);
        rotated.resize(48, 0.0);
        sameFrequencies(neox.params, rotated, 2048);
        // Gemma 3's published text_config names neither head_dim nor rope_theta: Gemma3TextConfig's.
        const auto gemma = read(QStringLiteral("gemma-3-4b.json"));
        QCOMPARE(gemma.params.dModel, 256);
        QCOMPARE(gemma.params.base, 1e6);
        QVERIFY(gemma.mapping.front().starts_with("not in the file, Gemma3TextConfig's defaults taken: head_dim 256"));
        QCOMPARE(gemma.params.localBase, 1e4);
        QCOMPARE(gemma.params.slidingWindow, std::int64_t(1024));
        auto linear = defaultInvFreq(1e6, 256);
        for (double &x : linear)
            x /= 8;
        sameFrequencies(gemma.params, linear, 131072);
    }

    void biasesFromConfigs()
    {
        const auto mpt = read(QStringLiteral("mpt-7b.json"));
        QCOMPARE(mpt.params.scheme, pe::SchemeId::Alibi);
        QCOMPARE(mpt.params.heads, 32);
        QCOMPARE(mpt.params.seqLen, std::int64_t(2048)); // max_seq_len
        const auto bloom = read(QStringLiteral("bloom.json"));
        QCOMPARE(bloom.params.scheme, pe::SchemeId::Alibi);
        QCOMPARE(bloom.params.heads, 112);
        const auto falcon = fromText(R"({"model_type": "falcon", "alibi": true, "num_attention_heads": 71,
                                        "hidden_size": 4544, "rope_theta": 10000})");
        QCOMPARE(falcon.params.scheme, pe::SchemeId::Alibi);
        QCOMPARE(falcon.params.heads, 71);
        const auto t5 = fromText(R"({"model_type": "t5", "architectures": ["T5ForConditionalGeneration"],
                                    "d_kv": 64, "num_heads": 12, "relative_attention_num_buckets": 32,
                                    "relative_attention_max_distance": 128})");
        QCOMPARE(t5.params.scheme, pe::SchemeId::T5);
        QCOMPARE(t5.params.buckets, 32);
        QCOMPARE(t5.params.maxDistance, std::int64_t(128));
        QCOMPARE(t5.params.heads, 12);
    }

    void everyShippedConfigIsRead()
    {
        const QStringList files = {"bloom.json",           "deepseek-v3.json",     "gemma-3-4b.json",
                                   "gpt-neox-20b.json",    "llama-2-7b.json",      "llama-3.1-8b.json",
                                   "llama-3.2-1b.json",    "mistral-7b-v0.1.json", "mpt-7b.json",
                                   "phi-3-mini-128k.json", "qwen2.5-7b-yarn.json"};
        for (const QString &f : files) {
            const auto m = read(f);
            QVERIFY2(!pe::validate(m.params), qPrintable(f));
            QVERIFY2(!m.mapping.empty(), qPrintable(f));
            QVERIFY2(!m.architectures.empty(), qPrintable(f));
            QVERIFY2(m.name.find('/') != std::string::npos, qPrintable(f)); // the hub's name
        }
        const auto mistral = read(QStringLiteral("mistral-7b-v0.1.json"));
        QCOMPARE(mistral.params.slidingWindow, std::int64_t(0)); // every layer's window: not local layers
        sameFrequencies(mistral.params, defaultInvFreq(1e4, 128), 32768);
    }

    void newerAndLegacyKeys()
    {
        // transformers 5's rope_parameters, per layer type (Gemma 3 as it now saves).
        const auto gemma = fromText(R"({"model_type": "gemma3_text", "head_dim": 256, "max_position_embeddings": 131072,
            "sliding_window": 1024, "rope_parameters": {
              "full_attention": {"rope_type": "linear", "factor": 8.0, "rope_theta": 1000000.0},
              "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0}}})");
        QCOMPARE(gemma.params.base, 1e6);
        QCOMPARE(gemma.params.rope.scaling, pe::RopeScaling::Linear);
        QCOMPARE(gemma.params.rope.factor, 8.0);
        QCOMPARE(gemma.params.rope.originalContext, std::int64_t(16384)); // 131,072 / 8: none given
        QCOMPARE(gemma.params.localBase, 1e4);
        QCOMPARE(gemma.params.slidingWindow, std::int64_t(1024));
        // Phi-3's first configs: "type": "su", original_max_position_embeddings at the top level.
        std::string factors = "[";
        for (int i = 0; i < 48; ++i)
            factors += (i ? "," : "") + std::to_string(1.0 + i / 10.0);
        factors += "]";
        const auto su = fromText(R"({"model_type": "phi3", "hidden_size": 3072, "num_attention_heads": 32,
            "max_position_embeddings": 131072, "original_max_position_embeddings": 4096,
            "rope_scaling": {"type": "su", "short_factor": )" +
                                 factors + R"(, "long_factor": )" + factors + "}}");
        QCOMPARE(su.params.rope.scaling, pe::RopeScaling::LongRope);
        QCOMPARE(su.params.rope.factor, 32.0);
        QCOMPARE(su.params.rope.originalContext, std::int64_t(4096));
        // Keys left out take the config class's defaults, said: LlamaConfig's rope_theta 10,000 (Llama
        // 2's config omits it) and max_position_embeddings 2,048.
        const auto bare = fromText(R"({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32})");
        QCOMPARE(bare.params.base, 1e4);
        QCOMPARE(bare.params.seqLen, std::int64_t(2048));
        QCOMPARE(bare.mapping.front(),
                 std::string("not in the file, LlamaConfig's defaults taken: max_position_embeddings 2,048, "
                             "rope_theta 10,000"));
        // A model type without a table of defaults: rope_theta's own default, said.
        const auto olmo = fromText(R"({"model_type": "olmo", "hidden_size": 2048, "num_attention_heads": 16})");
        QCOMPARE(olmo.params.base, 1e4);
        QVERIFY(std::any_of(olmo.mapping.begin(), olmo.mapping.end(),
                            [](const std::string &l) { return l.find("absent") != std::string::npos; }));
        QCOMPARE(olmo.params.seqLen, std::int64_t(2048)); // no context given: said, 2,048
        // GPT-J: n_embd and n_head, rotary_dim 64 of 256, interleaved (rotate_every_two).
        const auto gptj = fromText(R"({"model_type": "gptj", "n_embd": 4096, "n_head": 16, "rotary_dim": 64,
                                      "n_positions": 2048})");
        QCOMPARE(gptj.params.dModel, 256);
        QCOMPARE(gptj.params.rope.rotaryFraction, 0.25);
        QCOMPARE(gptj.params.layout, pe::Layout::Interleaved);
        auto gptjFreq = defaultInvFreq(1e4, 64);
        gptjFreq.resize(128, 0.0);
        sameFrequencies(gptj.params, gptjFreq, 2048);
        // Llama 4 Scout: llama3 scaling with equal low and high factors (no band between), NoPE every 4th
        // layer from Llama4TextConfig's defaults, complex (interleaved) pairs, a context held to 1,000,000.
        const auto scout = fromText(R"({"model_type": "llama4", "text_config": {"model_type": "llama4_text",
            "hidden_size": 5120, "num_attention_heads": 40, "head_dim": 128, "rope_theta": 500000.0,
            "max_position_embeddings": 10485760, "rope_scaling": {"factor": 16.0, "high_freq_factor": 1.0,
            "low_freq_factor": 1.0, "original_max_position_embeddings": 8192, "rope_type": "llama3"}}})");
        QCOMPARE(scout.params.layout, pe::Layout::Interleaved);
        QCOMPARE(scout.params.nopeInterval, 4);
        QCOMPARE(scout.params.seqLen, std::int64_t(1000000));
        sameFrequencies(scout.params, llama3(5e5, 128, 16, 1, 1, 8192), 1000000);
        // GLM-4 and Llama 4 turn interleaved pairs.
        QCOMPARE(fromText(R"({"model_type": "glm4", "head_dim": 128, "rope_theta": 10000})").params.layout,
                 pe::Layout::Interleaved);
        // rope_scaling null (Llama 2's) is no scaling; unknown keys are ignored.
        const auto nulls = fromText(R"({"model_type": "llama", "hidden_size": 64, "num_attention_heads": 1,
                                       "rope_scaling": null, "some_future_key": {"x": [1, 2]}})");
        QCOMPARE(nulls.params.rope.scaling, pe::RopeScaling::None);
        QCOMPARE(nulls.params.dModel, 64);
    }

    void phi3LongRopeAgainstTransformers()
    {
        const auto phi = read(QStringLiteral("phi-3-mini-128k.json"));
        QCOMPARE(phi.params.dModel, 96);
        QCOMPARE(phi.params.rope.originalContext, std::int64_t(4096));
        // Past the original 4,096 positions the long factors divide θ; within them the short ones.
        sameFrequencies(phi.params, longrope(1e4, 96, phi.params.rope.longFactor), 131072);
        sameFrequencies(phi.params, longrope(1e4, 96, phi.params.rope.shortFactor), 4096);
        QCOMPARE(phi.params.rope.longFactor.front(), 1.0700000524520874); // the config's first, read exactly
    }

    void refusals_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("not JSON") << "{\"model_type\": "
                                  << "not valid JSON";
        QTest::newRow("not an object") << "[1, 2]"
                                       << "a JSON object, not a list";
        QTest::newRow("unknown rope type")
            << R"({"model_type": "llama", "hidden_size": 64, "num_attention_heads": 1, "rope_scaling": {"rope_type": "fancy", "factor": 2}})"
            << "rope type \"fancy\" is not one this program computes";
        QTest::newRow("learned positions") << R"({"model_type": "gpt2", "n_embd": 768})"
                                           << "--table";
        QTest::newRow("unknown model") << R"({"model_type": "resnet"})"
                                       << "model_type \"resnet\"";
        QTest::newRow("no head size") << R"({"model_type": "olmo", "rope_theta": 10000})"
                                      << "head's dimension";
        QTest::newRow("heads do not divide")
            << R"({"model_type": "llama", "hidden_size": 100, "num_attention_heads": 3})"
            << "not a multiple";
        QTest::newRow("theta a string") << R"({"model_type": "llama", "head_dim": 64, "rope_theta": "1e4"})"
                                        << "rope_theta is a string, not a number";
        QTest::newRow("negative theta") << R"({"model_type": "llama", "head_dim": 64, "rope_theta": -5})"
                                        << "base";
        QTest::newRow("factor below 1")
            << R"({"model_type": "llama", "head_dim": 64, "rope_scaling": {"rope_type": "linear", "factor": 0.5}})"
            << "factor";
        QTest::newRow("odd head") << R"({"model_type": "llama", "head_dim": 63})"
                                  << "d_model";
        QTest::newRow("alibi without heads") << R"({"model_type": "bloom"})"
                                             << "head count";
        QTest::newRow("a key twice") << R"({"model_type": "llama", "model_type": "mistral"})"
                                     << "twice";
        QTest::newRow("scaling without a type")
            << R"({"model_type": "llama", "head_dim": 64, "rope_scaling": {"factor": 8}})"
            << "names no rope_type";
        QTest::newRow("llama3 without its keys")
            << R"({"model_type": "llama", "head_dim": 64, "rope_scaling": {"rope_type": "llama3", "factor": 8}})"
            << "needs original_max_position_embeddings";
        QTest::newRow("no context") << R"({"model_type": "llama", "head_dim": 64, "max_position_embeddings": 0})"
                                    << "is 0 positions";
        QTest::newRow("head too wide") << R"({"model_type": "llama", "hidden_size": 8192, "num_attention_heads": 1})"
                                       << "is 8,192";
        QTest::newRow("no heads") << R"({"model_type": "llama", "hidden_size": 8192, "num_attention_heads": 0})"
                                  << "num_attention_heads is 0";
        QTest::newRow("whisper") << R"({"model_type": "whisper"})"
                                 << "fixed sinusoids";
        QTest::newRow("huge overflowing theta") << R"({"model_type": "llama", "head_dim": 64, "rope_theta": 1e400})"
                                                << "beyond the range";
    }

    void refusals()
    {
        QFETCH(QString, json);
        QFETCH(QString, expected);
        const QString why = refusal(json.toStdString());
        QVERIFY2(why.contains(expected), qPrintable(why));
        QVERIFY2(why.startsWith(QStringLiteral("'config.json': ")), qPrintable(why));
        QVERIFY(!why.contains(QLatin1Char('\n')));
    }

    void ggufMetadata()
    {
        // A Llama 3.1 GGUF as llama.cpp's converter writes it: llama.* keys and the per-pair divisors
        // in rope_freqs.weight (convert_hf_to_gguf.py's generate_extra_tensors).
        const std::vector<double> divisors = [] {
            std::vector<double> d(64);
            for (int i = 0; i < 64; ++i)
                d[static_cast<std::size_t>(i)] = i < 20 ? 1.0 : i < 40 ? 2.5 : 8.0;
            return d;
        }();
        const std::string bytes =
            checkpoint::gguf({{"rope_freqs.weight", 0, {64}, checkpoint::f32(divisors)},
                              {"token_embd.weight", 0, {4, 4096}, checkpoint::f32(std::vector<double>(4 * 4096, 0.0))}},
                             {{"general.architecture", checkpoint::ggufString("llama")},
                              {"general.name", checkpoint::ggufString("Llama 3.1 8B")},
                              {"llama.context_length", checkpoint::ggufUint32(131072)},
                              {"llama.embedding_length", checkpoint::ggufUint32(4096)},
                              {"llama.attention.head_count", checkpoint::ggufUint32(32)},
                              {"llama.rope.dimension_count", checkpoint::ggufUint32(128)},
                              {"llama.rope.freq_base", checkpoint::ggufFloat32(500000.0f)}});
        QTemporaryDir dir;
        const std::string path = dir.filePath(QStringLiteral("llama.gguf")).toStdString();
        std::ofstream(path, std::ios::binary) << bytes;
        const auto m = pe::openModel(path);
        QCOMPARE(m->name, std::string("Llama 3.1 8B"));
        QCOMPARE(m->modelType, std::string("llama"));
        QCOMPARE(m->params.scheme, pe::SchemeId::Rope);
        QCOMPARE(m->params.base, 5e5);
        QCOMPARE(m->params.dModel, 128);
        QCOMPARE(m->params.seqLen, std::int64_t(131072));
        QCOMPARE(m->params.layout, pe::Layout::Interleaved); // llama.cpp's LLAMA_ROPE_TYPE_NORM
        // θ_i / divisor_i, as llama.cpp's rope with freq_factors turns each pair.
        std::vector<double> expected = defaultInvFreq(5e5, 128);
        for (std::size_t i = 0; i < expected.size(); ++i)
            expected[i] /= divisors[i];
        sameFrequencies(m->params, expected, 131072);
        QCOMPARE(pe::ropeAttentionFactor(m->params.rope), 1.0);

        // YaRN from metadata, with partial rotary (dimension_count below the head's).
        const std::string yarnBytes =
            checkpoint::gguf({}, {{"general.architecture", checkpoint::ggufString("qwen2")},
                                  {"qwen2.context_length", checkpoint::ggufUint32(131072)},
                                  {"qwen2.embedding_length", checkpoint::ggufUint32(3584)},
                                  {"qwen2.attention.head_count", checkpoint::ggufUint32(28)},
                                  {"qwen2.rope.dimension_count", checkpoint::ggufUint32(128)},
                                  {"qwen2.rope.freq_base", checkpoint::ggufFloat32(1e6f)},
                                  {"qwen2.rope.scaling.type", checkpoint::ggufString("yarn")},
                                  {"qwen2.rope.scaling.factor", checkpoint::ggufFloat32(4.0f)},
                                  {"qwen2.rope.scaling.original_context_length", checkpoint::ggufUint32(32768)}});
        const std::string yarnPath = dir.filePath(QStringLiteral("qwen.gguf")).toStdString();
        std::ofstream(yarnPath, std::ios::binary) << yarnBytes;
        const auto q = pe::openModel(yarnPath);
        QCOMPARE(q->params.layout, pe::Layout::Split); // NEOX
        sameFrequencies(q->params, yarn(1e6, 128, 4, 32, 1, 32768), 131072);

        // A GPT-2 GGUF learns its table: refused pointing at --table.
        const std::string gpt2 =
            checkpoint::gguf({{"position_embd.weight", 0, {4, 8}, checkpoint::f32(std::vector<double>(32, 0.5))}},
                             {{"general.architecture", checkpoint::ggufString("gpt2")}});
        const std::string gpt2Path = dir.filePath(QStringLiteral("gpt2.gguf")).toStdString();
        std::ofstream(gpt2Path, std::ios::binary) << gpt2;
        try {
            pe::openModel(gpt2Path);
            QFAIL("a GPT-2 GGUF was read as a config");
        } catch (const std::exception &e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("--table")), e.what());
        }
    }

    void filesAndFolders()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("Llama-3.1-8B"));
        QVERIFY(QDir().mkpath(folder));
        QFile::copy(QStringLiteral(PE_SOURCE_DIR "/resources/models/llama-2-7b.json"), folder + "/config.json");
        // The folder reads its config.json; without _name_or_path the folder names it.
        const auto m = pe::openModel(folder.toStdString());
        QCOMPARE(m->params.dModel, 128);
        QVERIFY(m->path.ends_with("/config.json"));
        const auto refused = [](const std::string &path) {
            try {
                pe::openModel(path);
            } catch (const std::exception &e) {
                return QString::fromUtf8(e.what());
            }
            return QString();
        };
        QVERIFY(refused(dir.path().toStdString()).contains(QStringLiteral("without a config.json")));
        QVERIFY(refused("").contains(QStringLiteral("empty")));
        QVERIFY(refused("/dev/null").contains(QStringLiteral("character device")));
        QVERIFY(refused((dir.path() + "/missing.json").toStdString()).contains(QStringLiteral("does not exist")));
        const std::string st = dir.filePath(QStringLiteral("model.safetensors")).toStdString();
        std::ofstream(st, std::ios::binary)
            << checkpoint::safetensors({{"wpe.weight", "F32", {2, 2}, checkpoint::f32({1, 2, 3, 4})}});
        QVERIFY2(refused(st).contains(QStringLiteral("config.json beside it")), qPrintable(refused(st)));
        const std::string empty = dir.filePath(QStringLiteral("empty.json")).toStdString();
        std::ofstream(empty, std::ios::binary) << "";
        QVERIFY(refused(empty).contains(QStringLiteral("empty")));
    }

    void changedSince()
    {
        const auto model = std::make_shared<const pe::ModelConfig>(read(QStringLiteral("llama-3.1-8b.json")));
        pe::EncodingParams p = pe::modelParams(model);
        QVERIFY(pe::changedFromModel(p).empty());
        p.seqLen = 100; // the window, not the model
        QVERIFY(pe::changedFromModel(p).empty());
        p.base = 1e4;
        p.rope.factor = 4;
        const auto changed = pe::changedFromModel(p);
        QCOMPARE(changed.size(), std::size_t(2));
        QCOMPARE(changed[0], std::string(pe::fieldName(pe::Field::Base)));
        QCOMPARE(changed[1], std::string(pe::fieldName(pe::Field::Factor)));
        QCOMPARE(pe::modelTitle(*model), std::string("meta-llama/Llama-3.1-8B (llama, LlamaForCausalLM)"));
    }
};

QTEST_APPLESS_MAIN(TestModelConfig)
#include "tst_model_config.moc"

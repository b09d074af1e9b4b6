#include "analysis/attention.h"
#include "command_line_support.h"
#include "scheme_support.h"
#include "state/view_registry.h"

#include <QDir>
#include <QFile>
#include <QImageReader>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstring>

// RoPE, ALiBi and T5 from the command line as a user runs them: their data exports against published
// numbers and closed forms, and every view drawn under every scheme it shows, in lecture sizes too.
class TestCommandLineSchemes : public QObject
{
    Q_OBJECT

  private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }
    void scaledFrequencies();
    void longRopeOfPhi3();
    void ropeDecay();
    void slopesAsGetSlopes();
    void t5BucketsAndTheirFlags();
    void ropePrecision();
    void attentionRowsSumToOne();
    void gemmaLocalLayers();
    void xposFromTheCommandLine();
    void ropeOverAGrid();
    void t5BiasTable();
    void llama4NopeLayers();
    void everyViewUnderEveryScheme();

  private:
    QList<QList<double>> csv(const QStringList &args, QString *header = nullptr);
    QTemporaryDir dir_;
};

QList<QList<double>> TestCommandLineSchemes::csv(const QStringList &args, QString *header)
{
    const QString out = dir_.filePath(QStringLiteral("x.csv"));
    QFile::remove(out);
    const Run r = run(args + QStringList{QStringLiteral("--out"), out});
    if (r.code != 0)
        qWarning("%s", qPrintable(r.err));
    QFile f(out);
    QList<QList<double>> rows;
    if (!f.open(QIODevice::ReadOnly))
        return rows;
    const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
    if (header)
        *header = QString::fromUtf8(lines.first());
    for (qsizetype i = 1; i < lines.size(); ++i) {
        QList<double> row;
        for (const QByteArray &cell : lines[i].split(','))
            row << cell.toDouble();
        rows << row;
    }
    return rows;
}

void TestCommandLineSchemes::scaledFrequencies()
{
    // transformers' test_modeling_rope_utils.py, YaRN x10 at dim 128, base 1e4, 2048 positions:
    // the first pairs kept, the last divided by 10 (tst_rope checks every printed value).
    QString header;
    const auto rows =
        csv({QStringLiteral("--scheme"), QStringLiteral("rope"), QStringLiteral("--scaling"), QStringLiteral("yarn"),
             QStringLiteral("--factor"), QStringLiteral("10"), QStringLiteral("--original-context"),
             QStringLiteral("2048"), QStringLiteral("--export-data"), QStringLiteral("frequencies")},
            &header);
    QCOMPARE(header, QStringLiteral("pair,omega,wavelength,omega_unscaled,wavelength_unscaled,ratio,regime,rescale,"
                                    "attention_factor"));
    QCOMPARE(rows.size(), 64);
    QCOMPARE(rows[0][1], 1.0);
    QCOMPARE(rows[0][6], 0.0); // kept
    QCOMPARE(rows[0][7], 1.0);
    QVERIFY(std::abs(rows[63][5] - 0.1) < 1e-15);
    QCOMPARE(rows[63][6], 1.0); // interpolated
    QVERIFY(std::abs(rows[63][7] - 10) < 1e-13);
    QVERIFY(std::abs(rows[63][2] - 2 * M_PI / rows[63][1]) < 1e-9 * rows[63][2]);
    for (const auto &row : rows) // YaRN's 0.1·ln s + 1 on every pair
        QVERIFY(std::abs(row[8] - (0.1 * std::log(10.0) + 1)) < 1e-15);
}

void TestCommandLineSchemes::longRopeOfPhi3()
{
    // microsoft/Phi-3-mini-128k-instruct's config.json: head dim 96, rope_theta 1e4, L 4,096, s = 32;
    // the preset's window (8,192 positions) passes L, so the long factors rescale each pair
    // (inv_freq = 1 / (ext_i · base^(2i/d)), transformers' _compute_longrope_parameters), and cos and
    // sin take sqrt(1 + ln 32 / ln 4096).
    QString header;
    const auto rows = csv({QStringLiteral("--preset"), QStringLiteral("phi3-mini-128k-longrope"),
                           QStringLiteral("--export-data"), QStringLiteral("frequencies")},
                          &header);
    QCOMPARE(rows.size(), 48);
    const std::pair<int, double> longFactor[] = {
        {0, 1.0700000524520874}, {1, 1.1200000047683716}, {2, 1.149999976158142}, {47, 64.76000213623047}};
    for (auto [i, ext] : longFactor) {
        const double omega = std::pow(1e4, -2.0 * i / 96) / ext;
        QVERIFY2(std::abs(rows[i][1] - omega) <= 1e-15 * omega, qPrintable(QString::number(i)));
        QVERIFY(std::abs(rows[i][7] - ext) <= 1e-14 * ext);
    }
    const double factor = std::sqrt(1 + std::log(32.0) / std::log(4096.0));
    QVERIFY(std::abs(rows[0][8] - factor) < 1e-15);
    // Within L the short factors (the first is 1.1).
    const auto within =
        csv({QStringLiteral("--preset"), QStringLiteral("phi3-mini-128k-longrope"), QStringLiteral("--seq-len"),
             QStringLiteral("4096"), QStringLiteral("--export-data"), QStringLiteral("frequencies")});
    QVERIFY(std::abs(within[0][1] - 1 / 1.1) < 1e-15);
}

void TestCommandLineSchemes::ropeDecay()
{
    QString header;
    const auto rows = csv({QStringLiteral("--scheme"), QStringLiteral("rope"), QStringLiteral("--seq-len"),
                           QStringLiteral("300"), QStringLiteral("--d-model"), QStringLiteral("64"),
                           QStringLiteral("--export-data"), QStringLiteral("rope-decay")},
                          &header);
    QCOMPARE(header, QStringLiteral("offset,score,bound,random_mean,random_sd"));
    QCOMPARE(rows.size(), 300);
    // The band of the figure's 32 seeded (q, k) pairs (--samples, --qk-seed 0) at every offset.
    pe::EncodingParams p;
    p.scheme = pe::SchemeId::Rope;
    p.seqLen = 300;
    p.dModel = 64;
    const pe::RopeDecayCurves band = pe::ropeDecayCurves(pe::Encoding(p), 300, 32, 0);
    for (int k : {0, 1, 150, 299}) {
        QCOMPARE(rows[k][3], band.mean[static_cast<std::size_t>(k)]);
        QCOMPARE(rows[k][4], band.sd[static_cast<std::size_t>(k)]);
    }
    const auto none =
        csv({QStringLiteral("--scheme"), QStringLiteral("rope"), QStringLiteral("--seq-len"), QStringLiteral("300"),
             QStringLiteral("--d-model"), QStringLiteral("64"), QStringLiteral("--samples"), QStringLiteral("none"),
             QStringLiteral("--export-data"), QStringLiteral("rope-decay")},
            &header);
    QCOMPARE(header, QStringLiteral("offset,score,bound"));
    QCOMPARE(none.size(), 300);
    QCOMPARE(rows[0][0], 0.0);
    QCOMPARE(rows[0][1], 64.0);                   // Σ 2·cos 0 over 32 pairs
    QVERIFY(std::abs(rows[0][2] - 16.5) < 1e-12); // (1/32)·Σ_j j
    // At offset 1: Σ 2·cos(θ_i) with θ_i = 10000^(-2i/64), written out.
    double score = 0;
    for (int i = 0; i < 32; ++i)
        score += 2 * std::cos(std::pow(1e4, -2.0 * i / 64));
    QVERIFY(std::abs(rows[1][1] - score) < 1e-12);
}

void TestCommandLineSchemes::slopesAsGetSlopes()
{
    // ofirpress/attention_with_linear_biases get_slopes(12): get_slopes(8) then every other slope
    // of get_slopes(16), i.e. 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5.
    QString header;
    const auto rows = csv({QStringLiteral("--scheme"), QStringLiteral("alibi"), QStringLiteral("--heads"),
                           QStringLiteral("12"), QStringLiteral("--export-data"), QStringLiteral("slopes")},
                          &header);
    QCOMPARE(header, QStringLiteral("head,slope"));
    const double want[] = {0.5,       0.25,       0.125,      0.0625,     0.03125,    0.015625,
                           0.0078125, 0.00390625, 0.70710678, 0.35355339, 0.17677670, 0.08838835};
    QCOMPARE(rows.size(), 12);
    for (int h = 0; h < 12; ++h) {
        QCOMPARE(rows[h][0], h + 1.0);
        QVERIFY2(std::abs(rows[h][1] - want[h]) < 5e-9, qPrintable(QString::number(rows[h][1], 'g', 17)));
    }
}

void TestCommandLineSchemes::t5BucketsAndTheirFlags()
{
    // T5's buckets of offsets -(N-1)..N-1 as _relative_position_bucket gives them (the table in
    // tst_relative_buckets, computed from transformers' code): the encoder's, then the decoder's.
    QString header;
    auto rows = csv({QStringLiteral("--preset"), QStringLiteral("t5-base-buckets"), QStringLiteral("--seq-len"),
                     QStringLiteral("200"), QStringLiteral("--position"), QStringLiteral("100"),
                     QStringLiteral("--export-data"), QStringLiteral("buckets")},
                    &header);
    QCOMPARE(header, QStringLiteral("offset,bucket"));
    QCOMPARE(rows.size(), 399);
    const auto bucketOf = [&rows](int offset) { return rows[offset + 199][1]; };
    QCOMPARE(rows.front()[0], -199.0);
    QCOMPARE(bucketOf(0), 0.0);
    QCOMPARE(bucketOf(-7), 7.0);
    QCOMPARE(bucketOf(7), 23.0);
    QCOMPARE(bucketOf(-8), 8.0);
    QCOMPARE(bucketOf(-16), 10.0);
    QCOMPARE(bucketOf(-90), 14.0);
    QCOMPARE(bucketOf(-91), 15.0);
    QCOMPARE(bucketOf(91), 31.0);
    QCOMPARE(bucketOf(199), 31.0);
    rows =
        csv({QStringLiteral("--scheme"), QStringLiteral("t5"), QStringLiteral("--causal"), QStringLiteral("--seq-len"),
             QStringLiteral("200"), QStringLiteral("--export-data"), QStringLiteral("buckets")},
            &header);
    QCOMPARE(bucketOf(5), 0.0);
    QCOMPARE(bucketOf(-15), 15.0);
    QCOMPARE(bucketOf(-16), 16.0);
    QCOMPARE(bucketOf(-112), 30.0);
    QCOMPARE(bucketOf(-113), 31.0);
    // Their flags: refused under another scheme, and max_distance with no room for a log bucket.
    Run r = run({QStringLiteral("--scheme"), QStringLiteral("rope"), QStringLiteral("--buckets"), QStringLiteral("64"),
                 QStringLiteral("--export-data"), QStringLiteral("frequencies"), QStringLiteral("--out"),
                 dir_.filePath(QStringLiteral("f.csv"))});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains(QStringLiteral("--buckets: buckets is T5's: choose the scheme t5.")), qPrintable(r.err));
    r = run({QStringLiteral("--scheme"), QStringLiteral("t5"), QStringLiteral("--max-distance"), QStringLiteral("16"),
             QStringLiteral("--export-data"), QStringLiteral("buckets"), QStringLiteral("--out"),
             dir_.filePath(QStringLiteral("b.csv"))});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains(QStringLiteral("--max-distance: max_distance must be above buckets/2 = 16")),
             qPrintable(r.err));
    QVERIFY(!QFileInfo::exists(dir_.filePath(QStringLiteral("b.csv"))));
    // The flag given is the one named, though the preset's max_distance is the one too small.
    r = run({QStringLiteral("--preset"), QStringLiteral("t5-base-buckets"), QStringLiteral("--buckets"),
             QStringLiteral("512"), QStringLiteral("--export-data"), QStringLiteral("buckets"), QStringLiteral("--out"),
             dir_.filePath(QStringLiteral("b.csv"))});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains(QStringLiteral("--buckets: max_distance must be above buckets/2 = 256")),
             qPrintable(r.err));
    r = run({QStringLiteral("--scheme"), QStringLiteral("rope"), QStringLiteral("--buckets-axis"),
             QStringLiteral("distance"), QStringLiteral("--export"), QStringLiteral("heatmap"), QStringLiteral("--out"),
             dir_.filePath(QStringLiteral("h.png"))});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains(QStringLiteral("--buckets-axis applies to the t5 scheme")), qPrintable(r.err));
}

void TestCommandLineSchemes::ropePrecision()
{
    // RoPE in bfloat16 against float64 at every position (tst_precision checks the numbers): the
    // columns, exact at t = 0, the angle error growing with t, and the flag RoPE's alone.
    QString header;
    const auto rows =
        csv({QStringLiteral("--scheme"), QStringLiteral("rope"), QStringLiteral("--seq-len"), QStringLiteral("3000"),
             QStringLiteral("--start-pos"), QStringLiteral("100000"), QStringLiteral("--precision"),
             QStringLiteral("bfloat16"), QStringLiteral("--export-data"), QStringLiteral("precision")},
            &header);
    QCOMPARE(header, QStringLiteral("position,angle_error,value_error,equal_pairs"));
    QCOMPARE(rows.size(), 3000);
    QCOMPARE(rows.front()[0], 100000.0);
    double worstAngle = 0;
    for (const auto &row : rows) {
        worstAngle = std::max(worstAngle, row[1]);
        QVERIFY(row[2] <= 0x1p-9 + row[1] + 1e-7); // bfloat16's half spacing below 1, plus the angle's
        QVERIFY(row[3] >= 0 && row[3] <= 64);
    }
    QVERIFY2(worstAngle > 1e-3 && worstAngle < 1e-2, qPrintable(QString::number(worstAngle)));
    const Run r = run({QStringLiteral("--precision"), QStringLiteral("float32"), QStringLiteral("--export-data"),
                       QStringLiteral("encoding"), QStringLiteral("--out"), dir_.filePath(QStringLiteral("e.csv"))});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains(QStringLiteral("--precision applies to the rope scheme")), qPrintable(r.err));
}

void TestCommandLineSchemes::attentionRowsSumToOne()
{
    for (const QString &scheme : {QStringLiteral("sinusoidal"), QStringLiteral("rope"), QStringLiteral("alibi")}) {
        QString header;
        // Random q and k are RoPE's (the flag is refused for the others).
        const QStringList qk = scheme == QLatin1String("rope")
                                   ? QStringList{QStringLiteral("--qk"), QStringLiteral("random")}
                                   : QStringList{};
        const auto rows =
            csv(QStringList{QStringLiteral("--scheme"), scheme, QStringLiteral("--seq-len"), QStringLiteral("20"),
                            QStringLiteral("--start-pos"), QStringLiteral("4"), QStringLiteral("--causal"),
                            QStringLiteral("--export-data"), QStringLiteral("attention")} +
                    qk,
                &header);
        QVERIFY(header.startsWith(QStringLiteral("position,4,5,")));
        QCOMPARE(rows.size(), 20);
        for (int r = 0; r < 20; ++r) {
            QCOMPARE(rows[r][0], 4.0 + r);
            double sum = 0;
            for (int c = 1; c <= 20; ++c) {
                sum += rows[r][c];
                if (c - 1 > r)
                    QCOMPARE(rows[r][c], 0.0); // causal: no key after the query
            }
            QVERIFY2(std::abs(sum - 1) < 1e-12, qPrintable(scheme));
        }
        // ALiBi's first row under the mask attends to itself alone.
        if (scheme == QLatin1String("alibi"))
            QCOMPARE(rows[0][1], 1.0);
    }
}

void TestCommandLineSchemes::gemmaLocalLayers()
{
    // Gemma 3's two kinds of layer from the command line: a local layer's causal attention sees the
    // last W keys; the frequencies add the local θ; --layer local without local layers, a local
    // base of 1 and the flags under the sinusoids are refused in one line.
    const QStringList gemma{QStringLiteral("--preset"),         QStringLiteral("gemma3-4b-local-attention"),
                            QStringLiteral("--seq-len"),        QStringLiteral("40"),
                            QStringLiteral("--position"),       QStringLiteral("30"),
                            QStringLiteral("--sliding-window"), QStringLiteral("6")};
    const auto rows = csv(gemma + QStringList{QStringLiteral("--export-data"), QStringLiteral("attention")});
    QCOMPARE(rows.size(), 40);
    for (int r = 0; r < 40; ++r) {
        double sum = 0;
        for (int c = 1; c <= 40; ++c) {
            const int s = c - 1;
            sum += rows[r][c];
            QVERIFY2((rows[r][c] > 0) == (s <= r && r - s < 6), qPrintable(QStringLiteral("%1 %2").arg(r).arg(s)));
        }
        QVERIFY(std::abs(sum - 1) < 1e-12);
    }
    QString header;
    const auto freqs =
        csv(gemma + QStringList{QStringLiteral("--export-data"), QStringLiteral("frequencies")}, &header);
    QVERIFY2(header.endsWith(QStringLiteral(",attention_factor,omega_local,wavelength_local")), qPrintable(header));
    QCOMPARE(freqs.size(), 128);
    QCOMPARE(freqs[1][1], std::pow(1e6, -2.0 / 256) / 8); // global: base 1e6, linear x8
    QCOMPARE(freqs[1][9], std::pow(1e4, -2.0 / 256));     // local: base 1e4, unscaled
    const QString out = dir_.filePath(QStringLiteral("refused.csv"));
    const QList<QStringList> refused{
        {QStringLiteral("--scheme"), QStringLiteral("rope"), QStringLiteral("--layer"), QStringLiteral("local"),
         QStringLiteral("--export-data"), QStringLiteral("attention")},
        {QStringLiteral("--scheme"), QStringLiteral("rope"), QStringLiteral("--local-base"), QStringLiteral("1"),
         QStringLiteral("--export-data"), QStringLiteral("frequencies")},
        {QStringLiteral("--sliding-window"), QStringLiteral("100"), QStringLiteral("--export-data"),
         QStringLiteral("frequencies")},
        {QStringLiteral("--preset"), QStringLiteral("gemma3-4b-local-attention"), QStringLiteral("--scheme"),
         QStringLiteral("sinusoidal"), QStringLiteral("--export-data"), QStringLiteral("attention")}};
    const QStringList said{QStringLiteral("--layer local needs RoPE's sliding-window layers"),
                           QStringLiteral("local_base must be 0 (none) or a base greater than 1"),
                           QStringLiteral("sliding_window is RoPE's (Gemma's sliding-window layers)"),
                           QStringLiteral("--layer local is RoPE's (Gemma's sliding-window layers), not the "
                                          "sinusoidal scheme's")};
    for (int i = 0; i < refused.size(); ++i) {
        const Run r = run(refused[i] + QStringList{QStringLiteral("--out"), out});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(said[i]) && r.err.trimmed().count(QLatin1Char('\n')) == 0, qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(out));
    }
}

void TestCommandLineSchemes::xposFromTheCommandLine()
{
    // --scheme xpos is RoPE with γ = 512; --xpos-scale-base sets γ; the decay adds xPos's score;
    // the flag is RoPE's; the attention figure without the mask is refused where the keys after
    // the query would pass the largest double.
    QString header;
    auto rows = csv({QStringLiteral("--scheme"), QStringLiteral("xpos"), QStringLiteral("--d-model"),
                     QStringLiteral("16"), QStringLiteral("--seq-len"), QStringLiteral("600"),
                     QStringLiteral("--export-data"), QStringLiteral("rope-decay")},
                    &header);
    QCOMPARE(header, QStringLiteral("offset,score,bound,xpos_score,random_mean,random_sd"));
    QCOMPARE(rows.size(), 600);
    const auto xposAt = [](double gamma, int k) {
        double sum = 0;
        for (int i = 0; i < 8; ++i)
            sum += 2 * std::pow((2.0 * i + 6.4) / 22.4, k / gamma) * std::cos(k * std::pow(1e4, -2.0 * i / 16));
        return sum;
    };
    QVERIFY(std::abs(rows[512][3] - xposAt(512, 512)) < 1e-9);
    rows = csv({QStringLiteral("--scheme"), QStringLiteral("xpos"), QStringLiteral("--xpos-scale-base"),
                QStringLiteral("64"), QStringLiteral("--d-model"), QStringLiteral("16"), QStringLiteral("--seq-len"),
                QStringLiteral("600"), QStringLiteral("--export-data"), QStringLiteral("rope-decay")});
    QVERIFY(std::abs(rows[100][3] - xposAt(64, 100)) < 1e-9);
    const QString out = dir_.filePath(QStringLiteral("xpos.png"));
    Run r = run({QStringLiteral("--xpos-scale-base"), QStringLiteral("64"), QStringLiteral("--export-data"),
                 QStringLiteral("encoding"), QStringLiteral("--out"), out});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains(QStringLiteral("xpos_scale_base is xPos's")), qPrintable(r.err));
    r = run({QStringLiteral("--scheme"), QStringLiteral("xpos"), QStringLiteral("--seq-len"), QStringLiteral("300000"),
             QStringLiteral("--export"), QStringLiteral("attention"), QStringLiteral("--out"), out});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains(QStringLiteral("check causal (--causal)")), qPrintable(r.err));
    QVERIFY(!QFileInfo::exists(out));
}

void TestCommandLineSchemes::ropeOverAGrid()
{
    // The grid presets' exports: every patch's similarity to the current one (1 there, the same at
    // the same row and column offsets either way), each pair's coordinate; the figure; the refusals.
    QString header;
    const QStringList pixtral{QStringLiteral("--preset"), QStringLiteral("pixtral-2d-rope-grid")};
    auto rows = csv(pixtral + QStringList{QStringLiteral("--export-data"), QStringLiteral("grid")}, &header);
    QCOMPARE(header, QStringLiteral("position,frame,row,column,similarity"));
    QCOMPARE(rows.size(), 1024);
    QCOMPARE(rows[528][2], 16.0);
    QCOMPARE(rows[528][3], 16.0);
    QVERIFY(std::abs(rows[528][4] - 1) < 1e-15);
    QVERIFY(std::abs(rows[16 * 32 + 20][4] - rows[16 * 32 + 12][4]) < 1e-15);
    QVERIFY(std::abs(rows[20 * 32 + 16][4] - rows[12 * 32 + 16][4]) < 1e-15);
    rows = csv(pixtral + QStringList{QStringLiteral("--export-data"), QStringLiteral("grid-pairs")}, &header);
    QCOMPARE(header, QStringLiteral("pair,axis,theta,wavelength,angle"));
    QCOMPARE(rows.size(), 32);
    QCOMPARE(rows[15][1], 1.0);
    QCOMPARE(rows[16][1], 2.0);
    QVERIFY(std::abs(rows[16][2] - std::pow(1e4, -2.0 / 64)) < 1e-15); // the first column pair: freqs[1]
    rows = csv({QStringLiteral("--preset"), QStringLiteral("qwen2-vl-mrope-video"), QStringLiteral("--export-data"),
                QStringLiteral("grid")});
    QCOMPARE(rows.size(), 512);
    QCOMPARE(rows[392][1], 1.0);
    const QString png = dir_.filePath(QStringLiteral("grid.png"));
    Run r =
        run(pixtral + QStringList{QStringLiteral("--export"), QStringLiteral("grid"), QStringLiteral("--out"), png});
    QVERIFY2(r.code == 0 && QFileInfo::exists(png), qPrintable(r.err));
    const QString out = dir_.filePath(QStringLiteral("refused-grid.csv"));
    const std::pair<QStringList, QString> refusals[] = {
        {{QStringLiteral("--scheme"), QStringLiteral("rope"), QStringLiteral("--grid"), QStringLiteral("16x16")},
         QStringLiteral("Give --seq-len 256")},
        {{QStringLiteral("--scheme"), QStringLiteral("rope"), QStringLiteral("--grid"), QStringLiteral("16y16")},
         QStringLiteral("rows x columns")},
        {{QStringLiteral("--grid"), QStringLiteral("5x10")}, QStringLiteral("--grid")},
        {{QStringLiteral("--scheme"), QStringLiteral("rope"), QStringLiteral("--scaling"), QStringLiteral("linear"),
          QStringLiteral("--factor"), QStringLiteral("2")},
         QStringLiteral("--scaling none")},
        {{QStringLiteral("--scheme"), QStringLiteral("rope"), QStringLiteral("--grid-rope"), QStringLiteral("mrope"),
          QStringLiteral("--mrope-section"), QStringLiteral("1,2,3")},
         QStringLiteral("add up")},
    };
    for (const auto &[args, why] : refusals) {
        r = run(args +
                QStringList{QStringLiteral("--export-data"), QStringLiteral("grid"), QStringLiteral("--out"), out});
        QVERIFY2(r.code == 2 && r.err.contains(why),
                 qPrintable(args.join(QLatin1Char(' ')) + QStringLiteral(": ") + r.err));
        QVERIFY(!QFileInfo::exists(out));
    }
}

void TestCommandLineSchemes::t5BiasTable()
{
    // T5's learned bias from a [buckets, heads] .npy: every offset's bias for every head, the
    // attention it gives, the figures, a session naming it, and the refusals.
    const int buckets = 8, heads = 3;
    QByteArray bytes = QByteArray::fromStdString(pe::npyHeader({buckets, heads}));
    std::vector<double> table;
    for (int i = 0; i < buckets * heads; ++i) {
        table.push_back(std::cos(0.9 * i) * 5);
        bytes.append(reinterpret_cast<const char *>(&table.back()), sizeof(double));
    }
    const QString npy = dir_.filePath(QStringLiteral("relative_attention_bias.npy"));
    QFile f(npy);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
    f.close();
    const QStringList t5{
        QStringLiteral("--scheme"),       QStringLiteral("t5"), QStringLiteral("--bias-table"), npy,
        QStringLiteral("--max-distance"), QStringLiteral("20"), QStringLiteral("--seq-len"),    QStringLiteral("30")};
    QString header;
    auto rows = csv(t5 + QStringList{QStringLiteral("--export-data"), QStringLiteral("t5-bias")}, &header);
    QCOMPARE(header, QStringLiteral("offset,head_1,head_2,head_3"));
    QCOMPARE(rows.size(), 59);
    const pe::T5Buckets encoder{buckets, 20, true};
    for (const auto &row : rows)
        for (int h = 0; h < heads; ++h)
            QCOMPARE(row[h + 1],
                     table[static_cast<std::size_t>(pe::t5Bucket(std::llround(row[0]), encoder) * heads + h)]);
    // Head 2's attention, the decoder's buckets under the causal mask: softmax of the bias.
    rows = csv(t5 + QStringList{QStringLiteral("--head"), QStringLiteral("2"), QStringLiteral("--causal"),
                                QStringLiteral("--export-data"), QStringLiteral("attention")});
    QCOMPARE(rows.size(), 30);
    const pe::T5Buckets decoder{buckets, 20, false};
    for (int t : {0, 17, 29}) {
        double sum = 0;
        for (int s = 0; s <= t; ++s)
            sum += std::exp(table[static_cast<std::size_t>(pe::t5Bucket(s - t, decoder) * heads + 1)]);
        for (int s = 0; s < 30; ++s) {
            const double want =
                s > t ? 0.0 : std::exp(table[static_cast<std::size_t>(pe::t5Bucket(s - t, decoder) * heads + 1)]) / sum;
            QVERIFY2(std::abs(rows[t][s + 1] - want) < 1e-14, qPrintable(QStringLiteral("%1, %2").arg(t).arg(s)));
        }
    }
    for (const QString &view : {QStringLiteral("buckets"), QStringLiteral("attention")}) {
        const QString png = dir_.filePath(view + QStringLiteral(".png"));
        const Run r = run(t5 + QStringList{QStringLiteral("--export"), view, QStringLiteral("--out"), png});
        QVERIFY2(r.code == 0 && QFileInfo::exists(png), qPrintable(r.err));
    }
    // A session names the table by its path.
    const QString session = dir_.filePath(QStringLiteral("t5.json"));
    QFile s(session);
    QVERIFY(s.open(QIODevice::WriteOnly));
    s.write(QStringLiteral(R"({"format": "positional-encoding-explorer-session", "version": 1,
        "parameters": {"seq_len": 30, "d_model": 16, "base": 10000, "start_pos": 0, "layout": "interleaved",
                       "exponent": "pair", "scheme": "t5", "buckets": 8, "max_distance": 20, "head": 3,
                       "bias_table": "%1"}, "view": "buckets", "position": 0})")
                .arg(npy)
                .toUtf8());
    s.close();
    rows = csv({QStringLiteral("--session"), session, QStringLiteral("--export-data"), QStringLiteral("t5-bias")});
    QCOMPARE(rows.size(), 59);
    QCOMPARE(rows[29][3], table[2]); // offset 0: bucket 0, head 3
    const QString out = dir_.filePath(QStringLiteral("refused-t5.csv"));
    const std::pair<QStringList, QString> refusals[] = {
        {{QStringLiteral("--scheme"), QStringLiteral("rope"), QStringLiteral("--bias-table"), npy},
         QStringLiteral("give --scheme t5")},
        {t5 + QStringList{QStringLiteral("--buckets"), QStringLiteral("32")},
         QStringLiteral("the bias table's row count, 8")},
        {t5 + QStringList{QStringLiteral("--head"), QStringLiteral("4")}, QStringLiteral("the bias table's 3 heads")},
        {{QStringLiteral("--scheme"), QStringLiteral("t5"), QStringLiteral("--bias-table"),
          dir_.filePath(QStringLiteral("none.npy"))},
         QStringLiteral("--bias-table:")},
        {{QStringLiteral("--scheme"), QStringLiteral("t5"), QStringLiteral("--head"), QStringLiteral("2")},
         QStringLiteral("give --bias-table")},
    };
    for (const auto &[args, why] : refusals) {
        const Run r = run(args + QStringList{QStringLiteral("--export-data"), QStringLiteral("t5-bias"),
                                             QStringLiteral("--out"), out});
        QVERIFY2(r.code == 2 && r.err.contains(why),
                 qPrintable(args.join(QLatin1Char(' ')) + QStringLiteral(": ") + r.err));
        QVERIFY(!QFileInfo::exists(out));
    }
    const Run r = run({QStringLiteral("--scheme"), QStringLiteral("t5"), QStringLiteral("--export-data"),
                       QStringLiteral("attention"), QStringLiteral("--out"), out});
    QVERIFY2(r.code == 2 && r.err.contains(QStringLiteral("give --bias-table FILE")), qPrintable(r.err));
}

void TestCommandLineSchemes::llama4NopeLayers()
{
    // Llama 4's NoPE layers: their attention (every key seen the same weight), the temperature's
    // export, the figure with its panel, and the refusals.
    const QStringList llama{QStringLiteral("--preset"),   QStringLiteral("llama4-nope-temperature"),
                            QStringLiteral("--seq-len"),  QStringLiteral("20000"),
                            QStringLiteral("--position"), QStringLiteral("10000")};
    QString header;
    const auto tau = csv(llama + QStringList{QStringLiteral("--export-data"), QStringLiteral("temperature")}, &header);
    QCOMPARE(header, QStringLiteral("position,temperature"));
    QCOMPARE(tau.size(), 20000);
    QCOMPARE(tau[8190][1], 1.0);
    QVERIFY(std::abs(tau[8191][1] - (1 + 0.1 * std::log(2.0))) < 1e-15);
    QVERIFY(std::abs(tau[16383][1] - (1 + 0.1 * std::log(3.0))) < 1e-15);
    const auto rows = csv({QStringLiteral("--preset"), QStringLiteral("llama4-nope-temperature"),
                           QStringLiteral("--seq-len"), QStringLiteral("30"), QStringLiteral("--position"),
                           QStringLiteral("10"), QStringLiteral("--export-data"), QStringLiteral("attention")});
    QCOMPARE(rows.size(), 30);
    for (int r = 0; r < 30; ++r)
        for (int c = 1; c <= 30; ++c)
            QVERIFY(std::abs(rows[r][c] - (c - 1 <= r ? 1.0 / (r + 1) : 0.0)) < 1e-15);
    const QString png = dir_.filePath(QStringLiteral("nope.png"));
    Run r =
        run(llama + QStringList{QStringLiteral("--export"), QStringLiteral("attention"), QStringLiteral("--out"), png});
    QVERIFY2(r.code == 0 && QFileInfo::exists(png), qPrintable(r.err));
    const QString out = dir_.filePath(QStringLiteral("refused.csv"));
    r = run({QStringLiteral("--scheme"), QStringLiteral("rope"), QStringLiteral("--layer"), QStringLiteral("nope"),
             QStringLiteral("--export-data"), QStringLiteral("attention"), QStringLiteral("--out"), out});
    QVERIFY2(r.code == 2 && r.err.contains(QStringLiteral("--layer nope needs Llama 4's NoPE layers")),
             qPrintable(r.err));
    r = run({QStringLiteral("--scheme"), QStringLiteral("rope"), QStringLiteral("--floor-scale"), QStringLiteral("100"),
             QStringLiteral("--export-data"), QStringLiteral("temperature"), QStringLiteral("--out"), out});
    QVERIFY2(r.code == 2 && r.err.contains(QStringLiteral("give --nope-interval first")), qPrintable(r.err));
    r = run({QStringLiteral("--scheme"), QStringLiteral("rope"), QStringLiteral("--export-data"),
             QStringLiteral("temperature"), QStringLiteral("--out"), out});
    QVERIFY2(r.code == 2 && r.err.contains(QStringLiteral("the temperature is Llama 4's NoPE layers'")),
             qPrintable(r.err));
    QVERIFY(!QFileInfo::exists(out));
}

void TestCommandLineSchemes::everyViewUnderEveryScheme()
{
    // Each view under each scheme it draws, at a small and a large size; the others refuse in one
    // line and write nothing.
    const QString schemes[] = {QStringLiteral("sinusoidal"), QStringLiteral("rope"), QStringLiteral("alibi"),
                               QStringLiteral("t5")};
    for (const ViewInfo &info : viewRegistry())
        for (const QString &scheme : schemes) {
            pe::EncodingParams p;
            p.scheme = *pe::parseScheme(scheme.toStdString());
            p.seqLen = 80;
            p.dModel = 32;
            // The scheme's views, but for what the view cannot draw of it (T5's attention without its
            // learned table), which the command line refuses in one line too.
            const DataRequest request{
                std::make_shared<const pe::Encoding>(p), {}, 60, completeSettings(info.settings, {})};
            const bool draws =
                info.schemeProblem(p).isEmpty() && (!info.cannotDraw || info.cannotDraw(request).isEmpty());
            for (const QString &size : {QStringLiteral("420x320"), QStringLiteral("1600x1000")}) {
                const QString png = dir_.filePath(QStringLiteral("%1-%2-%3.png").arg(info.id, scheme, size));
                // ALiBi and T5 take no d_model (the flag is refused there).
                const QStringList d = scheme == QLatin1String("alibi") || scheme == QLatin1String("t5")
                                          ? QStringList{}
                                          : QStringList{QStringLiteral("--d-model"), QStringLiteral("32")};
                const Run r = run(QStringList{QStringLiteral("--scheme"), scheme, QStringLiteral("--seq-len"),
                                              QStringLiteral("80"), QStringLiteral("--position"), QStringLiteral("60"),
                                              QStringLiteral("--export"), info.id, QStringLiteral("--size"), size,
                                              QStringLiteral("--out"), png} +
                                  d + shortTrainingArgs(info.id));
                const QString what = info.id + QLatin1Char(' ') + scheme + QStringLiteral(": ") + r.err;
                if (draws) {
                    QVERIFY2(r.code == 0, qPrintable(what));
                    QVERIFY2(QImageReader(png).size() == QSize(size.section(QLatin1Char('x'), 0, 0).toInt(),
                                                               size.section(QLatin1Char('x'), 1, 1).toInt()),
                             qPrintable(what));
                } else {
                    QVERIFY2(r.code == 2 && r.err.trimmed().count(QLatin1Char('\n')) == 0, qPrintable(what));
                    QVERIFY(!QFileInfo::exists(png));
                }
            }
        }
}

QTEST_MAIN(TestCommandLineSchemes)
#include "tst_command_line_schemes.moc"

// The command line's parsing: flags, every refusal in one line, the help, and refused commands run
// through the program (exit 2, nothing written). What it writes: tst_command_line_exports.
#include "command_line.h"
#include "command_line_support.h"
#include "encodings/encoding.h"
#include "export/data_export.h"
#include "test_support.h"

#include <QDir>
#include <QFile>
#include <QHash>
#include <QJsonObject>
#include <QJsonValue>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <string_view>
#include <vector>

class TestCommandLine : public QObject
{
    Q_OBJECT

  private slots:
    void parsesParameters();
    void refusals_data();
    void lectureFlags();
    void refusals();
    void badInputExitsTwoAndWritesNothing_data();
    void badInputExitsTwoAndWritesNothing();
    void everyNumericFlagRefusesBadNumbers_data();
    void everyNumericFlagRefusesBadNumbers();
    void help();
    void emptyValuesAreRefused_data();
    void emptyValuesAreRefused();
    void stateFromFilesIsChecked();
};

static QStringList argv(const QString &line)
{
    return QStringList{QStringLiteral("pe-explorer")} + line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

void TestCommandLine::parsesParameters()
{
    const auto r = parseCommandLine(
        argv(QStringLiteral("--seq-len 15 --d-model 9 --base 100 --start-pos 3 --layout interleaved --exponent index "
                            "--export heatmap --out a.png --size 300x200 --scale 2")));
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QCOMPARE(r.command.mode, CommandLine::Mode::ExportFigure);
    QCOMPARE(r.command.params.seqLen, 15);
    QCOMPARE(r.command.params.dModel, 9);
    QCOMPARE(r.command.params.base, 100.0);
    QCOMPARE(r.command.params.startPos, 3);
    QCOMPARE(r.command.params.exponent, pe::Exponent::Index);
    QCOMPARE(r.command.figure.size, QSize(300, 200));
    QCOMPARE(r.command.figure.scale, 2.0);
    // A preset with flags: the flags change what they name, the rest is the preset's.
    const auto preset =
        parseCommandLine(argv(QStringLiteral("--preset yarn-x4 --factor 8 --export scaling --out s.png")));
    QVERIFY2(preset.error.isEmpty(), qPrintable(preset.error));
    QCOMPARE(preset.command.params.rope.factor, 8.0);
    QCOMPARE(preset.command.params.rope.scaling, pe::RopeScaling::Yarn);
    QCOMPARE(preset.command.params.seqLen, 16384);
    QCOMPARE(preset.command.session->params.rope.factor, 8.0);
    const auto eq = parseCommandLine(argv(QStringLiteral("--seq-len=20 --base=1e8")));
    QVERIFY(eq.error.isEmpty());
    QCOMPARE(eq.command.mode, CommandLine::Mode::Window);
    QCOMPARE(eq.command.params.base, 1e8);
    const auto face =
        parseCommandLine(argv(QStringLiteral("--clock-face counterclockwise --export clocks --out c.png")));
    QVERIFY(face.error.isEmpty());
    // View settings given as flags are kept by view, choices by name, for every view declaring them.
    QCOMPARE(face.command.viewSettings.value(QStringLiteral("clocks")).value(QStringLiteral("clockFace")).toString(),
             QStringLiteral("counterclockwise"));
    const auto pairs = parseCommandLine(argv(QStringLiteral("--pairs 0,5,10-12 --export clocks --out c.png")));
    QVERIFY(pairs.error.isEmpty());
    for (const char *view : {"clocks", "circles"}) {
        const QJsonObject s = pairs.command.viewSettings.value(QLatin1String(view));
        QCOMPARE(s.value(view == std::string_view("clocks") ? QStringLiteral("clockPairChoice")
                                                            : QStringLiteral("circlePairChoice")),
                 QJsonValue(QStringLiteral("0,5,10-12")));
    }
    const auto metric = parseCommandLine(argv(QStringLiteral("--metric cosine --perplexity 4 --seed 7")));
    QVERIFY2(metric.error.isEmpty(), qPrintable(metric.error));
    for (const char *view : {"similarity", "distance"})
        QCOMPARE(metric.command.viewSettings.value(QLatin1String(view)).value(QStringLiteral("metric")),
                 QJsonValue(QStringLiteral("cosine")));
    const QJsonObject projection = metric.command.viewSettings.value(QStringLiteral("projection"));
    QCOMPARE(projection.value(QStringLiteral("perplexity")).toDouble(), 4.0);
    QCOMPARE(projection.value(QStringLiteral("tsneSeed")).toDouble(), 7.0);
    QCOMPARE(metric.command.noise.seed, 7u);
}

void TestCommandLine::refusals_data()
{
    QTest::addColumn<QString>("line");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("negative seq") << "--seq-len -5"
                                  << "--seq-len: seq_len must be a whole number from 1 to 1,000,000 (got -5)";
    QTest::newRow("zero seq") << "--seq-len 0"
                              << "--seq-len";
    QTest::newRow("text seq") << "--seq-len ten"
                              << "'ten' is not a whole number";
    QTest::newRow("float seq") << "--seq-len 1.5"
                               << "--seq-len";
    QTest::newRow("overflow seq") << "--seq-len 99999999999999999999999"
                                  << "--seq-len";
    QTest::newRow("huge d") << "--d-model 99999999999"
                            << "--d-model";
    QTest::newRow("d 4097") << "--d-model 4097"
                            << "4,096";
    QTest::newRow("base 1") << "--base 1"
                            << "--base: base must be";
    QTest::newRow("base nan") << "--base nan"
                              << "--base";
    QTest::newRow("base inf") << "--base inf"
                              << "--base";
    QTest::newRow("base text") << "--base big"
                               << "'big' is not a number";
    QTest::newRow("split odd") << "--layout split --d-model 7"
                               << "--d-model: d_model must be even";
    QTest::newRow("bad layout") << "--layout diagonal"
                                << "interleaved or split";
    QTest::newRow("bad exponent") << "--exponent j"
                                  << "pair or index";
    QTest::newRow("start negative") << "--start-pos -1"
                                    << "--start-pos";
    QTest::newRow("past 1e9") << "--start-pos 999999999 --seq-len 2"
                              << "start_pos + seq_len";
    QTest::newRow("unknown flag") << "--colour red"
                                  << "Unknown option 'colour'";
    QTest::newRow("bad rng") << "--rng mersenne"
                             << "--rng: 'mersenne' is not a generator; use counter or numpy.";
    QTest::newRow("numpy too large") << "--rng numpy --noise 0.5 --seq-len 40000 --d-model 1024"
                                     << "--rng: numpy's generator draws its values one after another";
    // A preset's numpy noise and a window past its draws: named by the flag that asked for more.
    QTest::newRow("preset numpy too long") << "--preset seed001-inputs --seq-len 1000000 --d-model 64"
                                           << "--seq-len: numpy's generator";
    QTest::newRow("counter has no limit") << "--preset seed001-inputs --rng counter --seq-len 1000000 --d-model 64 "
                                             "--colour red"
                                          << "Unknown option 'colour'";
    QTest::newRow("unknown view") << "--export spirals --out x.png"
                                  << "unknown view 'spirals'";
    QTest::newRow("no out") << "--export heatmap"
                            << "--out FILE is required";
    QTest::newRow("bad size") << "--export heatmap --out x.png --size 10x10"
                              << "--size";
    QTest::newRow("bad size text") << "--export heatmap --out x.png --size big"
                                   << "WIDTHxHEIGHT";
    QTest::newRow("bad scale") << "--export heatmap --out x.png --scale 0"
                               << "--scale";
    QTest::newRow("scale too big") << "--export heatmap --out x.png --size 8000x8000 --scale 4"
                                   << "16384";
    QTest::newRow("figure ext") << "--export heatmap --out x.jpg"
                                << "must end in .png, .svg or .pdf";
    QTest::newRow("export all onto a file") << "--export all --out /etc/passwd"
                                            << "must be a folder";
    QTest::newRow("export all onto x.png")
        << "--export all --out x.png"
        << "--out: with --export all, 'x.png' must be a folder, but its name ends in .png";
    QTest::newRow("frames into y.csv") << "--export-frames y.csv --frames 2"
                                       << "--export-frames: 'y.csv' must be a folder, but its name ends in .csv";
    QTest::newRow("session and preset") << "--session a.json --preset seed004-tsne"
                                        << "exclude each other";
    QTest::newRow("missing session") << "--session /nonexistent/s.json"
                                     << "--session: '/nonexistent/s.json' does not exist";
    QTest::newRow("unknown preset") << "--preset seed999"
                                    << "--preset: unknown preset 'seed999'";
    QTest::newRow("preset position outside flags' window")
        << "--preset llama2-rope --seq-len 100"
        << "--position: the preset's position 6000 is outside the window";
    QTest::newRow("data ext") << "--export-data encoding --out x.txt"
                              << ".csv or .npy";
    QTest::newRow("data kind") << "--export-data spirals --out x.csv"
                               << "unknown data 'spirals'";
    QTest::newRow("two modes") << "--export heatmap --export-data encoding --out x.csv"
                               << "exclude each other";
    QTest::newRow("stray arg") << "heatmap"
                               << "unexpected argument 'heatmap'";
    QTest::newRow("twice") << "--seq-len 5 --seq-len 6"
                           << "more than once";
    QTest::newRow("size without export") << "--size 100x100"
                                         << "goes with --export";
    QTest::newRow("dpi without export") << "--dpi 300"
                                        << "--dpi goes with --export";
    QTest::newRow("scale with inches") << "--export heatmap --out x.png --size 3.5x2.5in --scale 2"
                                       << "--scale: a size in in is drawn at --dpi";
    QTest::newRow("size unit") << "--export heatmap --out x.png --size 3.5x2.5ft"
                               << "--size: '3.5x2.5ft' is not a size";
    QTest::newRow("fractional pixels") << "--export heatmap --out x.png --size 12.5x800"
                                       << "--size: '12.5x800': pixels are whole numbers";
    QTest::newRow("tiny inches") << "--export heatmap --out x.png --size 0.5x2in"
                                 << "--size: a figure must be from 0.889 to 113.8 in on each side";
    QTest::newRow("dpi range") << "--export heatmap --out x.png --dpi 10"
                               << "--dpi: must be a whole number from 36 to 2400 (got '10')";
    QTest::newRow("too many pixels") << "--export heatmap --out x.png --size 20x10in --dpi 1200"
                                     << "--dpi: size times dpi must be at most 16384 pixels";
    QTest::newRow("font range") << "--export heatmap --out x.png --font-size 2"
                                << "--font-size: must be a number of points from 4 to 72 (got '2')";
    QTest::newRow("format alone") << "--export heatmap --out x.png --format svg"
                                  << "--format goes with --export all";
    QTest::newRow("format name") << "--export all --out dir --format jpg"
                                 << "--format: 'jpg' is not a figure format";
    QTest::newRow("position outside") << "--seq-len 10 --position 10"
                                      << "--position: must be a number inside the window, from 0 to 9";
    QTest::newRow("fraction on a whole view") << "--view similarity --position 2.5"
                                              << "--position 2.5: positions between whole ones are not drawn here: "
                                                 "the similarity view draws whole positions only";
    QTest::newRow("fraction with noise") << "--view clocks --noise 0.5 --position 2.5"
                                         << "the noise is drawn once per whole position";
    QTest::newRow("fraction in data") << "--export-data encoding --out x.csv --position 2.5"
                                      << "--position 2.5: a data export is a table at whole positions";
    QTest::newRow("fraction reference") << "--reference 2.5"
                                        << "--reference: must be a whole number";
    QTest::newRow("fraction past the window") << "--seq-len 10 --position 9.5"
                                              << "--position: must be a number inside the window, from 0 to 9";
    QTest::newRow("step fraction on a whole view")
        << "--export-frames out --frames 3 --step 0.25 --view distance"
        << "--step 0.25: positions between whole ones are not drawn here: the distance";
    QTest::newRow("step fraction of xpos") << "--scheme rope --xpos-scale-base 512 --causal --view attention "
                                              "--export-frames out --frames 3 --step 0.5"
                                           << "xPos's scores are summed at whole offsets";
    QTest::newRow("step too small") << "--export-frames out --frames 3 --step 0.0001"
                                    << "--step: must be a number of positions from 0.001";

    QTest::newRow("position text") << "--position here"
                                   << "--position";
    QTest::newRow("unknown --view") << "--view spirals"
                                    << "--view: unknown view 'spirals'";
    QTest::newRow("frames missing") << "--export-frames out"
                                    << "--frames N is required";
    QTest::newRow("frames zero") << "--export-frames out --frames 0"
                                 << "--frames: must be a whole number from 1 to 10000";
    QTest::newRow("step zero") << "--export-frames out --frames 3 --step 0"
                               << "--step";
    QTest::newRow("frames past 1e9") << "--start-pos 999999990 --seq-len 5 --export-frames out --frames 20"
                                     << "last allowed position";
    QTest::newRow("frames alone") << "--frames 3"
                                  << "go with --export-frames";
    QTest::newRow("bad metric") << "--metric manhattan"
                                << "--metric: must be dot, cosine or euclidean (got 'manhattan')";
    QTest::newRow("negative noise") << "--noise -1"
                                    << "--noise: sigma must be a number from 0 to 10 (got -1)";
    QTest::newRow("nan noise") << "--noise nan"
                               << "--noise: sigma must be";
    QTest::newRow("text noise") << "--noise lots"
                                << "'lots' is not a number";
    QTest::newRow("negative seed") << "--seed -3"
                                   << "--seed: must be a whole number from 0";
    QTest::newRow("huge seed") << "--seed 2147483648"
                               << "from 0 to 2147483647";
    QTest::newRow("huge offset") << "--offset 99999999999"
                                 << "--offset: must be a whole number from -1,000,000 to 1,000,000";
    QTest::newRow("reference outside") << "--seq-len 10 --reference 10"
                                       << "--reference: must be a whole number inside the window";
    QTest::newRow("position and reference") << "--position 3 --reference 4"
                                            << "give --position or --reference, not both";
    QTest::newRow("distance too big") << "--seq-len 20000 --export-data distance --out d.csv"
                                      << "seq_len must be at most 10,000";
    QTest::newRow("recovery too big") << "--seq-len 1000000 --d-model 64 --export-data recovery --out r.csv"
                                      << "33,554,432";
    QTest::newRow("bad clock face") << "--clock-face sideways"
                                    << "--clock-face: must be clockwise or counterclockwise (got 'sideways')";
    QTest::newRow("bad pairs") << "--pairs slowest"
                               << "--pairs: 'slowest' is not a pair or a range of pairs";
    QTest::newRow("backward range") << "--pairs 20-10"
                                    << "--pairs: '20-10' is not a pair or a range of pairs";
    QTest::newRow("lecture export") << "--lecture --export heatmap --out x.png"
                                    << "--lecture goes with";
    QTest::newRow("bad method") << "--method mds"
                                << "--method: must be tsne, pca or umap (got 'mds')";
    QTest::newRow("perplexity text")
        << "--perplexity high"
        << "--perplexity: must be a number from 1 to 1,000 with at most 2 decimals (got 'high')";
    QTest::newRow("perplexity small")
        << "--perplexity 0.5"
        << "--perplexity: must be a number from 1 to 1,000 with at most 2 decimals (got '0.5')";
    QTest::newRow("perplexity nan") << "--perplexity nan"
                                    << "--perplexity";
    QTest::newRow("perplexity vs window") << "--seq-len 20 --export-data projection --out p.csv"
                                          << "perplexity must be below the number of positions, 20";
    QTest::newRow("iterations zero") << "--iterations 0"
                                     << "--iterations: must be a whole number from 1 to 100,000 (got '0')";
    QTest::newRow("iterations huge") << "--iterations 99999999999"
                                     << "--iterations";
    QTest::newRow("learning rate") << "--learning-rate -3"
                                   << "--learning-rate: must be auto or a number above 0 and at most 1,000,000, with "
                                      "at most 2 decimals (got '-3')";
    QTest::newRow("perplexity decimals") << "--perplexity 5.004"
                                         << "--perplexity: must be a number from 1 to 1,000 with at most 2 decimals";
    QTest::newRow("exaggeration")
        << "--exaggeration 0"
        << "--exaggeration: must be a number from 1 to 1,000 with at most 2 decimals (got '0')";
    QTest::newRow("init") << "--init spiral"
                          << "--init: must be pca or random (got 'spiral')";
    QTest::newRow("factor without scaling") << "--scheme rope --factor 4"
                                            << "--factor: factor applies with a scaling: choose one";
    QTest::newRow("beta of linear") << "--scheme rope --scaling linear --beta-fast 16"
                                    << "--beta-fast: beta_fast is YaRN's: choose the scaling yarn.";
    QTest::newRow("heads of rope") << "--scheme rope --heads 4"
                                   << "--heads: heads is ALiBi's: choose the scheme alibi.";
    QTest::newRow("scaling of sinusoids") << "--scaling yarn"
                                          << "--scaling: scaling is RoPE's: choose the scheme rope.";
    QTest::newRow("scaling name")
        << "--scheme rope --scaling NTK"
        << "--scaling: scaling must be none, linear, ntk, dynamic-ntk, yarn, llama3, longrope or proportional";
    QTest::newRow("longrope without its lists") << "--scheme rope --scaling longrope"
                                                << "--short-factor: short_factor must hold one factor per rotated "
                                                   "pair, d/2 = 64 of them (got 0).";
    QTest::newRow("longrope list of another d")
        << "--scheme rope --d-model 8 --scaling longrope --short-factor 1,2,3,4 --long-factor 1,2,3"
        << "--long-factor: long_factor must hold one factor per rotated pair, d/2 = 4 of them (got 3).";
    QTest::newRow("longrope factor not a number")
        << "--scheme rope --d-model 8 --scaling longrope --short-factor 1,2,,4"
        << "--short-factor: short_factor must be numbers from 1 to 1e6, comma-separated, one per rotated pair "
           "(got '' as number 3).";
    QTest::newRow("rotary dimension odd") << "--scheme rope --d-model 96 --rotary-fraction 0.27"
                                          << "--rotary-fraction: rotary_fraction must leave an even number of rotated "
                                             "dimensions, at least 2: int(d_model · F) = int(96 · 0.27) = 25.";
    QTest::newRow("rotary fraction of sinusoids") << "--rotary-fraction 0.5"
                                                  << "--rotary-fraction: rotary_fraction is RoPE's: choose the scheme "
                                                     "rope.";
    QTest::newRow("longrope preset at another d") << "--preset phi3-mini-128k-longrope --d-model 64"
                                                  << "--d-model: short_factor must hold one factor per rotated pair, "
                                                     "d/2 = 32 of them (got 48).";
    QTest::newRow("short factor of yarn") << "--scheme rope --scaling yarn --short-factor 1,2"
                                          << "--short-factor: short_factor is LongRoPE's: choose the scaling longrope.";
    QTest::newRow("no-truncate of llama3") << "--scheme rope --scaling llama3 --no-truncate"
                                           << "--no-truncate: truncate is YaRN's: choose the scaling yarn.";
    QTest::newRow("mscale of linear") << "--scheme rope --scaling linear --mscale 1"
                                      << "--mscale: mscale is YaRN's: choose the scaling yarn.";
    QTest::newRow("attention factor of llama3")
        << "--scheme rope --scaling llama3 --attention-factor 2"
        << "--attention-factor: attention_factor is YaRN's and LongRoPE's: choose the scaling yarn or longrope.";
    QTest::newRow("head past heads") << "--scheme alibi --heads 4 --head 5"
                                     << "--head: head must be at most the number of heads, 4 (got 5).";
    QTest::newRow("betas crossed") << "--scheme rope --scaling yarn --beta-fast 1 --beta-slow 2"
                                   << "--beta-fast: beta_fast must be above beta_slow";
    QTest::newRow("beta slow past the default fast") << "--scheme rope --scaling yarn --beta-slow 40"
                                                     << "--beta-slow: beta_fast must be above beta_slow";
    QTest::newRow("fewer heads than the preset's head") << "--preset alibi-12-heads --heads 4"
                                                        << "--heads: head must be at most the number of heads, 4";
    QTest::newRow("rope odd d") << "--scheme rope --d-model 63"
                                << "--d-model: RoPE turns pairs of columns: d_model must be even (got 63).";
    QTest::newRow("layout of alibi") << "--scheme alibi --layout split"
                                     << "--layout: ALiBi adds no vector to the tokens";
    QTest::newRow("qk of alibi") << "--scheme alibi --qk random"
                                 << "--qk applies to the rope scheme (--scheme rope), not to alibi.";
    QTest::newRow("compare of alibi") << "--scheme alibi --compare"
                                      << "--compare applies to the sinusoidal or rope scheme";
    QTest::newRow("samples of sinusoids") << "--samples 8"
                                          << "--samples applies to the rope scheme";
    QTest::newRow("base of alibi") << "--scheme alibi --base 500"
                                   << "--base: ALiBi has no frequencies";
    QTest::newRow("alibi heatmap") << "--scheme alibi --export heatmap --out h.png"
                                   << "--export heatmap: ALiBi adds no vector to the tokens";
    QTest::newRow("alibi encoding") << "--scheme alibi --export-data encoding --out e.csv"
                                    << "--export-data encoding: ALiBi adds no vector";
    QTest::newRow("rope view of sinusoids") << "--export rope-decay --out d.png"
                                            << "--export rope-decay: The RoPE decay view shows the rope scheme";
    QTest::newRow("preset and a flag it does not take") << "--preset alibi-8-heads --factor 2"
                                                        << "--factor: factor is RoPE's";
    QTest::newRow("attention too large") << "--seq-len 1000000 --d-model 4096 --export attention --out a.png"
                                         << "N·d up to 268,435,456";
    QTest::newRow("attention data too large") << "--seq-len 20000 --export-data attention --out a.npy"
                                              << "at most 10,000 positions";
    QTest::newRow("projection of noisy vectors too big")
        << "--seq-len 1000000 --d-model 512 --noise 0.1 --export projection --out p.png"
        << "approximate neighbour index of these vectors would hold seq_len x d_model = 5.12e+08 values";
    QTest::newRow("noisy t-SNE with too many neighbours")
        << "--seq-len 1000000 --d-model 64 --noise 0.5 --perplexity 50 --export-data projection --out p.csv"
        << "would keep seq_len x 151 = ";
    QTest::newRow("noisy projection too big")
        << "--seq-len 100000 --d-model 4096 --noise 0.5 --method umap --export-data projection --out p.csv"
        << "more than 4e+08 (1.6 GB)";
    // Lectures: every step is a whole state; the flags that go with one.
    QTest::newRow("lecture unknown") << "--lecture-file clocks"
                                     << "no built-in lecture or file 'clocks'";
    QTest::newRow("lecture with a parameter") << "--lecture-file alibi --base 100"
                                              << "--lecture-file: every step gives its own state";
    QTest::newRow("lecture with a preset") << "--lecture-file alibi --preset seed000-heatmap"
                                           << "--lecture-file: every step gives its own state";
    QTest::newRow("lecture with a view flag") << "--lecture-file alibi --metric cosine"
                                              << "--metric would change one step alone";
    QTest::newRow("lecture with --view") << "--lecture-file alibi --view clocks"
                                         << "--view would change one step";
    QTest::newRow("lecture with --export") << "--lecture-file alibi --export heatmap --out h.png"
                                           << "not --export";
    QTest::newRow("lecture step 0")
        << "--lecture-file alibi --lecture-step 0"
        << "--lecture-step: '0' is not a step of the lecture; give a whole number from 1 to 5.";
    QTest::newRow("lecture step past the end") << "--lecture-file alibi --lecture-step 6"
                                               << "from 1 to 5";
    QTest::newRow("lecture step alone") << "--lecture-step 2"
                                        << "--lecture-step goes with --lecture-file";
    QTest::newRow("export lecture alone") << "--export-lecture h.pdf"
                                          << "--export-lecture goes with --lecture-file";
    QTest::newRow("export lecture and lecture mode") << "--lecture-file alibi --export-lecture h.pdf --lecture"
                                                     << "--lecture goes with the window or --screenshot.";
    QTest::newRow("export lecture to a file not a pdf") << "--lecture-file alibi --export-lecture h.png"
                                                        << "its name ends in .png like a file";
    QTest::newRow("export lecture format with a pdf") << "--lecture-file alibi --export-lecture h.pdf --format svg"
                                                      << "--format goes with --export-lecture FOLDER";
    QTest::newRow("export lecture bad format") << "--lecture-file alibi --export-lecture slides --format gif"
                                               << "--format: 'gif' is not a figure format";
    QTest::newRow("lecture file missing") << "--lecture-file /nonexistent/x.pelecture"
                                          << "--lecture-file: ";
    QTest::newRow("video fps") << "--export-frames v.mp4 --frames 10 --fps 61"
                               << "--fps: must be a whole number of frames a second from 1 to 60 for a video";
    QTest::newRow("gif fps") << "--export-frames v.gif --frames 10 --fps 55"
                             << "from 1 to 50 for a GIF";
    QTest::newRow("video too large") << "--export-frames v.webm --frames 10 --size 4000x2000"
                                     << "--size: a video is at most 3840 x 2160 pixels (got 4000 x 2000).";
    QTest::newRow("with-video alone") << "--with-video"
                                      << "--with-video goes with --export-lecture.";
    QTest::newRow("with-notes on slides") << "--lecture-file alibi --export-lecture slides --with-notes"
                                          << "--with-notes goes with --export-lecture FILE.pdf";
    QTest::newRow("fps without video") << "--lecture-file alibi --export-lecture slides --fps 30"
                                       << "--fps goes with --export-lecture --with-video";
    QTest::newRow("fps alone") << "--fps 30"
                               << "--fps goes with --export-frames or --export-lecture --with-video.";
    QTest::newRow("transparent gif")
        << "--export-frames f.gif --frames 3 --transparent"
        << "--transparent goes with --export, --export-frames DIR or --export-lecture FOLDER";
    QTest::newRow("transparent handout") << "--lecture-file alibi --export-lecture h.pdf --transparent"
                                         << "--transparent goes with";
    QTest::newRow("transparent window") << "--transparent"
                                        << "--transparent goes with";
    QTest::newRow("theme") << "--theme sepia"
                           << "--theme: 'sepia' is not a theme; use system, light, dark, projector.";
    QTest::newRow("theme with data") << "--theme dark --export-data encoding --out e.csv"
                                     << "--export-data writes numbers alone";
}

// --lecture-file: the step's state is the command's; lecture mode unless --export-lecture.
void TestCommandLine::lectureFlags()
{
    const auto r = parseCommandLine(argv(QStringLiteral("--lecture-file rope-long-context --lecture-step 4")));
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QCOMPARE(r.command.mode, CommandLine::Mode::Window);
    QVERIFY(r.command.lecture);
    QCOMPARE(r.command.lectureStep, 3);
    const Session &step = findBuiltInLecture(QStringLiteral("rope-long-context"))->steps[3].state;
    QVERIFY(r.command.params == step.params);
    QCOMPARE(r.command.position, step.position);
    QCOMPARE(r.command.view, step.view);
    QVERIFY(!r.command.restoreLast);
    const auto handout =
        parseCommandLine(argv(QStringLiteral("--lecture-file alibi --export-lecture h.pdf --theme dark")));
    QVERIFY2(handout.error.isEmpty(), qPrintable(handout.error));
    QCOMPARE(handout.command.mode, CommandLine::Mode::ExportLecture);
    QVERIFY(!handout.command.lecture);
    QCOMPARE(handout.command.theme, std::optional<Theme>(Theme::Dark));
    QCOMPARE(handout.command.figure.physical, QSizeF(9, 5)); // a handout's figure by default
    const auto slides =
        parseCommandLine(argv(QStringLiteral("--lecture-file alibi --export-lecture slides --format svg")));
    QVERIFY2(slides.error.isEmpty(), qPrintable(slides.error));
    QCOMPARE(slides.command.figure.size, QSize(1920, 1080));
    QCOMPARE(slides.command.figure.fontPoints, 1080 * 0.02); // tick labels at 2% of the height
    QCOMPARE(slides.command.allFormat, FigureFormat::Svg);
    const auto list = parseCommandLine(argv(QStringLiteral("--list-lectures")));
    QCOMPARE(list.command.mode, CommandLine::Mode::ListLectures);
}

void TestCommandLine::refusals()
{
    QFETCH(QString, line);
    QFETCH(QString, mentions);
    const auto r = parseCommandLine(argv(line));
    QVERIFY2(r.error.contains(mentions), qPrintable(r.error));
    QVERIFY(!r.error.contains(QLatin1Char('\n')));
}

void TestCommandLine::badInputExitsTwoAndWritesNothing_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("file");
    const QString png = QStringLiteral("bad.png");
    auto fig = [](QStringList before, const QString &out) {
        return before +
               QStringList{QStringLiteral("--export"), QStringLiteral("heatmap"), QStringLiteral("--out"), out};
    };
    QTest::newRow("negative seq") << fig({QStringLiteral("--seq-len"), QStringLiteral("-5")}, png) << png;
    QTest::newRow("nan base") << fig({QStringLiteral("--base"), QStringLiteral("nan")}, png) << png;
    QTest::newRow("unknown flag") << fig({QStringLiteral("--frobnicate")}, png) << png;
    QTest::newRow("missing folder") << fig({}, QStringLiteral("no/such/dir/x.png"))
                                    << QStringLiteral("no/such/dir/x.png");
    // A folder named like a file is never created.
    QTest::newRow("export all onto x.png") << QStringList{QStringLiteral("--export"), QStringLiteral("all"),
                                                          QStringLiteral("--out"), QStringLiteral("x.png")}
                                           << QStringLiteral("x.png");
    QTest::newRow("frames into y.pdf") << QStringList{QStringLiteral("--export-frames"), QStringLiteral("y.pdf"),
                                                      QStringLiteral("--frames"), QStringLiteral("2")}
                                       << QStringLiteral("y.pdf");
    QTest::newRow("empty view") << QStringList{QStringLiteral("--export"), QString(), QStringLiteral("--out"), png}
                                << png;
    QTest::newRow("numpy past its draws") << QStringList{QStringLiteral("--rng"),         QStringLiteral("numpy"),
                                                         QStringLiteral("--noise"),       QStringLiteral("1"),
                                                         QStringLiteral("--seq-len"),     QStringLiteral("1000000"),
                                                         QStringLiteral("--export-data"), QStringLiteral("embeddings"),
                                                         QStringLiteral("--out"),         QStringLiteral("x.npy")}
                                          << QStringLiteral("x.npy");
    QTest::newRow("data into missing folder")
        << QStringList{QStringLiteral("--export-data"), QStringLiteral("encoding"), QStringLiteral("--out"),
                       QStringLiteral("none/x.csv")}
        << QStringLiteral("none/x.csv");
}

void TestCommandLine::badInputExitsTwoAndWritesNothing()
{
    QFETCH(QStringList, args);
    QFETCH(QString, file);
    QTemporaryDir dir;
    for (QString &a : args)
        if (a == file)
            a = dir.filePath(file);
    const Run r = run(args);
    QCOMPARE(r.code, 2);
    QVERIFY(!r.err.trimmed().isEmpty());
    QCOMPARE(r.err.trimmed().count(QLatin1Char('\n')), 0); // one line
    QVERIFY(r.err.startsWith(QStringLiteral("pe-explorer: ")));
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot).size(), 0);
}

void TestCommandLine::everyNumericFlagRefusesBadNumbers_data()
{
    // Every numeric flag against non-numeric, negative, zero, NaN, infinite, huge and overflowing
    // values; the values a flag allows (0 for start_pos, -5 for the offset, ...) are left out.
    QTest::addColumn<QString>("flag");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("context"); // data, figure or frames
    struct Flag {
        const char *name;
        const char *context;
        std::vector<const char *> allowed;
    };
    const QList<Flag> flags = {
        {"seq-len", "data", {}},
        {"d-model", "data", {}},
        {"base", "data", {}},
        {"start-pos", "data", {"0"}},
        {"position", "data", {"0"}},
        {"noise", "data", {"0"}},
        {"seed", "data", {"0"}},
        {"offset", "data", {"0", "-5"}},
        {"perplexity", "data", {}},
        {"iterations", "data", {}},
        {"learning-rate", "data", {}},
        {"exaggeration", "data", {}},
        {"scale", "figure", {}},
        {"size", "figure", {}},
        {"frames", "frames", {}},
        {"step", "frames", {}},
        {"factor", "data", {}},
        {"original-context", "data", {}},
        {"beta-fast", "data", {}},
        {"beta-slow", "data", {}},
        {"low-freq-factor", "data", {}},
        {"high-freq-factor", "data", {}},
        {"heads", "data", {}},
        {"head", "data", {}},
        {"qk-seed", "data", {"0"}},
        {"samples", "data", {}},
        {"mscale", "data", {"0"}},
        {"mscale-all-dim", "data", {"0"}},
        {"attention-factor", "data", {"0"}},
        {"short-factor", "data", {}},
        {"long-factor", "data", {}},
        {"rotary-fraction", "data", {}},
    };
    const QStringList values{QStringLiteral("abc"),
                             QStringLiteral("-5"),
                             QStringLiteral("0"),
                             QStringLiteral("nan"),
                             QStringLiteral("inf"),
                             QStringLiteral("1e400"),
                             QStringLiteral("99999999999999999999"),
                             QStringLiteral("")};
    for (const Flag &f : flags)
        for (const QString &v : values) {
            if (std::any_of(f.allowed.begin(), f.allowed.end(), [&v](const char *a) { return v == QLatin1String(a); }))
                continue;
            const QString value =
                QLatin1String(f.name) == QLatin1String("size") && !v.isEmpty() ? v + QStringLiteral("x") + v : v;
            QTest::newRow(qPrintable(QStringLiteral("--%1 '%2'").arg(QLatin1String(f.name), value)))
                << QString::fromLatin1(f.name) << value << QString::fromLatin1(f.context);
        }
}

void TestCommandLine::everyNumericFlagRefusesBadNumbers()
{
    QFETCH(QString, flag);
    QFETCH(QString, value);
    QFETCH(QString, context);
    QTemporaryDir dir;
    // The output already exists: a refused command must leave it as it was.
    const QString out =
        dir.filePath(context == QLatin1String("figure") ? QStringLiteral("fig.png") : QStringLiteral("data.csv"));
    QFile existing(out);
    QVERIFY(existing.open(QIODevice::WriteOnly));
    existing.write("precious\n");
    existing.close();
    // A scheme's own flags after the scheme (and scaling) that take them.
    static const QHash<QString, QString> schemeOf{
        {QStringLiteral("factor"), QStringLiteral("--scheme rope --scaling linear")},
        {QStringLiteral("original-context"), QStringLiteral("--scheme rope")},
        {QStringLiteral("beta-fast"), QStringLiteral("--scheme rope --scaling yarn")},
        {QStringLiteral("beta-slow"), QStringLiteral("--scheme rope --scaling yarn")},
        {QStringLiteral("low-freq-factor"), QStringLiteral("--scheme rope --scaling llama3")},
        {QStringLiteral("high-freq-factor"), QStringLiteral("--scheme rope --scaling llama3")},
        {QStringLiteral("heads"), QStringLiteral("--scheme alibi")},
        {QStringLiteral("head"), QStringLiteral("--scheme alibi")},
        {QStringLiteral("mscale"), QStringLiteral("--scheme rope --scaling yarn")},
        {QStringLiteral("mscale-all-dim"), QStringLiteral("--scheme rope --scaling yarn")},
        {QStringLiteral("attention-factor"), QStringLiteral("--scheme rope --scaling yarn")},
        {QStringLiteral("short-factor"), QStringLiteral("--scheme rope --scaling longrope")},
        {QStringLiteral("long-factor"), QStringLiteral("--scheme rope --scaling longrope")},
        {QStringLiteral("rotary-fraction"), QStringLiteral("--scheme rope")}};
    QStringList args = schemeOf.value(flag).split(QLatin1Char(' '), Qt::SkipEmptyParts);
    args << QStringLiteral("--") + flag << value;
    if (context == QLatin1String("data"))
        args << QStringLiteral("--export-data") << QStringLiteral("encoding") << QStringLiteral("--out") << out;
    else if (context == QLatin1String("figure"))
        args << QStringLiteral("--export") << QStringLiteral("heatmap") << QStringLiteral("--out") << out;
    else
        args << QStringLiteral("--export-frames") << dir.filePath(QStringLiteral("frames"))
             << (flag == QLatin1String("frames") ? QStringList{}
                                                 : QStringList{QStringLiteral("--frames"), QStringLiteral("2")});
    const Run r = run(args);
    QCOMPARE(r.code, 2);
    QCOMPARE(r.err.trimmed().count(QLatin1Char('\n')), 0);
    QVERIFY2(r.err.startsWith(QStringLiteral("pe-explorer: --") + flag), qPrintable(r.err));
    QCOMPARE(testsupport::readFile(out), QByteArray("precious\n"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot).size(), 1);
}

void TestCommandLine::help()
{
    QProcess p;
    p.start(qEnvironmentVariable("PE_EXPLORER"), {QStringLiteral("--help")});
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitCode(), 0);
    const QString out = QString::fromLocal8Bit(p.readAllStandardOutput());
    for (const char *flag : {"--seq-len", "--d-model", "--base", "--start-pos", "--layout", "--exponent", "--export",
                             "--export-data", "--out", "--size", "--scale", "--screenshot"})
        QVERIFY2(out.contains(QLatin1String(flag)), flag);
    // The ranges in the core's words (Qt wraps the help: compare with the spaces folded).
    const QString folded = out.simplified();
    for (pe::Field f : {pe::Field::SeqLen, pe::Field::DModel, pe::Field::Base, pe::Field::StartPos, pe::Field::Layout,
                        pe::Field::Exponent})
        QVERIFY2(folded.contains(QString::fromStdString(pe::allowedText(f))), pe::allowedText(f).c_str());
    QVERIFY(folded.contains(QString::fromStdString(pe::seedAllowedText())));
    QVERIFY(folded.contains(QString::fromStdString(pe::sigmaAllowedText())));
}

void TestCommandLine::emptyValuesAreRefused_data()
{
    // Every option that takes a value, read from --help, so a new one is covered without a new row.
    QTest::addColumn<QString>("flag");
    static const QRegularExpression valueOption(QStringLiteral("--([a-z][a-z-]*) <"));
    auto it = valueOption.globalMatch(helpText());
    QStringList flags;
    while (it.hasNext())
        flags << it.next().captured(1);
    QVERIFY(flags.size() >= 30);
    for (const QString &flag : flags)
        if (flag != QStringLiteral("title")) // --title '' hides the title (figureTitles)
            QTest::newRow(qPrintable(flag)) << flag;
}

void TestCommandLine::emptyValuesAreRefused()
{
    QFETCH(QString, flag);
    for (const QStringList &args :
         {QStringList{QStringLiteral("--") + flag, QString()}, QStringList{QStringLiteral("--%1=").arg(flag)}}) {
        const ParsedCommandLine r = parseCommandLine(QStringList{QStringLiteral("pe-explorer")} + args);
        QVERIFY2(r.error.startsWith(QStringLiteral("--%1: the value is empty").arg(flag)), qPrintable(r.error));
        QCOMPARE(r.error.count(QLatin1Char('\n')), 0);
    }
}

// What a session or a table brings is held to the same rules as the flags (found in review: a
// session's view setting reached --export-data unchecked; frames ran past a table's last row).
void TestCommandLine::stateFromFilesIsChecked()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString session = dir.filePath(QStringLiteral("bad.json"));
    {
        QFile f(session);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"format": "positional-encoding-explorer-session", "version": 1,
            "parameters": {"seq_len": 30, "d_model": 8, "base": 10000, "start_pos": 0, "layout": "interleaved",
                           "exponent": "pair"},
            "view": "similarity", "views": {"similarity": {"metric": "bogus"}}})");
    }
    for (const char *line : {"--export-data similarity --out s.csv", "--export similarity --out s.png", ""}) {
        const auto r = parseCommandLine(argv(QStringLiteral("--session %1 %2").arg(session, QLatin1String(line))));
        QVERIFY2(
            r.error.contains(QStringLiteral("--session: view 'similarity': 'metric' must be dot, cosine or euclidean")),
            qPrintable(r.error));
    }
    // A table's last row bounds the frames; interleaved is the table's own layout, split is refused.
    const QString table = dir.filePath(QStringLiteral("t.npy"));
    std::string error;
    QVERIFY(pe::writeTable(pe::encodingTable(pe::Encoding(testsupport::params(60, 8))), table.toStdString(),
                           pe::DataFormat::Npy, error));
    auto r = parseCommandLine(argv(QStringLiteral("--table %1 --position 57 --export-frames %2 --frames 5")
                                       .arg(table, dir.filePath(QStringLiteral("f")))));
    QVERIFY2(r.error.contains(QStringLiteral("would pass the last allowed position 59")), qPrintable(r.error));
    r = parseCommandLine(argv(QStringLiteral("--table %1 --position 55 --export-frames %2 --frames 5")
                                  .arg(table, dir.filePath(QStringLiteral("f")))));
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    r = parseCommandLine(argv(QStringLiteral("--table %1 --layout interleaved").arg(table)));
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    r = parseCommandLine(argv(QStringLiteral("--table %1 --layout split").arg(table)));
    QVERIFY2(r.error.contains(QStringLiteral("interleaved")), qPrintable(r.error));
    // A long list of pairs is kept whole (the field once cut it at 200 characters).
    QStringList many;
    for (int i = 0; i < 80; ++i)
        many << QString::number(i);
    r = parseCommandLine(argv(QStringLiteral("--d-model 256 --pairs %1").arg(many.join(QLatin1Char(',')))));
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QCOMPARE(
        r.command.viewSettings.value(QStringLiteral("circles")).value(QStringLiteral("circlePairChoice")).toString(),
        many.join(QLatin1Char(',')));
}

QTEST_GUILESS_MAIN(TestCommandLine)
#include "tst_command_line.moc"

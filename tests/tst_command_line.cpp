#include "command_line.h"
#include "data_export.h"
#include "projection.h"
#include "test_support.h"
#include "view_registry.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QImageReader>
#include <QProcess>
#include <QRegularExpression>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstring>
#include <filesystem>

using testsupport::params;

class TestCommandLine : public QObject
{
    Q_OBJECT

  private slots:
    void exportAllSkipsWhatCannotBeDrawn();
    void parsesParameters();
    void refusals_data();
    void refusals();
    void exportNpyShape();
    void exportCsvRows();
    void exportFrequencies();
    void exportFigureSize_data();
    void exportFigureSize();
    void exportFigureWithoutDisplay();
    void badInputExitsTwoAndWritesNothing_data();
    void badInputExitsTwoAndWritesNothing();
    void failedExportKeepsExistingFile();
    void outputOntoADirectoryIsRefused();
    void everyNumericFlagRefusesBadNumbers_data();
    void everyNumericFlagRefusesBadNumbers();
    void exportFrames();
    void exportAnalysisData();
    void exportProjection();
    void exportVectorFormatsAndAll();
    void help();
    void emptyValuesAreRefused_data();
    void emptyValuesAreRefused();
    void exportLargerThanFreeSpaceIsRefused();
    void interruptedExportLeavesNothing_data();
    void interruptedExportLeavesNothing();
    void positionTable();

  private:
    struct Run {
        int code;
        QString err;
    };
    Run run(const QStringList &args, const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment());
    QTemporaryDir dir_;
};

TestCommandLine::Run TestCommandLine::run(const QStringList &args, const QProcessEnvironment &env)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(qEnvironmentVariable("PE_EXPLORER"), args);
    if (!p.waitForFinished(60000))
        return {-1, QStringLiteral("timed out")};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2,
            QString::fromLocal8Bit(p.readAllStandardError())};
}

static QStringList argv(const QString &line)
{
    return QStringList{QStringLiteral("pe-explorer")} + line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

void TestCommandLine::exportAllSkipsWhatCannotBeDrawn()
{
    // seed002-table has 15 positions, below t-SNE's perplexity of 30: --export all once wrote an
    // empty projection.png and said nothing. Now every other figure is written and the projection
    // is named on stderr with the reason.
    const QString out = dir_.filePath(QStringLiteral("all-seed002"));
    const Run r = run({QStringLiteral("--preset"), QStringLiteral("seed002-table"), QStringLiteral("--export"),
                       QStringLiteral("all"), QStringLiteral("--out"), out});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.err.contains(QStringLiteral("not drawn: projection: ")) && r.err.contains(QStringLiteral("perplexity")),
             qPrintable(r.err));
    QVERIFY(!QFileInfo::exists(QDir(out).filePath(QStringLiteral("projection.png"))));
    QVERIFY(QFileInfo::exists(QDir(out).filePath(QStringLiteral("heatmap.png"))));
    QCOMPARE(QDir(out).entryList(QDir::Files).size(), static_cast<int>(viewRegistry().size()) - 1);
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
    QTest::newRow("preset and flags") << "--preset seed004-tsne --d-model 16"
                                      << "--d-model: the preset already gives";
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
                                         << "go with --export";
    QTest::newRow("position outside") << "--seq-len 10 --position 10"
                                      << "--position: must be a whole number inside the window, from 0 to 9";
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
    QTest::newRow("bad method") << "--method umap"
                                << "--method: must be tsne or pca (got 'umap')";
    QTest::newRow("perplexity text") << "--perplexity high"
                                     << "--perplexity: must be a number from 1 to 1,000 (got 'high')";
    QTest::newRow("perplexity small") << "--perplexity 0.5"
                                      << "--perplexity: must be a number from 1 to 1,000 (got '0.5')";
    QTest::newRow("perplexity nan") << "--perplexity nan"
                                    << "--perplexity";
    QTest::newRow("perplexity vs window") << "--seq-len 20 --export-data projection --out p.csv"
                                          << "perplexity must be below the number of positions, 20";
    QTest::newRow("iterations zero") << "--iterations 0"
                                     << "--iterations: must be a whole number from 1 to 100,000 (got '0')";
    QTest::newRow("iterations huge") << "--iterations 99999999999"
                                     << "--iterations";
    QTest::newRow("learning rate")
        << "--learning-rate -3"
        << "--learning-rate: must be auto or a number above 0 and at most 1,000,000 (got '-3')";
    QTest::newRow("exaggeration") << "--exaggeration 0"
                                  << "--exaggeration: must be a number from 1 to 1,000 (got '0')";
    QTest::newRow("init") << "--init spiral"
                          << "--init: must be pca or random (got 'spiral')";
    QTest::newRow("projection too big") << "--seq-len 200000 --export projection --out p.png"
                                        << "at most 100,000 positions";
    QTest::newRow("noisy projection too big")
        << "--seq-len 100000 --d-model 512 --noise 0.5 --export-data projection --out p.csv"
        << "exact neighbour search";
}

void TestCommandLine::refusals()
{
    QFETCH(QString, line);
    QFETCH(QString, mentions);
    const auto r = parseCommandLine(argv(line));
    QVERIFY2(r.error.contains(mentions), qPrintable(r.error));
    QVERIFY(!r.error.contains(QLatin1Char('\n')));
}

void TestCommandLine::exportNpyShape()
{
    const QString out = dir_.filePath(QStringLiteral("t.npy"));
    const Run r = run({QStringLiteral("--seq-len"), QStringLiteral("300"), QStringLiteral("--d-model"),
                       QStringLiteral("20"), QStringLiteral("--start-pos"), QStringLiteral("7"),
                       QStringLiteral("--export-data"), QStringLiteral("encoding"), QStringLiteral("--out"), out});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    const qsizetype headerLength =
        10 + static_cast<unsigned char>(bytes[8]) + 256 * static_cast<unsigned char>(bytes[9]);
    const QByteArray header = bytes.mid(10, headerLength - 10);
    QVERIFY2(header.contains("'shape': (300, 20)"), header.constData());
    QVERIFY(header.contains("'descr': '<f8'"));
    QVERIFY(header.contains("'fortran_order': False"));
    QCOMPARE(bytes.size(), headerLength + 300 * 20 * 8);
    double first;
    std::memcpy(&first, bytes.constData() + headerLength, 8);
    QCOMPARE(first, std::sin(7.0)); // row 0 is position start_pos
}

void TestCommandLine::exportCsvRows()
{
    const QString out = dir_.filePath(QStringLiteral("t.csv"));
    const Run r =
        run({QStringLiteral("--seq-len"), QStringLiteral("1000"), QStringLiteral("--d-model"), QStringLiteral("8"),
             QStringLiteral("--export-data"), QStringLiteral("encoding"), QStringLiteral("--out"), out});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly | QIODevice::Text));
    const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 1001);
    QCOMPARE(lines.first(), QStringLiteral("position,d0,d1,d2,d3,d4,d5,d6,d7"));
    QVERIFY(lines.last().startsWith(QStringLiteral("999,")));
    QCOMPARE(lines.last().split(QLatin1Char(',')).size(), 9);
}

void TestCommandLine::exportFrequencies()
{
    const QString out = dir_.filePath(QStringLiteral("f.csv"));
    const Run r =
        run({QStringLiteral("--d-model"), QStringLiteral("9"), QStringLiteral("--exponent"), QStringLiteral("index"),
             QStringLiteral("--export-data"), QStringLiteral("frequencies"), QStringLiteral("--out"), out});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly | QIODevice::Text));
    const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 10);
    QCOMPARE(lines.first(), QStringLiteral("dimension,omega,wavelength"));
}

void TestCommandLine::exportFigureSize_data()
{
    QTest::addColumn<QString>("view");
    QTest::addColumn<QStringList>("extra");
    QTest::addColumn<QSize>("expected");
    QTest::newRow("heatmap default") << "heatmap" << QStringList{} << QSize(1200, 800);
    QTest::newRow("heatmap 2x") << "heatmap"
                                << QStringList{QStringLiteral("--size"), QStringLiteral("640x480"),
                                               QStringLiteral("--scale"), QStringLiteral("2")}
                                << QSize(1280, 960);
    QTest::newRow("clocks") << "clocks" << QStringList{QStringLiteral("--size"), QStringLiteral("800x600")}
                            << QSize(800, 600);
    QTest::newRow("circles") << "circles" << QStringList{QStringLiteral("--scale"), QStringLiteral("0.5")}
                             << QSize(600, 400);
    for (const char *view : {"similarity", "recovery", "distance", "relative", "inputs", "projection"})
        QTest::newRow(view) << view
                            << QStringList{QStringLiteral("--size"), QStringLiteral("700x400"),
                                           QStringLiteral("--noise"), QStringLiteral("0.5")}
                            << QSize(700, 400);
    QTest::newRow("frequencies") << "frequencies" << QStringList{QStringLiteral("--size"), QStringLiteral("500x300")}
                                 << QSize(500, 300);
}

void TestCommandLine::exportFigureSize()
{
    QFETCH(QString, view);
    QFETCH(QStringList, extra);
    QFETCH(QSize, expected);
    const QString out = dir_.filePath(view + QString::number(expected.width()) + QStringLiteral(".png"));
    const Run r = run(QStringList{QStringLiteral("--export"), view, QStringLiteral("--out"), out} + extra);
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QImageReader reader(out);
    QCOMPARE(reader.format(), QByteArray("png"));
    QCOMPARE(reader.size(), expected);
}

void TestCommandLine::exportFigureWithoutDisplay()
{
    // No DISPLAY and no QT_QPA_PLATFORM: the export still works.
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    const QString out = dir_.filePath(QStringLiteral("nodisplay.png"));
    const Run r = run({QStringLiteral("--export"), QStringLiteral("heatmap"), QStringLiteral("--out"), out}, env);
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(QFile::exists(out));
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
        {"seq-len", "data", {}},      {"d-model", "data", {}},         {"base", "data", {}},
        {"start-pos", "data", {"0"}}, {"position", "data", {"0"}},     {"noise", "data", {"0"}},
        {"seed", "data", {"0"}},      {"offset", "data", {"0", "-5"}}, {"perplexity", "data", {}},
        {"iterations", "data", {}},   {"learning-rate", "data", {}},   {"exaggeration", "data", {}},
        {"scale", "figure", {}},      {"size", "figure", {}},          {"frames", "frames", {}},
        {"step", "frames", {}},
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
    QStringList args{QStringLiteral("--") + flag, value};
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

void TestCommandLine::outputOntoADirectoryIsRefused()
{
    // An --out that names a folder (for a PNG, an SVG, a CSV): refused, and the folder untouched.
    const QList<QPair<QString, QString>> cases{{QStringLiteral("--export"), QStringLiteral("png")},
                                               {QStringLiteral("--export"), QStringLiteral("svg")},
                                               {QStringLiteral("--export-data"), QStringLiteral("csv")}};
    for (const auto &[mode, suffix] : cases) {
        const QString out = dir_.filePath(QStringLiteral("folder.") + suffix);
        QVERIFY(QDir().mkpath(out));
        QFile inside(out + QStringLiteral("/inside.txt"));
        QVERIFY(inside.open(QIODevice::WriteOnly));
        inside.close();
        const QString what = mode == QLatin1String("--export") ? QStringLiteral("heatmap") : QStringLiteral("encoding");
        const Run r = run({mode, what, QStringLiteral("--out"), out});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.startsWith(QStringLiteral("pe-explorer: --out: ")) &&
                     r.err.contains(QStringLiteral("directory")),
                 qPrintable(r.err));
        QCOMPARE(r.err.trimmed().count(QLatin1Char('\n')), 0);
        QCOMPARE(QDir(out).entryList(QDir::Files), QStringList{QStringLiteral("inside.txt")});
    }
}

void TestCommandLine::failedExportKeepsExistingFile()
{
    const QString out = dir_.filePath(QStringLiteral("keep.csv"));
    QVERIFY(testsupport::writeReadOnlyFile(out, "precious\n"));
    const Run r = run({QStringLiteral("--export-data"), QStringLiteral("encoding"), QStringLiteral("--out"), out});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains(QStringLiteral("read-only")), qPrintable(r.err));
    QCOMPARE(testsupport::readFile(out), QByteArray("precious\n"));
}

void TestCommandLine::exportFrames()
{
    const QString dir = dir_.filePath(QStringLiteral("frames/sub"));
    const Run r =
        run({QStringLiteral("--view"), QStringLiteral("clocks"), QStringLiteral("--seq-len"), QStringLiteral("8"),
             QStringLiteral("--position"), QStringLiteral("6"), QStringLiteral("--export-frames"), dir,
             QStringLiteral("--frames"), QStringLiteral("5"), QStringLiteral("--step"), QStringLiteral("2"),
             QStringLiteral("--size"), QStringLiteral("320x240")});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QStringList files = QDir(dir).entryList(QDir::Files, QDir::Name);
    QCOMPARE(files, (QStringList{QStringLiteral("frame-00000.png"), QStringLiteral("frame-00001.png"),
                                 QStringLiteral("frame-00002.png"), QStringLiteral("frame-00003.png"),
                                 QStringLiteral("frame-00004.png")}));
    QImage first(QDir(dir).filePath(files.first()));
    QImage last(QDir(dir).filePath(files.last()));
    QCOMPARE(first.size(), QSize(320, 240));
    QVERIFY(first != last); // the hands moved
}

static QStringList csvLines(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text))
        return {};
    return QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

void TestCommandLine::exportAnalysisData()
{
    // Seed 001's settings: d 20, 300 positions, reference 30, noise 0.5.
    const QStringList seed001{QStringLiteral("--seq-len"), QStringLiteral("300"), QStringLiteral("--d-model"),
                              QStringLiteral("20")};
    const QString sim = dir_.filePath(QStringLiteral("sim.csv"));
    Run r = run(seed001 + QStringList{QStringLiteral("--reference"), QStringLiteral("30"), QStringLiteral("--metric"),
                                      QStringLiteral("cosine"), QStringLiteral("--export-data"),
                                      QStringLiteral("similarity"), QStringLiteral("--out"), sim});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QStringList lines = csvLines(sim);
    QCOMPARE(lines.size(), 301);
    QCOMPARE(lines[0], QStringLiteral("position,similarity"));
    QCOMPARE(lines[31], QStringLiteral("30,1")); // cosine of PE(30) with itself
    const QString rec = dir_.filePath(QStringLiteral("rec.csv"));
    r = run(seed001 + QStringList{QStringLiteral("--noise"), QStringLiteral("0.5"), QStringLiteral("--seed"),
                                  QStringLiteral("42"), QStringLiteral("--export-data"), QStringLiteral("recovery"),
                                  QStringLiteral("--out"), rec});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    lines = csvLines(rec);
    QCOMPARE(lines.size(), 301);
    QCOMPARE(lines[0], QStringLiteral("position,predicted"));
    int correct = 0;
    for (int i = 1; i < lines.size(); ++i) {
        const QStringList cells = lines[i].split(QLatin1Char(','));
        correct += cells[0] == cells[1];
    }
    QVERIFY2(correct < 270 && correct > 60, qPrintable(QString::number(correct))); // clearly below 100%
    const QString dist = dir_.filePath(QStringLiteral("dist.npy"));
    r = run({QStringLiteral("--seq-len"), QStringLiteral("40"), QStringLiteral("--d-model"), QStringLiteral("8"),
             QStringLiteral("--export-data"), QStringLiteral("distance"), QStringLiteral("--out"), dist});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QFile f(dist);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(f.readAll().contains("'shape': (40, 40)"));
}

void TestCommandLine::exportProjection()
{
    // Seed 004: 128 x 8, perplexity 4; the export runs t-SNE to the end.
    const QStringList seed004{QStringLiteral("--seq-len"), QStringLiteral("128"),          QStringLiteral("--d-model"),
                              QStringLiteral("8"),         QStringLiteral("--perplexity"), QStringLiteral("4")};
    const QString csv = dir_.filePath(QStringLiteral("tsne.csv"));
    Run r = run(seed004 + QStringList{QStringLiteral("--export-data"), QStringLiteral("projection"),
                                      QStringLiteral("--out"), csv});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QStringList lines = csvLines(csv);
    QCOMPARE(lines.size(), 129);
    QCOMPARE(lines[0], QStringLiteral("position,x,y"));
    pe::TsneSettings s;
    s.perplexity = 4;
    const pe::Projection expected =
        pe::computeProjection(pe::Encoding(params(128, 8)), {}, pe::ProjectionMethod::Tsne, s);
    for (int i : {0, 63, 127}) {
        const QStringList cells = lines[i + 1].split(QLatin1Char(','));
        QCOMPARE(cells[0].toInt(), i);
        QCOMPARE(cells[1].toDouble(), expected.xy[static_cast<std::size_t>(2 * i)]);
        QCOMPARE(cells[2].toDouble(), expected.xy[static_cast<std::size_t>(2 * i + 1)]);
    }
    const QString npy = dir_.filePath(QStringLiteral("pca.npy"));
    r = run({QStringLiteral("--seq-len"), QStringLiteral("500"), QStringLiteral("--method"), QStringLiteral("pca"),
             QStringLiteral("--export-data"), QStringLiteral("projection"), QStringLiteral("--out"), npy});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QFile f(npy);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(f.readAll().contains("'shape': (500, 2)"));
    // Random start: --seed chooses it, the same seed the same numbers.
    QStringList firsts;
    for (const char *seed : {"5", "5", "6"}) {
        const QString out = dir_.filePath(QStringLiteral("seed%1.csv").arg(firsts.size()));
        r = run(seed004 + QStringList{QStringLiteral("--init"), QStringLiteral("random"), QStringLiteral("--seed"),
                                      QString::fromLatin1(seed), QStringLiteral("--iterations"), QStringLiteral("300"),
                                      QStringLiteral("--export-data"), QStringLiteral("projection"),
                                      QStringLiteral("--out"), out});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        firsts << csvLines(out).value(1);
    }
    QCOMPARE(firsts[0], firsts[1]);
    QVERIFY(firsts[0] != firsts[2]);
}

void TestCommandLine::exportVectorFormatsAndAll()
{
    for (const char *view : {"heatmap", "clocks", "projection"}) {
        const QString svg = dir_.filePath(QStringLiteral("%1.svg").arg(QLatin1String(view)));
        const QString pdf = dir_.filePath(QStringLiteral("%1.pdf").arg(QLatin1String(view)));
        for (const QString &out : {svg, pdf}) {
            const Run r = run({QStringLiteral("--preset"), QStringLiteral("seed004-tsne"), QStringLiteral("--export"),
                               QLatin1String(view), QStringLiteral("--size"), QStringLiteral("640x400"),
                               QStringLiteral("--out"), out});
            QVERIFY2(r.code == 0, qPrintable(r.err));
        }
        // SVG: well-formed XML of the figure's size that Qt's own renderer accepts.
        QSvgRenderer renderer(svg);
        QVERIFY(renderer.isValid());
        QCOMPARE(renderer.viewBox(), QRect(0, 0, 640, 400));
        QXmlStreamReader xml(testsupport::readFile(svg));
        while (!xml.atEnd())
            xml.readNext();
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        // PDF: one page of 640 x 400 points, a complete file.
        const QByteArray bytes = testsupport::readFile(pdf);
        QVERIFY(bytes.startsWith("%PDF-1."));
        QVERIFY(bytes.trimmed().endsWith("%%EOF"));
        QVERIFY2(bytes.contains("/MediaBox [0 0 640.000000 400.000000]"), bytes.left(600).constData());
        QCOMPARE(bytes.count("/Type /Page\n"), 1);
    }
    const QString all = dir_.filePath(QStringLiteral("all"));
    const Run r = run({QStringLiteral("--seq-len"), QStringLiteral("64"), QStringLiteral("--d-model"),
                       QStringLiteral("16"), QStringLiteral("--export"), QStringLiteral("all"),
                       QStringLiteral("--size"), QStringLiteral("500x300"), QStringLiteral("--out"), all});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    for (const QString &id : viewIds()) {
        QImageReader png(QDir(all).filePath(id + QStringLiteral(".png")));
        QCOMPARE(png.size(), QSize(500, 300));
    }
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

void TestCommandLine::exportLargerThanFreeSpaceIsRefused()
{
    // 1,000,000 x 4,096 as CSV: up to 102 GB, the largest export there is.
    const pe::Encoding encoding(params(1'000'000, 4096));
    const std::uint64_t estimate = pe::estimatedFileSize(pe::encodingTable(encoding), pe::DataFormat::Csv);
    QTemporaryDir dir;
    if (std::filesystem::space(dir.path().toStdString()).available >= estimate)
        QSKIP("this disk has room for the largest export");
    const QString out = dir.filePath(QStringLiteral("huge.csv"));
    QElapsedTimer timer;
    timer.start();
    const Run r = run({QStringLiteral("--export-data"), QStringLiteral("encoding"), QStringLiteral("--seq-len"),
                       QStringLiteral("1000000"), QStringLiteral("--d-model"), QStringLiteral("4096"),
                       QStringLiteral("--out"), out});
    qInfo("refused in %lld ms", static_cast<long long>(timer.elapsed()));
    QCOMPARE(r.code, 2);
    QCOMPARE(r.err.trimmed().count(QLatin1Char('\n')), 0);
    static const QRegularExpression sentence(
        QStringLiteral("^pe-explorer: --out: the file would take up to 102\\.4 GB but only [0-9.]+ [kMGT]?B are free "
                       "in '.+'; nothing was written\\.$"));
    QVERIFY2(sentence.match(r.err.trimmed()).hasMatch(), qPrintable(r.err));
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot).size(), 0);
}

void TestCommandLine::interruptedExportLeavesNothing_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("signal");
    // Minutes of work each, stopped as soon as the temporary file is there.
    const QStringList data{QStringLiteral("--export-data"), QStringLiteral("encoding"),  QStringLiteral("--seq-len"),
                           QStringLiteral("1000000"),       QStringLiteral("--d-model"), QStringLiteral("256"),
                           QStringLiteral("--out")};
    const QStringList figure{QStringLiteral("--export"),     QStringLiteral("projection"), QStringLiteral("--seq-len"),
                             QStringLiteral("2000"),         QStringLiteral("--d-model"),  QStringLiteral("64"),
                             QStringLiteral("--iterations"), QStringLiteral("100000"),     QStringLiteral("--out")};
    QTest::newRow("data, SIGTERM") << data << QStringLiteral("out.csv") << int(SIGTERM);
    QTest::newRow("data, SIGINT") << data << QStringLiteral("out.npy") << int(SIGINT);
    QTest::newRow("figure, SIGINT") << figure << QStringLiteral("out.png") << int(SIGINT);
    QTest::newRow("figure, SIGTERM") << figure << QStringLiteral("out.pdf") << int(SIGTERM);
}

void TestCommandLine::interruptedExportLeavesNothing()
{
    QFETCH(QStringList, args);
    QFETCH(QString, file);
    QFETCH(int, signal);
    QTemporaryDir dir;
    const QString out = dir.filePath(file);
    {
        QFile existing(out);
        QVERIFY(existing.open(QIODevice::WriteOnly));
        existing.write("precious\n");
    }
    const auto temporary = [&] {
        const QFileInfoList found =
            QDir(dir.path()).entryInfoList({file + QStringLiteral(".tmp-*")}, QDir::Files | QDir::Hidden);
        return found.isEmpty() ? QFileInfo() : found.first();
    };
    QProcess p;
    // As run from a terminal: a test started in the background may have inherited SIGINT ignored.
    p.setChildProcessModifier([] {
        std::signal(SIGINT, SIG_DFL);
        std::signal(SIGTERM, SIG_DFL);
    });
    p.start(qEnvironmentVariable("PE_EXPLORER"), args << out);
    QVERIFY(p.waitForStarted());
    // The data export is caught mid-stream (bytes written), the figure while it renders.
    QTRY_VERIFY_WITH_TIMEOUT(temporary().exists() && (!file.endsWith(QStringLiteral(".csv")) || temporary().size() > 0),
                             20000);
    QCOMPARE(p.state(), QProcess::Running);
    QElapsedTimer timer;
    timer.start();
    ::kill(static_cast<pid_t>(p.processId()), signal);
    QVERIFY(p.waitForFinished(10000));
    qInfo("ended %lld ms after the signal", static_cast<long long>(timer.elapsed()));
    // Ended by the signal itself, as without the cleanup: a shell reports 128 + signal (130, 143).
    QCOMPARE(p.exitStatus(), QProcess::CrashExit);
    QCOMPARE(p.exitCode(), signal);
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList{file});
    QCOMPARE(testsupport::readFile(out), QByteArray("precious\n"));
}

// --table: the sinusoids exported as .npy and read back are the same file; every view draws a
// table; what a table fixes is refused with one line, exit 2 and nothing written.
void TestCommandLine::positionTable()
{
    const QString table = dir_.filePath(QStringLiteral("sin-table.npy"));
    Run r = run({QStringLiteral("--seq-len"), QStringLiteral("40"), QStringLiteral("--d-model"), QStringLiteral("6"),
                 QStringLiteral("--export-data"), QStringLiteral("encoding"), QStringLiteral("--out"), table});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QString again = dir_.filePath(QStringLiteral("again.npy"));
    r = run({QStringLiteral("--table"), table, QStringLiteral("--export-data"), QStringLiteral("encoding"),
             QStringLiteral("--out"), again});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QFile a(table), b(again);
    QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
    QCOMPARE(b.readAll(), a.readAll()); // seq_len defaults to all 40 rows, d_model to 6 columns

    const QString window = dir_.filePath(QStringLiteral("window.csv"));
    r = run({QStringLiteral("--table"), table, QStringLiteral("--start-pos"), QStringLiteral("30"),
             QStringLiteral("--export-data"), QStringLiteral("encoding"), QStringLiteral("--out"), window});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QFile w(window);
    QVERIFY(w.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = w.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 11); // the header and rows 30..39
    QVERIFY(lines[1].startsWith("30,"));

    for (const ViewInfo &info : viewRegistry()) {
        const QString png = dir_.filePath(QStringLiteral("table-%1.png").arg(info.id));
        r = run({QStringLiteral("--table"), table, QStringLiteral("--export"), info.id, QStringLiteral("--size"),
                 QStringLiteral("600x400"), QStringLiteral("--out"), png});
        QVERIFY2(r.code == 0 && QFileInfo(png).size() > 1000, qPrintable(info.id + QStringLiteral(": ") + r.err));
    }

    const QString nan = dir_.filePath(QStringLiteral("nan.npy"));
    {
        QFile source(table);
        QVERIFY(source.open(QIODevice::ReadOnly));
        QByteArray bytes = source.readAll();
        const double bad = std::nan("");
        std::memcpy(bytes.data() + bytes.size() - 8 * 20, &bad, 8); // value 220 of 240: row 36, column 4
        QFile f(nan);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
    }
    const QString out = dir_.filePath(QStringLiteral("refused.png"));
    const QList<QPair<QStringList, QString>> refused{
        {{QStringLiteral("--table"), dir_.filePath(QStringLiteral("missing.npy"))}, QStringLiteral("No such file")},
        {{QStringLiteral("--table"), nan}, QStringLiteral("NaN at row 36, column 4")},
        {{QStringLiteral("--table"), out + QStringLiteral(".txt")}, QStringLiteral("--table")},
        {{QStringLiteral("--table"), table, QStringLiteral("--base"), QStringLiteral("100")},
         QStringLiteral("does not apply to a table")},
        {{QStringLiteral("--table"), table, QStringLiteral("--d-model"), QStringLiteral("8")},
         QStringLiteral("column count, 6")},
        {{QStringLiteral("--table"), table, QStringLiteral("--seq-len"), QStringLiteral("41")},
         QStringLiteral("the table's 40 rows")},
        {{QStringLiteral("--table"), table, QStringLiteral("--layout"), QStringLiteral("split")},
         QStringLiteral("interleaved")},
    };
    for (const auto &[args, mentions] : refused) {
        r = run(args +
                QStringList{QStringLiteral("--export"), QStringLiteral("heatmap"), QStringLiteral("--out"), out});
        QVERIFY2(r.code == 2 && r.err.contains(mentions) && r.err.trimmed().count(QLatin1Char('\n')) == 0,
                 qPrintable(args.join(QLatin1Char(' ')) + QStringLiteral(" -> ") + r.err));
        QVERIFY(!QFileInfo::exists(out));
    }
}

QTEST_GUILESS_MAIN(TestCommandLine)
#include "tst_command_line.moc"

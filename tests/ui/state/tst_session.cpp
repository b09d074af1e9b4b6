#include "checkpoint_files.h"
#include "encodings/position_table.h"
#include "export/data_export.h"
#include "figures/plot_view.h"
#include "figures/workspace_views.h"
#include "models/model_config.h"
#include "state/parameter_history.h"
#include "state/parameters.h"
#include "state/session.h"
#include "state/view_registry.h"
#include "state/workspace.h"
#include "test_support.h"
#include "window/control_panel.h"
#include "window/main_window.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QMimeData>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <QUrl>

using testsupport::params;

class TestSession : public QObject
{
    Q_OBJECT

  private slots:
    void initTestCase();
    void roundTrip();
    void refusals_data();
    void refusals();
    void refusedViewSettingChangesNothing();
    void choicesSavedByNameOlderFilesByIndex();
    void olderFilesDrawTheirFigures_data();
    void olderFilesDrawTheirFigures();
    void hugeFileIsRefusedUnread();
    void everyPresetReproducesItsParameters();
    void undoAndRedo();
    void viewSettingsAreUndone();
    void recentFilesAndRestore();
    void droppedFileOpens();

  private:
    QTemporaryDir dir_;
    static QByteArray validJson();
};

void TestSession::initTestCase()
{
    QVERIFY(dir_.isValid());
    // QSettings into the temporary folder: never the user's own.
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir_.path());
    QCoreApplication::setOrganizationName(QStringLiteral("PositionalEncodingExplorerTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_session"));
}

QByteArray TestSession::validJson()
{
    return QByteArrayLiteral(R"({"format": "positional-encoding-explorer-session", "version": 1,
        "parameters": {"seq_len": 300, "d_model": 20, "base": 10000, "start_pos": 0, "layout": "interleaved", "exponent": "pair"},
        "position": 30, "noise": {"sigma": 0.5, "seed": 42}, "view": "similarity", "views": {"similarity": {"metric": 1}}})");
}

void TestSession::roundTrip()
{
    Parameters p1;
    MainWindow w1(&p1);
    QVERIFY(!p1.set(params(777, 48, 3e5, 12, pe::Layout::Split, pe::Exponent::Index)));
    QVERIFY(p1.setPosition(100));
    QVERIFY(!p1.setNoise({1.25, 9, pe::NoiseRng::Numpy}));
    w1.view(QStringLiteral("heatmap"))->findChild<QComboBox *>(QStringLiteral("colorMap"))->setCurrentIndex(2);
    w1.view(QStringLiteral("projection"))->findChild<QDoubleSpinBox *>(QStringLiteral("perplexity"))->setValue(7.5);
    w1.showView(QStringLiteral("distance"));
    const QString path = dir_.filePath(QStringLiteral("s.json"));
    QString error;
    QVERIFY2(w1.saveSession(path, &error), qPrintable(error));

    Parameters p2;
    MainWindow w2(&p2);
    QVERIFY2(w2.openSession(path, &error), qPrintable(error));
    QVERIFY(p2.values() == p1.values());
    QCOMPARE(p2.position(), 100);
    QVERIFY(p2.noise() == p1.noise());
    QCOMPARE(w2.currentView(), w2.view(QStringLiteral("distance")));
    QCOMPARE(w2.view(QStringLiteral("heatmap"))->findChild<QComboBox *>(QStringLiteral("colorMap"))->currentIndex(), 2);
    QCOMPARE(w2.view(QStringLiteral("projection"))->findChild<QDoubleSpinBox *>(QStringLiteral("perplexity"))->value(),
             7.5);
    // The whole state, field for field.
    QCOMPARE(sessionToJson(w2.currentSession()), sessionToJson(w1.currentSession()));
    QVERIFY(QJsonDocument::fromJson(testsupport::readFile(path)).object().value(QStringLiteral("version")).toInt() ==
            kSessionVersion);

    // RoPE's scaling and ALiBi's heads go by their keys, a scaling by its name.
    pe::EncodingParams r = params(64, 32);
    r.scheme = pe::SchemeId::Rope;
    r.rope = {pe::RopeScaling::Yarn, 4, 2048, 24, 2, 1, 4};
    r.heads = 12;
    r.head = 9;
    QVERIFY(!p1.set(r));
    // A real position (playback stopped between whole ones) comes back as it was.
    QVERIFY(!p1.setRealPosition(20.75)); // not with noise, drawn per whole position
    QVERIFY(!p1.setNoise({}));
    QVERIFY(p1.setRealPosition(20.75));
    QVERIFY2(w1.saveSession(path, &error), qPrintable(error));
    QVERIFY2(w2.openSession(path, &error), qPrintable(error));
    QCOMPARE(p2.realPosition(), 20.75);
    const QJsonObject saved = sessionToJson(w1.currentSession());
    const QJsonObject parameters = saved.value(QStringLiteral("parameters")).toObject();
    QCOMPARE(parameters.value(QStringLiteral("scheme")).toString(), QStringLiteral("rope"));
    QCOMPARE(parameters.value(QStringLiteral("scaling")).toString(), QStringLiteral("yarn"));
    QCOMPARE(parameters.value(QStringLiteral("original_context")).toInt(), 2048);
    QCOMPARE(parameters.value(QStringLiteral("beta_fast")).toDouble(), 24.0);
    QCOMPARE(parameters.value(QStringLiteral("head")).toInt(), 9);
    const std::optional<Session> back = sessionFromJson(saved, &error);
    QVERIFY2(back, qPrintable(error));
    QVERIFY(back->params == r);

    // YaRN as DeepSeek sets it (mscale, truncate as a true-or-false) and LongRoPE's lists as
    // arrays of numbers, read back equal to the last bit.
    r.rope.mscale = 1.0;
    r.rope.mscaleAllDim = 0.707;
    r.rope.truncate = false;
    r.rope.attentionFactor = 1.25;
    QVERIFY(!p1.set(r));
    QJsonObject yarn = sessionToJson(w1.currentSession()).value(QStringLiteral("parameters")).toObject();
    QCOMPARE(yarn.value(QStringLiteral("truncate")), QJsonValue(false));
    QCOMPARE(yarn.value(QStringLiteral("mscale_all_dim")).toDouble(), 0.707);
    r.rope.scaling = pe::RopeScaling::LongRope;
    for (int i = 0; i < 16; ++i) {
        r.rope.shortFactor.push_back(1.0 + i / 3.0);
        r.rope.longFactor.push_back(1.0700000524520874 * (i + 1));
    }
    QVERIFY(!p1.set(r));
    const QJsonObject longRope = sessionToJson(w1.currentSession());
    QCOMPARE(
        longRope.value(QStringLiteral("parameters")).toObject().value(QStringLiteral("long_factor")).toArray().size(),
        16);
    const std::optional<Session> again = parseSession(QJsonDocument(longRope).toJson(), &error);
    QVERIFY2(again, qPrintable(error));
    QVERIFY(again->params == r);

    // T5's bias table by its path (bias_table), opened again on reading; the head a column of it.
    std::string bytes = pe::npyHeader({8, 2});
    for (int i = 0; i < 16; ++i) {
        const double v = 0.5 * i - 3;
        bytes.append(reinterpret_cast<const char *>(&v), sizeof v);
    }
    const QString biasPath = dir_.filePath(QStringLiteral("bias.npy"));
    QFile biasFile(biasPath);
    QVERIFY(biasFile.open(QIODevice::WriteOnly));
    biasFile.write(bytes.data(), static_cast<qint64>(bytes.size()));
    biasFile.close();
    pe::EncodingParams t5 = params(40, 32);
    t5.scheme = pe::SchemeId::T5;
    t5.buckets = 8;
    t5.maxDistance = 20;
    t5.head = 2;
    t5.biasTable = pe::PositionTable::open(biasPath.toStdString());
    QVERIFY(!p1.set(t5));
    const QJsonObject withBias = sessionToJson(w1.currentSession());
    QCOMPARE(withBias.value(QStringLiteral("parameters")).toObject().value(QStringLiteral("bias_table")).toString(),
             QFileInfo(biasPath).absoluteFilePath());
    const std::optional<Session> biasBack = parseSession(QJsonDocument(withBias).toJson(), &error);
    QVERIFY2(biasBack, qPrintable(error));
    QVERIFY(biasBack->params.biasTable && biasBack->params.biasTable->value(7, 1) == 4.5);
    QCOMPARE(biasBack->params.head, 2);
    QCOMPARE(sessionToJson(*biasBack).value(QStringLiteral("parameters")),
             withBias.value(QStringLiteral("parameters")));

    // A checkpoint's tensor by FILE:TENSOR, opened again (the right one of two) on reading.
    const std::string st =
        checkpoint::safetensors({{"wpe.weight", "F32", {6, 4}, checkpoint::f32(std::vector<double>(24, 0.25))},
                                 {"other.weight", "F32", {9, 4}, checkpoint::f32(std::vector<double>(36, 0.5))}});
    const QString stPath = dir_.filePath(QStringLiteral("model.safetensors"));
    QFile stFile(stPath);
    QVERIFY(stFile.open(QIODevice::WriteOnly));
    stFile.write(st.data(), static_cast<qint64>(st.size()));
    stFile.close();
    QVERIFY(!p1.set(pe::tableParams(params(9, 4), pe::PositionTable::open(stPath.toStdString() + ":other.weight"))));
    const QJsonObject withTensor = sessionToJson(w1.currentSession());
    QCOMPARE(withTensor.value(QStringLiteral("parameters")).toObject().value(QStringLiteral("table")).toString(),
             QFileInfo(stPath).absoluteFilePath() + QStringLiteral(":other.weight"));
    const std::optional<Session> tensorBack = parseSession(QJsonDocument(withTensor).toJson(), &error);
    QVERIFY2(tensorBack, qPrintable(error));
    QCOMPARE(tensorBack->params.table->rows(), 9);
    QCOMPARE(tensorBack->params.table->value(8, 3), 0.5);

    // A model's config by its path (model), read again on reading: provenance, the parameters as saved.
    const QString configPath = dir_.filePath(QStringLiteral("config.json"));
    QFile::remove(configPath);
    QVERIFY(QFile::copy(QStringLiteral(":/models/llama-3.2-1b.json"), configPath));
    QVERIFY(w1.openModel(configPath, &error));
    pe::EncodingParams edited = p1.values();
    edited.rope.factor = 16;
    QVERIFY(!p1.set(edited));
    const QJsonObject withModel = sessionToJson(w1.currentSession());
    QCOMPARE(withModel.value(QStringLiteral("parameters")).toObject().value(QStringLiteral("model")).toString(),
             QFileInfo(configPath).absoluteFilePath());
    const std::optional<Session> modelBack = parseSession(QJsonDocument(withModel).toJson(), &error);
    QVERIFY2(modelBack && modelBack->params.model, qPrintable(error));
    QCOMPARE(modelBack->params.rope.factor, 16.0);
    QCOMPARE(modelBack->params.model->params.rope.factor, 32.0);
    QCOMPARE(pe::changedFromModel(modelBack->params), std::vector<std::string>{"factor"});
    // Its config gone: refused with the reason, as a table's.
    QVERIFY(QFile::remove(configPath));
    QVERIFY(!parseSession(QJsonDocument(withModel).toJson(), &error));
    QVERIFY2(error.startsWith(QStringLiteral("model: ")) && error.contains(QStringLiteral("does not exist")),
             qPrintable(error));
}

void TestSession::refusals_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("message");
    const QByteArray good = validJson();
    QTest::newRow("truncated") << good.left(good.size() / 2) << "not valid JSON";
    QTest::newRow("empty") << QByteArray() << "not valid JSON";
    QTest::newRow("not json") << QByteArray("seq_len = 50") << "not valid JSON";
    QTest::newRow("array") << QByteArray("[1, 2]") << "not an object";
    QTest::newRow("other format") << QByteArray(good).replace("positional-encoding-explorer-session", "notes")
                                  << "not a session file";
    QTest::newRow("unknown version") << QByteArray(good).replace("\"version\": 1", "\"version\": 7")
                                     << "version 7 is not known";
    QTest::newRow("version text") << QByteArray(good).replace("\"version\": 1", "\"version\": \"1\"")
                                  << "'version' must be a whole number";
    QTest::newRow("missing parameters") << QByteArray(
                                               R"({"format": "positional-encoding-explorer-session", "version": 1})")
                                        << "'parameters' is missing";
    QTest::newRow("missing d_model") << QByteArray(good).replace("\"d_model\": 20, ", "") << "'d_model' is missing";
    QTest::newRow("seq_len text") << QByteArray(good).replace("\"seq_len\": 300", "\"seq_len\": \"300\"")
                                  << "'seq_len' must be a whole number";
    QTest::newRow("seq_len fraction") << QByteArray(good).replace("\"seq_len\": 300", "\"seq_len\": 300.5")
                                      << "'seq_len' must be a whole number";
    QTest::newRow("seq_len huge") << QByteArray(good).replace("\"seq_len\": 300", "\"seq_len\": 1e300")
                                  << "'seq_len' must be a whole number";
    QTest::newRow("bad rng") << QByteArray(good).replace("\"seed\": 42}", "\"seed\": 42, \"rng\": \"mt\"}")
                             << "rng must be counter or numpy (got 'mt')";
    QTest::newRow("rng number") << QByteArray(good).replace("\"seed\": 42}", "\"seed\": 42, \"rng\": 1}") << "'rng'";
    QTest::newRow("numpy past its draws")
        << QByteArray(good)
               .replace("\"seed\": 42}", "\"seed\": 42, \"rng\": \"numpy\"}")
               .replace("\"seq_len\": 300, \"d_model\": 20", "\"seq_len\": 1000000, \"d_model\": 64")
        << "numpy's generator draws its values one after another";
    QTest::newRow("seq_len too many") << QByteArray(good).replace("\"seq_len\": 300", "\"seq_len\": 1000001")
                                      << "seq_len";
    QTest::newRow("d_model huge") << QByteArray(good).replace("\"d_model\": 20", "\"d_model\": 99999999999")
                                  << "d_model must be";
    QTest::newRow("base one") << QByteArray(good).replace("\"base\": 10000", "\"base\": 1") << "base";
    // The parameters a scheme adds: by name and in range, checked together.
    QTest::newRow("scaling unknown")
        << QByteArray(good).replace("\"base\": 10000", "\"base\": 10000, \"scaling\": \"NTK\"")
        << "scaling must be none, linear, ntk, dynamic-ntk, yarn, llama3, longrope or proportional (got "
           "\"NTK\")";
    QTest::newRow("long factor not a list")
        << QByteArray(good).replace("\"base\": 10000", "\"base\": 10000, \"long_factor\": \"1,2\"")
        << "long_factor must be an array of numbers from 1 to 1e6";
    QTest::newRow("short factor zero")
        << QByteArray(good).replace("\"base\": 10000", "\"base\": 10000, \"short_factor\": [1, 0]")
        << "short_factor must hold numbers from 1 to 1e6, comma-separated, one per rotated pair (number 2 is 0).";
    QTest::newRow("longrope list of another d")
        << QByteArray(good).replace("\"base\": 10000",
                                    "\"base\": 10000, \"scheme\": \"rope\", \"scaling\": "
                                    "\"longrope\", \"short_factor\": [1, 2], \"long_factor\": [1, 2]")
        << "short_factor must hold one factor per rotated pair, d/2 = 10 of them (got 2).";
    QTest::newRow("truncate a number") << QByteArray(good).replace("\"base\": 10000",
                                                                   "\"base\": 10000, \"truncate\": 1")
                                       << "truncate must be true or false";
    QTest::newRow("scaling index") << QByteArray(good).replace("\"base\": 10000", "\"base\": 10000, \"scaling\": 2")
                                   << "scaling must be";
    QTest::newRow("factor below 1") << QByteArray(good).replace("\"base\": 10000", "\"base\": 10000, \"factor\": 0.5")
                                    << "factor must be a number from 1 to 1e6 (got 0.5)";
    QTest::newRow("factor text") << QByteArray(good).replace("\"base\": 10000", "\"base\": 10000, \"factor\": \"4\"")
                                 << "factor must be";
    QTest::newRow("betas crossed") << QByteArray(good).replace(
                                          "\"base\": 10000",
                                          "\"base\": 10000, \"scheme\": \"rope\", \"scaling\": \"yarn\", \"factor\": "
                                          "4, \"beta_fast\": 1, \"beta_slow\": 32")
                                   << "beta_fast must be above beta_slow";
    QTest::newRow("head past heads") << QByteArray(good).replace(
                                            "\"base\": 10000",
                                            "\"base\": 10000, \"scheme\": \"alibi\", \"heads\": 4, \"head\": 5")
                                     << "head must be at most the number of heads, 4";
    QTest::newRow("rope odd d") << QByteArray(good)
                                       .replace("\"base\": 10000", "\"base\": 10000, \"scheme\": \"rope\"")
                                       .replace("\"d_model\": 20", "\"d_model\": 21")
                                << "RoPE turns pairs of columns";
    QTest::newRow("base text") << QByteArray(good).replace("\"base\": 10000", "\"base\": \"big\"")
                               << "'base' must be a number";
    QTest::newRow("layout") << QByteArray(good).replace("interleaved", "diagonal")
                            << "layout must be interleaved or split";
    QTest::newRow("position outside") << QByteArray(good).replace("\"position\": 30", "\"position\": 300")
                                      << "position must be a whole number inside the window, from 0 to 299 (got 300).";
    QTest::newRow("fraction with noise") << QByteArray(good).replace("\"position\": 30", "\"position\": 30.5")
                                         << "position must be a whole number here: the noise is drawn once per whole "
                                            "position (got 30.5).";
    QTest::newRow("sigma") << QByteArray(good).replace("\"sigma\": 0.5", "\"sigma\": 11") << "sigma";
    QTest::newRow("seed negative") << QByteArray(good).replace("\"seed\": 42", "\"seed\": -1")
                                   << "the seed must be a whole number from 0 to 2147483647 (got -1).";
    QTest::newRow("noise not object") << QByteArray(good).replace(R"({"sigma": 0.5, "seed": 42})", "0.5")
                                      << "'noise' must be an object";
    QTest::newRow("unknown view") << QByteArray(good).replace("\"view\": \"similarity\"", "\"view\": \"spirals\"")
                                  << "unknown view 'spirals'";
    QTest::newRow("settings of unknown view")
        << QByteArray(good).replace("\"views\": {\"similarity\"", "\"views\": {\"spirals\"")
        << "unknown view 'spirals'";
    QTest::newRow("view settings not object")
        << QByteArray(good).replace(R"({"metric": 1})", "3") << "must be an object";
}

void TestSession::refusals()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, message);
    QString error;
    QVERIFY(!parseSession(json, &error));
    QVERIFY2(error.contains(message), qPrintable(error));
    QVERIFY(!error.contains(QLatin1Char('\n')));
    // Through the window: refused, and nothing changes.
    Parameters p;
    MainWindow w(&p);
    QVERIFY(!p.set(params(64, 32)));
    const QJsonObject before = sessionToJson(w.currentSession());
    const QString path = dir_.filePath(QStringLiteral("bad.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(json);
    f.close();
    QVERIFY(!w.openSession(path, &error));
    QCOMPARE(sessionToJson(w.currentSession()), before);
    QVERIFY(!w.recentSessions().contains(QFileInfo(path).absoluteFilePath()));
}

void TestSession::refusedViewSettingChangesNothing()
{
    // The file parses, but a view refuses one of its settings: the parameters stay as they were.
    Parameters p;
    MainWindow w(&p);
    QVERIFY(!p.set(params(64, 32)));
    const QJsonObject before = sessionToJson(w.currentSession());
    QString error;
    for (const QByteArray &views :
         {QByteArrayLiteral(R"({"similarity": {"metric": 9}})"), QByteArrayLiteral(R"({"clocks": {"clockRows": 1e9}})"),
          QByteArrayLiteral(R"({"heatmap": {"transpose": "yes"}})"),
          QByteArrayLiteral(R"({"heatmap": {"zoom": 2}})")}) {
        const QByteArray json = validJson().replace(R"({"similarity": {"metric": 1}})", views);
        // Refused when read, against what the view declares, naming the view and the setting...
        QVERIFY(!parseSession(json, &error));
        QVERIFY2(error.startsWith(QStringLiteral("view '")) || error.startsWith(QStringLiteral("settings for")),
                 qPrintable(error));
        // ...and by the workspace when a session made in code carries it.
        Session s = *parseSession(validJson(), &error);
        const QJsonObject bad = QJsonDocument::fromJson(views).object();
        s.views.insert(bad.begin().key(), bad.begin().value().toObject());
        QVERIFY(!w.applySession(s, &error));
        QVERIFY2(error.startsWith(QStringLiteral("view '")), qPrintable(error));
        QCOMPARE(sessionToJson(w.currentSession()), before);
    }
}

// Choices are saved by name, so reordering a list never changes what a file means; files written
// before (choices by their index in the list) open as they did.
void TestSession::choicesSavedByNameOlderFilesByIndex()
{
    Parameters p;
    MainWindow w(&p);
    const QByteArray older = validJson().replace(
        R"({"similarity": {"metric": 1}})",
        R"({"similarity": {"metric": 1}, "heatmap": {"colorMap": 4, "reverseColors": true}, "clocks": {"clockFace": 1},
            "frequencies": {"quantity": 1}, "projection": {"projectionMethod": 1, "init": 1, "perplexity": 4}})");
    QString error;
    const std::optional<Session> s = parseSession(older, &error);
    QVERIFY2(s && w.applySession(*s, &error), qPrintable(error));
    const Session now = w.currentSession();
    QCOMPARE(now.views.value(QStringLiteral("similarity")).value(QStringLiteral("metric")),
             QJsonValue(QStringLiteral("cosine")));
    QCOMPARE(now.views.value(QStringLiteral("heatmap")).value(QStringLiteral("colorMap")),
             QJsonValue(QStringLiteral("pastel blue")));
    QCOMPARE(now.views.value(QStringLiteral("clocks")).value(QStringLiteral("clockFace")),
             QJsonValue(QStringLiteral("counterclockwise")));
    QCOMPARE(now.views.value(QStringLiteral("frequencies")).value(QStringLiteral("quantity")),
             QJsonValue(QStringLiteral("wavelength")));
    QCOMPARE(now.views.value(QStringLiteral("projection")).value(QStringLiteral("projectionMethod")),
             QJsonValue(QStringLiteral("pca")));
    QCOMPARE(now.views.value(QStringLiteral("projection")).value(QStringLiteral("init")),
             QJsonValue(QStringLiteral("random")));
    // What the views draw is what the names say.
    auto *metric = w.view(QStringLiteral("similarity"))->findChild<QComboBox *>(QStringLiteral("metric"));
    QCOMPARE(metric->currentData().toString(), QStringLiteral("cosine"));
    // Written by name, and read back the same.
    const QString path = dir_.filePath(QStringLiteral("named.json"));
    QVERIFY2(w.saveSession(path, &error), qPrintable(error));
    const QByteArray written = testsupport::readFile(path);
    QVERIFY(written.contains(R"("colorMap": "pastel blue")"));
    QVERIFY(!written.contains(R"("metric": 1)"));
    Parameters p2;
    MainWindow w2(&p2);
    QVERIFY2(w2.openSession(path, &error), qPrintable(error));
    QCOMPARE(sessionToJson(w2.currentSession()), sessionToJson(now));
    // An unknown name is refused with the names allowed.
    const std::optional<Session> bad = parseSession(
        validJson().replace(R"({"similarity": {"metric": 1}})", R"({"similarity": {"metric": "manhattan"}})"), &error);
    QVERIFY(!bad);
    QVERIFY2(error.contains(QStringLiteral("dot, cosine or euclidean")), qPrintable(error));
}

void TestSession::olderFilesDrawTheirFigures_data()
{
    // Presets as session files held them before choices were saved by name (resources/presets.json
    // of that time, choices by index), each drawn as the command line draws it: through a Workspace,
    // no window.
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QByteArray>("views");
    QTest::newRow("seed002-table")
        << "seed002-table"
        << QByteArray(R"({"heatmap": {"colorMap": 4, "reverseColors": false, "transpose": false, "cellValues": true,
                          "cellDecimals": 2}})");
    QTest::newRow("seed002-clocks") << "seed002-clocks"
                                    << QByteArray(R"({"clocks": {"clockFace": 1, "clockPairs": 5, "clockRows": 5}})");
    QTest::newRow("seed004-heatmap")
        << "seed004-heatmap"
        << QByteArray(R"({"heatmap": {"colorMap": 2, "reverseColors": false, "transpose": false}})");
    QTest::newRow("seed001-similarity") << "seed001-similarity" << QByteArray(R"({"similarity": {"metric": 0}})");
}

void TestSession::olderFilesDrawTheirFigures()
{
    QFETCH(QString, preset);
    QFETCH(QByteArray, views);
    const Session *now = findPreset(preset);
    QVERIFY(now);
    Session older = *now;
    older.views.clear();
    const QJsonObject v = QJsonDocument::fromJson(views).object();
    for (auto it = v.begin(); it != v.end(); ++it)
        older.views.insert(it.key(), it.value().toObject());
    QString error;
    const std::optional<Session> read = parseSession(QJsonDocument(sessionToJson(older)).toJson(), &error);
    QVERIFY2(read, qPrintable(error));
    const auto draw = [&](const Session &s) {
        Parameters p;
        Workspace workspace(&p);
        QString why;
        if (!workspace.applySession(s, &why))
            qWarning("%s", qPrintable(why));
        return WorkspaceViews(&workspace).offscreenView(s.view)->render(QSize(800, 500), 1.0);
    };
    const QImage a = draw(*read), b = draw(*now);
    QVERIFY(!a.isNull());
    QCOMPARE(a, b);
}

void TestSession::hugeFileIsRefusedUnread()
{
    const QString path = dir_.filePath(QStringLiteral("huge.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QVERIFY(f.resize(100 * 1024 * 1024)); // 100 MB, sparse
    f.close();
    QString error;
    QVERIFY(!readSessionFile(path, &error));
    QVERIFY2(error.contains(QStringLiteral("at most 1 MB")), qPrintable(error));
    QVERIFY(!readSessionFile(dir_.filePath(QStringLiteral("missing.json")), &error));
    QVERIFY(error.contains(QStringLiteral("does not exist")));
    QVERIFY(!readSessionFile(dir_.path(), &error));
    QVERIFY(error.contains(QStringLiteral("is a folder")));
}

void TestSession::everyPresetReproducesItsParameters()
{
    QVERIFY(presets().size() >= 17);
    Parameters p;
    MainWindow w(&p);
    for (const Session &preset : presets()) {
        QString error;
        QVERIFY2(w.applySession(preset, &error), qPrintable(preset.name + QStringLiteral(": ") + error));
        QVERIFY2(p.values() == preset.params, qPrintable(preset.name));
        QCOMPARE(p.position(), preset.position);
        QVERIFY(p.noise() == preset.noise);
        QCOMPARE(w.currentView(), w.view(preset.view));
        for (auto it = preset.views.begin(); it != preset.views.end(); ++it) {
            const QJsonObject now = w.view(it.key())->settings();
            for (auto s = it.value().begin(); s != it.value().end(); ++s)
                QVERIFY2(now.value(s.key()) == s.value(), qPrintable(preset.name + QStringLiteral(": ") + s.key()));
        }
    }
    // The real models' presets read their configs (resources/models): provenance kept, only what
    // they change differs from the config.
    const Session *llama = findPreset(QStringLiteral("llama3.1-rope"));
    QVERIFY(llama && llama->params.model);
    QCOMPARE(llama->params.model->path, std::string(":/models/llama-3.1-8b.json"));
    QCOMPARE(llama->params.base, 5e5);
    QCOMPARE(llama->params.rope.scaling, pe::RopeScaling::Llama3);
    QCOMPARE(llama->params.seqLen, 8192); // the preset's window
    QVERIFY(pe::changedFromModel(llama->params).empty());
    const Session *gemma = findPreset(QStringLiteral("gemma3-4b-two-bases"));
    QVERIFY(gemma && gemma->params.model);
    QCOMPARE(pe::changedFromModel(gemma->params), std::vector<std::string>{"original_context"}); // the report's 32,768
    int fromConfigs = 0;
    for (const Session &preset : presets())
        fromConfigs += preset.params.model != nullptr;
    QCOMPARE(fromConfigs, 12); // 11 configs, Gemma 3's twice
    // The seeds' figures by name.
    const Session *tsne = findPreset(QStringLiteral("seed004-tsne"));
    QVERIFY(tsne && tsne->params.seqLen == 128 && tsne->params.dModel == 8);
    QCOMPARE(tsne->views.value(QStringLiteral("projection")).value(QStringLiteral("perplexity")).toDouble(), 4.0);
    const Session *table = findPreset(QStringLiteral("seed002-table"));
    QVERIFY(table && table->params.base == 100 && table->params.exponent == pe::Exponent::Index &&
            table->params.seqLen == 15);
    QCOMPARE(table->views.value(QStringLiteral("heatmap")).value(QStringLiteral("cellDecimals")).toInt(),
             2); // seed 002 prints 2
}

void TestSession::viewSettingsAreUndone()
{
    // Issue 29: a view's settings are steps of the same history as the parameters'; a rebuild that
    // writes its own controls is none; a preset is one step, parameters and settings together.
    Parameters p;
    MainWindow w(&p);
    w.show();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QUndoStack *stack = w.undoStack();
    PlotView *heatmap = w.view(QStringLiteral("heatmap"));
    auto *map = heatmap->findChild<QComboBox *>(QStringLiteral("colorMap"));
    auto *reverse = heatmap->findChild<QCheckBox *>(QStringLiteral("reverseColors"));
    QVERIFY(map && reverse);
    const int start = stack->count();
    const QString first = map->currentText();
    map->setCurrentIndex((map->currentIndex() + 1) % map->count());
    reverse->setChecked(!reverse->isChecked());
    QCOMPARE(stack->count(), start + 2);
    stack->undo();
    QVERIFY(!reverse->isChecked()); // its default
    QVERIFY(map->currentText() != first);
    stack->undo();
    QCOMPARE(map->currentText(), first);
    stack->redo();
    QVERIFY(map->currentText() != first);
    // A parameter step, and the rebuild it causes, add one step, not two.
    const int beforeParameter = stack->index();
    QVERIFY(!p.set(params(64, 32)));
    QCOMPARE(stack->index(), beforeParameter + 1);
    // Typing "35" into a number field is one step while the field keeps the keyboard.
    auto *decimals = heatmap->findChild<QSpinBox *>(QStringLiteral("cellDecimals"));
    QVERIFY(decimals);
    decimals->setFocus();
    QTRY_VERIFY(decimals->hasFocus());
    const int beforeTyping = stack->index();
    decimals->setValue(3);
    decimals->setValue(5);
    QCOMPARE(stack->index(), beforeTyping + 1);
    stack->undo();
    QCOMPARE(decimals->value(), 0);
    // A preset: one step; undone, the parameters and the heatmap's settings come back together.
    const pe::EncodingParams beforePreset = p.values();
    const QJsonObject heatmapBefore = heatmap->settings();
    const int beforePresetCount = stack->index();
    QString error;
    QVERIFY2(w.applySession(*findPreset(QStringLiteral("seed002-table")), &error), qPrintable(error));
    QCOMPARE(stack->index(), beforePresetCount + 1);
    QVERIFY(heatmap->settings() != heatmapBefore);
    stack->undo();
    QVERIFY(p.values() == beforePreset);
    QCOMPARE(heatmap->settings(), heatmapBefore);
    stack->redo();
    QCOMPARE(p.values().seqLen, 15);
    QCOMPARE(heatmap->settings().value(QStringLiteral("cellDecimals")).toInt(), 2);
}

void TestSession::undoAndRedo()
{
    Parameters p;
    MainWindow w(&p);
    QUndoStack *stack = w.undoStack();
    QVERIFY(!stack->canUndo());
    QVERIFY(!p.set(params(100, 64)));
    QVERIFY(!p.set(params(200, 64)));
    QVERIFY(!p.setNoise({0.5, 3}));
    QCOMPARE(stack->count(), 3);
    stack->undo();
    QVERIFY(!p.noise().active());
    stack->undo();
    QCOMPARE(p.values().seqLen, 100);
    stack->redo();
    QCOMPARE(p.values().seqLen, 200);
    stack->redo();
    QVERIFY(p.noise().active());
    // Undo across numpy's limit: a long window with the counter's noise, then a short one with
    // numpy's. Each step restores both at once (the long window alone is refused under numpy).
    QVERIFY(!p.set(params(1'000'000, 64)));
    QVERIFY(!p.setState(params(200, 64), {0.5, 3, pe::NoiseRng::Numpy}));
    const auto refused = p.set(params(1'000'000, 64));
    QVERIFY(refused && refused->field == pe::Field::SeqLen);
    QCOMPARE(p.values().seqLen, 200);
    stack->undo();
    QCOMPARE(p.values().seqLen, 1'000'000);
    QVERIFY(p.noise().rng == pe::NoiseRng::Counter && p.noise().active());
    stack->redo();
    QCOMPARE(p.values().seqLen, 200);
    QVERIFY(p.noise().rng == pe::NoiseRng::Numpy);
    // A slider held is one step, from press to release, however many values it passes; without
    // a gesture every change is a step of its own (no clock decides).
    const int before = stack->count();
    QSlider *slider = w.controlPanel()->slider(pe::Field::SeqLen);
    emit slider->sliderPressed();
    for (int n = 201; n <= 260; ++n)
        QVERIFY(!p.set(params(n, 64)));
    emit slider->sliderReleased();
    QCOMPARE(stack->count(), before + 1);
    QVERIFY(!p.set(params(261, 64)));
    QVERIFY(!p.set(params(262, 64)));
    QCOMPARE(stack->count(), before + 3);
    stack->undo();
    stack->undo();
    QCOMPARE(p.values().seqLen, 260);
    stack->undo();
    QCOMPARE(p.values().seqLen, 200);
    // The keys: Ctrl+Z and Ctrl+Shift+Z through the Edit menu's actions.
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(p.values().seqLen, 260);
    QTest::keyClick(&w, Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(p.values().seqLen, 200);
    // A gesture that comes back to where it began leaves no step.
    emit slider->sliderPressed();
    QVERIFY(!p.set(params(230, 64)));
    QVERIFY(!p.set(params(200, 64)));
    emit slider->sliderReleased();
    QCOMPARE(stack->count(), before);
    QVERIFY(!stack->canRedo());
    QCOMPARE(p.values().seqLen, 200);
}

void TestSession::recentFilesAndRestore()
{
    QSettings().clear();
    QString error;
    {
        Parameters p;
        MainWindow w(&p);
        QVERIFY(!p.set(params(333, 16, 500)));
        w.showView(QStringLiteral("clocks"));
        for (int i = 0; i < 10; ++i)
            QVERIFY(w.saveSession(dir_.filePath(QStringLiteral("r%1.json").arg(i)), &error));
        QCOMPARE(w.recentSessions().size(), 8);
        QVERIFY(w.recentSessions().first().endsWith(QStringLiteral("r9.json")));
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.close(); // saves the last session and the geometry
    }
    Parameters p;
    MainWindow w(&p);
    w.restoreLastState();
    QCOMPARE(p.values().seqLen, 333);
    QCOMPARE(p.values().base, 500.0);
    QCOMPARE(w.currentView(), w.view(QStringLiteral("clocks")));
    QVERIFY(!w.undoStack()->canUndo()); // restoring is not an undoable change
}

void TestSession::droppedFileOpens()
{
    Parameters p1;
    MainWindow w1(&p1);
    QVERIFY(!p1.set(params(444, 12, 2e3)));
    QString error;
    const QString path = dir_.filePath(QStringLiteral("dropped.json"));
    QVERIFY(w1.saveSession(path, &error));
    Parameters p;
    MainWindow w(&p);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.acceptDrops());
    // A file dragged in and dropped, as the window sees it: false when the drag was not accepted.
    const auto dropFile = [&w](const QString &file) {
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(file)});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&w, &enter);
        if (!enter.isAccepted())
            return false;
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&w, &drop);
        return true;
    };
    QVERIFY(dropFile(path));
    QCOMPARE(p.values().seqLen, 444);
    QCOMPARE(p.values().base, 2e3);

    // A config.json dropped (a JSON that is not a session) opens the model; a folder holding one too.
    const QString folder = dir_.filePath(QStringLiteral("Mistral-7B"));
    QVERIFY(QDir().mkpath(folder));
    QFile::remove(folder + QStringLiteral("/config.json"));
    QVERIFY(QFile::copy(QStringLiteral(":/models/mistral-7b-v0.1.json"), folder + QStringLiteral("/config.json")));
    for (const QString &dropped : {folder + QStringLiteral("/config.json"), folder}) {
        QVERIFY(!p.set(params(444, 12, 2e3)));
        QVERIFY(dropFile(dropped));
        QVERIFY2(p.values().model, qPrintable(dropped));
        QCOMPARE(p.values().scheme, pe::SchemeId::Rope);
        QCOMPARE(p.values().seqLen, 32768);
        QCOMPARE(p.values().dModel, 128);
    }
    // The panel names it and, once a control changes a value, says so.
    auto *label = w.findChild<QLabel *>(QStringLiteral("model"));
    QVERIFY(label && label->isVisible());
    QVERIFY2(label->text().contains(QStringLiteral("mistralai/Mistral-7B-v0.1")) &&
                 label->text().contains(QStringLiteral("rope_theta")) &&
                 !label->text().contains(QStringLiteral("Changed")),
             qPrintable(label->text()));
    pe::EncodingParams changed = p.values();
    changed.base = 5e5;
    QVERIFY(!p.set(changed));
    QVERIFY2(label->text().contains(QStringLiteral("Changed since: base")), qPrintable(label->text()));
    // A bad config changes nothing.
    const QString bad = dir_.filePath(QStringLiteral("bad-config.json"));
    QFile badFile(bad);
    QVERIFY(badFile.open(QIODevice::WriteOnly));
    badFile.write(R"({"model_type": "llama", "rope_scaling": {"rope_type": "unheard-of"}, "head_dim": 64})");
    badFile.close();
    QString why;
    QVERIFY(!w.openModel(bad, &why));
    QVERIFY2(why.contains(QStringLiteral("\"unheard-of\"")), qPrintable(why));
    QCOMPARE(p.values(), changed);
}

QTEST_MAIN(TestSession)
#include "tst_session.moc"

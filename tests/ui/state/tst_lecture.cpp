// Lecture files (state/lecture.h): the built-in lectures, a round trip, strict reading (each refusal
// names the step and the key), a preset changed by a step's state, actions and what they move.
#include "encodings/rope.h"
#include "encodings/scheme_parameters.h"
#include "state/lecture.h"
#include "state/view_registry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

namespace {

QJsonObject minimalLecture(const QJsonArray &steps)
{
    return {{QStringLiteral("format"), QStringLiteral("positional-encoding-explorer-lecture")},
            {QStringLiteral("version"), 1},
            {QStringLiteral("title"), QStringLiteral("Test")},
            {QStringLiteral("steps"), steps}};
}

QJsonObject presetStep(const QString &preset, const QJsonObject &extra = {})
{
    QJsonObject o{{QStringLiteral("title"), QStringLiteral("A step")}, {QStringLiteral("preset"), preset}};
    for (auto it = extra.begin(); it != extra.end(); ++it)
        o.insert(it.key(), it.value());
    return o;
}

QString refusal(const QJsonObject &json)
{
    QString error;
    const auto lecture = lectureFromJson(json, &error);
    return lecture ? QString() : error;
}

} // namespace

class TestLecture : public QObject
{
    Q_OBJECT

  private slots:
    // The three lectures, each step's caption naming the article or paper it follows.
    void theBuiltInLectures()
    {
        const Lecture *clocks = findBuiltInLecture(QStringLiteral("clock-intuition"));
        const Lecture *rope = findBuiltInLecture(QStringLiteral("rope-long-context"));
        const Lecture *alibi = findBuiltInLecture(QStringLiteral("alibi"));
        QVERIFY(clocks && rope && alibi);
        QVERIFY(clocks->steps.size() >= 10);
        QVERIFY(rope->steps.size() >= 8);
        QVERIFY(alibi->steps.size() >= 3);
        QCOMPARE(builtInLectures().front().name, QStringLiteral("clock-intuition"));
        for (const Lecture &lecture : builtInLectures())
            for (const LectureStep &step : lecture.steps) {
                QVERIFY2(step.caption.contains(QStringLiteral("<i>")), qPrintable(step.title));
                QVERIFY2(!step.notes.isEmpty(), qPrintable(step.title));
            }
        // The clock intuition follows all five articles.
        QString captions;
        for (const LectureStep &step : clocks->steps)
            captions += step.caption;
        for (const char *article : {"Article 0", "Article 1", "Article 2", "Article 3", "Article 4"})
            QVERIFY2(captions.contains(QLatin1String(article)), article);
        // The examples of a moving parameter: the base from 1e2 up, and a factor 1 -> 8.
        bool base = false, factor = false;
        for (const Lecture &lecture : builtInLectures())
            for (const LectureStep &step : lecture.steps) {
                base = base || (step.action.parameter == QLatin1String("base") && step.action.to > step.action.from);
                factor = factor || (step.action.parameter == QLatin1String("factor") && step.action.to == 8);
            }
        QVERIFY(base && factor);
    }

    // Written and read again, a lecture is the same; written, it names no preset (whole states).
    void roundTrip()
    {
        for (const Lecture &lecture : builtInLectures()) {
            const QJsonObject json = lectureToJson(lecture);
            QString error;
            const auto again = lectureFromJson(json, &error);
            QVERIFY2(again, qPrintable(error));
            QCOMPARE(lectureToJson(*again), json);
            QVERIFY(!QJsonDocument(json).toJson().contains("\"preset\""));
        }
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("x.pelecture"));
        QString error;
        const Lecture &lecture = builtInLectures().front();
        QVERIFY2(writeLectureFile(path, lecture, &error), qPrintable(error));
        const auto read = readLectureFile(path, &error);
        QVERIFY2(read, qPrintable(error));
        QCOMPARE(lectureToJson(*read), lectureToJson(lecture));
    }

    // A preset's whole state, changed by the step's state: each parameter and view setting it names.
    void presetChangedByState()
    {
        const QJsonObject changes{
            {QStringLiteral("parameters"), QJsonObject{{QStringLiteral("base"), 100}}},
            {QStringLiteral("views"),
             QJsonObject{{QStringLiteral("heatmap"), QJsonObject{{QStringLiteral("transpose"), true}}}}}};
        QString error;
        const auto lecture = lectureFromJson(
            minimalLecture({presetStep(QStringLiteral("seed000-heatmap"), {{QStringLiteral("state"), changes}})}),
            &error);
        QVERIFY2(lecture, qPrintable(error));
        const Session &s = lecture->steps.front().state;
        const Session &preset = *findPreset(QStringLiteral("seed000-heatmap"));
        QCOMPARE(s.params.base, 100.0);
        QCOMPARE(s.params.seqLen, preset.params.seqLen);
        QCOMPARE(s.params.dModel, preset.params.dModel);
        const QJsonObject heatmap = s.views.value(QStringLiteral("heatmap"));
        QCOMPARE(heatmap.value(QStringLiteral("transpose")).toBool(), true);
        QCOMPARE(heatmap.value(QStringLiteral("colorMap")),
                 preset.views.value(QStringLiteral("heatmap")).value(QStringLiteral("colorMap"))); // kept
    }

    void refusesNamingTheStepAndTheKey_data()
    {
        QTest::addColumn<QJsonObject>("json");
        QTest::addColumn<QString>("expected");
        const QJsonObject good = presetStep(QStringLiteral("seed000-heatmap"));
        auto with = [&good](const QString &key, const QJsonValue &value) {
            QJsonObject o = good;
            o.insert(key, value);
            return o;
        };
        QJsonObject lecture = minimalLecture({good});
        lecture.insert(QStringLiteral("speaker"), 1);
        QTest::newRow("unknown lecture key") << lecture << QStringLiteral("unknown key 'speaker' in a lecture");
        QTest::newRow("unknown step key")
            << minimalLecture({good, with(QStringLiteral("captoin"), QStringLiteral("x"))})
            << QStringLiteral("step 2 (A step): unknown key 'captoin' in a step");
        QTest::newRow("unknown state key")
            << minimalLecture({with(QStringLiteral("state"), QJsonObject{{QStringLiteral("positon"), 3}})})
            << QStringLiteral("step 1 (A step): unknown key 'positon' in its state");
        QTest::newRow("unknown parameter")
            << minimalLecture({with(QStringLiteral("state"), QJsonObject{{QStringLiteral("parameters"),
                                                                          QJsonObject{{QStringLiteral("bse"), 3}}}})})
            << QStringLiteral("unknown key 'bse' in its parameters");
        QTest::newRow("unknown preset") << minimalLecture({presetStep(QStringLiteral("nope"))})
                                        << QStringLiteral("step 1 (A step): no preset 'nope'");
        QTest::newRow("no state") << minimalLecture({QJsonObject{{QStringLiteral("title"), QStringLiteral("T")}}})
                                  << QStringLiteral("step 1 (T): a step needs a 'state', a 'preset', or both.");
        QTest::newRow("no title") << minimalLecture(
                                         {QJsonObject{{QStringLiteral("preset"), QStringLiteral("seed000-heatmap")}}})
                                  << QStringLiteral("step 1: the field 'title' is missing.");
        QTest::newRow("empty title") << minimalLecture({with(QStringLiteral("title"), QStringLiteral(" "))})
                                     << QStringLiteral("'title' must be 1 to");
        QTest::newRow("bad value in the state")
            << minimalLecture({with(QStringLiteral("state"), QJsonObject{{QStringLiteral("parameters"),
                                                                          QJsonObject{{QStringLiteral("base"), -1}}}})})
            << QStringLiteral("step 1 (A step): ");
        QTest::newRow("position outside")
            << minimalLecture({with(QStringLiteral("state"), QJsonObject{{QStringLiteral("position"), 5000}})})
            << QStringLiteral("step 1 (A step): ");
        QTest::newRow("unknown beside") << minimalLecture({with(QStringLiteral("beside"), QStringLiteral("clock"))})
                                        << QStringLiteral("beside: unknown view 'clock'");
        QTest::newRow("beside itself") << minimalLecture({with(QStringLiteral("beside"), QStringLiteral("heatmap"))})
                                       << QStringLiteral("beside: 'heatmap' is the step's own view");
        QTest::newRow("bad theme") << minimalLecture({with(QStringLiteral("theme"), QStringLiteral("sepia"))})
                                   << QStringLiteral("theme must be system, light, dark, projector (got 'sepia')");
        QTest::newRow("long caption") << minimalLecture(
                                             {with(QStringLiteral("caption"), QString(601, QLatin1Char('x')))})
                                      << QStringLiteral("'caption' has 601 characters; at most 600.");
        QTest::newRow("caption not text")
            << minimalLecture({with(QStringLiteral("caption"), 3)}) << QStringLiteral("'caption' must be a string.");
        QTest::newRow("no steps") << minimalLecture({})
                                  << QStringLiteral("'steps' must be an array of 1 to 500 steps.");
        QTest::newRow("step not an object")
            << minimalLecture({3}) << QStringLiteral("step 1: a step must be an object.");
        QJsonObject format = minimalLecture({good});
        format.insert(QStringLiteral("format"), QStringLiteral("positional-encoding-explorer-session"));
        QTest::newRow("a session") << format << QStringLiteral("this is not a lecture file");
        QJsonObject version = minimalLecture({good});
        version.insert(QStringLiteral("version"), 2);
        QTest::newRow("version") << version << QStringLiteral("lecture version 2 is not known");
        auto action = [&](const QJsonObject &a) { return minimalLecture({with(QStringLiteral("action"), a)}); };
        QTest::newRow("action kind") << action({{QStringLiteral("kind"), QStringLiteral("zoom")}})
                                     << QStringLiteral("step 1 (A step): action: 'kind' must be play or animate");
        QTest::newRow("play outside") << action({{QStringLiteral("kind"), QStringLiteral("play")},
                                                 {QStringLiteral("from"), 0},
                                                 {QStringLiteral("to"), 50},
                                                 {QStringLiteral("speed"), 4}})
                                      << QStringLiteral("step 1 (A step): action: ");
        QTest::newRow("play speed") << action({{QStringLiteral("kind"), QStringLiteral("play")},
                                               {QStringLiteral("from"), 0},
                                               {QStringLiteral("to"), 49},
                                               {QStringLiteral("speed"), 0}})
                                    << QStringLiteral("'speed' must be 0.25 to 1000 positions a second (got 0).");
        QTest::newRow("play extra key") << action({{QStringLiteral("kind"), QStringLiteral("play")},
                                                   {QStringLiteral("from"), 0},
                                                   {QStringLiteral("to"), 49},
                                                   {QStringLiteral("speed"), 4},
                                                   {QStringLiteral("loop"), true}})
                                        << QStringLiteral("unknown key 'loop' in a play action");
        QTest::newRow("animate unknown") << action({{QStringLiteral("kind"), QStringLiteral("animate")},
                                                    {QStringLiteral("parameter"), QStringLiteral("seq_len")},
                                                    {QStringLiteral("from"), 1},
                                                    {QStringLiteral("to"), 8},
                                                    {QStringLiteral("seconds"), 2}})
                                         << QStringLiteral("'parameter' must be one of base, sigma");
        QTest::newRow("animate beyond the limit") << action({{QStringLiteral("kind"), QStringLiteral("animate")},
                                                             {QStringLiteral("parameter"), QStringLiteral("base")},
                                                             {QStringLiteral("from"), 100},
                                                             {QStringLiteral("to"), 1e300},
                                                             {QStringLiteral("seconds"), 2}})
                                                  << QStringLiteral("action: base 1e+300: ");
        QTest::newRow("animate what the scheme lacks")
            << action({{QStringLiteral("kind"), QStringLiteral("animate")},
                       {QStringLiteral("parameter"), QStringLiteral("factor")},
                       {QStringLiteral("from"), 1},
                       {QStringLiteral("to"), 8},
                       {QStringLiteral("seconds"), 2}})
            << QStringLiteral("the scheme sinusoidal has no factor to move.");
        QTest::newRow("animate time") << action({{QStringLiteral("kind"), QStringLiteral("animate")},
                                                 {QStringLiteral("parameter"), QStringLiteral("base")},
                                                 {QStringLiteral("from"), 100},
                                                 {QStringLiteral("to"), 1000},
                                                 {QStringLiteral("seconds"), 600}})
                                      << QStringLiteral("'seconds' must be 0.1 to 60 (got 600).");
    }

    void refusesNamingTheStepAndTheKey()
    {
        QFETCH(QJsonObject, json);
        QFETCH(QString, expected);
        const QString why = refusal(json);
        QVERIFY2(why.contains(expected), qPrintable(why));
        QVERIFY(!why.contains(QLatin1Char('\n')));
    }

    void refusesFiles()
    {
        QTemporaryDir dir;
        QString error;
        QVERIFY(!readLectureFile(dir.filePath(QStringLiteral("missing.pelecture")), &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(!readLectureFile(dir.path(), &error));                  // a folder
        QVERIFY(!readLectureFile(QStringLiteral("/dev/zero"), &error)); // a device
        QVERIFY2(error.contains(QStringLiteral("not a regular file")) || error.contains(QStringLiteral("device")),
                 qPrintable(error));
        QVERIFY(!parseLecture("{\"format\":", &error));
        QVERIFY(error.startsWith(QStringLiteral("not valid JSON")));
        QVERIFY(!parseLecture(QByteArray(kMaxLectureBytes + 1, ' '), &error));
        QVERIFY(error.contains(QStringLiteral("at most 4 MB")));
        // By name or by path.
        QVERIFY(openLecture(QStringLiteral("alibi"), &error));
        QVERIFY(!openLecture(QStringLiteral("alibii"), &error));
        QVERIFY2(error.contains(QStringLiteral("clock-intuition, rope-long-context, alibi")), qPrintable(error));
        // A failed write leaves nothing behind.
        QVERIFY(!writeLectureFile(dir.filePath(QStringLiteral("no/such/folder/x.pelecture")), builtInLectures().front(),
                                  &error));
        QVERIFY(!error.isEmpty());
    }

    // Geometric between positive ends (a base's decades pass evenly), linear otherwise; the end exact.
    void animatedValues()
    {
        QCOMPARE(animatedBetween(100, 1e8, 0.5), 1e5);
        QCOMPARE(animatedBetween(0, 0.5, 0.5), 0.25);
        QCOMPARE(animatedBetween(1e4, 1e6, 1.0), 1e6);
        QCOMPARE(animatedBetween(8, 1, 0), 8.0);
        pe::EncodingParams p;
        pe::NoiseParams n;
        QVERIFY(animatableParameters().contains(QStringLiteral("factor")));
        QVERIFY(!animatedValue(QStringLiteral("factor"), p, n)); // sinusoidal has none
        QVERIFY(setAnimated(QStringLiteral("base"), 500, p, n));
        QCOMPARE(p.base, 500.0);
        QVERIFY(setAnimated(QStringLiteral("sigma"), 0.25, p, n));
        QCOMPARE(n.sigma, 0.25);
        p.scheme = pe::SchemeId::Rope;
        p.rope.scaling = pe::RopeScaling::Linear;
        QVERIFY(setAnimated(QStringLiteral("factor"), 4, p, n));
        QCOMPARE(*animatedValue(QStringLiteral("factor"), p, n), 4.0);
    }

    // A handout shows a step as its action leaves it.
    void stateAfterTheAction()
    {
        const Lecture &clocks = *findBuiltInLecture(QStringLiteral("clock-intuition"));
        for (const LectureStep &step : clocks.steps) {
            const Session after = stateAfterAction(step);
            if (step.action.kind == LectureAction::Kind::Play)
                QCOMPARE(static_cast<double>(after.position), step.action.to);
            else if (step.action.kind == LectureAction::Kind::Animate)
                QCOMPARE(*animatedValue(step.action.parameter, after.params, after.noise), step.action.to);
            else
                QCOMPARE(sessionToJson(after), sessionToJson(step.state));
        }
    }
};

QTEST_GUILESS_MAIN(TestLecture)
#include "tst_lecture.moc"

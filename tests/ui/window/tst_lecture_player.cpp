// Giving a lecture in the window (window/lecture_player.h): a clicker's keys from the first step to
// the last and back, a number and Enter, the caption, the actions and the moves between steps, one
// undo step for a moved parameter, lecture mode left and resumed, every step of every built-in
// lecture drawn in lecture mode.
#include "figures/plot_view.h"
#include "state/lecture.h"
#include "state/parameters.h"
#include "state/view_registry.h"
#include "state/workspace.h"
#include "window/lecture_player.h"
#include "window/main_window.h"

#include <QApplication>
#include <QJsonArray>
#include <QLabel>
#include <QSignalSpy>
#include <QTest>
#include <QUndoStack>

namespace {

void press(MainWindow &w, int key, Qt::KeyboardModifiers modifiers = Qt::NoModifier)
{
    QWidget *target = QApplication::focusWidget() ? QApplication::focusWidget() : w.currentView();
    QTest::keyClick(target, static_cast<Qt::Key>(key), modifiers);
}

QString captionText(const MainWindow &w)
{
    return w.findChild<QLabel *>(QStringLiteral("lectureCaption"))->text();
}

QString counterText(const MainWindow &w)
{
    return w.findChild<QLabel *>(QStringLiteral("lectureCounter"))->text();
}

// The state shown is the step's, as its action leaves it.
void verifyStep(MainWindow &w, const LectureStep &step)
{
    w.lecturePlayer()->finishMotion();
    const Session after = stateAfterAction(step);
    const Parameters *p = w.workspace()->parameters();
    QCOMPARE(w.currentView()->info().id, after.view);
    QVERIFY(p->values() == after.params);
    QVERIFY(p->noise() == after.noise);
    QCOMPARE(p->position(), after.position);
    QCOMPARE(w.secondView() ? w.secondView()->info().id : QString(), step.beside);
}

Lecture twoHeatmaps(const QJsonObject &secondAction = {})
{
    auto step = [](const QString &title, double base) {
        return QJsonObject{{QStringLiteral("title"), title},
                           {QStringLiteral("preset"), QStringLiteral("seed000-heatmap")},
                           {QStringLiteral("caption"), QStringLiteral("base $10^4$")},
                           {QStringLiteral("state"),
                            QJsonObject{{QStringLiteral("parameters"), QJsonObject{{QStringLiteral("base"), base}}},
                                        {QStringLiteral("position"), title == QLatin1String("one") ? 0 : 40}}}};
    };
    QJsonObject second = step(QStringLiteral("two"), 1e6);
    if (!secondAction.isEmpty())
        second.insert(QStringLiteral("action"), secondAction);
    QString error;
    auto lecture = lectureFromJson({{QStringLiteral("format"), QStringLiteral("positional-encoding-explorer-lecture")},
                                    {QStringLiteral("version"), 1},
                                    {QStringLiteral("title"), QStringLiteral("Two")},
                                    {QStringLiteral("steps"), QJsonArray{step(QStringLiteral("one"), 1e4), second}}},
                                   &error);
    if (!lecture)
        qFatal("%s", qPrintable(error));
    return *lecture;
}

} // namespace

class TestLecturePlayer : public QObject
{
    Q_OBJECT

  private slots:
    // The clicker's keys from the first step to the last, and back; the caption and the number.
    void clickerFromFirstToLastAndBack()
    {
        Parameters p;
        MainWindow w(&p);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const Lecture &lecture = *findBuiltInLecture(QStringLiteral("clock-intuition"));
        QString error;
        QVERIFY2(w.openLecture(lecture, 0, &error), qPrintable(error));
        QVERIFY(w.lectureMode());
        QVERIFY(w.findChild<QWidget *>(QStringLiteral("lectureCaptionBar"))->isVisible());
        QVERIFY(captionText(w).contains(QStringLiteral("Article 3")));
        QCOMPARE(counterText(w), QStringLiteral("1 / %1").arg(lecture.steps.size()));
        verifyStep(w, lecture.steps[0]);
        const int nextKeys[] = {Qt::Key_PageDown, Qt::Key_Right, Qt::Key_Down,
                                Qt::Key_Space,    Qt::Key_N,     Qt::Key_Return};
        const int n = static_cast<int>(lecture.steps.size());
        for (int k = 1; k < n; ++k) {
            press(w, nextKeys[k % 6]);
            QCOMPARE(w.lecturePlayer()->step(), k);
            QCOMPARE(counterText(w), QStringLiteral("%1 / %2").arg(k + 1).arg(n));
            verifyStep(w, lecture.steps[static_cast<std::size_t>(k)]);
            QVERIFY(!w.grab().isNull());
        }
        press(w, Qt::Key_PageDown); // past the last: stays
        QCOMPARE(w.lecturePlayer()->step(), n - 1);
        const int previousKeys[] = {Qt::Key_PageUp, Qt::Key_Left, Qt::Key_Up, Qt::Key_B, Qt::Key_P, Qt::Key_Backspace};
        for (int k = n - 2; k >= 0; --k) {
            press(w, previousKeys[k % 6]);
            QCOMPARE(w.lecturePlayer()->step(), k);
            verifyStep(w, lecture.steps[static_cast<std::size_t>(k)]);
        }
        press(w, Qt::Key_PageUp);
        QCOMPARE(w.lecturePlayer()->step(), 0);
        press(w, Qt::Key_End);
        QCOMPARE(w.lecturePlayer()->step(), n - 1);
        press(w, Qt::Key_Home);
        QCOMPARE(w.lecturePlayer()->step(), 0);
    }

    // A number and Enter jumps; a number past the end is forgotten; Esc forgets the digits.
    void numberAndEnterJumps()
    {
        Parameters p;
        MainWindow w(&p);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QString error;
        QVERIFY(w.openLecture(*findBuiltInLecture(QStringLiteral("clock-intuition")), 0, &error));
        press(w, Qt::Key_1);
        press(w, Qt::Key_2);
        QCOMPARE(counterText(w), QStringLiteral("go to 12 …"));
        QCOMPARE(w.lecturePlayer()->step(), 0); // digits alone do not switch the view or the step
        QCOMPARE(w.currentView()->info().id, QStringLiteral("heatmap"));
        press(w, Qt::Key_Enter);
        QCOMPARE(w.lecturePlayer()->step(), 11);
        press(w, Qt::Key_9);
        press(w, Qt::Key_9);
        press(w, Qt::Key_Return);
        QCOMPARE(w.lecturePlayer()->step(), 11);
        QCOMPARE(counterText(w), QStringLiteral("12 / 14"));
        press(w, Qt::Key_3);
        press(w, Qt::Key_Escape); // forgets the digits, stays in lecture mode
        QVERIFY(w.lectureMode());
        QCOMPARE(counterText(w), QStringLiteral("12 / 14"));
        press(w, Qt::Key_Escape); // leaves
        QVERIFY(!w.lectureMode());
    }

    // C hides and shows the caption; the window's lecture keys ([ ] and T) still work; , and .
    // move the position; leaving lecture mode hides the caption, F5 resumes at the same step.
    void captionViewsPositionAndResume()
    {
        Parameters p;
        MainWindow w(&p);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QString error;
        QVERIFY(w.openLecture(*findBuiltInLecture(QStringLiteral("clock-intuition")), 5, &error));
        w.lecturePlayer()->finishMotion();
        QVERIFY(!captionText(w).isEmpty());
        press(w, Qt::Key_C);
        QVERIFY(captionText(w).isEmpty());
        press(w, Qt::Key_C);
        QVERIFY(!captionText(w).isEmpty());
        const std::int64_t t = p.position();
        press(w, Qt::Key_Period);
        QCOMPARE(p.position(), t + 1);
        press(w, Qt::Key_Comma);
        QCOMPARE(p.position(), t);
        const QString view = w.currentView()->info().id;
        press(w, Qt::Key_BracketRight);
        QVERIFY(w.currentView()->info().id != view);
        QCOMPARE(w.lecturePlayer()->step(), 5);
        w.setLectureMode(false);
        QVERIFY(!w.findChild<QWidget *>(QStringLiteral("lectureCaptionBar"))->isVisible());
        press(w, Qt::Key_PageDown); // outside lecture mode the keys are the window's again
        QCOMPARE(w.lecturePlayer()->step(), 5);
        w.setLectureMode(true);
        QVERIFY(w.findChild<QWidget *>(QStringLiteral("lectureCaptionBar"))->isVisible());
        press(w, Qt::Key_PageDown);
        QCOMPARE(w.lecturePlayer()->step(), 6);
        w.lecturePlayer()->close();
        QVERIFY(!w.findChild<QWidget *>(QStringLiteral("lectureCaptionBar"))->isVisible());
        press(w, Qt::Key_Right); // the position's key again
        QCOMPARE(w.lecturePlayer()->step(), 6);
    }

    // Between steps of one view whose numbers differ, the numbers move there in half a second
    // (geometric for the base), then land exactly.
    void numbersMoveBetweenSteps()
    {
        Parameters p;
        MainWindow w(&p);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QString error;
        QVERIFY(w.openLecture(twoHeatmaps(), 0, &error));
        QCOMPARE(p.values().base, 1e4);
        QVERIFY(w.lecturePlayer()->goTo(1, &error));
        QVERIFY(w.lecturePlayer()->isMoving());
        QCOMPARE(p.values().base, 1e4); // it starts where the last step left it
        QCOMPARE(p.position(), 0);
        QTest::qWait(120);
        QVERIFY(p.values().base > 1e4 && p.values().base < 1e6);
        QVERIFY(p.position() >= 0 && p.position() <= 40);
        QTRY_VERIFY_WITH_TIMEOUT(!w.lecturePlayer()->isMoving(), 5000);
        QCOMPARE(p.values().base, 1e6);
        QCOMPARE(p.position(), 40);
        // Back to the first step: another view in between cuts instead.
        w.showView(QStringLiteral("clocks"));
        QVERIFY(w.lecturePlayer()->goTo(0, &error));
        QVERIFY(!w.lecturePlayer()->isMoving());
        QCOMPARE(p.values().base, 1e4);
    }

    // An action runs in real time; the parameter it moves is one undo step, however many frames.
    void actionsRunAndUndoAsOne()
    {
        Parameters p;
        MainWindow w(&p);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QString error;
        const Lecture lecture = twoHeatmaps({{QStringLiteral("kind"), QStringLiteral("animate")},
                                             {QStringLiteral("parameter"), QStringLiteral("base")},
                                             {QStringLiteral("from"), 100},
                                             {QStringLiteral("to"), 1e8},
                                             {QStringLiteral("seconds"), 0.5}});
        QVERIFY(w.openLecture(lecture, 1, &error));
        QUndoStack *undo = w.undoStack();
        const int before = undo->index();
        QVERIFY(w.lecturePlayer()->isMoving());
        QTRY_VERIFY_WITH_TIMEOUT(!w.lecturePlayer()->isMoving(), 5000);
        QCOMPARE(p.values().base, 1e8);
        // The move from the window's base (1e4: the same view) to the action's first value and the
        // action itself: one step.
        QCOMPARE(undo->index() - before, 1);
        undo->undo();
        QCOMPARE(p.values().base, 1e4);
        // R runs it again.
        press(w, Qt::Key_R);
        QVERIFY(w.lecturePlayer()->isMoving());
        w.lecturePlayer()->finishMotion();
        QCOMPARE(p.values().base, 1e8);
        // A play action: the position walks from its start to its end.
        const Lecture &clocks = *findBuiltInLecture(QStringLiteral("clock-intuition"));
        QVERIFY(w.openLecture(clocks, 3, &error)); // 0 to 199 at 12 a second
        QCOMPARE(p.position(), 0);
        QTest::qWait(300);
        QVERIFY(p.position() > 0 && p.position() < 199);
        w.lecturePlayer()->finishMotion();
        QCOMPARE(p.position(), 199);
    }

    // Every step of every built-in lecture, in lecture mode, light and dark: drawn, and its caption shown.
    void everyStepOfEveryLectureDraws()
    {
        Parameters p;
        MainWindow w(&p);
        w.resize(1280, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        for (const Theme theme : {Theme::Light, Theme::Dark}) {
            w.setTheme(theme, false);
            for (const Lecture &lecture : builtInLectures()) {
                QString error;
                QVERIFY2(w.openLecture(lecture, 0, &error), qPrintable(error));
                for (int k = 0; k < static_cast<int>(lecture.steps.size()); ++k) {
                    QVERIFY2(w.lecturePlayer()->goTo(k, &error), qPrintable(error));
                    verifyStep(w, lecture.steps[static_cast<std::size_t>(k)]);
                    QVERIFY2(w.currentView()->cannotDraw().isEmpty(),
                             qPrintable(lecture.name + QLatin1Char(' ') + QString::number(k + 1)));
                    QVERIFY(!w.grab().isNull());
                }
            }
        }
    }
};

QTEST_MAIN(TestLecturePlayer)
#include "tst_lecture_player.moc"

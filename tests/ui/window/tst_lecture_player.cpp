// Giving a lecture in the window (window/lecture_player.h): a clicker's keys from the first step to
// the last and back, a number and Enter, the caption, the actions and the moves between steps, one
// undo step for a moved parameter, lecture mode left and resumed, every step of every built-in
// lecture drawn in lecture mode.
#include "figures/plot_view.h"
#include "state/lecture.h"
#include "state/parameters.h"
#include "state/view_registry.h"
#include "state/workspace.h"
#include "window/lecture_editor.h"
#include "window/lecture_overview.h"
#include "window/lecture_player.h"
#include "window/lecture_presenter.h"
#include "window/main_window.h"

#include <QApplication>
#include <QFontInfo>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QScreen>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QUndoStack>
#include <qcustomplot.h>

namespace {

void press(MainWindow &w, int key, Qt::KeyboardModifiers modifiers = Qt::NoModifier)
{
    QWidget *target = QApplication::focusWidget() ? QApplication::focusWidget() : w.currentView();
    QTest::keyClick(target, static_cast<Qt::Key>(key), modifiers);
}

// PE_LECTURE_SHOTS=FOLDER keeps what a test showed, to be looked at.
void keep(QWidget *widget, const QString &name)
{
    if (const QString folder = qEnvironmentVariable("PE_LECTURE_SHOTS"); !folder.isEmpty())
        widget->grab().save(folder + QLatin1Char('/') + name + QStringLiteral(".png"));
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

    // O: every step as a thumbnail; arrows and Enter go to one, Esc closes it and stays in lecture mode.
    void overviewOfEveryStep()
    {
        Parameters p;
        MainWindow w(&p);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const Lecture &lecture = *findBuiltInLecture(QStringLiteral("alibi"));
        QString error;
        QVERIFY(w.openLecture(lecture, 0, &error));
        press(w, Qt::Key_O);
        LectureOverview *overview = w.lecturePlayer()->overview();
        QVERIFY(overview && overview->isVisible());
        QCOMPARE(overview->count(), static_cast<int>(lecture.steps.size()));
        QTRY_COMPARE_WITH_TIMEOUT(overview->pending(), 0, 60000);
        for (int k = 0; k < overview->count(); ++k)
            QVERIFY(!overview->item(k)->icon().isNull());
        keep(&w, QStringLiteral("overview"));
        QTest::keyClick(overview, Qt::Key_Right);
        QTest::keyClick(overview, Qt::Key_Right);
        QTest::keyClick(overview, Qt::Key_Return);
        QVERIFY(!overview->isVisible());
        QCOMPARE(w.lecturePlayer()->step(), 2);
        press(w, Qt::Key_O);
        QVERIFY(overview->isVisible());
        QTest::keyClick(overview, Qt::Key_Escape);
        QVERIFY(!overview->isVisible());
        QVERIFY(w.lectureMode());
        QCOMPARE(w.lecturePlayer()->step(), 2);
    }

    // The presenter view: this step's number, caption and notes, the next one's title and
    // thumbnail; the clicker's keys work there too.
    void presenterView()
    {
        Parameters p;
        MainWindow w(&p);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const Lecture &lecture = *findBuiltInLecture(QStringLiteral("clock-intuition"));
        QString error;
        QVERIFY(w.openLecture(lecture, 0, &error));
        w.lecturePlayer()->showPresenter();
        LecturePresenter *presenter = w.lecturePlayer()->presenter();
        QVERIFY(presenter && presenter->isVisible());
        QVERIFY(QTest::qWaitForWindowExposed(presenter));
        auto label = [presenter](const char *name) { return presenter->findChild<QLabel *>(QLatin1String(name)); };
        QVERIFY(label("presenterStep")->text().startsWith(QStringLiteral("1 / 14")));
        QCOMPARE(presenter->findChild<QTextBrowser *>(QStringLiteral("presenterNotes"))->toPlainText(),
                 lecture.steps[0].notes);
        QCOMPARE(label("presenterNextTitle")->text(), QStringLiteral("Next: 2 · ") + lecture.steps[1].title);
        QTRY_VERIFY_WITH_TIMEOUT(!label("presenterNextImage")->pixmap().isNull(), 30000);
        QVERIFY(label("presenterClock")->text().contains(QLatin1Char(':')));
        keep(presenter, QStringLiteral("presenter"));
        QTest::keyClick(presenter, Qt::Key_PageDown);
        QCOMPARE(w.lecturePlayer()->step(), 1);
        QVERIFY(label("presenterStep")->text().startsWith(QStringLiteral("2 / 14")));
        QVERIFY(label("presenterCaption")->text().contains(QStringLiteral("Article 2")));
        w.lecturePlayer()->close();
        QVERIFY(!presenter->isVisible());
    }

    // Writing a lecture: new, add, duplicate, move, delete, typed captions, each an undo step; saved
    // and read back the same.
    void authoring()
    {
        Parameters p;
        MainWindow w(&p);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto *editor = w.findChild<LectureEditor *>();
        QVERIFY(editor);
        QUndoStack *undo = w.undoStack();
        QString error;
        QVERIFY(w.applySession(*findPreset(QStringLiteral("seed002-clocks")), &error));
        editor->newLecture();
        LecturePlayer *player = w.lecturePlayer();
        QVERIFY(player->isOpen());
        QVERIFY(!w.lectureMode());
        QCOMPARE(player->lecture().steps.size(), std::size_t(1));
        QCOMPARE(player->lecture().steps[0].state.view, QStringLiteral("clocks"));
        QVERIFY(w.applySession(*findPreset(QStringLiteral("seed000-heatmap")), &error));
        editor->addCurrentState();
        QCOMPARE(player->lecture().steps.size(), std::size_t(2));
        QCOMPARE(player->step(), 1);
        QCOMPARE(player->lecture().steps[1].state.view, QStringLiteral("heatmap"));
        editor->duplicateStep();
        QCOMPARE(player->lecture().steps.size(), std::size_t(3));
        editor->moveStep(-1);
        QCOMPARE(player->step(), 1);
        editor->deleteStep();
        QCOMPARE(player->lecture().steps.size(), std::size_t(2));
        // Typing into the caption is one step however many keys.
        auto *caption = editor->findChild<QPlainTextEdit *>(QStringLiteral("stepCaption"));
        caption->setFocus();
        const int before = undo->index();
        QTest::keyClicks(caption, QStringLiteral("The $\\omega_i$ clocks"));
        QCOMPARE(player->lecture().steps[static_cast<std::size_t>(player->step())].caption,
                 QStringLiteral("The $\\omega_i$ clocks"));
        QCOMPARE(undo->index() - before, 1);
        undo->undo();
        QVERIFY(player->lecture().steps[static_cast<std::size_t>(player->step())].caption.isEmpty());
        undo->redo();
        // Undo reaches back through the structure too: the deleted step returns.
        undo->undo();
        undo->undo();
        QCOMPARE(player->lecture().steps.size(), std::size_t(3));
        undo->redo();
        undo->redo();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("mine.pelecture"));
        QVERIFY2(editor->save(path, &error), qPrintable(error));
        const auto read = readLectureFile(path, &error);
        QVERIFY2(read, qPrintable(error));
        QCOMPARE(lectureToJson(*read), lectureToJson(player->lecture()));
        w.findChild<QWidget *>(QStringLiteral("lectureDock"))->show();
        w.findChild<QWidget *>(QStringLiteral("lectureDock"))->raise();
        keep(&w, QStringLiteral("editor"));
        // Choosing a step in the list shows it.
        auto *list = editor->findChild<QListWidget *>(QStringLiteral("lectureSteps"));
        list->setCurrentRow(0);
        QCOMPARE(player->step(), 0);
        QCOMPARE(w.currentView()->info().id, QStringLiteral("clocks"));
    }

    // Lecture type: tick labels at least 2% of the screen's height on any screen, 2.4 times the
    // window's at least; Ctrl+= and Ctrl+- enlarge and shrink it, the caption too, within limits.
    void typeScalesWithTheScreen()
    {
        QCOMPARE(PlotView::lectureFontScale(1080, 96, 1.0), PlotView::kLectureFontScale);
        QCOMPARE(PlotView::lectureFontScale(2160, 96, 1.0), 0.02 * 2160 / 12.0); // 43.2 px at 96 dpi
        QCOMPARE(PlotView::lectureFontScale(2160, 96, 1.5), 1.5 * 0.02 * 2160 / 12.0);
        Parameters p;
        MainWindow w(&p);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.setLectureMode(true);
        const int screen = w.screen()->geometry().height();
        for (const ViewInfo &info : viewRegistry()) {
            w.showView(info.id);
            QApplication::processEvents();
            const int pixels = QFontInfo(w.currentView()->plot()->xAxis->tickLabelFont()).pixelSize();
            QVERIFY2(pixels >= 0.02 * screen, qPrintable(info.id + QStringLiteral(": %1 px").arg(pixels)));
        }
        w.showView(QStringLiteral("heatmap"));
        const int before = QFontInfo(w.currentView()->plot()->xAxis->tickLabelFont()).pixelSize();
        QTest::keyClick(w.currentView(), Qt::Key_Equal, Qt::ControlModifier);
        QVERIFY(w.lectureZoom() > 1.0);
        QVERIFY(QFontInfo(w.currentView()->plot()->xAxis->tickLabelFont()).pixelSize() > before);
        for (int k = 0; k < 20; ++k)
            QTest::keyClick(w.currentView(), Qt::Key_Minus, Qt::ControlModifier);
        QCOMPARE(w.lectureZoom(), PlotView::kMinLectureZoom);
        QVERIFY(QFontInfo(w.currentView()->plot()->xAxis->tickLabelFont()).pixelSize() < before);
    }
};

QTEST_MAIN(TestLecturePlayer)
#include "tst_lecture_player.moc"

// A test that acts like many users: from a fixed seed, random actions on the real main window
// (menu actions, keys, slider drags, typed values, view switches, presets, undo and redo, lecture
// mode in and out, dialogs opened and cancelled, a table opened), checking after each that the
// state is valid, and at the end that no worker thread is left.
//   PE_MONKEY_ACTIONS=100000 QTEST_FUNCTION_TIMEOUT=3600000 tst_monkey
//                                         the long run (a benchmark, reported, not in CI; Qt Test's
//                                         watchdog ends a test function after 300 s by default)
//   PE_MONKEY_SEED=N                      another sequence
#include "export/data_export.h"
#include "figures/plot_view.h"
#include "state/parameters.h"
#include "state/session.h"
#include "state/view_registry.h"
#include "support/parallel.h"
#include "test_support.h"
#include "window/main_window.h"

#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QElapsedTimer>
#include <QFile>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>
#include <QTimer>

#include <random>

namespace {

// The process's thread count (/proc/self/status).
int threadCount()
{
    QFile f(QStringLiteral("/proc/self/status"));
    f.open(QIODevice::ReadOnly);
    for (const QByteArray &line : f.readAll().split('\n'))
        if (line.startsWith("Threads:"))
            return line.mid(8).trimmed().toInt();
    return -1;
}

// Every enabled action of the menus, except those that end the program.
QList<QAction *> menuActions(QMenuBar *bar)
{
    QList<QAction *> out;
    std::function<void(QMenu *)> walk = [&](QMenu *menu) {
        for (QAction *a : menu->actions()) {
            if (a->menu())
                walk(a->menu());
            else if (!a->isSeparator() && a->shortcut() != QKeySequence::Quit &&
                     !a->text().contains(QStringLiteral("Quit")))
                out << a;
        }
    };
    for (QAction *a : bar->actions())
        if (a->menu())
            walk(a->menu());
    return out;
}

} // namespace

class TestMonkey : public QObject
{
    Q_OBJECT

  private slots:
    void randomUsersLeaveAValidState()
    {
        const int actions = qEnvironmentVariableIntValue("PE_MONKEY_ACTIONS") > 0
                                ? qEnvironmentVariableIntValue("PE_MONKEY_ACTIONS")
                                : 600;
        std::mt19937 rng(qEnvironmentVariableIsSet("PE_MONKEY_SEED") ? qEnvironmentVariableIntValue("PE_MONKEY_SEED")
                                                                     : 20261125);
        QTemporaryDir dir;
        // A small table to open now and then.
        const QString table = dir.filePath(QStringLiteral("t.npy"));
        std::string written;
        QVERIFY(pe::writeTable(pe::encodingTable(pe::Encoding(testsupport::params(64, 8))), table.toStdString(),
                               pe::DataFormat::Npy, written));

        pe::parallelFor(
            64, [](std::int64_t, std::int64_t) {}, 1); // the program's pool, started once
        const int threadsBefore = threadCount();
        QElapsedTimer clock;
        clock.start();
        {
            Parameters p;
            QVERIFY(!p.set(testsupport::params(200, 32)));
            MainWindow w(&p);
            w.resize(1024, 768);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            // Any dialog an action opens is cancelled a moment later, as a user closing it would.
            QTimer closer;
            connect(&closer, &QTimer::timeout, [] {
                if (auto *d = qobject_cast<QDialog *>(QApplication::activeModalWidget()))
                    d->reject();
                else if (QWidget *m = QApplication::activeModalWidget())
                    m->close();
                if (QWidget *popup = QApplication::activePopupWidget())
                    popup->close();
            });
            closer.start(30);
            const QList<QAction *> menu = menuActions(w.menuBar());
            const std::vector<Session> &all = presets();
            static const Qt::Key keys[] = {
                Qt::Key_Left,         Qt::Key_Right,       Qt::Key_PageUp, Qt::Key_PageDown, Qt::Key_Home,
                Qt::Key_End,          Qt::Key_Space,       Qt::Key_Plus,   Qt::Key_Minus,    Qt::Key_T,
                Qt::Key_BracketRight, Qt::Key_BracketLeft, Qt::Key_1,      Qt::Key_5,        Qt::Key_0,
                Qt::Key_Escape};
            int histogram[10] = {};
            for (int i = 0; i < actions; ++i) {
                const int kind = std::uniform_int_distribution<int>(0, 9)(rng);
                ++histogram[kind];
                QWidget *focus = w.currentView();
                switch (kind) {
                case 0: { // a menu action (dialogs are cancelled by the timer)
                    QAction *a = menu[std::uniform_int_distribution<int>(0, menu.size() - 1)(rng)];
                    if (a->isEnabled())
                        a->trigger();
                    break;
                }
                case 1: // a key on the view
                case 2:
                    QTest::keyClick(focus, keys[std::uniform_int_distribution<int>(0, std::size(keys) - 1)(rng)]);
                    break;
                case 3: { // a slider dragged somewhere
                    const auto sliders = w.findChildren<QAbstractSlider *>();
                    if (sliders.isEmpty())
                        break;
                    QAbstractSlider *s = sliders[std::uniform_int_distribution<int>(0, sliders.size() - 1)(rng)];
                    if (s->isEnabled() && s->isVisible()) {
                        s->setSliderDown(true);
                        for (int k = 0; k < 3; ++k)
                            s->setValue(std::uniform_int_distribution<int>(s->minimum(), s->maximum())(rng));
                        s->setSliderDown(false);
                    }
                    break;
                }
                case 4: { // a value typed into a field: sometimes good, sometimes not
                    const auto boxes = w.findChildren<QAbstractSpinBox *>();
                    if (boxes.isEmpty())
                        break;
                    QAbstractSpinBox *b = boxes[std::uniform_int_distribution<int>(0, boxes.size() - 1)(rng)];
                    if (!b->isEnabled() || !b->isVisible())
                        break;
                    static const char *const typed[] = {"1", "7", "64", "1e4", "-5", "", "abc", "1e400", "300"};
                    b->findChild<QLineEdit *>()->selectAll();
                    QTest::keyClicks(b, QString::fromLatin1(typed[std::uniform_int_distribution<int>(0, 8)(rng)]));
                    QTest::keyClick(b, Qt::Key_Return);
                    break;
                }
                case 5: { // a choice from a list
                    const auto combos = w.findChildren<QComboBox *>();
                    QComboBox *c = combos[std::uniform_int_distribution<int>(0, combos.size() - 1)(rng)];
                    if (c->isEnabled() && c->isVisible() && c->count() > 0)
                        c->setCurrentIndex(std::uniform_int_distribution<int>(0, c->count() - 1)(rng));
                    break;
                }
                case 6: // a view switched
                    w.showView(
                        viewRegistry()[std::uniform_int_distribution<std::size_t>(0, viewRegistry().size() - 1)(rng)]
                            .id);
                    break;
                case 7: { // a preset
                    QString error;
                    w.applySession(all[std::uniform_int_distribution<std::size_t>(0, all.size() - 1)(rng)], &error);
                    break;
                }
                case 8: // undo or redo
                    QTest::keyClick(&w, Qt::Key_Z,
                                    std::uniform_int_distribution<int>(0, 1)(rng)
                                        ? Qt::ControlModifier
                                        : Qt::ControlModifier | Qt::ShiftModifier);
                    break;
                case 9: // lecture mode in or out, or a table opened
                    if (std::uniform_int_distribution<int>(0, 3)(rng) == 0) {
                        QString error;
                        w.openTable(table, &error);
                    } else {
                        w.setLectureMode(!w.lectureMode());
                    }
                    break;
                }
                QApplication::processEvents();
                const pe::EncodingParams v = p.values();
                QVERIFY2(!pe::validate(v), qPrintable(QStringLiteral("invalid parameters after action %1").arg(i)));
                QVERIFY2(p.position() >= v.startPos && p.position() < v.startPos + v.seqLen,
                         qPrintable(QStringLiteral("position outside the window after action %1").arg(i)));
                QVERIFY(w.currentView() != nullptr);
            }
            closer.stop();
            w.setLectureMode(false);
            for (PlotView *v : w.findChildren<PlotView *>())
                v->finishWork();
            qInfo("%d actions in %.1f s (menu %d, keys %d, sliders %d, typed %d, lists %d, views %d, presets %d, "
                  "undo %d, lecture/table %d)",
                  actions, clock.elapsed() / 1000.0, histogram[0], histogram[1] + histogram[2], histogram[3],
                  histogram[4], histogram[5], histogram[6], histogram[7], histogram[8], histogram[9]);
        }
        // The window is gone: its workers ended with it. Qt's pool keeps idle threads for 30 s;
        // waitForDone ends them, so what is left beyond the count before is a thread of ours.
        QVERIFY(QThreadPool::globalInstance()->waitForDone(30000));
        QTRY_VERIFY_WITH_TIMEOUT(threadCount() <= threadsBefore, 10000);
    }
};

QTEST_MAIN(TestMonkey)
#include "tst_monkey.moc"

// The view settings' model (issue 29): a typed state per view that the workspace owns, with no
// widget; controls only edit it and views only read it.
#include "figures/plot_view.h"
#include "figures/view_factory.h"
#include "figures/workspace_views.h"
#include "state/parameters.h"
#include "state/view_registry.h"
#include "state/view_state.h"
#include "state/workspace.h"

#include <QComboBox>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <QUndoStack>

class TestViewState : public QObject
{
    Q_OBJECT

  private slots:
    // Complete from the start, read by kind, choices by name.
    void defaultsAndKinds()
    {
        const ViewInfo *info = findView(QStringLiteral("clocks"));
        QVERIFY(info);
        ViewState s(info->settings);
        QCOMPARE(s.values(), completeSettings(info->settings, {}));
        QCOMPARE(s.choice(QStringLiteral("clockFace")), QStringLiteral("clockwise"));
        QCOMPARE(s.integer(QStringLiteral("clockPairs")), 0);
        QCOMPARE(s.text(QStringLiteral("clockPairChoice")), QStringLiteral("spread"));
        QVERIFY(s.flag(QStringLiteral("showTitle")));
    }

    // A refused change names the setting and changes nothing; an accepted one says which keys
    // changed, once; setting the same values again says nothing.
    void setChecksAndReports()
    {
        ViewState s(findView(QStringLiteral("clocks"))->settings);
        QSignalSpy changed(&s, &ViewState::changed);
        const QJsonObject before = s.values();
        const auto refused = s.set(
            {{QStringLiteral("clockFace"), QStringLiteral("counterclockwise")}, {QStringLiteral("clockPairs"), -3}});
        QVERIFY(refused);
        QVERIFY2(refused->contains(QStringLiteral("clockPairs")), qPrintable(*refused));
        QCOMPARE(s.values(), before);
        QVERIFY(s.set({{QStringLiteral("nonsense"), 1}}));
        QCOMPARE(changed.count(), 0);
        QVERIFY(!s.set({{QStringLiteral("clockFace"), 1}, {QStringLiteral("clockPairs"), 4}})); // an old file's index
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(2).toStringList(),
                 (QStringList{QStringLiteral("clockFace"), QStringLiteral("clockPairs")}));
        QCOMPARE(s.choice(QStringLiteral("clockFace")), QStringLiteral("counterclockwise")); // saved by name
        QVERIFY(!s.set({{QStringLiteral("clockPairs"), 4}}));
        QCOMPARE(changed.count(), 1);
        s.reset();
        QCOMPARE(s.values(), before);
        QCOMPARE(changed.count(), 2);
    }

    // The workspace holds every view's state without any view; a view attached reads it, its
    // control edits it (one undo step), and a change to it reaches the control and the figure.
    void workspaceStateControlsAndView()
    {
        Parameters p;
        Workspace w(&p);
        for (const ViewInfo &info : viewRegistry())
            QCOMPARE(w.viewState(info.id)->values(), completeSettings(info.settings, {}));
        QVERIFY(
            !w.setViewSettings(QStringLiteral("similarity"), {{QStringLiteral("metric"), QStringLiteral("cosine")}}));
        std::unique_ptr<PlotView> view(createView(*findView(QStringLiteral("similarity")), &p, nullptr));
        view->resize(640, 480);
        view->show();
        QVERIFY(QTest::qWaitForWindowExposed(view.get()));
        auto *metric = view->findChild<QComboBox *>(QStringLiteral("metric"));
        QCOMPARE(metric->currentData().toString(), QStringLiteral("dot")); // its own state until attached
        WorkspaceViews figures(&w);
        figures.attach(view.get());
        QCOMPARE(&view->state(), w.viewState(QStringLiteral("similarity")));
        QCOMPARE(metric->currentData().toString(), QStringLiteral("cosine"));
        // The control edits the state: one undo step, and undo reaches the control.
        const int steps = w.undoStack()->count();
        metric->setCurrentIndex(metric->findData(QStringLiteral("euclidean")));
        QCOMPARE(w.viewState(QStringLiteral("similarity"))->choice(QStringLiteral("metric")),
                 QStringLiteral("euclidean"));
        QCOMPARE(w.undoStack()->count(), steps + 1);
        w.undoStack()->undo();
        QCOMPARE(metric->currentData().toString(), QStringLiteral("cosine"));
        // The state changed without the control: the figure follows it (the view reads the state).
        QSignalSpy rebuilt(view.get(), &PlotView::rebuilt);
        QVERIFY(
            !w.viewState(QStringLiteral("similarity"))->set({{QStringLiteral("metric"), QStringLiteral("euclidean")}}));
        QVERIFY(rebuilt.count() >= 1);
        QCOMPARE(metric->currentData().toString(), QStringLiteral("euclidean"));
        QCOMPARE(w.undoStack()->count(), steps + 1); // not an edit: sessions and undo set it so
        QCOMPARE(w.undoStack()->index(), steps);
        // Detached, the view has its own state again and the workspace keeps its own.
        figures.detach(view.get());
        QCOMPARE(view->state().choice(QStringLiteral("metric")), QStringLiteral("dot"));
        QCOMPARE(w.viewSettings(QStringLiteral("similarity")).value(QStringLiteral("metric")).toString(),
                 QStringLiteral("euclidean"));
    }
};

QTEST_MAIN(TestViewState)
#include "tst_view_state.moc"

#include "export/data_export.h"
#include "state/parameters.h"
#include "state/session.h"
#include "state/view_registry.h"
#include "state/view_state.h"
#include "state/workspace.h"

#include <QCoreApplication>
#include <QTest>
#include <QUndoStack>

#include <cmath>

// The model without a widget: this test links pe_model alone (Qt Core and Gui, no Qt Widgets, no
// QCustomPlot) and runs under a QCoreApplication. A widget reached from the parameters, the
// registry, the workspace, sessions or data exports would not link here.
class TestModel : public QObject
{
    Q_OBJECT

  private slots:
    void registryIsCompleteWithoutWidgets()
    {
        QCOMPARE(viewRegistry().size(), std::size_t{18});
        for (const ViewInfo &info : viewRegistry()) {
            QVERIFY2(!info.title.isEmpty(), qPrintable(info.id));
            QVERIFY2(viewGroups().contains(info.group), qPrintable(info.id));
            // Every view ends with the figure's title settings (figureSettings).
            QVERIFY2(findSetting(info.settings, QStringLiteral("showTitle")), qPrintable(info.id));
        }
        // The views with a position axis declare the markers; the clocks have none.
        QVERIFY(findSetting(findView(QStringLiteral("heatmap"))->settings, QStringLiteral("markers")));
        QVERIFY(!findSetting(findView(QStringLiteral("clocks"))->settings, QStringLiteral("markers")));
    }

    // A preset applied to a workspace: its parameters and every view's settings, one undo step.
    void presetAppliesAndUndoesWithoutWidgets()
    {
        Parameters p;
        Workspace w(&p);
        const Session *preset = findPreset(QStringLiteral("seed002-clocks"));
        QVERIFY(preset);
        QString error;
        QVERIFY2(w.applySession(*preset, &error), qPrintable(error));
        QCOMPARE(p.values().dModel, 9);
        QCOMPARE(w.viewState(QStringLiteral("clocks"))->choice(QStringLiteral("clockFace")),
                 QStringLiteral("counterclockwise"));
        QCOMPARE(w.undoStack()->count(), 1);
        w.undoStack()->undo();
        QCOMPARE(w.viewState(QStringLiteral("clocks"))->choice(QStringLiteral("clockFace")),
                 QStringLiteral("clockwise"));
        QVERIFY(p.values().dModel != 9);
        // A view's edit, recorded after it happened, is one step; undo brings back the state.
        ViewState *similarity = w.viewState(QStringLiteral("similarity"));
        const QJsonObject before = similarity->values();
        QVERIFY(!similarity->set({{QStringLiteral("metric"), QStringLiteral("cosine")}}));
        w.recordSettingsEdit(QStringLiteral("similarity"), before, similarity->values());
        QCOMPARE(w.undoStack()->index(), 1);
        w.undoStack()->undo();
        QCOMPARE(similarity->choice(QStringLiteral("metric")), QStringLiteral("dot"));
        w.undoStack()->redo();
        QCOMPARE(similarity->choice(QStringLiteral("metric")), QStringLiteral("cosine"));
        QVERIFY(w.setViewSettings(QStringLiteral("nope"), {}).has_value());
    }

    // A data export computed from the workspace's state and a view's settings: seed 003's table.
    void dataExportWithoutWidgets()
    {
        Parameters p;
        pe::EncodingParams e = p.values();
        e.seqLen = 10;
        e.dModel = 6;
        e.base = 1e4;
        QVERIFY(!p.setState(e, p.noise()));
        Workspace w(&p);
        const auto kind = findDataKind(QStringLiteral("encoding"));
        QVERIFY(kind);
        DataRequest request{p.sharedEncoding(), p.noise(), 0,
                            completeSettings(kind->view->settings, w.viewSettings(kind->view->id))};
        const pe::Table table = kind->data->make(request);
        QCOMPARE(table.rows, std::int64_t{10});
        std::vector<double> row(static_cast<std::size_t>(table.cols));
        table.fill(3, 1, row.data());
        QVERIFY(std::abs(row[0] - 0.1411) < 5e-5); // sin(3), seed 003's printed 0.1411
    }
};

QTEST_GUILESS_MAIN(TestModel)
#include "tst_model.moc"

// A preset (and a session) sets a complete state: whatever came before it, the window shows what
// the preset alone shows on a fresh start, and a view shown beside another in lecture mode has the
// workspace's settings for it.
#include "figures/figure_export.h"
#include "figures/plot_view.h"
#include "state/parameters.h"
#include "state/session.h"
#include "state/view_registry.h"
#include "state/workspace.h"
#include "window/main_window.h"

#include <QFile>
#include <QJsonDocument>
#include <QTest>

namespace {

QByteArray stateOf(MainWindow &w)
{
    return QJsonDocument(sessionToJson(w.currentSession())).toJson(QJsonDocument::Compact);
}

// The current view's figure as a PNG, computed to the end (t-SNE, recovery, the probe).
QByteArray figureOf(MainWindow &w)
{
    FigureOptions options;
    options.size = QSize(360, 260);
    return figureBytes(w.currentView(), FigureFormat::Png, options);
}

} // namespace

class TestPresets : public QObject
{
    Q_OBJECT

  private slots:
    // For every ordered pair (A, B): A then B gives B's state on a fresh start, every view's
    // settings included.
    void everyPresetAfterEveryOtherIsItself()
    {
        std::vector<QByteArray> fresh;
        for (const Session &b : presets()) {
            Parameters p;
            MainWindow w(&p);
            QString error;
            QVERIFY2(w.applySession(b, &error), qPrintable(error));
            fresh.push_back(stateOf(w));
        }
        Parameters p;
        MainWindow w(&p);
        for (const Session &a : presets())
            for (std::size_t j = 0; j < presets().size(); ++j) {
                QString error;
                QVERIFY2(w.applySession(a, &error), qPrintable(error));
                QVERIFY2(w.applySession(presets()[j], &error), qPrintable(error));
                QVERIFY2(stateOf(w) == fresh[j], qPrintable(a.name + QStringLiteral(" then ") + presets()[j].name));
            }
    }

    // The figures too, byte for byte: each preset after the one before it in the menu and after
    // seed 002's counter-clockwise clocks (the case a lecturer met: Llama 2's clocks kept them).
    void figuresAfterAnotherPresetAreTheFreshOnes()
    {
        const Session *clocks = findPreset(QStringLiteral("seed002-clocks"));
        QVERIFY(clocks);
        Parameters p;
        MainWindow w(&p);
        w.resize(1000, 700);
        for (std::size_t j = 0; j < presets().size(); ++j) {
            const Session &b = presets()[j];
            QByteArray expected;
            {
                Parameters fp;
                MainWindow fw(&fp);
                fw.resize(1000, 700);
                QString error;
                QVERIFY2(fw.applySession(b, &error), qPrintable(error));
                expected = figureOf(fw);
            }
            for (const Session *a : {clocks, &presets()[j == 0 ? presets().size() - 1 : j - 1]}) {
                QString error;
                QVERIFY(w.applySession(*a, &error));
                QVERIFY(w.applySession(b, &error));
                const QByteArray got = figureOf(w);
                if (got != expected && qEnvironmentVariableIsSet("PE_KEEP_FIGURES")) {
                    QFile e(QStringLiteral("/tmp/preset-expected.png")), g(QStringLiteral("/tmp/preset-got.png"));
                    e.open(QIODevice::WriteOnly);
                    e.write(expected);
                    g.open(QIODevice::WriteOnly);
                    g.write(got);
                }
                QVERIFY2(got == expected, qPrintable(a->name + QStringLiteral(" then ") + b.name));
            }
        }
    }

    // Llama 2's clocks after seed 002's: clockwise from 12 and as many as fit, as on a fresh start.
    void llamaClocksAfterSeed002AreClockwise()
    {
        Parameters p;
        MainWindow w(&p);
        QString error;
        QVERIFY(w.applySession(*findPreset(QStringLiteral("seed002-clocks")), &error));
        QCOMPARE(w.workspace()->viewSettings(QStringLiteral("clocks")).value(QStringLiteral("clockFace")).toString(),
                 QStringLiteral("counterclockwise"));
        QVERIFY(w.applySession(*findPreset(QStringLiteral("llama2-rope")), &error));
        const QJsonObject clocks = w.workspace()->viewSettings(QStringLiteral("clocks"));
        QCOMPARE(clocks.value(QStringLiteral("clockFace")).toString(), QStringLiteral("clockwise"));
        const ViewInfo *info = findView(QStringLiteral("clocks"));
        QCOMPARE(clocks,
                 completeSettings(info->settings,
                                  findPreset(QStringLiteral("llama2-rope"))->views.value(QStringLiteral("clocks"))));
    }

    // Lecture mode, a view beside another (T): the second view has the settings the preset gave
    // that view, and follows a preset applied while it is shown.
    void theViewBesideHasTheWorkspacesSettings()
    {
        Parameters p;
        MainWindow w(&p);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QString error;
        QVERIFY(w.applySession(*findPreset(QStringLiteral("seed002-clocks")), &error));
        w.setLectureMode(true);
        w.showView(QStringLiteral("heatmap"));
        w.setSecondView(QStringLiteral("clocks"));
        auto *second = w.findChild<PlotView *>(QStringLiteral("secondView"));
        QVERIFY(second);
        QCOMPARE(second->settings(), w.workspace()->viewSettings(QStringLiteral("clocks")));
        QCOMPARE(second->settings().value(QStringLiteral("clockFace")).toString(), QStringLiteral("counterclockwise"));
        QVERIFY(w.applySession(*findPreset(QStringLiteral("llama2-rope")), &error));
        QCOMPARE(second->settings().value(QStringLiteral("clockFace")).toString(), QStringLiteral("clockwise"));
        w.setLectureMode(false);
    }
};

QTEST_MAIN(TestPresets)
#include "tst_presets.moc"

// The window's figure tools: File > Export figure's physical sizes and preview, View > Figure
// title and markers, Playback > Export animation (a GIF). The command line's: tst_figures.
#include "figures/figure_export.h"
#include "figures/plot_view.h"
#include "scheme_support.h"
#include "state/parameters.h"
#include "state/session.h"
#include "state/view_registry.h"
#include "window/export_dialog.h"
#include "window/main_window.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QImageReader>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QSettings>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

class TestFigureWindow : public QObject
{
    Q_OBJECT

  private slots:
    void exportDialogPhysicalSizes();
    void exportPanelsFromTheWindow();
    void figureTitleAndMarkersFromTheWindow();
    void exportAnimationFromTheWindow();
    void columnFiguresKeepTheirPlotsApart();
};

void TestFigureWindow::exportDialogPhysicalSizes()
{
    QSettings().remove(QStringLiteral("export"));
    Parameters p;
    MainWindow w(&p);
    PlotView *view = w.currentView();
    int previews = 0;
    QSize previewed;
    const auto preview = [&](const QList<int> &, const PanelGrid &, const FigureOptions &o, double ratio,
                             QString *note) {
        ++previews;
        previewed = o.layoutSize();
        return figurePreview(view, o, ratio, note);
    };
    {
        ExportDialog dialog({QStringLiteral("Heatmap")}, 0, QSize(1200, 800), preview);
        auto *unit = dialog.findChild<QComboBox *>(QStringLiteral("exportUnit"));
        auto *width = dialog.findChild<QDoubleSpinBox *>(QStringLiteral("exportWidth"));
        auto *height = dialog.findChild<QDoubleSpinBox *>(QStringLiteral("exportHeight"));
        auto *dpi = dialog.findChild<QSpinBox *>(QStringLiteral("exportDpi"));
        auto *font = dialog.findChild<QDoubleSpinBox *>(QStringLiteral("exportFont"));
        QVERIFY(unit && width && height && dpi && font);
        QCOMPARE(dialog.options().size, QSize(1200, 800));
        // Pixels become inches at a point a pixel: 1200 px is 16.67 in; then a journal column.
        unit->setCurrentIndex(1);
        QCOMPARE(width->value(), 16.67);
        width->setValue(3.5);
        height->setValue(2.5);
        dpi->setValue(600);
        font->setValue(9);
        const FigureOptions o = dialog.options();
        QVERIFY(o.isPhysical());
        QCOMPARE(o.layoutSize(), QSize(252, 180));
        QCOMPARE(o.pixelSize(), QSize(2100, 1500));
        QCOMPARE(o.fontPoints, 9.0);
        QTRY_VERIFY(previews > 0); // after a pause in the typing
        QCOMPARE(previewed, QSize(252, 180));
        QVERIFY(dialog.findChild<QLabel *>(QStringLiteral("exportPreview"))->pixmap().width() > 100);
        dialog.accept();
    }
    // Remembered for the next export.
    ExportDialog again({QStringLiteral("Heatmap")}, 0, QSize(1200, 800));
    const FigureOptions o = again.options();
    QCOMPARE(o.unit, SizeUnit::Inch);
    QCOMPARE(o.physical, QSizeF(3.5, 2.5));
    QCOMPARE(o.dpi, 600);
    QCOMPARE(o.fontPoints, 9.0);
    QSettings().remove(QStringLiteral("export"));
}

void TestFigureWindow::exportPanelsFromTheWindow()
{
    // File > Export figure with two views ticked: a grid that cannot hold them is said and the
    // dialog stays; one row of two is previewed at the page's proportions and written as one PDF
    // page of 7 x 2.5 in.
    QSettings().remove(QStringLiteral("export"));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("panels.pdf"));
    Parameters p;
    MainWindow w(&p);
    w.resize(1200, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.showView(QStringLiteral("heatmap"));
    bool checked = false;
    QTimer::singleShot(0, [&] {
        auto *dialog = qobject_cast<ExportDialog *>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        dialog->findChild<QCheckBox *>(QStringLiteral("exportPanels"))->setChecked(true);
        auto *list = dialog->findChild<QListWidget *>(QStringLiteral("exportPanelViews"));
        QVERIFY(list->isVisible());
        QCOMPARE(dialog->panelViews(), QList<int>{0}); // the current view, ticked
        QVERIFY(dialog->panelsProblem()->contains(QStringLiteral("two views")));
        for (int row = 0; row < list->count(); ++row)
            if (list->item(row)->text() == findView(QStringLiteral("frequencies"))->title)
                list->item(row)->setCheckState(Qt::Checked);
        QCOMPARE(dialog->panelViews().size(), 2);
        QCOMPARE(dialog->grid().rows, 1); // set for the views ticked
        QCOMPARE(dialog->grid().columns, 2);
        dialog->findChild<QComboBox *>(QStringLiteral("exportUnit"))->setCurrentIndex(1);
        dialog->findChild<QDoubleSpinBox *>(QStringLiteral("exportWidth"))->setValue(7);
        dialog->findChild<QDoubleSpinBox *>(QStringLiteral("exportHeight"))->setValue(2.5);
        dialog->findChild<QLineEdit *>()->setText(path);
        auto *rows = dialog->findChild<QSpinBox *>(QStringLiteral("exportRows"));
        rows->setValue(3);
        QVERIFY(dialog->panelsProblem());
        dialog->accept(); // refused: the dialog stays
        QVERIFY(dialog->isVisible());
        QVERIFY(dialog->findChild<QLabel *>(QStringLiteral("exportNote"))->text().contains(QStringLiteral("grid")));
        rows->setValue(1);
        QVERIFY(!dialog->panelsProblem());
        auto *picture = dialog->findChild<QLabel *>(QStringLiteral("exportPreview"));
        QTRY_VERIFY_WITH_TIMEOUT(!picture->pixmap().isNull(), 10000);
        const QSize shown = picture->pixmap().deviceIndependentSize().toSize();
        QVERIFY2(std::abs(shown.width() * 2.5 / 7 - shown.height()) <= 2,
                 qPrintable(QStringLiteral("%1x%2").arg(shown.width()).arg(shown.height())));
        checked = true;
        if (qEnvironmentVariableIsSet("PE_KEEP_FIGURES"))
            dialog->grab().save(QStringLiteral("/tmp/export-panels-dialog.png"));
        dialog->accept();
    });
    for (QAction *a : w.findChildren<QAction *>())
        if (a->text().remove(QLatin1Char('&')).startsWith(QStringLiteral("Export figure")))
            a->trigger();
    QVERIFY(checked);
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(f.readAll().contains("/MediaBox [0 0 504.000000 180.000000]"));
    QSettings().remove(QStringLiteral("export"));
}

void TestFigureWindow::figureTitleAndMarkersFromTheWindow()
{
    // The settings View > Figure title and markers edits: the title replaced and hidden, markers
    // at positions, all of it in the session the window saves.
    Parameters p;
    MainWindow w(&p);
    w.showView(QStringLiteral("similarity"));
    PlotView *view = w.currentView();
    QVERIFY(!view->applySettings(
        {{QStringLiteral("title"), QStringLiteral("Mine")}, {QStringLiteral("markers"), QStringLiteral("10, 20")}}));
    const QJsonObject s = view->settings();
    QCOMPARE(s.value(QStringLiteral("title")).toString(), QStringLiteral("Mine"));
    QCOMPARE(s.value(QStringLiteral("markers")).toString(), QStringLiteral("10, 20"));
    QVERIFY(!view->render(QSize(800, 500), 1).isNull()); // drawn (the window is not shown)
    int markers = 0;
    for (int i = 0; i < view->plot()->itemCount(); ++i)
        markers += view->plot()->item(i)->objectName() == QLatin1String("figureMarker");
    QCOMPARE(markers, 2);
    // A markers text that is not positions: the dialog says why and stays open (parseMarkers).
    QString error;
    QVERIFY(!parseMarkers(QStringLiteral("10, ten"), &error));
    QVERIFY2(error.startsWith(QStringLiteral("a marker is a position")), qPrintable(error));
    QVERIFY(!view->applySettings({{QStringLiteral("showTitle"), false}}));
    const Session saved = w.currentSession();
    QCOMPARE(saved.views.value(QStringLiteral("similarity")).value(QStringLiteral("showTitle")).toBool(), false);
    QCOMPARE(saved.views.value(QStringLiteral("similarity")).value(QStringLiteral("title")).toString(),
             QStringLiteral("Mine"));
}

void TestFigureWindow::exportAnimationFromTheWindow()
{
    // Playback > Export animation: the current view as a GIF from a copy of the state; the
    // window's position stays; a cancel writes nothing.
    QTemporaryDir dir;
    Parameters p;
    MainWindow w(&p);
    w.showView(QStringLiteral("clocks"));
    QVERIFY(p.setPosition(3));
    const QString gif = dir.filePath(QStringLiteral("clocks.gif"));
    QString error;
    QList<int> seen;
    QVERIFY2(w.writeAnimation(gif, QSize(320, 240), 6, 2, 10, &error,
                              [&](int k) {
                                  seen << k;
                                  return true;
                              }),
             qPrintable(error));
    QCOMPARE(seen, (QList<int>{0, 1, 2, 3, 4, 5}));
    QCOMPARE(p.position(), 3);
    QImageReader reader(gif);
    QCOMPARE(reader.imageCount(), 6);
    QCOMPARE(reader.read().size(), QSize(320, 240));
    const QString cancelled = dir.filePath(QStringLiteral("cancelled.gif"));
    QVERIFY(!w.writeAnimation(cancelled, QSize(320, 240), 6, 1, 10, &error, [](int k) { return k < 2; }));
    QVERIFY(error.contains(QStringLiteral("cancelled")));
    QVERIFY(!QFileInfo::exists(cancelled));
}

void TestFigureWindow::columnFiguresKeepTheirPlotsApart()
{
    // Every view at a journal's column (3.5 x 2.5 in) and at a page's width (7 x 5 in), as the
    // export lays it out: the type fitted (8 pt down to 6), and then no plot thinner than three
    // lines of its tick type, and the title, the legends in rows of their own, the colour bars and
    // the plots never on top of each other nor past the figure's edge. A view with no room at the
    // column's size is refused with the size it needs; at 7 in, every view has room.
    Parameters p;
    MainWindow w(&p);
    for (const ViewInfo &info : viewRegistry()) {
        QVERIFY(showScheme(p, info));
        w.showView(info.id);
        PlotView *view = w.currentView();
        for (const QString &size : {QStringLiteral("3.5x2.5in"), QStringLiteral("7x5in")}) {
            const QString where = info.id + QStringLiteral(" at ") + size;
            FigureOptions options;
            QVERIFY(!parseFigureSize(size, &options));
            QString problem;
            const FigureOptions fitted = fitFigure(view, options, &problem);
            if (!problem.isEmpty()) {
                QVERIFY2(size.startsWith(QLatin1String("3.5")), qPrintable(where + QStringLiteral(": ") + problem));
                QVERIFY2(problem.contains(QLatin1String("would overlap")), qPrintable(problem));
                continue;
            }
            QVERIFY2(fitted.fontPoints >= kSmallestFittedFont && fitted.fontPoints <= kDefaultFigureFont,
                     qPrintable(where));
            QVERIFY(!figureImage(view, fitted).isNull());
            // The layout stays as the figure left it (the window is not shown, so nothing redraws).
            const QRect figure(QPoint(0, 0), fitted.layoutSize());
            std::vector<std::pair<QString, QRect>> parts;
            for (QCPAxisRect *rect : view->plot()->axisRects()) {
                const int line = QFontMetrics(rect->axis(QCPAxis::atBottom)->tickLabelFont()).height();
                QVERIFY2(rect->height() >= view->figurePlotLines().height() * line - 1 &&
                             rect->width() >= view->figurePlotLines().width() * line - 1,
                         qPrintable(where + QStringLiteral(": a plot %1 units tall").arg(rect->height())));
                parts.emplace_back(QStringLiteral("a plot"), rect->rect());
            }
            for (QCPLayoutElement *e : view->plot()->plotLayout()->elements(true)) {
                if (auto *text = qobject_cast<QCPTextElement *>(e); text && !text->text().isEmpty())
                    parts.emplace_back(QStringLiteral("the text '%1'").arg(text->text().left(30)), text->rect());
                else if (auto *legend = qobject_cast<QCPLegend *>(e); legend && legend->visible() &&
                                                                      legend->itemCount() > 0 &&
                                                                      !qobject_cast<QCPLayoutInset *>(legend->layout()))
                    parts.emplace_back(QStringLiteral("a legend"), legend->rect());
                else if (auto *scale = qobject_cast<QCPColorScale *>(e); scale && scale->visible())
                    parts.emplace_back(QStringLiteral("a colour bar"), scale->axis()->axisRect()->rect());
            }
            for (std::size_t a = 0; a < parts.size(); ++a) {
                QVERIFY2(figure.contains(parts[a].second),
                         qPrintable(where + QStringLiteral(": %1 past the edge").arg(parts[a].first)));
                for (std::size_t b = a + 1; b < parts.size(); ++b)
                    QVERIFY2(!parts[a].second.intersects(parts[b].second),
                             qPrintable(where + QStringLiteral(": %1 on %2").arg(parts[a].first, parts[b].first)));
            }
        }
    }
}

QTEST_MAIN(TestFigureWindow)
#include "tst_figure_window.moc"

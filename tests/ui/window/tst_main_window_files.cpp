// The window's files (ui/main_window_files.cpp): a position table opened, figures exported, copied
// and saved all at once, small exports' layout, the encoding's and the views' data saved.
#include "checkpoint_files.h"
#include "encodings/position_table.h"
#include "encodings/scheme.h"
#include "export/data_export.h"
#include "figures/figure_export.h"
#include "figures/plot_view.h"
#include "scheme_support.h"
#include "state/parameters.h"
#include "state/session.h"
#include "state/view_registry.h"
#include "test_support.h"
#include "window/main_window.h"

#include <qcustomplot.h>

#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QAction>
#include <QClipboard>
#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QImageReader>
#include <QInputDialog>
#include <QJsonObject>
#include <QLabel>
#include <QSet>
#include <QSettings>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

class TestMainWindowFiles : public QObject
{
    Q_OBJECT

  private slots:
    void positionTableInTheWindow();
    void checkpointTableInTheWindow();
    void exportFigureWritesPng();
    void exportFigureRefusesBadPaths();
    void smallExportsKeepTheirLayout();
    void exportDataFromTheWindow();
    void copyFigureAndExportAll();
    void exportDialogChangesNothingOnScreen();
};

// File > Export figure on the clocks, opened and cancelled: the window's figure is as it was, and
// the preview is the exported figure (the dialog once drew rims too large and scattered hands, and
// left the clocks laid out anew on screen).
void TestMainWindowFiles::exportDialogChangesNothingOnScreen()
{
    Parameters p;
    QVERIFY(!p.set(testsupport::params(40, 64)));
    MainWindow w(&p);
    w.resize(1200, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.showView(QStringLiteral("clocks"));
    PlotView *clocks = w.currentView();
    QApplication::processEvents();
    const QImage before = clocks->plot()->grab().toImage();
    QImage preview;
    QTimer::singleShot(0, [&] {
        auto *dialog = qobject_cast<QDialog *>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        auto *picture = dialog->findChild<QLabel *>(QStringLiteral("exportPreview"));
        QTRY_VERIFY_WITH_TIMEOUT(!picture->pixmap().isNull(), 5000);
        preview = picture->pixmap().toImage();
        if (qEnvironmentVariableIsSet("PE_KEEP_FIGURES"))
            preview.save(QStringLiteral("/tmp/export-preview.png"));
        dialog->reject();
    });
    QAction *exportAction = nullptr;
    for (QAction *a : w.findChildren<QAction *>())
        if (a->text().remove(QLatin1Char('&')).startsWith(QStringLiteral("Export figure")))
            exportAction = a;
    QVERIFY(exportAction);
    exportAction->trigger();
    QApplication::processEvents();
    QVERIFY(!preview.isNull());
    const QImage after = clocks->plot()->grab().toImage();
    if (qEnvironmentVariableIsSet("PE_KEEP_FIGURES")) {
        before.save(QStringLiteral("/tmp/clocks-before.png"));
        after.save(QStringLiteral("/tmp/clocks-after.png"));
    }
    QCOMPARE(after, before);
}

void TestMainWindowFiles::exportFigureWritesPng()
{
    QTemporaryDir dir;
    Parameters p;
    MainWindow w(&p);
    for (const ViewInfo &info : viewRegistry()) {
        const QString path = dir.filePath(info.id + QStringLiteral(".png"));
        QString error;
        QVERIFY(showScheme(p, info));
        QVERIFY2(exportFigure(w.view(info.id), path, {QSize(640, 480), 1.5}, &error), qPrintable(error));
        QImageReader reader(path);
        QCOMPARE(reader.size(), QSize(960, 720));
        const QImage img = reader.read();
        QVERIFY(!img.isNull());
        QSet<QRgb> colours;
        for (int y = 0; y < img.height(); y += 5)
            for (int x = 0; x < img.width(); x += 5)
                colours.insert(img.pixel(x, y));
        QVERIFY2(colours.size() > 20, qPrintable(info.id)); // a drawn figure, not a blank page
    }
}

void TestMainWindowFiles::exportFigureRefusesBadPaths()
{
    QTemporaryDir dir;
    Parameters p;
    MainWindow w(&p);
    QString error;
    QVERIFY(!exportFigure(w.currentView(), dir.filePath(QStringLiteral("nope/x.png")), {}, &error));
    QVERIFY2(error.contains(QStringLiteral("No such file or directory")), qPrintable(error));
    QVERIFY(!exportFigure(w.currentView(), dir.filePath(QStringLiteral("x.jpg")), {}, &error));
    QVERIFY(error.contains(QStringLiteral(".png")));
    QVERIFY(!exportFigure(w.currentView(), dir.filePath(QStringLiteral("x.png")), {QSize(10, 10), 1}, &error));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 0);
}

void TestMainWindowFiles::smallExportsKeepTheirLayout()
{
    // Down to 400 x 300 every view keeps plots of a usable size and a title that leaves them room
    // (seed000-circles at 500 x 500 once ran its tick labels together and its titles into the scale).
    Parameters p;
    QVERIFY(!p.set(testsupport::params(100, 18, 1e4)));
    MainWindow w(&p);
    for (const ViewInfo &info : viewRegistry()) {
        QVERIFY(showScheme(p, info));
        PlotView *v = w.view(info.id);
        for (QSize size : {QSize(400, 300), QSize(500, 500)}) {
            QVERIFY(!v->render(size, 1).isNull());
            auto *title = v->plot()->findChild<QCPTextElement *>();
            QVERIFY2(!title || title->outerRect().height() <= 0.3 * size.height(),
                     qPrintable(QStringLiteral("%1 at %2 px: title %3 px high")
                                    .arg(info.id)
                                    .arg(size.height())
                                    .arg(title->outerRect().height())));
            for (QCPAxisRect *rect : v->plot()->axisRects())
                QVERIFY2(rect->width() >= 40 && rect->height() >= 30,
                         qPrintable(QStringLiteral("%1 at %2x%3: a plot of %4 x %5 px")
                                        .arg(info.id)
                                        .arg(size.width())
                                        .arg(size.height())
                                        .arg(rect->width())
                                        .arg(rect->height())));
            if (info.id == QLatin1String("inputs")) // stacked panels: one position is one x on all three
                for (QCPAxisRect *rect : v->plot()->axisRects())
                    QVERIFY2(rect->left() == v->plot()->axisRect()->left() &&
                                 rect->right() == v->plot()->axisRect()->right(),
                             qPrintable(QStringLiteral("inputs at %1x%2: panel %3-%4, first %5-%6")
                                            .arg(size.width())
                                            .arg(size.height())
                                            .arg(rect->left())
                                            .arg(rect->right())
                                            .arg(v->plot()->axisRect()->left())
                                            .arg(v->plot()->axisRect()->right())));
        }
    }
}

void TestMainWindowFiles::exportDataFromTheWindow()
{
    QTemporaryDir dir;
    Parameters p;
    QVERIFY(!p.set(testsupport::params(3000, 64, 1e4, 7)));
    MainWindow w(&p);
    QString error;
    const QString npy = dir.filePath(QStringLiteral("e.npy"));
    QVERIFY2(w.saveData(npy, false, &error), qPrintable(error));
    QCOMPARE(QFileInfo(npy).size(), qint64(pe::npyHeader({3000, 64}).size() + 3000 * 64 * 8));
    QVERIFY(w.saveData(dir.filePath(QStringLiteral("f.csv")), true, &error));
    QVERIFY(!w.saveData(dir.filePath(QStringLiteral("x.txt")), false, &error));
    QVERIFY(error.contains(QStringLiteral(".csv or .npy")));
    QVERIFY(!w.saveData(dir.filePath(QStringLiteral("missing/x.csv")), false, &error));
    QVERIFY(error.contains(QStringLiteral("No such file")));

    // The current view's own data: similarity to the current position, then the projection's
    // coordinates once it has drawn them; the relative view's pairs; the clocks' angles.
    QVERIFY(!p.set(testsupport::params(128, 8)));
    QVERIFY(p.setPosition(30));
    w.showView(QStringLiteral("similarity"));
    const QString sim = dir.filePath(QStringLiteral("sim.csv"));
    QVERIFY2(w.saveViewData(sim, &error), qPrintable(error));
    const QStringList simLines =
        QString::fromUtf8(testsupport::readFile(sim)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(simLines.size(), 129);
    QCOMPARE(simLines[0], QStringLiteral("position,similarity"));
    QCOMPARE(simLines[31], QStringLiteral("30,4")); // PE(30) . PE(30) = d / 2
    w.showView(QStringLiteral("projection"));
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.currentView()->finishWork();
    QTRY_VERIFY_WITH_TIMEOUT(w.currentView()->dataTable().has_value(), 20000);
    const QString proj = dir.filePath(QStringLiteral("proj.npy"));
    QVERIFY2(w.saveViewData(proj, &error), qPrintable(error));
    // position, x, y: the CSV's columns
    QCOMPARE(QFileInfo(proj).size(), qint64(pe::npyHeader({128, 3}).size() + 128 * 3 * 8));
    w.showView(QStringLiteral("relative"));
    QVERIFY2(w.saveViewData(dir.filePath(QStringLiteral("relative.csv")), &error), qPrintable(error));
    const QStringList rel = QString::fromUtf8(testsupport::readFile(dir.filePath(QStringLiteral("relative.csv"))))
                                .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(rel.size(), 1 + 4); // d 8: four pairs
    QCOMPARE(rel[0], QStringLiteral("pair,omega,wavelength,T11,T12,T21,T22,reading"));
    w.showView(QStringLiteral("clocks"));
    QVERIFY2(w.saveViewData(dir.filePath(QStringLiteral("clocks.csv")), &error), qPrintable(error));
    QVERIFY(testsupport::readFile(dir.filePath(QStringLiteral("clocks.csv")))
                .startsWith("position,pair0,pair1,pair2,pair3\n"));
}

void TestMainWindowFiles::copyFigureAndExportAll()
{
    Parameters p;
    QVERIFY(!p.set(testsupport::params(40, 16)));
    MainWindow w(&p);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QAction *copy = nullptr;
    for (QAction *a : w.findChildren<QAction *>())
        if (a->text() == QStringLiteral("&Copy figure"))
            copy = a;
    QVERIFY(copy);
    QApplication::clipboard()->clear();
    copy->trigger();
    const QImage image = QApplication::clipboard()->image();
    const qreal dpr = w.currentView()->devicePixelRatioF();
    QCOMPARE(image.size(), (QSizeF(w.currentView()->plot()->size()) * dpr).toSize());
    QTemporaryDir dir;
    QString error;
    QVERIFY2(w.saveAllFigures(dir.filePath(QStringLiteral("figs")), FigureFormat::Svg,
                              FigureOptions{QSize(400, 300), 1.0}, &error),
             qPrintable(error));
    // Every view that draws the scheme shown; the others are named as skipped.
    const auto drawn = std::count_if(viewRegistry().begin(), viewRegistry().end(),
                                     [&p](const ViewInfo &info) { return info.schemeProblem(p.values()).isEmpty(); });
    QCOMPARE(QDir(dir.filePath(QStringLiteral("figs"))).entryList({QStringLiteral("*.svg")}).size(),
             static_cast<int>(drawn));
}

// File > Open table: a refused file changes nothing; a good one sets d_model and the window, disables
// what does not apply (saying why), draws on every view, is undoable and kept by the session.
void TestMainWindowFiles::positionTableInTheWindow()
{
    QTemporaryDir dir;
    Parameters p;
    QVERIFY(!p.set(testsupport::params(200, 16)));
    MainWindow w(&p);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const pe::EncodingParams before = p.values();
    QString error;
    QVERIFY(!w.openTable(dir.filePath(QStringLiteral("missing.npy")), &error));
    QVERIFY(error.contains(QStringLiteral("does not exist")));
    QVERIFY(p.values() == before);

    const QString path = dir.filePath(QStringLiteral("sin.npy"));
    pe::EncodingParams source = testsupport::params(300, 12);
    std::string why;
    QVERIFY(pe::writeTable(pe::encodingTable(pe::Encoding(source)), path.toStdString(), pe::DataFormat::Npy, why));
    QVERIFY2(w.openTable(path, &error), qPrintable(error));
    QVERIFY(p.values().table);
    QCOMPARE(p.values().dModel, 12);
    QCOMPARE(p.values().seqLen, 300);
    auto *dModel = w.findChild<QAbstractSpinBox *>(QStringLiteral("d_modelSpin"));
    auto *base = w.findChild<QAbstractSlider *>(QStringLiteral("baseSlider"));
    QVERIFY(dModel && base);
    QVERIFY(!dModel->isEnabled() && !base->isEnabled());
    QVERIFY(dModel->toolTip().contains(QStringLiteral("column count of sin.npy")));
    for (const ViewInfo &info : viewRegistry()) {
        w.showView(info.id);
        w.currentView()->finishWork();
        // A table is drawn by every view of the schemes with vectors; RoPE's and ALiBi's own say why not.
        // The grid draws a table on a ViT's grid or one given (--grid), and says so for this one.
        const bool drawsTables =
            (info.schemes.empty() || std::count(info.schemes.begin(), info.schemes.end(), pe::SchemeId::Table) > 0) &&
            info.id != QLatin1String("grid");
        QVERIFY2(w.currentView()->cannotDraw().isEmpty() == drawsTables, qPrintable(info.id));
        p.stepPosition(7);
    }
    // Past the table's last row the position stops: rows end there.
    p.stepPosition(1000);
    QCOMPARE(p.position(), 299);
    const Session s = w.currentSession();
    QVERIFY(sessionToJson(s)
                .value(QStringLiteral("parameters"))
                .toObject()
                .value(QStringLiteral("table"))
                .toString()
                .endsWith(QStringLiteral("sin.npy")));
    w.undoStack()->undo();
    QVERIFY(!p.values().table);
    QVERIFY(dModel->isEnabled());
    QVERIFY(w.applySession(s, &error));
    QVERIFY(p.values().table);
    w.closeTable();
    QVERIFY(!p.values().table);
    QCOMPARE(p.values().dModel, 12);
}

void TestMainWindowFiles::checkpointTableInTheWindow()
{
    // A checkpoint with two tables named as such: the chooser lists them, the one picked opens with
    // its convention stated; cancelling opens nothing.
    QTemporaryDir dir;
    Parameters p;
    QVERIFY(!p.set(testsupport::params(50, 16)));
    MainWindow w(&p);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const std::string bytes =
        checkpoint::safetensors({{"model.encoder.embed_positions.weight",
                                  "F32",
                                  {1026, 8},
                                  checkpoint::f32(std::vector<double>(1026 * 8, 0.5))},
                                 {"model.decoder.embed_positions.weight",
                                  "BF16",
                                  {1026, 8},
                                  checkpoint::bf16(std::vector<double>(1026 * 8, -1))},
                                 {"model.shared.weight", "F32", {3, 8}, checkpoint::f32(std::vector<double>(24, 0))}});
    const QString path = dir.filePath(QStringLiteral("bart.safetensors"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes.data(), static_cast<qint64>(bytes.size()));
    f.close();
    QStringList offered;
    QTimer::singleShot(0, [&] {
        auto *dialog = qobject_cast<QInputDialog *>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        offered = dialog->comboBoxItems();
        dialog->setTextValue(offered.at(1));
        dialog->accept();
    });
    const QString spec = w.chooseTensor(path, false);
    QCOMPARE(offered.size(), 3); // the two candidates first, then the other float tensor
    QVERIFY(offered.at(2).startsWith(QStringLiteral("model.shared.weight")));
    QCOMPARE(spec, path + QStringLiteral(":model.decoder.embed_positions.weight"));
    QString error;
    QVERIFY2(w.openTable(spec, &error), qPrintable(error));
    QCOMPARE(p.values().seqLen, 1024); // BART's offset of 2
    QCOMPARE(p.values().table->value(0, 0), -1.0);
    QVERIFY(QString::fromStdString(pe::formulaText(p.values())).contains(QStringLiteral("row p + 2")));
    QTimer::singleShot(0, [] {
        if (auto *dialog = qobject_cast<QInputDialog *>(QApplication::activeModalWidget()))
            dialog->reject();
    });
    QVERIFY(w.chooseTensor(path, false).isEmpty());
    // A file it cannot read is left for the opening to refuse.
    QCOMPARE(w.chooseTensor(dir.filePath(QStringLiteral("missing.safetensors")), false),
             dir.filePath(QStringLiteral("missing.safetensors")));
}

QTEST_MAIN(TestMainWindowFiles)
#include "tst_main_window_files.moc"

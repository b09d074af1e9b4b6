// Issue 33's figure settings: the colour scale's limits (--vmin, --vmax, --robust, --colorbar-label)
// on every view with a colour bar and the legend's place (--legend) on every view with a legend, as
// the figure draws them; View > Figure title, markers, legend and colours; the command line's refusals.
#include "analysis/reduction.h"
#include "command_line.h"
#include "encodings/position_table.h"
#include "export/data_export.h"
#include "figures/math_text.h"
#include "figures/plot_view.h"
#include "figures/view_factory.h"
#include "state/parameters.h"
#include "state/view_registry.h"
#include "test_support.h"
#include "window/figure_title_dialog.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QFile>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <memory>

namespace {

std::vector<QCPColorScale *> colourBars(PlotView *view)
{
    std::vector<QCPColorScale *> out;
    for (QCPLayoutElement *e : view->plot()->plotLayout()->elements(true))
        if (auto *s = qobject_cast<QCPColorScale *>(e))
            out.push_back(s);
    return out;
}

// The parameters each view draws: RoPE for the grid and attention, ALiBi and T5 for theirs.
pe::EncodingParams paramsFor(const QString &id)
{
    pe::EncodingParams p;
    p.seqLen = 40;
    p.dModel = 16;
    if (id == QLatin1String("grid") || id == QLatin1String("attention"))
        p.scheme = pe::SchemeId::Rope;
    if (id == QLatin1String("grid"))
        p.seqLen = 36;
    if (id == QLatin1String("alibi"))
        p.scheme = pe::SchemeId::Alibi;
    if (id == QLatin1String("buckets"))
        p.scheme = pe::SchemeId::T5;
    return p;
}

// Numpy's percentile ('linear') from a sorted copy, written from its definition.
double sortedPercentile(std::vector<double> v, double q)
{
    std::sort(v.begin(), v.end());
    const double h = static_cast<double>(v.size() - 1) * q / 100.0;
    const auto lo = static_cast<std::size_t>(std::floor(h));
    const std::size_t hi = std::min(lo + 1, v.size() - 1);
    const double f = h - static_cast<double>(lo);
    return f >= 0.5 ? v[hi] - (v[hi] - v[lo]) * (1 - f) : v[lo] + (v[hi] - v[lo]) * f;
}

} // namespace

class TestFigureSettings : public QObject
{
    Q_OBJECT

  private slots:
    void percentileIsNumpys();
    void everyColourBarTakesTheLimits();
    void limitsStayAfterAPositionStep();
    void robustLimitsAreTheDrawnCellsPercentiles();
    void oneLimitPastTheDataIsSaid();
    void positionColoursTakeLimitsNotRobust();
    void dialogEditsTheColours();
    void commandLineRefusals();
    void legendGoesWhereAsked();
    void bestLegendCoversFewestPoints();
    void everyFigureHasItsData();
    void mathInLabels();
    void aspectEqualKeepsUnits();
};

void TestFigureSettings::percentileIsNumpys()
{
    // numpy.percentile([1, 2, 3, 4], [2, 98]) = [1.06, 3.94]; NaN left out (a masked cell).
    std::vector<double> a{4, std::nan(""), 1, 3, 2};
    QCOMPARE(pe::percentile(a, 2), 1.06);
    std::vector<double> b{4, 1, 3, 2};
    QCOMPARE(pe::percentile(b, 98), 3.94);
    std::vector<double> one{7};
    QCOMPARE(pe::percentile(one, 98), 7.0);
    std::vector<double> none{std::nan("")};
    QVERIFY(std::isnan(pe::percentile(none, 50)));
    // 10,001 values in a scrambled order against the sorted definition, at several q.
    std::vector<double> many;
    for (int i = 0; i <= 10000; ++i)
        many.push_back(std::sin(0.37 * i * i) * std::exp(0.0003 * i));
    for (double q : {0.0, 2.0, 37.5, 50.0, 98.0, 100.0}) {
        std::vector<double> copy = many;
        QCOMPARE(pe::percentile(copy, q), sortedPercentile(many, q));
    }
}

void TestFigureSettings::everyColourBarTakesTheLimits()
{
    // Every view declaring the colour settings: each colour bar runs from --vmin to --vmax with the
    // label given, the colour maps drawn through it too; cleared, the view's own range and label return.
    int views = 0;
    for (const ViewInfo &info : viewRegistry()) {
        if (!findSetting(info.settings, QStringLiteral("colorMin")))
            continue;
        ++views;
        Parameters params;
        QVERIFY(!params.set(paramsFor(info.id)));
        std::unique_ptr<PlotView> view(createView(info, &params, nullptr));
        view->setCompleteFigures(true);
        QVERIFY(!view->render(QSize(900, 700), 1).isNull());
        const std::vector<QCPColorScale *> bars = colourBars(view.get());
        QVERIFY2(!bars.empty(), qPrintable(info.id));
        std::vector<QCPRange> own;
        std::vector<QString> ownLabels;
        for (QCPColorScale *s : bars) {
            own.push_back(s->dataRange());
            ownLabels.push_back(s->axis()->label());
        }
        QVERIFY(!view->applySettings({{QStringLiteral("colorMin"), QStringLiteral("-0.25")},
                                      {QStringLiteral("colorMax"), QStringLiteral("0.75")},
                                      {QStringLiteral("colorLabel"), QStringLiteral("my label")}}));
        QVERIFY(!view->render(QSize(900, 700), 1).isNull());
        for (QCPColorScale *s : colourBars(view.get())) {
            QVERIFY2(s->dataRange() == QCPRange(-0.25, 0.75), qPrintable(info.id));
            QCOMPARE(s->axis()->label(), QStringLiteral("my label"));
        }
        for (int i = 0; i < view->plot()->plottableCount(); ++i)
            if (auto *map = qobject_cast<QCPColorMap *>(view->plot()->plottable(i)); map && map->colorScale())
                QVERIFY2(map->dataRange() == QCPRange(-0.25, 0.75), qPrintable(info.id));
        // "auto" is the view's own again.
        QVERIFY(!view->applySettings({{QStringLiteral("colorMin"), QStringLiteral("auto")},
                                      {QStringLiteral("colorMax"), QString()},
                                      {QStringLiteral("colorLabel"), QString()}}));
        QVERIFY(!view->render(QSize(900, 700), 1).isNull());
        const std::vector<QCPColorScale *> again = colourBars(view.get());
        QCOMPARE(again.size(), own.size());
        for (std::size_t i = 0; i < again.size(); ++i) {
            QVERIFY2(again[i]->dataRange() == own[i], qPrintable(info.id));
            QCOMPARE(again[i]->axis()->label(), ownLabels[i]);
        }
        // --vmin at or above --vmax: the view cannot draw it, and says why.
        QVERIFY(!view->applySettings(
            {{QStringLiteral("colorMin"), QStringLiteral("1")}, {QStringLiteral("colorMax"), QStringLiteral("1")}}));
        QVERIFY2(view->cannotDraw().contains(QStringLiteral("is not below --vmax")), qPrintable(view->cannotDraw()));
    }
    QCOMPARE(views, 9); // heatmap, circles, distance, inputs, projection, grid, attention, alibi, buckets
}

void TestFigureSettings::limitsStayAfterAPositionStep()
{
    // On the screen a position step redraws a view without a whole rebuild (PlotView::positionMoved):
    // --vmin and --vmax still colour every bar and map after it (ALiBi's, T5's, the grid's and the
    // attention's bars once went back to their own range until the next parameter change).
    for (const ViewInfo &info : viewRegistry()) {
        if (!findSetting(info.settings, QStringLiteral("colorMin")))
            continue;
        Parameters params;
        QVERIFY(!params.set(paramsFor(info.id)));
        std::unique_ptr<PlotView> view(createView(info, &params, nullptr));
        view->resize(900, 700);
        view->show();
        QVERIFY(QTest::qWaitForWindowExposed(view.get()));
        QVERIFY(!view->applySettings({{QStringLiteral("colorMin"), QStringLiteral("-0.25")},
                                      {QStringLiteral("colorMax"), QStringLiteral("0.75")}}));
        for (const std::int64_t t : {7, 8, 20}) {
            QVERIFY(params.setPosition(t));
            QCoreApplication::processEvents();
            for (QCPColorScale *s : colourBars(view.get()))
                QVERIFY2(s->dataRange() == QCPRange(-0.25, 0.75),
                         qPrintable(QStringLiteral("%1 at %2").arg(info.id).arg(t)));
            for (int i = 0; i < view->plot()->plottableCount(); ++i)
                if (auto *map = qobject_cast<QCPColorMap *>(view->plot()->plottable(i)); map && map->colorScale())
                    QVERIFY2(map->dataRange() == QCPRange(-0.25, 0.75),
                             qPrintable(QStringLiteral("%1's map at %2").arg(info.id).arg(t)));
        }
    }
}

void TestFigureSettings::robustLimitsAreTheDrawnCellsPercentiles()
{
    // A learned-like table whose outlier column sets the colour scale: robust limits are the 2nd
    // and 98th percentiles of its values (every cell drawn at this size), said in the colour bar.
    const std::int64_t n = 60, d = 60;
    std::string bytes = pe::npyHeader({n, d});
    std::vector<double> values;
    for (std::int64_t t = 0; t < n; ++t)
        for (std::int64_t j = 0; j < d; ++j) {
            double v = 0.1 * std::sin(0.05 * static_cast<double>(t * (j + 1)));
            if (j == 17) // one column in 60: fewer than 2% of the values
                v *= 60;
            values.push_back(v);
            bytes.append(reinterpret_cast<const char *>(&v), sizeof v);
        }
    Parameters params;
    QVERIFY(!params.set(
        pe::tableParams({}, pe::PositionTable::fromBytes(reinterpret_cast<const unsigned char *>(bytes.data()),
                                                         bytes.size(), "wpe.npy"))));
    std::unique_ptr<PlotView> view(createView(*findView(QStringLiteral("heatmap")), &params, nullptr));
    QVERIFY(!view->applySettings({{QStringLiteral("colorRobust"), true}, {QStringLiteral("cellValues"), false}}));
    QVERIFY(!view->render(QSize(1000, 900), 1).isNull());
    QCPColorScale *bar = colourBars(view.get()).front();
    QCOMPARE(bar->dataRange().lower, sortedPercentile(values, 2));
    QCOMPARE(bar->dataRange().upper, sortedPercentile(values, 98));
    QVERIFY2(bar->axis()->label().contains(QStringLiteral("(2–98th pct)")), qPrintable(bar->axis()->label()));
    QVERIFY(bar->dataRange().upper < 0.5 * pe::valueBound(params.values())); // the outliers no longer set it
    // A limit given wins on its side; the other stays robust.
    QVERIFY(!view->applySettings({{QStringLiteral("colorMax"), QStringLiteral("5")}}));
    QVERIFY(!view->render(QSize(1000, 900), 1).isNull());
    QCOMPARE(bar->dataRange().lower, sortedPercentile(values, 2));
    QCOMPARE(bar->dataRange().upper, 5.0);
    QCOMPARE(bar->axis()->label(), QStringLiteral("value (low end 2nd pct)")); // says which end is robust
    // A label given is the label, word for word.
    QVERIFY(!view->applySettings({{QStringLiteral("colorLabel"), QStringLiteral("PE value")}}));
    QVERIFY(!view->render(QSize(1000, 900), 1).isNull());
    QCOMPARE(bar->axis()->label(), QStringLiteral("PE value"));
}

void TestFigureSettings::oneLimitPastTheDataIsSaid()
{
    // The sinusoids' heatmap runs from -1 to 1; --vmin 3 alone leaves no room below the data's top:
    // the span is kept (3 to 5) and the colour bar says every value lies below.
    Parameters params;
    std::unique_ptr<PlotView> view(createView(*findView(QStringLiteral("heatmap")), &params, nullptr));
    QVERIFY(!view->applySettings({{QStringLiteral("colorMin"), QStringLiteral("3")}}));
    QVERIFY(!view->render(QSize(800, 600), 1).isNull());
    QCPColorScale *bar = colourBars(view.get()).front();
    QVERIFY(bar->dataRange() == QCPRange(3, 5));
    QVERIFY2(bar->axis()->label().contains(QStringLiteral("every value below 3")), qPrintable(bar->axis()->label()));
}

void TestFigureSettings::positionColoursTakeLimitsNotRobust()
{
    // The circles colour each dot by its position: --vmin and --vmax move the dots' colours with the
    // bar; positions are evenly spread, so there is no --robust for them.
    const ViewInfo *circles = findView(QStringLiteral("circles"));
    QVERIFY(findSetting(circles->settings, QStringLiteral("colorMin")));
    QVERIFY(!findSetting(circles->settings, QStringLiteral("colorRobust")));
    Parameters params;
    std::unique_ptr<PlotView> view(createView(*circles, &params, nullptr));
    QVERIFY(view->applySettings({{QStringLiteral("colorRobust"), true}})); // refused: not declared
    QVERIFY(!view->applySettings({{QStringLiteral("colorMax"), QStringLiteral("20")}}));
    const QImage limited = view->render(QSize(700, 700), 1);
    QVERIFY(colourBars(view.get()).front()->dataRange() == QCPRange(0, 20));
    QVERIFY(!view->applySettings({{QStringLiteral("colorMax"), QStringLiteral("auto")}}));
    const QImage own = view->render(QSize(700, 700), 1);
    QVERIFY(colourBars(view.get()).front()->dataRange() == QCPRange(0, 49));
    QVERIFY(limited != own); // the dots changed colour, not only the bar
}

void TestFigureSettings::dialogEditsTheColours()
{
    const ViewInfo *heatmap = findView(QStringLiteral("heatmap"));
    Parameters params;
    std::unique_ptr<PlotView> view(createView(*heatmap, &params, nullptr));
    FigureTitleDialog dialog(heatmap->title, view->settings(), heatmap->settings);
    QVERIFY(dialog.hasColours());
    auto *low = dialog.findChild<QLineEdit *>(QStringLiteral("figureColorMin"));
    auto *high = dialog.findChild<QLineEdit *>(QStringLiteral("figureColorMax"));
    auto *robust = dialog.findChild<QCheckBox *>(QStringLiteral("figureColorRobust"));
    auto *label = dialog.findChild<QLineEdit *>(QStringLiteral("figureColorLabel"));
    QVERIFY(low && high && robust && label);
    low->setText(QStringLiteral("0.5"));
    high->setText(QStringLiteral("0.1"));
    QVERIFY2(dialog.problem().contains(QStringLiteral("is not below")), qPrintable(dialog.problem()));
    high->setText(QStringLiteral("ten"));
    QVERIFY2(dialog.problem().contains(QStringLiteral("auto or a number")), qPrintable(dialog.problem()));

    high->setText(QStringLiteral("0.9"));
    robust->setChecked(true);
    label->setText(QStringLiteral("PE(t, j)"));
    QVERIFY(dialog.problem().isEmpty());
    QVERIFY(!view->applySettings(dialog.values()));
    QCOMPARE(view->settings().value(QStringLiteral("colorLabel")).toString(), QStringLiteral("PE(t, j)"));
    QVERIFY(!view->render(QSize(800, 600), 1).isNull());
    QVERIFY(colourBars(view.get()).front()->dataRange() == QCPRange(0.5, 0.9));
    // A view without a colour bar has no colour rows.
    const ViewInfo *frequencies = findView(QStringLiteral("frequencies"));
    FigureTitleDialog plain(frequencies->title, {}, frequencies->settings);
    QVERIFY(!plain.hasColours());
    QVERIFY(!plain.values().contains(QStringLiteral("colorMin")));
}

void TestFigureSettings::commandLineRefusals()
{
    // The flags of a figure exported to x.png (words apart by spaces); the parse's refusal, or empty.
    const auto error = [](const char *words, const QStringList &more = {}) {
        const QStringList args = QStringList{QStringLiteral("pe-explorer")} +
                                 QString::fromLatin1(words).split(QLatin1Char(' ')) + more +
                                 QStringList{QStringLiteral("--out"), QStringLiteral("x.png")};
        return parseCommandLine(args).error;
    };
    QVERIFY(error("--export heatmap --vmin -0.5 --vmax 0.5 --robust --colorbar-label PE").isEmpty());
    QVERIFY(error("--export heatmap --vmin auto").isEmpty());
    QVERIFY(error("--export heatmap --vmin 1 --vmax 0").contains(QStringLiteral("--vmin 1 is not below --vmax 0")));
    QVERIFY(error("--export heatmap --vmin 1e400").contains(QStringLiteral("--vmin:")));
    QVERIFY(error("--export heatmap --vmax nan").contains(QStringLiteral("--vmax:")));
    QVERIFY(error("--export heatmap --vmin", {QString()}).contains(QStringLiteral("empty")));
    QVERIFY(error("--export heatmap --vmax", {QStringLiteral(" ")}).contains(QStringLiteral("the value is empty")));
    // QCustomPlot draws colour ranges of sizes from 1e-280 to 1e250 only: limits past them are refused.
    QVERIFY(error("--export heatmap --vmin 0 --vmax 1e300").contains(QStringLiteral("--vmax:")));
    QVERIFY(error("--export heatmap --vmin 1e-320 --vmax 1e-319").contains(QStringLiteral("closer than")));
    // A flag the exported view would ignore is refused, naming the views it applies to.
    const QString ignored = error("--export frequencies --robust");
    QVERIFY2(ignored.contains(QStringLiteral("--robust applies to the heatmap")) &&
                 ignored.contains(QStringLiteral("not to frequencies")),
             qPrintable(ignored));
    QVERIFY(error("--export circles --robust").contains(QStringLiteral("not to circles")));
    QVERIFY(error("--export circles --vmax 10").isEmpty());
    QVERIFY(error("--export frequencies --legend best").isEmpty());
    QVERIFY(error("--export heatmap --legend best").contains(QStringLiteral("not to heatmap")));
    QVERIFY(error("--export frequencies --legend middle").contains(QStringLiteral("--legend")));
    // --font: an installed family (fonts-dejavu-core comes with the program's packages), or refused.
    QVERIFY(error("--export heatmap --font", {QStringLiteral("DejaVu Serif")}).isEmpty());
    QVERIFY(error("--export heatmap --font", {QStringLiteral("No Such Family 42")})
                .startsWith(QStringLiteral("--font: Qt finds no font family 'No Such Family 42'")));
    QVERIFY(error("--export-data frequencies --font", {QStringLiteral("DejaVu Serif")})
                .contains(QStringLiteral("goes with")));
    // A figure's own flags with a data export are refused, not ignored.
    for (const char *flags : {"--export-data encoding --robust", "--export-data encoding --vmin 0",
                              "--export-data frequencies --legend best", "--export-data encoding --marker 5",
                              "--export-data projection --aspect equal", "--export-data encoding --colorbar-label x"})
        QVERIFY2(error(flags).contains(QStringLiteral("shapes a figure")), flags);
    QVERIFY(error("--export-data encoding --title", {QStringLiteral("T")}).contains(QStringLiteral("--title shapes")));
    QVERIFY(!error("--export-data distance --metric cosine").contains(QStringLiteral("shapes a figure")));
}

void TestFigureSettings::legendGoesWhereAsked()
{
    // Every view with a legend, every place: above or below every plot, inside the main plot at
    // its corner, or hidden; never over the title.
    int views = 0;
    for (const ViewInfo &info : viewRegistry()) {
        const ViewSetting *legendSetting = findSetting(info.settings, QStringLiteral("legend"));
        if (!legendSetting)
            continue;
        ++views;
        Parameters params;
        pe::EncodingParams p;
        p.scheme = pe::SchemeId::Rope;
        p.rope.scaling = pe::RopeScaling::Yarn;
        p.rope.factor = 4;
        p.seqLen = 8192;
        if (info.id != QLatin1String("frequencies"))
            QVERIFY(!params.set(p));
        std::unique_ptr<PlotView> view(createView(info, &params, nullptr));
        // The projection's legend is its labels' (--color-by labels:FILE): none by position.
        QTemporaryDir labelsDir;
        if (info.id == QLatin1String("projection")) {
            const QString labels = labelsDir.filePath(QStringLiteral("labels.csv"));
            QFile f(labels);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("0,first\n1,second\n2,third\n");
            f.close();
            QVERIFY(!params.set(testsupport::params(300, 16)));
            QVERIFY(!view->applySettings({{QStringLiteral("colorBy"), QStringLiteral("labels:") + labels},
                                          {QStringLiteral("projectionMethod"), QStringLiteral("pca")}}));
        }
        for (const QString &where : legendSetting->choices) {
            QVERIFY(!view->applySettings({{QStringLiteral("legend"), where}}));
            QVERIFY(!view->render(QSize(900, 650), 1).isNull());
            QCPLegend *legend = view->plot()->legend;
            QVERIFY(legend);
            const QString what = info.id + QLatin1Char(' ') + where;
            if (where == QLatin1String("off")) {
                QVERIFY2(!legend->visible(), qPrintable(what));
                continue;
            }
            QVERIFY2(legend->visible(), qPrintable(what));
            const QRect box = legend->outerRect();
            const QRect main = view->plot()->axisRect()->rect();
            int top = main.top(), bottom = main.bottom();
            for (QCPAxisRect *r : view->plot()->axisRects()) {
                top = std::min(top, r->rect().top());
                bottom = std::max(bottom, r->rect().bottom());
            }
            if (where == QLatin1String("above"))
                QVERIFY2(box.bottom() < top, qPrintable(what));
            else if (where == QLatin1String("below"))
                QVERIFY2(box.top() > bottom, qPrintable(what));
            else if (where != QLatin1String("best")) {
                QVERIFY2(main.contains(box), qPrintable(what));
                const bool upper = where.startsWith(QLatin1String("upper")),
                           left = where.endsWith(QLatin1String("left"));
                const QString at = what + QStringLiteral(": box %1,%2 %3x%4 in %5,%6 %7x%8")
                                              .arg(box.x())
                                              .arg(box.y())
                                              .arg(box.width())
                                              .arg(box.height())
                                              .arg(main.x())
                                              .arg(main.y())
                                              .arg(main.width())
                                              .arg(main.height());
                // In its corner: nearer the asked sides than the opposite ones, a line's gap at most.
                const int gapTop = box.top() - main.top(), gapBottom = main.bottom() - box.bottom();
                const int gapLeft = box.left() - main.left(), gapRight = main.right() - box.right();
                const int line = QFontMetrics(legend->font()).height();
                QVERIFY2(upper ? gapTop < gapBottom && gapTop <= line : gapBottom < gapTop && gapBottom <= line,
                         qPrintable(at));
                QVERIFY2(left ? gapLeft < gapRight && gapLeft <= line : gapRight < gapLeft && gapRight <= line,
                         qPrintable(at));
            } else { // best: a corner over no data, or above the plots when every corner has some
                QVERIFY2(main.contains(box) || box.bottom() < top, qPrintable(what));
            }
            for (QCPLayoutElement *e : view->plot()->plotLayout()->elements(false))
                if (auto *title = qobject_cast<QCPTextElement *>(e); title && !title->text().isEmpty())
                    QVERIFY2(!title->outerRect().intersects(box), qPrintable(what));
        }
    }
    QCOMPARE(views, 5); // frequencies, projection (its labels), scaling, rope-decay, precision
}

void TestFigureSettings::bestLegendCoversFewestPoints()
{
    // loc='best': the legend's box over no more of the curves' points than at any other corner.
    Parameters params;
    pe::EncodingParams p;
    p.scheme = pe::SchemeId::Rope;
    p.seqLen = 4096;
    QVERIFY(!params.set(p));
    std::unique_ptr<PlotView> view(createView(*findView(QStringLiteral("rope-decay")), &params, nullptr));
    const auto covered = [&view] {
        const QRect box = view->plot()->legend->outerRect();
        std::int64_t n = 0;
        for (int i = 0; i < view->plot()->graphCount(); ++i) {
            QCPGraph *g = view->plot()->graph(i);
            if (g->keyAxis()->axisRect() != view->plot()->axisRect())
                continue;
            for (const QCPGraphData &d : *g->data())
                n += box.contains(QPoint(static_cast<int>(g->keyAxis()->coordToPixel(d.key)),
                                         static_cast<int>(g->valueAxis()->coordToPixel(d.value))));
        }
        return n;
    };
    QVERIFY(!view->applySettings({{QStringLiteral("legend"), QStringLiteral("best")}}));
    QVERIFY(!view->render(QSize(900, 650), 1).isNull());
    const std::int64_t best = covered();
    for (const char *corner : {"upper-left", "upper-right", "lower-left", "lower-right"}) {
        QVERIFY(!view->applySettings({{QStringLiteral("legend"), QString::fromLatin1(corner)}}));
        QVERIFY(!view->render(QSize(900, 650), 1).isNull());
        QVERIFY2(best <= covered(), corner);
    }
}

namespace {

// A data kind's table for a state, as --export-data computes it.
pe::Table dataOf(const QString &kind, const pe::EncodingParams &p, const QJsonObject &settings = {},
                 std::int64_t position = -1)
{
    const auto k = findDataKind(kind);
    DataRequest r{std::make_shared<const pe::Encoding>(p),
                  {},
                  position < 0 ? p.startPos : position,
                  completeSettings(k->view->settings, settings)};
    if (k->data->problem) {
        const QString why = k->data->problem(r);
        if (!why.isEmpty())
            qFatal("%s: %s", qPrintable(kind), qPrintable(why));
    }
    return k->data->make(r);
}

std::vector<double> valuesOf(const pe::Table &t)
{
    std::vector<double> v(static_cast<std::size_t>(t.rows * t.cols));
    t.fill(0, t.rows, v.data());
    return v;
}

} // namespace

void TestFigureSettings::everyFigureHasItsData()
{
    // The numbers behind the figures a paper draws, and NPY files with the CSV's columns.
    QTemporaryDir dir;
    pe::EncodingParams sinusoidal;
    sinusoidal.seqLen = 64;
    sinusoidal.dModel = 16;
    // NPY: the frequencies' index (the pair) first, as the CSV's; the encoding stays its matrix.
    std::string error;
    const std::string freq = dir.filePath(QStringLiteral("f.npy")).toStdString();
    QVERIFY(pe::writeTable(dataOf(QStringLiteral("frequencies"), sinusoidal), freq, pe::DataFormat::Npy, error));
    QFile f(QString::fromStdString(freq));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    const pe::Table frequencies = dataOf(QStringLiteral("frequencies"), sinusoidal);
    QVERIFY(bytes.contains(QByteArray("'shape': (") + QByteArray::number(frequencies.rows) + ", " +
                           QByteArray::number(frequencies.cols + 1) + ")"));
    const auto *cells = reinterpret_cast<const double *>(bytes.constData() + bytes.indexOf('\n') + 1);
    for (std::int64_t r = 0; r < frequencies.rows; ++r)
        QCOMPARE(cells[r * (frequencies.cols + 1)], static_cast<double>(frequencies.indexOf(r)));
    QCOMPARE(cells[1], valuesOf(frequencies)[0]);
    const std::string enc = dir.filePath(QStringLiteral("e.npy")).toStdString();
    QVERIFY(pe::writeTable(dataOf(QStringLiteral("encoding"), sinusoidal), enc, pe::DataFormat::Npy, error));
    QFile e(QString::fromStdString(enc));
    QVERIFY(e.open(QIODevice::ReadOnly));
    QVERIFY(e.readAll().contains("'shape': (64, 16)"));

    // The recovery figure's accuracy against σ: σ = 0 to 2, exact at 0 (seed 001's noise-free case).
    const pe::Table sigma = dataOf(QStringLiteral("recovery-sigma"), sinusoidal);
    QCOMPARE(sigma.rows, 21);
    const std::vector<double> acc = valuesOf(sigma);
    QCOMPARE(acc[0], 0.0);
    QCOMPARE(acc[1], 1.0);
    QVERIFY(std::abs(acc[40] - 2.0) < 1e-12);

    // One attention row at 20,000 positions (above the 10,000 of the whole matrix), its weights
    // summing to 1, with --compare's RoPE row beside it.
    pe::EncodingParams wide = sinusoidal;
    wide.seqLen = 20'000;
    const pe::Table row =
        dataOf(QStringLiteral("attention-row"), wide, {{QStringLiteral("attentionCompare"), true}}, 12'345);
    QCOMPARE(row.rows, 20'000);
    QCOMPARE(row.columnHeaders, (std::vector<std::string>{"weight", "weight_rope"}));
    const std::vector<double> w = valuesOf(row);
    double sum = 0, sumRope = 0;
    for (std::int64_t s = 0; s < row.rows; ++s) {
        sum += w[static_cast<std::size_t>(2 * s)];
        sumRope += w[static_cast<std::size_t>(2 * s + 1)];
    }
    QVERIFY(std::abs(sum - 1) < 1e-9 && std::abs(sumRope - 1) < 1e-9);
    std::vector<double> direct(20'000);
    pe::PositionalAttention(pe::Encoding(wide), {}).row(12'345, 0, 20'000, direct.data());
    QCOMPARE(w[2 * 12'345], direct[12'345]);

    // RoPE's random q and k, as the attention and decay compute them.
    pe::EncodingParams rope = sinusoidal;
    rope.scheme = pe::SchemeId::Rope;
    const pe::Table qk =
        dataOf(QStringLiteral("qk"), rope,
               {{QStringLiteral("attentionQk"), QStringLiteral("random")}, {QStringLiteral("attentionSeed"), 7}});
    QCOMPARE(qk.rows, 16);
    const std::vector<double> qkv = valuesOf(qk);
    const std::vector<double> q = pe::queryKeyVector(pe::QueryKey::Random, 16, 7, 0);
    const std::vector<double> k = pe::queryKeyVector(pe::QueryKey::Random, 16, 7, 1);
    for (int j = 0; j < 16; ++j) {
        QCOMPARE(qkv[static_cast<std::size_t>(2 * j)], q[static_cast<std::size_t>(j)]);
        QCOMPARE(qkv[static_cast<std::size_t>(2 * j + 1)], k[static_cast<std::size_t>(j)]);
    }

    // The decay's random band at every offset (the figure's mean and ± 1 sd).
    const pe::Table decay = dataOf(QStringLiteral("rope-decay"), rope);
    QCOMPARE(decay.columnHeaders, (std::vector<std::string>{"score", "bound", "random_mean", "random_sd"}));

    // The distance matrix's column at any N: cosine 1 at the position itself.
    pe::EncodingParams longer = sinusoidal;
    longer.seqLen = 30'000;
    const pe::Table column =
        dataOf(QStringLiteral("distance-column"), longer, {{QStringLiteral("metric"), QStringLiteral("cosine")}}, 777);
    QCOMPARE(column.rows, 30'000);
    QCOMPARE(column.columnHeaders, std::vector<std::string>{"cosine"});
    QVERIFY(std::abs(valuesOf(column)[777] - 1) < 1e-12);
}

void TestFigureSettings::mathInLabels()
{
    // matplotlib's mathtext between dollars: Greek, symbols, sub- and superscripts in Unicode's
    // small forms; a script Unicode cannot set stays written out; outside dollars nothing changes.
    QCOMPARE(mathText(QStringLiteral("$\\omega_i = 10^{-4}$")), QStringLiteral("ωᵢ = 10⁻⁴"));
    QCOMPARE(mathText(QStringLiteral("$\\theta_{2i}$ and $\\Theta^2$")), QStringLiteral("θ₂ᵢ and Θ²"));
    QCOMPARE(mathText(QStringLiteral("$x_{q}$")), QStringLiteral("x_{q}")); // no subscript q
    QCOMPARE(mathText(QStringLiteral("$e^{\\beta t}$")), QStringLiteral("eᵝᵗ"));
    QCOMPARE(mathText(QStringLiteral("$\\alpha \\cdot \\sqrt{d}$")), QStringLiteral("α · √d"));
    QCOMPARE(mathText(QStringLiteral("file_name_2 costs $5")), QStringLiteral("file_name_2 costs $5"));
    QCOMPARE(mathText(QStringLiteral("\\$x_1\\$")), QStringLiteral("$x_1$"));
    QCOMPARE(mathText(QStringLiteral("$\\unknown_1$")), QStringLiteral("\\unknown₁"));
    QCOMPARE(mathText(QStringLiteral("$a_$")), QStringLiteral("a_"));
    QCOMPARE(mathText(QString()), QString());
    QCOMPARE(mathText(QStringLiteral("$\\mathrm{PE}_{t}$")), QStringLiteral("PEₜ"));
    // On a figure: the title and the colour bar's label set, the settings kept as typed.
    Parameters params;
    QVERIFY(!params.set(paramsFor(QStringLiteral("heatmap"))));
    std::unique_ptr<PlotView> view(createView(*findView(QStringLiteral("heatmap")), &params, nullptr));
    QVERIFY(!view->applySettings({{QStringLiteral("title"), QStringLiteral("PE at $\\omega_i$")},
                                  {QStringLiteral("colorLabel"), QStringLiteral("$\\sin(t\\omega_i)$")}}));
    QVERIFY(!view->render(QSize(700, 500), 1).isNull());
    QCOMPARE(view->plot()->findChild<QCPTextElement *>()->text(), QStringLiteral("PE at ωᵢ"));
    QCOMPARE(colourBars(view.get()).front()->axis()->label(), QStringLiteral("sin(tωᵢ)"));
    QCOMPARE(view->settings().value(QStringLiteral("title")).toString(), QStringLiteral("PE at $\\omega_i$"));
}

void TestFigureSettings::aspectEqualKeepsUnits()
{
    // --aspect equal: on every plot of the circles (their default) and the projection, a unit is as
    // many pixels on x as on y, and no range narrowed below the view's own (nothing cut); auto
    // gives each axis its own side.
    for (const QString &id : {QStringLiteral("circles"), QStringLiteral("projection")}) {
        Parameters params;
        QVERIFY(!params.set(paramsFor(id)));
        std::unique_ptr<PlotView> view(createView(*findView(id), &params, nullptr));
        view->setCompleteFigures(true);
        QCOMPARE(view->settings().value(QStringLiteral("aspect")).toString(),
                 id == QLatin1String("circles") ? QStringLiteral("equal") : QStringLiteral("auto"));
        QVERIFY(!view->applySettings({{QStringLiteral("aspect"), QStringLiteral("auto")}}));
        QVERIFY(!view->render(QSize(900, 400), 1).isNull());
        std::vector<std::pair<QCPRange, QCPRange>> own;
        for (QCPAxisRect *r : view->plot()->axisRects())
            own.emplace_back(r->axis(QCPAxis::atBottom)->range(), r->axis(QCPAxis::atLeft)->range());
        QVERIFY(!view->applySettings({{QStringLiteral("aspect"), QStringLiteral("equal")}}));
        QVERIFY(!view->render(QSize(900, 400), 1).isNull());
        const QList<QCPAxisRect *> rects = view->plot()->axisRects();
        QCOMPARE(std::size_t(rects.size()), own.size());
        for (int k = 0; k < rects.size(); ++k) {
            const QCPRange x = rects[k]->axis(QCPAxis::atBottom)->range(), y = rects[k]->axis(QCPAxis::atLeft)->range();
            const double px = rects[k]->width() / x.size(), py = rects[k]->height() / y.size();
            QVERIFY2(std::abs(px - py) <= 1e-6 * px, qPrintable(id + QStringLiteral(" %1 vs %2").arg(px).arg(py)));
            QVERIFY(x.lower <= own[k].first.lower + 1e-9 && x.upper >= own[k].first.upper - 1e-9);
            QVERIFY(y.lower <= own[k].second.lower + 1e-9 && y.upper >= own[k].second.upper - 1e-9);
        }
    }
}

QTEST_MAIN(TestFigureSettings)
#include "tst_figure_settings.moc"

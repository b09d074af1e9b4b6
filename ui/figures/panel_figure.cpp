#include "figures/panel_figure.h"

#include "figures/plot_view.h"

#include <QImage>
#include <QPainter>
#include <QRegularExpression>

#include <qcustomplot.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <memory>

QStringList panelLabelStyles()
{
    return {QStringLiteral("(a)"), QStringLiteral("a"),  QStringLiteral("(A)"),
            QStringLiteral("A"),   QStringLiteral("a)"), QStringLiteral("off")};
}

std::optional<QString> parsePanelGrid(const QString &text, int panels, PanelGrid *grid)
{
    static const QRegularExpression re(QStringLiteral("^(\\d{1,2})x(\\d{1,2})$"));
    const auto m = re.match(text.trimmed());
    if (!m.hasMatch())
        return QObject::tr("'%1' is not a grid of panels: ROWSxCOLUMNS, as 1x2 or 2x2.").arg(text);
    const int rows = m.captured(1).toInt(), columns = m.captured(2).toInt();
    if (rows < 1 || columns < 1)
        return QObject::tr("a grid of panels has a row and a column at least (got %1).").arg(text);
    if (rows * columns < panels)
        return QObject::tr("%1 holds %2 panels, fewer than the %3 views named.")
            .arg(text.trimmed())
            .arg(rows * columns)
            .arg(panels);
    if ((rows - 1) * columns >= panels)
        return QObject::tr("%1 would leave its last row empty for %2 views; give %3x%4.")
            .arg(text.trimmed())
            .arg(panels)
            .arg((panels + columns - 1) / columns)
            .arg(columns);
    if (grid) {
        grid->rows = rows;
        grid->columns = columns;
    }
    return std::nullopt;
}

std::optional<QString> parsePanelLabels(const QString &text, PanelGrid *grid)
{
    if (!panelLabelStyles().contains(text.trimmed()))
        return QObject::tr("'%1' is not a style of panel labels; choose %2.")
            .arg(text, panelLabelStyles().join(QStringLiteral(", ")));
    grid->labels = text.trimmed();
    return std::nullopt;
}

QString panelLabel(const QString &style, int index)
{
    if (style == QLatin1String("off") || style.isEmpty())
        return {};
    const bool upper = style.contains(QLatin1Char('A'));
    const QChar letter = QChar((upper ? u'A' : u'a') + index % 26);
    QString label = style;
    label.replace(upper ? QLatin1Char('A') : QLatin1Char('a'), letter);
    return label;
}

namespace {

// A view as a panel, for as long as it lives: its insets and label, then none.
class AsPanel
{
  public:
    AsPanel(PlotView *view, QMargins insets, const QString &label)
        : view_(view)
    {
        view_->setPanel(insets, label);
    }
    ~AsPanel() { view_->setPanel({}, {}, false); }
    AsPanel(const AsPanel &) = delete;
    AsPanel &operator=(const AsPanel &) = delete;

  private:
    PlotView *view_;
};

// Every view in the figure's type for as long as it lives.
struct FigureTypes {
    std::vector<std::unique_ptr<FigureType>> types;
    FigureTypes(const std::vector<PlotView *> &views, const FigureOptions &options)
    {
        for (PlotView *view : views)
            types.push_back(
                std::make_unique<FigureType>(view, options.textPoints(), options.fontFamily, options.transparent));
    }
};

// Cell k of the grid on a page of `size` (points or pixels): the page split evenly, rounded so the
// cells tile it.
QRect cellOf(int k, const PanelGrid &grid, QSizeF size)
{
    const int r = k / grid.columns, c = k % grid.columns;
    const auto at = [](int i, int n, double length) { return static_cast<int>(std::lround(i * length / n)); };
    return QRect(QPoint(at(c, grid.columns, size.width()), at(r, grid.rows, size.height())),
                 QPoint(at(c + 1, grid.columns, size.width()) - 1, at(r + 1, grid.rows, size.height()) - 1));
}

// The placements fitPanels measured, or measured now when it had none (a pixel size in the
// window's type) or they are not these views'.
std::vector<PanelPlacement> placementsFor(const std::vector<PlotView *> &views, const FigureOptions &options,
                                          const PanelGrid &grid, const std::vector<PanelPlacement> &placed)
{
    return placed.size() == views.size() ? placed : placePanels(views, options, grid);
}

} // namespace

std::vector<PanelPlacement> placePanels(const std::vector<PlotView *> &views, const FigureOptions &options,
                                        const PanelGrid &grid)
{
    const int n = static_cast<int>(views.size());
    std::vector<PanelPlacement> placed(static_cast<std::size_t>(n));
    std::vector<bool> labelLine(placed.size(), false);
    for (int k = 0; k < n; ++k)
        placed[k].cell = cellOf(k, grid, QSizeF(options.layoutSize()));
    const FigureTypes type(views, options);
    const auto measure = [&](int k) {
        PanelPlacement &p = placed[k];
        const AsPanel panel(views[k], p.insets, panelLabel(grid.labels, k));
        views[k]->figureNeeds(p.cell.size());
        const PlotView::FigureLayout &f = views[k]->figureLayout();
        const QPoint at = p.cell.topLeft();
        p.needs = f.needs;
        p.plots = f.plots.translated(at);
        p.label = f.label.isEmpty() ? QRect() : f.label.translated(at);
        p.texts.clear();
        for (const QRect &t : f.texts)
            p.texts.push_back(t.translated(at));
    };
    // A layout moved by its insets may change (a tick label wider at another range): measured
    // again until every edge holds, a few rounds at most.
    for (int round = 0; round < 8; ++round) {
        for (int k = 0; k < n; ++k)
            measure(k);
        bool moved = false;
        // A label over its panel's title or legend, or so low that the top tick label (centred on
        // the plots' top edge) reaches it, gets a line of its own above the panel.
        for (int k = 0; k < n; ++k) {
            PanelPlacement &p = placed[k];
            if (p.label.isEmpty() || labelLine[k])
                continue;
            // Half a line clear of a title beside it (closer, "(b) Frequency decay" read as one title).
            const int gap = std::max(1, p.label.height() / 4), beside = std::max(1, p.label.height() / 2);
            const QRect clear = p.label.adjusted(-beside, -gap, beside, gap);
            const bool clash =
                clear.bottom() + p.label.height() / 2 >= p.plots.top() ||
                std::any_of(p.texts.begin(), p.texts.end(), [&clear](const QRect &t) { return t.intersects(clear); });
            if (clash) {
                p.insets.setTop(p.insets.top() + p.label.bottom() - p.cell.top() + gap);
                labelLine[k] = true;
                moved = true;
            }
        }
        if (moved)
            continue;
        // Each row's plots from the lowest top to the highest bottom of its panels, each column's
        // from the rightmost left edge to the leftmost right one: the others' margins grow by the
        // difference.
        std::vector<int> top(grid.rows, INT_MIN), bottom(grid.rows, INT_MAX), left(grid.columns, INT_MIN),
            right(grid.columns, INT_MAX);
        for (int k = 0; k < n; ++k) {
            const QRect &r = placed[k].plots;
            const int row = k / grid.columns, column = k % grid.columns;
            top[row] = std::max(top[row], r.top() - placed[k].cell.top());
            bottom[row] = std::min(bottom[row], r.bottom() - placed[k].cell.top());
            left[column] = std::max(left[column], r.left() - placed[k].cell.left());
            right[column] = std::min(right[column], r.right() - placed[k].cell.left());
        }
        for (int k = 0; k < n; ++k) {
            PanelPlacement &p = placed[k];
            const int row = k / grid.columns, column = k % grid.columns;
            const QRect r = p.plots.translated(-p.cell.topLeft());
            const QMargins more(left[column] - r.left(), top[row] - r.top(), r.right() - right[column],
                                r.bottom() - bottom[row]);
            if (more.left() > 0 || more.top() > 0 || more.right() > 0 || more.bottom() > 0) {
                p.insets += QMargins(std::max(0, more.left()), std::max(0, more.top()), std::max(0, more.right()),
                                     std::max(0, more.bottom()));
                moved = true;
            }
        }
        if (!moved)
            break;
    }
    return placed;
}

FigureOptions fitPanels(const std::vector<PlotView *> &views, const FigureOptions &options, const PanelGrid &grid,
                        QString *problem, std::vector<PanelPlacement> *placed)
{
    std::vector<PanelPlacement> last;
    const FigureOptions fitted = fitType(
        options,
        [&](double points, const FigureOptions &at) {
            FigureOptions o = at;
            o.fontPoints = points;
            last = placePanels(views, o, grid);
            // Each panel in its cell; what the page needs, named in the grid's whole cells.
            FigureNeed n{true, {}};
            QSize most;
            for (const PanelPlacement &p : last) {
                most = most.expandedTo(p.needs);
                n.fits = n.fits && figureFits(p.needs, p.cell.size());
            }
            n.size = QSize(most.width() * grid.columns, most.height() * grid.rows);
            return n;
        },
        QObject::tr("the %1x%2 panels, aligned,").arg(grid.rows).arg(grid.columns), problem);
    // The placements measured last are the fitted type's when it fits (fitType's last measure).
    if (placed)
        *placed = problem->isEmpty() && (options.isPhysical() || options.fontPoints > 0)
                      ? std::move(last)
                      : std::vector<PanelPlacement>{};
    return fitted;
}

QImage panelImage(const std::vector<PlotView *> &views, const FigureOptions &options, const PanelGrid &grid,
                  const std::vector<PanelPlacement> &measured)
{
    const std::vector<PanelPlacement> placed = placementsFor(views, options, grid, measured);
    const QSize layout = options.layoutSize(), pixels = options.pixelSize();
    QImage page(pixels, QImage::Format_ARGB32_Premultiplied);
    page.fill(Qt::transparent);
    QPainter painter(&page);
    const FigureTypes type(views, options);
    for (std::size_t k = 0; k < views.size(); ++k) {
        // The cell's pixels: the page's pixels split as its points are, so the cells tile it.
        const QRect cell = placed[k].cell;
        const double sx = double(pixels.width()) / layout.width(), sy = double(pixels.height()) / layout.height();
        const QPoint from(std::lround(cell.left() * sx), std::lround(cell.top() * sy));
        const QPoint to(std::lround((cell.right() + 1) * sx), std::lround((cell.bottom() + 1) * sy));
        const AsPanel panel(views[k], placed[k].insets, panelLabel(grid.labels, static_cast<int>(k)));
        const QImage image = views[k]->render(cell.size(), QSize(to.x() - from.x(), to.y() - from.y()));
        if (image.isNull())
            return {};
        painter.drawImage(from, image);
    }
    painter.end();
    const int dotsPerMetre = static_cast<int>(std::lround(options.dpi / 0.0254));
    page.setDotsPerMeterX(dotsPerMetre);
    page.setDotsPerMeterY(dotsPerMetre);
    return page;
}

QImage panelPreview(const std::vector<PlotView *> &views, const FigureOptions &options, const PanelGrid &grid,
                    double pixelRatio, QString *note)
{
    QString problem;
    std::vector<PanelPlacement> placed;
    const FigureOptions fitted = fitPanels(views, options, grid, &problem, &placed);
    return panelImage(views,
                      previewOptions(options, fitted, problem, pixelRatio,
                                     QObject::tr("Type %1 pt in every panel: the largest up to %2 pt at which every "
                                                 "panel keeps its room."),
                                     note),
                      grid, placed);
}

FigurePage panelPage(const std::vector<PlotView *> &views, const FigureOptions &options, const PanelGrid &grid,
                     const std::vector<PanelPlacement> &measured)
{
    FigurePage page;
    page.image = [=] { return panelImage(views, options, grid, measured); };
    page.vectors = [=](QCPPainter *painter) {
        const std::vector<PanelPlacement> placed = placementsFor(views, options, grid, measured);
        const FigureTypes type(views, options);
        for (std::size_t k = 0; k < views.size(); ++k) {
            const AsPanel panel(views[k], placed[k].insets, panelLabel(grid.labels, static_cast<int>(k)));
            painter->save();
            painter->translate(placed[k].cell.topLeft());
            views[k]->renderTo(painter, placed[k].cell.size(), options.pixelRatio());
            painter->restore();
        }
    };
    page.dpi = views.front()->plot()->logicalDpiY();
    return page;
}

QByteArray panelBytes(const std::vector<PlotView *> &views, FigureFormat format, const FigureOptions &options,
                      const PanelGrid &grid, const std::vector<PanelPlacement> &measured)
{
    if (views.empty())
        return {};
    return pageBytes(format, options, panelPage(views, options, grid, measured));
}

bool exportPanels(const std::vector<PlotView *> &views, const QString &path, const FigureOptions &options,
                  const PanelGrid &grid, QString *error, const std::vector<PanelPlacement> &placed)
{
    std::optional<QString> problem = checkFigureOptions(options);
    if (!problem)
        problem = checkFigurePath(path);
    for (std::size_t k = 0; k < views.size() && !problem; ++k)
        if (const QString why = views[k]->cannotDraw(); !why.isEmpty())
            problem = QObject::tr("panel %1: %2").arg(panelLabel(QStringLiteral("(a)"), static_cast<int>(k)), why);
    if (!problem && (views.empty() || static_cast<int>(views.size()) > grid.rows * grid.columns))
        problem = QObject::tr("the grid of %1x%2 panels does not hold %3 views.")
                      .arg(grid.rows)
                      .arg(grid.columns)
                      .arg(views.size());
    if (problem) {
        *error = *problem;
        return false;
    }
    return writeFigure(
        path, [&] { return panelBytes(views, *figureFormatForPath(path), options, grid, placed); }, error);
}

#pragma once

#include "figures/figure_export.h"

#include <QMargins>
#include <QRect>
#include <QString>

#include <optional>
#include <vector>

class PlotView;

// Several views in one figure (--export heatmap,frequencies --panels 1x2, File > Export figure
// with more than one view ticked): a grid of panels of equal size, filled row by row, one type for
// them all, each labelled at its top-left corner. The plots of a row share their top and bottom and
// those of a column their left and right edge, as matplotlib's subplots with shared axes line up:
// a panel whose own layout leaves its plots elsewhere gets margins around its layout until they do.
struct PanelGrid {
    int rows = 1, columns = 1;
    QString labels = QStringLiteral("(a)"); // the labels' style (panelLabelStyles), or "off"
};

inline constexpr int kMaxPanels = 12;
// The labels a style gives the first panel: "(a)", "a", "(A)", "A", "a)", and "off" for none.
QStringList panelLabelStyles();

// "RxC" for `panels` views: room for them all, and no row left empty. One sentence when not; the
// grid is set when given.
std::optional<QString> parsePanelGrid(const QString &text, int panels, PanelGrid *grid);
// A style of panelLabelStyles(). One sentence when not.
std::optional<QString> parsePanelLabels(const QString &text, PanelGrid *grid);
// The label of panel `index` (from 0) in a style: "(b)" for 1 in "(a)"; empty for "off".
QString panelLabel(const QString &style, int index);

// Where a panel goes on the page, in the layout's points.
struct PanelPlacement {
    QRect cell;               // the panel's share of the page
    QMargins insets;          // around its view's layout inside the cell: its alignment and its label's line
    QRect plots;              // its plots' union, on the page
    QRect label;              // its label, on the page (empty without one)
    std::vector<QRect> texts; // its titles' and legends' text, on the page
    QSize needs;              // what its layout needs, insets included; more than the cell and parts overlap
};

// The panels placed at the options' type (fitPanels'): in their cells, their plots aligned along
// rows and columns, each label clear of its panel's texts and plots (else the panel moves down a
// line under it).
std::vector<PanelPlacement> placePanels(const std::vector<PlotView *> &views, const FigureOptions &options,
                                        const PanelGrid &grid);

// One type for every panel: the one given, or (a physical size) the largest from
// kDefaultFigureFont down to kSmallestFittedFont at which every panel, placed, fits its cell. When
// none does, `problem` names the size the figure needs, and the caller refuses it.
// `placed`, when given, gets the placements at the type chosen (empty when none was measured: a
// pixel size in the window's type, or no type fits), for the drawing below to take instead of
// placing the panels again.
FigureOptions fitPanels(const std::vector<PlotView *> &views, const FigureOptions &options, const PanelGrid &grid,
                        QString *problem, std::vector<PanelPlacement> *placed = nullptr);

// figurePreview for panels: fitted (the note says the type chosen, or the fit's problem) and drawn
// at pixelRatio device pixels a point.
QImage panelPreview(const std::vector<PlotView *> &views, const FigureOptions &options, const PanelGrid &grid,
                    double pixelRatio, QString *note);

// The panels' page at fitted options (panelBytes'); `views` not empty.
FigurePage panelPage(const std::vector<PlotView *> &views, const FigureOptions &options, const PanelGrid &grid,
                     const std::vector<PanelPlacement> &placed = {});
// The file's bytes of the panels in a format at fitted options; empty if drawing failed.
// `placed`: fitPanels' placements for these options; empty, they are measured here.
QByteArray panelBytes(const std::vector<PlotView *> &views, FigureFormat format, const FigureOptions &options,
                      const PanelGrid &grid, const std::vector<PanelPlacement> &placed = {});
// The PNG's image of the panels (its pixels, with the dpi set).
QImage panelImage(const std::vector<PlotView *> &views, const FigureOptions &options, const PanelGrid &grid,
                  const std::vector<PanelPlacement> &placed = {});

// exportFigure for several views: each must draw, the options are fitPanels', the file written
// atomically. False with error set if anything fails.
bool exportPanels(const std::vector<PlotView *> &views, const QString &path, const FigureOptions &options,
                  const PanelGrid &grid, QString *error, const std::vector<PanelPlacement> &placed = {});

#include "figures/color_maps.h"

#include "state/color_map_table.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>
#include <vector>

namespace colormaps {

QCPColorGradient gradient(const QString &name, bool reversed)
{
    const ColorMapStops *chosen = &colorMapTable().front();
    for (const ColorMapStops &m : colorMapTable())
        if (m.name == name)
            chosen = &m;
    QCPColorGradient g;
    g.clearColorStops();
    for (const auto &[pos, color] : chosen->stops)
        g.setColorStopAt(reversed ? 1.0 - pos : pos, color);
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    g.setLevelCount(350);
    return g;
}

namespace {

// QCPColorMapData keeps its cells, their bounds and its "changed since coloured" flag protected:
// pointers to those members, formed in a derived class, reach them.
struct CellsOf : QCPColorMapData {
    static constexpr double *QCPColorMapData::*cells = &CellsOf::mData;
    static constexpr QCPRange QCPColorMapData::*bounds = &CellsOf::mDataBounds;
    static constexpr bool QCPColorMapData::*modified = &CellsOf::mDataModified;
};

// A cell written only when its value changes (a NaN is the same as a NaN): QCustomPlot colours the
// whole image again after any write, and a view that fills the same cells on each step (the
// relative view's T(k)) would lose its scaled copy (VectorColorMap) to it.
void setChangedCell(QCPColorMapData *data, int key, int value, double z)
{
    const double now = data->cell(key, value);
    if (!(now == z || (std::isnan(now) && std::isnan(z))))
        data->setCell(key, value, z);
}

} // namespace

bool cellsChangedSinceColoured(const QCPColorMapData *data)
{
    return data->*CellsOf::modified;
}

QCPColorMapData *placeColorMap(QCPColorMap *map, int rows, int cols, double firstRow, double lastRow, double firstCol,
                               double lastCol, bool rowsOnKeyAxis)
{
    const int dataRows = std::max(rows, 2);
    const int dataCols = std::max(cols, 2);
    const QCPRange rowRange = rows > 1 ? QCPRange(firstRow, lastRow) : QCPRange(firstRow - 0.25, firstRow + 0.25);
    const QCPRange colRange = cols > 1 ? QCPRange(firstCol, lastCol) : QCPRange(firstCol - 0.25, firstCol + 0.25);
    QCPColorMapData *data = map->data();
    const int keys = rowsOnKeyAxis ? dataRows : dataCols;
    const int values = rowsOnKeyAxis ? dataCols : dataRows;
    if (data->keySize() != keys || data->valueSize() != values)
        data->setSize(keys, values);
    if (rowsOnKeyAxis)
        data->setRange(rowRange, colRange);
    else
        data->setRange(colRange, rowRange);
    return data;
}

void fillColorMap(QCPColorMap *map, int rows, int cols, double firstRow, double lastRow, double firstCol,
                  double lastCol, bool rowsOnKeyAxis, const std::function<double(int row, int col)> &value)
{
    QCPColorMapData *data = placeColorMap(map, rows, cols, firstRow, lastRow, firstCol, lastCol, rowsOnKeyAxis);
    const int dataRows = std::max(rows, 2);
    const int dataCols = std::max(cols, 2);
    for (int r = 0; r < dataRows; ++r)
        for (int c = 0; c < dataCols; ++c) {
            const double v = value(std::min(r, rows - 1), std::min(c, cols - 1));
            if (rowsOnKeyAxis)
                setChangedCell(data, r, c, v);
            else
                setChangedCell(data, c, r, v);
        }
}

void fillColorMap(QCPColorMap *map, int rows, int cols, double firstRow, double lastRow, double firstCol,
                  double lastCol, bool rowsOnKeyAxis, const double *rowMajor)
{
    QCPColorMapData *data = placeColorMap(map, rows, cols, firstRow, lastRow, firstCol, lastCol, rowsOnKeyAxis);
    const int dataRows = std::max(rows, 2);
    const int dataCols = std::max(cols, 2);
    if (!rowsOnKeyAxis && rows >= 2 && cols >= 2) {
        // Rows along the value axis are QCustomPlot's own rows (cell (key, value) at value x keys +
        // key): each is compared and copied whole, not set cell by cell through setCell and read
        // through cell() (a third of the heatmap's animation frame at 3840 x 2160, 6 million
        // cells). What setCell does besides is done once: the bounds widened, the image marked
        // to be coloured again, only when a row changed (bit for bit: a NaN is the same NaN; -0
        // against +0 counts as a change, an image coloured again for nothing, never a wrong one).
        double *cells = data->*CellsOf::cells;
        if (!cells) // its allocation failed: nothing to write to (setCell would crash as well)
            return;
        bool changed = false;
        QCPRange bounds = data->dataBounds();
        for (int r = 0; r < rows; ++r) {
            double *to = cells + static_cast<std::size_t>(r) * static_cast<std::size_t>(cols);
            const double *from = rowMajor + static_cast<std::size_t>(r) * static_cast<std::size_t>(cols);
            if (std::memcmp(to, from, sizeof(double) * static_cast<std::size_t>(cols)) == 0)
                continue;
            std::memcpy(to, from, sizeof(double) * static_cast<std::size_t>(cols));
            changed = true;
            for (int c = 0; c < cols; ++c) {
                bounds.lower = std::min(bounds.lower, from[c]);
                bounds.upper = std::max(bounds.upper, from[c]);
            }
        }
        if (changed) {
            data->*CellsOf::bounds = bounds;
            data->*CellsOf::modified = true;
        }
        return;
    }
    for (int r = 0; r < dataRows; ++r) {
        const double *row = rowMajor + static_cast<std::size_t>(std::min(r, rows - 1)) * static_cast<std::size_t>(cols);
        for (int c = 0; c < dataCols; ++c) {
            const double v = row[std::min(c, cols - 1)];
            if (rowsOnKeyAxis)
                setChangedCell(data, r, c, v);
            else
                setChangedCell(data, c, r, v);
        }
    }
}

} // namespace colormaps

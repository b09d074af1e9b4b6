#pragma once

#include <QString>
#include <QStringList>

#include <functional>

class QCPColorGradient;
class QCPColorMap;
class QCPColorMapData;

// The one colour-map helper: every view that colours values asks here.
namespace colormaps {

// The gradient for a name (state/color_map_table.h lists them; the first for an unknown one); `reversed` swaps its
// ends, as matplotlib's "_r" maps do (seed 000 uses coolwarm_r: red for -1, blue for +1).
QCPColorGradient gradient(const QString &name, bool reversed = false);

// Fills `map` with rows x cols cells, value(r, c), whose centres run from first to last row and
// column coordinate; rows go along the key (x) axis when rowsOnKeyAxis, else along the value axis.
// A single row or column is spread half a cell each way: QCPColorMap draws nothing for one cell.
// The data object is resized only when the size changes (QCPColorMapData drops its data then).
void fillColorMap(QCPColorMap *map, int rows, int cols, double firstRow, double lastRow, double firstCol,
                  double lastCol, bool rowsOnKeyAxis, const std::function<double(int row, int col)> &value);
// fillColorMap's first half: the data resized (only when the size changes: QCPColorMapData drops
// its data then) and placed over those coordinates, its cells left as they are. Cells that did not
// change (a window slid over the same values) are moved without being coloured again.
QCPColorMapData *placeColorMap(QCPColorMap *map, int rows, int cols, double firstRow, double lastRow, double firstCol,
                               double lastCol, bool rowsOnKeyAxis);
// True when the map's cells changed since QCustomPlot last coloured its image (QCPColorMapData's
// protected flag, read here for VectorColorMap and the tests: one place reaches past its API).
bool cellsChangedSinceColoured(const QCPColorMapData *data);
// The same from rows x cols values in row-major order, without a call a cell (a 1,024 x 1,024
// matrix on every position step).
void fillColorMap(QCPColorMap *map, int rows, int cols, double firstRow, double lastRow, double firstCol,
                  double lastCol, bool rowsOnKeyAxis, const double *rowMajor);

} // namespace colormaps

#include "figures/color_maps.h"

#include <qcustomplot.h>

#include <utility>
#include <vector>

namespace colormaps {

namespace {

struct Map {
    QString name;
    std::vector<std::pair<double, QColor>> stops;
};

const std::vector<Map> &maps()
{
    // Stops sampled from matplotlib's maps of the same names; "pastel blue" is seed 002's.
    static const std::vector<Map> all = {
        {QStringLiteral("coolwarm"),
         {{0.0, QColor(59, 76, 192)},
          {0.25, QColor(141, 176, 254)},
          {0.5, QColor(221, 221, 221)},
          {0.75, QColor(244, 154, 123)},
          {1.0, QColor(180, 4, 38)}}},
        {QStringLiteral("viridis"),
         {{0.0, QColor(0x44, 0x01, 0x54)},
          {0.125, QColor(0x48, 0x28, 0x78)},
          {0.25, QColor(0x3e, 0x4a, 0x89)},
          {0.375, QColor(0x31, 0x68, 0x8e)},
          {0.5, QColor(0x26, 0x82, 0x8e)},
          {0.625, QColor(0x1f, 0x9e, 0x89)},
          {0.75, QColor(0x35, 0xb7, 0x79)},
          {0.875, QColor(0x6e, 0xce, 0x58)},
          {1.0, QColor(0xfd, 0xe7, 0x25)}}},
        {QStringLiteral("plasma"),
         {{0.0, QColor(0x0d, 0x08, 0x87)},
          {0.25, QColor(0x7e, 0x03, 0xa8)},
          {0.5, QColor(0xcc, 0x47, 0x78)},
          {0.75, QColor(0xf8, 0x95, 0x40)},
          {1.0, QColor(0xf0, 0xf9, 0x21)}}},
        {QStringLiteral("grey"), {{0.0, QColor(0, 0, 0)}, {1.0, QColor(255, 255, 255)}}},
        {QStringLiteral("pastel blue"), {{0.0, QColor(255, 255, 255)}, {1.0, QColor(0xa3, 0xc1, 0xda)}}},
    };
    return all;
}

} // namespace

QStringList names()
{
    QStringList out;
    for (const Map &m : maps())
        out << m.name;
    return out;
}

QString defaultName()
{
    return maps().front().name;
}

QCPColorGradient gradient(const QString &name, bool reversed)
{
    const Map *chosen = &maps().front();
    for (const Map &m : maps())
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

void fillColorMap(QCPColorMap *map, int rows, int cols, double firstRow, double lastRow, double firstCol,
                  double lastCol, bool rowsOnKeyAxis, const std::function<double(int row, int col)> &value)
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
    for (int r = 0; r < dataRows; ++r)
        for (int c = 0; c < dataCols; ++c) {
            const double v = value(std::min(r, rows - 1), std::min(c, cols - 1));
            if (rowsOnKeyAxis)
                data->setCell(r, c, v);
            else
                data->setCell(c, r, v);
        }
}

} // namespace colormaps

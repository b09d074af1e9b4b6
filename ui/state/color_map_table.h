#pragma once

#include <QColor>
#include <QString>
#include <QStringList>

#include <utility>
#include <vector>

// The colour maps a view setting may name, as data: each one's stops (position 0 to 1, colour).
// figures/color_maps.h makes gradients of them; the heatmap's setting lists their names.
struct ColorMapStops {
    QString name;
    std::vector<std::pair<double, QColor>> stops;
};

// In menu order; the first is the default (diverging blue-grey-red, REFERENCE.md section 5).
const std::vector<ColorMapStops> &colorMapTable();
QStringList colorMapNames();

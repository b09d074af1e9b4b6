// What probe_view.cpp and probe_view_draw.cpp both use: the figure's colours.
#pragma once

#include <QColor>

namespace probe_view_internal {

const QColor kTrainColor(30, 90, 200);
const QColor kHeldColor(230, 120, 20);
const QColor kAtanColor(40, 140, 60);
const QColor kLossColor(120, 60, 160);

} // namespace probe_view_internal

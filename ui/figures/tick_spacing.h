// Tick spacing for an axis's labels: neighbouring labels never touch, whatever the type or the plot's size.
#pragma once

class QCPAxis;

// For the axis's labels' size now: a whole-number axis (IntegerTicker) gets a minimum step, a value
// axis fewer ticks (at most its default 5). Hidden axes and axes without tick labels are left alone.
// True when the spacing changed: ticks the axis made before the call are spaced the old way.
bool spaceTickLabels(QCPAxis *axis);

#pragma once

#include <QString>
#include <QStringList>

class QCPColorGradient;

// The one colour-map helper: every view that colours values asks here.
namespace colormaps {

// Names in menu order; the first is the default (diverging blue-grey-red, REFERENCE.md section 5).
QStringList names();
QString defaultName();
// The gradient for a name (the default for an unknown one); `reversed` swaps its ends, as
// matplotlib's "_r" maps do (seed 000 uses coolwarm_r: red for -1, blue for +1).
QCPColorGradient gradient(const QString &name, bool reversed = false);

} // namespace colormaps

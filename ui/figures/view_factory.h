#pragma once

#include "state/view_registry.h"

class Parameters;
class PlotView;
class QWidget;

// The widget that shows a registry entry, its controls given their ranges and defaults from the
// entry (PlotView::bindSettings). Defined with the list of view classes (views/view_list.cpp): the
// registry itself (state/) knows no widget.
PlotView *createView(const ViewInfo &info, Parameters *parameters, QWidget *parent);
// The registry id whose widget class is `viewClass` (a test makes a view by its class); empty for
// none.
QString viewIdOf(const QMetaObject *viewClass);

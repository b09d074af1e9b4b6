#pragma once

#include <QString>

#include <functional>
#include <vector>

class Parameters;
class PlotView;
class QWidget;

// Every figure view, in tab order. A new view is one class and one line in view_registry.cpp: the
// window's tabs, the View menu, File > Export figure and the command line's --export all read this.
struct ViewInfo {
    QString id;    // command-line name, e.g. "heatmap"
    QString title; // tab and menu text
    std::function<PlotView *(Parameters *, QWidget *)> create;
};

const std::vector<ViewInfo> &viewRegistry();
const ViewInfo *findView(const QString &id);
QStringList viewIds();

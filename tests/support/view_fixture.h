#pragma once

#include "figures/plot_view.h"
#include "state/parameters.h"
#include "state/view_registry.h"

#include <QSize>
#include <QTest>

#include <memory>
#include <type_traits>

// A view of type View on its own Parameters, created through the registry as the window and the
// command line create it, shown at a size and exposed: the start of every view test.
template <class View> struct ViewFixture {
    explicit ViewFixture(QSize size)
        : view(make())
    {
        view->resize(size);
        view->show();
    }
    std::unique_ptr<View> make()
    {
        if constexpr (std::is_base_of_v<PlotView, View>)
            return std::unique_ptr<View>(static_cast<View *>(findView(View::describe().id)->create(&params, nullptr)));
        else
            return std::make_unique<View>(&params);
    }
    bool exposed() { return QTest::qWaitForWindowExposed(view.get()); }

    Parameters params;
    std::unique_ptr<View> view;
};

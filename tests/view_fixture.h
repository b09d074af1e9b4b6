#pragma once

#include "parameters.h"

#include <QSize>
#include <QTest>

#include <memory>

// A view of type View on its own Parameters, shown at a size and exposed: the start of every
// view test.
template <class View> struct ViewFixture {
    explicit ViewFixture(QSize size)
        : view(std::make_unique<View>(&params))
    {
        view->resize(size);
        view->show();
    }
    bool exposed() { return QTest::qWaitForWindowExposed(view.get()); }

    Parameters params;
    std::unique_ptr<View> view;
};

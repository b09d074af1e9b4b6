#pragma once

#include "figures/plot_view.h"
#include "figures/view_factory.h"

#include "state/parameters.h"
#include "state/view_registry.h"
#include <qcustomplot.h>

#include <QLabel>
#include <QSize>
#include <QTest>

#include <initializer_list>
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
            return std::unique_ptr<View>(
                static_cast<View *>(createView(*findView(viewIdOf(&View::staticMetaObject)), &params, nullptr)));
        else
            return std::make_unique<View>(&params);
    }
    bool exposed() { return QTest::qWaitForWindowExposed(view.get()); }

    Parameters params;
    std::unique_ptr<View> view;
};

// The view refuses each of `schemes` (set on `parameters`, 50 x 64, base 1e4) with `sentence`: its
// registry entry says it, the notice in place of the plot shows it, the plot is hidden, and the
// figure cannot be drawn. Call with QVERIFY(verifySchemeRefused(...)).
inline bool verifySchemeRefused(PlotView *view, Parameters *parameters, std::initializer_list<pe::SchemeId> schemes,
                                const QString &sentence)
{
    auto *notice = view->findChild<QLabel *>(QStringLiteral("schemeNotice"));
    if (!notice)
        return false;
    for (pe::SchemeId scheme : schemes) {
        pe::EncodingParams p = parameters->values();
        p.scheme = scheme;
        p.seqLen = 50;
        p.dModel = 64;
        p.base = 1e4;
        p.startPos = 0;
        p.table.reset();
        if (parameters->set(p))
            return false;
        if (view->info().schemeProblem(p) != sentence || !notice->isVisible() || notice->text() != sentence ||
            view->plot()->isVisible() || view->cannotDraw() != sentence) {
            qWarning("scheme %d: '%s' / notice '%s'", int(scheme), qPrintable(view->info().schemeProblem(p)),
                     qPrintable(notice->text()));
            return false;
        }
    }
    return true;
}

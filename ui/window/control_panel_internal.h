#pragma once

#include "window/scientific_spin_box.h"

// What control_panel.cpp and control_panel_position.cpp both use.
namespace control_panel_internal {

inline ScientificSpinBox *wholeSpin(double min, double max)
{
    auto *spin = new ScientificSpinBox;
    spin->setWholeNumbers(true);
    spin->setStepRange(min, max);
    return spin;
}

} // namespace control_panel_internal

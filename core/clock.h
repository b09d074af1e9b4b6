#pragma once

#include "encoding.h"

namespace pe {

// How a (sin, cos) pair is drawn as a clock hand of angle theta = t * w.
enum class ClockFace {
    // Starts at 12 o'clock and turns clockwise: the tip is (sin theta, cos theta), i.e.
    // (PE[t, 2i], PE[t, 2i+1]) as seed 000 scatters them. The default: it reads as a clock.
    Clockwise,
    // Starts at 3 o'clock and turns counter-clockwise: the tip is (cos theta, sin theta), the
    // mathematician's angle, as seed 002 draws its 5 x 5 clock faces.
    CounterClockwise,
};

struct Point {
    double x = 0;
    double y = 0;
};

// Tip of pair `pair`'s hand at position t on a unit clock face.
Point handTip(const Encoding &encoding, std::int64_t position, int pair, ClockFace face);
// The hand's angle theta = t * w reduced to [0, 2*pi).
double handAngle(const Encoding &encoding, std::int64_t position, int pair);

} // namespace pe

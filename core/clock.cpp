#include "clock.h"

#include <cmath>
#include <numbers>

namespace pe {

Point handTip(const Encoding &encoding, std::int64_t position, int pair, ClockFace face)
{
    double s, c;
    encoding.pairSinCos(position, pair, s, c);
    return face == ClockFace::Clockwise ? Point{s, c} : Point{c, s};
}

double handAngle(const Encoding &encoding, std::int64_t position, int pair)
{
    double s, c;
    encoding.pairSinCos(position, pair, s, c);
    const double a = std::atan2(s, c);
    return a < 0 ? a + 2 * std::numbers::pi : a;
}

} // namespace pe

#pragma once

#include "encodings/encoding.h"

#include <optional>
#include <string>
#include <vector>

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

// Tip of pair `pair`'s hand at position t on a unit clock face (a table's pair: its direction).
Point handTip(const Encoding &encoding, double position, int pair, ClockFace face);
// The largest length of the pair's (sin, cos) over the window's positions: 1 for the sinusoids
// (exactly: they lie on the unit circle), RoPE's attention factor under YaRN, a table's measured. The circles view
// scales each pair's plot by it.
double pairRadius(const Encoding &encoding, int pair);
// The hand's angle theta = t * w reduced to [0, 2*pi).
double handAngle(const Encoding &encoding, double position, int pair);

// RoPE: the arc pair i's hand swept over the trained context, positions 0..L-1 at the unscaled
// θ_i: (L - 1)·θ_i, at most 2π (a hand that turned fully saw every angle). NaN for other schemes.
// A hand outside it (handAngle beyond the sweep) is at an angle training never showed: what breaks
// past L, and what interpolation (θ/s) avoids.
double trainedSweep(const Encoding &encoding, int pair);
bool outsideTrainedArc(const Encoding &encoding, double position, int pair);

// Which pairs the clocks and circles show when not all fit. Always the fastest hid every slow hand
// at large d (2,048 pairs, 23 shown, all of wavelength 6-7); spread shows the whole range.
struct PairChoice {
    enum class Mode {
        Spread,  // evenly in log wavelength from the fastest to the slowest (the default)
        Fastest, // pairs 0, 1, 2, ...
        List,    // the pairs named, in ascending order
    };
    Mode mode = Mode::Spread;
    std::vector<int> list;
};

// Reads "spread", "fastest", or a list like "0,5,31" or "10-20" (ranges and single pairs, comma
// separated; at most kMaxListedPairs). Empty text is refused; *error says why in one sentence.
std::optional<PairChoice> parsePairChoice(const std::string &text, std::string *error);
std::string pairChoiceText(const PairChoice &choice);
constexpr int kMaxListedPairs = 4096;

// The pairs to show, ascending: at most maxShown of pairCount. Spread picks pair round(k (P-1) /
// (n-1)): w_i = base^(-2i/d) is geometric in i, so even steps in i are even steps in log
// wavelength. A list keeps the pairs that exist at this d (the first maxShown of them).
std::vector<int> choosePairs(const PairChoice &choice, int pairCount, int maxShown);

} // namespace pe

#include "analysis/clock.h"

#include "support/parallel.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <numbers>

namespace pe {

Point handTip(const Encoding &encoding, double position, int pair, ClockFace face)
{
    double s, c;
    encoding.pairSinCos(position, pair, s, c);
    // A table's pair has any length, RoPE's under YaRN its attention factor: the hand shows the direction.
    if (!encoding.hasFrequencies() || encoding.amplitude() != 1.0) {
        const double r = std::hypot(s, c);
        s = r > 0 ? s / r : 0;
        c = r > 0 ? c / r : 0;
    }
    return face == ClockFace::Clockwise ? Point{s, c} : Point{c, s};
}

double pairRadius(const Encoding &encoding, int pair)
{
    if (encoding.hasFrequencies())
        return encoding.pairAmplitude(pair); // 1, or RoPE's factor on a rotated pair's cos and sin
    const EncodingParams &p = encoding.params();
    const int sj = encoding.pairSineColumn(pair), cj = encoding.pairCosineColumn(pair);
    std::mutex lock;
    double radius = 0;
    parallelFor(
        p.seqLen,
        [&](std::int64_t begin, std::int64_t end) {
            double r2 = 0;
            for (std::int64_t t = p.startPos + begin; t < p.startPos + end; ++t) {
                const double s = encoding.value(t, sj), c = cj >= 0 ? encoding.value(t, cj) : 0.0;
                r2 = std::max(r2, s * s + c * c);
            }
            std::lock_guard<std::mutex> guard(lock);
            radius = std::max(radius, std::sqrt(r2));
        },
        1 << 16);
    return radius;
}

double handAngle(const Encoding &encoding, double position, int pair)
{
    double s, c;
    encoding.pairSinCos(position, pair, s, c);
    const double a = std::atan2(s, c);
    return a < 0 ? a + 2 * std::numbers::pi : a;
}

double trainedSweep(const Encoding &encoding, int pair)
{
    const EncodingParams &p = encoding.params();
    if (p.scheme != SchemeId::Rope)
        return std::numeric_limits<double>::quiet_NaN();
    // The unscaled θ_i over the rotated dimensions; a pair that does not turn sweeps nothing.
    const double theta =
        pair < rotatedPairs(p.dModel, p.rope) ? std::pow(p.base, -2.0 * pair / rotaryDim(p.dModel, p.rope)) : 0.0;
    return std::min(2 * std::numbers::pi, static_cast<double>(p.rope.originalContext - 1) * theta);
}

bool outsideTrainedArc(const Encoding &encoding, double position, int pair)
{
    const double sweep = trainedSweep(encoding, pair);
    // A hand on the arc's end is inside: the angle of position L - 1 itself, to rounding.
    return sweep < 2 * std::numbers::pi && handAngle(encoding, position, pair) > sweep * (1 + 1e-12) + 1e-12;
}

std::optional<PairChoice> parsePairChoice(const std::string &text, std::string *error)
{
    auto fail = [&](const std::string &why) -> std::optional<PairChoice> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    PairChoice choice;
    if (text == "spread")
        return choice;
    if (text == "fastest") {
        choice.mode = PairChoice::Mode::Fastest;
        return choice;
    }
    if (text.empty())
        return fail("pairs must be spread, fastest, or a list like 0,5,31 or 10-20");
    choice.mode = PairChoice::Mode::List;
    auto number = [](const std::string &s, int &out) {
        if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos)
            return false;
        out = std::stoi(s);
        return true;
    };
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = text.find(',', start);
        const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        const std::size_t dash = item.find('-');
        int a = 0, b = 0;
        const bool ok = dash == std::string::npos ? number(item, a) && number(item, b)
                                                  : number(item.substr(0, dash), a) && number(item.substr(dash + 1), b);
        if (!ok || b < a)
            return fail("'" + item.substr(0, 40) +
                        "' is not a pair or a range of pairs; use spread, fastest, or a list like 0,5,31 or 10-20");
        for (int i = a; i <= b; ++i) {
            if (static_cast<int>(choice.list.size()) >= kMaxListedPairs)
                return fail("at most " + std::to_string(kMaxListedPairs) + " pairs can be listed");
            choice.list.push_back(i);
        }
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    std::sort(choice.list.begin(), choice.list.end());
    choice.list.erase(std::unique(choice.list.begin(), choice.list.end()), choice.list.end());
    return choice;
}

std::string pairChoiceText(const PairChoice &choice)
{
    switch (choice.mode) {
    case PairChoice::Mode::Spread:
        return "spread";
    case PairChoice::Mode::Fastest:
        return "fastest";
    case PairChoice::Mode::List: {
        std::string out;
        for (std::size_t k = 0; k < choice.list.size();) {
            std::size_t e = k;
            while (e + 1 < choice.list.size() && choice.list[e + 1] == choice.list[e] + 1)
                ++e;
            if (!out.empty())
                out += ',';
            out += std::to_string(choice.list[k]);
            if (e > k)
                out += '-' + std::to_string(choice.list[e]);
            k = e + 1;
        }
        return out;
    }
    }
    return {};
}

std::vector<int> choosePairs(const PairChoice &choice, int pairCount, int maxShown)
{
    std::vector<int> out;
    const int n = std::min(pairCount, std::max(maxShown, 0));
    switch (choice.mode) {
    case PairChoice::Mode::List:
        for (int i : choice.list)
            if (i < pairCount && static_cast<int>(out.size()) < std::max(maxShown, 0))
                out.push_back(i);
        break;
    case PairChoice::Mode::Fastest:
        for (int i = 0; i < n; ++i)
            out.push_back(i);
        break;
    case PairChoice::Mode::Spread:
        for (int k = 0; k < n; ++k)
            out.push_back(n == 1 ? 0
                                 : static_cast<int>(std::llround(static_cast<double>(k) * (pairCount - 1) / (n - 1))));
        break;
    }
    return out;
}

} // namespace pe

#include "encodings/encoding_covariance.h"

#include "support/parallel.h"

#include <cmath>
#include <complex>
#include <numbers>

namespace pe {

namespace {

// An angle as an unevaluated sum hi + lo: w_a - w_b and w_a + w_b exactly (Knuth's TwoSum), so a
// position near 1e9 times the angle keeps the digits the table's own sin(t w) has.
struct TwoDouble {
    double hi, lo;
};

TwoDouble twoSum(double a, double b)
{
    const double s = a + b;
    const double bb = s - a;
    return {s, (a - (s - bb)) + (b - bb)};
}

// cos and sin of x * (hi + lo), with the rounding of the product folded back in to second order:
// err reaches 3e-7 for x near 1e9, so its square matters at 5e-14.
std::complex<double> unitOfProduct(double x, TwoDouble angle)
{
    const double p = angle.hi * x;
    const double err = std::fma(angle.hi, x, -p) + angle.lo * x;
    const double c = std::cos(p), s = std::sin(p);
    const double keep = 1.0 - 0.5 * err * err;
    return {keep * c - err * s, keep * s + err * c};
}

// 2 pi as hi + lo, for the reduction of theta * step below.
constexpr double kTwoPiHi = 2 * std::numbers::pi;
constexpr double kTwoPiLo = 2.4492935982947064e-16;

// sum over r < m of e^{i theta (first + step r)}: the Dirichlet kernel
// e^{i theta (first + step (m - 1) / 2)} sin(m phi / 2) / sin(phi / 2), phi = theta step.
// phi is first reduced by 2 pi k to [-pi, pi]: near a multiple of 2 pi both sines vanish, and the
// reduced angle keeps their ratio exact; the kernel changes by (-1)^{k (m - 1)}.
std::complex<double> dirichlet(TwoDouble theta, std::int64_t first, std::int64_t step, std::int64_t m)
{
    const double h = static_cast<double>(step);
    const double phi = theta.hi * h;
    const double phiErr = std::fma(theta.hi, h, -phi) + theta.lo * h;
    const double k = std::nearbyint(phi / kTwoPiHi);
    const double half = 0.5 * ((std::fma(-k, kTwoPiHi, phi) - k * kTwoPiLo) + phiErr);
    const double denominator = std::sin(half);
    double ratio = static_cast<double>(m);
    if (denominator != 0.0) {
        const double mh = static_cast<double>(m) * half;
        const double mhErr = std::fma(static_cast<double>(m), half, -mh);
        ratio = (std::sin(mh) + mhErr * std::cos(mh)) / denominator;
    }
    if ((static_cast<std::int64_t>(k) & 1) && ((m - 1) & 1))
        ratio = -ratio;
    // The centre first + step (m - 1) / 2 is an integer or a half: exact in double.
    const double centre = static_cast<double>(first) + 0.5 * h * static_cast<double>(m - 1);
    return ratio * unitOfProduct(centre, theta);
}

struct Column {
    int index;
    bool sine;
};

} // namespace

bool hasClosedFormCovariance(const Encoding &encoding)
{
    return encoding.hasFrequencies() && encoding.hasVectors();
}

ColumnCovariance columnCovariance(const Encoding &encoding, std::int64_t first, std::int64_t count, std::int64_t step,
                                  const std::atomic<bool> *cancel)
{
    const int d = encoding.dModel();
    const int channels = encoding.channelCount();
    std::vector<std::vector<Column>> columns(static_cast<std::size_t>(channels));
    for (int j = 0; j < d; ++j)
        columns[static_cast<std::size_t>(encoding.columnChannel(j))].push_back({j, encoding.columnIsSine(j)});

    ColumnCovariance out;
    out.d = d;
    out.mean.assign(static_cast<std::size_t>(d), 0.0);
    out.covariance.assign(static_cast<std::size_t>(d) * static_cast<std::size_t>(d), 0.0);
    const double m = static_cast<double>(count);
    for (int u = 0; u < channels; ++u) {
        const std::complex<double> e = dirichlet({encoding.channelFrequency(u), 0.0}, first, step, count);
        for (const Column &a : columns[static_cast<std::size_t>(u)])
            out.mean[static_cast<std::size_t>(a.index)] =
                encoding.columnAmplitude(a.index) * (a.sine ? e.imag() : e.real()) / m;
    }

    // sum_t x_a x_b by product-to-sum: with E- = E(w_u - w_v) and E+ = E(w_u + w_v),
    // sin sin = (Re E- - Re E+) / 2, cos cos = (Re E- + Re E+) / 2, sin_a cos_b = (Im E+ + Im E-) / 2,
    // cos_a sin_b = (Im E+ - Im E-) / 2. Each task takes a row of channels from each end of the
    // triangle, so the two cores get equal work.
    std::atomic<bool> stopped{false};
    const auto row = [&](int u) {
        const double wu = encoding.channelFrequency(u);
        for (int v = u; v < channels; ++v) {
            const double wv = encoding.channelFrequency(v);
            const std::complex<double> minus = dirichlet(twoSum(wu, -wv), first, step, count);
            const std::complex<double> plus = dirichlet(twoSum(wu, wv), first, step, count);
            for (const Column &a : columns[static_cast<std::size_t>(u)])
                for (const Column &b : columns[static_cast<std::size_t>(v)]) {
                    double sum;
                    if (a.sine && b.sine)
                        sum = minus.real() - plus.real();
                    else if (!a.sine && !b.sine)
                        sum = minus.real() + plus.real();
                    else if (a.sine)
                        sum = plus.imag() + minus.imag();
                    else
                        sum = plus.imag() - minus.imag();
                    const double ma = out.mean[static_cast<std::size_t>(a.index)];
                    const double mb = out.mean[static_cast<std::size_t>(b.index)];
                    // Each column's length (RoPE's factor on the rotated pairs alone), halved by the
                    // product-to-sum.
                    const double scale = encoding.columnAmplitude(a.index) * encoding.columnAmplitude(b.index) / 2.0;
                    const double cov = (scale * sum - m * ma * mb) / (m - 1.0);
                    out.covariance[static_cast<std::size_t>(a.index) * d + b.index] = cov;
                    out.covariance[static_cast<std::size_t>(b.index) * d + a.index] = cov;
                }
        }
    };
    parallelFor((channels + 1) / 2, [&](std::int64_t t0, std::int64_t t1) {
        for (std::int64_t t = t0; t < t1; ++t) {
            if (cancel && cancel->load()) {
                stopped = true;
                return;
            }
            row(static_cast<int>(t));
            if (channels - 1 - t != t)
                row(static_cast<int>(channels - 1 - t));
        }
    });
    out.cancelled = stopped.load();
    return out;
}

} // namespace pe

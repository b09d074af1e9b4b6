#include "analysis/spectrum.h"

#include "support/parallel.h"

#include <fftw3.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <mutex>
#include <numbers>

namespace pe {

namespace {

struct FftwFree {
    void operator()(void *p) const { fftw_free(p); }
};

} // namespace

std::mutex &fftwPlannerLock()
{
    static std::mutex lock;
    return lock;
}

ColumnSpectrum columnSpectrum(const Encoding &encoding, const std::vector<int> &columns, std::int64_t maxPositions)
{
    ColumnSpectrum out;
    const EncodingParams &p = encoding.params();
    const std::int64_t n = std::min(p.seqLen, std::max<std::int64_t>(maxPositions, 1));
    out.columns = columns;
    out.omega.assign(columns.size(), 0.0);
    out.peakShare.assign(columns.size(), 0.0);
    out.positions = n;
    out.resolution = 2 * std::numbers::pi / static_cast<double>(n);
    if (n < 4 || columns.empty())
        return out;
    const std::int64_t bins = n / 2 + 1;

    fftw_plan plan;
    {
        std::lock_guard<std::mutex> guard(fftwPlannerLock());
        std::unique_ptr<double, FftwFree> in(fftw_alloc_real(static_cast<std::size_t>(n)));
        std::unique_ptr<fftw_complex, FftwFree> spec(fftw_alloc_complex(static_cast<std::size_t>(bins)));
        plan = fftw_plan_dft_r2c_1d(static_cast<int>(n), in.get(), spec.get(), FFTW_ESTIMATE);
    }
    std::vector<double> hann(static_cast<std::size_t>(n));
    for (std::int64_t t = 0; t < n; ++t)
        hann[static_cast<std::size_t>(t)] =
            0.5 - 0.5 * std::cos(2 * std::numbers::pi * static_cast<double>(t) / static_cast<double>(n));

    parallelFor(
        static_cast<std::int64_t>(columns.size()),
        [&](std::int64_t begin, std::int64_t end) {
            std::unique_ptr<double, FftwFree> in(fftw_alloc_real(static_cast<std::size_t>(n)));
            std::unique_ptr<fftw_complex, FftwFree> spec(fftw_alloc_complex(static_cast<std::size_t>(bins)));
            std::vector<double> power(static_cast<std::size_t>(bins));
            for (std::int64_t k = begin; k < end; ++k) {
                Block b = encoding.windowBlock();
                b.rows = n;
                b.firstColumn = columns[static_cast<std::size_t>(k)];
                b.cols = 1;
                encoding.fill(b, in.get());
                double mean = 0;
                for (std::int64_t t = 0; t < n; ++t)
                    mean += in.get()[t];
                mean /= static_cast<double>(n);
                for (std::int64_t t = 0; t < n; ++t)
                    in.get()[t] = (in.get()[t] - mean) * hann[static_cast<std::size_t>(t)];
                fftw_execute_dft_r2c(plan, in.get(), spec.get());
                double total = 0;
                std::int64_t peak = 1;
                for (std::int64_t f = 0; f < bins; ++f) {
                    const double re = spec.get()[f][0], im = spec.get()[f][1];
                    power[static_cast<std::size_t>(f)] = re * re + im * im;
                    total += power[static_cast<std::size_t>(f)];
                    if (f > 0 && power[static_cast<std::size_t>(f)] > power[static_cast<std::size_t>(peak)])
                        peak = f;
                }
                double offset = 0;
                if (peak > 0 && peak + 1 < bins) {
                    const double a = std::log(power[static_cast<std::size_t>(peak - 1)] + 1e-300);
                    const double c = std::log(power[static_cast<std::size_t>(peak)] + 1e-300);
                    const double e = std::log(power[static_cast<std::size_t>(peak + 1)] + 1e-300);
                    const double denom = a - 2 * c + e;
                    if (denom < 0)
                        offset = std::clamp(0.5 * (a - e) / denom, -0.5, 0.5);
                }
                double near = 0;
                for (std::int64_t f = std::max<std::int64_t>(0, peak - 2); f <= std::min(bins - 1, peak + 2); ++f)
                    near += power[static_cast<std::size_t>(f)];
                out.omega[static_cast<std::size_t>(k)] = (static_cast<double>(peak) + offset) * out.resolution;
                out.peakShare[static_cast<std::size_t>(k)] = total > 0 ? near / total : 0.0;
            }
        },
        8);
    {
        std::lock_guard<std::mutex> guard(fftwPlannerLock());
        fftw_destroy_plan(plan);
    }
    return out;
}

} // namespace pe

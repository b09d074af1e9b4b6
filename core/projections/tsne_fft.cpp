#include "projections/tsne_fft.h"

#include "analysis/spectrum.h"
#include "support/parallel.h"

#include <fftw3.h>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <new>

namespace pe {

namespace {

struct FftwFree {
    void operator()(void *p) const { fftw_free(p); }
};
using RealBuffer = std::unique_ptr<double, FftwFree>;
using ComplexBuffer = std::unique_ptr<fftw_complex, FftwFree>;

bool smooth(int v) // only factors 2, 3, 5 and 7: sizes FFTW transforms fastest
{
    for (int f : {2, 3, 5, 7})
        while (v % f == 0)
            v /= f;
    return v == 1;
}

// The Lagrange weights of a box's three nodes, at u = 1/6, 1/2 and 5/6 of it, for a point at u.
inline void lagrange(double u, double w[3])
{
    const double a = u - 1.0 / 6.0, b = u - 0.5, c = u - 5.0 / 6.0;
    w[0] = 4.5 * b * c;  // 1 / ((1/6 - 1/2) (1/6 - 5/6)) = 4.5
    w[1] = -9.0 * a * c; // 1 / ((1/2 - 1/6) (1/2 - 5/6)) = -9
    w[2] = 4.5 * a * b;  // 1 / ((5/6 - 1/6) (5/6 - 1/2)) = 4.5
}

// Where a point falls: its box's first node and the three weights along one axis.
struct Along {
    int node;
    double w[3];
};
inline Along along(double v, double lo, double boxWidth, int boxes)
{
    const double t = (v - lo) / boxWidth;
    const int box = std::clamp(static_cast<int>(t), 0, boxes - 1);
    Along a;
    a.node = FftRepulsion::kNodesPerBox * box;
    lagrange(t - box, a.w);
    return a;
}

constexpr int kCharges = 4; // 1, x, y, x^2 + y^2

} // namespace

// The transforms of one grid size and their buffers, kept while the size stays.
struct FftRepulsion::Plans {
    int nodes = 0; // per side; the transforms are twice that, zero-padded
    int padded = 0;
    fftw_plan forward = nullptr, backward = nullptr;
    RealBuffer real[kCharges];
    ComplexBuffer spectrum[kCharges];
    RealBuffer kernel;
    ComplexBuffer kernelSpectrum;

    ~Plans()
    {
        std::lock_guard<std::mutex> guard(fftwPlannerLock());
        if (forward)
            fftw_destroy_plan(forward);
        if (backward)
            fftw_destroy_plan(backward);
    }

    std::size_t realSize() const { return static_cast<std::size_t>(padded) * static_cast<std::size_t>(padded); }
    std::size_t complexSize() const
    {
        return static_cast<std::size_t>(padded) * static_cast<std::size_t>(padded / 2 + 1);
    }
};

FftRepulsion::FftRepulsion() = default;
FftRepulsion::~FftRepulsion() = default;

int FftRepulsion::gridSide(double width)
{
    // Clamped before the cast (a diverging run's width may be huge or not a number); grids that
    // large never pay (fftRepulsionPays) and only a forced FFT would ask.
    const double boxesWanted = std::isfinite(width) ? std::min(kBoxesPerUnit * width, 4096.0) : 4096.0;
    int boxes = std::max(kMinBoxes, static_cast<int>(std::ceil(boxesWanted)));
    while (!smooth(boxes))
        ++boxes;
    return kNodesPerBox * boxes;
}

bool fftRepulsionPays(std::int64_t n, double width)
{
    // Measured on both cores of a 2-core AVX-512 machine (drivers over FftRepulsion::compute and
    // Tsne::step at 100,000 and 1,000,000 points): the interpolation about 40 ns a point; the five
    // transforms of a padded side L about 2.5 ns per L^2 log2(L^2) (2.0 at L = 1,440, 3.0 at 2,400);
    // Barnes-Hut about 7 ns x log2(n) a point (140 ns at 1,000,000, 80 to 115 ns at 100,000).
    if (!(width < 1e3)) // its grid alone would cost more than Barnes-Hut at any n taken
        return false;
    const double points = static_cast<double>(n);
    const double padded = 2.0 * FftRepulsion::gridSide(width);
    const double fft = 40e-9 * points + 2.5e-9 * padded * padded * std::log2(padded * padded);
    return fft < 7e-9 * points * std::log2(points);
}

double Bounds::width() const
{
    return std::max({maxX - minX, maxY - minY, 1e-12});
}

Bounds boundsOf(const double *y, std::int64_t n)
{
    Bounds b{y[0], y[0], y[1], y[1]};
    for (std::int64_t i = 1; i < n; ++i) {
        b.minX = std::min(b.minX, y[2 * i]);
        b.maxX = std::max(b.maxX, y[2 * i]);
        b.minY = std::min(b.minY, y[2 * i + 1]);
        b.maxY = std::max(b.maxY, y[2 * i + 1]);
    }
    return b;
}

void FftRepulsion::compute(const double *y, std::int64_t n, const Bounds &bounds, double *rep, double *zPart)
{
    const double minX = bounds.minX, minY = bounds.minY;
    const double width = bounds.width() * (1 + 1e-9); // the largest value falls inside the last box
    const int nodes = gridSide(width);
    const int boxes = nodes / kNodesPerBox;
    const double boxWidth = width / boxes;
    const double spacing = boxWidth / kNodesPerBox; // between nodes, in the embedding's units
    // Charges about the middle: the identities above hold about any origin, and the values stay small.
    const double midX = minX + width / 2, midY = minY + width / 2;

    if (!plans_ || plans_->nodes != nodes) {
        plans_.reset(); // the old buffers first: at most one size is held
        auto p = std::make_unique<Plans>();
        p->nodes = nodes;
        p->padded = 2 * nodes;
        for (int c = 0; c < kCharges; ++c) {
            p->real[c].reset(fftw_alloc_real(p->realSize()));
            p->spectrum[c].reset(fftw_alloc_complex(p->complexSize()));
        }
        p->kernel.reset(fftw_alloc_real(p->realSize()));
        p->kernelSpectrum.reset(fftw_alloc_complex(p->complexSize()));
        for (int c = 0; c < kCharges; ++c)
            if (!p->real[c] || !p->spectrum[c])
                throw std::bad_alloc();
        if (!p->kernel || !p->kernelSpectrum)
            throw std::bad_alloc();
        std::lock_guard<std::mutex> guard(fftwPlannerLock());
        p->forward = fftw_plan_dft_r2c_2d(p->padded, p->padded, p->real[0].get(), p->spectrum[0].get(), FFTW_ESTIMATE);
        p->backward = fftw_plan_dft_c2r_2d(p->padded, p->padded, p->spectrum[0].get(), p->real[0].get(), FFTW_ESTIMATE);
        plans_ = std::move(p);
    }
    Plans &p = *plans_;
    const int L = p.padded;
    const auto at = [L](int row, int col) { return static_cast<std::size_t>(row) * static_cast<std::size_t>(L) + col; };

    // The kernel w^2 between nodes (dx, dy) apart, laid out circularly for the convolution.
    double *kernel = p.kernel.get();
    std::fill(kernel, kernel + p.realSize(), 0.0);
    for (int dy = 0; dy < nodes; ++dy)
        for (int dx = 0; dx < nodes; ++dx) {
            const double r2 = (dx * spacing) * (dx * spacing) + (dy * spacing) * (dy * spacing);
            const double w = 1.0 / (1.0 + r2);
            const double k = w * w;
            kernel[at(dy, dx)] = k;
            if (dx > 0)
                kernel[at(dy, L - dx)] = k;
            if (dy > 0)
                kernel[at(L - dy, dx)] = k;
            if (dx > 0 && dy > 0)
                kernel[at(L - dy, L - dx)] = k;
        }
    // The kernel's transform here, then four tasks: a charge each, spread, transformed, multiplied
    // by the kernel's and transformed back. Each grid is written by one task in the points' order,
    // so the sums do not depend on the number of cores.
    fftw_execute_dft_r2c(p.forward, kernel, p.kernelSpectrum.get());
    const double scale = 1.0 / (static_cast<double>(L) * static_cast<double>(L));
    parallelFor(
        kCharges,
        [&](std::int64_t c0, std::int64_t c1) {
            for (std::int64_t c = c0; c < c1; ++c) {
                double *grid = p.real[c].get();
                std::fill(grid, grid + p.realSize(), 0.0);
                for (std::int64_t i = 0; i < n; ++i) {
                    const double x = y[2 * i], yy = y[2 * i + 1];
                    const double cx = x - midX, cy = yy - midY;
                    const double q = c == 0 ? 1.0 : c == 1 ? cx : c == 2 ? cy : cx * cx + cy * cy;
                    const Along ax = along(x, minX, boxWidth, boxes), ay = along(yy, minY, boxWidth, boxes);
                    for (int ky = 0; ky < 3; ++ky) {
                        double *row = grid + at(ay.node + ky, ax.node);
                        const double wy = ay.w[ky] * q;
                        for (int kx = 0; kx < 3; ++kx)
                            row[kx] += ax.w[kx] * wy;
                    }
                }
                fftw_complex *spec = p.spectrum[c].get();
                fftw_execute_dft_r2c(p.forward, grid, spec);
                const fftw_complex *k = p.kernelSpectrum.get();
                for (std::size_t f = 0; f < p.complexSize(); ++f) {
                    const double re = spec[f][0] * k[f][0] - spec[f][1] * k[f][1];
                    const double im = spec[f][0] * k[f][1] + spec[f][1] * k[f][0];
                    spec[f][0] = re * scale;
                    spec[f][1] = im * scale;
                }
                fftw_execute_dft_c2r(p.backward, spec, grid);
            }
        },
        1);
    // Back to the points: each one's four sums from its nine nodes.
    parallelFor(
        n,
        [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t i = begin; i < end; ++i) {
                const double x = y[2 * i], yy = y[2 * i + 1];
                const Along ax = along(x, minX, boxWidth, boxes), ay = along(yy, minY, boxWidth, boxes);
                double phi[kCharges] = {0, 0, 0, 0};
                for (int c = 0; c < kCharges; ++c) {
                    const double *grid = p.real[c].get();
                    double sum = 0;
                    for (int ky = 0; ky < 3; ++ky) {
                        const double *row = grid + at(ay.node + ky, ax.node);
                        sum += ay.w[ky] * (ax.w[0] * row[0] + ax.w[1] * row[1] + ax.w[2] * row[2]);
                    }
                    phi[c] = sum;
                }
                const double cx = x - midX, cy = yy - midY;
                rep[2 * i] = cx * phi[0] - phi[1];
                rep[2 * i + 1] = cy * phi[0] - phi[2];
                zPart[i] = (1.0 + cx * cx + cy * cy) * phi[0] - 2.0 * (cx * phi[1] + cy * phi[2]) + phi[3] - 1.0;
            }
        },
        4096);
}

} // namespace pe

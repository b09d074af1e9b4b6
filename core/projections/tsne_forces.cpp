#include "projections/tsne_forces.h"

#include "support/float_product.h"
#include "support/simd_clones.h"

namespace pe {

namespace detail {

PE_CLONES void repulsionFromListGeneric(const float *lx, const float *ly, const float *lc, int m, float xi, float yi,
                                        double *out)
{
    float z = 0, fx = 0, fy = 0;
#pragma omp simd reduction(+ : z, fx, fy)
    for (int j = 0; j < m; ++j) {
        const float dx = xi - lx[j], dy = yi - ly[j];
        const float w = 1.0f / (1.0f + dx * dx + dy * dy);
        const float cw = lc[j] * w;
        z += cw;
        fx += cw * w * dx;
        fy += cw * w * dy;
    }
    out[0] = z;
    out[1] = fx;
    out[2] = fy;
}

PE_CLONES void attractionRowGeneric(const std::int32_t *col, const float *p, int m, const float *y, float xi, float yi,
                                    double *out)
{
    float fx = 0, fy = 0;
#pragma omp simd reduction(+ : fx, fy)
    for (int e = 0; e < m; ++e) {
        const std::int32_t j = col[e];
        const float dx = xi - y[2 * j], dy = yi - y[2 * j + 1];
        const float pw = p[e] / (1.0f + dx * dx + dy * dy);
        fx += pw * dx;
        fy += pw * dy;
    }
    out[0] = fx;
    out[1] = fy;
}

} // namespace detail

// GCC's vector types: one AVX-512 register in the x86-64-v4 clone, AVX2 and SSE2 ones in the others.
PE_CLONES void attractionBlock(const std::int32_t *offsets, const float *p, int m, const float *y, std::int64_t i,
                               double *out)
{
    using F8 = float __attribute__((vector_size(32)));
    // (x, y) of eight consecutive points, interleaved in memory, as eight x and eight y
    // (__builtin_shufflevector: GCC 12 and clang both have it).
    const auto load = [&](std::int64_t j, F8 &xs, F8 &ys) {
        F8 a, b;
        __builtin_memcpy(&a, y + 2 * j, sizeof a);
        __builtin_memcpy(&b, y + 2 * j + 8, sizeof b);
        xs = __builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14);
        ys = __builtin_shufflevector(a, b, 1, 3, 5, 7, 9, 11, 13, 15);
    };
    F8 xi, yi, fx = {}, fy = {};
    load(i, xi, yi);
    for (int e = 0; e < m; ++e) {
        F8 xj, yj;
        load(i + offsets[e], xj, yj);
        const F8 dx = xi - xj, dy = yi - yj;
        const F8 pw = p[e] / (1.0f + dx * dx + dy * dy);
        fx += pw * dx;
        fy += pw * dy;
    }
    for (int l = 0; l < 8; ++l) {
        out[l] = fx[l];
        out[8 + l] = fy[l];
    }
}

namespace {

using Repulsion = void (*)(const float *, const float *, const float *, int, float, float, double *);
using Attraction = void (*)(const std::int32_t *, const float *, int, const float *, float, float, double *);

bool useAvx512()
{
    static const bool avx512 = bestSimdLevel() == SimdLevel::Avx512;
    return avx512;
}

} // namespace

void repulsionFromList(const float *lx, const float *ly, const float *lc, int m, float xi, float yi, double *out)
{
    static const Repulsion f = useAvx512() ? detail::repulsionFromListAvx512 : detail::repulsionFromListGeneric;
    f(lx, ly, lc, m, xi, yi, out);
}

void attractionRow(const std::int32_t *col, const float *p, int m, const float *y, float xi, float yi, double *out)
{
    static const Attraction f = useAvx512() ? detail::attractionRowAvx512 : detail::attractionRowGeneric;
    f(col, p, m, y, xi, yi, out);
}

} // namespace pe

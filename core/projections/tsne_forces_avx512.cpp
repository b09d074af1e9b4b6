// Compiled with -mavx512f -mfma; called only when the processor has them (tsne_forces.cpp).
#include "projections/tsne_forces.h"

#include <immintrin.h>

namespace pe::detail {

namespace {

// 1 / q for q >= 1: the 14-bit estimate and one Newton step, 2^-23 relative or better, in a fraction
// of a division's time (the division was the loop's bottleneck).
inline __m512 reciprocal(__m512 q)
{
    const __m512 r = _mm512_rcp14_ps(q);
    return _mm512_mul_ps(r, _mm512_fnmadd_ps(q, r, _mm512_set1_ps(2.0f)));
}

// The lanes of a step with `left` entries still to do: all 16, or the first `left`.
inline __mmask16 lanes(int left)
{
    return left >= 16 ? __mmask16(0xffff) : __mmask16((1u << left) - 1);
}

} // namespace

void repulsionFromListAvx512(const float *lx, const float *ly, const float *lc, int m, float xi, float yi, double *out)
{
    const __m512 x = _mm512_set1_ps(xi), y = _mm512_set1_ps(yi), one = _mm512_set1_ps(1.0f);
    __m512 z = _mm512_setzero_ps(), fx = _mm512_setzero_ps(), fy = _mm512_setzero_ps();
    for (int j = 0; j < m; j += 16) {
        // The last, partial step loads zeros past the end; their count (0) adds nothing.
        const __mmask16 k = lanes(m - j);
        const __m512 dx = _mm512_sub_ps(x, _mm512_maskz_loadu_ps(k, lx + j));
        const __m512 dy = _mm512_sub_ps(y, _mm512_maskz_loadu_ps(k, ly + j));
        const __m512 w = reciprocal(_mm512_fmadd_ps(dx, dx, _mm512_fmadd_ps(dy, dy, one)));
        const __m512 cw = _mm512_mul_ps(_mm512_maskz_loadu_ps(k, lc + j), w);
        z = _mm512_add_ps(z, cw);
        const __m512 cww = _mm512_mul_ps(cw, w);
        fx = _mm512_fmadd_ps(cww, dx, fx);
        fy = _mm512_fmadd_ps(cww, dy, fy);
    }
    out[0] = _mm512_reduce_add_ps(z);
    out[1] = _mm512_reduce_add_ps(fx);
    out[2] = _mm512_reduce_add_ps(fy);
}

void attractionRowAvx512(const std::int32_t *col, const float *p, int m, const float *y, float xi, float yi,
                         double *out)
{
    const __m512 x0 = _mm512_set1_ps(xi), y0 = _mm512_set1_ps(yi), one = _mm512_set1_ps(1.0f);
    // Each neighbour's (x, y) is one 64-bit gather element: half the elements of gathering x and y
    // apart (the gathers were the loop's cost). The permutes put the x's in one register, the y's in
    // the other, in entry order.
    const __m512i evens = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
    const __m512i odds = _mm512_add_epi32(evens, _mm512_set1_epi32(1));
    __m512 fx = _mm512_setzero_ps(), fy = _mm512_setzero_ps();
    const void *pairs = y;
    for (int e = 0; e < m; e += 16) {
        const __mmask16 k = lanes(m - e);
        const __mmask8 lo = static_cast<__mmask8>(k & 0xff), hi = static_cast<__mmask8>(k >> 8);
        // Masked-off lanes gather nothing and read (0, 0); their p is 0, so they add no force.
        const __m512i at = _mm512_maskz_loadu_epi32(k, col + e);
        const __m512i none = _mm512_setzero_si512();
        const __m512i a = _mm512_mask_i32gather_epi64(none, lo, _mm512_castsi512_si256(at), pairs, 8);
        const __m512i b = _mm512_mask_i32gather_epi64(none, hi, _mm512_extracti64x4_epi64(at, 1), pairs, 8);
        const __m512 xs = _mm512_permutex2var_ps(_mm512_castsi512_ps(a), evens, _mm512_castsi512_ps(b));
        const __m512 ys = _mm512_permutex2var_ps(_mm512_castsi512_ps(a), odds, _mm512_castsi512_ps(b));
        const __m512 dx = _mm512_sub_ps(x0, xs);
        const __m512 dy = _mm512_sub_ps(y0, ys);
        const __m512 pw = _mm512_mul_ps(_mm512_maskz_loadu_ps(k, p + e),
                                        reciprocal(_mm512_fmadd_ps(dx, dx, _mm512_fmadd_ps(dy, dy, one))));
        fx = _mm512_fmadd_ps(pw, dx, fx);
        fy = _mm512_fmadd_ps(pw, dy, fy);
    }
    out[0] = _mm512_reduce_add_ps(fx);
    out[1] = _mm512_reduce_add_ps(fy);
}

} // namespace pe::detail

#pragma once

#include <cstdint>

namespace pe {

// The two inner loops of a t-SNE gradient step, in single precision (forces need no more), each
// chosen once for the processor: AVX-512 where it is there (bestSimdLevel), else a generic loop
// that the compiler vectorises for AVX2 or SSE2.

// Repulsion on the point (xi, yi) from an interaction list of m cells (centre lx, ly and count lc):
// out = {sum c w, sum c w^2 dx, sum c w^2 dy} with w = 1 / (1 + dx^2 + dy^2), d = (xi, yi) - cell.
void repulsionFromList(const float *lx, const float *ly, const float *lc, int m, float xi, float yi, double *out);

// Attraction on the point (xi, yi) from one row of P (m entries, columns col, values p) over the
// embedding y (x, y interleaved): out = sum_j p_ij w_ij (y_i - y_j).
void attractionRow(const std::int32_t *col, const float *p, int m, const float *y, float xi, float yi, double *out);

// Attraction on the eight points i .. i+7 whose rows of P are one shared row: the same offsets
// (columns col = i + offsets[e]) and the same values p. Each offset's eight neighbours are then
// consecutive points, read with plain loads instead of one gather each (the rows of a pure
// encoding are almost all so: the offset structure). out: fx[8], then fy[8].
void attractionBlock(const std::int32_t *offsets, const float *p, int m, const float *y, std::int64_t i, double *out);

namespace detail {
void repulsionFromListGeneric(const float *lx, const float *ly, const float *lc, int m, float xi, float yi,
                              double *out);
void attractionRowGeneric(const std::int32_t *col, const float *p, int m, const float *y, float xi, float yi,
                          double *out);
void repulsionFromListAvx512(const float *lx, const float *ly, const float *lc, int m, float xi, float yi, double *out);
void attractionRowAvx512(const std::int32_t *col, const float *p, int m, const float *y, float xi, float yi,
                         double *out);
} // namespace detail

} // namespace pe

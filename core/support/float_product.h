#pragma once

#include <cstdint>

namespace pe {

// What the processor offers for single-precision products. Debian's Eigen is built for SSE2;
// the AVX2 and AVX-512 variants are the same Eigen code compiled for those units in files of their
// own, chosen at run time.
enum class SimdLevel { Generic, Avx2, Avx512 };

SimdLevel bestSimdLevel();
bool simdSupported(SimdLevel level);
const char *simdName(SimdLevel level);

// Marks the upper halves of the AVX registers clean (vzeroupper) on processors that have them.
// While they are dirty, every SSE instruction of this SSE2 build waits on a merge with them, and
// each call into glibc's AVX variants of exp, log, sin and cos pays a transition: seed 002's probe
// took 7.5 s from the command line against 1.6 s in a clean process (1.8 s with glibc's AVX
// variants turned off by GLIBC_TUNABLES). Something in the process start leaves them dirty; call
// this before long numeric work on a thread.
void clearUpperVectorState();

// c = a b^T in single precision: a is rows x d, b is n x d, c is rows x n, all row-major.
// Each entry is within (d + 4) 2^-24 sum_j |a_j b_j| of the exact product of the floats' sources.
void floatProductNT(const float *a, std::int64_t rows, const float *b, std::int64_t n, int d, float *c,
                    SimdLevel level = bestSimdLevel());

} // namespace pe

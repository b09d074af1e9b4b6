#include "support/float_product.h"
#include "support/simd_clones.h"

#include <cstdlib>
#include <cstring>

// The generic variant: this file's Eigen, as Debian builds it (SSE2).
#define PE_FLOAT_PRODUCT floatProductGeneric
#include "support/float_product_impl.h"

namespace pe {

namespace detail {
void floatProductAvx2(const float *a, std::int64_t rows, const float *b, std::int64_t n, int d, float *c);
void floatProductAvx512(const float *a, std::int64_t rows, const float *b, std::int64_t n, int d, float *c);
} // namespace detail

void clearUpperVectorState()
{
#if defined(__x86_64__) || defined(__i386__)
    // The assembler knows vzeroupper whatever this file is compiled for; it leaves the low 128
    // bits, all this build's code uses, as they are.
    if (__builtin_cpu_supports("avx"))
        asm volatile("vzeroupper");
#endif
}

bool simdSupported(SimdLevel level)
{
    switch (level) {
    case SimdLevel::Generic:
        return true;
    case SimdLevel::Avx2:
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case SimdLevel::Avx512:
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("fma");
    }
    return false;
}

SimdLevel bestSimdLevel()
{
    // PE_SIMD=generic|avx2 caps the level (to compare the variants, or on a machine whose
    // vector units throttle).
    static const SimdLevel best = [] {
        SimdLevel cap = SimdLevel::Avx512;
        if (const char *env = std::getenv("PE_SIMD")) {
            if (std::strcmp(env, "generic") == 0)
                cap = SimdLevel::Generic;
            else if (std::strcmp(env, "avx2") == 0)
                cap = SimdLevel::Avx2;
        }
        for (SimdLevel l : {SimdLevel::Avx512, SimdLevel::Avx2})
            if (static_cast<int>(l) <= static_cast<int>(cap) && simdSupported(l))
                return l;
        return SimdLevel::Generic;
    }();
    return best;
}

int simdCloneLevel()
{
    static const int level = [] {
        int cpu = 1;
#if PE_SIMD_LEVELS
        if (__builtin_cpu_supports("x86-64-v4"))
            cpu = 4;
        else if (__builtin_cpu_supports("x86-64-v3"))
            cpu = 3;
#endif
        switch (bestSimdLevel()) {
        case SimdLevel::Generic:
            return 1;
        case SimdLevel::Avx2:
            return cpu < 3 ? cpu : 3;
        case SimdLevel::Avx512:
            break;
        }
        return cpu;
    }();
    return level;
}

const char *simdName(SimdLevel level)
{
    switch (level) {
    case SimdLevel::Generic:
        return "SSE2";
    case SimdLevel::Avx2:
        return "AVX2+FMA";
    case SimdLevel::Avx512:
        return "AVX-512";
    }
    return "?";
}

void floatProductNT(const float *a, std::int64_t rows, const float *b, std::int64_t n, int d, float *c, SimdLevel level)
{
    if (!simdSupported(level))
        level = SimdLevel::Generic;
    switch (level) {
    case SimdLevel::Avx512:
        detail::floatProductAvx512(a, rows, b, n, d, c);
        return;
    case SimdLevel::Avx2:
        detail::floatProductAvx2(a, rows, b, n, d, c);
        return;
    case SimdLevel::Generic:
        detail::floatProductGeneric(a, rows, b, n, d, c);
        return;
    }
}

} // namespace pe

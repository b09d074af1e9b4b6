#pragma once

// PE_CLONES before a function compiles it three times, for AVX-512 (x86-64-v4), for AVX2 + FMA
// (x86-64-v3) and for the baseline, and lets the loader pick one for the processor (GCC's
// target_clones, an ifunc). The levels, not "arch=haswell": GCC picks an arch= clone only on that
// very processor model (__builtin_cpu_is), so on every other one the baseline ran. Only
// with GCC 12 or later (the x86-64-v* levels as clone targets) on x86-64 and without a sanitizer: ThreadSanitizer
// instruments the ifunc resolvers, which run before it has started, and the sanitizer builds (clang) need the one plain
// version.
#if defined(__x86_64__) && defined(__GNUC__) && __GNUC__ >= 12 && !defined(__clang__) &&                               \
    !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#define PE_CLONES __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#define PE_SIMD_LEVELS 1
#define PE_TARGET_V4 __attribute__((target("arch=x86-64-v4")))
#define PE_TARGET_V3 __attribute__((target("arch=x86-64-v3")))
#else
#define PE_CLONES
#define PE_SIMD_LEVELS 0
#endif

// Code whose values are wider than the baseline's registers (GCC's vector extension types) is not
// a good clone: one source, one type for every level, and a type wider than a level's registers
// is kept in memory there. Such code is written per level instead (PE_TARGET_V4, PE_TARGET_V3 and
// a plain version, where PE_SIMD_LEVELS is 1) and picks its version with simdCloneLevel(): 4
// (x86-64-v4), 3 (x86-64-v3) or 1 (the baseline), as target_clones' loader would pick, and at most
// what PE_SIMD allows (bestSimdLevel, float_product.h: avx2 is 3, generic 1). Worked out once.
namespace pe {
int simdCloneLevel();
} // namespace pe

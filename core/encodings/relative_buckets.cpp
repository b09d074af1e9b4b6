#include "encodings/relative_buckets.h"

#include <algorithm>
#include <cmath>

namespace pe {

int t5Bucket(std::int64_t relativePosition, const T5Buckets &b)
{
    const int half = b.directionBuckets();
    int bucket = 0;
    std::int64_t n = 0;
    if (b.bidirectional) {
        if (relativePosition > 0)
            bucket += half;
        n = relativePosition < 0 ? -relativePosition : relativePosition;
    } else {
        n = relativePosition < 0 ? -relativePosition : 0; // -min(rp, 0)
    }
    const int maxExact = b.maxExact();
    if (n < maxExact)
        return bucket + static_cast<int>(n);
    // Past maxDistance the clamp below decides whatever the log: keep n in float32's exact integers.
    if (n >= b.maxDistance)
        return bucket + half - 1;
    // torch: rp.float() / max_exact in float32; math.log(...) a Python double, the division and
    // product in float32; .to(torch.long) truncates.
    const float ratio = static_cast<float>(n) / static_cast<float>(maxExact);
    const float scaled = std::log(ratio) / static_cast<float>(std::log(static_cast<double>(b.maxDistance) / maxExact)) *
                         static_cast<float>(half - maxExact);
    const auto large = static_cast<std::int64_t>(maxExact) + static_cast<std::int64_t>(scaled);
    return bucket + static_cast<int>(std::min<std::int64_t>(large, half - 1));
}

namespace {

// The last offset of [k, limit] whose bucket is k's: the offsets that share it are one interval.
std::int64_t runEnd(std::int64_t k, std::int64_t limit, const T5Buckets &b)
{
    const int bucket = t5Bucket(k, b);
    std::int64_t lo = k, hi = limit; // bucket(lo) == bucket; find the last such
    while (lo < hi) {
        const std::int64_t mid = lo + (hi - lo + 1) / 2;
        if (t5Bucket(mid, b) == bucket)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

} // namespace

std::vector<T5Run> t5Runs(const T5Buckets &b, std::int64_t first, std::int64_t last)
{
    std::vector<T5Run> runs;
    for (std::int64_t k = first; k <= last;) {
        const std::int64_t end = runEnd(k, last, b);
        runs.push_back({k, end, t5Bucket(k, b)});
        k = end + 1;
    }
    return runs;
}

std::int64_t t5LastBucketStart(const T5Buckets &b)
{
    // The keys before the query (offsets -n) reach the last bucket by -maxDistance: the start of the
    // run that ends there.
    return -t5Runs(b, -b.maxDistance, 0).front().last;
}

} // namespace pe

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

std::int64_t t5LastBucketStart(const T5Buckets &b)
{
    const int last = b.directionBuckets() - 1;
    // Bidirectional: count the distances of keys before the query (bucket = n); causal: the same.
    std::int64_t n = 0;
    while (n < b.maxDistance && t5Bucket(-n, b) < last)
        ++n;
    return n;
}

} // namespace pe

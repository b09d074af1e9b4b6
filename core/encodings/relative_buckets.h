#pragma once

#include <cstdint>
#include <vector>

namespace pe {

// T5's relative attention bias (Raffel et al. 2020): a learned scalar per head for each bucket of the
// offset between a key and its query, added to the attention scores. The buckets are transformers'
// T5Attention._relative_position_bucket (modeling_t5.py, "adapted from Mesh TensorFlow",
// transformer_layers.py#L593), read there and written here without its code.
//
// relativePosition is memory_position - query_position (key minus query: s - t). Bidirectional (the
// encoder): half the buckets for keys after the query, half for the others, offset 0 in bucket 0.
// Causal (the decoder): every key after the query in bucket 0, all buckets for the distance to the
// keys before it. Of a direction's buckets, the first half hold one distance each (exact); the
// others grow logarithmically up to maxDistance; every distance from there on shares the last.
struct T5Buckets {
    int buckets = 32;               // relative_attention_num_buckets
    std::int64_t maxDistance = 128; // relative_attention_max_distance
    bool bidirectional = true;      // not is_decoder

    // The buckets one direction has (N/2 bidirectional, N causal), and the distances below which a
    // bucket holds one distance (half of them).
    int directionBuckets() const { return bidirectional ? buckets / 2 : buckets; }
    int maxExact() const { return directionBuckets() / 2; }
};

// The bucket of one offset. The logarithmic part is computed in float32 as transformers does
// (log(rp.float() / max_exact) / math.log(max_distance / max_exact) * (buckets - max_exact), then
// truncated toward zero), so the boundaries fall where the model's do.
int t5Bucket(std::int64_t relativePosition, const T5Buckets &b);

// The offsets first..last in runs of one bucket each, in order. A bucket's offsets are one interval
// (each side's buckets never decrease with the distance, and the two sides share none but 0's), so
// each run's end is found by bisection: about 2·buckets runs at O(log) each, whatever the range.
struct T5Run {
    std::int64_t first, last; // offsets s - t, inclusive
    int bucket;
};
std::vector<T5Run> t5Runs(const T5Buckets &b, std::int64_t first, std::int64_t last);

// The smallest distance n >= 0 in the last bucket of a direction: every distance from it on is there
// (91 for T5's 32 buckets and 128 bidirectional, 113 causal; below maxDistance, by the truncation).
std::int64_t t5LastBucketStart(const T5Buckets &b);

} // namespace pe

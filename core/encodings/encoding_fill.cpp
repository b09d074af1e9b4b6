// The hot loop of the encoding, in a file of its own so it can be built with -O3 and
// per-CPU clones. Instead of one sin and one cos per element (about 15 ns each in glibc), each
// column is a unit vector rotated by its step angle from row to row: PE(t+k) = T(k) PE(t)
// (REFERENCE.md section 2). The rotation is re-seeded from exact values every kReseedRows rows so
// its rounding error stays near 1e-14 instead of growing with the row count.
#include "encodings/encoding.h"
#include "support/parallel.h"
#include "support/simd_clones.h"

#include <algorithm>
#include <vector>

namespace pe {

namespace {

constexpr std::int64_t kReseedRows = kFillReseedRows;

// Writes `rows` rows of state s (one value per column) and rotates (s, c) by (cw, sw) each row.
PE_CLONES void rotateRows(double *__restrict s, double *__restrict c, const double *__restrict cw,
                          const double *__restrict sw, int n, double *__restrict out, std::int64_t outStride,
                          std::int64_t rows)
{
    for (std::int64_t r = 0; r < rows; ++r) {
        double *__restrict o = out + r * outStride;
        for (int k = 0; k < n; ++k) {
            const double sk = s[k];
            const double ck = c[k];
            o[k] = sk;
            s[k] = sk * cw[k] + ck * sw[k];
            c[k] = ck * cw[k] - sk * sw[k];
        }
    }
}

// Jittered rows: the state of the span's base row turned on by the row's offset angle.
PE_CLONES void rotateJitteredRows(double *__restrict s, double *__restrict c, const double *__restrict cw,
                                  const double *__restrict sw, const double *__restrict offsetCos,
                                  const double *__restrict offsetSin, const int *__restrict offsetIndex, int n,
                                  double *__restrict out, std::int64_t outStride, std::int64_t rows)
{
    for (std::int64_t r = 0; r < rows; ++r) {
        double *__restrict o = out + r * outStride;
        const double *__restrict oc = offsetCos + static_cast<std::size_t>(offsetIndex[r]) * n;
        const double *__restrict os = offsetSin + static_cast<std::size_t>(offsetIndex[r]) * n;
        for (int k = 0; k < n; ++k) {
            const double sk = s[k];
            const double ck = c[k];
            o[k] = sk * oc[k] + ck * os[k];
            s[k] = sk * cw[k] + ck * sw[k];
            c[k] = ck * cw[k] - sk * sw[k];
        }
    }
}

} // namespace

void Encoding::seedColumns(const Block &block, std::int64_t position, double *s, double *c) const
{
    const auto t = static_cast<double>(position);
    for (int k = 0; k < block.cols; ++k) {
        const int j = block.column(k);
        double sv, cv;
        sinCosOfProduct(t, columnFreq_[j], sv, cv);
        sv *= columnAmp_[static_cast<std::size_t>(j)]; // rotations keep the length: the factor seeds it
        cv *= columnAmp_[static_cast<std::size_t>(j)];
        // A cosine column carries (cos, -sin): the same rotation then turns it correctly.
        if (columnSine_[j]) {
            s[k] = sv;
            c[k] = cv;
        } else {
            s[k] = cv;
            c[k] = -sv;
        }
    }
}

void Encoding::jitterTurns(const Block &block, std::vector<double> &offsetCos, std::vector<double> &offsetSin) const
{
    const int m = block.jitterCount(), n = block.cols;
    offsetCos.resize(static_cast<std::size_t>(m) * n);
    offsetSin.resize(offsetCos.size());
    // jitters x d exact turns (64 x 4,096 at the largest): on every core when there are many.
    parallelFor(
        m,
        [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t i = begin; i < end; ++i)
                for (int k = 0; k < n; ++k)
                    sinCosOfProduct(static_cast<double>(block.jitterOffset(static_cast<int>(i))),
                                    columnFreq_[block.column(k)], offsetSin[static_cast<std::size_t>(i) * n + k],
                                    offsetCos[static_cast<std::size_t>(i) * n + k]);
        },
        std::max<std::int64_t>(1, 8192 / std::max(n, 1)));
}

RowStream::RowStream(const Encoding &encoding, const Block &block)
    : encoding_(encoding)
    , block_(block)
    , rotates_(encoding.hasFrequencies())
{
    if (!rotates_)
        return;
    const auto n = static_cast<std::size_t>(std::max(block.cols, 0));
    state_.resize(4 * n);
    for (int k = 0; k < block.cols; ++k)
        sinCosOfProduct(static_cast<double>(block.positionStep), encoding.columnFreq_[block.column(k)],
                        state_[3 * n + static_cast<std::size_t>(k)], state_[2 * n + static_cast<std::size_t>(k)]);
    if (block.jittered())
        encoding.jitterTurns(block, offsetCos_, offsetSin_);
}

std::int64_t RowStream::next(double *out, std::int64_t maxRows, std::int64_t outRowStride)
{
    const std::int64_t rows = std::min(maxRows, block_.rows - done_);
    if (rows <= 0 || block_.cols <= 0)
        return 0;
    if (outRowStride < 0)
        outRowStride = block_.cols;
    if (!rotates_) { // a table or ALiBi: the rows as the fill gives them
        Block part = block_;
        part.firstPosition = block_.firstPosition + done_ * block_.positionStep;
        part.rows = rows;
        encoding_.fill(part, out, outRowStride);
        done_ += rows;
        return rows;
    }
    const int n = block_.cols;
    double *s = state_.data(), *c = s + n, *cw = c + n, *sw = cw + n;
    std::int64_t written = 0;
    while (written < rows) {
        if (done_ % kReseedRows == 0)
            encoding_.seedColumns(block_, block_.firstPosition + done_ * block_.positionStep, s, c);
        const std::int64_t now = std::min(rows - written, kReseedRows - done_ % kReseedRows);
        if (offsetCos_.empty()) {
            rotateRows(s, c, cw, sw, n, out + written * outRowStride, outRowStride, now);
        } else {
            offsetIndex_.resize(static_cast<std::size_t>(now));
            for (std::int64_t r = 0; r < now; ++r)
                offsetIndex_[static_cast<std::size_t>(r)] = block_.jitterIndex(done_ + r);
            rotateJitteredRows(s, c, cw, sw, offsetCos_.data(), offsetSin_.data(), offsetIndex_.data(), n,
                               out + written * outRowStride, outRowStride, now);
        }
        written += now;
        done_ += now;
    }
    return rows;
}

void Encoding::fill(const Block &block, double *out, std::int64_t outRowStride) const
{
    const int n = block.cols;
    if (n <= 0 || block.rows <= 0)
        return;
    // Each scheme fills its own way; a new scheme is a new case (no default: the compiler says where).
    switch (params_.scheme) {
    case SchemeId::Table: {
        const PositionTable &table = *params_.table;
        for (std::int64_t r = 0; r < block.rows; ++r) {
            double *o = out + r * outRowStride;
            const std::int64_t t = block.position(r);
            if (block.columnGroup == 1)
                table.readRow(t, block.firstColumn, block.columnStep, n, o);
            else
                for (int k = 0; k < n; ++k)
                    o[k] = table.value(t, block.column(k));
        }
        return;
    }
    case SchemeId::Alibi: // no vector: ALiBi and T5 add nothing to the tokens
    case SchemeId::T5:
        for (std::int64_t r = 0; r < block.rows; ++r)
            std::fill(out + r * outRowStride, out + r * outRowStride + n, 0.0);
        return;
    case SchemeId::Sinusoidal:
    case SchemeId::Rope:
        break;
    }
    // The rotation: the whole block through one stream (RowStream keeps the fill's turns and reseeds).
    RowStream(*this, block).next(out, block.rows, outRowStride);
}

} // namespace pe

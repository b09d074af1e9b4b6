#pragma once

#include "encodings/encoding_params.h"
#include "encodings/position_table.h"
#include "encodings/scheme.h"

#include <cstdint>
#include <numbers>
#include <string>
#include <vector>

namespace pe {

// A rectangle of the encoding matrix, possibly sampled with strides: row r holds position
// firstPosition + r * positionStep (plus a jitter offset, below), column c holds dimension
// column(c): groups of columnGroup adjacent columns, one group every columnStep columns.
struct Block {
    std::int64_t firstPosition = 0;
    std::int64_t positionStep = 1;
    std::int64_t rows = 0;
    int firstColumn = 0;
    int columnStep = 1;
    int cols = 0;
    // 2 keeps each sampled pair's sine and cosine side by side (interleaved layouts): a plain even
    // stride would keep only the sines.
    int columnGroup = 1;
    // Jittered rows: row r holds a position inside its span [base, base + positionStep), at one of
    // `jitters` fixed offsets (0: no jitter) chosen by a hash of the base position. Thinning with
    // a fixed stride resonates with every period near a divisor of the stride (a fast column then
    // shows a slow wave that is not there); jitter turns that into the noise it really is at this
    // scale. The offsets are floor(step * frac(k * golden ratio)): spread over the span and on no
    // lattice, since offsets that are all multiples of some u alias with every period 2u.
    int jitters = 0;
    std::int64_t lastPosition = 0; // with jitter: no row goes past it

    static constexpr int kJitterOffsets = 64;

    std::int64_t size() const { return rows * cols; }
    int column(int c) const { return firstColumn + (c / columnGroup) * columnStep + c % columnGroup; }
    bool sampled() const { return positionStep > 1 || columnStep > columnGroup; }
    bool jittered() const { return jitters > 1 && positionStep > 1; }
    // Which of the jitter offsets row r uses (0 without jitter), and the offset itself.
    int jitterIndex(std::int64_t r) const;
    std::int64_t jitterOffset(int index) const;
    int jitterCount() const { return jittered() ? jitters : 1; }
    std::int64_t position(std::int64_t r) const
    {
        return firstPosition + r * positionStep + jitterOffset(jitterIndex(r));
    }
};

// The wavelength of an angular frequency, in positions: 2π / ω.
inline double wavelengthOf(double omega)
{
    return 2.0 * std::numbers::pi / omega;
}

// The encoding for one set of parameters, the one description of a scheme every view asks: what each
// column holds as a function of position (value, fill), which columns form rotating pairs and at
// what frequency, and whether dot products depend on the offset alone (OffsetKernel::applies).
//
// RoPE: the sinusoids' machinery with θ'_i (ropeFrequencies) and the cosine first in each pair.
// The sinusoids (both layouts, both exponents): angles are computed in double with the rounding
// error of t*w folded back in, so every value matches a long-double evaluation of sin/cos(t * w) to
// about 1e-15 for positions up to 1e9.
// A position table (params.table): row t is position t; its pairs are columns (2i, 2i+1), as the
// interleaved layout's, but they have no frequency (hasFrequencies() is false, channelCount() 0).
class Encoding
{
  public:
    // The parameters must pass validate(); throws std::invalid_argument otherwise.
    explicit Encoding(const EncodingParams &params);

    const EncodingParams &params() const { return params_; }
    int dModel() const { return params_.dModel; }
    const PositionTable *table() const { return params_.table.get(); }
    // False for a table (no column turns at a known frequency) and for ALiBi and T5 (no vector at all).
    bool hasFrequencies() const { return params_.scheme != SchemeId::Table && hasVectors(); }
    // False for ALiBi and T5: they add nothing to the tokens (their values are all 0); their
    // positions are a bias on the attention scores (scheme.h's addsVector).
    bool hasVectors() const { return addsVector(params_.scheme); }
    // The length of every rotated pair's (cos, sin): RoPE's attention factor (YaRN's, LongRoPE's,
    // a given one), else 1 (a table's pairs have none). Partial rotary's standing pairs keep length 1:
    // transformers multiplies the rotated dimensions' cos and sin alone (q_pass stays as it is).
    double amplitude() const { return amplitude_; }
    // The length a column's or a pair's values have: amplitude() on a rotated pair, 1 on the others.
    double columnAmplitude(int column) const { return columnAmp_[static_cast<std::size_t>(column)]; }
    double pairAmplitude(int pair) const { return columnAmplitude(pairSineColumn(pair)); }

    // A channel is one distinct frequency: a (sin, cos) pair for the pair exponent (ceil(d/2) of
    // them), a single column for the per-index exponent (d of them).
    int channelCount() const { return static_cast<int>(channelFreq_.size()); }
    double channelFrequency(int channel) const { return channelFreq_[channel]; }
    double channelWavelength(int channel) const; // 2*pi / w

    int columnChannel(int column) const;
    bool columnIsSine(int column) const;
    double columnFrequency(int column) const { return columnFreq_[column]; }

    // At any real position for the formulas (the sinusoids and RoPE are defined between whole
    // positions: playback's fractional ones, noise.h's realPositionProblem); a table's rows are
    // whole positions, and a fraction there is dropped (callers ask realPositionProblem first).
    double value(double position, int column) const;

    // A pair is a sine column and its cosine partner: ceil(d/2) pairs when interleaved (with odd d
    // the last sine has no partner), d/2 when split. Each pair is one clock hand.
    int pairCount() const { return params_.layout == Layout::Split ? params_.dModel / 2 : (params_.dModel + 1) / 2; }
    // RoPE keeps Meta's freqs_cis order, cosine first: (cos, sin) in columns (2i, 2i+1), or (i, d/2+i).
    int pairSineColumn(int pair) const;
    int pairCosineColumn(int pair) const; // -1 when the pair has no partner
    // The hand's speed: the sine column's frequency (with the per-index exponent the cosine column
    // turns at its own, slightly slower speed; seed 002's clock faces follow the sine column too).
    // NaN for a table.
    double pairFrequency(int pair) const { return columnFrequency(pairSineColumn(pair)); }
    double pairWavelength(int pair) const { return wavelengthOf(pairFrequency(pair)); }
    // sin and cos of the hand's angle position * pairFrequency, exact as value() is. For a table the
    // pair's two values as they are (not of unit length). Any real position, as value().
    void pairSinCos(double position, int pair, double &s, double &c) const;

    // Writes block.rows x block.cols values, row-major, with the given row stride (>= cols).
    void fill(const Block &block, double *out, std::int64_t outRowStride) const;
    void fill(const Block &block, double *out) const { fill(block, out, block.cols); }

    // The whole seq_len x d_model window starting at start_pos.
    Block windowBlock() const;

    friend class RowStream;

  private:
    // The rotation state of the fill at a position: (sin, cos) of each of the block's columns
    // (a cosine column as (cos, -sin)), times the amplitude.
    void seedColumns(const Block &block, std::int64_t position, double *s, double *c) const;
    // A jittered block's turns by each of its offsets, jitters x block.cols, row-major.
    void jitterTurns(const Block &block, std::vector<double> &offsetCos, std::vector<double> &offsetSin) const;

    EncodingParams params_;
    std::vector<double> channelFreq_;
    std::vector<double> columnFreq_;
    std::vector<unsigned char> columnSine_;
    double amplitude_ = 1.0;
    std::vector<double> columnAmp_; // columnAmplitude, d of them
};

// The fill reseeds each column from exact values every this many rows of a block (encoding_fill.cpp).
inline constexpr std::int64_t kFillReseedRows = 256;

// The rows of a block a few at a time, into the caller's buffer: the same values as Encoding::fill,
// with the fill's rotation kept between calls, so a block streamed through a small buffer costs one
// seed per 256 rows however few rows each call asks for (a fill of a few rows at a time pays a sin
// and a cos per column each time, and a jittered one its jitters x d turns).
class RowStream
{
  public:
    RowStream(const Encoding &encoding, const Block &block);
    // Writes the next min(maxRows, rows left) rows, block.cols values each (rows outRowStride apart,
    // block.cols by default), and returns how many.
    std::int64_t next(double *out, std::int64_t maxRows, std::int64_t outRowStride = -1);

  private:
    const Encoding &encoding_;
    Block block_;
    bool rotates_;
    std::int64_t done_ = 0;
    std::vector<double> state_;                 // s, c, and the step's cos and sin, block.cols each
    std::vector<double> offsetCos_, offsetSin_; // jittered: the turn by each offset (jitterTurns)
    std::vector<int> offsetIndex_;
};

// Frequency of a channel for any valid parameters, without building the whole Encoding.
double channelFrequency(const EncodingParams &params, int channel);
int channelCount(const EncodingParams &params);

// sin and cos of position * w where the product's rounding error is folded back in (first order).
void sinCosOfProduct(double position, double w, double &s, double &c);

// The stride that keeps n evenly spaced samples within maxCount: ceil(n / maxCount), at least 1.
std::int64_t sampleStride(std::int64_t n, std::int64_t maxCount);

// Index of the sample nearest to coord among count samples first, first + stride, ...
std::size_t nearestSample(double coord, std::int64_t first, std::int64_t stride, std::size_t count);

// Positions [firstPosition, firstPosition + positions) and dimensions [firstColumn, firstColumn +
// columns) as a block of at most maxRows x maxCols cells: what a view asks for when it draws at most
// one cell per pixel. Where there are more, positions are thinned with jitter and columns by whole
// pairs for interleaved layouts (each kept pair's sine and cosine), by a plain stride for split
// halves (where a stride keeps sines and cosines alike). A picture of it never aliases the pairs.
Block sampledBlock(Layout layout, std::int64_t firstPosition, std::int64_t positions, std::int64_t maxRows,
                   int firstColumn, int columns, std::int64_t maxCols);
// The same for positions only (one column): the rows of sampledBlock, with at most `jitters`
// offsets (fewer makes the distance matrix's offset differences fewer).
Block sampledPositions(std::int64_t firstPosition, std::int64_t positions, std::int64_t maxRows,
                       int jitters = Block::kJitterOffsets);
// What the reduction did, for a view's title: "" when nothing was reduced.
std::string samplingText(const Block &block, bool formulaPairs = true);

// Indices 0..n-1 thinned to at most maxCount, always keeping the first and the last: what a
// curve needs when it has more samples than pixels.
std::vector<int> sampledIndices(int n, int maxCount);

} // namespace pe

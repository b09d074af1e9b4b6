#include "encodings/encoding.h"

#include "encodings/rope.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

namespace pe {

namespace {

// Exponent numerator e of column j, so that w_j = base^(-e/d).
int columnExponent(const EncodingParams &p, int j)
{
    if (p.exponent == Exponent::Index)
        return j;
    if (p.layout == Layout::Split) {
        const int half = p.dModel / 2;
        return 2 * (j < half ? j : j - half);
    }
    return 2 * (j / 2);
}

double frequencyForExponent(double base, int e, int d)
{
    return std::pow(base, -static_cast<double>(e) / d);
}

} // namespace

int channelCount(const EncodingParams &p)
{
    switch (p.scheme) {
    case SchemeId::Table:
    case SchemeId::Alibi:
    case SchemeId::T5:
        return 0;
    case SchemeId::Rope:
        return p.dModel / 2;
    case SchemeId::Sinusoidal:
        break;
    }
    return p.exponent == Exponent::Index ? p.dModel : (p.dModel + 1) / 2;
}

double channelFrequency(const EncodingParams &p, int channel)
{
    if (p.scheme == SchemeId::Rope)
        return ropeFrequencies(p.base, p.dModel, p.rope, p.startPos + p.seqLen)[static_cast<std::size_t>(channel)];
    const int e = p.exponent == Exponent::Index ? channel : 2 * channel;
    return frequencyForExponent(p.base, e, p.dModel);
}

Encoding::Encoding(const EncodingParams &params)
    : params_(params)
{
    if (auto err = validate(params))
        throw std::invalid_argument(err->message);
    const int d = params.dModel;
    if (params.scheme == SchemeId::Rope) {
        // The dynamic scaling sees the sequence length start_pos + seq_len, as Llama's freqs_cis[start_pos:...].
        channelFreq_ = ropeFrequencies(params.base, d, params.rope, params.startPos + params.seqLen);
        amplitude_ = ropeAttentionFactor(params.rope);
        const int rotated = rotatedPairs(d, params.rope);
        columnFreq_.resize(d);
        columnSine_.resize(d);
        columnAmp_.resize(d);
        for (int j = 0; j < d; ++j) {
            columnFreq_[j] = channelFreq_[columnChannel(j)];
            columnSine_[j] = params.layout == Layout::Split ? j >= d / 2 : j % 2 == 1;
            columnAmp_[j] = columnChannel(j) < rotated ? amplitude_ : 1.0;
        }
        return;
    }
    columnAmp_.assign(static_cast<std::size_t>(d), 1.0);
    if (params.scheme == SchemeId::Table || !addsVector(params.scheme)) {
        columnFreq_.assign(static_cast<std::size_t>(d), std::numeric_limits<double>::quiet_NaN());
        columnSine_.resize(static_cast<std::size_t>(d));
        for (int j = 0; j < d; ++j)
            columnSine_[static_cast<std::size_t>(j)] = j % 2 == 0;
        return;
    }
    channelFreq_.resize(pe::channelCount(params));
    for (int c = 0; c < pe::channelCount(params); ++c)
        channelFreq_[c] = pe::channelFrequency(params, c);
    columnFreq_.resize(d);
    columnSine_.resize(d);
    for (int j = 0; j < d; ++j) {
        columnFreq_[j] = channelFreq_[columnChannel(j)];
        columnSine_[j] = params.layout == Layout::Split ? j < d / 2 : j % 2 == 0;
    }
}

double Encoding::channelWavelength(int channel) const
{
    return wavelengthOf(channelFreq_[channel]);
}

int Encoding::columnChannel(int column) const
{
    if (params_.scheme == SchemeId::Table || !addsVector(params_.scheme))
        return column / 2;
    if (params_.scheme == SchemeId::Rope)
        return params_.layout == Layout::Split ? column % (params_.dModel / 2) : column / 2;
    if (params_.exponent == Exponent::Index)
        return column;
    return columnExponent(params_, column) / 2;
}

bool Encoding::columnIsSine(int column) const
{
    return columnSine_[column] != 0;
}

void sinCosOfProduct(double position, double w, double &s, double &c)
{
    const double angle = position * w;
    const double err = std::fma(position, w, -angle); // exact: position*w == angle + err
    const double s0 = std::sin(angle);
    const double c0 = std::cos(angle);
    s = s0 + err * c0;
    c = c0 - err * s0;
}

int Encoding::pairSineColumn(int pair) const
{
    if (params_.scheme == SchemeId::Rope)
        return params_.layout == Layout::Split ? params_.dModel / 2 + pair : 2 * pair + 1;
    return params_.layout == Layout::Split ? pair : 2 * pair;
}

int Encoding::pairCosineColumn(int pair) const
{
    if (params_.scheme == SchemeId::Rope)
        return params_.layout == Layout::Split ? pair : 2 * pair;
    const int column = params_.layout == Layout::Split ? params_.dModel / 2 + pair : 2 * pair + 1;
    return column < params_.dModel ? column : -1;
}

void Encoding::pairSinCos(double position, int pair, double &s, double &c) const
{
    switch (params_.scheme) {
    case SchemeId::Table: {
        const int cj = pairCosineColumn(pair);
        const auto row = static_cast<std::int64_t>(std::floor(position));
        s = params_.table->value(row, pairSineColumn(pair));
        c = cj >= 0 ? params_.table->value(row, cj) : 0.0;
        return;
    }
    case SchemeId::Alibi:
    case SchemeId::T5:
        s = c = 0;
        return;
    case SchemeId::Sinusoidal:
    case SchemeId::Rope:
        break;
    }
    sinCosOfProduct(position, pairFrequency(pair), s, c);
    s *= pairAmplitude(pair);
    c *= pairAmplitude(pair);
}

double Encoding::value(double position, int column) const
{
    switch (params_.scheme) {
    case SchemeId::Table:
        return params_.table->value(static_cast<std::int64_t>(std::floor(position)), column);
    case SchemeId::Alibi:
    case SchemeId::T5:
        return 0.0;
    case SchemeId::Sinusoidal:
    case SchemeId::Rope:
        break;
    }
    double s, c;
    sinCosOfProduct(position, columnFreq_[column], s, c);
    return columnAmp_[static_cast<std::size_t>(column)] * (columnSine_[column] ? s : c);
}

Block Encoding::windowBlock() const
{
    Block b;
    b.firstPosition = params_.startPos;
    b.rows = params_.seqLen;
    b.cols = params_.dModel;
    return b;
}

std::int64_t sampleStride(std::int64_t n, std::int64_t maxCount)
{
    const std::int64_t limit = std::max<std::int64_t>(maxCount, 1);
    return std::max<std::int64_t>(1, (n + limit - 1) / limit);
}

std::size_t nearestSample(double coord, std::int64_t first, std::int64_t stride, std::size_t count)
{
    if (count == 0)
        return 0;
    const double k = std::round((coord - static_cast<double>(first)) / static_cast<double>(stride));
    return static_cast<std::size_t>(std::clamp(k, 0.0, static_cast<double>(count - 1)));
}

std::int64_t Block::jitterOffset(int index) const
{
    if (index == 0)
        return 0;
    const double golden = 0.6180339887498949;
    const double f = index * golden - std::floor(index * golden);
    return std::min(positionStep - 1, static_cast<std::int64_t>(std::floor(f * static_cast<double>(positionStep))));
}

int Block::jitterIndex(std::int64_t r) const
{
    if (!jittered())
        return 0;
    // splitmix64 of the base position: the same rows for the same window, whatever is redrawn.
    std::uint64_t z = static_cast<std::uint64_t>(firstPosition + r * positionStep) + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    int k = static_cast<int>(z % static_cast<std::uint64_t>(jitterCount()));
    const std::int64_t room = lastPosition - (firstPosition + r * positionStep);
    while (k > 0 && jitterOffset(k) > room) // the last span may be short
        --k;
    return k;
}

Block sampledPositions(std::int64_t firstPosition, std::int64_t positions, std::int64_t maxRows, int jitters)
{
    Block b;
    b.firstPosition = firstPosition;
    b.positionStep = sampleStride(positions, maxRows);
    b.rows = (positions + b.positionStep - 1) / b.positionStep;
    b.jitters = b.positionStep > 1 ? static_cast<int>(std::min<std::int64_t>(jitters, b.positionStep)) : 0;
    b.lastPosition = firstPosition + positions - 1;
    b.cols = 1;
    return b;
}

Block sampledBlock(Layout layout, std::int64_t firstPosition, std::int64_t positions, std::int64_t maxRows,
                   int firstColumn, int columns, std::int64_t maxCols)
{
    Block b = sampledPositions(firstPosition, positions, maxRows);
    b.firstColumn = firstColumn;
    if (columns <= maxCols || layout == Layout::Split) {
        b.columnStep = static_cast<int>(sampleStride(columns, maxCols));
        b.cols = (columns + b.columnStep - 1) / b.columnStep;
        return b;
    }
    // Whole pairs (2i, 2i+1): start on a sine column, keep one pair every `pairs` pairs.
    const int start = firstColumn + firstColumn % 2;
    const int last = firstColumn + columns - 1;
    const int span = last - start + 1;
    const std::int64_t half = std::max<std::int64_t>(1, maxCols / 2);
    const int pairs = static_cast<int>(std::max<std::int64_t>(1, (span + 2 * half - 1) / (2 * half)));
    b.firstColumn = start;
    b.columnGroup = 2;
    b.columnStep = 2 * pairs;
    const int groups = (span + b.columnStep - 1) / b.columnStep;
    const bool lastHasCosine = start + (groups - 1) * b.columnStep + 1 <= last;
    b.cols = 2 * groups - (lastHasCosine ? 0 : 1);
    return b;
}

std::string samplingText(const Block &b, bool formulaPairs)
{
    std::string parts;
    if (b.positionStep > 1)
        parts = "1 position in each " + std::to_string(b.positionStep) + (b.jittered() ? " (jittered)" : "");
    if (b.columnStep > b.columnGroup) {
        if (!parts.empty())
            parts += ", ";
        parts += b.columnGroup == 2 ? std::string(formulaPairs ? "1 pair (sin and cos)" : "1 pair of columns") +
                                          " in " + std::to_string(b.columnStep / 2)
                                    : "1 dimension in " + std::to_string(b.columnStep);
    }
    return parts.empty() ? std::string() : "sampled: " + parts;
}

std::vector<int> sampledIndices(int n, int maxCount)
{
    std::vector<int> out;
    if (n <= 0 || maxCount <= 0)
        return out;
    if (n <= maxCount || maxCount == 1) {
        const int count = n <= maxCount ? n : 1;
        out.reserve(count);
        for (int i = 0; i < count; ++i)
            out.push_back(i);
        return out;
    }
    out.reserve(maxCount);
    for (int k = 0; k < maxCount; ++k)
        out.push_back(static_cast<int>(std::llround(static_cast<double>(k) * (n - 1) / (maxCount - 1))));
    return out;
}

} // namespace pe

#pragma once

#include "analysis/attention.h"
#include "analysis/precision.h"
#include "analysis/recovery.h"
#include "analysis/similarity.h"
#include "analysis/spectrum.h"
#include "encodings/encoding.h"
#include "encodings/noise.h"
#include "encodings/relative_buckets.h"
#include "encodings/rope_grid.h"
#include "projections/point_colors.h"
#include "projections/projection.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace pe {

enum class DataFormat { Csv, Npy };

// .csv or .npy, by the path's extension (case-insensitive); nullopt for anything else.
std::optional<DataFormat> dataFormatForPath(const std::string &path);

// A table produced a block of rows at a time, so any allowed size is written without holding it all.
struct Table {
    std::string indexHeader;                // CSV's first column (and the NPY's, unless a matrix)
    std::vector<std::string> columnHeaders; // CSV only
    std::int64_t rows = 0;
    int cols = 0;
    std::function<std::int64_t(std::int64_t row)> indexOf;                            // the first column
    std::function<void(std::int64_t firstRow, std::int64_t count, double *out)> fill; // row-major
    // A matrix whose rows are the window's positions (the encoding, the embeddings, the N x N
    // distance and attention): its NPY is the matrix alone, so np.load gives it and --table reads
    // it back. Every other NPY holds the CSV's columns in the CSV's order, the index first.
    bool matrix = false;
    // Once the table is written, what its reader should know that the file cannot say (a
    // projection's approximate neighbours and their recall); empty for nothing. The command line
    // prints it on stderr.
    std::function<std::string()> note;
    // The NPY's columns: cols, and the index unless a matrix.
    int npyCols() const { return cols + (matrix ? 0 : 1); }
};

// The file's size before it is written: exact for NPY; for CSV a bound, since the shortest
// round-trip text of a double (std::to_chars) takes at most 24 characters ("-2.2250738585072014e-308").
std::uint64_t estimatedFileSize(const Table &table, DataFormat format);
// One sentence when the file cannot fit in the free space of its folder, naming both sizes; nothing
// when it can, or when the free space cannot be read (the write then reports what went wrong).
std::optional<std::string> spaceProblem(const Table &table, const std::string &path, DataFormat format);

// CSV: one header line, then the index and the values (shortest round-trip text).
// NPY: version 1.0, '<f8', C order, shape (rows, npyCols()): the CSV's columns, index first (a
// matrix: its values alone).
// Refuses, writing nothing, what spaceProblem() refuses.
// progress, if given, is called after each block with the fraction written; returning false cancels
// (error says so, and nothing is left behind).
bool writeTable(const Table &table, const std::string &path, DataFormat format, std::string &error,
                const std::function<bool(double)> &progress = {});

// The seq_len x d_model window; rows are positions start_pos, start_pos + 1, ... With noise, the
// embeddings x = PE + sigma z instead (seed 001's input).
Table encodingTable(const Encoding &encoding, const NoiseParams &noise = {});
// The relative-position view's numbers, one row per pair: omega, wavelength, the 2 x 2 block of
// T(k), and the pair's own reading of the offset between x(t) and x(t+k) (atan2, seed 002).
Table relativeTable(const Encoding &encoding, const NoiseParams &noise, std::int64_t t, std::int64_t k);
// The clock hands: each pair's angle t w_i reduced to [0, 2 pi), one column per pair.
Table angleTable(const Encoding &encoding);
// One row per channel: omega and wavelength; the index column is the pair (or column) index.
// RoPE adds the unscaled omega and wavelength, the ratio omega'/omega and the pair's regime under
// the scaling (0 kept: extrapolates past L; 1 interpolated: omega/s; 2 blended; 3 beyond omega/s).
// A table has no channels: its spectrum instead.
Table frequencyTable(const Encoding &encoding);
// Each column's measured dominant frequency (columnSpectrum): CSV
// "dimension,omega,wavelength,peak_share,resolved" (resolved 1 when at least two periods fit).
Table spectrumTable(const Encoding &encoding);

// RoFormer's decay of a RoPE encoding for offsets 0..seq_len-1: CSV "offset,score,bound" (xPos adds
// "xpos_score"), and with `samples` seeded random (q, k) pairs their band, "random_mean,random_sd"
// (ropeDecayCurves: the figure's band at every offset of the window).
Table ropeDecayTable(const Encoding &rope, int samples = 0, std::uint64_t seed = 0);
// ALiBi's slopes, head 1..heads: CSV "head,slope".
Table slopesTable(int heads);
// RoPE in a precision against float64, one row a position of the window (precision.h): CSV
// "position,angle_error,value_error,equal_pairs".
Table precisionTable(const Encoding &rope, Precision precision);
// T5's bucket of every offset s - t of the window, -(seq_len-1)..seq_len-1, as
// _relative_position_bucket gives it: CSV "offset,bucket".
Table bucketsTable(std::int64_t seqLen, const T5Buckets &buckets);
// T5's learned bias of every offset s - t of the window, -(seq_len-1)..seq_len-1, for every head of
// its table ([buckets, heads]): CSV "offset,head_1,...,head_H".
Table t5BiasTable(std::int64_t seqLen, const T5Buckets &buckets, std::shared_ptr<const PositionTable> bias);
// The softmaxed positional attention of the window, N x N: CSV "position,<s>,...". seq_len at most
// kMaxDistanceRows.
Table attentionTable(const Encoding &encoding, const AttentionSettings &settings);
// Llama 4's NoPE temperature τ(t) for every position of the window: CSV "position,temperature".
Table temperatureTable(const EncodingParams &params);
// RoPE over a grid of patches (rope_grid.h), a row a patch: its frame, row, column and cosine
// similarity to the reference patch: CSV "position,frame,row,column,similarity", the position
// firstPosition + patch index.
Table gridTable(const std::vector<GridPair> &pairs, const PatchGrid &grid, std::int64_t firstPosition,
                const GridPatch &reference);
// The same for any similarity of the patches (a ViT table's cosine similarities), computed when the
// first block is written.
Table gridTable(const PatchGrid &grid, std::int64_t firstPosition, std::function<std::vector<double>()> similarity);
// Its pairs in the model's order: CSV "pair,axis,theta,wavelength,angle", axis 0 the frame, 1 the row,
// 2 the column, 3 none (a pair that stands still); the angle at the reference patch, in [0, 2π).
Table gridPairsTable(const std::vector<GridPair> &pairs, const GridPatch &reference, std::int64_t offset);

// metric(x_t, PE(reference)) for every position: CSV "position,similarity".
Table similarityTable(const Encoding &encoding, const NoiseParams &noise, std::int64_t reference, Metric metric);
// Seed 001's recovery: CSV "position,predicted". Needs recoveryTooLarge() to be empty.
Table recoveryTable(const Encoding &encoding, const NoiseParams &noise);
// The same from a recovery already computed (a view's).
Table recoveryTable(const Recovery &recovery, std::int64_t firstPosition);
// The seq_len x seq_len matrix metric(x_t, PE(s)): CSV "position,<s>,...". seq_len at most kMaxDistanceRows.
inline constexpr std::int64_t kMaxDistanceRows = 10'000;
Table distanceTable(const Encoding &encoding, const NoiseParams &noise, Metric metric);

// Seed 004's projection, computed to completion (every iteration or epoch) in `components` (2 or 3)
// dimensions: CSV "position,x,y" (in 3-D "position,x,y,z"), and with a colouring other than
// position its values as one more column (colorColumnHeader: "norm",
// "phase_3", "label": the legend's index, -1 unlabelled). The colouring must be possible
// (pointColors refuses nothing the caller has not checked); a labels file that fails between
// the check and the write leaves that column NaN.
Table projectionTable(const Encoding &encoding, const NoiseParams &noise, ProjectionMethod method,
                      const TsneSettings &settings, const UmapSettings &umap = {}, const ColorBy &colorBy = {},
                      int components = 2);
// Coordinates already computed (n x dims, row-major) for positions firstPosition, ...: "position,x,y"
// (and ",z" in 3-D), and the colouring's column when `colors` is given and not by position (its
// values one a row).
Table coordinateTable(std::int64_t firstPosition, std::vector<double> coords, int dims,
                      const PointColors *colors = nullptr);

// Values computed up front, row-major with one column per header; rows are indexed from firstIndex.
Table valuesTable(std::string indexHeader, std::vector<std::string> headers, std::int64_t firstIndex,
                  std::vector<double> values);
// The same computed by `compute` when the first block is written (so on the writing thread).
Table lazyValuesTable(std::string indexHeader, std::vector<std::string> headers, std::int64_t firstIndex,
                      std::int64_t rows, std::function<std::vector<double>()> compute);

// The NPY 1.0 header for a C-order float64 array of the given shape.
std::string npyHeader(const std::vector<std::int64_t> &shape);

} // namespace pe

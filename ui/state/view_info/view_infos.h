#pragma once

#include "analysis/attention.h"
#include "analysis/precision.h"
#include "analysis/probe.h"
#include "encodings/noise.h"
#include "encodings/rope_grid.h"
#include "projections/point_colors.h"
#include "projections/projection.h"
#include "state/view_registry.h"

#include <QCoreApplication>
#include <QJsonObject>

#include <cstdint>
#include <utility>

// Every view's registry entry, without its widget: the id, title, settings with their ranges and
// command-line options, data exports and the schemes it draws. The list of views
// (state/view_list.cpp) collects them; the views library adds the widget that shows each
// (views/view_list.cpp), so the command line, sessions and data exports need no widget.
ViewInfo heatmapViewInfo();
ViewInfo frequencyViewInfo();
ViewInfo clockGridViewInfo();
ViewInfo pairCircleViewInfo();
ViewInfo similarityViewInfo();
ViewInfo recoveryViewInfo();
ViewInfo distanceViewInfo();
ViewInfo relativeViewInfo();
ViewInfo probeViewInfo();
ViewInfo inputsViewInfo();
ViewInfo projectionViewInfo();
ViewInfo scalingViewInfo();
ViewInfo ropeDecayViewInfo();
ViewInfo attentionViewInfo();
ViewInfo alibiViewInfo();
ViewInfo bucketsViewInfo();
ViewInfo precisionViewInfo();
ViewInfo gridViewInfo();

// An entry's texts are translated in the context of its view's widget class, as that class's own
// tr() did when the entry lived there: PE_VIEW_TEXTS(HeatmapView) gives the file its tr().
#define PE_VIEW_TEXTS(Context)                                                                                         \
    namespace {                                                                                                        \
    QString tr(const char *text)                                                                                       \
    {                                                                                                                  \
        return QCoreApplication::translate(#Context, text);                                                            \
    }                                                                                                                  \
    }

// Ranges the entries declare and the views draw within.
inline constexpr int kMaxMatrixCells = 1024; // cells per side of the attention, ALiBi and T5 heatmaps
inline constexpr int kMaxClockPairs = 128;   // clocks in a row
inline constexpr int kMaxClockRows = 64;     // rows of clocks
// Positions times pairs the precision view and its export compute: 1,000,000 positions at d 256.
inline constexpr double kMaxPrecisionWork = 1.28e8;
// Patches a side the grid figure draws (its data export has every patch).
inline constexpr int kMaxGridFigureSide = 1024;

// Settings two views share: the similarity and distance metric; which pairs the clocks and the
// circles show ("spread", "fastest", "0,5,31"; --pairs).
ViewSetting metricSetting();
ViewSetting pairChoiceSetting(const QString &key);

// A view's settings as the core's parameters, from a completed settings object
// (completeSettings): the view and its data export read them the same way.
pe::AttentionSettings attentionSettingsFrom(const QJsonObject &settings);
// Why the attention view cannot draw T5 (without its learned table), or empty.
QString t5AttentionProblem(const pe::EncodingParams &p);
// Why the attention row is drawn at whole positions only for p (PositionalAttention::realRows), or empty.
QString attentionRealRowsProblem(const pe::EncodingParams &p);
// The row the attention view draws beside the current one: a model's other kind of layer (Gemma's
// local beside its global ones and back, Llama 4's NoPE beside its RoPE ones and back), else, with
// --compare, the other of sinusoidal and RoPE at the same d and base (comparedScheme). The view and
// the attention-row export take it from here.
std::optional<pe::LayerKind> otherLayerKind(const pe::EncodingParams &p, pe::LayerKind shown);
std::optional<pe::EncodingParams> comparedScheme(const pe::EncodingParams &p);
// The recovery view's accuracy-against-σ curve: σ = 0, 0.1, ..., 2 on at most kRecoveryCurveRows
// evenly spaced positions with the noise's z, the view's curve and the recovery-sigma export.
inline constexpr std::int64_t kRecoveryCurveRows = 300;
std::vector<double> recoveryCurveSigmas();
pe::ProbeSettings probeSettingsFrom(const QJsonObject &settings);
pe::ProjectionMethod projectionMethodFrom(const QJsonObject &settings);
pe::TsneSettings tsneSettingsFrom(const QJsonObject &settings);
pe::UmapSettings umapSettingsFrom(const QJsonObject &settings);
// The projection's dimensions (2 or 3) and, in 3-D, the angle it is seen from.
int componentsFrom(const QJsonObject &settings);
pe::ViewAngle viewAngleFrom(const QJsonObject &settings);
// The projection's colouring (colorBy, checked by its setting: position when it does not parse).
pe::ColorBy colorByFrom(const QJsonObject &settings);
// The precision view's type (float64, float32, bfloat16), and why a window is too large for it.
pe::Precision precisionFrom(const QJsonObject &settings);
QString precisionTooLarge(const pe::EncodingParams &p);
// T5's buckets of p with the view's direction (bucketsCausal: the decoder's).
pe::T5Buckets t5BucketsFrom(const pe::EncodingParams &p, const QJsonObject &settings);
// RoPE over a grid of patches as the grid view's settings give it (gridShape, gridRope, mropeSection):
// the grid, the pairs and what they turn with, the offset of M-RoPE's coordinates (start_pos), and
// why it cannot be drawn (problem: not at all; figureProblem: not as a figure, too many patches).
// A position table's rows are patches too: a ViT's grid (PositionTable::gridSide) or --grid; its
// similarity is the rows' cosine similarity (gridSimilarityOf), no pairs.
struct GridSetup {
    pe::PatchGrid grid;
    bool fitted = false; // the squarest grid of seq_len patches (--grid fit), or a ViT table's own
    bool table = false;  // a position table's rows as patches
    pe::GridRope style = pe::GridRope::Pixtral;
    std::array<int, 3> section{};
    std::int64_t offset = 0;
    std::vector<pe::GridPair> pairs;
    QString problem;
    QString figureProblem;
};
GridSetup gridSetupFrom(const pe::EncodingParams &p, const QJsonObject &settings);
// The patch of a position: patch position - start_pos.
pe::GridPatch gridReference(const GridSetup &g, const pe::EncodingParams &p, std::int64_t position);
// Every patch's cosine similarity to the reference patch, in patch order: RoPE's (gridSimilarity), or
// a table's rows' (ViT's figure 7: the similarity of position embeddings).
std::vector<double> gridSimilarityOf(const GridSetup &g, const pe::Encoding &encoding, const pe::GridPatch &reference);
// The probe's training curve as a table: epoch, loss, accuracy, heldout_accuracy.
pe::Table probeCurveTable(const pe::ProbeResult &result);
// The positions t + k may be, [first, end): a table's rows are its only ones, and numpy's noise
// has draws for positions below noiseReach.
std::pair<std::int64_t, std::int64_t> reachablePositions(const pe::EncodingParams &p, const pe::NoiseParams &noise);

#pragma once

#include "projections/tsne.h"
#include "projections/umap.h"

#include <optional>
#include <string>
#include <string_view>

namespace pe {

// Seed 004's picture: every position's vector placed in 2-D.
enum class ProjectionMethod { Tsne, Pca, Umap };
inline constexpr ProjectionMethod kProjectionMethods[] = {ProjectionMethod::Tsne, ProjectionMethod::Pca,
                                                          ProjectionMethod::Umap};

std::optional<ProjectionMethod> parseProjectionMethod(std::string_view name);
std::string_view projectionMethodName(ProjectionMethod method);

struct Projection {
    std::vector<double> xy;       // n x 2, row-major
    int iteration = 0;            // t-SNE: steps done; UMAP: epochs done
    double kl = 0;                // t-SNE: KL divergence at the last measurement
    double explained[2] = {0, 0}; // PCA: fraction of the total variance on each axis
    Recall recall;                // t-SNE, UMAP: their neighbours'
};

// Why the window cannot be projected with this method and these settings, in one sentence;
// nothing when it can. The window and the command line both ask here.
std::optional<std::string> projectionProblem(const EncodingParams &params, const NoiseParams &noise,
                                             ProjectionMethod method, const TsneSettings &settings,
                                             const UmapSettings &umap = {});

// PCA of the window's vectors onto the top two components. Empty xy when cancelled.
Projection pcaProjection(const Encoding &encoding, const NoiseParams &noise, const std::atomic<bool> *cancel = nullptr);

// The projection run to completion (t-SNE: every iteration; UMAP: every epoch). What the command
// line exports.
Projection computeProjection(const Encoding &encoding, const NoiseParams &noise, ProjectionMethod method,
                             const TsneSettings &settings, const UmapSettings &umap = {},
                             const std::atomic<bool> *cancel = nullptr);

} // namespace pe

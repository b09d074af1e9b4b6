#pragma once

#include "projections/tsne.h"
#include "projections/umap.h"

#include <optional>
#include <string>
#include <string_view>

namespace pe {

// Seed 004's picture: every position's vector placed in 2-D or 3-D.
enum class ProjectionMethod { Tsne, Pca, Umap };
inline constexpr ProjectionMethod kProjectionMethods[] = {ProjectionMethod::Tsne, ProjectionMethod::Pca,
                                                          ProjectionMethod::Umap};

std::optional<ProjectionMethod> parseProjectionMethod(std::string_view name);
std::string_view projectionMethodName(ProjectionMethod method);

// The dimensions a projection places the vectors in (scikit-learn's and umap-learn's n_components).
inline constexpr int kMinComponents = 2;
inline constexpr int kMaxComponents = 3;

struct Projection {
    std::vector<double> coords;      // n x dims, row-major
    int dims = 2;                    // 2 or 3
    int iteration = 0;               // t-SNE: steps done; UMAP: epochs done
    double kl = 0;                   // t-SNE: KL divergence at the last measurement
    double explained[3] = {0, 0, 0}; // PCA: fraction of the total variance on each axis
    Recall recall;                   // t-SNE, UMAP: their neighbours'

    std::int64_t size() const { return static_cast<std::int64_t>(coords.size()) / dims; }
};

// Why the window cannot be projected with this method, these settings and `components` dimensions
// (2 or 3), in one sentence; nothing when it can. The window and the command line both ask here.
std::optional<std::string> projectionProblem(const EncodingParams &params, const NoiseParams &noise,
                                             ProjectionMethod method, const TsneSettings &settings,
                                             const UmapSettings &umap = {}, int components = 2);

// PCA of the window's vectors onto the top `components` (2 or 3) components. Empty coords when
// cancelled.
Projection pcaProjection(const Encoding &encoding, const NoiseParams &noise, const std::atomic<bool> *cancel = nullptr,
                         int components = 2);

// The projection run to completion (t-SNE: every iteration; UMAP: every epoch) in `components`
// dimensions. What the command line exports.
Projection computeProjection(const Encoding &encoding, const NoiseParams &noise, ProjectionMethod method,
                             const TsneSettings &settings, const UmapSettings &umap = {},
                             const std::atomic<bool> *cancel = nullptr, int components = 2);

// A 3-D projection seen from a direction, as matplotlib's Axes3D.view_init(elev, azim) sees it
// (its defaults -60 and 30): the eye at azimuth degrees round the third axis from the first, and
// elevation degrees above the plane of the first two. Azimuth -90 and elevation 90 look down the
// third axis onto the first two, as the 2-D picture of the first two dimensions shows them.
struct ViewAngle {
    double azimuth = -60;
    double elevation = 30;
    bool operator==(const ViewAngle &) const = default;
};
// Each point (n x 3, row-major) on the screen's plane: screen (n x 2: to the right, up) and depth
// (n: towards the eye). An orthographic projection: lengths across the screen are kept.
void viewFrom(const std::vector<double> &xyz, ViewAngle angle, std::vector<double> &screen, std::vector<double> &depth);

} // namespace pe

#include "projections/projection.h"

#include "projections/pca.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace pe {

std::optional<ProjectionMethod> parseProjectionMethod(std::string_view name)
{
    return parseName(kProjectionMethods, projectionMethodName, name);
}

std::string_view projectionMethodName(ProjectionMethod method)
{
    return method == ProjectionMethod::Tsne ? "tsne" : method == ProjectionMethod::Pca ? "pca" : "umap";
}

std::optional<std::string> projectionProblem(const EncodingParams &params, const NoiseParams &noise,
                                             ProjectionMethod method, const TsneSettings &settings,
                                             const UmapSettings &umap, int components)
{
    const bool tsne = method == ProjectionMethod::Tsne;
    if (components < kMinComponents || components > kMaxComponents)
        return "A projection has 2 or 3 components, not " + std::to_string(components) + ".";
    // UMAP rests on the neighbours as t-SNE does: the same reach.
    if (auto problem = projectionTooLarge(params, noise, method != ProjectionMethod::Pca))
        return problem;
    if (method == ProjectionMethod::Umap)
        return validateUmap(umap, params.seqLen);
    if (tsne) {
        if (auto problem = validateTsne(settings, params.seqLen)) // which also wants 3 positions or more
            return problem;
        // Neighbours from a search are held as lists, then as affinities (about 60 bytes an entry
        // at the peak); the offsets' runs are far smaller.
        const int k = tsneNeighborCount(params.seqLen, settings);
        const double entries = static_cast<double>(params.seqLen) * k;
        if (neighborSearch(params, noise) != NeighborSearch::Offsets && entries > limits::maxSearchedNeighborEntries)
            return "t-SNE of these vectors would keep seq_len x " + std::to_string(k) + " = " + compactNumber(entries) +
                   " neighbour entries (3 x perplexity + 1 a position, or every other position with theta 0), more "
                   "than " +
                   compactNumber(limits::maxSearchedNeighborEntries) + ": lower the perplexity or the positions.";
        return std::nullopt;
    }
    if (params.seqLen < 2)
        return "PCA needs at least 2 positions.";
    return std::nullopt;
}

Projection pcaProjection(const Encoding &encoding, const NoiseParams &noise, const std::atomic<bool> *cancel,
                         int components)
{
    const Rows rows = embeddingRows(encoding, noise);
    const int dims = components;
    Projection out;
    out.dims = dims;
    if (rows.n < 2) {
        out.coords.assign(static_cast<std::size_t>(dims * rows.n), 0.0);
        return out;
    }
    // Fewer columns or rows than dimensions (d_model 2 in 3-D): the missing axes are 0.
    const int k = static_cast<int>(std::min<std::int64_t>({dims, rows.d, rows.n}));
    const Pca pca = principalComponents(rows, k, 0, cancel);
    if (pca.cancelled)
        return out;
    const std::vector<double> coords = project(rows, pca, cancel);
    if (coords.empty())
        return out;
    out.coords.assign(static_cast<std::size_t>(dims * rows.n), 0.0);
    for (std::int64_t i = 0; i < rows.n; ++i)
        for (int c = 0; c < k; ++c)
            out.coords[static_cast<std::size_t>(dims * i + c)] =
                coords[static_cast<std::size_t>(i * k + c)] / rows.scale;
    for (int c = 0; c < k; ++c)
        out.explained[c] = pca.explained(c);
    return out;
}

Projection computeProjection(const Encoding &encoding, const NoiseParams &noise, ProjectionMethod method,
                             const TsneSettings &settings, const UmapSettings &umap, const std::atomic<bool> *cancel,
                             int components)
{
    if (method == ProjectionMethod::Pca)
        return pcaProjection(encoding, noise, cancel, components);
    if (method == ProjectionMethod::Umap) {
        std::optional<Umap> u = prepareUmap(encoding, noise, umap, components, cancel);
        Projection out;
        out.dims = components;
        if (!u || !runUmap(*u, {}, cancel))
            return out;
        out.coords = u->embedding();
        out.iteration = u->epoch();
        out.recall = u->graph().recall;
        return out;
    }
    std::optional<Tsne> tsne = prepareTsne(encoding, noise, settings, components, cancel);
    Projection out;
    out.dims = components;
    if (!tsne || !runTsne(*tsne, {}, cancel))
        return out;
    out.coords = tsne->embedding();
    out.iteration = tsne->iteration();
    out.kl = tsne->kl();
    out.recall = tsne->recall();
    return out;
}

void viewFrom(const std::vector<double> &xyz, ViewAngle angle, std::vector<double> &screen, std::vector<double> &depth)
{
    const double a = angle.azimuth * std::numbers::pi / 180, e = angle.elevation * std::numbers::pi / 180;
    const double ca = std::cos(a), sa = std::sin(a), ce = std::cos(e), se = std::sin(e);
    // The eye's direction (ce ca, ce sa, se); to its right (-sa, ca, 0); up, their cross product.
    const double right[3] = {-sa, ca, 0}, up[3] = {-se * ca, -se * sa, ce}, toward[3] = {ce * ca, ce * sa, se};
    const std::size_t n = xyz.size() / 3;
    screen.resize(2 * n);
    depth.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double *p = &xyz[3 * i];
        screen[2 * i] = right[0] * p[0] + right[1] * p[1] + right[2] * p[2];
        screen[2 * i + 1] = up[0] * p[0] + up[1] * p[1] + up[2] * p[2];
        depth[i] = toward[0] * p[0] + toward[1] * p[1] + toward[2] * p[2];
    }
}

} // namespace pe

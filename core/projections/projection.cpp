#include "projections/projection.h"

#include "projections/pca.h"

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
                                             const UmapSettings &umap)
{
    const bool tsne = method == ProjectionMethod::Tsne;
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

Projection pcaProjection(const Encoding &encoding, const NoiseParams &noise, const std::atomic<bool> *cancel)
{
    const Rows rows = embeddingRows(encoding, noise);
    Projection out;
    if (rows.n < 2) {
        out.xy.assign(static_cast<std::size_t>(2 * rows.n), 0.0);
        return out;
    }
    const int k = std::min(2, rows.d);
    const Pca pca = principalComponents(rows, k, 0, cancel);
    if (pca.cancelled)
        return out;
    const std::vector<double> coords = project(rows, pca, cancel);
    if (coords.empty())
        return out;
    out.xy.assign(static_cast<std::size_t>(2 * rows.n), 0.0);
    for (std::int64_t i = 0; i < rows.n; ++i)
        for (int c = 0; c < k; ++c)
            out.xy[static_cast<std::size_t>(2 * i + c)] = coords[static_cast<std::size_t>(i * k + c)] / rows.scale;
    for (int c = 0; c < k; ++c)
        out.explained[c] = pca.explained(c);
    return out;
}

Projection computeProjection(const Encoding &encoding, const NoiseParams &noise, ProjectionMethod method,
                             const TsneSettings &settings, const UmapSettings &umap, const std::atomic<bool> *cancel)
{
    if (method == ProjectionMethod::Pca)
        return pcaProjection(encoding, noise, cancel);
    if (method == ProjectionMethod::Umap) {
        std::optional<Umap> u = prepareUmap(encoding, noise, umap, cancel);
        Projection out;
        if (!u || !runUmap(*u, {}, cancel))
            return out;
        out.xy = u->embedding();
        out.iteration = u->epoch();
        out.recall = u->graph().recall;
        return out;
    }
    std::optional<Tsne> tsne = prepareTsne(encoding, noise, settings, cancel);
    Projection out;
    if (!tsne || !runTsne(*tsne, {}, cancel))
        return out;
    out.xy = tsne->embedding();
    out.iteration = tsne->iteration();
    out.kl = tsne->kl();
    out.recall = tsne->recall();
    return out;
}

} // namespace pe

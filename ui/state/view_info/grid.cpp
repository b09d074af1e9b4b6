#include "state/view_info/view_infos.h"

#include "analysis/similarity.h"
#include "encodings/position_table.h"
#include "encodings/scheme.h"
#include "export/data_export.h"

#include <algorithm>
#include <optional>

PE_VIEW_TEXTS(GridView)

GridSetup gridSetupFrom(const pe::EncodingParams &p, const QJsonObject &settings)
{
    GridSetup g;
    g.table = p.table != nullptr;
    g.style = pe::parseGridRope(settings.value(QStringLiteral("gridRope")).toString().toStdString())
                  .value_or(pe::GridRope::Pixtral);
    const QString shape = settings.value(QStringLiteral("gridShape")).toString().trimmed();
    g.fitted = shape == QLatin1String("fit");
    // A table's fit is its own grid (a ViT's); a table without one is read as patches only when told.
    if (g.table && g.fitted && p.table->gridSide() == 0) {
        g.problem = tr("%1 is not a ViT's table (no class token and square grid of patches): give --grid HxW to "
                       "read its rows as patches.")
                        .arg(QString::fromStdString(pe::tableName(p)));
        return g;
    }
    // A session keeps the texts as typed; one the parser refuses is said, never replaced by the fit.
    std::string error;
    const auto parsed =
        g.fitted ? std::optional<pe::PatchGrid>(g.table ? pe::PatchGrid{1, p.table->gridSide(), p.table->gridSide()}
                                                        : pe::fitPatchGrid(p.seqLen))
                 : pe::parsePatchGrid(shape.toStdString(), &error);
    if (!parsed) {
        g.problem = QString::fromStdString(error) + QLatin1Char('.');
        return g;
    }
    g.grid = *parsed;
    const QString section = settings.value(QStringLiteral("mropeSection")).toString().trimmed();
    const int rotated = pe::rotatedPairs(p.dModel, p.rope);
    const auto sections = section == QLatin1String("fit")
                              ? std::optional<std::array<int, 3>>(pe::fitMropeSection(rotated))
                              : pe::parseMropeSection(section.toStdString(), &error);
    if (!sections) {
        g.problem = QString::fromStdString(error) + QLatin1Char('.');
        return g;
    }
    g.section = *sections;
    g.offset = g.style == pe::GridRope::Mrope ? p.startPos : 0;
    if (g.table && g.grid.patches() != p.seqLen) {
        g.problem = tr("The grid's patches are the window's rows: a %1 grid is %2 patches, and the window has %3 "
                       "rows. Give --seq-len %2 --start-pos 0 to show them all.")
                        .arg(QString::fromStdString(pe::patchGridText(g.grid)),
                             QString::fromStdString(pe::withThousands(g.grid.patches())),
                             QString::fromStdString(pe::withThousands(p.seqLen)));
        return g;
    }
    if (g.grid.patches() != p.seqLen) {
        g.problem = g.grid.patches() <= pe::limits::maxSeqLen
                        ? tr("The grid's patches are the window's positions, in raster order: a %1 grid is %2 "
                             "patches, and the window has %3 positions. Give --seq-len %4, or --grid fit.")
                              .arg(QString::fromStdString(pe::patchGridText(g.grid)),
                                   QString::fromStdString(pe::withThousands(g.grid.patches())),
                                   QString::fromStdString(pe::withThousands(p.seqLen)))
                              .arg(g.grid.patches())
                        : tr("The grid's patches are the window's positions: a %1 grid is %2 patches, more than the "
                             "%3 a window holds. Give a smaller --grid, or --grid fit.")
                              .arg(QString::fromStdString(pe::patchGridText(g.grid)),
                                   QString::fromStdString(pe::withThousands(g.grid.patches())),
                                   QString::fromStdString(pe::withThousands(pe::limits::maxSeqLen)));
        return g;
    }
    if (g.fitted && g.grid.cols > pe::kMaxGridSide) {
        g.problem = tr("The squarest grid of %1 patches is %2, wider than %3 columns: give --grid, or a seq_len with "
                       "a squarer grid.")
                        .arg(QString::fromStdString(pe::withThousands(p.seqLen)),
                             QString::fromStdString(pe::patchGridText(g.grid)),
                             QString::fromStdString(pe::withThousands(pe::kMaxGridSide)));
        return g;
    }
    if (g.grid.rows > kMaxGridFigureSide || g.grid.frames * (g.grid.cols + 1) - 1 > kMaxGridFigureSide) {
        g.figureProblem = tr("The grid figure draws every patch, at most %1 a side (frames side by side, a column "
                             "apart): this one is %2 rows by %3 columns. --export-data grid writes every patch of any "
                             "grid.")
                              .arg(kMaxGridFigureSide)
                              .arg(g.grid.rows)
                              .arg(g.grid.frames * (g.grid.cols + 1) - 1);
    }
    if (g.table)
        return g; // no pairs: the rows are the vectors
    if (pe::hasLocalLayers(p) || pe::hasNopeLayers(p)) {
        g.problem = tr("Gemma's sliding-window layers and Llama 4's NoPE layers have no grid of patches in their "
                       "reference code: the grid draws one kind of RoPE layer (--local-base 0 --sliding-window 0 "
                       "--nope-interval 0).");
        return g;
    }
    if (const auto why = pe::gridProblem(g.style, p.dModel, p.rope, p.xposScaleBase, g.section, g.grid)) {
        g.problem = QString::fromStdString(*why) + QLatin1Char('.');
        return g;
    }
    // The length a dynamic scaling (and LongRoPE's choice of list) sees: transformers' largest
    // position id + 1, which for the image's patches is start_pos + its longest side (get_rope_index).
    const std::int64_t longest = std::max({g.grid.frames, g.grid.rows, g.grid.cols});
    g.pairs = pe::gridPairs(g.style, p.base, p.dModel, p.rope, g.section, p.startPos + longest);
    return g;
}

pe::GridPatch gridReference(const GridSetup &g, const pe::EncodingParams &p, std::int64_t position)
{
    return pe::gridPatch(g.grid, std::clamp<std::int64_t>(position - p.startPos, 0, g.grid.patches() - 1));
}

std::vector<double> gridSimilarityOf(const GridSetup &g, const pe::Encoding &encoding, const pe::GridPatch &reference)
{
    if (!g.table)
        return pe::gridSimilarity(g.pairs, g.grid, reference);
    const std::int64_t index =
        (std::int64_t(reference.frame) * g.grid.rows + reference.row) * g.grid.cols + reference.col;
    return pe::similarityToReference(encoding, {}, encoding.params().startPos + index, pe::Metric::Cosine, nullptr);
}

ViewInfo gridViewInfo()
{
    using Kind = ViewSetting::Kind;
    QStringList styles;
    for (pe::GridRope s : pe::kGridRopes)
        styles << QString::fromUtf8(pe::gridRopeName(s).data());
    ViewSetting shape = ViewSetting{QStringLiteral("gridShape"), Kind::Text, QStringLiteral("fit")}.option(
        QStringLiteral("grid"), QStringLiteral("[Tx]HxW"),
        tr("The patches as rows x columns (16x16) or frames x rows x columns (2x16x16), in raster order: "
           "position t is patch t − start_pos; fit: the squarest grid of exactly seq_len patches"));
    shape.check = [](const QString &text) {
        if (text.trimmed() == QLatin1String("fit"))
            return QString();
        std::string error;
        return pe::parsePatchGrid(text.trimmed().toStdString(), &error) ? QString() : QString::fromStdString(error);
    };
    ViewSetting style = ViewSetting{QStringLiteral("gridRope"), Kind::Choice, styles.first(), styles}.option(
        QStringLiteral("grid-rope"), QStringLiteral("NAME"),
        tr("How the pairs turn with the patch: pixtral (the first half of the pairs with the row at the even "
           "frequencies, the second with the column at the odd), qwen2-vl (its vision tower: rows and columns "
           "at the same frequencies), mrope (Qwen2-VL's language model: --mrope-section pairs with the "
           "frame, the row and the column)"));
    ViewSetting section = ViewSetting{QStringLiteral("mropeSection"), Kind::Text, QStringLiteral("fit")}.option(
        QStringLiteral("mrope-section"), QStringLiteral("T,H,W"),
        tr("M-RoPE's mrope_section: how many pairs turn with the frame, the row and the column, adding up to the "
           "rotated pairs; fit: Qwen2-VL's proportions (16,24,24 at d_model 128)"));
    section.check = [](const QString &text) {
        if (text.trimmed() == QLatin1String("fit"))
            return QString();
        std::string error;
        return pe::parseMropeSection(text.trimmed().toStdString(), &error) ? QString() : QString::fromStdString(error);
    };
    ViewSetting colors =
        ViewSetting{QStringLiteral("gridColors"),
                    Kind::Choice,
                    QStringLiteral("data"),
                    {QStringLiteral("data"), QStringLiteral("fixed")}}
            .option(QStringLiteral("grid-colors"), QStringLiteral("NAME"),
                    tr("The grid's colours from the image's lowest to highest similarity (data), or from −1 to 1 "
                       "(fixed)"));
    for (ViewSetting *s : {&style, &section})
        s->schemes = {pe::SchemeId::Rope};
    for (ViewSetting *s : {&shape, &colors})
        s->schemes = {pe::SchemeId::Rope, pe::SchemeId::Table};
    const auto problem = [](const DataRequest &r) { return gridSetupFrom(r.encoding->params(), r.settings).problem; };
    return {QStringLiteral("grid"),
            tr("RoPE over a grid"),
            {shape, style, section, colors},
            {{QStringLiteral("grid"),
              tr("RoPE over a grid of patches, a row a patch: its frame, row and column and its cosine similarity to "
                 "the current position's patch"),
              problem,
              [](const DataRequest &r) {
                  const pe::EncodingParams &p = r.encoding->params();
                  const GridSetup g = gridSetupFrom(p, r.settings);
                  const pe::GridPatch reference = gridReference(g, p, r.position);
                  return pe::gridTable(g.grid, p.startPos, [g, encoding = r.encoding, reference] {
                      return gridSimilarityOf(g, *encoding, reference);
                  });
              }},
             {QStringLiteral("grid-pairs"),
              tr("RoPE over a grid, a row a pair: the coordinate it turns with (0 frame, 1 row, 2 column, 3 none), "
                 "θ, wavelength in patches, and its angle at the current position's patch"),
              [problem](const DataRequest &r) {
                  if (r.encoding->params().table)
                      return tr("A table's rows have no pairs turning with the patch: --export-data grid writes each "
                                "patch's similarity.");
                  return problem(r);
              },
              [](const DataRequest &r) {
                  const pe::EncodingParams &p = r.encoding->params();
                  const GridSetup g = gridSetupFrom(p, r.settings);
                  return pe::gridPairsTable(g.pairs, gridReference(g, p, r.position), g.offset);
              }}},
            [](const DataRequest &r) {
                const GridSetup g = gridSetupFrom(r.encoding->params(), r.settings);
                return g.problem.isEmpty() ? g.figureProblem : g.problem;
            },
            {pe::SchemeId::Rope, pe::SchemeId::Table}};
}

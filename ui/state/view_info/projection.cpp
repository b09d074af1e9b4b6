#include "state/view_info/view_infos.h"

PE_VIEW_TEXTS(ProjectionView)

pe::ProjectionMethod projectionMethodFrom(const QJsonObject &settings)
{
    return pe::parseProjectionMethod(choiceName(settings, QStringLiteral("projectionMethod")).toStdString())
        .value_or(pe::ProjectionMethod::Tsne);
}

pe::TsneSettings tsneSettingsFrom(const QJsonObject &settings)
{
    pe::TsneSettings s;
    s.perplexity = settings.value(QStringLiteral("perplexity")).toDouble();
    s.learningRate = settings.value(QStringLiteral("learningRate")).toDouble();
    s.iterations = settings.value(QStringLiteral("iterations")).toInt();
    s.earlyExaggeration = settings.value(QStringLiteral("exaggeration")).toDouble();
    s.init = choiceName(settings, QStringLiteral("init")) == QLatin1String("random") ? pe::TsneInit::Random
                                                                                     : pe::TsneInit::Pca;
    s.seed = static_cast<std::uint64_t>(settings.value(QStringLiteral("tsneSeed")).toDouble());
    return s;
}

pe::UmapSettings umapSettingsFrom(const QJsonObject &settings)
{
    pe::UmapSettings s;
    s.neighbors = settings.value(QStringLiteral("umapNeighbors")).toInt();
    s.minDist = settings.value(QStringLiteral("minDist")).toDouble();
    s.spread = settings.value(QStringLiteral("spread")).toDouble();
    s.epochs = settings.value(QStringLiteral("umapEpochs")).toInt();
    s.seed = static_cast<std::uint64_t>(settings.value(QStringLiteral("tsneSeed")).toDouble());
    return s;
}

int componentsFrom(const QJsonObject &settings)
{
    return settings.value(QStringLiteral("components")).toInt();
}

pe::ViewAngle viewAngleFrom(const QJsonObject &settings)
{
    return {settings.value(QStringLiteral("azimuth")).toDouble(),
            settings.value(QStringLiteral("elevation")).toDouble()};
}

pe::ColorBy colorByFrom(const QJsonObject &settings)
{
    return pe::parseColorBy(settings.value(QStringLiteral("colorBy")).toString().toStdString(), nullptr)
        .value_or(pe::ColorBy{});
}

ViewInfo projectionViewInfo()
{
    using Kind = ViewSetting::Kind;
    const pe::TsneSettings d;
    const pe::UmapSettings u;
    const auto problem = [](const DataRequest &r) {
        const auto why = pe::projectionProblem(r.encoding->params(), r.noise, projectionMethodFrom(r.settings),
                                               tsneSettingsFrom(r.settings), umapSettingsFrom(r.settings),
                                               componentsFrom(r.settings));
        return why ? QString::fromStdString(*why) : QString();
    };
    // A figure's or a data export's colouring is checked whole before anything is written: a labels
    // file is read here, and its problem (a line without a comma, a position twice) refuses the
    // export. The window's view draws the points by position meanwhile and says why.
    const auto colouredProblem = [problem](const DataRequest &r) {
        if (QString why = problem(r); !why.isEmpty())
            return why;
        // A session may hold a text the setting refuses (the window frames it): refused here too.
        std::string why;
        const std::optional<pe::ColorBy> parsed =
            pe::parseColorBy(r.settings.value(QStringLiteral("colorBy")).toString().toStdString(), &why);
        if (!parsed)
            return QString::fromStdString(why);
        const pe::ColorBy by = *parsed;
        if (by.kind == pe::ColorByKind::Labels)
            pe::readPositionLabels(by.path, r.encoding->params().startPos, r.encoding->params().seqLen, &why);
        else if (auto p = pe::colorByProblem(by, *r.encoding))
            why = *p;
        return QString::fromStdString(why);
    };
    ViewSetting colorBy{QStringLiteral("colorBy"), Kind::Text, QStringLiteral("position")};
    colorBy.check = [](const QString &text) {
        std::string error;
        return pe::parseColorBy(text.toStdString(), &error) ? QString() : QString::fromStdString(error);
    };
    colorBy.allowed = tr("position, phase:I, norm, column:J, error or labels:FILE.csv");
    return {QStringLiteral("projection"),
            tr("Projection"),
            {{QStringLiteral("projectionMethod"),
              Kind::Choice,
              QStringLiteral("tsne"),
              {QStringLiteral("tsne"), QStringLiteral("pca"), QStringLiteral("umap")},
              0,
              0,
              {},
              {},
              QStringLiteral("method"),
              QStringLiteral("M"),
              tr("Projection method")},
             {QStringLiteral("components"),
              Kind::Integer,
              pe::kMinComponents,
              {},
              pe::kMinComponents,
              pe::kMaxComponents,
              {},
              {},
              QStringLiteral("components"),
              QStringLiteral("N"),
              tr("The projection's dimensions: 2, or 3 for a rotatable 3-D scatter")},
             // The 3-D view's angle, matplotlib's view_init(elev, azim) with its defaults.
             {QStringLiteral("azimuth"),
              Kind::Real,
              pe::ViewAngle{}.azimuth,
              {},
              -180,
              180,
              {},
              {},
              QStringLiteral("azimuth"),
              QStringLiteral("DEG"),
              tr("3-D: the eye's angle in degrees round the third axis, from the first (matplotlib's azim)"),
              1},
             {QStringLiteral("elevation"),
              Kind::Real,
              pe::ViewAngle{}.elevation,
              {},
              -90,
              90,
              {},
              {},
              QStringLiteral("elevation"),
              QStringLiteral("DEG"),
              tr("3-D: the eye's angle in degrees above the plane of the first two axes (matplotlib's elev)"),
              1},
             {QStringLiteral("perplexity"),
              Kind::Real,
              d.perplexity,
              {},
              1,
              pe::limits::maxPerplexity,
              {},
              {},
              QStringLiteral("perplexity"),
              QStringLiteral("P"),
              tr("t-SNE perplexity, below seq_len (article 4 uses 4)")},
             {QStringLiteral("learningRate"),
              Kind::Real,
              0.0,
              {},
              0,
              pe::limits::maxLearningRate,
              QStringLiteral("auto"),
              {},
              QStringLiteral("learning-rate"),
              QStringLiteral("R"),
              tr("t-SNE learning rate (auto: max(N / exaggeration / 4, 50))")},
             {QStringLiteral("iterations"),
              Kind::Integer,
              d.iterations,
              {},
              1,
              pe::limits::maxTsneIterations,
              {},
              {},
              QStringLiteral("iterations"),
              QStringLiteral("N"),
              tr("t-SNE iterations; exports run them all")},
             {QStringLiteral("exaggeration"),
              Kind::Real,
              d.earlyExaggeration,
              {},
              1,
              pe::limits::maxExaggeration,
              {},
              {},
              QStringLiteral("exaggeration"),
              QStringLiteral("E"),
              tr("t-SNE early exaggeration")},
             {QStringLiteral("init"),
              Kind::Choice,
              QStringLiteral("pca"),
              {QStringLiteral("pca"), QStringLiteral("random")},
              0,
              0,
              {},
              {},
              QStringLiteral("init"),
              QStringLiteral("I"),
              tr("t-SNE start (random: drawn with --seed)")},
             // UMAP's (umap.h). Its epochs are --umap-epochs: --epochs is the probe's training, and a
             // flag two views share must mean one range.
             {QStringLiteral("umapNeighbors"),
              Kind::Integer,
              u.neighbors,
              {},
              2,
              pe::limits::maxUmapNeighbors,
              {},
              {},
              QStringLiteral("neighbors"),
              QStringLiteral("K"),
              tr("UMAP's neighbours of each point, the point itself counted (umap-learn's n_neighbors), below "
                 "seq_len")},
             {QStringLiteral("minDist"),
              Kind::Real,
              u.minDist,
              {},
              0,
              pe::limits::maxUmapSpread,
              {},
              {},
              QStringLiteral("min-dist"),
              QStringLiteral("D"),
              tr("UMAP's minimum distance between embedded points, at most --spread"),
              3},
             {QStringLiteral("spread"),
              Kind::Real,
              u.spread,
              {},
              0.01,
              pe::limits::maxUmapSpread,
              {},
              {},
              QStringLiteral("spread"),
              QStringLiteral("S"),
              tr("UMAP's scale of the embedded points")},
             {QStringLiteral("umapEpochs"),
              Kind::Integer,
              0,
              {},
              0,
              pe::limits::maxUmapEpochs,
              QStringLiteral("auto"),
              {},
              QStringLiteral("umap-epochs"),
              QStringLiteral("N"),
              tr("UMAP's epochs (auto: 500 up to 10,000 positions, 200 above, as umap-learn)")},
             // --seed sets the noise's seed and this one (the command line's own option).
             {QStringLiteral("tsneSeed"),
              Kind::Integer,
              42,
              {},
              0,
              static_cast<double>(pe::limits::maxSeed),
              {},
              {},
              QStringLiteral("seed")},
             colorBy.option(QStringLiteral("color-by"), QStringLiteral("WHAT"),
                            tr("What colours the points: position; phase:I, the position on pair I's clock (t w_I "
                               "mod 2 pi); norm, the vector's length; column:J, one column's value; error, the "
                               "offset |s - t| to the nearest point drawn (1: a true neighbour); labels:FILE.csv, "
                               "labels from position,label lines, as a legend. Data exports add its column"))},
            {{QStringLiteral("projection"),
              tr("each position's 2-D or 3-D coordinates (t-SNE, PCA or UMAP), and the colouring's"), colouredProblem,
              [](const DataRequest &r) {
                  return pe::projectionTable(*r.encoding, r.noise, projectionMethodFrom(r.settings),
                                             tsneSettingsFrom(r.settings), umapSettingsFrom(r.settings),
                                             colorByFrom(r.settings), componentsFrom(r.settings));
              }}},
            colouredProblem};
}

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
ViewInfo projectionViewInfo()
{
    using Kind = ViewSetting::Kind;
    const pe::TsneSettings d;
    const auto problem = [](const DataRequest &r) {
        const auto why = pe::projectionProblem(r.encoding->params(), r.noise, projectionMethodFrom(r.settings),
                                               tsneSettingsFrom(r.settings));
        return why ? QString::fromStdString(*why) : QString();
    };
    return {QStringLiteral("projection"),
            tr("Projection"),
            {{QStringLiteral("projectionMethod"),
              Kind::Choice,
              QStringLiteral("tsne"),
              {QStringLiteral("tsne"), QStringLiteral("pca")},
              0,
              0,
              {},
              {},
              QStringLiteral("method"),
              QStringLiteral("M"),
              tr("Projection method")},
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
             // --seed sets the noise's seed and this one (the command line's own option).
             {QStringLiteral("tsneSeed"),
              Kind::Integer,
              42,
              {},
              0,
              static_cast<double>(pe::limits::maxSeed),
              {},
              {},
              QStringLiteral("seed")}},
            {{QStringLiteral("projection"), tr("each position's 2-D coordinates (t-SNE or PCA)"), problem,
              [](const DataRequest &r) {
                  return pe::projectionTable(*r.encoding, r.noise, projectionMethodFrom(r.settings),
                                             tsneSettingsFrom(r.settings));
              }}},
            problem};
}

// The projection view's settings: the method and t-SNE settings to and from its controls, its registry entry.
#include "views/projection_view.h"

#include "state/view_registry.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>

pe::ProjectionMethod ProjectionView::method() const
{
    return methodFrom(completeSettings(info().settings, settings()));
}

void ProjectionView::setMethod(pe::ProjectionMethod method)
{
    method_->setCurrentIndex(method_->findData(QString::fromUtf8(pe::projectionMethodName(method).data())));
}

pe::TsneSettings ProjectionView::tsneSettings() const
{
    return tsneSettingsFrom(completeSettings(info().settings, settings()));
}

void ProjectionView::setSettings(const pe::TsneSettings &s)
{
    perplexity_->setValue(s.perplexity);
    learningRate_->setValue(s.learningRate);
    iterations_->setValue(s.iterations);
    exaggeration_->setValue(s.earlyExaggeration);
    init_->setCurrentIndex(static_cast<int>(s.init));
    seed_->setValue(static_cast<int>(s.seed));
}

pe::ProjectionMethod ProjectionView::methodFrom(const QJsonObject &settings)
{
    return pe::parseProjectionMethod(choiceName(settings, QStringLiteral("projectionMethod")).toStdString())
        .value_or(pe::ProjectionMethod::Tsne);
}

pe::TsneSettings ProjectionView::tsneSettingsFrom(const QJsonObject &settings)
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

ViewInfo ProjectionView::describe()
{
    using Kind = ViewSetting::Kind;
    const pe::TsneSettings d;
    const auto problem = [](const DataRequest &r) {
        const auto why =
            pe::projectionProblem(r.encoding->params(), r.noise, methodFrom(r.settings), tsneSettingsFrom(r.settings));
        return why ? QString::fromStdString(*why) : QString();
    };
    return {QStringLiteral("projection"),
            tr("Projection"),
            {},
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
                  return pe::projectionTable(*r.encoding, r.noise, methodFrom(r.settings),
                                             tsneSettingsFrom(r.settings));
              }}},
            problem};
}

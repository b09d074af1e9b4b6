#include "state/view_info/view_infos.h"

PE_VIEW_TEXTS(ProbeView)

pe::ProbeSettings probeSettingsFrom(const QJsonObject &s)
{
    pe::ProbeSettings p;
    p.inputs = pe::parseProbeInputs(s.value(QStringLiteral("probeInputs")).toString().toStdString())
                   .value_or(pe::ProbeInputs::Intended);
    p.offsets = s.value(QStringLiteral("probeOffsets")).toInt();
    p.semantic = s.value(QStringLiteral("probeSemantic")).toDouble();
    p.hidden = s.value(QStringLiteral("probeHidden")).toInt();
    p.epochs = s.value(QStringLiteral("probeEpochs")).toInt();
    p.learningRate = s.value(QStringLiteral("probeLearningRate")).toDouble();
    p.seed = static_cast<std::uint64_t>(s.value(QStringLiteral("probeSeed")).toDouble());
    p.trainBelow = static_cast<std::int64_t>(s.value(QStringLiteral("probeTrainBelow")).toDouble());
    return p;
}

pe::Table probeCurveTable(const pe::ProbeResult &r)
{
    std::vector<double> values;
    for (const pe::ProbeEpoch &e : r.epochs)
        values.insert(values.end(), {e.loss, e.accuracy, e.heldOut});
    return pe::valuesTable("epoch", {"loss", "accuracy", "heldout_accuracy"}, 1, std::move(values));
}

ViewInfo probeViewInfo()
{
    using Kind = ViewSetting::Kind;
    QStringList inputs;
    for (pe::ProbeInputs i : pe::allProbeInputs)
        inputs << QString::fromUtf8(pe::probeInputsName(i).data());
    const auto problem = [](const DataRequest &r) {
        const auto why = pe::probeProblem(r.encoding->params(), probeSettingsFrom(r.settings));
        return why ? QString::fromStdString(*why) : QString();
    };
    ViewInfo info{
        QStringLiteral("probe"),
        tr("Probe"),
        {{QStringLiteral("probeInputs"),
          Kind::Choice,
          inputs.first(),
          inputs,
          0,
          0,
          {},
          {},
          QStringLiteral("probe-inputs"),
          QStringLiteral("INPUTS"),
          tr("The probe's inputs: PE plus semantic vectors, every offset a class, or the article's code as written "
             "(PE added to itself, K classes)")},
         {QStringLiteral("probeOffsets"),
          Kind::Integer,
          10,
          {},
          2,
          pe::limits::maxProbeOffsets,
          {},
          {},
          QStringLiteral("probe-offsets"),
          QStringLiteral("K"),
          tr("Offsets the probe tells apart, classes 0..K-1")},
         {QStringLiteral("probeSemantic"),
          Kind::Real,
          0.1,
          {},
          0,
          10,
          {},
          {},
          QStringLiteral("semantic"),
          QStringLiteral("A"),
          tr("Semantic vectors uniform in [-a, a] added to the encoding"),
          3},
         {QStringLiteral("probeHidden"),
          Kind::Integer,
          128,
          {},
          1,
          pe::limits::maxProbeHidden,
          {},
          {},
          QStringLiteral("hidden"),
          QStringLiteral("N"),
          tr("Width of the probe's hidden ReLU layer")},
         {QStringLiteral("probeEpochs"),
          Kind::Integer,
          200,
          {},
          1,
          pe::limits::maxProbeEpochs,
          {},
          {},
          QStringLiteral("epochs"),
          QStringLiteral("N"),
          tr("Passes over the probe's 10,000 pairs")},
         {QStringLiteral("probeLearningRate"),
          Kind::Real,
          0.001,
          {},
          0.0001,
          1,
          {},
          {},
          QStringLiteral("probe-learning-rate"),
          QStringLiteral("LR"),
          tr("The probe's Adam learning rate"),
          4},
         {QStringLiteral("probeSeed"),
          Kind::Integer,
          0,
          {},
          0,
          1'000'000,
          {},
          {},
          QStringLiteral("probe-seed"),
          QStringLiteral("S"),
          tr("Seed of the probe's pairs, semantic vectors, weights and shuffles")},
         {QStringLiteral("probeTrainBelow"),
          Kind::Integer,
          10,
          {},
          2,
          static_cast<double>(pe::limits::maxSeqLen),
          {},
          {},
          QStringLiteral("train-below"),
          QStringLiteral("L"),
          tr("The probe trains on the window's first L positions and holds out pairs reaching past them")}},
        {{QStringLiteral("probe"), tr("the probe's training curve: epoch,loss,accuracy,heldout_accuracy"), problem,
          [](const DataRequest &r) {
              return probeCurveTable(pe::trainProbe(*r.encoding, probeSettingsFrom(r.settings)));
          }}},
        problem};
    return info;
}

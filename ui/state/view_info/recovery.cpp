#include "state/view_info/view_infos.h"

#include "analysis/reduction.h"

PE_VIEW_TEXTS(RecoveryView)

std::vector<double> recoveryCurveSigmas()
{
    std::vector<double> sigmas;
    for (int i = 0; i <= 20; ++i)
        sigmas.push_back(0.1 * i);
    return sigmas;
}

ViewInfo recoveryViewInfo()
{
    // A window too large to recover refuses the figure as it refuses the data, in the same words
    // (an --export once wrote a "not computed" figure of zeros).
    const auto tooLarge = [](const DataRequest &r) {
        const auto why = pe::recoveryTooLarge(r.encoding->params());
        return why ? QString::fromStdString(*why) : QString();
    };
    return {QStringLiteral("recovery"),
            tr("Recovery"),
            {},
            {{QStringLiteral("recovery"), tr("each position's predicted position, argmax_s x_t·PE(s)"), tooLarge,
              [](const DataRequest &r) { return pe::recoveryTable(*r.encoding, r.noise); }},
             {QStringLiteral("recovery-sigma"),
              tr("the figure's accuracy against σ (0 to 2 by 0.1, the noise's z, at most 300 evenly spaced "
                 "positions): sigma, accuracy"),
              tooLarge,
              [](const DataRequest &r) {
                  const std::vector<double> sigmas = recoveryCurveSigmas();
                  return pe::lazyValuesTable("row", {"sigma", "accuracy"}, 0, static_cast<std::int64_t>(sigmas.size()),
                                             [encoding = r.encoding, noise = r.noise, sigmas] {
                                                 const std::vector<double> acc = pe::accuracyAgainstSigma(
                                                     *encoding, noise, sigmas, kRecoveryCurveRows);
                                                 std::vector<double> values;
                                                 for (std::size_t i = 0; i < sigmas.size(); ++i)
                                                     values.insert(values.end(), {sigmas[i], acc[i]});
                                                 return values;
                                             });
              }}},
            tooLarge};
}

#include "state/view_info/view_infos.h"

#include "analysis/reduction.h"

PE_VIEW_TEXTS(RecoveryView)

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
              [](const DataRequest &r) { return pe::recoveryTable(*r.encoding, r.noise); }}},
            tooLarge};
}

#include "state/view_info/view_infos.h"

#include "encodings/noise.h"

PE_VIEW_TEXTS(InputsView)

ViewInfo inputsViewInfo()
{
    return {QStringLiteral("inputs"),
            tr("Inputs"),
            {},
            {{QStringLiteral("embeddings"),
              tr("the inputs x = PE + σ·z (--noise, --seed), seq_len x d_model"),
              {},
              [](const DataRequest &r) { return pe::encodingTable(*r.encoding, r.noise); }}}};
}

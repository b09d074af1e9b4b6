#include "state/view_info/view_infos.h"

#include "encodings/scheme.h"

PE_VIEW_TEXTS(FrequencyView)

ViewInfo frequencyViewInfo()
{
    return {
        QStringLiteral("frequencies"),
        tr("Frequencies"),
        {ViewSetting{QStringLiteral("quantity"),
                     ViewSetting::Kind::Choice,
                     QStringLiteral("frequency"),
                     {QStringLiteral("frequency"), QStringLiteral("wavelength")}}
             .option(QStringLiteral("quantity"), QStringLiteral("NAME"),
                     tr("Plot each pair's frequency ω_i or its wavelength 2π/ω_i")),
         ViewSetting{QStringLiteral("logScale"), ViewSetting::Kind::Bool, false}.option(
             QStringLiteral("log-scale"), {}, tr("A logarithmic value axis for the frequencies")),
         ViewSetting{QStringLiteral("measure"), ViewSetting::Kind::Bool, false}.option(
             QStringLiteral("measure"), {},
             tr("Also plot each column's dominant frequency measured from its values (FFT)")),
         ViewSetting{QStringLiteral("compareBases"), ViewSetting::Kind::Text, QStringLiteral("1e2, 1e4, 1e8")}.option(
             QStringLiteral("compare-bases"), QStringLiteral("LIST"),
             tr("Bases whose frequencies the frequency view draws beside the current one, e.g. "
                "'1e2, 1e4, 1e8'; empty: none"))},
        {{QStringLiteral("frequencies"),
          tr("each pair's frequency ω_i and wavelength; for a table each column's measured spectrum"),
          {},
          [](const DataRequest &r) { return pe::frequencyTable(*r.encoding); }}}};
}

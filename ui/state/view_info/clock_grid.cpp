#include "state/view_info/view_infos.h"

#include "encodings/scheme.h"

PE_VIEW_TEXTS(ClockGridView)

ViewInfo clockGridViewInfo()
{
    return {
        QStringLiteral("clocks"),
        tr("Clocks"),
        {{QStringLiteral("clockFace"),
          ViewSetting::Kind::Choice,
          QStringLiteral("clockwise"),
          {QStringLiteral("clockwise"), QStringLiteral("counterclockwise")},
          0,
          0,
          {},
          {},
          QStringLiteral("clock-face"),
          QStringLiteral("F"),
          tr("Clock hands: clockwise from 12 o'clock (x = sin) or counterclockwise from 3 o'clock (article 2)")},
         ViewSetting{QStringLiteral("clockPairs"), ViewSetting::Kind::Integer, 0, {}, 0, kMaxClockPairs, tr("fit")}
             .option(QStringLiteral("clock-pairs"), QStringLiteral("N"),
                     tr("Clocks drawn; fit: as many as the figure holds")),
         ViewSetting{QStringLiteral("clockRows"), ViewSetting::Kind::Integer, 0, {}, 0, kMaxClockRows, tr("fit")}
             .option(QStringLiteral("clock-rows"), QStringLiteral("N"),
                     tr("Rows of clocks; fit: the figure's shape decides")),
         pairChoiceSetting(QStringLiteral("clockPairChoice"))},
        {{QStringLiteral("angles"), tr("each pair's hand angle t·ω_i at every position"), {}, [](const DataRequest &r) {
              return pe::angleTable(*r.encoding);
          }}}};
}

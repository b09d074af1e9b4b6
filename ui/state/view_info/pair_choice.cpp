#include "state/view_info/view_infos.h"

#include "analysis/clock.h"

PE_VIEW_TEXTS(PairChoiceEdit)

// The clocks' and the circles' field (figures/pair_choice_edit.h), saved as the text it applies.
ViewSetting pairChoiceSetting(const QString &key)
{
    ViewSetting s{key, ViewSetting::Kind::Text, QStringLiteral("spread")};
    s.check = [](const QString &text) {
        std::string error;
        return pe::parsePairChoice(text.trimmed().toStdString(), &error) ? QString() : QString::fromStdString(error);
    };
    s.flag = QStringLiteral("pairs");
    s.valueName = QStringLiteral("P");
    s.help = tr("Pairs the clocks and circles show when not all fit: spread (default: evenly in log wavelength, "
                "fastest to slowest), fastest, or a list like 0,5,31 or 10-20");
    return s;
}

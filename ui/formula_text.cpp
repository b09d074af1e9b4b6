#include "formula_text.h"

#include "position_table.h"

#include <QStringList>

QString formulaHtml(const pe::EncodingParams &p)
{
    if (p.table)
        return QStringLiteral("PE(t, j) = row t, column j of <b>%1</b><br>%2 × %3, %4")
            .arg(QString::fromStdString(pe::tableName(p)).toHtmlEscaped(),
                 QString::fromStdString(pe::withThousands(p.table->rows())),
                 QString::fromStdString(pe::withThousands(p.table->cols())),
                 QString::fromStdString(p.table->description()));
    const bool pair = p.exponent == pe::Exponent::Pair;
    const QString k = pair ? QStringLiteral("i") : QStringLiteral("j");
    const QString w = QStringLiteral("ω<sub>%1</sub>").arg(k);
    const QString angle = QStringLiteral("t·") + w;
    QString base = QString::fromStdString(pe::compactNumber(p.base)).toHtmlEscaped();
    // 1e8 reads as 10^8 in a formula.
    if (const int e = base.indexOf(QLatin1Char('e')); e > 0)
        base = QStringLiteral("(") +
               (base.left(e) == QStringLiteral("1") ? QString() : base.left(e) + QStringLiteral("·")) +
               QStringLiteral("10<sup>") + base.mid(e + 1).remove(QLatin1Char('+')) + QStringLiteral("</sup>)");
    QStringList lines;
    if (p.layout == pe::Layout::Interleaved) {
        if (pair) {
            lines << QStringLiteral("PE(t, 2i) = sin(%1)").arg(angle)
                  << QStringLiteral("PE(t, 2i+1) = cos(%1)").arg(angle);
        } else {
            lines << QStringLiteral("PE(t, j) = sin(%1), j even").arg(angle)
                  << QStringLiteral("PE(t, j) = cos(%1), j odd").arg(angle);
        }
    } else {
        if (pair) {
            lines << QStringLiteral("PE(t, i) = sin(%1)").arg(angle)
                  << QStringLiteral("PE(t, d/2+i) = cos(%1)").arg(angle);
        } else {
            lines << QStringLiteral("PE(t, j) = sin(%1), j &lt; d/2").arg(angle)
                  << QStringLiteral("PE(t, j) = cos(%1), j ≥ d/2").arg(angle);
        }
    }
    const QString exponent = pair ? QStringLiteral("−2i/d") : QStringLiteral("−j/d");
    lines << QStringLiteral("%1 = %2<sup>%3</sup>, d = %4").arg(w, base, exponent).arg(p.dModel);
    return lines.join(QStringLiteral("<br>"));
}

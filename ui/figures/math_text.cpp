#include "figures/math_text.h"

#include <QHash>

#include <optional>

namespace {

const QHash<QString, QString> &symbols()
{
    static const QHash<QString, QString> table{
        {QStringLiteral("alpha"), QStringLiteral("α")},
        {QStringLiteral("beta"), QStringLiteral("β")},
        {QStringLiteral("gamma"), QStringLiteral("γ")},
        {QStringLiteral("delta"), QStringLiteral("δ")},
        {QStringLiteral("epsilon"), QStringLiteral("ε")},
        {QStringLiteral("varepsilon"), QStringLiteral("ε")},
        {QStringLiteral("zeta"), QStringLiteral("ζ")},
        {QStringLiteral("eta"), QStringLiteral("η")},
        {QStringLiteral("theta"), QStringLiteral("θ")},
        {QStringLiteral("vartheta"), QStringLiteral("ϑ")},
        {QStringLiteral("iota"), QStringLiteral("ι")},
        {QStringLiteral("kappa"), QStringLiteral("κ")},
        {QStringLiteral("lambda"), QStringLiteral("λ")},
        {QStringLiteral("mu"), QStringLiteral("μ")},
        {QStringLiteral("nu"), QStringLiteral("ν")},
        {QStringLiteral("xi"), QStringLiteral("ξ")},
        {QStringLiteral("pi"), QStringLiteral("π")},
        {QStringLiteral("rho"), QStringLiteral("ρ")},
        {QStringLiteral("sigma"), QStringLiteral("σ")},
        {QStringLiteral("tau"), QStringLiteral("τ")},
        {QStringLiteral("upsilon"), QStringLiteral("υ")},
        {QStringLiteral("phi"), QStringLiteral("φ")},
        {QStringLiteral("varphi"), QStringLiteral("φ")},
        {QStringLiteral("chi"), QStringLiteral("χ")},
        {QStringLiteral("psi"), QStringLiteral("ψ")},
        {QStringLiteral("omega"), QStringLiteral("ω")},
        {QStringLiteral("Gamma"), QStringLiteral("Γ")},
        {QStringLiteral("Delta"), QStringLiteral("Δ")},
        {QStringLiteral("Theta"), QStringLiteral("Θ")},
        {QStringLiteral("Lambda"), QStringLiteral("Λ")},
        {QStringLiteral("Xi"), QStringLiteral("Ξ")},
        {QStringLiteral("Pi"), QStringLiteral("Π")},
        {QStringLiteral("Sigma"), QStringLiteral("Σ")},
        {QStringLiteral("Upsilon"), QStringLiteral("Υ")},
        {QStringLiteral("Phi"), QStringLiteral("Φ")},
        {QStringLiteral("Psi"), QStringLiteral("Ψ")},
        {QStringLiteral("Omega"), QStringLiteral("Ω")},
        {QStringLiteral("cdot"), QStringLiteral("·")},
        {QStringLiteral("times"), QStringLiteral("×")},
        {QStringLiteral("pm"), QStringLiteral("±")},
        {QStringLiteral("leq"), QStringLiteral("≤")},
        {QStringLiteral("le"), QStringLiteral("≤")},
        {QStringLiteral("geq"), QStringLiteral("≥")},
        {QStringLiteral("ge"), QStringLiteral("≥")},
        {QStringLiteral("neq"), QStringLiteral("≠")},
        {QStringLiteral("approx"), QStringLiteral("≈")},
        {QStringLiteral("infty"), QStringLiteral("∞")},
        {QStringLiteral("sqrt"), QStringLiteral("√")},
        {QStringLiteral("ell"), QStringLiteral("ℓ")},
        {QStringLiteral("prime"), QStringLiteral("′")},
        {QStringLiteral("propto"), QStringLiteral("∝")},
        {QStringLiteral("to"), QStringLiteral("→")},
        {QStringLiteral("rightarrow"), QStringLiteral("→")},
        {QStringLiteral("in"), QStringLiteral("∈")},
        {QStringLiteral("sum"), QStringLiteral("∑")},
        {QStringLiteral("partial"), QStringLiteral("∂")},
        {QStringLiteral("nabla"), QStringLiteral("∇")},
        {QStringLiteral("log"), QStringLiteral("log")},
        {QStringLiteral("exp"), QStringLiteral("exp")},
        {QStringLiteral("sin"), QStringLiteral("sin")},
        {QStringLiteral("cos"), QStringLiteral("cos")},
        {QStringLiteral(","), QStringLiteral("\u2009")},
        {QStringLiteral(" "), QStringLiteral(" ")},
        {QStringLiteral("{"), QStringLiteral("{")},
        {QStringLiteral("}"), QStringLiteral("}")},
        // Font commands set their group as it is: \mathrm{PE} is PE.
        {QStringLiteral("mathrm"), QString()},
        {QStringLiteral("mathit"), QString()},
        {QStringLiteral("mathbf"), QString()},
        {QStringLiteral("text"), QString()},
        {QStringLiteral("operatorname"), QString()},
    };
    return table;
}

// Unicode's subscript and superscript forms, character by character (the letters it has).
const QString kPlain = QStringLiteral("0123456789+-−=()aehijklmnoprstuvxβγρφχ");
const QString kSub = QStringLiteral("₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓᵦᵧᵨᵩᵪ");
const QString kSupPlain = QStringLiteral("0123456789+-−=()abcdefghijklmnoprstuvwxyzABDEGHIJKLMNOPRTUWβγδθιφχ");
const QString kSup = QStringLiteral("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁᵂᵝᵞᵟᶿᶥᵠᵡ");

// The script's characters in their small forms, or nothing when one has none.
std::optional<QString> scripted(const QString &body, bool sub)
{
    const QString &from = sub ? kPlain : kSupPlain;
    const QString &to = sub ? kSub : kSup;
    QString out;
    for (const QChar c : body) {
        const qsizetype at = from.indexOf(c);
        if (at < 0)
            return std::nullopt;
        out += to.at(at);
    }
    return out;
}

// Where the command starting with the backslash at `at` ends: after its letters (\omega), or
// after one character that is not a letter (\, \{).
qsizetype commandEnd(const QString &math, qsizetype at)
{
    qsizetype end = at + 1;
    while (end < math.size() && math.at(end).isLetter())
        ++end;
    return end == at + 1 && end < math.size() ? end + 1 : end;
}

// One math span's text (between the dollars), converted.
QString convert(const QString &math)
{
    QString out;
    qsizetype i = 0;
    const auto n = math.size();
    while (i < n) {
        const QChar c = math.at(i);
        if (c == QLatin1Char('\\')) {
            const qsizetype j = commandEnd(math, i);
            const QString name = math.mid(i + 1, j - i - 1);
            const auto found = symbols().constFind(name);
            out += found != symbols().constEnd() ? *found : math.mid(i, j - i);
            i = j;
            continue;
        }
        if ((c == QLatin1Char('_') || c == QLatin1Char('^')) && i + 1 < n) {
            qsizetype j = i + 1;
            QString body;
            if (math.at(j) == QLatin1Char('{')) {
                const qsizetype close = math.indexOf(QLatin1Char('}'), j);
                if (close < 0) {
                    out += math.mid(i);
                    break;
                }
                body = convert(math.mid(j + 1, close - j - 1)); // Greek inside: \beta
                j = close + 1;
            } else if (math.at(j) == QLatin1Char('\\')) {
                const qsizetype k = commandEnd(math, j);
                body = convert(math.mid(j, k - j));
                j = k;
            } else {
                body = math.at(j);
                j = j + 1;
            }
            body.remove(QLatin1Char(' ')); // spaces inside a script are TeX's, not the text's
            if (const auto small = scripted(body, c == QLatin1Char('_')))
                out += *small;
            else
                out += math.mid(i, j - i); // written out: no small form
            i = j;
            continue;
        }
        if (c == QLatin1Char('{') || c == QLatin1Char('}')) { // a group's braces are not drawn: \sqrt{d}
            ++i;
            continue;
        }
        out += c == QLatin1Char('-') ? QStringLiteral("−") : QString(c); // a minus, as mathtext sets it
        ++i;
    }
    return out;
}

} // namespace

QString mathText(const QString &text)
{
    QString out;
    qsizetype i = 0;
    const auto n = text.size();
    while (i < n) {
        const QChar c = text.at(i);
        if (c == QLatin1Char('\\') && i + 1 < n && text.at(i + 1) == QLatin1Char('$')) {
            out += QLatin1Char('$');
            i += 2;
            continue;
        }
        if (c == QLatin1Char('$')) {
            qsizetype close = i + 1;
            while (close < n && (text.at(close) != QLatin1Char('$') || text.at(close - 1) == QLatin1Char('\\')))
                ++close;
            if (close >= n) { // a lone dollar is a dollar
                out += text.mid(i);
                break;
            }
            out += convert(text.mid(i + 1, close - i - 1));
            i = close + 1;
            continue;
        }
        out += c;
        ++i;
    }
    return out;
}

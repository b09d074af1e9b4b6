#include "state/view_registry.h"

#include "analysis/reduction.h"
#include "encodings/scheme.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QStringList>

#include <algorithm>
#include <cmath>

namespace {

QString schemeProblemOf(const std::vector<pe::SchemeId> &schemes, const QString &title, const pe::EncodingParams &p)
{
    if (schemes.empty() ? pe::addsVector(p.scheme)
                        : std::find(schemes.begin(), schemes.end(), p.scheme) != schemes.end())
        return {};
    if (schemes.empty() && p.scheme == pe::SchemeId::T5)
        return QObject::tr("T5 adds no vector to the tokens: its positions are a learned bias per bucket of the "
                           "offset s − t on the attention scores. The T5 buckets view shows them.");
    if (schemes.empty())
        return QObject::tr("ALiBi adds no vector to the tokens: its positions are a bias −m_h·|t − s| on the "
                           "attention scores. The Attention and ALiBi views show it.");
    QStringList names;
    for (pe::SchemeId id : schemes)
        names << QString::fromUtf8(pe::schemeName(id).data());
    return QObject::tr("The %1 view shows the %2 scheme: choose it (--scheme %3).")
        .arg(title, names.join(QObject::tr(" or ")), names.first());
}

} // namespace

QString ViewInfo::schemeProblem(const pe::EncodingParams &p) const
{
    return schemeProblemOf(schemes, title, p);
}

QString ViewInfo::realPositionProblem(const pe::EncodingParams &p, const pe::NoiseParams &noise) const
{
    if (!realPositions)
        return QCoreApplication::translate("ViewRegistry", "the %1 view draws whole positions only (the clocks, "
                                                           "circles, heatmap and attention draw any real t)")
            .arg(title.toLower());
    if (const std::string why = pe::realPositionProblem(p, noise); !why.empty())
        return QString::fromStdString(why);
    return realRowsProblem ? realRowsProblem(p) : QString();
}

ViewInfo withSchemeCheck(ViewInfo info)
{
    const auto why = [schemes = info.schemes, title = info.title](const DataRequest &r) {
        return schemeProblemOf(schemes, title, r.encoding->params());
    };
    info.cannotDraw = [why, own = info.cannotDraw](const DataRequest &r) {
        const QString problem = why(r);
        return !problem.isEmpty() || !own ? problem : own(r);
    };
    for (DataExport &e : info.exports)
        e.problem = [why, own = e.problem](const DataRequest &r) {
            const QString problem = why(r);
            return !problem.isEmpty() || !own ? problem : own(r);
        };
    return info;
}

pe::Table DataExport::make(const DataRequest &request) const
{
    pe::Table t = table(request);
    t.fill = [keep = request.encoding, fill = std::move(t.fill)](std::int64_t first, std::int64_t count, double *out) {
        fill(first, count, out);
    };
    return t;
}

DataExport encodingExport()
{
    return {QStringLiteral("encoding"),
            QObject::tr("the encoding, seq_len x d_model (a table: the chosen rows)"),
            {},
            [](const DataRequest &r) { return pe::encodingTable(*r.encoding); }};
}

ViewSettings figureSettings()
{
    ViewSetting title{QStringLiteral("title"), ViewSetting::Kind::Text, QString()};
    title.flag = QStringLiteral("title");
    title.valueName = QStringLiteral("TEXT");
    title.help = QObject::tr("The figure's title in place of the view's own; --title '' hides it. Math between "
                             "dollars as matplotlib writes it: '$\\omega_i = 10^{-4}$' is set ωᵢ = 10⁻⁴");
    title.emptyTurnsOff = QStringLiteral("showTitle");
    ViewSetting shown{QStringLiteral("showTitle"), ViewSetting::Kind::Bool, true};
    return {title, shown};
}

namespace {

// A colour limit's text: empty or "auto" (the view's own), or a finite number within kMaxColourLimit.
std::optional<double> colourLimitOf(const QString &text, QString *error)
{
    const QString t = text.trimmed();
    if (t.isEmpty() && !text.isEmpty()) {
        if (error)
            *error = QObject::tr("a colour limit is auto or a number, not blanks.");
        return std::nullopt;
    }
    if (t.isEmpty() || t == QLatin1String("auto"))
        return std::nullopt;
    const auto v = pe::parseReal(t.toStdString());
    if (!v || !std::isfinite(*v) || std::abs(*v) > kMaxColourLimit) {
        if (error)
            *error = QObject::tr("a colour limit is auto or a number from -1e100 to 1e100 (got '%1').").arg(t.left(40));
        return std::nullopt;
    }
    return v;
}

ViewSetting colourLimitSetting(const QString &key, const QString &flag, const QString &help)
{
    ViewSetting s{key, ViewSetting::Kind::Text, QString()};
    s.check = [](const QString &text) {
        QString error;
        colourLimitOf(text, &error);
        return error;
    };
    s.allowed = QObject::tr("auto or a number from -1e100 to 1e100");
    return s.option(flag, QStringLiteral("V"), help);
}

} // namespace

ViewSettings colourSettings(ColourScale kind)
{
    if (kind == ColourScale::None)
        return {};
    ViewSettings out{
        colourLimitSetting(QStringLiteral("colorMin"), QStringLiteral("vmin"),
                           QObject::tr("The colour scale's lowest value (auto: the view's own); values below it "
                                       "take the lowest colour")),
        colourLimitSetting(QStringLiteral("colorMax"), QStringLiteral("vmax"),
                           QObject::tr("The colour scale's highest value (auto: the view's own); values above it "
                                       "take the highest colour"))};
    if (kind == ColourScale::Values)
        out.push_back(ViewSetting{QStringLiteral("colorRobust"), ViewSetting::Kind::Bool, false}.option(
            QStringLiteral("robust"), QString(),
            QObject::tr("Colour limits at the 2nd and 98th percentiles of the values drawn (where --vmin and "
                        "--vmax are not given), said in the colour bar: a few outliers no longer grey out the rest")));
    out.push_back(ViewSetting{QStringLiteral("colorLabel"), ViewSetting::Kind::Text, QString()}.option(
        QStringLiteral("colorbar-label"), QStringLiteral("TEXT"),
        QObject::tr("The colour bar's label in place of the view's own ($\\alpha_{ij}$ math as in --title)")));
    return out;
}

ViewSetting legendSetting()
{
    ViewSetting s{QStringLiteral("legend"), ViewSetting::Kind::Choice, QStringLiteral("above")};
    s.choices = {QStringLiteral("above"),       QStringLiteral("below"),       QStringLiteral("best"),
                 QStringLiteral("upper-left"),  QStringLiteral("upper-right"), QStringLiteral("lower-left"),
                 QStringLiteral("lower-right"), QStringLiteral("off")};
    return s.option(QStringLiteral("legend"), QStringLiteral("WHERE"),
                    QObject::tr("Where the legend goes: a strip above or below the plots, inside the plot at a "
                                "corner (best: the corner over the fewest data points), or off"));
}

ViewSetting aspectSetting(const QString &defaultValue)
{
    ViewSetting s{QStringLiteral("aspect"), ViewSetting::Kind::Choice, defaultValue};
    s.choices = {QStringLiteral("equal"), QStringLiteral("auto")};
    return s.option(QStringLiteral("aspect"), QStringLiteral("equal|auto"),
                    QObject::tr("equal: a unit as long on both axes (circles are round; the shorter range is "
                                "widened, nothing is cut); auto: each axis fills its side (default %1)")
                        .arg(defaultValue));
}

ColourLimits colourLimits(const QJsonObject &settings)
{
    ColourLimits out;
    out.low = colourLimitOf(settings.value(QStringLiteral("colorMin")).toString(), nullptr);
    out.high = colourLimitOf(settings.value(QStringLiteral("colorMax")).toString(), nullptr);
    out.robust = settings.value(QStringLiteral("colorRobust")).toBool(false);
    out.label = settings.value(QStringLiteral("colorLabel")).toString();
    return out;
}

QString colourLimitsProblem(const QJsonObject &settings)
{
    const ColourLimits l = colourLimits(settings);
    if (l.low && l.high && !(*l.low < *l.high))
        return QObject::tr(
                   "--vmin %1 is not below --vmax %2: the colour scale runs from its lowest to its highest value.")
            .arg(*l.low, 0, 'g', 17)
            .arg(*l.high, 0, 'g', 17);
    // A colour bar spans at least kMinColourSpan (QCustomPlot draws no narrower range: it would keep
    // the view's own without a word).
    if (l.low && l.high && *l.high - *l.low < kMinColourSpan)
        return QObject::tr("--vmin %1 and --vmax %2 are closer than %3: the colour scale cannot tell them apart.")
            .arg(*l.low, 0, 'g', 17)
            .arg(*l.high, 0, 'g', 17)
            .arg(kMinColourSpan, 0, 'g', 3);
    return {};
}

ColourRange limitedColourRange(double automaticLow, double automaticHigh, const ColourLimits &limits,
                               std::vector<double> values)
{
    double low = automaticLow, high = automaticHigh;
    bool robust = false;
    if (limits.robust && (!limits.low || !limits.high) && !values.empty()) {
        // (percentile reorders the values; the next one does not depend on their order)
        const double pLow = pe::percentile(values, kRobustLow);
        const double pHigh = pe::percentile(values, kRobustHigh);
        if (std::isfinite(pLow) && std::isfinite(pHigh) && pLow < pHigh) {
            low = pLow;
            high = pHigh;
            robust = true;
        }
    }
    ColourRange out{
        limits.low.value_or(low), limits.high.value_or(high), {}, robust && !limits.low, robust && !limits.high};
    if (out.low < out.high)
        return out;
    // One end given past the other's own value: the automatic span kept, and said.
    const double span = std::max({automaticHigh - automaticLow, 1e-9 * std::abs(out.low), kMinColourSpan});
    out.robustLow = out.robustHigh = false;
    if (limits.low) {
        out.high = out.low + span;
        out.note = QObject::tr("every value below %1").arg(out.low, 0, 'g', 6);
    } else {
        out.low = out.high - span;
        out.note = QObject::tr("every value above %1").arg(out.high, 0, 'g', 6);
    }
    return out;
}

std::optional<std::vector<std::int64_t>> parseMarkers(const QString &text, QString *error)
{
    std::vector<std::int64_t> out;
    static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
    for (const QString &word : text.split(separators, Qt::SkipEmptyParts)) {
        const auto t = pe::parseInteger(word.toStdString());
        if (!t || *t < 0 || *t >= pe::limits::maxPositionEnd) {
            *error = QObject::tr("a marker is a position, a whole number from 0 to %1 (got '%2').")
                         .arg(QString::fromStdString(pe::withThousands(pe::limits::maxPositionEnd - 1)), word.left(40));
            return std::nullopt;
        }
        out.push_back(*t);
    }
    if (out.size() > static_cast<std::size_t>(kMaxMarkers)) {
        *error = QObject::tr("at most %1 markers (got %2).").arg(kMaxMarkers).arg(out.size());
        return std::nullopt;
    }
    return out;
}

ViewSetting markerSetting()
{
    ViewSetting s{QStringLiteral("markers"), ViewSetting::Kind::Text, QString()};
    s.check = [](const QString &text) {
        QString error;
        return parseMarkers(text, &error) ? QString() : error;
    };
    s.repeatable = true;
    return s.option(QStringLiteral("marker"), QStringLiteral("T"),
                    QObject::tr("A red dashed line at position T on the position axes, as the articles draw them; "
                                "repeat it for more (--marker 50 --marker 100)"));
}

const ViewInfo *findView(const QString &id)
{
    for (const ViewInfo &v : viewRegistry())
        if (v.id == id)
            return &v;
    return nullptr;
}

QStringList viewIds()
{
    QStringList ids;
    for (const ViewInfo &v : viewRegistry())
        ids << v.id;
    return ids;
}

std::vector<DataKind> dataKinds()
{
    std::vector<DataKind> out;
    QStringList seen;
    for (const ViewInfo &v : viewRegistry())
        for (const DataExport &e : v.exports)
            if (!seen.contains(e.kind)) {
                seen << e.kind;
                out.push_back({&v, &e});
            }
    return out;
}

std::optional<DataKind> findDataKind(const QString &kind)
{
    for (const DataKind &k : dataKinds())
        if (k.data->kind == kind)
            return k;
    return std::nullopt;
}

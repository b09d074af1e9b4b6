#include "state/view_registry.h"

#include "encodings/scheme.h"

#include <QRegularExpression>
#include <QStringList>

#include <algorithm>

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
    title.help = QObject::tr("The figure's title in place of the view's own; --title '' hides it");
    title.emptyTurnsOff = QStringLiteral("showTitle");
    ViewSetting shown{QStringLiteral("showTitle"), ViewSetting::Kind::Bool, true};
    return {title, shown};
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

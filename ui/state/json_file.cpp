#include "state/json_file.h"

#include "formats/atomic_file.h"
#include "formats/file_kind.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>

namespace {

QString megabytes(qint64 limit)
{
    return QStringLiteral("%1 MB").arg(limit >> 20);
}

} // namespace

std::optional<QByteArray> readJsonFileBytes(const QString &path, qint64 limit, const QString &kind, QString *error)
{
    const auto fail = [error](const QString &why) {
        if (error)
            *error = why;
        return std::nullopt;
    };
    if (const auto why = pe::notAReadableFile(path.toStdString()))
        return fail(QString::fromStdString(*why) + QLatin1Char('.'));
    if (const qint64 size = QFileInfo(path).size(); size > limit)
        return fail(QStringLiteral("'%1' is %2 bytes; %3 files are at most %4.")
                        .arg(path)
                        .arg(size)
                        .arg(kind, megabytes(limit)));
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("cannot read '%1': %2.").arg(path, f.errorString()));
    return f.read(limit + 1); // a file that grew since is refused by its size below
}

std::optional<QJsonObject> jsonObjectOf(const QByteArray &bytes, qint64 limit, const QString &kind, QString *error)
{
    const auto fail = [error](const QString &why) {
        if (error)
            *error = why;
        return std::nullopt;
    };
    if (bytes.size() > limit)
        return fail(QStringLiteral("the file is %1 bytes; %2 files are at most %3.")
                        .arg(bytes.size())
                        .arg(kind, megabytes(limit)));
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return fail(
            QStringLiteral("not valid JSON (%1 at byte %2).").arg(parseError.errorString()).arg(parseError.offset));
    if (!doc.isObject())
        return fail(QStringLiteral("the file holds JSON but not an object."));
    return doc.object();
}

bool writeJsonFile(const QString &path, const QJsonObject &json, QString *error)
{
    std::string message;
    const QByteArray bytes = QJsonDocument(json).toJson(QJsonDocument::Indented);
    if (!pe::writeFileAtomically(
            path.toStdString(), std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())), message)) {
        if (error)
            *error = QString::fromStdString(message);
        return false;
    }
    return true;
}

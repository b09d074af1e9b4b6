#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <optional>

// The files sessions and lectures are kept in: small JSON objects, read whole and written atomically.
// `kind` names them in messages ("session", "lecture"), `limit` is their largest size in bytes
// (said in MB).

// A file's bytes: refused when missing, not a regular file, unreadable or larger than `limit`;
// *error one sentence.
std::optional<QByteArray> readJsonFileBytes(const QString &path, qint64 limit, const QString &kind, QString *error);
// The bytes as one JSON object: refused when larger than `limit`, not JSON or not an object.
std::optional<QJsonObject> jsonObjectOf(const QByteArray &bytes, qint64 limit, const QString &kind, QString *error);
// The object, indented, written atomically; false with *error one sentence.
bool writeJsonFile(const QString &path, const QJsonObject &json, QString *error);

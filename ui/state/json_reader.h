#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <cmath>
#include <cstdint>

// Reading the typed fields of a JSON file (sessions, lectures), each refusal naming the field in
// one sentence.
struct JsonReader {
    QString *error;

    bool fail(const QString &message) const
    {
        if (error)
            *error = message;
        return false;
    }

    bool object(const QJsonObject &o, const char *key, QJsonObject &out) const
    {
        const QJsonValue v = o.value(QLatin1String(key));
        if (!v.isObject())
            return fail(v.isUndefined() ? QStringLiteral("the field '%1' is missing.").arg(QLatin1String(key))
                                        : QStringLiteral("'%1' must be an object.").arg(QLatin1String(key)));
        out = v.toObject();
        return true;
    }

    bool integer(const QJsonObject &o, const char *key, std::int64_t &out, bool required = true) const
    {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined() && !required)
            return true;
        // JSON numbers are doubles: whole numbers up to 2^53 are exact, which covers every limit.
        const double d = v.toDouble(std::nan(""));
        if (!v.isDouble() || !std::isfinite(d) || d != std::floor(d) || std::abs(d) > 9007199254740992.0)
            return fail(v.isUndefined() ? QStringLiteral("the field '%1' is missing.").arg(QLatin1String(key))
                                        : QStringLiteral("'%1' must be a whole number.").arg(QLatin1String(key)));
        out = static_cast<std::int64_t>(d);
        return true;
    }

    bool number(const QJsonObject &o, const char *key, double &out) const
    {
        const QJsonValue v = o.value(QLatin1String(key));
        if (!v.isDouble() || !std::isfinite(v.toDouble()))
            return fail(v.isUndefined() ? QStringLiteral("the field '%1' is missing.").arg(QLatin1String(key))
                                        : QStringLiteral("'%1' must be a number.").arg(QLatin1String(key)));
        out = v.toDouble();
        return true;
    }

    bool string(const QJsonObject &o, const char *key, QString &out, bool required = true) const
    {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined() && !required)
            return true;
        if (!v.isString())
            return fail(v.isUndefined() ? QStringLiteral("the field '%1' is missing.").arg(QLatin1String(key))
                                        : QStringLiteral("'%1' must be a string.").arg(QLatin1String(key)));
        out = v.toString();
        return true;
    }
};

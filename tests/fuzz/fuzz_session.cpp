// libFuzzer: any bytes as a session file. A file is refused with one line, or parses into a session
// that survives a round trip through JSON unchanged.
#include "state/session.h"

#include <QJsonDocument>

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size));
    QString error;
    const std::optional<Session> s = parseSession(bytes, &error);
    if (!s) {
        if (error.isEmpty() || error.contains(QLatin1Char('\n')))
            std::abort(); // a refusal says why, in one line
        return 0;
    }
    const QJsonObject json = sessionToJson(*s);
    const std::optional<Session> again = parseSession(QJsonDocument(json).toJson(), &error);
    if (!again || sessionToJson(*again) != json)
        std::abort();
    return 0;
}

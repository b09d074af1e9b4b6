// libFuzzer: any bytes as a lecture file. A file is refused with one line, or parses into a lecture
// that survives a round trip through JSON unchanged.
#include "state/lecture.h"

#include <QJsonDocument>

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size));
    QString error;
    const std::optional<Lecture> lecture = parseLecture(bytes, &error);
    if (!lecture) {
        if (error.isEmpty() || error.contains(QLatin1Char('\n')))
            std::abort(); // a refusal says why, in one line
        return 0;
    }
    const QJsonObject json = lectureToJson(*lecture);
    const std::optional<Lecture> again = parseLecture(QJsonDocument(json).toJson(), &error);
    if (!again || lectureToJson(*again) != json)
        std::abort();
    return 0;
}

// libFuzzer: any bytes as a command line (arguments split at newlines). Parsing never crashes; a
// refused line gets one line of error; an accepted one holds parameters the validator accepts.
#include "command_line.h"

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QString text = QString::fromUtf8(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size));
    QStringList args{QStringLiteral("pe-explorer")};
    for (const QString &a : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        args << a;
    const ParsedCommandLine r = parseCommandLine(args);
    if (!r.error.isEmpty()) {
        if (r.error.contains(QLatin1Char('\n')))
            std::abort();
        return 0;
    }
    const CommandLine &c = r.command;
    if (c.mode == CommandLine::Mode::Help || c.mode == CommandLine::Mode::Version ||
        c.mode == CommandLine::Mode::ListPresets)
        return 0;
    if (pe::validate(c.params) || pe::validateNoise(c.noise))
        std::abort();
    if (c.position < c.params.startPos || c.position >= c.params.startPos + c.params.seqLen)
        std::abort();
    return 0;
}

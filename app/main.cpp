#include "command_line.h"
#include "formats/atomic_file.h"
#include "state/lecture.h"
#include "state/session.h"
#include "support/allocator.h"
#include "support/float_product.h"

#include <cstdio>

int main(int argc, char **argv)
{
    pe::returnLargeBlocksToTheSystem();
    // Ctrl+C or a kill during an export leaves no half-written temporary file behind.
    pe::removeTemporaryFilesOnSignals();
    QStringList args;
    for (int i = 0; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    const ParsedCommandLine parsed = parseCommandLine(args);
    if (!parsed.error.isEmpty()) {
        std::fprintf(stderr, "pe-explorer: %s\n", qPrintable(parsed.error));
        return 2;
    }
    switch (parsed.command.mode) {
    case CommandLine::Mode::Help:
        std::fputs(qPrintable(helpText()), stdout);
        return 0;
    case CommandLine::Mode::Version:
        std::printf("pe-explorer %s\n", PE_VERSION);
        return 0;
    case CommandLine::Mode::ListPresets:
        for (QString source; const Session &preset : presets()) {
            if (preset.source != source) { // under the article or model they reproduce
                source = preset.source;
                std::printf("%s%s\n", &preset == &presets().front() ? "" : "\n", qPrintable(source));
            }
            std::printf("  %-28s %s\n", qPrintable(preset.name), qPrintable(preset.title));
        }
        return 0;
    case CommandLine::Mode::ListLectures:
        for (const Lecture &lecture : builtInLectures())
            std::printf("%-20s %s (%zu steps)\n  %s\n", qPrintable(lecture.name), qPrintable(lecture.title),
                        lecture.steps.size(), qPrintable(lecture.description));
        return 0;
    case CommandLine::Mode::ListTensors:
        return listTensors(parsed.command.listFile);
    case CommandLine::Mode::ModelInfo:
        return modelInfo(parsed.command.listFile);
    default:
        pe::clearUpperVectorState(); // see float_product.h: 4.6x on seed 002's probe
        return runCommandLine(parsed.command, argc, argv);
    }
}

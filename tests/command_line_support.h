#pragma once

// What tst_command_line and tst_command_line_exports share: the program run as a user runs it.

#include <QProcess>
#include <QString>
#include <QStringList>

struct Run {
    int code;
    QString err;
};

// Runs the program (PE_EXPLORER) with args: its exit code (-1 when it did not end within a minute,
// -2 when it crashed) and what it wrote to stderr.
inline Run run(const QStringList &args, const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment())
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(qEnvironmentVariable("PE_EXPLORER"), args);
    if (!p.waitForFinished(240000)) // a sanitizer build trains the probe in over a minute
        return {-1, QStringLiteral("timed out")};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2,
            QString::fromLocal8Bit(p.readAllStandardError())};
}

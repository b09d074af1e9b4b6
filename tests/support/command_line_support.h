#pragma once

// What tst_command_line and tst_command_line_exports share: the program run as a user runs it.

#include <QDir>
#include <QFile>
#include <QFileInfo>
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

// The size of a file the process pid has open under dir: an output being written (an unnamed
// O_TMPFILE file shows in /proc as "dir/#inode (deleted)"), or -1 when it has none.
inline qint64 openOutputSize(qint64 pid, const QString &dir)
{
    const QString fds = QStringLiteral("/proc/%1/fd").arg(pid);
    for (const QString &fd : QDir(fds).entryList(QDir::Files | QDir::System)) {
        const QString target = QFileInfo(fds + QLatin1Char('/') + fd).symLinkTarget();
        if (target.startsWith(dir + QLatin1Char('/')))
            return QFileInfo(fds + QLatin1Char('/') + fd).size();
    }
    return -1;
}

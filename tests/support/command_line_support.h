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

// The probe trained for 20 epochs, not its 200: for a test that runs the program to draw a figure
// whose subject is not the training (its size, its type, its values at extreme scales). The probe's
// layout does not depend on how long it trained, and its 200 epochs were most of those tests' time
// (6 s an export, about 30 s under the sanitizers). tst_probe and the probe's view tests train it
// in full.
inline QStringList shortProbeArgs()
{
    return {QStringLiteral("--epochs"), QStringLiteral("20")};
}

// shortProbeArgs for the probe's view, nothing for another (whose flags refuse --epochs).
inline QStringList shortTrainingArgs(const QString &view)
{
    return view == QLatin1String("probe") ? shortProbeArgs() : QStringList{};
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

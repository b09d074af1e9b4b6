// Files as a user meets them: an export ended by SIGKILL leaves the folder as it was, an output
// never exists under a temporary name while it is written, and pipes, sockets, devices and
// folders given as files are refused with what they are, without blocking on them.

#include "command_line_support.h"

#include "encodings/position_table.h"
#include "formats/atomic_file.h"
#include "formats/file_kind.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <cstring>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace {

QStringList entries(const QString &dir)
{
    return QDir(dir).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System, QDir::Name);
}

} // namespace

class TestFiles : public QObject
{
    Q_OBJECT

  private slots:
    // While an AtomicFile is open and written, no name of it exists in the folder.
    void aFileBeingWrittenHasNoName()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("out.csv"));
        pe::AtomicFile f(path.toStdString());
        std::string error;
        QVERIFY2(f.open(error), error.c_str());
        QVERIFY(f.write(std::string(3 << 20, 'x')));
        QCOMPARE(entries(dir.path()), QStringList());
        QVERIFY2(f.commit(error), error.c_str());
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("out.csv")});
        QCOMPARE(QFileInfo(path).size(), qint64(3 << 20));
        // The mode follows the umask, as a plain creat(2) would.
        const mode_t mask = ::umask(0);
        ::umask(mask);
        struct stat st {
        };
        QCOMPARE(::stat(QFile::encodeName(path).constData(), &st), 0);
        QCOMPARE(st.st_mode & 0777, 0666 & ~mask);
    }

    // Replacing a file: the old one stays whole until the new one is committed, then the folder
    // holds the new one alone; an uncommitted file leaves the old one as it was.
    void replacingKeepsTheOldFileUntilCommit()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("fig.png"));
        std::string error;
        QVERIFY(pe::writeFileAtomically(path.toStdString(), "old", error));
        {
            pe::AtomicFile f(path.toStdString());
            QVERIFY(f.open(error));
            QVERIFY(f.write("new and longer"));
        } // destroyed uncommitted
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("fig.png")});
        QFile old(path);
        QVERIFY(old.open(QIODevice::ReadOnly));
        QCOMPARE(old.readAll(), QByteArray("old"));
        old.close();
        QVERIFY(pe::writeFileAtomically(path.toStdString(), "new and longer", error));
        QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("fig.png")});
        QVERIFY(old.open(QIODevice::ReadOnly));
        QCOMPARE(old.readAll(), QByteArray("new and longer"));
    }

    // SIGKILL in the middle of a large export: the folder is as it was (no partial file, no
    // temporary name), and a file that was there is untouched.
    void sigkillMidExportLeavesTheFolderAsItWas()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("big.csv"));
        const QString kept = dir.filePath(QStringLiteral("kept.csv"));
        std::string error;
        QVERIFY(pe::writeFileAtomically(kept.toStdString(), "before\n", error));
        for (const QString &target : {out, kept}) {
            QProcess p;
            p.start(qEnvironmentVariable("PE_EXPLORER"),
                    {QStringLiteral("--seq-len"), QStringLiteral("400000"), QStringLiteral("--d-model"),
                     QStringLiteral("256"), QStringLiteral("--export-data"), QStringLiteral("encoding"),
                     QStringLiteral("--out"), target});
            QVERIFY(p.waitForStarted());
            QElapsedTimer waited;
            waited.start();
            qint64 size = -1;
            while (size < (4 << 20) && p.state() == QProcess::Running && waited.elapsed() < 120000) {
                QTest::qWait(5);
                size = openOutputSize(p.processId(), dir.path());
            }
            QVERIFY2(size >= (4 << 20), "the export never got 4 MiB into its file");
            ::kill(static_cast<pid_t>(p.processId()), SIGKILL);
            QVERIFY(p.waitForFinished());
            QCOMPARE(p.exitStatus(), QProcess::CrashExit);
            QCOMPARE(entries(dir.path()), QStringList{QStringLiteral("kept.csv")});
            QFile f(kept);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QCOMPARE(f.readAll(), QByteArray("before\n"));
        }
    }

    void fileKindsAreNamed()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath(QStringLiteral("fifo.npy"));
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        QCOMPARE(pe::notAReadableFile(fifo.toStdString()).value(),
                 "'" + fifo.toStdString() + "' is a named pipe, not a file");
        QCOMPARE(pe::notAReadableFile("/dev/null").value(),
                 std::string("'/dev/null' is a character device, not a file"));
        QCOMPARE(pe::notAReadableFile(dir.path().toStdString()).value(),
                 "'" + dir.path().toStdString() + "' is a folder, not a file");
        QCOMPARE(pe::notAReadableFile(dir.filePath(QStringLiteral("none")).toStdString()).value(),
                 "'" + dir.filePath(QStringLiteral("none")).toStdString() + "' does not exist");
        const QString sock = dir.filePath(QStringLiteral("s.sock"));
        const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
        sockaddr_un addr{};
        addr.sun_family = AF_UNIX;
        std::strncpy(addr.sun_path, QFile::encodeName(sock).constData(), sizeof addr.sun_path - 1);
        QCOMPARE(::bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr), 0);
        QCOMPARE(pe::notAReadableFile(sock.toStdString()).value(),
                 "'" + sock.toStdString() + "' is a socket, not a file");
        ::close(fd);
        std::string error;
        pe::AtomicFile onPipe(fifo.toStdString());
        QVERIFY(!onPipe.open(error));
        QVERIFY2(QString::fromStdString(error).contains(QStringLiteral("named pipe")), error.c_str());
    }

    // Every flag that reads a file refuses a pipe or a device at once (a pipe once hung --table
    // forever) and says what it is; nothing is written.
    void pipesAndDevicesAreRefusedWithoutBlocking_data()
    {
        QTest::addColumn<QString>("flag");
        QTest::addColumn<QString>("kind");
        QTest::newRow("--table fifo") << "--table"
                                      << "fifo";
        QTest::newRow("--table /dev/null") << "--table"
                                           << "/dev/null";
        QTest::newRow("--table folder") << "--table"
                                        << "folder";
        QTest::newRow("--session fifo") << "--session"
                                        << "fifo";
        QTest::newRow("--session /dev/null") << "--session"
                                             << "/dev/null";
        QTest::newRow("--session folder") << "--session"
                                          << "folder";
    }
    void pipesAndDevicesAreRefusedWithoutBlocking()
    {
        QFETCH(QString, flag);
        QFETCH(QString, kind);
        QTemporaryDir dir;
        QString path = kind;
        QString said = QStringLiteral("is a character device");
        if (kind == QLatin1String("fifo")) {
            path = dir.filePath(QStringLiteral("fifo.npy"));
            QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
            said = QStringLiteral("is a named pipe");
        } else if (kind == QLatin1String("folder")) {
            path = dir.filePath(QStringLiteral("folder"));
            QVERIFY(QDir().mkdir(path));
            said = QStringLiteral("is a folder");
        }
        const QString out = dir.filePath(QStringLiteral("o.csv"));
        const Run r = run(
            {flag, path, QStringLiteral("--export-data"), QStringLiteral("encoding"), QStringLiteral("--out"), out});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(said), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
    }

    // A target whose ending the flag cannot write is refused, and nothing is created: every flag
    // that takes an output path.
    void outputsWithEndingsTheProgramCannotWriteAreRefused_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("target");
        // (.mp4 and .webm are videos now: figures/video_writer.h.)
        QTest::newRow("--export-frames clocks.avi")
            << QStringList{QStringLiteral("--view"), QStringLiteral("clocks"), QStringLiteral("--frames"),
                           QStringLiteral("2"), QStringLiteral("--export-frames")}
            << "clocks.avi";
        QTest::newRow("--export-frames x.mov")
            << QStringList{QStringLiteral("--frames"), QStringLiteral("2"), QStringLiteral("--export-frames")}
            << "x.mov";
        QTest::newRow("--export all --out x.png")
            << QStringList{QStringLiteral("--export"), QStringLiteral("all"), QStringLiteral("--out")} << "x.png";
        QTest::newRow("--export all --out x.zip")
            << QStringList{QStringLiteral("--export"), QStringLiteral("all"), QStringLiteral("--out")} << "x.zip";
        QTest::newRow("--export heatmap --out x.jpg")
            << QStringList{QStringLiteral("--export"), QStringLiteral("heatmap"), QStringLiteral("--out")} << "x.jpg";
        QTest::newRow("--export-data encoding --out x.txt")
            << QStringList{QStringLiteral("--export-data"), QStringLiteral("encoding"), QStringLiteral("--out")}
            << "x.txt";
        QTest::newRow("--screenshot x.gif") << QStringList{QStringLiteral("--screenshot")} << "x.gif";
    }
    void outputsWithEndingsTheProgramCannotWriteAreRefused()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, target);
        QTemporaryDir dir;
        const Run r = run(args << dir.filePath(target));
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(target), qPrintable(r.err));
        QCOMPARE(entries(dir.path()), QStringList());
    }

    // A folder named without a file's ending is still made for frames.
    void framesStillGoToANewFolder()
    {
        QTemporaryDir dir;
        const QString frames = dir.filePath(QStringLiteral("frames-v1.2"));
        const Run r = run({QStringLiteral("--view"), QStringLiteral("clocks"), QStringLiteral("--seq-len"),
                           QStringLiteral("8"), QStringLiteral("--size"), QStringLiteral("200x150"),
                           QStringLiteral("--frames"), QStringLiteral("2"), QStringLiteral("--export-frames"), frames});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(entries(frames).size(), 2);
    }
};

QTEST_GUILESS_MAIN(TestFiles)
#include "tst_files.moc"

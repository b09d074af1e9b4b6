#include "export/data_export.h"
#include "formats/atomic_file.h"
#include "test_support.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <cfloat>
#include <cstring>
#include <filesystem>
#include <sys/stat.h>

using testsupport::params;

class TestDataExport : public QObject
{
    Q_OBJECT

  private slots:
    void clockAngles();
    void formatByExtension();
    void npyHeaderIsAligned();
    void encodingNpy();
    void encodingCsv();
    void frequencyCsv();
    void refusesMissingFolder();
    void refusesDirectory();
    void readOnlyFileLeftIntact();
    void failedWriteLeavesNoTemporaryFile();
    void progressAndCancel();
    void sizeEstimate();
    void refusesWhatCannotFit_data();
    void refusesWhatCannotFit();

  private:
    QTemporaryDir dir_;
};

void TestDataExport::formatByExtension()
{
    QCOMPARE(pe::dataFormatForPath("a/b.csv"), std::optional(pe::DataFormat::Csv));
    QCOMPARE(pe::dataFormatForPath("x.NPY"), std::optional(pe::DataFormat::Npy));
    QVERIFY(!pe::dataFormatForPath("x.png"));
    QVERIFY(!pe::dataFormatForPath("dir.csv/x"));
    QVERIFY(!pe::dataFormatForPath("noext"));
}

void TestDataExport::npyHeaderIsAligned()
{
    const std::string h = pe::npyHeader({10, 6});
    QCOMPARE(h.size() % 64, std::size_t(0));
    QCOMPARE(h.substr(0, 6), std::string("\x93NUMPY"));
    QVERIFY(h.find("'descr': '<f8', 'fortran_order': False, 'shape': (10, 6), }") != std::string::npos);
    QCOMPARE(h.back(), '\n');
    QVERIFY(pe::npyHeader({5}).find("'shape': (5,)") != std::string::npos);
}

void TestDataExport::encodingNpy()
{
    const pe::Encoding e(params(300, 17, 1e4, 1000));
    const QString path = dir_.filePath(QStringLiteral("enc.npy"));
    std::string error;
    QVERIFY(pe::writeTable(pe::encodingTable(e), path.toStdString(), pe::DataFormat::Npy, error));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    const std::string header = pe::npyHeader({300, 17});
    QCOMPARE(bytes.size(), qsizetype(header.size() + 300 * 17 * 8));
    QCOMPARE(bytes.left(static_cast<qsizetype>(header.size())).toStdString(), header);
    for (int t : {0, 1, 255, 256, 299})
        for (int j : {0, 5, 16}) {
            double v;
            std::memcpy(&v, bytes.constData() + header.size() + (t * 17 + j) * 8, 8);
            QCOMPARE(v, e.value(1000 + t, j));
        }
}

void TestDataExport::encodingCsv()
{
    const pe::Encoding e(params(10, 6, 1e4, 5));
    const QString path = dir_.filePath(QStringLiteral("enc.csv"));
    std::string error;
    QVERIFY(pe::writeTable(pe::encodingTable(e), path.toStdString(), pe::DataFormat::Csv, error));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly | QIODevice::Text));
    const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 11);
    QCOMPARE(lines[0], QStringLiteral("position,d0,d1,d2,d3,d4,d5"));
    const QStringList row = lines[3].split(QLatin1Char(','));
    QCOMPARE(row.size(), 7);
    QCOMPARE(row[0], QStringLiteral("7"));
    for (int j = 0; j < 6; ++j)
        QCOMPARE(row[j + 1].toDouble(), e.value(7, j)); // shortest round-trip text
}

void TestDataExport::frequencyCsv()
{
    const pe::Encoding e(params(10, 6));
    const QString path = dir_.filePath(QStringLiteral("freq.csv"));
    std::string error;
    QVERIFY(pe::writeTable(pe::frequencyTable(e), path.toStdString(), pe::DataFormat::Csv, error));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly | QIODevice::Text));
    const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 4);
    QCOMPARE(lines[0], QStringLiteral("pair,omega,wavelength"));
    QCOMPARE(lines[2].split(QLatin1Char(','))[1].toDouble(), e.channelFrequency(1));
}

void TestDataExport::refusesMissingFolder()
{
    const QString path = dir_.filePath(QStringLiteral("missing/sub/x.csv"));
    std::string error;
    QVERIFY(
        !pe::writeTable(pe::encodingTable(pe::Encoding(params(3, 2))), path.toStdString(), pe::DataFormat::Csv, error));
    QVERIFY2(error.find("No such file or directory") != std::string::npos, error.c_str());
    QVERIFY(!QFile::exists(path));
}

void TestDataExport::refusesDirectory()
{
    QDir(dir_.path()).mkdir(QStringLiteral("adir.csv"));
    std::string error;
    pe::AtomicFile f(dir_.filePath(QStringLiteral("adir.csv")).toStdString());
    QVERIFY(!f.open(error));
    QVERIFY2(error.find("directory") != std::string::npos, error.c_str());
}

void TestDataExport::readOnlyFileLeftIntact()
{
    const QString path = dir_.filePath(QStringLiteral("ro.csv"));
    QVERIFY(testsupport::writeReadOnlyFile(path, "keep me\n"));
    std::string error;
    QVERIFY(
        !pe::writeTable(pe::encodingTable(pe::Encoding(params(3, 2))), path.toStdString(), pe::DataFormat::Csv, error));
    QVERIFY2(error.find("read-only") != std::string::npos, error.c_str());
    QCOMPARE(testsupport::readFile(path), QByteArray("keep me\n"));
}

void TestDataExport::failedWriteLeavesNoTemporaryFile()
{
    const QString sub = dir_.filePath(QStringLiteral("clean"));
    QDir().mkpath(sub);
    {
        pe::AtomicFile f((sub + QStringLiteral("/x.npy")).toStdString());
        std::string error;
        QVERIFY(f.open(error));
        QVERIFY(f.write("partial"));
        // Destroyed without commit, as when an export fails half-way.
    }
    QCOMPARE(QDir(sub).entryList(QDir::Files | QDir::Hidden).size(), 0);
}

void TestDataExport::progressAndCancel()
{
    const pe::Encoding e(params(1000, 16));
    const QString sub = dir_.filePath(QStringLiteral("cancel"));
    QDir().mkpath(sub);
    std::vector<double> seen;
    std::string error;
    QVERIFY(pe::writeTable(pe::encodingTable(e), (sub + QStringLiteral("/all.npy")).toStdString(), pe::DataFormat::Npy,
                           error, [&](double f) {
                               seen.push_back(f);
                               return true;
                           }));
    QCOMPARE(seen.size(), std::size_t(4)); // 1000 rows in blocks of 256
    QCOMPARE(seen.back(), 1.0);
    QVERIFY(std::is_sorted(seen.begin(), seen.end()));
    const std::string cancelled = (sub + QStringLiteral("/cancelled.csv")).toStdString();
    QVERIFY(
        !pe::writeTable(pe::encodingTable(e), cancelled, pe::DataFormat::Csv, error, [](double f) { return f < 0.5; }));
    QVERIFY2(error.find("cancelled") != std::string::npos, error.c_str());
    QCOMPARE(QDir(sub).entryList(QDir::Files), QStringList{QStringLiteral("all.npy")}); // nothing else left behind
}

void TestDataExport::sizeEstimate()
{
    const QString sub = dir_.filePath(QStringLiteral("estimate"));
    QDir().mkpath(sub);
    std::string error;
    // NPY: exact.
    const pe::Encoding e(params(700, 13));
    const pe::Table encoding = pe::encodingTable(e);
    const QString npy = sub + QStringLiteral("/enc.npy");
    QVERIFY(pe::writeTable(encoding, npy.toStdString(), pe::DataFormat::Npy, error));
    QCOMPARE(pe::estimatedFileSize(encoding, pe::DataFormat::Npy), std::uint64_t(QFileInfo(npy).size()));
    // CSV: a bound, reached by the longest shortest-round-trip double; indices 100 to 899 all take 3 digits.
    const pe::Table longest = pe::valuesTable("position", {"a", "b"}, 100, std::vector<double>(1600, -DBL_MIN));
    const QString csv = sub + QStringLiteral("/longest.csv");
    QVERIFY(pe::writeTable(longest, csv.toStdString(), pe::DataFormat::Csv, error));
    QVERIFY(testsupport::readFile(csv).contains("\n100,-2.2250738585072014e-308,-2.2250738585072014e-308\n"));
    QCOMPARE(pe::estimatedFileSize(longest, pe::DataFormat::Csv), std::uint64_t(QFileInfo(csv).size()));
    const QString typical = sub + QStringLiteral("/enc.csv");
    QVERIFY(pe::writeTable(encoding, typical.toStdString(), pe::DataFormat::Csv, error));
    QVERIFY(pe::estimatedFileSize(encoding, pe::DataFormat::Csv) >= std::uint64_t(QFileInfo(typical).size()));
}

void TestDataExport::refusesWhatCannotFit_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("size");
    // 10^12 rows of 4,096 values: 32.8 PB as NPY, more than any disk.
    QTest::newRow("npy") << QStringLiteral("big.npy") << QStringLiteral("would take 32.8 PB but only ");
    QTest::newRow("csv") << QStringLiteral("big.csv") << QStringLiteral("would take up to ");
}

void TestDataExport::refusesWhatCannotFit()
{
    QFETCH(QString, name);
    QFETCH(QString, size);
    const pe::DataFormat format = *pe::dataFormatForPath(name.toStdString());
    pe::Table table;
    table.indexHeader = "position";
    table.columnHeaders.assign(4096, "d");
    table.rows = 1'000'000'000'000;
    table.cols = 4096;
    table.indexOf = [](std::int64_t row) { return row; };
    bool filled = false;
    table.fill = [&filled](std::int64_t, std::int64_t count, double *out) {
        filled = true;
        std::fill_n(out, count * 4096, 0.5);
    };
    const QString sub = dir_.filePath(QStringLiteral("big-") + name);
    QDir().mkpath(sub);
    const QString path = sub + QLatin1Char('/') + name;
    {
        QFile existing(path);
        QVERIFY(existing.open(QIODevice::WriteOnly));
        existing.write("precious\n");
    }
    std::string error;
    // Cancelled after the first block if it ever starts, so a writer without the check ends quickly.
    QVERIFY(!pe::writeTable(table, path.toStdString(), format, error, [](double) { return false; }));
    const QString message = QString::fromStdString(error);
    QVERIFY2(message.startsWith(QStringLiteral("the file ") + size), qPrintable(message));
    QVERIFY2(message.contains(
                 QStringLiteral(" are free in '%1'; nothing was written.").arg(QFileInfo(sub).canonicalFilePath())),
             qPrintable(message));
    QVERIFY(std::filesystem::space(sub.toStdString()).available < pe::estimatedFileSize(table, format));
    QVERIFY(!filled);
    QCOMPARE(QDir(sub).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList{name});
    QCOMPARE(testsupport::readFile(path), QByteArray("precious\n"));
}

void TestDataExport::clockAngles()
{
    // The hands' angles t w_i in [0, 2 pi): pair 0 turns one radian a step and wraps past 2 pi.
    const pe::Encoding e(testsupport::params(1000, 8, 1e4, 999'999'000));
    const pe::Table t = pe::angleTable(e);
    QCOMPARE(t.cols, 4);
    std::vector<double> row(4);
    t.fill(0, 1, row.data());
    QVERIFY(std::abs(row[0] - std::fmod(999'999'000.0, 2 * M_PI)) < 1e-6); // fmod of a double product: 1e-7 here
    for (int i = 0; i < 4; ++i) {
        QVERIFY(row[i] >= 0 && row[i] < 2 * M_PI);
        double s = 0, c = 0;
        e.pairSinCos(999'999'000, i, s, c);
        QVERIFY(std::abs(std::sin(row[i]) - s) < 1e-15 && std::abs(std::cos(row[i]) - c) < 1e-15);
    }
    const pe::Encoding two(testsupport::params(10, 2));
    const pe::Table small = pe::angleTable(two);
    std::vector<double> all(10);
    small.fill(0, 10, all.data());
    QVERIFY(std::abs(all[7] - (7 - 2 * M_PI)) < 1e-14);
}

QTEST_APPLESS_MAIN(TestDataExport)
#include "tst_data_export.moc"

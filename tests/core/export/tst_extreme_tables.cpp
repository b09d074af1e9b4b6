// Tables of extreme magnitude through every figure and every data export, as a user runs them:
// never a signal, never NaN or infinity in an output, and a refused table writes nothing.

#include "command_line_support.h"

#include "encodings/position_table.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>

namespace {

// A C-order float64 .npy of rows x cols values v(r, c).
void writeNpy(const QString &path, int rows, int cols, const std::function<double(int, int)> &v)
{
    QByteArray header =
        QStringLiteral("{'descr': '<f8', 'fortran_order': False, 'shape': (%1, %2), }").arg(rows).arg(cols).toLatin1();
    while ((10 + header.size() + 1) % 64 != 0)
        header += ' ';
    header += '\n';
    QByteArray bytes("\x93NUMPY\x01\x00", 8);
    bytes += char(header.size() & 0xff);
    bytes += char(header.size() >> 8);
    bytes += header;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            const double x = v(r, c);
            bytes += QByteArray(reinterpret_cast<const char *>(&x), sizeof x);
        }
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

// A deterministic normal draw for (r, c).
double gauss(int r, int c)
{
    std::mt19937_64 g(static_cast<std::uint64_t>(r) * 7919 + static_cast<std::uint64_t>(c));
    return std::normal_distribution<double>()(g);
}

const QStringList kDataKinds = {QStringLiteral("encoding"),   QStringLiteral("frequencies"),
                                QStringLiteral("angles"),     QStringLiteral("similarity"),
                                QStringLiteral("recovery"),   QStringLiteral("distance"),
                                QStringLiteral("relative"),   QStringLiteral("embeddings"),
                                QStringLiteral("projection"), QStringLiteral("attention")};

} // namespace

class TestExtremeTables : public QObject
{
    Q_OBJECT

  private slots:
    void everyExportIsFiniteOrRefused_data()
    {
        QTest::addColumn<double>("scale");
        QTest::addColumn<QString>("shape"); // "normal", "mixed", "zeros", "constant"
        QTest::addColumn<bool>("refused");
        QTest::newRow("1e-300") << 1e-300 << "normal" << false;
        QTest::newRow("subnormal 1e-310") << 1e-310 << "normal" << false;
        QTest::newRow("1e150 (the limit)") << 1e150 / 5 << "normal" << false;
        QTest::newRow("1e155") << 1e155 << "normal" << true;
        QTest::newRow("1e300") << 1e300 << "normal" << true;
        QTest::newRow("1e-300 beside 1e300") << 1.0 << "mixed" << true;
        QTest::newRow("1e-300 beside 1") << 1.0 << "mixed-small" << false;
        QTest::newRow("all zeros") << 0.0 << "zeros" << false;
        QTest::newRow("constant rows") << 1.0 << "constant" << false;
    }

    // Each data export is finite (or the table refused, writing nothing); every figure is written.
    void everyExportIsFiniteOrRefused()
    {
        QFETCH(double, scale);
        QFETCH(QString, shape);
        QFETCH(bool, refused);
        QTemporaryDir dir;
        const QString table = dir.filePath(QStringLiteral("t.npy"));
        writeNpy(table, 40, 8, [&](int r, int c) {
            if (shape == QLatin1String("zeros"))
                return 0.0;
            if (shape == QLatin1String("constant"))
                return 0.5 + c;
            if (shape == QLatin1String("mixed"))
                return gauss(r, c) * (c % 2 ? 1e300 : 1e-300);
            if (shape == QLatin1String("mixed-small"))
                return gauss(r, c) * (c % 2 ? 1.0 : 1e-300);
            return gauss(r, c) * scale;
        });
        for (const QString &kind : kDataKinds) {
            const QString out = dir.filePath(kind + QStringLiteral(".csv"));
            const Run r = run({QStringLiteral("--table"), table, QStringLiteral("--perplexity"), QStringLiteral("5"),
                               QStringLiteral("--export-data"), kind, QStringLiteral("--out"), out});
            if (refused) {
                QCOMPARE(r.code, 2);
                QVERIFY2(r.err.contains(QStringLiteral("1e150")), qPrintable(r.err));
                QVERIFY2(r.err.contains(QStringLiteral("row ")) && r.err.contains(QStringLiteral("column ")),
                         qPrintable(r.err));
                continue;
            }
            if (r.code == 2) // a kind this table does not have (frequencies of a table are measured)
                continue;
            QVERIFY2(r.code == 0, qPrintable(kind + QStringLiteral(": ") + r.err));
            QFile f(out);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QString text = QString::fromLatin1(f.readAll()).toLower();
            QVERIFY2(!text.contains(QStringLiteral("nan")) && !text.contains(QStringLiteral("inf")),
                     qPrintable(kind + QStringLiteral(" holds NaN or infinity")));
        }
        const QString figures = dir.filePath(QStringLiteral("figures"));
        const Run r =
            run(QStringList{QStringLiteral("--table"), table, QStringLiteral("--perplexity"), QStringLiteral("5"),
                            QStringLiteral("--export"), QStringLiteral("all"), QStringLiteral("--size"),
                            QStringLiteral("400x300"), QStringLiteral("--out"), figures} +
                shortProbeArgs());
        QVERIFY2(r.code == 0 || r.code == 2, qPrintable(r.err));
        if (refused) {
            QCOMPARE(r.code, 2);
            QVERIFY(!QDir(figures).exists() || QDir(figures).isEmpty());
        } else {
            QVERIFY2(r.code == 0, qPrintable(r.err));
            QVERIFY(QFile::exists(QDir(figures).filePath(QStringLiteral("heatmap.png"))));
        }
        const QStringList left = QDir(dir.path()).entryList({QStringLiteral("*.tmp-*")}, QDir::Files);
        QVERIFY2(left.isEmpty(), qPrintable(left.join(QLatin1Char(' '))));
    }

    // Scale-free results are the same at any magnitude: recovery, cosine similarity and PCA's
    // coordinates (divided by the scale) of 1e-300 x T equal those of T.
    void tinyTablesGiveTheResultsOfTheirShape()
    {
        QTemporaryDir dir;
        const auto csv = [&](const QString &table, const QStringList &flags) {
            const QString out = dir.filePath(QStringLiteral("o.csv"));
            QFile::remove(out);
            const Run r =
                run(QStringList{QStringLiteral("--table"), table} + flags + QStringList{QStringLiteral("--out"), out});
            [&] { QVERIFY2(r.code == 0, qPrintable(r.err)); }();
            QFile f(out);
            f.open(QIODevice::ReadOnly);
            QList<QList<double>> rows;
            for (const QByteArray &line : f.readAll().split('\n').mid(1))
                if (!line.isEmpty()) {
                    QList<double> row;
                    for (const QByteArray &v : line.split(','))
                        row.append(v.toDouble());
                    rows.append(row);
                }
            return rows;
        };
        const QString one = dir.filePath(QStringLiteral("one.npy")), tiny = dir.filePath(QStringLiteral("tiny.npy"));
        writeNpy(one, 60, 8, gauss);
        writeNpy(tiny, 60, 8, [](int r, int c) { return gauss(r, c) * 0x1p-1000; }); // exact: a power of two
        const QStringList recovery = {QStringLiteral("--export-data"), QStringLiteral("recovery")};
        QCOMPARE(csv(tiny, recovery), csv(one, recovery));
        const QStringList cosine = {QStringLiteral("--metric"), QStringLiteral("cosine"),
                                    QStringLiteral("--export-data"), QStringLiteral("similarity")};
        QCOMPARE(csv(tiny, cosine), csv(one, cosine));
        const QStringList distance = {QStringLiteral("--metric"), QStringLiteral("euclidean"),
                                      QStringLiteral("--export-data"), QStringLiteral("distance")};
        const auto dOne = csv(one, distance), dTiny = csv(tiny, distance);
        QCOMPARE(dTiny.size(), dOne.size());
        for (int r = 0; r < dOne.size(); ++r)
            for (int c = 1; c < dOne[r].size(); ++c)
                QCOMPARE(dTiny[r][c], std::ldexp(dOne[r][c], -1000));
        const QStringList pca = {QStringLiteral("--method"), QStringLiteral("pca"), QStringLiteral("--export-data"),
                                 QStringLiteral("projection")};
        const auto pOne = csv(one, pca), pTiny = csv(tiny, pca);
        for (int r = 0; r < pOne.size(); ++r)
            for (int c = 1; c < 3; ++c)
                QVERIFY(std::abs(std::ldexp(pTiny[r][c], 1000) - pOne[r][c]) <= 1e-12 * (1 + std::abs(pOne[r][c])));
        // t-SNE's affinities and so its picture do not depend on the scale: the same bits.
        const QStringList tsne = {QStringLiteral("--perplexity"), QStringLiteral("5"), QStringLiteral("--export-data"),
                                  QStringLiteral("projection")};
        QCOMPARE(csv(tiny, tsne), csv(one, tsne));
    }

    // The refusal names the limit and the first offending row and column, counted from 0.
    void tooLargeValuesAreRefusedWhereTheyAre()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("t.npy"));
        writeNpy(path, 5, 4, [](int r, int c) { return r == 3 && c >= 2 ? -2e151 : 1.0; });
        try {
            pe::PositionTable::open(path.toStdString());
            QFAIL("a table holding -2e151 was opened");
        } catch (const std::runtime_error &e) {
            const QString why = QString::fromStdString(e.what());
            QVERIFY2(why.contains(QStringLiteral("-2e+151 at row 3, column 2")), qPrintable(why));
            QVERIFY2(why.contains(QStringLiteral("1e150")), qPrintable(why));
        }
        writeNpy(path, 5, 4, [](int, int) { return pe::kTableMaxMagnitude; });
        QCOMPARE(pe::PositionTable::open(path.toStdString())->maxAbs(), pe::kTableMaxMagnitude);
    }
};

QTEST_GUILESS_MAIN(TestExtremeTables)
#include "tst_extreme_tables.moc"

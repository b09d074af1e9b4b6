// What colours the projection's points (core/projections/point_colors.h): the setting's text, the
// values against direct computations, the labels file's reading and refusals, the nearest point
// drawn against a search of every pair, and the data export's column.
#include "encodings/position_table.h"
#include "export/data_export.h"
#include "projections/neighbors.h"
#include "projections/point_colors.h"
#include "test_support.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

#include <cmath>
#include <numbers>
#include <random>

using testsupport::params;

class TestPointColors : public QObject
{
    Q_OBJECT

  private slots:
    void textRoundTripsAndRefusals();
    void problemsNameThePairOrColumn();
    void phaseIsThePairsClockAngle();
    void normAndColumnAreTheProjectedVectors();
    void labelsAreReadInTheFilesOrder();
    void badLabelsFilesAreRefusedNamingTheLine();
    void nearestOffsetsMatchEveryPair_data();
    void nearestOffsetsMatchEveryPair();
    void nearestOffsetsOfOnePointRepeated();
    void dataExportAddsTheColouringsColumn();

  private:
    QTemporaryDir dir_;
    QString write(const QString &name, const QByteArray &text)
    {
        const QString path = dir_.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size())
            qFatal("cannot write %s", qPrintable(path));
        return path;
    }
};

void TestPointColors::textRoundTripsAndRefusals()
{
    for (const char *text : {"position", "phase:0", "phase:17", "norm", "column:5", "error", "labels:/tmp/x y.csv"}) {
        std::string error;
        const auto c = pe::parseColorBy(text, &error);
        QVERIFY2(c, text);
        QCOMPARE(pe::colorByText(*c), std::string(text));
    }
    QCOMPARE(pe::parseColorBy("phase:3", nullptr)->index, 3);
    QCOMPARE(pe::parseColorBy("labels:a:b.csv", nullptr)->path, std::string("a:b.csv"));
    for (const char *bad : {"", "Position", "phase", "phase:", "phase:-1", "phase:+2", "phase:1.5", "phase: 3",
                            "column:x", "column:99999999999", "labels:", "norm ", "errors"}) {
        std::string error;
        QVERIFY2(!pe::parseColorBy(bad, &error), bad);
        QVERIFY2(error.find("colour by position") != std::string::npos, error.c_str());
    }
}

void TestPointColors::problemsNameThePairOrColumn()
{
    const pe::Encoding e(params(50, 16));
    QVERIFY(!pe::colorByProblem(*pe::parseColorBy("phase:7", nullptr), e));
    QVERIFY(!pe::colorByProblem(*pe::parseColorBy("column:15", nullptr), e));
    const auto pair = pe::colorByProblem(*pe::parseColorBy("phase:8", nullptr), e);
    QVERIFY(pair && pair->find("pairs 0 to 7") != std::string::npos);
    const auto column = pe::colorByProblem(*pe::parseColorBy("column:16", nullptr), e);
    QVERIFY(column && column->find("columns 0 to 15") != std::string::npos);
    const auto missing = pe::colorByProblem(*pe::parseColorBy("labels:/no/such/file.csv", nullptr), e);
    QVERIFY(missing && missing->find("does not exist") != std::string::npos);

    // A table's pairs turn at no frequency: no phase, but its columns and norms colour.
    std::vector<double> values;
    for (int i = 0; i < 240; ++i)
        values.push_back(0.02 * std::sin(0.7 * i * i));
    const pe::Encoding t(pe::tableParams({}, testsupport::tableOf(40, 6, values)));
    const auto phase = pe::colorByProblem(*pe::parseColorBy("phase:0", nullptr), t);
    QVERIFY(phase && phase->find("table") != std::string::npos);
    std::string error;
    const auto col = pe::pointColors(*pe::parseColorBy("column:4", nullptr), t, {}, &error);
    QVERIFY2(col, error.c_str());
    for (std::int64_t r = 0; r < 40; ++r)
        QCOMPARE(col->values[static_cast<std::size_t>(r)], t.value(static_cast<double>(r), 4));
}

void TestPointColors::phaseIsThePairsClockAngle()
{
    // t w_I mod 2 pi, w_I = base^(-2I/d), against a long-double reduction of the exact product;
    // far positions too, where t w_I in double has lost the phase of the fast pairs.
    for (std::int64_t start : {std::int64_t{0}, std::int64_t{999'999'000}}) {
        const pe::Encoding e(params(1000, 64, 1e4, start));
        for (int pair : {0, 5, 31}) {
            pe::ColorBy by;
            by.kind = pe::ColorByKind::Phase;
            by.index = pair;
            std::string error;
            const auto c = pe::pointColors(by, e, {}, &error);
            QVERIFY2(c, error.c_str());
            QCOMPARE(c->header, std::string("phase_") + std::to_string(pair));
            const double w = std::pow(1e4, -2.0 * pair / 64);
            for (std::int64_t i = 0; i < 1000; i += 7) {
                const std::int64_t t = start + i;
                const long double s = testsupport::referenceValue(t, w, true);
                const long double co = testsupport::referenceValue(t, w, false);
                long double a = std::atan2(s, co);
                if (a < 0)
                    a += 2 * std::numbers::pi_v<long double>;
                const double got = c->values[static_cast<std::size_t>(i)];
                QVERIFY(got >= 0 && got < 2 * std::numbers::pi);
                // Near 0 and 2 pi the two ends are one phase.
                const double diff = std::abs(got - static_cast<double>(a));
                QVERIFY2(std::min(diff, 2 * std::numbers::pi - diff) < 1e-9,
                         qPrintable(QStringLiteral("t %1 pair %2: %3 vs %4").arg(t).arg(pair).arg(got).arg(double(a))));
            }
        }
    }
}

void TestPointColors::normAndColumnAreTheProjectedVectors()
{
    // The pure sinusoids have norm sqrt(d / 2) at every position; with noise, the noisy vectors'
    // own, as every projection sees them (embeddingRows).
    const pe::Encoding e(params(3000, 48));
    std::string error;
    const auto pure = pe::pointColors(*pe::parseColorBy("norm", nullptr), e, {}, &error);
    QVERIFY2(pure, error.c_str());
    for (double v : pure->values)
        QVERIFY(std::abs(v - std::sqrt(24.0)) < 1e-12);
    const pe::NoiseParams noise{0.3, 11};
    const std::vector<double> x = pe::embeddingRows(e, noise).all();
    const auto noisy = pe::pointColors(*pe::parseColorBy("norm", nullptr), e, noise, &error);
    const auto column = pe::pointColors(*pe::parseColorBy("column:17", nullptr), e, noise, &error);
    QVERIFY(noisy && column);
    QCOMPARE(column->header, std::string("column_17"));
    for (std::int64_t i = 0; i < 3000; ++i) {
        double sum = 0;
        for (int j = 0; j < 48; ++j)
            sum += x[static_cast<std::size_t>(i * 48 + j)] * x[static_cast<std::size_t>(i * 48 + j)];
        QVERIFY(std::abs(noisy->values[static_cast<std::size_t>(i)] - std::sqrt(sum)) < 1e-12);
        QCOMPARE(column->values[static_cast<std::size_t>(i)], x[static_cast<std::size_t>(i * 48 + 17)]);
    }
    // Values whose squares underflow beside ones near the tables' limit (1e150): each row's norm is
    // its own, neither 0 nor lost to the table's scale.
    const pe::Encoding big(pe::tableParams({}, testsupport::tableOf(3, 2, {3e149, 4e149, 3e-200, 4e-200, 0, 0})));
    const auto bigNorm = pe::pointColors(*pe::parseColorBy("norm", nullptr), big, {}, &error);
    QVERIFY2(bigNorm, error.c_str());
    QVERIFY(std::abs(bigNorm->values[0] / 5e149 - 1) < 1e-14);
    QVERIFY(std::abs(bigNorm->values[1] / 5e-200 - 1) < 1e-14);
    QCOMPARE(bigNorm->values[2], 0.0);
}

void TestPointColors::labelsAreReadInTheFilesOrder()
{
    // A byte-order mark, a header, blanks, quotes, CRLF, and positions outside the window 10..19.
    const QString path = write(QStringLiteral("labels.csv"), "\xEF\xBB\xBFposition,label\r\n"
                                                             "12,verb\r\n"
                                                             "\r\n"
                                                             "10, noun \r\n"
                                                             "3,noun\r\n"
                                                             "11,\"noun, plural\"\r\n"
                                                             "19,verb\r\n"
                                                             "25,adj\r\n");
    std::string error;
    const auto labels = pe::readPositionLabels(path.toStdString(), 10, 10, &error);
    QVERIFY2(labels, error.c_str());
    QCOMPARE(labels->names, (std::vector<std::string>{"verb", "noun", "noun, plural"}));
    QCOMPARE(labels->ofRow, (std::vector<std::int32_t>{1, 2, 0, -1, -1, -1, -1, -1, -1, 0}));
    QCOMPARE(labels->outside, std::int64_t{2});
    QCOMPARE(labels->unlabelled, std::int64_t{6});
    const pe::Encoding e(params(10, 8, 1e4, 10));
    const auto colors = pe::pointColors(*pe::parseColorBy(("labels:" + path).toStdString(), nullptr), e, {}, &error);
    QVERIFY2(colors, error.c_str());
    QCOMPARE(colors->values, (std::vector<double>{1, 2, 0, -1, -1, -1, -1, -1, -1, 0}));
    QCOMPARE(colors->names.size(), std::size_t{3});
    QCOMPARE(colors->header, std::string("label"));
    // No header: the first line is data.
    const auto plain =
        pe::readPositionLabels(write(QStringLiteral("plain.csv"), "0,a\n1,b\n").toStdString(), 0, 2, &error);
    QVERIFY2(plain && plain->unlabelled == 0, error.c_str());
}

void TestPointColors::badLabelsFilesAreRefusedNamingTheLine()
{
    const auto refused = [&](const QByteArray &text, const char *says) {
        std::string error;
        const QString path = write(QStringLiteral("bad.csv"), text);
        const auto labels = pe::readPositionLabels(path.toStdString(), 0, 100, &error);
        QVERIFY2(!labels, text.constData());
        QVERIFY2(error.find(says) != std::string::npos, (error + " should say " + says).c_str());
    };
    refused("position,label\n1,a\n2 b\n", "line 3 has no comma");
    refused("1,a\n2,b\n1,c\n", "line 3 labels position 1 again (first on line 1)");
    refused("1,a\nx,b\n", "line 2 starts with 'x'");
    refused("1,a\n2,\n", "line 2 labels position 2 with nothing");
    refused("1,a\n2,\"\"\n", "line 2 labels position 2 with nothing");
    refused("", "it is empty");
    refused("position,label\n500,a\n", "labels no position from 0 to 99");
    refused("1," + QByteArray(81, 'x') + "\n", "81 characters");
    QByteArray many;
    for (int i = 0; i < 19; ++i)
        many += QByteArray::number(i) + ",label " + QByteArray::number(i) + "\n";
    refused(many, "more than 18 different labels within the window (one more on line 19)");
    // Eighteen labels, and any number outside the window, are fine.
    std::string error;
    QVERIFY(pe::readPositionLabels(write(QStringLiteral("ok.csv"), many).toStdString(), 0, 18, &error));

    // A pipe is refused unopened (reading it would wait for a writer), a folder too.
    const QString fifo = dir_.filePath(QStringLiteral("fifo.csv"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    QVERIFY(!pe::readPositionLabels(fifo.toStdString(), 0, 10, &error));
    QVERIFY2(error.find("named pipe") != std::string::npos, error.c_str());
    QVERIFY(!pe::readPositionLabels(dir_.path().toStdString(), 0, 10, &error));
    QVERIFY2(error.find("folder") != std::string::npos, error.c_str());
    const pe::Encoding e(params(10, 8));
    QVERIFY(!pe::pointColors(*pe::parseColorBy(("labels:" + fifo).toStdString(), nullptr), e, {}, &error));
    QVERIFY2(error.find("named pipe") != std::string::npos, error.c_str());
}

void TestPointColors::nearestOffsetsMatchEveryPair_data()
{
    QTest::addColumn<int>("dims");
    QTest::addColumn<int>("n");
    QTest::addColumn<QString>("shape");
    for (int dims : {2, 3})
        for (const char *shape : {"uniform", "clusters", "line", "grid", "lattice", "curve"})
            QTest::addRow("%dd %s", dims, shape) << dims << 2500 << QString::fromLatin1(shape);
    QTest::addRow("2d two points") << 2 << 2 << QStringLiteral("uniform");
}

void TestPointColors::nearestOffsetsMatchEveryPair()
{
    // Uniform points; tight clusters far apart (most cells empty); a line (one axis of no extent);
    // a grid of repeated points; a lattice of exact ties at distance 1 (the lower row wins).
    QFETCH(int, dims);
    QFETCH(int, n);
    QFETCH(QString, shape);
    std::mt19937_64 rng(7);
    std::normal_distribution<double> z;
    std::uniform_real_distribution<double> u(-50, 50);
    std::vector<double> xy(static_cast<std::size_t>(n * dims));
    for (int i = 0; i < n; ++i)
        for (int a = 0; a < dims; ++a) {
            double &v = xy[static_cast<std::size_t>(i * dims + a)];
            if (shape == QLatin1String("uniform"))
                v = u(rng);
            else if (shape == QLatin1String("clusters"))
                v = 1000.0 * (i % 5) * (a + 1) + 0.01 * z(rng);
            else if (shape == QLatin1String("line"))
                v = a == 0 ? u(rng) : 3.0;
            else if (shape == QLatin1String("curve")) // a spiral: few cells of the first grid filled
                v = (1.0 + i * 0.01) * (a == 0 ? std::cos(i * 0.05) : a == 1 ? std::sin(i * 0.05) : 0.001 * i);
            else if (shape == QLatin1String("grid"))
                v = static_cast<double>((i * (a + 3)) % 17);
            else // a lattice laid out backwards: each point's nearest are 2 to 6 at distance 1, the lowest last
                v = 50.0 - static_cast<double>(dims == 2 ? (a == 0 ? i % 50 : i / 50)
                                                         : (a == 0   ? i % 14
                                                            : a == 1 ? (i / 14) % 14
                                                                     : i / 196));
        }
    const std::vector<double> got = pe::nearestOffsets(xy, dims);
    for (int i = 0; i < n; ++i) {
        double best = std::numeric_limits<double>::infinity();
        int bestRow = -1;
        for (int j = 0; j < n; ++j) {
            if (j == i)
                continue;
            double d2 = 0;
            for (int a = 0; a < dims; ++a)
                d2 += std::pow(xy[static_cast<std::size_t>(i * dims + a)] - xy[static_cast<std::size_t>(j * dims + a)],
                               2);
            if (d2 < best) {
                best = d2;
                bestRow = j;
            }
        }
        QVERIFY2(got[static_cast<std::size_t>(i)] == std::abs(bestRow - i),
                 qPrintable(QStringLiteral("row %1: %2, every pair says %3")
                                .arg(i)
                                .arg(got[static_cast<std::size_t>(i)])
                                .arg(std::abs(bestRow - i))));
    }
}

void TestPointColors::nearestOffsetsOfOnePointRepeated()
{
    // Every point at one place: row 0's nearest is row 1, every other row's is row 0 (the lowest at
    // distance 0). 200,000 of them stay linear (each stops at its first twin).
    const int n = 200'000;
    const std::vector<double> same(static_cast<std::size_t>(2 * n), 1.5);
    const std::vector<double> got = pe::nearestOffsets(same, 2);
    QCOMPARE(got[0], 1.0);
    for (int i = 1; i < n; i += 997)
        QCOMPARE(got[static_cast<std::size_t>(i)], static_cast<double>(i));
    QVERIFY(std::isnan(pe::nearestOffsets({1.0, 2.0}, 2)[0])); // one point has no nearest
    // A point that is not finite has no nearest and is nobody's; the others are as without it.
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const std::vector<double> withNan = pe::nearestOffsets({nan, 0.0, 0.0, 0.0, 5.0, 5.0, 0.1, 0.0}, 2);
    QVERIFY(std::isnan(withNan[0]));
    QCOMPARE(withNan[1], 2.0);
    QCOMPARE(withNan[2], 1.0);
    QCOMPARE(withNan[3], 2.0);
    QVERIFY(std::isnan(pe::nearestOffsets({nan, 0.0, 1.0, 1.0}, 2)[1])); // no finite other
}

void TestPointColors::dataExportAddsTheColouringsColumn()
{
    const pe::Encoding e(params(64, 16));
    const pe::TsneSettings s;
    const auto read = [](const pe::Table &t) {
        std::vector<double> out(static_cast<std::size_t>(t.rows * t.cols));
        t.fill(0, t.rows, out.data());
        return out;
    };
    const pe::Table plain = pe::projectionTable(e, {}, pe::ProjectionMethod::Pca, s);
    QCOMPARE(plain.columnHeaders, (std::vector<std::string>{"x", "y"}));
    const std::vector<double> xy = read(plain);
    const pe::Table phase =
        pe::projectionTable(e, {}, pe::ProjectionMethod::Pca, s, {}, *pe::parseColorBy("phase:2", nullptr));
    QCOMPARE(phase.columnHeaders, (std::vector<std::string>{"x", "y", "phase_2"}));
    const std::vector<double> withPhase = read(phase);
    std::string error;
    const auto colors = pe::pointColors(*pe::parseColorBy("phase:2", nullptr), e, {}, &error);
    for (std::size_t i = 0; i < 64; ++i) {
        QCOMPARE(withPhase[3 * i], xy[2 * i]);
        QCOMPARE(withPhase[3 * i + 1], xy[2 * i + 1]);
        QCOMPARE(withPhase[3 * i + 2], colors->values[i]);
    }
    const std::vector<double> withError =
        read(pe::projectionTable(e, {}, pe::ProjectionMethod::Pca, s, {}, *pe::parseColorBy("error", nullptr)));
    const std::vector<double> nearest = pe::nearestOffsets(xy, 2);
    for (std::size_t i = 0; i < 64; ++i)
        QCOMPARE(withError[3 * i + 2], nearest[i]);
}

QTEST_GUILESS_MAIN(TestPointColors)
#include "tst_point_colors.moc"

// The .npy reader (core/position_table.h), the Encoding on a table, and the proof that a table is
// shown exactly as the scheme it came from: the sinusoids exported with --export-data encoding and
// read back give the same numbers, bit for bit.
#include "analysis/recovery.h"
#include "analysis/relative.h"
#include "analysis/similarity.h"
#include "analysis/spectrum.h"
#include "encodings/encoding.h"
#include "encodings/position_table.h"
#include "export/data_export.h"

#include <QTemporaryDir>
#include <QTest>

#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

namespace {

// A .npy file's bytes: the preamble, the header dict padded to 64 bytes, the payload.
std::string npyBytes(const std::string &dict, const std::string &payload, int major = 1)
{
    const std::size_t pre = major == 1 ? 10 : 12;
    std::string header = dict;
    while ((pre + header.size() + 1) % 64 != 0)
        header += ' ';
    header += '\n';
    std::string out = std::string("\x93NUMPY", 6) + static_cast<char>(major) + '\0';
    const auto n = static_cast<std::uint32_t>(header.size());
    out += static_cast<char>(n & 0xff);
    out += static_cast<char>((n >> 8) & 0xff);
    if (major != 1) {
        out += static_cast<char>((n >> 16) & 0xff);
        out += static_cast<char>((n >> 24) & 0xff);
    }
    return out + header + payload;
}

std::string dict(const std::string &descr, bool fortran, const std::string &shape)
{
    return "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': " + shape +
           ", }";
}

template <typename T> std::string raw(const std::vector<T> &values, bool bigEndian)
{
    std::string out;
    for (T v : values) {
        char b[sizeof(T)];
        std::memcpy(b, &v, sizeof(T));
        if (bigEndian)
            for (std::size_t i = 0; i < sizeof(T) / 2; ++i)
                std::swap(b[i], b[sizeof(T) - 1 - i]);
        out.append(b, sizeof(T));
    }
    return out;
}

std::string half(const std::vector<std::uint16_t> &bits)
{
    return raw(bits, false);
}

std::shared_ptr<const pe::PositionTable> parse(const std::string &bytes)
{
    return pe::PositionTable::fromBytes(reinterpret_cast<const unsigned char *>(bytes.data()), bytes.size(), "t.npy");
}

QString refusal(const std::string &bytes)
{
    try {
        parse(bytes);
    } catch (const std::runtime_error &e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

void writeFile(const QString &path, const std::string &bytes)
{
    std::ofstream(path.toStdString(), std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

pe::EncodingParams tableParams(const std::shared_ptr<const pe::PositionTable> &t)
{
    return pe::tableParams(pe::EncodingParams{}, t);
}

// Every value of a Table as written (row-major), for bit-for-bit comparisons.
std::vector<double> values(const pe::Table &t)
{
    std::vector<double> out(static_cast<std::size_t>(t.rows * t.cols));
    t.fill(0, t.rows, out.data());
    return out;
}

bool sameBits(const std::vector<double> &a, const std::vector<double> &b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::bit_cast<std::uint64_t>(a[i]) != std::bit_cast<std::uint64_t>(b[i]))
            return false;
    return true;
}

} // namespace

class TestPositionTable : public QObject
{
    Q_OBJECT

  private slots:
    void readsEveryTypeOrderAndEndianness()
    {
        // 2 x 3: row r, column c holds 10 r + c (exact in every type).
        const std::vector<double> c{0, 1, 2, 10, 11, 12};
        const std::vector<double> fortran{0, 10, 1, 11, 2, 12};
        const auto check = [](const std::shared_ptr<const pe::PositionTable> &t) {
            QCOMPARE(t->rows(), 2);
            QCOMPARE(t->cols(), 3);
            for (int r = 0; r < 2; ++r)
                for (int col = 0; col < 3; ++col)
                    QCOMPARE(t->value(r, col), 10.0 * r + col);
            double row[3];
            t->readRow(1, 0, 1, 3, row);
            QCOMPARE(row[2], 12.0);
            t->readRow(1, 0, 2, 2, row);
            QCOMPARE(row[1], 12.0);
            QCOMPARE(t->maxAbs(), 12.0);
        };
        check(parse(npyBytes(dict("<f8", false, "(2, 3)"), raw(c, false))));
        check(parse(npyBytes(dict(">f8", false, "(2, 3)"), raw(c, true))));
        check(parse(npyBytes(dict("<f8", true, "(2, 3)"), raw(fortran, false))));
        check(parse(
            npyBytes(dict(">f4", true, "(2, 3)"), raw(std::vector<float>(fortran.begin(), fortran.end()), true))));
        check(parse(npyBytes(dict("<f4", false, "(2, 3)"), raw(std::vector<float>(c.begin(), c.end()), false), 2)));
        // float16 bits of 0, 1, 2, 10, 11, 12
        check(parse(npyBytes(dict("<f2", false, "(2, 3)"), half({0x0000, 0x3c00, 0x4000, 0x4900, 0x4980, 0x4a00}))));
        // Keys in any order, double quotes, no trailing comma, Python 2's 3L: all valid headers.
        check(parse(npyBytes("{\"shape\": (2L, 3L), \"fortran_order\": False, \"descr\": \"<f8\"}", raw(c, false))));
        const auto t = parse(npyBytes(dict(">f4", true, "(2, 3)"), raw(std::vector<float>(3 * 2, 0.5f), true)));
        QCOMPARE(QString::fromStdString(t->description()), QStringLiteral("float32, big endian, Fortran order"));
        // float16's subnormals and negative values
        const auto h = parse(npyBytes(dict("<f2", false, "(1, 2)"), half({0x0001, 0xc000})));
        QCOMPARE(h->value(0, 0), std::ldexp(1.0, -24));
        QCOMPARE(h->value(0, 1), -2.0);
    }

    void refusesBadTablesWithOneLine_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expected");
        const std::string six = raw(std::vector<double>(6, 0.5), false);
        auto row = [](const char *name, const std::string &bytes, const char *expected) {
            QTest::newRow(name) << QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size()))
                                << QString::fromUtf8(expected);
        };
        row("bad magic", "PK\x03\x04 this is a zip file", "not a NumPy .npy, safetensors or GGUF file");
        row("empty file", "", "the file is empty");
        row("truncated header", npyBytes(dict("<f8", false, "(2, 3)"), six).substr(0, 40), "truncated");
        row("truncated values", npyBytes(dict("<f8", false, "(2, 3)"), six.substr(0, 40)), "(truncated)");
        row("too many values", npyBytes(dict("<f8", false, "(2, 3)"), six + six),
            "needs 48 bytes of values but the file holds 96");
        row("1-D", npyBytes(dict("<f8", false, "(6,)"), six), "has 1 dimension (6); a position table must be 2-D");
        row("3-D", npyBytes(dict("<f8", false, "(3, 1, 2)"), six), "has 3 dimensions (3 x 1 x 2)");
        row("0-D", npyBytes(dict("<f8", false, "()"), raw(std::vector<double>{0.5}, false)), "has 0 dimensions");
        row("empty", npyBytes(dict("<f8", false, "(0, 3)"), ""), "the table is empty (0 x 3)");
        row("object", npyBytes(dict("|O", false, "(2, 3)"), six), "Python objects ('|O')");
        row("complex", npyBytes(dict("<c16", false, "(2, 3)"), six), "complex128");
        row("string", npyBytes(dict("<U10", false, "(2, 3)"), six), "unicode strings");
        row("int", npyBytes(dict("<i8", false, "(2, 3)"), six),
            "int64 ('<i8'); a position table must be float16, bfloat16, float32 or float64");
        row("structured", npyBytes("{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (2, 3), }", six),
            "structured");
        row("absurd header length", std::string("\x93NUMPY\x02\x00\xff\xff\xff\xff", 12) + "{}",
            "not a plausible .npy header");
        row("unknown version", std::string("\x93NUMPY\x09\x00\x10\x00", 10) + "{}", "format version 9");
        row("unknown key", npyBytes("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), 'x': 1}", six),
            "unexpected key 'x'");
        row("duplicate key", npyBytes("{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (2, 3)}", six),
            "appears twice");
        row("missing key", npyBytes("{'descr': '<f8', 'shape': (2, 3)}", six), "lacks 'fortran_order'");
        row("code, not data",
            npyBytes("{'descr': __import__('os').system('rm -rf /'), 'fortran_order': False, 'shape': (2, 3)}", six),
            "expected a quoted string");
        row("overflowing shape", npyBytes(dict("<f8", false, "(99999999999999999999, 3)"), six), "too large");
        row("too many columns", npyBytes(dict("<f8", false, "(1, 16385)"), raw(std::vector<double>(16385, 0.5), false)),
            "16,385 columns; a table can have at most 16,384");
        row("NaN", npyBytes(dict("<f8", false, "(2, 3)"), raw(std::vector<double>{0, 1, 2, 3, std::nan(""), 5}, false)),
            "NaN at row 1, column 1");
        // Fortran order: the first bad value in (row, column) order, not in file order.
        row("infinity, Fortran order",
            npyBytes(dict("<f8", true, "(2, 3)"),
                     raw(std::vector<double>{0, 1, 2, -std::numeric_limits<double>::infinity(),
                                             std::numeric_limits<double>::infinity(), 5},
                         false)),
            "infinity at row 0, column 2");
    }

    void refusesBadTablesWithOneLine()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expected);
        const QString why = refusal(bytes.toStdString());
        QVERIFY2(why.contains(expected), qPrintable(why));
        QVERIFY(!why.contains(QLatin1Char('\n')));
    }

    void opensFilesAndRefusesMissingOnes()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("wpe.npy"));
        writeFile(path, npyBytes(dict("<f4", false, "(3, 2)"), raw(std::vector<float>{1, 2, 3, 4, 5, 6}, false)));
        const auto t = pe::PositionTable::open(path.toStdString());
        QCOMPARE(t->value(2, 1), 6.0);
        QCOMPARE(QString::fromStdString(pe::tableName(tableParams(t))), QStringLiteral("wpe.npy"));
        for (const QString &bad : {dir.filePath(QStringLiteral("missing.npy")), dir.path(), QString()}) {
            try {
                pe::PositionTable::open(bad.toStdString());
                QFAIL("opened");
            } catch (const std::runtime_error &e) {
                QVERIFY(!std::string(e.what()).empty());
            }
        }
    }

    void encodingOnATable()
    {
        // 5 positions x 3 columns: an odd d leaves the last column without a partner.
        std::vector<double> v;
        for (int r = 0; r < 5; ++r)
            for (int c = 0; c < 3; ++c)
                v.push_back(r * 0.1 + c);
        const auto t = parse(npyBytes(dict("<f8", false, "(5, 3)"), raw(v, false)));
        pe::EncodingParams p = tableParams(t);
        QVERIFY(!pe::validate(p));
        const pe::Encoding enc(p);
        QVERIFY(!enc.hasFrequencies());
        QCOMPARE(enc.channelCount(), 0);
        QCOMPARE(enc.pairCount(), 2);
        QCOMPARE(enc.pairCosineColumn(1), -1);
        QVERIFY(std::isnan(enc.pairFrequency(0)));
        QVERIFY(!pe::OffsetKernel::applies(p, pe::NoiseParams{}));
        double s, c;
        enc.pairSinCos(3, 0, s, c);
        QCOMPARE(s, 0.3);
        QCOMPARE(c, 1.3);
        // A sampled, jittered block holds exactly the rows its positions name.
        pe::Block b = pe::sampledBlock(p.layout, 0, 5, 2, 0, 3, 3);
        std::vector<double> out(static_cast<std::size_t>(b.size()));
        enc.fill(b, out.data());
        for (std::int64_t r = 0; r < b.rows; ++r)
            for (int k = 0; k < b.cols; ++k)
                QCOMPARE(out[static_cast<std::size_t>(r * b.cols + k)], t->value(b.position(r), b.column(k)));

        // What the table fixes: d_model, the layout, the window's end.
        pe::EncodingParams q = p;
        q.dModel = 4;
        QCOMPARE(pe::validate(q)->field, pe::Field::DModel);
        q = p;
        q.layout = pe::Layout::Split;
        QCOMPARE(pe::validate(q)->field, pe::Field::Layout);
        q = p;
        q.seqLen = 6;
        QCOMPARE(pe::validate(q)->field, pe::Field::SeqLen);
        q = p;
        q.seqLen = 3;
        q.startPos = 3;
        QVERIFY(QString::fromStdString(pe::validate(q)->message).contains(QStringLiteral("the table's 5 rows")));
    }

    void bestRotationOfARotatingTable()
    {
        // A table that is a rotation by 0.3 rad a row in its one pair, at radius 2: the fitted
        // rotation is that one, the residual ~0, and each pair's angle from x(t) to x(t+k) is 0.3 k.
        std::vector<double> v;
        for (int r = 0; r < 40; ++r) {
            v.push_back(2 * std::sin(0.3 * r));
            v.push_back(2 * std::cos(0.3 * r));
        }
        const pe::Encoding enc(tableParams(parse(npyBytes(dict("<f8", false, "(40, 2)"), raw(v, false)))));
        const std::vector<pe::Rotation2> blocks = pe::rotationBlocks(enc, 3);
        QVERIFY(std::abs(blocks[0].a - std::cos(0.9)) < 1e-12);
        QVERIFY(std::abs(blocks[0].b - std::sin(0.9)) < 1e-12);
        QVERIFY(pe::rotationResidual(enc, 3) < 1e-12);
        QVERIFY(std::abs(pe::decodeOffset(enc, pe::NoiseParams{}, 5, 8).perPair[0] - 0.9) < 1e-12);
        QVERIFY(std::isnan(pe::decodeOffset(enc, pe::NoiseParams{}, 5, 8).offset));
        QVERIFY(std::isnan(pe::rotationResidual(enc, 40))); // no two rows 40 apart
    }

    // The proof the issue asks for: the sinusoids written with --export-data encoding (.npy float64)
    // and opened as a table give the same numbers: the encoding, the noisy embeddings and the
    // recovery bit for bit. Similarity and distance agree to rounding (1e-13): the sinusoids' read the
    // offset kernel S(k) and the closed-form norm d/2, the same sums in another order, which a
    // table has no claim to.
    void exportedSinusoidsReadBackBitForBit()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("sin.npy"));
        pe::EncodingParams sp;
        sp.seqLen = 120;
        sp.dModel = 32;
        const pe::Encoding sin(sp);
        std::string error;
        QVERIFY2(pe::writeTable(pe::encodingTable(sin), path.toStdString(), pe::DataFormat::Npy, error), error.c_str());
        const pe::Encoding tab(tableParams(pe::PositionTable::open(path.toStdString())));
        QCOMPARE(tab.table()->description(), std::string("float64, little endian, C order"));

        QVERIFY(sameBits(values(pe::encodingTable(sin)), values(pe::encodingTable(tab))));
        pe::NoiseParams noise;
        noise.sigma = 0.5;
        QVERIFY(sameBits(values(pe::encodingTable(sin, noise)), values(pe::encodingTable(tab, noise))));
        QVERIFY(sameBits(values(pe::recoveryTable(sin, {})), values(pe::recoveryTable(tab, {}))));
        QVERIFY(sameBits(values(pe::recoveryTable(sin, noise)), values(pe::recoveryTable(tab, noise))));
        for (auto metric : {pe::Metric::Dot, pe::Metric::Cosine, pe::Metric::Euclidean})
            for (const pe::NoiseParams &n : {pe::NoiseParams{}, noise})
                for (bool distance : {false, true}) {
                    const auto of = [&](const pe::Encoding &e) {
                        return values(distance ? pe::distanceTable(e, n, metric)
                                               : pe::similarityTable(e, n, 30, metric));
                    };
                    const std::vector<double> a = of(sin), b = of(tab);
                    QCOMPARE(a.size(), b.size());
                    // Euclidean: compared squared, as it is computed (|x|^2 + |p|^2 - 2 x.p, whose
                    // square root near 0 has half the digits: 0 against 8e-8 on the diagonal).
                    const auto sq = [metric](double v) { return metric == pe::Metric::Euclidean ? v * v : v; };
                    for (std::size_t i = 0; i < a.size(); ++i)
                        QVERIFY2(std::abs(sq(a[i]) - sq(b[i])) <= 1e-13 * std::max(1.0, std::abs(sq(a[i]))),
                                 qPrintable(QStringLiteral("metric %1 noise %2 %3 [%4]: %5 vs %6")
                                                .arg(int(metric))
                                                .arg(n.sigma)
                                                .arg(distance)
                                                .arg(i)
                                                .arg(a[i], 0, 'g', 17)
                                                .arg(b[i], 0, 'g', 17)));
                }
    }

    // The spectrum reproduces w_i from the columns' values: every pair that turns at least two
    // periods over the window, to within a twentieth of a bin (2π/4096: 8e-5 rad).
    void spectrumReproducesTheFrequencies()
    {
        double worst = 0;
        for (auto layout : pe::kLayouts) {
            pe::EncodingParams p;
            p.seqLen = 4096;
            p.dModel = 64;
            p.layout = layout;
            const pe::Encoding enc(p);
            std::vector<int> columns;
            for (int i = 0; i < enc.pairCount(); ++i)
                columns.push_back(enc.pairCosineColumn(i));
            const pe::ColumnSpectrum s = pe::columnSpectrum(enc, columns);
            QCOMPARE(s.positions, 4096);
            int checked = 0;
            for (int i = 0; i < enc.pairCount(); ++i) {
                const double w = enc.pairFrequency(i);
                if (w < 4 * s.resolution)
                    continue;
                QVERIFY(s.resolved(static_cast<std::size_t>(i)));
                worst = std::max(worst, std::abs(s.omega[static_cast<std::size_t>(i)] - w) / s.resolution);
                QVERIFY2(
                    std::abs(s.omega[static_cast<std::size_t>(i)] - w) < 0.05 * s.resolution,
                    qPrintable(
                        QStringLiteral("pair %1: %2 vs %3").arg(i).arg(s.omega[static_cast<std::size_t>(i)]).arg(w)));
                QVERIFY(s.peakShare[static_cast<std::size_t>(i)] > 0.99);
                ++checked;
            }
            QVERIFY(checked >= 16);
        }
        qInfo("largest error: %.4f of a bin", worst);
    }
};

QTEST_GUILESS_MAIN(TestPositionTable)
#include "tst_position_table.moc"

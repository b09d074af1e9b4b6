#include "encodings/encoding.h"
#include "encodings/position_table.h"
#include "encodings/scheme.h"

#include <QTest>

#include <cmath>
#include <cstring>
#include <string>

// The scheme catalogue: what each scheme takes and why not the rest, and the properties the views
// rely on, checked against the encoding's own values.
class TestScheme : public QObject
{
    Q_OBJECT

  private slots:
    void catalogue();
    void whatEachSchemeTakes();
    void offsetOnlyMatchesTheValues_data();
    void offsetOnlyMatchesTheValues();
    void boundsAndEnds();
    void validatorHoldsSchemeAndTable();
};

namespace {

// A 5 x 4 float64 table (C order) with values up to 2.5 in size.
std::shared_ptr<const pe::PositionTable> smallTable()
{
    const std::string dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (5, 4), }";
    std::string header = dict + std::string(63 - (10 + dict.size()) % 64, ' ') + "\n";
    std::string bytes = std::string("\x93NUMPY\x01\x00", 8);
    bytes += static_cast<char>(header.size() & 0xff);
    bytes += static_cast<char>(header.size() >> 8);
    bytes += header;
    for (int i = 0; i < 20; ++i) {
        const double v = (i % 7 - 3) * 0.5 + (i == 13 ? -4.0 : 0.0);
        char raw[8];
        std::memcpy(raw, &v, 8);
        bytes.append(raw, 8);
    }
    return pe::PositionTable::fromBytes(reinterpret_cast<const unsigned char *>(bytes.data()), bytes.size(),
                                        "/tmp/wpe.npy");
}

} // namespace

void TestScheme::catalogue()
{
    for (pe::SchemeId id : pe::kSchemes) {
        const pe::SchemeInfo &info = pe::schemeInfo(id);
        QCOMPARE(info.id, id);
        QVERIFY(!info.title.empty() && !info.reference.empty());
        QVERIFY(!pe::schemeName(id).empty());
        // Chosen by name exactly when the name parses; a table comes from its file.
        QCOMPARE(pe::parseScheme(pe::schemeName(id)).has_value(), info.byName);
        // Every scheme has a window of positions.
        pe::EncodingParams p;
        p.scheme = id;
        QVERIFY(pe::takes(p, pe::Field::SeqLen) && pe::takes(p, pe::Field::StartPos));
    }
    QVERIFY(!pe::parseScheme("table"));
    QVERIFY(!pe::parseScheme("Sinusoidal"));
    QVERIFY(!pe::parseScheme(""));
}

void TestScheme::whatEachSchemeTakes()
{
    const pe::EncodingParams sinusoids;
    for (pe::Field f : {pe::Field::SeqLen, pe::Field::DModel, pe::Field::Base, pe::Field::StartPos, pe::Field::Layout,
                        pe::Field::Exponent}) {
        QVERIFY(pe::takes(sinusoids, f));
        QVERIFY(pe::notApplicable(sinusoids, f).empty());
    }
    const pe::EncodingParams table = pe::tableParams({}, smallTable());
    QCOMPARE(table.scheme, pe::SchemeId::Table);
    QVERIFY(!pe::validate(table));
    QCOMPARE(pe::notApplicable(table, pe::Field::Base), std::string("base does not apply to wpe.npy: its values are "
                                                                    "the file's."));
    QCOMPARE(pe::notApplicable(table, pe::Field::Exponent),
             std::string("exponent does not apply to wpe.npy: its values are the file's."));
    QCOMPARE(pe::notApplicable(table, pe::Field::DModel), std::string("d_model is the column count of wpe.npy: 4."));
    QVERIFY(pe::notApplicable(table, pe::Field::Layout).find("(2i, 2i+1)") != std::string::npos);
    QVERIFY(pe::notApplicable(table, pe::Field::SeqLen).empty());
}

void TestScheme::offsetOnlyMatchesTheValues_data()
{
    QTest::addColumn<int>("d");
    QTest::addColumn<int>("layout");
    QTest::addColumn<int>("exponent");
    QTest::newRow("paper") << 16 << int(pe::Layout::Interleaved) << int(pe::Exponent::Pair);
    QTest::newRow("split") << 16 << int(pe::Layout::Split) << int(pe::Exponent::Pair);
    QTest::newRow("odd d") << 9 << int(pe::Layout::Interleaved) << int(pe::Exponent::Pair);
    QTest::newRow("per-index") << 9 << int(pe::Layout::Interleaved) << int(pe::Exponent::Index);
}

// The flag the S(k) kernel and Toeplitz paths trust: PE(t)·PE(s) = f(t - s) exactly when it says so.
void TestScheme::offsetOnlyMatchesTheValues()
{
    QFETCH(int, d);
    QFETCH(int, layout);
    QFETCH(int, exponent);
    pe::EncodingParams p;
    p.dModel = d;
    p.base = 100;
    p.seqLen = 40;
    p.layout = static_cast<pe::Layout>(layout);
    p.exponent = static_cast<pe::Exponent>(exponent);
    const pe::Encoding enc(p);
    const auto dot = [&](int t, int s) {
        double sum = 0;
        for (int j = 0; j < d; ++j)
            sum += enc.value(t, j) * enc.value(s, j);
        return sum;
    };
    double spread = 0; // how far dot(t, t + k) moves with t at a fixed k
    for (int k = 0; k < 10; ++k)
        for (int t = 1; t < 30; ++t)
            spread = std::max(spread, std::abs(dot(t, t + k) - dot(0, k)));
    QCOMPARE(pe::dotDependsOnOffsetOnly(p), spread < 1e-12);
}

void TestScheme::boundsAndEnds()
{
    const pe::EncodingParams sinusoids;
    QCOMPARE(pe::valueBound(sinusoids), 1.0);
    QCOMPARE(pe::positionEnd(sinusoids), pe::limits::maxPositionEnd);
    const auto file = smallTable();
    const pe::EncodingParams table = pe::tableParams({}, file);
    double largest = 0;
    for (int t = 0; t < 5; ++t)
        for (int j = 0; j < 4; ++j)
            largest = std::max(largest, std::abs(file->value(t, j)));
    QCOMPARE(pe::valueBound(table), largest);
    QCOMPARE(largest, 2.5);
    QCOMPARE(pe::positionEnd(table), 5);
    QVERIFY(!pe::dotDependsOnOffsetOnly(table));
}

void TestScheme::validatorHoldsSchemeAndTable()
{
    pe::EncodingParams p;
    p.scheme = pe::SchemeId::Table; // no file
    auto error = pe::validate(p);
    QVERIFY(error && error->field == pe::Field::Scheme);
    QVERIFY(error->message.find("--table") != std::string::npos);
    p = pe::tableParams({}, smallTable());
    p.scheme = pe::SchemeId::Sinusoidal; // a file, but the wrong scheme
    error = pe::validate(p);
    QVERIFY(error && error->field == pe::Field::Scheme);
}

QTEST_APPLESS_MAIN(TestScheme)
#include "tst_scheme.moc"

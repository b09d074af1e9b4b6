#include "encodings/encoding.h"
#include "encodings/encoding_params.h"
#include "test_support.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <numbers>

class TestEncodingParams : public QObject
{
    Q_OBJECT

  private slots:
    void refusals_data();
    void refusals();
    void accepted_data();
    void accepted();
    void strictNumbers();
    void names();
    void oneSentencePerRange();
    void compactNumbers();
};

Q_DECLARE_METATYPE(pe::Field)

void TestEncodingParams::refusals_data()
{
    QTest::addColumn<qint64>("n");
    QTest::addColumn<int>("d");
    QTest::addColumn<double>("base");
    QTest::addColumn<qint64>("start");
    QTest::addColumn<int>("layout");
    QTest::addColumn<pe::Field>("field");
    QTest::addColumn<QString>("mentions");
    const int inter = int(pe::Layout::Interleaved);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    QTest::newRow("seq_len 0") << qint64(0) << 8 << 1e4 << qint64(0) << inter << pe::Field::SeqLen << "1 to 1,000,000";
    QTest::newRow("seq_len -5") << qint64(-5) << 8 << 1e4 << qint64(0) << inter << pe::Field::SeqLen << "got -5";
    QTest::newRow("seq_len too big") << qint64(1'000'001) << 8 << 1e4 << qint64(0) << inter << pe::Field::SeqLen
                                     << "1,000,000";
    QTest::newRow("d 0") << qint64(10) << 0 << 1e4 << qint64(0) << inter << pe::Field::DModel << "1 to 4,096";
    QTest::newRow("d 4097") << qint64(10) << 4097 << 1e4 << qint64(0) << inter << pe::Field::DModel << "4,096";
    QTest::newRow("split odd") << qint64(10) << 7 << 1e4 << qint64(0) << int(pe::Layout::Split) << pe::Field::DModel
                               << "even";
    QTest::newRow("base 1") << qint64(10) << 8 << 1.0 << qint64(0) << inter << pe::Field::Base << "greater than 1";
    QTest::newRow("base 0.5") << qint64(10) << 8 << 0.5 << qint64(0) << inter << pe::Field::Base << "got 0.5";
    QTest::newRow("base nan") << qint64(10) << 8 << nan << qint64(0) << inter << pe::Field::Base << "finite";
    QTest::newRow("base inf") << qint64(10) << 8 << inf << qint64(0) << inter << pe::Field::Base << "finite";
    QTest::newRow("base 1e16") << qint64(10) << 8 << 1e16 << qint64(0) << inter << pe::Field::Base << "1e15";
    QTest::newRow("start -1") << qint64(10) << 8 << 1e4 << qint64(-1) << inter << pe::Field::StartPos << "from 0";
    QTest::newRow("end past 1e9") << qint64(100) << 8 << 1e4 << qint64(999'999'950) << inter << pe::Field::StartPos
                                  << "start_pos + seq_len";
}

void TestEncodingParams::refusals()
{
    QFETCH(qint64, n);
    QFETCH(int, d);
    QFETCH(double, base);
    QFETCH(qint64, start);
    QFETCH(int, layout);
    QFETCH(pe::Field, field);
    QFETCH(QString, mentions);
    const auto error = pe::validate(testsupport::params(n, d, base, start, static_cast<pe::Layout>(layout)));
    QVERIFY(error.has_value());
    QCOMPARE(error->field, field);
    const QString message = QString::fromStdString(error->message);
    QVERIFY2(message.contains(mentions), qPrintable(message));
    QVERIFY2(message.startsWith(QString::fromUtf8(pe::fieldName(field).data())), qPrintable(message));
    QVERIFY(message.endsWith(QLatin1Char('.')));
    // Out-of-range refusals are "<field> must be <what the field accepts> (got …).", the same words
    // the help and the window use (the split layout's even d and start_pos + seq_len have their own).
    if (!message.contains(QLatin1String("even")) && !message.contains(QLatin1String("+ seq_len")))
        QVERIFY2(message.contains(QString::fromStdString(pe::allowedText(field))), qPrintable(message));
}

void TestEncodingParams::accepted_data()
{
    QTest::addColumn<qint64>("n");
    QTest::addColumn<int>("d");
    QTest::addColumn<double>("base");
    QTest::addColumn<qint64>("start");
    QTest::newRow("smallest") << qint64(1) << 1 << 1.0000001 << qint64(0);
    QTest::newRow("largest") << qint64(1'000'000) << 4096 << 1e15 << qint64(999'000'000);
    QTest::newRow("odd interleaved") << qint64(15) << 9 << 100.0 << qint64(0);
    QTest::newRow("last position") << qint64(1) << 8 << 1e4 << qint64(999'999'999);
}

void TestEncodingParams::accepted()
{
    QFETCH(qint64, n);
    QFETCH(int, d);
    QFETCH(double, base);
    QFETCH(qint64, start);
    QVERIFY(!pe::validate(testsupport::params(n, d, base, start)).has_value());
}

void TestEncodingParams::strictNumbers()
{
    QCOMPARE(pe::parseInteger("42"), std::optional<std::int64_t>(42));
    QCOMPARE(pe::parseInteger("+7"), std::optional<std::int64_t>(7));
    QCOMPARE(pe::parseInteger("-5"), std::optional<std::int64_t>(-5));
    for (const char *bad : {"", "abc", "12abc", "1.5", "1e3", " 4", "99999999999999999999999", "0x10", "--1"})
        QVERIFY2(!pe::parseInteger(bad), bad);
    QCOMPARE(pe::parseReal("1e4"), std::optional<double>(1e4));
    QCOMPARE(pe::parseReal("10000"), std::optional<double>(1e4));
    QVERIFY(std::isnan(*pe::parseReal("nan")));
    QVERIFY(std::isinf(*pe::parseReal("inf")));
    for (const char *bad : {"", "e4", "1e4x", "1,5", "1e99999"})
        QVERIFY2(!pe::parseReal(bad), bad);
}

void TestEncodingParams::names()
{
    QCOMPARE(pe::parseLayout("split"), std::optional(pe::Layout::Split));
    QCOMPARE(pe::parseLayout("interleaved"), std::optional(pe::Layout::Interleaved));
    QVERIFY(!pe::parseLayout("Split"));
    QCOMPARE(pe::parseExponent("index"), std::optional(pe::Exponent::Index));
    QVERIFY(!pe::parseExponent("j"));
    QCOMPARE(pe::layoutName(pe::Layout::Split), std::string_view("split"));
}

void TestEncodingParams::oneSentencePerRange()
{
    // The limits are the sentences' numbers: a changed limit changes every sentence.
    QCOMPARE(pe::allowedText(pe::Field::SeqLen), std::string("a whole number from 1 to 1,000,000"));
    QCOMPARE(pe::allowedText(pe::Field::DModel), std::string("a whole number from 1 to 4,096"));
    QCOMPARE(pe::allowedText(pe::Field::Base), std::string("a finite number greater than 1 and at most 1e15"));
    QCOMPARE(pe::allowedText(pe::Field::StartPos), std::string("a whole number from 0 to 999,999,999"));
    // Every enum value has a name that parses back to it, and the sentence names them all.
    for (pe::Layout l : pe::kLayouts) {
        QCOMPARE(pe::parseLayout(pe::layoutName(l)), std::optional(l));
        QVERIFY(pe::allowedText(pe::Field::Layout).find(pe::layoutName(l)) != std::string::npos);
    }
    for (pe::Exponent e : pe::kExponents) {
        QCOMPARE(pe::parseExponent(pe::exponentName(e)), std::optional(e));
        QVERIFY(pe::allowedText(pe::Field::Exponent).find(pe::exponentName(e)) != std::string::npos);
    }
    QCOMPARE(pe::allowedText(pe::Field::Layout), std::string("interleaved or split"));
    // The position: inside the window, in the same words wherever it is refused.
    const pe::EncodingParams p = testsupport::params(50, 8, 1e4, 1000);
    QVERIFY(!pe::validatePosition(p, 1000));
    QVERIFY(!pe::validatePosition(p, 1049));
    QCOMPARE(pe::validatePosition(p, 1050).value(),
             std::string("position must be a whole number inside the window, from 1,000 to 1,049 (got 1,050)."));
    QVERIFY(pe::validatePosition(p, 999));
}

void TestEncodingParams::compactNumbers()
{
    QCOMPARE(pe::compactNumber(1e8), std::string("1e8"));
    QCOMPARE(pe::compactNumber(10000), std::string("10000"));
    QCOMPARE(pe::compactNumber(0.0015), std::string("0.0015"));
    QCOMPARE(pe::compactNumber(1.5e-7), std::string("1.5e-7"));
    // Wavelengths read the same in every view's labels.
    QCOMPARE(pe::wavelengthText(2 * std::numbers::pi), std::string("6.3"));
    QCOMPARE(pe::wavelengthText(171.6), std::string("172"));
    QCOMPARE(pe::wavelengthText(22'937.4), std::string("22940"));
    QCOMPARE(pe::wavelengthOf(1.0), 2 * std::numbers::pi);
}

QTEST_APPLESS_MAIN(TestEncodingParams)
#include "tst_encoding_params.moc"

#include "encodings/encoding_params.h"
#include "encodings/relative_buckets.h"
#include "encodings/scheme.h"
#include "export/data_export.h"

#include <QTest>

#include <cmath>
#include <vector>

// T5's relative position buckets against transformers' T5Attention._relative_position_bucket
// (modeling_t5.py, "adapted from Mesh TensorFlow"). No table of its outputs is published; the
// tables below were computed from that code by hand (its float64 and float32 readings agree), and
// the docstring's own promises are checked on their own: buckets in [0, num_buckets), every
// relative position >= max_distance in one bucket, every one <= -max_distance in one bucket.
class TestRelativeBuckets : public QObject
{
    Q_OBJECT

  private slots:
    void t5BaseEncoderTable();
    void t5BaseDecoderTable();
    void docstringPromises();
    void againstTheFormulaInDouble();
    void float32AsTorch();
    void lastBucketStart();
    void exportWritesEveryOffset();
    void validatorAndCatalogue();
};

namespace {

struct Run {
    std::int64_t from, to; // relative positions, inclusive
    int bucket;
};

void checkRuns(const std::vector<Run> &runs, const pe::T5Buckets &b)
{
    for (const Run &run : runs)
        for (std::int64_t rp = run.from; rp <= run.to; ++rp)
            QVERIFY2(
                pe::t5Bucket(rp, b) == run.bucket,
                qPrintable(
                    QStringLiteral("rp %1: bucket %2, expected %3").arg(rp).arg(pe::t5Bucket(rp, b)).arg(run.bucket)));
}

} // namespace

void TestRelativeBuckets::t5BaseEncoderTable()
{
    // rp = memory - query; 32 buckets, max_distance 128, bidirectional: 16 a direction, 8 exact.
    const pe::T5Buckets b{32, 128, true};
    std::vector<Run> runs = {{0, 0, 0}};
    for (int n = 1; n <= 7; ++n) {
        runs.push_back({-n, -n, n});
        runs.push_back({n, n, 16 + n});
    }
    const std::vector<Run> large = {{8, 11, 8},   {12, 15, 9},  {16, 22, 10}, {23, 31, 11},
                                    {32, 45, 12}, {46, 63, 13}, {64, 90, 14}, {91, 100'000, 15}};
    for (const Run &r : large) {
        runs.push_back({-r.to, -r.from, r.bucket});
        runs.push_back({r.from, r.to, 16 + r.bucket});
    }
    checkRuns(runs, b);
    // Bucket 16 is never used: offset 0 is bucket 0, keys after the query start at 17.
    for (std::int64_t rp = -1000; rp <= 1000; ++rp)
        QVERIFY(pe::t5Bucket(rp, b) != 16);
}

void TestRelativeBuckets::t5BaseDecoderTable()
{
    const pe::T5Buckets b{32, 128, false};
    std::vector<Run> runs = {{0, 1000, 0}}; // keys after the query (masked anyway): bucket 0
    for (int d = 1; d <= 15; ++d)
        runs.push_back({-d, -d, d});
    const std::vector<Run> large = {{16, 18, 16}, {19, 20, 17}, {21, 23, 18},  {24, 26, 19},
                                    {27, 30, 20}, {31, 34, 21}, {35, 39, 22},  {40, 45, 23},
                                    {46, 51, 24}, {52, 58, 25}, {59, 66, 26},  {67, 76, 27},
                                    {77, 86, 28}, {87, 98, 29}, {99, 112, 30}, {113, 999'999, 31}};
    for (const Run &r : large)
        runs.push_back({-r.to, -r.from, r.bucket});
    checkRuns(runs, b);
}

void TestRelativeBuckets::docstringPromises()
{
    for (int buckets : {4, 5, 8, 32, 33, 64, 320})
        for (std::int64_t maxDistance : {buckets / 2 + 1, 128, 1000})
            for (bool bidirectional : {true, false}) {
                if (maxDistance <= buckets / 2)
                    continue; // refused by the validator
                const pe::T5Buckets b{buckets, static_cast<std::int64_t>(maxDistance), bidirectional};
                const int far = pe::t5Bucket(-maxDistance, b);
                for (std::int64_t rp = -3 * maxDistance; rp <= 3 * maxDistance; ++rp) {
                    const int bucket = pe::t5Bucket(rp, b);
                    QVERIFY(bucket >= 0 && bucket < buckets);
                    if (rp <= -maxDistance)
                        QCOMPARE(bucket, far);
                    if (bidirectional && rp >= maxDistance)
                        QCOMPARE(bucket, pe::t5Bucket(maxDistance, b));
                    // Buckets never decrease with the distance on either side.
                    if (rp < 0)
                        QVERIFY(pe::t5Bucket(rp + 1, b) <= bucket || rp + 1 == 0);
                    if (rp > 1)
                        QVERIFY(pe::t5Bucket(rp - 1, b) <= bucket);
                }
                QCOMPARE(far, b.directionBuckets() - 1);
            }
}

void TestRelativeBuckets::againstTheFormulaInDouble()
{
    // The docstring's formula written out in float64: the float32 reading (transformers') may only
    // differ where the float64 value lies within 1e-4 of a whole bucket.
    int compared = 0;
    for (int buckets : {8, 32, 64, 128})
        for (std::int64_t maxDistance : {std::int64_t{100}, std::int64_t{128}, std::int64_t{1000}, std::int64_t{4096}})
            for (bool bidirectional : {true, false}) {
                const pe::T5Buckets b{buckets, maxDistance, bidirectional};
                const int half = bidirectional ? buckets / 2 : buckets;
                const int exact = half / 2;
                for (std::int64_t n = exact; n < 2 * maxDistance; ++n) {
                    const double v = std::log(static_cast<double>(n) / exact) /
                                     std::log(static_cast<double>(maxDistance) / exact) * (half - exact);
                    if (std::abs(v - std::round(v)) < 1e-4)
                        continue;
                    const int expected = std::min(exact + static_cast<int>(v), half - 1);
                    QCOMPARE(pe::t5Bucket(-n, b), expected);
                    ++compared;
                }
            }
    QVERIFY(compared > 10'000);
}

void TestRelativeBuckets::float32AsTorch()
{
    // 9 buckets, causal: max_exact 4, and for distance 8 the float64 value log(2)/log(32)·5 is
    // 0.99999999999999989 (bucket 4) where torch's float32 log and division give 1 exactly (bucket 5);
    // the same at 16 and 64. (A float64 implementation passes every t5-base table above.)
    const pe::T5Buckets b{9, 128, false};
    QCOMPARE(pe::t5Bucket(-8, b), 5);
    QCOMPARE(pe::t5Bucket(-16, b), 6);
    QCOMPARE(pe::t5Bucket(-64, b), 8);
    QVERIFY(std::log(2.0) / std::log(32.0) * 5 < 1.0); // the double reading would say 4
}

void TestRelativeBuckets::lastBucketStart()
{
    QCOMPARE(pe::t5LastBucketStart({32, 128, true}), std::int64_t{91});
    QCOMPARE(pe::t5LastBucketStart({32, 128, false}), std::int64_t{113});
    const pe::T5Buckets b{64, 1000, true};
    const std::int64_t n = pe::t5LastBucketStart(b);
    QCOMPARE(pe::t5Bucket(-n, b), 31);
    QVERIFY(pe::t5Bucket(-(n - 1), b) < 31);
}

void TestRelativeBuckets::exportWritesEveryOffset()
{
    const pe::T5Buckets b{32, 128, true};
    const pe::Table t = pe::bucketsTable(300, b);
    QCOMPARE(t.rows, std::int64_t{599});
    QCOMPARE(t.cols, 1);
    QCOMPARE(t.indexHeader, std::string("offset"));
    QCOMPARE(t.columnHeaders, std::vector<std::string>{"bucket"});
    std::vector<double> values(static_cast<std::size_t>(t.rows));
    // In two blocks, as the writer asks.
    t.fill(0, 250, values.data());
    t.fill(250, t.rows - 250, values.data() + 250);
    for (std::int64_t row = 0; row < t.rows; ++row) {
        QCOMPARE(t.indexOf(row), row - 299);
        QCOMPARE(values[static_cast<std::size_t>(row)], static_cast<double>(pe::t5Bucket(row - 299, b)));
    }
    QCOMPARE(values.front(), 15.0);
    QCOMPARE(values[299], 0.0);
    QCOMPARE(values.back(), 31.0);
}

void TestRelativeBuckets::validatorAndCatalogue()
{
    pe::EncodingParams p;
    p.scheme = pe::SchemeId::T5;
    QVERIFY(!pe::validate(p));
    QVERIFY(pe::takes(p, pe::Field::Buckets));
    QVERIFY(pe::takes(p, pe::Field::MaxDistance));
    QVERIFY(!pe::takes(p, pe::Field::DModel));
    QVERIFY(!pe::takes(p, pe::Field::Heads));
    QVERIFY(!pe::addsVector(p.scheme));
    QCOMPARE(pe::parseScheme("t5"), std::optional<pe::SchemeId>(pe::SchemeId::T5));
    QVERIFY(pe::notApplicable(p, pe::Field::Base).find("no frequencies") != std::string::npos);

    p.maxDistance = 16; // buckets/2: no room for a logarithmic bucket of a causal model
    auto error = pe::validate(p);
    QVERIFY(error);
    QCOMPARE(error->field, pe::Field::MaxDistance);
    QVERIFY2(error->message.find("above buckets/2 = 16") != std::string::npos, error->message.c_str());
    p.maxDistance = 17;
    QVERIFY(!pe::validate(p));
    p.buckets = 3;
    QVERIFY(pe::validate(p));
    p.buckets = 1025;
    QVERIFY(pe::validate(p));

    pe::EncodingParams rope;
    rope.scheme = pe::SchemeId::Rope;
    QVERIFY(!pe::takes(rope, pe::Field::Buckets));
    QCOMPARE(pe::notApplicable(rope, pe::Field::Buckets), std::string("buckets is T5's: choose the scheme t5."));
    QCOMPARE(pe::notApplicable(rope, pe::Field::Heads), std::string("heads is ALiBi's: choose the scheme alibi."));
}

QTEST_GUILESS_MAIN(TestRelativeBuckets)
#include "tst_relative_buckets.moc"

// Relative position (core/relative.h): T(k) maps PE(t) to PE(t+k), and atan2 reads the offset back.
#include "analysis/relative.h"
#include "test_support.h"

#include <QTest>

#include <cmath>

using testsupport::params;

class TestRelative : public QObject
{
    Q_OBJECT

  private slots:
    void rotationResidual();
    void decodingIsExactWithoutNoise();
    void partialRotaryReadsTheTurningPairs();
};

void TestRelative::rotationResidual()
{
    for (std::int64_t k : {1, 7, 250, -30}) {
        const double res = pe::rotationResidual(pe::Encoding(params(500, 64, 1e4, 100)), k);
        QVERIFY2(res < 1e-12, qPrintable(QString::number(res)));
    }
    QVERIFY(pe::rotationResidual(pe::Encoding(params(500, 64, 1e4, 0, pe::Layout::Split)), 9) < 1e-12);
    // The per-index exponent breaks the rotation: its cosines turn at other speeds.
    QVERIFY(pe::rotationResidual(pe::Encoding(params(15, 9, 100, 0, pe::Layout::Interleaved, pe::Exponent::Index)), 3) >
            1e-3);
}

void TestRelative::decodingIsExactWithoutNoise()
{
    const pe::Encoding e(params(10, 128, 1e4));
    std::vector<double> a(128), b(128);
    for (auto [t, u] : {std::pair<std::int64_t, std::int64_t>{3, 5}, {100, 40}, {12345, 23456}, {0, 20000}}) {
        for (int j = 0; j < 128; ++j) {
            a[static_cast<std::size_t>(j)] = e.value(t, j);
            b[static_cast<std::size_t>(j)] = e.value(u, j);
        }
        const pe::OffsetDecode dec = pe::decodeOffset(e, a.data(), b.data());
        QVERIFY2(std::abs(dec.offset - static_cast<double>(u - t)) < 1e-6, qPrintable(QString::number(dec.offset)));
        QVERIFY(std::abs(dec.perPair[0] - std::remainder(static_cast<double>(u - t), 2 * M_PI)) < 1e-9);
    }
}

// GPT-NeoX's partial rotary: the 36 standing pairs read nothing (their angle difference is 0 at any
// offset); the offset comes from the 12 that turn, exactly, never NaN (a 0/0 once reached the
// relative view's title and the probe's atan2 baseline).
void TestRelative::partialRotaryReadsTheTurningPairs()
{
    pe::EncodingParams p = params(10, 96, 1e4);
    p.scheme = pe::SchemeId::Rope;
    p.rope.rotaryFraction = 0.25;
    const pe::Encoding e(p);
    std::vector<double> a(96), b(96);
    for (auto [t, u] : {std::pair<std::int64_t, std::int64_t>{3, 5}, {100, 40}, {1234, 2345}}) {
        for (int j = 0; j < 96; ++j) {
            a[static_cast<std::size_t>(j)] = e.value(t, j);
            b[static_cast<std::size_t>(j)] = e.value(u, j);
        }
        const pe::OffsetDecode dec = pe::decodeOffset(e, a.data(), b.data());
        QVERIFY2(std::abs(dec.offset - static_cast<double>(u - t)) < 1e-6, qPrintable(QString::number(dec.offset)));
        for (std::size_t i = 12; i < dec.perPair.size(); ++i)
            QCOMPARE(dec.perPair[i], 0.0);
    }
}

QTEST_APPLESS_MAIN(TestRelative)
#include "tst_relative.moc"

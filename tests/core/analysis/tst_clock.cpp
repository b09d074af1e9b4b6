#include "analysis/clock.h"
#include "test_support.h"

#include <QTest>

#include <cmath>
#include <numbers>

using testsupport::params;

class TestClock : public QObject
{
    Q_OBJECT

  private slots:
    void allHandsStartTogether();
    void quarterPeriodIsQuarterTurn();
    void handsAreTheEncodingsPairs();
    void pairsOfEveryLayout();
    void seed000SlowestClock();
};

void TestClock::allHandsStartTogether()
{
    const pe::Encoding e(params(10, 64, 1e4));
    for (int i = 0; i < e.pairCount(); ++i) {
        const pe::Point cw = pe::handTip(e, 0, i, pe::ClockFace::Clockwise);
        QCOMPARE(cw.x, 0.0); // 12 o'clock
        QCOMPARE(cw.y, 1.0);
        const pe::Point ccw = pe::handTip(e, 0, i, pe::ClockFace::CounterClockwise);
        QCOMPARE(ccw.x, 1.0); // 3 o'clock
        QCOMPARE(ccw.y, 0.0);
        QCOMPARE(pe::handAngle(e, 0, i), 0.0);
    }
}

void TestClock::quarterPeriodIsQuarterTurn()
{
    // d = 4 and base (4/pi)^2 make w_1 = base^(-2/4) = pi/4: two positions are a quarter period.
    const pe::Encoding e(params(10, 4, std::pow(4 / std::numbers::pi, 2.0)));
    QVERIFY(std::abs(e.pairFrequency(1) - std::numbers::pi / 4) < 1e-15);
    const pe::Point q = pe::handTip(e, 2, 1, pe::ClockFace::Clockwise);
    QVERIFY(std::abs(q.x - 1.0) < 1e-12 && std::abs(q.y) < 1e-12); // 12 -> 3 o'clock: a quarter, clockwise
    const pe::Point h = pe::handTip(e, 4, 1, pe::ClockFace::Clockwise);
    QVERIFY(std::abs(h.x) < 1e-12 && std::abs(h.y + 1.0) < 1e-12); // half a turn: 6 o'clock
    const pe::Point m = pe::handTip(e, 2, 1, pe::ClockFace::CounterClockwise);
    QVERIFY(std::abs(m.x) < 1e-12 && std::abs(m.y - 1.0) < 1e-12); // 3 -> 12 o'clock, counter-clockwise
    QVERIFY(std::abs(pe::handAngle(e, 6, 1) - 3 * std::numbers::pi / 2) < 1e-12);
    QVERIFY(std::abs(pe::handAngle(e, 10, 1) - std::numbers::pi / 2) < 1e-12); // wraps past 2*pi
}

void TestClock::handsAreTheEncodingsPairs()
{
    const pe::Encoding e(params(100, 18, 1e4, 123));
    for (std::int64_t t = 123; t < 223; t += 7)
        for (int i = 0; i < 9; ++i) {
            const pe::Point p = pe::handTip(e, t, i, pe::ClockFace::Clockwise);
            QCOMPARE(p.x, e.value(t, 2 * i));
            QCOMPARE(p.y, e.value(t, 2 * i + 1));
        }
}

void TestClock::pairsOfEveryLayout()
{
    const pe::Encoding odd(params(5, 7, 1e4));
    QCOMPARE(odd.pairCount(), 4);
    QCOMPARE(odd.pairCosineColumn(3), -1);
    const pe::Encoding split(params(5, 8, 1e4, 0, pe::Layout::Split));
    QCOMPARE(split.pairCount(), 4);
    QCOMPARE(split.pairSineColumn(2), 2);
    QCOMPARE(split.pairCosineColumn(2), 6);
    // Seed 002's clocks (per-index exponent): pair j turns at column 2j's frequency, t / 100^(2j/9).
    const pe::Encoding seed002(params(15, 9, 100, 0, pe::Layout::Interleaved, pe::Exponent::Index));
    QCOMPARE(seed002.pairCount(), 5);
    QVERIFY(std::abs(seed002.pairFrequency(2) - std::pow(100.0, -4.0 / 9)) < 1e-16);
}

void TestClock::seed000SlowestClock()
{
    // Seed 000's 3 x 3 figure uses d = 18: "the last clock tops out at around 22,500 tokens".
    const pe::Encoding e(params(100, 18, 1e4));
    const double lambda = 2 * std::numbers::pi / e.pairFrequency(8);
    QVERIFY2(lambda > 22'500 && lambda < 22'700, qPrintable(QString::number(lambda)));
}

QTEST_APPLESS_MAIN(TestClock)
#include "tst_clock.moc"

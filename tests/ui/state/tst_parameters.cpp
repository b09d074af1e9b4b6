#include "state/parameters.h"

#include <QSignalSpy>
#include <QTest>

#include <limits>

class TestParameters : public QObject
{
    Q_OBJECT

  private slots:
    void defaultsArePapers();
    void validChangeEmitsOnce();
    void sameValuesEmitNothing();
    void refusedChangeKeepsState();
    void positionStaysInTheWindow();
    void steppingSlidesTheWindow();
    void realPositionsWhereTheStateHasThem();
};

void TestParameters::defaultsArePapers()
{
    Parameters p;
    QCOMPARE(p.values().dModel, 128);
    QCOMPARE(p.values().base, 1e4);
    QCOMPARE(p.encoding().params(), p.values());
}

void TestParameters::validChangeEmitsOnce()
{
    Parameters p;
    QSignalSpy spy(&p, &Parameters::changed);
    pe::EncodingParams v = p.values();
    v.seqLen = 10;
    v.dModel = 6;
    QVERIFY(!p.set(v));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(p.values().seqLen, 10);
    QCOMPARE(p.encoding().dModel(), 6); // the Encoding follows the values
}

void TestParameters::sameValuesEmitNothing()
{
    Parameters p;
    QSignalSpy spy(&p, &Parameters::changed);
    QVERIFY(!p.set(p.values()));
    QCOMPARE(spy.count(), 0);
}

void TestParameters::refusedChangeKeepsState()
{
    Parameters p;
    const pe::EncodingParams before = p.values();
    QSignalSpy spy(&p, &Parameters::changed);
    pe::EncodingParams v = before;
    v.layout = pe::Layout::Split;
    v.dModel = 7;
    const auto error = p.set(v);
    QVERIFY(error.has_value());
    QCOMPARE(error->field, pe::Field::DModel);
    QCOMPARE(spy.count(), 0);
    QCOMPARE(p.values(), before);
}

void TestParameters::positionStaysInTheWindow()
{
    Parameters p;
    QSignalSpy moved(&p, &Parameters::positionChanged);
    QVERIFY(p.setPosition(30));
    QVERIFY(!p.setPosition(50)); // outside 0..49: refused, nothing changes
    QCOMPARE(p.position(), 30);
    QCOMPARE(moved.count(), 1);
    pe::EncodingParams v = p.values();
    v.startPos = 100; // the new window does not hold 30: the position moves to its nearest end
    QVERIFY(!p.set(v));
    QCOMPARE(p.position(), 100);
    QCOMPARE(moved.count(), 2);
}

void TestParameters::steppingSlidesTheWindow()
{
    Parameters p;
    QVERIFY(p.setPosition(49));
    p.stepPosition(5);
    QCOMPARE(p.position(), 54);
    QCOMPARE(p.values().startPos, 5);
    p.stepPosition(-60);
    QCOMPARE(p.position(), 0); // not below 0
    QCOMPARE(p.values().startPos, 0);
    pe::EncodingParams v = p.values();
    v.startPos = 999'999'950;
    QVERIFY(!p.set(v));
    QVERIFY(p.setPosition(999'999'999));
    p.stepPosition(10); // not past the last allowed position
    QCOMPARE(p.position(), 999'999'999);
}

void TestParameters::realPositionsWhereTheStateHasThem()
{
    Parameters p; // the sinusoids, window 0..49
    QVERIFY(p.takesRealPositions());
    QSignalSpy moved(&p, &Parameters::positionChanged);
    QVERIFY(p.setRealPosition(10.25));
    QCOMPARE(p.position(), 10); // the whole part, for the views that draw whole positions
    QCOMPARE(p.realPosition(), 10.25);
    QCOMPARE(moved.count(), 1);
    QVERIFY(p.setRealPosition(10.25)); // the same: no signal
    QCOMPARE(moved.count(), 1);
    QVERIFY(!p.setRealPosition(49.5)); // past the window's last position
    QVERIFY(!p.setRealPosition(-0.5));
    QVERIFY(!p.setRealPosition(std::numeric_limits<double>::quiet_NaN()));
    QCOMPARE(p.realPosition(), 10.25);
    QVERIFY(p.setPosition(10)); // a whole position drops the fraction, and says so
    QCOMPARE(p.realPosition(), 10.0);
    QCOMPARE(moved.count(), 2);

    // Real steps land exactly, slide the window at its end, and a whole step lands on a whole one.
    QVERIFY(p.setRealPosition(48.5));
    p.stepRealPosition(1.25);
    QCOMPARE(p.realPosition(), 49.75);
    QCOMPARE(p.values().startPos, 1);
    p.stepPosition(1);
    QCOMPARE(p.realPosition(), 50.0);

    // Noise is drawn per whole position: the fraction goes, and none is taken.
    QVERIFY(p.setRealPosition(20.5));
    pe::NoiseParams noise;
    noise.sigma = 0.5;
    QVERIFY(!p.setNoise(noise));
    QVERIFY(!p.takesRealPositions());
    QCOMPARE(p.realPosition(), 20.0);
    QVERIFY(!p.setRealPosition(20.5));
    QVERIFY(p.setRealPosition(21)); // whole ones as ever
    QVERIFY(pe::validateRealPosition(p.values(), p.noise(), 20.5)->find("drawn once per whole position") !=
            std::string::npos);
}

QTEST_GUILESS_MAIN(TestParameters)
#include "tst_parameters.moc"

#include "state/parameters.h"

#include <QSignalSpy>
#include <QTest>

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

QTEST_GUILESS_MAIN(TestParameters)
#include "tst_parameters.moc"

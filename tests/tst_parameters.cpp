#include "parameters.h"

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

QTEST_GUILESS_MAIN(TestParameters)
#include "tst_parameters.moc"

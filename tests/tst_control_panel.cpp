#include "control_panel.h"
#include "parameters.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTest>

class TestControlPanel : public QObject
{
    Q_OBJECT

private slots:
    void sliderStepChangesState();
    void sliderMovesLiveWhileDragging();
    void spinBoxMovesSlider();
    void baseSliderIsLogarithmic();
    void refusedValueIsReportedAndReverted();
    void choicesSetLayoutAndExponent();
    void stopsHitTheUsualValues();
};

void TestControlPanel::sliderStepChangesState()
{
    Parameters p;
    ControlPanel panel(&p);
    panel.show();
    QSignalSpy spy(&p, &Parameters::changed);
    QSlider *seq = panel.slider(pe::Field::SeqLen);
    seq->setFocus();
    QTest::keyClick(seq, Qt::Key_Right);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(p.values().seqLen, 51);
    QCOMPARE(panel.findChild<QSpinBox *>(QStringLiteral("seq_lenSpin"))->value(), 51);
    QTest::keyClick(seq, Qt::Key_End);
    QCOMPARE(p.values().seqLen, 1'000'000);
}

void TestControlPanel::sliderMovesLiveWhileDragging()
{
    Parameters p;
    ControlPanel panel(&p);
    QSlider *d = panel.slider(pe::Field::DModel);
    QVERIFY(d->hasTracking()); // valueChanged fires during the drag, not on release
    QSignalSpy spy(&p, &Parameters::changed);
    d->setSliderDown(true);
    d->setValue(d->value() + 3);
    QCOMPARE(spy.count(), 1);
    d->setSliderDown(false);
}

void TestControlPanel::spinBoxMovesSlider()
{
    Parameters p;
    ControlPanel panel(&p);
    auto *spin = panel.findChild<QSpinBox *>(QStringLiteral("d_modelSpin"));
    spin->setValue(512);
    QCOMPARE(p.values().dModel, 512);
    QSlider *slider = panel.slider(pe::Field::DModel);
    const int at512 = slider->value();
    spin->setValue(4096);
    QCOMPARE(slider->value(), slider->maximum());
    QVERIFY(at512 < slider->maximum());
}

void TestControlPanel::baseSliderIsLogarithmic()
{
    Parameters p;
    ControlPanel panel(&p);
    QSlider *base = panel.slider(pe::Field::Base);
    auto *spin = panel.findChild<QDoubleSpinBox *>(QStringLiteral("baseSpin"));
    QCOMPARE(spin->text(), QStringLiteral("10000"));
    spin->setValue(1e8);
    QCOMPARE(p.values().base, 1e8);
    QCOMPARE(spin->text(), QStringLiteral("1e8"));
    // 100 stops per decade: six decades down is base 100.
    base->setValue(base->value() - 600);
    QVERIFY(std::abs(p.values().base - 100) < 1e-9);
    QCOMPARE(spin->text(), QStringLiteral("100"));
}

void TestControlPanel::refusedValueIsReportedAndReverted()
{
    Parameters p;
    pe::EncodingParams v = p.values();
    v.seqLen = 1000;
    p.set(v);
    ControlPanel panel(&p);
    QSignalSpy spy(&p, &Parameters::changed);
    auto *start = panel.findChild<QSpinBox *>(QStringLiteral("start_posSpin"));
    start->setValue(999'999'500); // + 1000 positions passes 1e9
    QCOMPARE(spy.count(), 0);
    QCOMPARE(p.values().startPos, 0);
    QCOMPARE(start->value(), 0);
    QVERIFY2(panel.errorText().contains(QStringLiteral("start_pos + seq_len")), qPrintable(panel.errorText()));
    start->setValue(10);
    QVERIFY(panel.errorText().isEmpty());
}

void TestControlPanel::choicesSetLayoutAndExponent()
{
    Parameters p;
    ControlPanel panel(&p);
    panel.findChild<QComboBox *>(QStringLiteral("layout"))->setCurrentIndex(1);
    QCOMPARE(p.values().layout, pe::Layout::Split);
    panel.findChild<QComboBox *>(QStringLiteral("exponent"))->setCurrentIndex(1);
    QCOMPARE(p.values().exponent, pe::Exponent::Index);
    // Odd d with split is refused and the d_model control stays even.
    panel.findChild<QSpinBox *>(QStringLiteral("d_modelSpin"))->setValue(127);
    QCOMPARE(p.values().dModel, 128);
    QVERIFY(panel.errorText().contains(QStringLiteral("even")));
}

void TestControlPanel::stopsHitTheUsualValues()
{
    const auto seq = decadeStops(1, 100, 1e6, 9);
    for (double v : {1.0, 10.0, 15.0, 50.0, 100.0, 300.0, 1000.0, 10000.0, 1e6})
        QVERIFY2(std::find(seq.begin(), seq.end(), v) != seq.end(), qPrintable(QString::number(v)));
    QVERIFY(std::is_sorted(seq.begin(), seq.end()));
    QVERIFY(std::adjacent_find(seq.begin(), seq.end()) == seq.end());
    const auto d = powerOfTwoStops(4096);
    for (double v : {1.0, 6.0, 8.0, 9.0, 20.0, 128.0, 256.0, 512.0, 1024.0, 4096.0})
        QVERIFY2(std::find(d.begin(), d.end(), v) != d.end(), qPrintable(QString::number(v)));
    const auto b = logStops(1e15, 100);
    QCOMPARE(b.size(), std::size_t(1500));
    QVERIFY(b.front() > 1.0);
    QVERIFY(std::abs(b.back() - 1e15) < 1);
}

QTEST_MAIN(TestControlPanel)
#include "tst_control_panel.moc"

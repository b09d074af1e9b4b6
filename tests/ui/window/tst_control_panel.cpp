#include "encodings/noise.h"
#include "encodings/scheme_parameters.h"
#include "state/parameter_history.h"
#include "state/parameters.h"
#include "state/playback.h"
#include "test_support.h"
#include "window/control_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTest>
#include <QUndoStack>

namespace {

// What a spin box shows without prefix, suffix and group separators: "5,000" and "5000" alike.
QString shown(QAbstractSpinBox *spin)
{
    QString text = qobject_cast<QSpinBox *>(spin) ? qobject_cast<QSpinBox *>(spin)->cleanText()
                                                  : qobject_cast<QDoubleSpinBox *>(spin)->cleanText();
    return text.remove(QLocale().groupSeparator());
}

void type(QAbstractSpinBox *spin, const QString &text)
{
    spin->setFocus();
    spin->selectAll();
    QTest::keyClicks(spin, text);
}

// Typed and committed with Enter, as a user does.
void enter(QAbstractSpinBox *spin, const QString &text)
{
    type(spin, text);
    QTest::keyClick(spin, Qt::Key_Return);
}

void setSpinValue(QAbstractSpinBox *spin, double v)
{
    if (auto *ints = qobject_cast<QSpinBox *>(spin))
        ints->setValue(static_cast<int>(v));
    else
        qobject_cast<QDoubleSpinBox *>(spin)->setValue(v);
}

double spinValue(QAbstractSpinBox *spin)
{
    if (auto *ints = qobject_cast<QSpinBox *>(spin))
        return ints->value();
    return qobject_cast<QDoubleSpinBox *>(spin)->value();
}

// The value in force behind each typed field.
double inForce(const Parameters &p, const Playback &playback, const QString &field)
{
    if (field == QLatin1String("seq_len"))
        return static_cast<double>(p.values().seqLen);
    if (field == QLatin1String("d_model"))
        return p.values().dModel;
    if (field == QLatin1String("base"))
        return p.values().base;
    if (field == QLatin1String("start_pos"))
        return static_cast<double>(p.values().startPos);
    if (field == QLatin1String("position"))
        return static_cast<double>(p.position());
    if (field == QLatin1String("sigma"))
        return p.noise().sigma;
    if (field == QLatin1String("seed"))
        return static_cast<double>(p.noise().seed);
    return playback.speed();
}

QString coreSentence(void (*change)(pe::EncodingParams &))
{
    pe::EncodingParams p;
    change(p);
    return QString::fromStdString(pe::validate(p).value().message);
}

} // namespace

class TestControlPanel : public QObject
{
    Q_OBJECT

  private slots:
    void formulaIsReadableMath();
    void sliderStepChangesState();
    void sliderMovesLiveWhileDragging();
    void spinBoxMovesSlider();
    void baseSliderIsLogarithmic();
    void refusedValueIsReportedAndKept();
    void refusedSliderReturns();
    void typedValueIsRefusedAndKept_data();
    void typedValueIsRefusedAndKept();
    void refusedValueStaysUntilItsOwnParameterMoves();
    void typedValuesUndo();
    void choicesSetLayoutAndExponent();
    void stopsHitTheUsualValues();
    void schemeRowsFollowTheScheme();
    void rngChoiceKeepsTheRestOfTheNoise();
};

void TestControlPanel::formulaIsReadableMath()
{
    // The formula under the controls: ω with subscripts and the exponent raised, one equation a line.
    Parameters p;
    ControlPanel panel(&p);
    auto *formula = panel.findChild<QLabel *>(QStringLiteral("formula"));
    QVERIFY(formula);
    QCOMPARE(formula->textFormat(), Qt::RichText);
    QVERIFY2(formula->text().contains(QStringLiteral("ω<sub>i</sub>")) &&
                 formula->text().contains(QStringLiteral("<sup>−2i/d</sup>")),
             qPrintable(formula->text()));
    QCOMPARE(formula->text().count(QStringLiteral("<br>")), 2);
    pe::EncodingParams v = p.values();
    v.base = 1e8;
    v.exponent = pe::Exponent::Index;
    QVERIFY(!p.set(v));
    QVERIFY2(formula->text().contains(QStringLiteral("(10<sup>8</sup>)")) &&
                 formula->text().contains(QStringLiteral("ω<sub>j</sub>")),
             qPrintable(formula->text()));
}

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
    QCOMPARE(spinValue(panel.findChild<QAbstractSpinBox *>(QStringLiteral("seq_lenSpin"))), 51.0);
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
    auto *spin = panel.findChild<QAbstractSpinBox *>(QStringLiteral("d_modelSpin"));
    QVERIFY(spin);
    setSpinValue(spin, 512);
    QCOMPARE(p.values().dModel, 512);
    QSlider *slider = panel.slider(pe::Field::DModel);
    const int at512 = slider->value();
    setSpinValue(spin, 4096);
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

void TestControlPanel::refusedValueIsReportedAndKept()
{
    Parameters p;
    QVERIFY(!p.set(testsupport::params(1000, 128)));
    ControlPanel panel(&p);
    QSignalSpy spy(&p, &Parameters::changed);
    auto *start = panel.findChild<QAbstractSpinBox *>(QStringLiteral("start_posSpin"));
    QVERIFY(start);
    setSpinValue(start, 999'999'500); // + 1000 positions passes 1e9
    QCOMPARE(spy.count(), 0);
    QCOMPARE(p.values().startPos, 0);
    QCOMPARE(spinValue(start), 999'999'500.0); // kept to be corrected
    QVERIFY(start->property("refused").toBool());
    QVERIFY2(panel.errorText().contains(QStringLiteral("start_pos + seq_len")), qPrintable(panel.errorText()));
    setSpinValue(start, 10);
    QCOMPARE(p.values().startPos, 10);
    QVERIFY(panel.errorText().isEmpty());
    QVERIFY(!start->property("refused").toBool());
}

void TestControlPanel::refusedSliderReturns()
{
    Parameters p;
    QVERIFY(!p.set(testsupport::params(1000, 128)));
    ControlPanel panel(&p);
    QSlider *start = panel.slider(pe::Field::StartPos);
    start->setValue(start->maximum()); // 999,999,999 + 1000 positions passes 1e9
    QCOMPARE(p.values().startPos, 0);
    QCOMPARE(start->value(), 0);
    QVERIFY2(panel.errorText().contains(QStringLiteral("start_pos + seq_len")), qPrintable(panel.errorText()));
}

void TestControlPanel::typedValueIsRefusedAndKept_data()
{
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("spinName");
    QTest::addColumn<QString>("refused");
    QTest::addColumn<QString>("sentence");
    QTest::addColumn<QString>("accepted");
    QTest::addColumn<double>("applied");

    // The sentences of core's validator, as the command line prints them after its flag.
    QTest::newRow("seq_len") << "seq_len"
                             << "seq_lenSpin"
                             << "5000000" << coreSentence([](pe::EncodingParams &p) { p.seqLen = 5'000'000; }) << "256"
                             << 256.0;
    QTest::newRow("d_model") << "d_model"
                             << "d_modelSpin"
                             << "5000" << coreSentence([](pe::EncodingParams &p) { p.dModel = 5000; }) << "256"
                             << 256.0;
    QTest::newRow("base") << "base"
                          << "baseSpin"
                          << "0.5" << coreSentence([](pe::EncodingParams &p) { p.base = 0.5; }) << "256" << 256.0;
    QTest::newRow("start_pos") << "start_pos"
                               << "start_posSpin"
                               << "1000000000"
                               << coreSentence([](pe::EncodingParams &p) { p.startPos = 1'000'000'000; }) << "256"
                               << 256.0;
    QTest::newRow("sigma") << "sigma"
                           << "sigmaSpin"
                           << "20" << QString::fromStdString(*pe::validateNoise({20.0, 42})) << "2.5" << 2.5;
    // Outside core's validators: worded as the command line words --position and --seed.
    QTest::newRow("position") << "position"
                              << "positionSpin"
                              << "70"
                              << "position must be a whole number inside the window, from 0 to 49 (got 70)."
                              << "25" << 25.0;
    QTest::newRow("seed") << "seed"
                          << "seedSpin"
                          << "3000000000"
                          << "seed must be a whole number from 0 to 2147483647 (got 3e9)."
                          << "256" << 256.0;
    QTest::newRow("speed") << "speed"
                           << "speed"
                           << "5000"
                           << "speed must be a number from 0.25 to 1000 positions per second (got 5000)."
                           << "256" << 256.0;
}

// Issue 12, item 4: typing 5000 into d_model left 500; base 0.5 and Enter went back to 10000 without
// a word. Every typed value now applies, or is refused with the validator's sentence and stays.
void TestControlPanel::typedValueIsRefusedAndKept()
{
    QFETCH(QString, field);
    QFETCH(QString, spinName);
    QFETCH(QString, refused);
    QFETCH(QString, sentence);
    QFETCH(QString, accepted);
    QFETCH(double, applied);

    Parameters p;
    Playback playback(&p);
    ControlPanel panel(&p, &playback);
    panel.show();
    QVERIFY(QTest::qWaitForWindowActive(&panel)); // focus moves for real: leaving a field commits it
    panel.findChild<QCheckBox *>(QStringLiteral("noise"))->setChecked(true); // sigma and seed take input
    auto *spin = panel.findChild<QAbstractSpinBox *>(spinName);
    QVERIFY(spin);
    auto *elsewhere = panel.findChild<QAbstractSpinBox *>(
        spinName == QLatin1String("seq_lenSpin") ? QStringLiteral("d_modelSpin") : QStringLiteral("seq_lenSpin"));
    QVERIFY(spin->isEnabled());
    const QString before = shown(spin);
    const double valueBefore = inForce(p, playback, field);
    const pe::EncodingParams paramsBefore = p.values();
    const pe::NoiseParams noiseBefore = p.noise();
    QSignalSpy changed(&p, &Parameters::changed);
    QSignalSpy moved(&p, &Parameters::positionChanged);

    type(spin, refused);
    QCOMPARE(shown(spin), refused); // no digit swallowed while typing
    QTest::keyClick(spin, Qt::Key_Return);
    QCOMPARE(panel.errorText(), sentence);
    QCOMPARE(shown(spin), refused); // kept to be corrected, not reverted
    QVERIFY(spin->property("refused").toBool());
    QCOMPARE(changed.count(), 0);
    QCOMPARE(moved.count(), 0);
    QVERIFY(p.values() == paramsBefore);
    QVERIFY(p.noise() == noiseBefore);
    QCOMPARE(inForce(p, playback, field), valueBefore);

    // Leaving the field keeps it too.
    elsewhere->setFocus();
    QVERIFY(!spin->hasFocus());
    QCOMPARE(shown(spin), refused);
    QCOMPARE(panel.errorText(), sentence);

    // Esc restores the value in force and takes the sentence away.
    spin->setFocus();
    QTest::keyClick(spin, Qt::Key_Escape);
    QCOMPARE(shown(spin), before);
    QVERIFY(panel.errorText().isEmpty());
    QVERIFY(!spin->property("refused").toBool());

    // Typed and left without Enter: judged the same way.
    type(spin, refused);
    elsewhere->setFocus();
    QCOMPARE(panel.errorText(), sentence);
    QCOMPARE(shown(spin), refused);
    QCOMPARE(changed.count(), 0);

    // Then corrected: the corrected value applies and the sentence goes.
    type(spin, accepted);
    QTest::keyClick(spin, Qt::Key_Return);
    QCOMPARE(inForce(p, playback, field), applied);
    QCOMPARE(spinValue(spin), applied);
    QVERIFY(panel.errorText().isEmpty());
    QVERIFY(!spin->property("refused").toBool());
}

void TestControlPanel::refusedValueStaysUntilItsOwnParameterMoves()
{
    Parameters p;
    ControlPanel panel(&p);
    panel.show();
    auto *d = panel.findChild<QAbstractSpinBox *>(QStringLiteral("d_modelSpin"));
    type(d, QStringLiteral("5000"));
    QTest::keyClick(d, Qt::Key_Return);
    const QString sentence = panel.errorText();
    QVERIFY(sentence.startsWith(QStringLiteral("d_model")));
    // Two refused fields: each has its sentence; Esc in one takes only its own away.
    auto *base = panel.findChild<QAbstractSpinBox *>(QStringLiteral("baseSpin"));
    type(base, QStringLiteral("0.5"));
    QTest::keyClick(base, Qt::Key_Return);
    QVERIFY2(panel.errorText().contains(sentence) && panel.errorText().contains(QStringLiteral("base must be")),
             qPrintable(panel.errorText()));
    QTest::keyClick(base, Qt::Key_Escape);
    QCOMPARE(panel.errorText(), sentence);
    // Another parameter changes: the refused field and its sentence stay.
    QSlider *seq = panel.slider(pe::Field::SeqLen);
    seq->setValue(seq->value() + 1);
    QCOMPARE(p.values().seqLen, 51);
    QCOMPARE(shown(d), QStringLiteral("5000"));
    QCOMPARE(panel.errorText(), sentence);
    // d_model itself moves (its slider): the field follows it and the sentence goes.
    QSlider *dSlider = panel.slider(pe::Field::DModel);
    dSlider->setValue(dSlider->value() + 1);
    QCOMPARE(shown(d), QString::number(p.values().dModel));
    QVERIFY(!d->property("refused").toBool());
    QVERIFY(panel.errorText().isEmpty());
}

void TestControlPanel::typedValuesUndo()
{
    Parameters p;
    ParameterHistory history(&p);
    ControlPanel panel(&p);
    panel.show();
    auto *d = panel.findChild<QAbstractSpinBox *>(QStringLiteral("d_modelSpin"));
    type(d, QStringLiteral("5000"));
    QTest::keyClick(d, Qt::Key_Return);
    QCOMPARE(history.stack()->count(), 0); // a refused value is no step
    type(d, QStringLiteral("256"));
    QTest::keyClick(d, Qt::Key_Return);
    QCOMPARE(p.values().dModel, 256);
    QCOMPARE(history.stack()->count(), 1);
    history.stack()->undo();
    QCOMPARE(p.values().dModel, 128);
    QCOMPARE(shown(d), QStringLiteral("128"));
    history.stack()->redo();
    QCOMPARE(shown(d), QStringLiteral("256"));
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
    setSpinValue(panel.findChild<QAbstractSpinBox *>(QStringLiteral("d_modelSpin")), 127);
    QCOMPARE(p.values().dModel, 128);
    QVERIFY(panel.errorText().contains(QStringLiteral("even")));
}

void TestControlPanel::rngChoiceKeepsTheRestOfTheNoise()
{
    Parameters p;
    ControlPanel panel(&p);
    auto *rng = panel.findChild<QComboBox *>(QStringLiteral("rng"));
    QVERIFY(rng);
    QVERIFY(!rng->isEnabled()); // the noise is off
    QVERIFY(!p.setNoise({0.5, 7}));
    QVERIFY(rng->isEnabled());
    rng->setCurrentIndex(rng->findData(QStringLiteral("numpy")));
    QVERIFY(p.noise() == (pe::NoiseParams{0.5, 7, pe::NoiseRng::Numpy}));
    // sigma and the seed keep the generator.
    setSpinValue(panel.findChild<QAbstractSpinBox *>(QStringLiteral("seedSpin")), 11);
    QVERIFY(p.noise() == (pe::NoiseParams{0.5, 11, pe::NoiseRng::Numpy}));
    // A window past numpy's draws is refused with the reason, and numpy stays.
    setSpinValue(panel.findChild<QAbstractSpinBox *>(QStringLiteral("seq_lenSpin")), 1'000'000);
    QCOMPARE(p.values().seqLen, pe::EncodingParams{}.seqLen);
    QVERIFY2(panel.errorText().contains(QStringLiteral("counter generator")), qPrintable(panel.errorText()));
    // The other way round: a long window first, then numpy is refused and the choice goes back.
    rng->setCurrentIndex(rng->findData(QStringLiteral("counter")));
    setSpinValue(panel.findChild<QAbstractSpinBox *>(QStringLiteral("seq_lenSpin")), 900'000);
    QCOMPARE(p.values().seqLen, 900'000);
    rng->setCurrentIndex(rng->findData(QStringLiteral("numpy")));
    QVERIFY(p.noise().rng == pe::NoiseRng::Counter);
    QCOMPARE(rng->currentData().toString(), QStringLiteral("counter"));
    QVERIFY2(panel.errorText().contains(QStringLiteral("numpy's generator")), qPrintable(panel.errorText()));
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
void TestControlPanel::schemeRowsFollowTheScheme()
{
    // RoPE's and ALiBi's rows come from the core's table of scheme parameters and show while they
    // apply: the factor with a scaling, the betas with YaRN, the heads with ALiBi.
    Parameters p;
    ControlPanel panel(&p);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    auto *scheme = panel.findChild<QComboBox *>(QStringLiteral("scheme"));
    auto *scaling = panel.findChild<QComboBox *>(QStringLiteral("scaling"));
    auto *factor = panel.findChild<QAbstractSpinBox *>(QStringLiteral("factor"));
    auto *betaFast = panel.findChild<QAbstractSpinBox *>(QStringLiteral("beta-fast"));
    auto *heads = panel.findChild<QAbstractSpinBox *>(QStringLiteral("heads"));
    auto *head = panel.findChild<QAbstractSpinBox *>(QStringLiteral("head"));
    QVERIFY(scheme && scaling && factor && betaFast && heads && head);
    QVERIFY(!scaling->isVisible() && !heads->isVisible());
    scheme->setCurrentIndex(scheme->findData(QStringLiteral("rope")));
    QCOMPARE(p.values().scheme, pe::SchemeId::Rope);
    QVERIFY(scaling->isVisible() && !factor->isVisible() && !heads->isVisible());
    scaling->setCurrentIndex(scaling->findText(QStringLiteral("yarn")));
    QCOMPARE(p.values().rope.scaling, pe::RopeScaling::Yarn);
    QVERIFY(factor->isVisible() && betaFast->isVisible());
    enter(factor, QStringLiteral("4"));
    QCOMPARE(p.values().rope.factor, 4.0);
    QVERIFY(panel.findChild<QLabel *>(QStringLiteral("formula"))->text().contains(QStringLiteral("YaRN")));
    // A beta below beta_slow is the validator's to refuse, with its sentence; nothing changes.
    enter(betaFast, QStringLiteral("0.5"));
    QCOMPARE(p.values().rope.betaFast, 32.0);
    QVERIFY2(panel.errorText().contains(QStringLiteral("beta_fast must be above beta_slow")),
             qPrintable(panel.errorText()));
    // truncate is a box; DeepSeek's mscales are fields of YaRN's.
    auto *truncate = panel.findChild<QCheckBox *>(QStringLiteral("no-truncate"));
    QVERIFY(truncate && truncate->isVisible() && truncate->isChecked());
    truncate->click();
    QCOMPARE(p.values().rope.truncate, false);
    enter(panel.findChild<QAbstractSpinBox *>(QStringLiteral("mscale-all-dim")), QStringLiteral("0.707"));
    QCOMPARE(p.values().rope.mscaleAllDim, 0.707);
    // LongRoPE chosen here starts from factors of 1, one a pair; a list typed whole applies on
    // Enter, and a refused one says why and changes nothing.
    auto *shortFactor = panel.findChild<QLineEdit *>(QStringLiteral("short-factor"));
    QVERIFY(shortFactor && !shortFactor->isVisible());
    scaling->setCurrentIndex(scaling->findText(QStringLiteral("longrope")));
    QCOMPARE(p.values().rope.scaling, pe::RopeScaling::LongRope);
    QVERIFY(shortFactor->isVisible() && !truncate->isVisible());
    QCOMPARE(p.values().rope.shortFactor, std::vector<double>(static_cast<std::size_t>(p.values().dModel / 2), 1.0));
    std::vector<double> typed(static_cast<std::size_t>(p.values().dModel / 2), 2.0);
    typed[0] = 1.5;
    shortFactor->setFocus();
    shortFactor->selectAll();
    QTest::keyClicks(shortFactor, QString::fromStdString(pe::listText(typed)));
    QTest::keyClick(shortFactor, Qt::Key_Return);
    QCOMPARE(p.values().rope.shortFactor, typed);
    shortFactor->selectAll();
    QTest::keyClicks(shortFactor, QStringLiteral("1,2,3"));
    QTest::keyClick(shortFactor, Qt::Key_Return);
    QCOMPARE(p.values().rope.shortFactor, typed);
    QVERIFY2(panel.errorText().contains(QStringLiteral("short_factor must hold one factor per rotated pair")),
             qPrintable(panel.errorText()));
    scheme->setCurrentIndex(scheme->findData(QStringLiteral("alibi")));
    QVERIFY(heads->isVisible() && head->isVisible() && !scaling->isVisible());
    enter(heads, QStringLiteral("12"));
    enter(head, QStringLiteral("9"));
    QCOMPARE(p.values().head, 9);
    // Fewer heads take the shown head along: its box's maximum is the count.
    enter(heads, QStringLiteral("4"));
    QCOMPARE(p.values().heads, 4);
    QCOMPARE(p.values().head, 4);
    QCOMPARE(spinValue(head), 4.0);
}

#include "tst_control_panel.moc"

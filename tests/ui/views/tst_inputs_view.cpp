// The inputs view (seed 001's three panels): the cells of σ·z, PE and x = PE + σ·z against the
// encoding written out here and the noise generators (numpy's draws in their order, the
// counter's z(seed, t, j)); sampled windows keep exact cells, one position in all three panels,
// and say so; the marks, settings and schemes.
#include "encodings/noise.h"
#include "state/parameters.h"
#include "test_support.h"
#include "view_fixture.h"
#include "views/inputs_view.h"

#include <qcustomplot.h>

#include <QLabel>
#include <QRegularExpression>
#include <QTest>

#include <cmath>

using testsupport::params;

namespace {

QString titleOf(const PlotView *view)
{
    return view->plot()->findChild<QCPTextElement *>()->text().replace(QLatin1Char('\n'), QLatin1Char(' '));
}

// The sinusoids' PE(t, j), interleaved, pair exponent: sin(t·w_i) in column 2i, cos in 2i + 1.
double sinusoid(std::int64_t t, int j, int d, double base)
{
    const double w = std::pow(base, -2.0 * (j / 2) / d);
    return static_cast<double>(testsupport::referenceValue(t, w, j % 2 == 0));
}

} // namespace

class TestInputsView : public QObject
{
    Q_OBJECT

  private slots:
    void init();
    void cleanup();
    void seed001PanelsAreNumpysNoiseAndTheEncoding();
    void counterNoiseAndRope();
    void noiseOffDrawsZeros();
    void sampledCellsAreExactAndAgreeAcrossPanels();
    void positionAndMarkersOnEveryPanel();
    void refusesAlibi();

  private:
    void set(const pe::EncodingParams &p) { QVERIFY(!params_->set(p)); }
    // The panel whose top axis is titled `name`: "Input σ·z", "Positional encoding PE", "Output x = PE + σ·z".
    QCPColorMap *panel(const QString &name) const;
    QCPColorMap *noisePanel() const { return panel(QStringLiteral("Input σ·z")); }
    QCPColorMap *encodingPanel() const { return panel(QStringLiteral("Positional encoding PE")); }
    QCPColorMap *outputPanel() const { return panel(QStringLiteral("Output x = PE + σ·z")); }
    // Every cell of the three panels for an unsampled window: PE(t, j), σ z(t, j) and their sum.
    template <class Pe, class Z> void checkWhole(Pe pe, Z z, double sigma, const char *what);

    std::unique_ptr<ViewFixture<InputsView>> fixture_;
    Parameters *params_ = nullptr;
    InputsView *view_ = nullptr;
};

void TestInputsView::init()
{
    fixture_ = std::make_unique<ViewFixture<InputsView>>(QSize(1300, 1000));
    params_ = &fixture_->params;
    view_ = fixture_->view.get();
    QVERIFY(fixture_->exposed());
}

void TestInputsView::cleanup()
{
    fixture_.reset();
}

QCPColorMap *TestInputsView::panel(const QString &name) const
{
    for (QCPColorMap *m : view_->plot()->findChildren<QCPColorMap *>())
        if (m->keyAxis()->axisRect()->axis(QCPAxis::atTop)->label() == name)
            return m;
    return nullptr;
}

template <class Pe, class Z> void TestInputsView::checkWhole(Pe pe, Z z, double sigma, const char *what)
{
    const pe::EncodingParams &p = params_->values();
    QCPColorMap *maps[3] = {noisePanel(), encodingPanel(), outputPanel()};
    for (QCPColorMap *m : maps) {
        QVERIFY(m);
        // Positions across, dimensions up, a cell each.
        QCOMPARE(m->data()->keySize(), static_cast<int>(p.seqLen));
        QCOMPARE(m->data()->valueSize(), p.dModel);
        QCOMPARE(m->data()->keyRange(), QCPRange(p.startPos, p.startPos + p.seqLen - 1));
        QCOMPARE(m->data()->valueRange(), QCPRange(0, p.dModel - 1));
        QCOMPARE(m->keyAxis()->range(), QCPRange(p.startPos - 0.5, p.startPos + p.seqLen - 0.5));
    }
    for (int r = 0; r < p.seqLen; ++r)
        for (int j = 0; j < p.dModel; ++j) {
            const std::int64_t t = p.startPos + r;
            const double noise = sigma * z(t, j), enc = pe(t, j);
            const double shown[3] = {maps[0]->data()->cell(r, j), maps[1]->data()->cell(r, j),
                                     maps[2]->data()->cell(r, j)};
            const double expected[3] = {noise, enc, enc + noise};
            for (int k = 0; k < 3; ++k)
                QVERIFY2(std::abs(shown[k] - expected[k]) <= 1e-12,
                         qPrintable(QStringLiteral("%1: panel %2 at t %3, j %4 shows %5, expected %6")
                                        .arg(QString::fromUtf8(what))
                                        .arg(k)
                                        .arg(t)
                                        .arg(j)
                                        .arg(shown[k], 0, 'g', 17)
                                        .arg(expected[k], 0, 'g', 17)));
        }
}

void TestInputsView::seed001PanelsAreNumpysNoiseAndTheEncoding()
{
    // Seed 001: x = PE + randn(300, 20)/2 with np.random.seed(42); z(t, j) is numpy's draw number
    // t·20 + j, drawn here one after another.
    set(params(300, 20, 1e4));
    QVERIFY(!params_->setNoise({0.5, 42, pe::NoiseRng::Numpy}));
    pe::LegacyNormal numpy(42);
    std::vector<double> draws(300 * 20);
    for (double &v : draws)
        v = numpy.gaussian();
    // numpy 1.24's own first draws for seed 42, as it prints them.
    const double published[5] = {0.4967141530112327, -0.13826430117118466, 0.6476885381006925, 1.5230298564080254,
                                 -0.23415337472333597};
    for (int j = 0; j < 5; ++j)
        QCOMPARE(noisePanel()->data()->cell(0, j), 0.5 * published[j]);
    QCOMPARE(outputPanel()->data()->cell(0, 1), 1 + 0.5 * published[1]); // cos(0) + σ z
    checkWhole([](std::int64_t t, int j) { return sinusoid(t, j, 20, 1e4); },
               [&draws](std::int64_t t, int j) { return draws[static_cast<std::size_t>(t * 20 + j)]; }, 0.5,
               "seed 001");
    QVERIFY2(titleOf(view_).contains(QStringLiteral("σ = 0.5, numpy seed 42")), qPrintable(titleOf(view_)));
    QVERIFY(!titleOf(view_).contains(QStringLiteral("sampled")));
}

void TestInputsView::counterNoiseAndRope()
{
    // The counter generator at a window away from 0, with RoPE's cos in column 2i and sin in 2i + 1.
    pe::EncodingParams p = params(120, 16, 500, 5000);
    p.scheme = pe::SchemeId::Rope;
    set(p);
    QVERIFY(!params_->setNoise({1.5, 9, pe::NoiseRng::Counter}));
    checkWhole(
        [](std::int64_t t, int j) {
            const double theta = std::pow(500.0, -2.0 * (j / 2) / 16);
            return static_cast<double>(testsupport::referenceValue(t, theta, j % 2 == 1));
        },
        [](std::int64_t t, int j) { return pe::standardNormal(9, t, j); }, 1.5, "RoPE, counter noise");
    QVERIFY2(titleOf(view_).contains(QStringLiteral("σ = 1.5, seed 9")), qPrintable(titleOf(view_)));
}

void TestInputsView::noiseOffDrawsZeros()
{
    set(params(50, 12, 1e4));
    QVERIFY(!params_->setNoise({0, 42}));
    checkWhole([](std::int64_t t, int j) { return sinusoid(t, j, 12, 1e4); }, [](std::int64_t, int) { return 0.0; }, 0,
               "noise off");
    QCOMPARE(noisePanel()->dataRange(), QCPRange(-1, 1)); // zeros on a scale of their own, not a 0-wide one
    QVERIFY(titleOf(view_).contains(QStringLiteral("noise is off")));
}

void TestInputsView::sampledCellsAreExactAndAgreeAcrossPanels()
{
    // 100,000 positions in about a thousand pixel columns: the title says how, each column holds
    // one position of its span, exactly, and the same position in all three panels (x = PE + σ z
    // of that position, never of a neighbour).
    const int d = 64;
    set(params(100'000, d, 1e4, 7));
    QVERIFY(!params_->setNoise({0.75, 5, pe::NoiseRng::Counter}));
    const QString title = titleOf(view_);
    const QRegularExpressionMatch said =
        QRegularExpression(QStringLiteral("sampled: 1 position in each (\\d+)( \\(jittered\\))?")).match(title);
    QVERIFY2(said.hasMatch(), qPrintable(title));
    const std::int64_t step = said.captured(1).toLongLong();
    QCPColorMapData *noise = noisePanel()->data(), *enc = encodingPanel()->data(), *out = outputPanel()->data();
    const int rows = enc->keySize();
    QVERIFY(rows <= view_->plot()->axisRect()->width());
    QVERIFY(static_cast<std::int64_t>(rows) * step >= 100'000 && static_cast<std::int64_t>(rows - 1) * step < 100'000);
    QCOMPARE(enc->valueSize(), d); // every dimension fits
    QCOMPARE(noise->keySize(), rows);
    QCOMPARE(out->keySize(), rows);
    int jittered = 0;
    for (int r = 0; r < rows; r += 37) {
        // The position of row r: the one in its span whose PE is the column drawn.
        std::int64_t at = -1;
        for (std::int64_t t = 7 + r * step; t < std::min<std::int64_t>(7 + (r + 1) * step, 100'007) && at < 0; ++t) {
            bool same = true;
            for (int j = 0; j < d && same; ++j)
                same = std::abs(enc->cell(r, j) - sinusoid(t, j, d, 1e4)) <= 1e-12;
            if (same)
                at = t;
        }
        QVERIFY2(at >= 0, qPrintable(QStringLiteral("row %1 is no position of its span").arg(r)));
        jittered += at != 7 + r * step;
        for (int j = 0; j < d; ++j) {
            const double z = 0.75 * pe::standardNormal(5, at, j);
            QVERIFY2(
                std::abs(noise->cell(r, j) - z) <= 1e-12,
                qPrintable(QStringLiteral("row %1 (t %2), j %3: noise of another position").arg(r).arg(at).arg(j)));
            QVERIFY(std::abs(out->cell(r, j) - (enc->cell(r, j) + z)) <= 1e-12);
        }
    }
    if (!said.captured(2).isEmpty())
        QVERIFY(jittered > 0); // said jittered: rows are not all at their span's start
}

void TestInputsView::positionAndMarkersOnEveryPanel()
{
    set(params(200, 16, 1e4));
    QVERIFY(params_->setPosition(77));
    const auto linesAt = [this](double x, bool figureMarkers) {
        QSet<QCPAxisRect *> rects;
        for (QCPItemStraightLine *l : view_->plot()->findChildren<QCPItemStraightLine *>())
            if ((l->objectName() == QLatin1String("figureMarker")) == figureMarkers && l->point1->coords().x() == x &&
                l->point2->coords().x() == x)
                rects.insert(l->clipAxisRect());
        return rects.size();
    };
    QCOMPARE(linesAt(77, false), 3);
    QVERIFY(params_->setPosition(150));
    QCOMPARE(linesAt(150, false), 3);
    QCOMPARE(linesAt(77, false), 0);
    // The figure's markers (its only settings, with the title): on all three panels, and saved.
    QVERIFY(!view_->applySettings({{QStringLiteral("markers"), QStringLiteral("20, 180")}}));
    QTRY_COMPARE(linesAt(20, true), 3);
    QCOMPARE(linesAt(180, true), 3);
    const QJsonObject saved = view_->settings();
    QCOMPARE(saved.value(QStringLiteral("markers")).toString(), QStringLiteral("20, 180"));
    ViewFixture<InputsView> other(QSize(1000, 800));
    QVERIFY(other.exposed());
    QVERIFY(!other.view->applySettings(saved));
    QCOMPARE(other.view->settings(), saved);
    // A number where a text belongs is refused, naming the setting; nothing applied.
    const std::optional<QString> problem = view_->applySettings({{QStringLiteral("markers"), 20}});
    QVERIFY(problem && problem->contains(QStringLiteral("'markers'")));
    QCOMPARE(view_->settings(), saved);
}

void TestInputsView::refusesAlibi()
{
    auto *notice = view_->findChild<QLabel *>(QStringLiteral("schemeNotice"));
    QVERIFY(notice);
    pe::EncodingParams p = params(50, 16, 1e4);
    p.scheme = pe::SchemeId::Alibi;
    set(p);
    const QString sentence = view_->info().schemeProblem(p);
    QVERIFY2(sentence.startsWith(QStringLiteral("ALiBi adds no vector to the tokens")), qPrintable(sentence));
    QVERIFY(sentence.contains(QStringLiteral("The Attention and ALiBi views show it.")));
    QVERIFY(notice->isVisible());
    QCOMPARE(notice->text(), sentence);
    QVERIFY(!view_->plot()->isVisible());
    QCOMPARE(view_->cannotDraw(), sentence);
    for (pe::SchemeId scheme : {pe::SchemeId::Sinusoidal, pe::SchemeId::Rope}) {
        p.scheme = scheme;
        set(p);
        QVERIFY(view_->info().schemeProblem(p).isEmpty());
        QVERIFY(!notice->isVisible());
        QVERIFY(view_->plot()->isVisible());
    }
}

QTEST_MAIN(TestInputsView)
#include "tst_inputs_view.moc"

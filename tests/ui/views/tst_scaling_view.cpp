// The RoPE scaling view: every pair's plotted wavelength (or frequency) and ratio against the
// scalings' formulas written out here (linear θ/s; NTK-aware base·s^(d/(d−2)); dynamic NTK at the
// window's end; YaRN's ramp in the pair index; Llama 3.1's wavelength bands), each pair in the
// regime the formula puts it in; the marks, the title's counts, the settings and the schemes.
#include "state/parameters.h"
#include "test_support.h"
#include "view_fixture.h"
#include "views/scaling_view.h"

#include <qcustomplot.h>

#include <QLabel>
#include <QTest>

#include <array>
#include <cmath>
#include <functional>
#include <numbers>

using testsupport::params;

namespace {

constexpr double kTwoPi = 2 * std::numbers::pi;

QString titleOf(const PlotView *view)
{
    return view->plot()->findChild<QCPTextElement *>()->text().replace(QLatin1Char('\n'), QLatin1Char(' '));
}

pe::EncodingParams rope(int d, double base, pe::RopeScaling scaling, double factor, std::int64_t context,
                        std::int64_t n = 100, std::int64_t start = 0)
{
    pe::EncodingParams p = params(n, d, base, start);
    p.scheme = pe::SchemeId::Rope;
    p.rope.scaling = scaling;
    p.rope.factor = factor;
    p.rope.originalContext = context;
    return p;
}

std::vector<double> plainTheta(double base, int d)
{
    std::vector<double> theta(static_cast<std::size_t>(d / 2));
    for (int i = 0; i < d / 2; ++i)
        theta[static_cast<std::size_t>(i)] = std::pow(base, -2.0 * i / d);
    return theta;
}

// Kept, interpolated, blended, beyond: the view's graphs 1-4 (and 5-8 for the ratios).
enum Regime { Kept, Interpolated, Blended, Beyond };

struct Expected {
    std::vector<double> theta; // θ'_i
    std::vector<int> regime;
};

} // namespace

class TestScalingView : public QObject
{
    Q_OBJECT

  private slots:
    void init();
    void cleanup();
    void unscaledCountsWavelengthsAboveL();
    void linearDividesEveryPairByS();
    void ntkRaisesTheBase();
    void dynamicNtkFollowsTheWindowsEnd();
    void yarnRampsInThePairIndex();
    void llama3BlendsBetweenTwoWavelengths();
    void frequencyQuantityAndMarks();
    void settingsRoundTrip();
    void refusesOtherSchemes();

  private:
    void set(const pe::EncodingParams &p) { QVERIFY(!params_->set(p)); }
    // Every pair's point in graphs 1-4 and 5-8 against θ' and the regimes; the unscaled graph 0.
    void check(const Expected &e, double base, int d, bool wavelength, const char *what);
    // The title's counts part for these regimes.
    static QString countsText(const Expected &e);

    std::unique_ptr<ViewFixture<ScalingView>> fixture_;
    Parameters *params_ = nullptr;
    ScalingView *view_ = nullptr;
};

void TestScalingView::init()
{
    fixture_ = std::make_unique<ViewFixture<ScalingView>>(QSize(1300, 900));
    params_ = &fixture_->params;
    view_ = fixture_->view.get();
    QVERIFY(fixture_->exposed());
}

void TestScalingView::cleanup()
{
    fixture_.reset();
}

void TestScalingView::check(const Expected &e, double base, int d, bool wavelength, const char *what)
{
    QCustomPlot *p = view_->plot();
    const std::vector<double> plain = plainTheta(base, d);
    const auto quantity = [wavelength](double w) { return wavelength ? kTwoPi / w : w; };
    const auto near = [](double a, double b) { return std::abs(a - b) <= 1e-12 * std::abs(b); };
    QCOMPARE(p->graph(0)->dataCount(), d / 2);
    for (int i = 0; i < d / 2; ++i) {
        QCOMPARE(p->graph(0)->data()->at(i)->key, double(i));
        QVERIFY2(near(p->graph(0)->data()->at(i)->value, quantity(plain[static_cast<std::size_t>(i)])),
                 qPrintable(QStringLiteral("%1: unscaled pair %2").arg(QString::fromUtf8(what)).arg(i)));
    }
    std::vector<int> seen(static_cast<std::size_t>(d / 2), 0);
    for (int k = 0; k < 4; ++k) {
        QCPGraph *scaled = p->graph(1 + k), *ratio = p->graph(5 + k);
        QCOMPARE(ratio->dataCount(), scaled->dataCount());
        for (int n = 0; n < scaled->dataCount(); ++n) {
            const auto i = static_cast<std::size_t>(scaled->data()->at(n)->key);
            ++seen[i];
            QVERIFY2(e.regime[i] == k, qPrintable(QStringLiteral("%1: pair %2 drawn as regime %3, expected %4")
                                                      .arg(QString::fromUtf8(what))
                                                      .arg(i)
                                                      .arg(k)
                                                      .arg(e.regime[i])));
            QVERIFY2(near(scaled->data()->at(n)->value, quantity(e.theta[i])),
                     qPrintable(QStringLiteral("%1: pair %2 drawn at %3, expected %4")
                                    .arg(QString::fromUtf8(what))
                                    .arg(i)
                                    .arg(scaled->data()->at(n)->value, 0, 'g', 17)
                                    .arg(quantity(e.theta[i]), 0, 'g', 17)));
            QCOMPARE(ratio->data()->at(n)->key, double(i));
            QVERIFY2(near(ratio->data()->at(n)->value, e.theta[i] / plain[i]),
                     qPrintable(QStringLiteral("%1: ratio of pair %2").arg(QString::fromUtf8(what)).arg(i)));
        }
    }
    for (int i = 0; i < d / 2; ++i)
        QVERIFY2(seen[static_cast<std::size_t>(i)] == 1, qPrintable(QStringLiteral("%1: pair %2 drawn %3 times")
                                                                        .arg(QString::fromUtf8(what))
                                                                        .arg(i)
                                                                        .arg(seen[static_cast<std::size_t>(i)])));
}

QString TestScalingView::countsText(const Expected &e)
{
    std::array<int, 4> n{};
    for (int r : e.regime)
        ++n[static_cast<std::size_t>(r)];
    QStringList parts{QStringLiteral("%1 kept").arg(n[0]), QStringLiteral("%1 interpolated").arg(n[1])};
    if (n[2] > 0)
        parts << QStringLiteral("%1 blended").arg(n[2]);
    if (n[3] > 0)
        parts << QStringLiteral("%1 beyond θ/s").arg(n[3]);
    return QStringLiteral("%1 of %2 pairs").arg(parts.join(QStringLiteral(", "))).arg(e.regime.size());
}

// The regime of each pair from its ratio θ'/θ: 1 kept, 1/s interpolated, below 1/s beyond.
static std::vector<int> regimesOf(const std::vector<double> &scaled, const std::vector<double> &plain, double s)
{
    std::vector<int> out;
    for (std::size_t i = 0; i < plain.size(); ++i) {
        const double r = scaled[i] / plain[i];
        out.push_back(std::abs(r - 1) < 1e-9       ? Kept
                      : std::abs(r * s - 1) < 1e-9 ? Interpolated
                      : r < 1 / s                  ? Beyond
                                                   : Blended);
    }
    return out;
}

void TestScalingView::unscaledCountsWavelengthsAboveL()
{
    // No scaling: every pair kept; pairs 46-63 of d 128, base 1e4 have 2π·1e4^(i/64) > 4096.
    set(rope(128, 1e4, pe::RopeScaling::None, 1, 4096));
    const Expected e{plainTheta(1e4, 128), std::vector<int>(64, Kept)};
    check(e, 1e4, 128, true, "unscaled");
    int longer = 0;
    for (double w : e.theta)
        longer += kTwoPi / w > 4096;
    QCOMPARE(longer, 18);
    QVERIFY2(titleOf(view_).contains(QStringLiteral(
                 "18 of 64 pairs have wavelengths above L = 4,096: they never turned fully in training")),
             qPrintable(titleOf(view_)));
    QVERIFY(titleOf(view_).contains(QStringLiteral("no scaling, L = 4,096")));
}

void TestScalingView::linearDividesEveryPairByS()
{
    // Position interpolation: θ_i/s for every pair.
    set(rope(64, 1e4, pe::RopeScaling::Linear, 4, 2048));
    Expected e{plainTheta(1e4, 64), std::vector<int>(32, Interpolated)};
    for (double &w : e.theta)
        w /= 4;
    check(e, 1e4, 64, true, "linear");
    QVERIFY2(titleOf(view_).contains(QStringLiteral("0 kept, 32 interpolated of 32 pairs")),
             qPrintable(titleOf(view_)));
    QVERIFY(titleOf(view_).contains(QStringLiteral("linear ×4 (θ/s), L = 2,048")));
}

void TestScalingView::ntkRaisesTheBase()
{
    // NTK-aware: θ'_i = (base·s^(d/(d−2)))^(−2i/d). Pair 0 is kept, the last pair is exactly θ/s
    // (s^(−(d/(d−2))·(d−2)/d)), the ones between slowed by less than s.
    const int d = 128;
    const double s = 8, base = 1e4;
    set(rope(d, base, pe::RopeScaling::Ntk, s, 4096));
    const double raised = base * std::pow(s, d / (d - 2.0));
    Expected e{plainTheta(raised, d), {}};
    e.regime = regimesOf(e.theta, plainTheta(base, d), s);
    QCOMPARE(e.regime.front(), int(Kept));
    QCOMPARE(e.regime.back(), int(Interpolated));
    QCOMPARE(static_cast<int>(std::count(e.regime.begin(), e.regime.end(), int(Blended))), 62);
    check(e, base, d, true, "NTK-aware");
    QVERIFY2(titleOf(view_).contains(QStringLiteral("1 kept, 1 interpolated, 62 blended of 64 pairs")),
             qPrintable(titleOf(view_)));
}

void TestScalingView::dynamicNtkFollowsTheWindowsEnd()
{
    // transformers' dynamic NTK: NTK-aware with s·len/L − (s − 1) once len = start_pos + seq_len
    // passes L. At len 10,000, L 4096, s 2 the factor is 3.88: the last pairs slow by more than s.
    const int d = 128;
    set(rope(d, 1e4, pe::RopeScaling::DynamicNtk, 2, 4096, 100, 9900));
    const double effective = 2.0 * 10000 / 4096 - 1;
    Expected e{plainTheta(1e4 * std::pow(effective, d / (d - 2.0)), d), {}};
    e.regime = regimesOf(e.theta, plainTheta(1e4, d), 2);
    QCOMPARE(static_cast<int>(std::count(e.regime.begin(), e.regime.end(), int(Beyond))),
             31); // ratio 3.88^(−2i/126) < 1/2 from i = 33
    check(e, 1e4, d, true, "dynamic NTK at 10,000");
    QVERIFY2(titleOf(view_).contains(countsText(e)),
             qPrintable(titleOf(view_) + QStringLiteral(" / ") + countsText(e)));
    QVERIFY(titleOf(view_).contains(QStringLiteral("31 beyond θ/s")));
    // Within L it is the plain RoPE.
    set(rope(d, 1e4, pe::RopeScaling::DynamicNtk, 2, 4096, 100, 3000));
    check(Expected{plainTheta(1e4, d), std::vector<int>(64, Kept)}, 1e4, d, true, "dynamic NTK within L");
    QVERIFY(titleOf(view_).contains(QStringLiteral("64 kept, 0 interpolated of 64 pairs")));
}

void TestScalingView::yarnRampsInThePairIndex()
{
    // YaRN as transformers computes it: dim(r) = d·ln(L/(2π r))/(2 ln base); pairs up to
    // floor(dim(β_fast)) kept, from ceil(dim(β_slow)) interpolated, a ramp linear in i between.
    // d 128, base 1e4, L 4096, s 4, β 32/1: dim(32) = 20.9, dim(1) = 45.03, so 21 kept, 18 interpolated.
    const int d = 128;
    const double base = 1e4, s = 4;
    set(rope(d, base, pe::RopeScaling::Yarn, s, 4096));
    const auto dim = [&](double rotations) { return d * std::log(4096 / (rotations * kTwoPi)) / (2 * std::log(base)); };
    const double low = std::max(0.0, std::floor(dim(32))), high = std::min(d - 1.0, std::ceil(dim(1)));
    QCOMPARE(low, 20.0);
    QCOMPARE(high, 46.0);
    Expected e{plainTheta(base, d), {}};
    for (int i = 0; i < d / 2; ++i) {
        const double kept = 1 - std::clamp((i - low) / (high - low), 0.0, 1.0);
        double &w = e.theta[static_cast<std::size_t>(i)];
        w = w * kept + w / s * (1 - kept);
        e.regime.push_back(kept == 1 ? Kept : kept == 0 ? Interpolated : Blended);
    }
    check(e, base, d, true, "YaRN");
    QVERIFY2(titleOf(view_).contains(QStringLiteral("21 kept, 18 interpolated, 25 blended of 64 pairs")),
             qPrintable(titleOf(view_)));
    QVERIFY(titleOf(view_).contains(QStringLiteral("YaRN's ramp is linear in i")));
}

void TestScalingView::llama3BlendsBetweenTwoWavelengths()
{
    // Meta's apply_scaling (Llama 3.1: base 500000, L 8192, s 8, factors 1/4): wavelengths under
    // L/4 = 2048 kept, over L/1 = 8192 divided by s, between a blend by (L/λ − 1)/(4 − 1).
    const int d = 128;
    const double base = 500000, s = 8;
    pe::EncodingParams p = rope(d, base, pe::RopeScaling::Llama3, s, 8192);
    p.rope.lowFreqFactor = 1;
    p.rope.highFreqFactor = 4;
    set(p);
    Expected e{plainTheta(base, d), {}};
    for (double &w : e.theta) {
        const double lambda = kTwoPi / w;
        if (lambda < 2048) {
            e.regime.push_back(Kept);
        } else if (lambda > 8192) {
            w /= s;
            e.regime.push_back(Interpolated);
        } else {
            const double smooth = (8192 / lambda - 1) / 3;
            w = (1 - smooth) * w / s + smooth * w;
            e.regime.push_back(Blended);
        }
    }
    QCOMPARE(static_cast<int>(std::count(e.regime.begin(), e.regime.end(), int(Kept))), 29);
    QCOMPARE(static_cast<int>(std::count(e.regime.begin(), e.regime.end(), int(Interpolated))), 29);
    check(e, base, d, true, "Llama 3.1");
    QVERIFY2(titleOf(view_).contains(QStringLiteral("29 kept, 29 interpolated, 6 blended of 64 pairs")),
             qPrintable(titleOf(view_)));
}

void TestScalingView::frequencyQuantityAndMarks()
{
    set(rope(64, 1e4, pe::RopeScaling::Linear, 4, 2048));
    QCustomPlot *p = view_->plot();
    // Wavelengths: L and s·L marked, and 1/s on the ratios.
    const auto texts = [p] {
        QStringList out;
        for (QCPItemText *t : p->findChildren<QCPItemText *>())
            if (t->visible())
                out << t->text();
        return out;
    };
    const auto marksAt = [p](double y) {
        int n = 0;
        for (QCPItemStraightLine *l : p->findChildren<QCPItemStraightLine *>())
            n += l->visible() && l->point1->coords().y() == y && l->point2->coords().y() == y;
        return n;
    };
    QVERIFY2(texts().contains(QStringLiteral("L = 2048")) && texts().contains(QStringLiteral("s·L = 8192")) &&
                 texts().contains(QStringLiteral("1/s = 0.25")),
             qPrintable(texts().join(QStringLiteral(" | "))));
    QCOMPARE(marksAt(2048), 1);
    QCOMPARE(marksAt(8192), 1);
    QCOMPARE(marksAt(0.25), 1);
    QVERIFY(p->yAxis->label().contains(QStringLiteral("wavelength")));
    // Frequencies: θ itself, and the marks at the frequencies that turn once in L and in s·L.
    QVERIFY(!view_->applySettings({{QStringLiteral("scalingQuantity"), QStringLiteral("frequency")}}));
    Expected e{plainTheta(1e4, 64), std::vector<int>(32, Interpolated)};
    for (double &w : e.theta)
        w /= 4;
    check(e, 1e4, 64, false, "linear, frequencies");
    QVERIFY(p->yAxis->label().contains(QStringLiteral("θᵢ")));
    QCOMPARE(marksAt(kTwoPi / 2048), 1);
    QCOMPARE(marksAt(kTwoPi / 8192), 1);
    // Unscaled: no s·L, no 1/s.
    set(rope(64, 1e4, pe::RopeScaling::None, 1, 2048));
    QVERIFY(!texts().contains(QStringLiteral("2π/(s·L)")));
    QVERIFY(!texts().join(QLatin1Char(' ')).contains(QStringLiteral("1/s")));
}

void TestScalingView::settingsRoundTrip()
{
    set(rope(64, 1e4, pe::RopeScaling::Ntk, 2, 2048));
    QCOMPARE(view_->settings().value(QStringLiteral("scalingQuantity")).toString(), QStringLiteral("wavelength"));
    QVERIFY(!view_->applySettings({{QStringLiteral("scalingQuantity"), QStringLiteral("frequency")},
                                   {QStringLiteral("title"), QStringLiteral("NTK")}}));
    const QJsonObject saved = view_->settings();
    QCOMPARE(saved.value(QStringLiteral("scalingQuantity")).toString(), QStringLiteral("frequency"));
    QCOMPARE(titleOf(view_), QStringLiteral("NTK"));
    ViewFixture<ScalingView> other(QSize(900, 700));
    QVERIFY(other.exposed());
    QVERIFY(!other.params.set(params_->values()));
    QVERIFY(!other.view->applySettings(saved));
    QCOMPARE(other.view->settings(), saved);
    QCOMPARE(other.view->plot()->graph(0)->data()->at(1)->value, std::pow(1e4, -2.0 / 64)); // θ, not 2π/θ
    const std::optional<QString> problem =
        view_->applySettings({{QStringLiteral("scalingQuantity"), QStringLiteral("period")}});
    QVERIFY(problem && problem->contains(QStringLiteral("scalingQuantity")));
    QCOMPARE(view_->settings(), saved);
}

void TestScalingView::refusesOtherSchemes()
{
    QVERIFY(
        verifySchemeRefused(view_, params_, {pe::SchemeId::Sinusoidal, pe::SchemeId::Alibi},
                            QStringLiteral("The RoPE scaling view shows the rope scheme: choose it (--scheme rope).")));
    set(rope(64, 1e4, pe::RopeScaling::None, 1, 2048));
    QVERIFY(!view_->findChild<QLabel *>(QStringLiteral("schemeNotice"))->isVisible());
    QVERIFY(view_->plot()->isVisible());
}

QTEST_MAIN(TestScalingView)
#include "tst_scaling_view.moc"

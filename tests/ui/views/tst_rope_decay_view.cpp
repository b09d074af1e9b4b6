// The RoPE decay view: its curves against RoFormer 3.4.3 written out here: the score Σ_i 2·cos(k·θ_i)
// for q = k = ones, the relative bound (1/(d/2))·Σ_j |Σ_{l<j} e^{i·k·θ_l}|, and the mean and ±1 sd
// band of (R_k q)·k over seeded Gaussian q, k, each rotation done by hand; θ' under a scaling
// without YaRN's factor; what the title says it reduced; settings and schemes.
#include "analysis/attention.h"
#include "state/parameters.h"
#include "test_support.h"
#include "view_fixture.h"
#include "views/rope_decay_view.h"

#include <qcustomplot.h>

#include <QLabel>
#include <QTest>

#include <cmath>
#include <complex>
#include <map>

using testsupport::params;

namespace {

QString titleOf(const PlotView *view)
{
    return view->plot()->findChild<QCPTextElement *>()->text().replace(QLatin1Char('\n'), QLatin1Char(' '));
}

pe::EncodingParams rope(std::int64_t n, int d, double base, pe::Layout layout = pe::Layout::Interleaved)
{
    pe::EncodingParams p = params(n, d, base, 0, layout);
    p.scheme = pe::SchemeId::Rope;
    return p;
}

std::vector<long double> thetaOf(double base, int d, long double divide = 1)
{
    std::vector<long double> theta(static_cast<std::size_t>(d / 2));
    for (int i = 0; i < d / 2; ++i)
        theta[static_cast<std::size_t>(i)] = std::pow(base, -2.0 * i / d) / divide; // the core's θ, to the bit
    return theta;
}

long double score(const std::vector<long double> &theta, std::int64_t k)
{
    long double sum = 0;
    for (long double w : theta)
        sum += 2 * cosl(static_cast<long double>(k) * w);
    return sum;
}

long double bound(const std::vector<long double> &theta, std::int64_t k)
{
    std::complex<long double> partial = 0;
    long double sum = 0;
    for (long double w : theta) {
        partial += std::polar(1.0L, static_cast<long double>(k) * w);
        sum += std::abs(partial);
    }
    return sum / static_cast<long double>(theta.size());
}

// (R_k q)·k for one seeded pair: pair i of q, columns (c, s), turned by k·θ_i, dotted with k's.
long double randomScore(const std::vector<long double> &theta, const std::vector<double> &q,
                        const std::vector<double> &key, std::int64_t k, bool split)
{
    const std::size_t half = theta.size();
    long double sum = 0;
    for (std::size_t i = 0; i < half; ++i) {
        const std::size_t c = split ? i : 2 * i, s = split ? i + half : 2 * i + 1;
        const long double a = static_cast<long double>(k) * theta[i];
        sum += (q[c] * cosl(a) - q[s] * sinl(a)) * key[c] + (q[c] * sinl(a) + q[s] * cosl(a)) * key[s];
    }
    return sum;
}

// Mean and sample standard deviation over `samples` pairs (q, k) = vectors 2j and 2j + 1 of the seed.
std::pair<std::vector<double>, std::vector<double>> randomCurves(const std::vector<long double> &theta, int d,
                                                                 std::int64_t offsets, int samples, std::uint64_t seed,
                                                                 bool split)
{
    std::vector<double> mean(static_cast<std::size_t>(offsets)), sd(static_cast<std::size_t>(offsets));
    std::vector<std::vector<double>> q, key;
    for (int j = 0; j < samples; ++j) {
        q.push_back(pe::queryKeyVector(pe::QueryKey::Random, d, seed, 2 * j));
        key.push_back(pe::queryKeyVector(pe::QueryKey::Random, d, seed, 2 * j + 1));
    }
    for (std::int64_t k = 0; k < offsets; ++k) {
        std::vector<long double> v;
        long double sum = 0;
        for (int j = 0; j < samples; ++j) {
            v.push_back(randomScore(theta, q[static_cast<std::size_t>(j)], key[static_cast<std::size_t>(j)], k, split));
            sum += v.back();
        }
        const long double m = sum / samples;
        long double squares = 0;
        for (long double x : v)
            squares += (x - m) * (x - m);
        mean[static_cast<std::size_t>(k)] = static_cast<double>(m);
        sd[static_cast<std::size_t>(k)] = samples > 1 ? static_cast<double>(sqrtl(squares / (samples - 1))) : 0.0;
    }
    return {mean, sd};
}

// A graph's points by x: (lowest, highest) drawn there.
std::map<double, std::pair<double, double>> pointsOf(const QCPGraph *g)
{
    std::map<double, std::pair<double, double>> out;
    for (const QCPGraphData &d : *g->data()) {
        auto [it, fresh] = out.emplace(d.key, std::pair{d.value, d.value});
        it->second.first = std::min(it->second.first, d.value);
        it->second.second = std::max(it->second.second, d.value);
    }
    return out;
}

} // namespace

class TestRopeDecayView : public QObject
{
    Q_OBJECT

  private slots:
    void init();
    void cleanup();
    void scoreAndBoundAreRoFormers();
    void randomBandIsMeanAndSpreadOfTurnedProducts();
    void scalingsUseTheirThetaWithoutYarnsFactor();
    void dynamicNtkCurvesFollowTheWindowsEnd();
    void longWindowsSayWhatTheyReduced();
    void contextIsMarkedInsideTheOffsets();
    void xposCurveIsTheScaledScore();
    void settingsRoundTrip();
    void refusesOtherSchemes();

  private:
    void set(const pe::EncodingParams &p) { QVERIFY(!params_->set(p)); }
    QCPGraph *graph(int i) const { return view_->plot()->graph(i); }
    // Graph g holds one point per offset 0..n-1, equal to expected(k) within tolerance.
    template <class F> void checkCurve(int g, std::int64_t n, F expected, double tolerance, const char *what);

    std::unique_ptr<ViewFixture<RopeDecayView>> fixture_;
    Parameters *params_ = nullptr;
    RopeDecayView *view_ = nullptr;
};

void TestRopeDecayView::init()
{
    fixture_ = std::make_unique<ViewFixture<RopeDecayView>>(QSize(1300, 800));
    params_ = &fixture_->params;
    view_ = fixture_->view.get();
    QVERIFY(fixture_->exposed());
}

void TestRopeDecayView::cleanup()
{
    fixture_.reset();
}

template <class F>
void TestRopeDecayView::checkCurve(int g, std::int64_t n, F expected, double tolerance, const char *what)
{
    const auto points = pointsOf(graph(g));
    QVERIFY2(
        static_cast<std::int64_t>(points.size()) == n,
        qPrintable(
            QStringLiteral("%1: %2 points for %3 offsets").arg(QString::fromUtf8(what)).arg(points.size()).arg(n)));
    for (std::int64_t k = 0; k < n; ++k) {
        const auto it = points.find(static_cast<double>(k));
        QVERIFY(it != points.end());
        const double want = static_cast<double>(expected(k));
        QVERIFY2(it->second.first == it->second.second && std::abs(it->second.first - want) <= tolerance,
                 qPrintable(QStringLiteral("%1 at k = %2: drawn %3, expected %4")
                                .arg(QString::fromUtf8(what))
                                .arg(k)
                                .arg(it->second.first, 0, 'g', 17)
                                .arg(want, 0, 'g', 17)));
    }
}

void TestRopeDecayView::scoreAndBoundAreRoFormers()
{
    set(rope(300, 32, 1e4));
    const auto theta = thetaOf(1e4, 32);
    checkCurve(
        3, 300, [&](std::int64_t k) { return score(theta, k); }, 1e-11, "score");
    checkCurve(
        4, 300, [&](std::int64_t k) { return bound(theta, k); }, 1e-11, "bound");
    QCOMPARE(pointsOf(graph(3)).at(0).first, 32.0);                  // Σ 2 = d at k = 0
    QVERIFY(std::abs(pointsOf(graph(4)).at(0).first - 8.5) < 1e-12); // (d/2 + 1)/2
    // The bound on the right axis, the score on the left.
    QCOMPARE(graph(4)->valueAxis(), view_->plot()->yAxis2);
    QCOMPARE(graph(3)->valueAxis(), view_->plot()->yAxis);
    QCOMPARE(view_->plot()->xAxis->range().lower, -0.5);
    QCOMPARE(view_->plot()->xAxis->range().upper, 299.5);
    const QString title = titleOf(view_);
    QVERIFY2(title.contains(QStringLiteral("RoPE's long-term decay (RoFormer 3.4.3): d = 32, base 10000")),
             qPrintable(title));
    QVERIFY(!title.contains(QStringLiteral("offsets 0–")) && !title.contains(QStringLiteral("per pixel column")));
    // A base of 100 turns faster: another curve, still the formula.
    set(rope(200, 8, 100, pe::Layout::Split));
    const auto fast = thetaOf(100, 8);
    checkCurve(
        3, 200, [&](std::int64_t k) { return score(fast, k); }, 1e-11, "score, base 100");
    checkCurve(
        4, 200, [&](std::int64_t k) { return bound(fast, k); }, 1e-11, "bound, base 100");
}

void TestRopeDecayView::randomBandIsMeanAndSpreadOfTurnedProducts()
{
    for (pe::Layout layout : {pe::Layout::Interleaved, pe::Layout::Split}) {
        const bool split = layout == pe::Layout::Split;
        set(rope(250, 16, 1e4, layout));
        QVERIFY(!view_->applySettings({{QStringLiteral("decaySamples"), 6}, {QStringLiteral("decaySeed"), 11}}));
        QCOMPARE(view_->samplesUsed(), 6);
        const auto [mean, sd] = randomCurves(thetaOf(1e4, 16), 16, 250, 6, 11, split);
        const char *what = split ? "split" : "interleaved";
        const auto at = [](const std::vector<double> &v) {
            return [&v](std::int64_t k) { return v[static_cast<std::size_t>(k)]; };
        };
        checkCurve(2, 250, at(mean), 1e-10, what);
        std::vector<double> low(mean.size()), high(mean.size());
        for (std::size_t k = 0; k < mean.size(); ++k) {
            low[k] = mean[k] - sd[k];
            high[k] = mean[k] + sd[k];
        }
        checkCurve(0, 250, at(low), 1e-10, what);
        checkCurve(1, 250, at(high), 1e-10, what);
        for (int g : {0, 1, 2})
            QVERIFY(graph(g)->visible());
        QVERIFY2(titleOf(view_).contains(QStringLiteral("random: 6 seeded Gaussian (q, k) pairs (seed 11);")),
                 qPrintable(titleOf(view_)));
    }
    // None: no band, no mean, and the title says so.
    QVERIFY(!view_->applySettings({{QStringLiteral("decaySamples"), 0}}));
    QCOMPARE(view_->samplesUsed(), 0);
    for (int g : {0, 1, 2})
        QVERIFY(!graph(g)->visible());
    QVERIFY(titleOf(view_).contains(QStringLiteral("no random samples")));
}

void TestRopeDecayView::scalingsUseTheirThetaWithoutYarnsFactor()
{
    // Linear ×4: θ/4, so the score is Σ 2 cos(k·θ_i/4).
    pe::EncodingParams p = rope(300, 32, 1e4);
    p.rope.scaling = pe::RopeScaling::Linear;
    p.rope.factor = 4;
    p.rope.originalContext = 1000;
    set(p);
    const auto theta = thetaOf(1e4, 32, 4);
    checkCurve(
        3, 300, [&](std::int64_t k) { return score(theta, k); }, 1e-11, "linear ×4");
    checkCurve(
        4, 300, [&](std::int64_t k) { return bound(theta, k); }, 1e-11, "bound, linear ×4");
    QVERIFY2(titleOf(view_).contains(QStringLiteral("θ′ under linear ×4 (θ/s), L = 1,000")),
             qPrintable(titleOf(view_)));
    // YaRN: RoFormer's score without the factor 0.1·ln s + 1 on cos and sin: d at k = 0, not 1.14² d.
    p.rope.scaling = pe::RopeScaling::Yarn;
    set(p);
    QCOMPARE(pointsOf(graph(3)).at(0).first, 32.0);
    QVERIFY(titleOf(view_).contains(QStringLiteral("without the factor on cos and sin")));
}

void TestRopeDecayView::dynamicNtkCurvesFollowTheWindowsEnd()
{
    // Dynamic NTK's θ follows start_pos + seq_len: the same offsets from another start_pos are
    // another curve, base' = base·(s·len/L − (s − 1))^(d/(d−2)).
    const int d = 32;
    pe::EncodingParams p = rope(200, d, 1e4);
    p.rope.scaling = pe::RopeScaling::DynamicNtk;
    p.rope.factor = 4;
    p.rope.originalContext = 100;
    for (std::int64_t start : {0, 1000, 50'000}) {
        p.startPos = start;
        set(p);
        const double len = static_cast<double>(start + 200);
        const auto theta = thetaOf(1e4 * std::pow(4 * len / 100 - 3, d / (d - 2.0)), d);
        checkCurve(
            3, 200, [&](std::int64_t k) { return score(theta, k); }, 1e-11,
            qPrintable(QStringLiteral("dynamic NTK from %1").arg(start)));
    }
}

void TestRopeDecayView::longWindowsSayWhatTheyReduced()
{
    // d 4096, 100,000 positions: the first 8,388,608 / 2048 = 4096 offsets, 4 samples of the 32
    // asked (33,554,432 / (4096 · 2048)), each curve an envelope per pixel column.
    set(rope(100'000, 4096, 1e4));
    QCOMPARE(view_->samplesUsed(), 4);
    const QString title = titleOf(view_);
    QVERIFY2(title.contains(QStringLiteral("offsets 0–4095 of 0–99999: each costs O(d)")), qPrintable(title));
    QVERIFY(title.contains(QStringLiteral("random: 4 seeded Gaussian (q, k) pairs (seed 0), fewer than the 32 asked "
                                          "at this size")));
    const auto points = pointsOf(graph(3));
    QVERIFY(points.size() < 4096);
    const auto stride = static_cast<std::int64_t>(std::next(points.begin())->first - points.begin()->first);
    QVERIFY(stride > 1);
    QCOMPARE(static_cast<std::int64_t>(points.size()), (4096 + stride - 1) / stride);
    QVERIFY2(title.contains(QStringLiteral("lowest to highest of each %1 offsets per pixel column").arg(stride)),
             qPrintable(title));
    QCOMPARE(view_->plot()->xAxis->range().upper, 4095.5);
    // Each run of offsets drawn from its lowest to its highest score.
    const auto theta = thetaOf(1e4, 4096);
    std::vector<double> scores(4096);
    for (std::int64_t k = 0; k < 4096; ++k)
        scores[static_cast<std::size_t>(k)] = static_cast<double>(score(theta, k));
    for (const auto &[x, range] : points) {
        const auto begin = static_cast<std::size_t>(x);
        QCOMPARE(begin % static_cast<std::size_t>(stride), std::size_t(0));
        const auto end = std::min(scores.size(), begin + static_cast<std::size_t>(stride));
        const auto [lo, hi] = std::minmax_element(scores.begin() + static_cast<std::ptrdiff_t>(begin),
                                                  scores.begin() + static_cast<std::ptrdiff_t>(end));
        QVERIFY2(std::abs(range.first - *lo) < 1e-9 && std::abs(range.second - *hi) < 1e-9,
                 qPrintable(QStringLiteral("run at %1: %2–%3, expected %4–%5")
                                .arg(x)
                                .arg(range.first)
                                .arg(range.second)
                                .arg(*lo)
                                .arg(*hi)));
    }
}

void TestRopeDecayView::contextIsMarkedInsideTheOffsets()
{
    pe::EncodingParams p = rope(300, 32, 1e4);
    p.rope.originalContext = 100;
    set(p);
    const auto marked = [this](double x) {
        for (QCPItemStraightLine *l : view_->plot()->findChildren<QCPItemStraightLine *>())
            if (l->visible() && l->point1->coords().x() == x && l->point2->coords().x() == x)
                return true;
        return false;
    };
    QVERIFY(marked(100));
    QVERIFY(titleOf(view_).contains(QStringLiteral("red: the trained context L = 100")));
    p.rope.originalContext = 4096; // past the offsets drawn: no mark
    set(p);
    QVERIFY(!marked(4096));
    QVERIFY(!titleOf(view_).contains(QStringLiteral("red:")));
}

void TestRopeDecayView::xposCurveIsTheScaledScore()
{
    // xPos's curve (graph 5): Σ_i 2·ζ_i^(k/γ)·cos(k·θ_i), one point an offset while they fit; shown
    // and in the legend only with γ given, and a γ step recomputes it.
    pe::EncodingParams p = rope(300, 16, 1e4);
    set(p);
    QCPGraph *xpos = view_->plot()->graph(5);
    QVERIFY(!xpos->visible() && xpos->data()->isEmpty());
    QVERIFY(!titleOf(view_).contains(QStringLiteral("xPos")));
    for (double gamma : {64.0, 8.0}) {
        p.xposScaleBase = gamma;
        set(p);
        QVERIFY(xpos->visible());
        QVERIFY(view_->plot()->legend->hasItemWithPlottable(xpos));
        const std::vector<long double> theta = thetaOf(1e4, 16);
        QCOMPARE(xpos->data()->size(), 300);
        for (const QCPGraphData &d : *xpos->data()) {
            long double want = 0;
            for (std::size_t i = 0; i < theta.size(); ++i) {
                const long double zeta = (2.0L * i + 0.4L * 16) / (1.4L * 16);
                want += 2 * powl(zeta, static_cast<long double>(d.key) / gamma) * cosl(d.key * theta[i]);
            }
            QVERIFY2(std::abs(d.value - static_cast<double>(want)) < 1e-12,
                     qPrintable(QStringLiteral("γ %1, k %2").arg(gamma).arg(d.key)));
        }
        QVERIFY2(titleOf(view_).contains(QStringLiteral("green: xPos (Sun et al. 2022)")), qPrintable(titleOf(view_)));
    }
    // ζ from 6.4/22.4 to 20.4/22.4 for d 16; the fastest falls to 1/e by k = 8/-ln 0.2857 = 6, the
    // slowest, 0.911, by 8/-ln 0.911 = 86.
    QVERIFY2(titleOf(view_).contains(QStringLiteral("over the D = 16 rotary dims, from 0.2857 to 0.9107")) &&
                 titleOf(view_).contains(QStringLiteral("the fastest to 1/e by k = 6, the slowest by 86")) &&
                 titleOf(view_).contains(QStringLiteral("base 10000; green: xPos, γ = 8")),
             qPrintable(titleOf(view_)));
}

void TestRopeDecayView::settingsRoundTrip()
{
    set(rope(120, 16, 1e4));
    QCOMPARE(view_->settings().value(QStringLiteral("decaySamples")).toInt(), 32); // the default
    QVERIFY(!view_->applySettings({{QStringLiteral("decaySamples"), 9}, {QStringLiteral("decaySeed"), 4242}}));
    const QJsonObject saved = view_->settings();
    QCOMPARE(saved.value(QStringLiteral("decaySamples")).toInt(), 9);
    QCOMPARE(saved.value(QStringLiteral("decaySeed")).toInt(), 4242);
    ViewFixture<RopeDecayView> other(QSize(1300, 800));
    QVERIFY(other.exposed());
    QVERIFY(!other.params.set(params_->values()));
    QVERIFY(!other.view->applySettings(saved));
    QCOMPARE(other.view->settings(), saved);
    QCOMPARE(other.view->samplesUsed(), 9);
    const auto mine = pointsOf(graph(2)), theirs = pointsOf(other.view->plot()->graph(2));
    QCOMPARE(mine.size(), std::size_t(120));
    QVERIFY(mine == theirs);
    const auto [mean, sd] = randomCurves(thetaOf(1e4, 16), 16, 120, 9, 4242, false);
    QVERIFY(std::abs(mine.at(37).first - mean[37]) < 1e-10);
    const std::optional<QString> problem = view_->applySettings({{QStringLiteral("decaySamples"), 1000}});
    QVERIFY(problem && problem->contains(QStringLiteral("decaySamples")));
    QCOMPARE(view_->settings(), saved);
}

void TestRopeDecayView::refusesOtherSchemes()
{
    QVERIFY(
        verifySchemeRefused(view_, params_, {pe::SchemeId::Sinusoidal, pe::SchemeId::Alibi},
                            QStringLiteral("The RoPE decay view shows the rope scheme: choose it (--scheme rope).")));
    auto *notice = view_->findChild<QLabel *>(QStringLiteral("schemeNotice"));
    set(rope(50, 64, 1e4));
    QVERIFY(!notice->isVisible());
    QVERIFY(view_->plot()->isVisible());
}

QTEST_MAIN(TestRopeDecayView)
#include "tst_rope_decay_view.moc"

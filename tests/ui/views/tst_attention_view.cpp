// The attention view: its cells and its row against scores computed here from the closed forms
// (the sinusoids' Σ cos((t − s)·w_i), RoPE's (R_t q)·(R_s k) by explicit rotation, ALiBi's
// −m·|t − s|), softmaxed here; what its title says it reduced; its settings; its schemes.
#include "analysis/attention.h"
#include "encodings/position_table.h"
#include "export/data_export.h"
#include "state/parameters.h"
#include "test_support.h"
#include "view_fixture.h"
#include "views/attention_view.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QTest>

#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <numbers>

using testsupport::params;

namespace {

using Score = std::function<long double(std::int64_t t, std::int64_t s)>;

// Row t of the softmax over s in [first, first + n) of score / √d: masked keys (s > t, causal) get 0.
std::vector<double> softmaxRow(const Score &score, std::int64_t t, std::int64_t first, std::int64_t n, bool causal)
{
    std::vector<long double> logits(static_cast<std::size_t>(n));
    long double top = -INFINITY;
    for (std::int64_t i = 0; i < n; ++i) {
        const std::int64_t s = first + i;
        logits[static_cast<std::size_t>(i)] = causal && s > t ? -INFINITY : score(t, s);
        top = std::max(top, logits[static_cast<std::size_t>(i)]);
    }
    long double sum = 0;
    for (long double &l : logits) {
        l = std::isinf(l) ? 0.0L : expl(l - top);
        sum += l;
    }
    std::vector<double> out(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = static_cast<double>(logits[i] / sum);
    return out;
}

// θ_i = base^(−2i/d), i < d/2: the sinusoids' w_i and RoPE's θ_i.
std::vector<long double> plainTheta(double base, int d)
{
    std::vector<long double> theta(static_cast<std::size_t>(d / 2));
    for (int i = 0; i < d / 2; ++i)
        theta[static_cast<std::size_t>(i)] = std::pow(base, -2.0 * i / d); // the core's θ, to the bit
    return theta;
}

// PE(t)·PE(s)/√d for the sinusoids with the pair exponent: Σ_i cos((t − s)·w_i)/√d.
Score sinusoidalScore(double base, int d)
{
    return [theta = plainTheta(base, d), d](std::int64_t t, std::int64_t s) {
        long double sum = 0;
        for (long double w : theta)
            sum += cosl(static_cast<long double>(t - s) * w);
        return sum / sqrtl(d);
    };
}

// RoPE's score (R_t q)·(R_s k)/√d times factor² (YaRN's on cos and sin of both), written out: each
// pair (c, s) of q turned by t·θ_i as Meta's freqs_cis turns q[2i] + i·q[2i+1], of k by s·θ_i.
Score ropeScore(const std::vector<long double> &theta, const std::vector<double> &q, const std::vector<double> &k,
                long double factor = 1)
{
    return [=](std::int64_t t, std::int64_t s) {
        const auto turned = [&](const std::vector<double> &v, std::int64_t at, std::size_t i) {
            const long double a = static_cast<long double>(at) * theta[i];
            const long double re = v[2 * i], im = v[2 * i + 1];
            return std::pair{re * cosl(a) - im * sinl(a), re * sinl(a) + im * cosl(a)};
        };
        long double sum = 0;
        for (std::size_t i = 0; i < theta.size(); ++i) {
            const auto [qr, qi] = turned(q, t, i);
            const auto [kr, ki] = turned(k, s, i);
            sum += qr * kr + qi * ki;
        }
        return factor * factor * sum / sqrtl(static_cast<long double>(q.size()));
    };
}

QString titleOf(const PlotView *view)
{
    return view->plot()->findChild<QCPTextElement *>()->text().replace(QLatin1Char('\n'), QLatin1Char(' '));
}

// The orange row's name in a legend the figure shows (--compare's key, or the other layer's), or
// empty when no visible legend names it.
QString orangeKey(const PlotView *view)
{
    QCPGraph *orange = view->plot()->graph(1);
    for (QCPLayoutElement *e : view->plot()->plotLayout()->elements(true))
        if (auto *legend = qobject_cast<QCPLegend *>(e);
            legend && legend->visible() && legend->hasItemWithPlottable(orange) && orange->visible())
            return orange->name();
    return {};
}

} // namespace

class TestAttentionView : public QObject
{
    Q_OBJECT

  private slots:
    void init();
    void cleanup();
    void sinusoidalCellsAreSoftmaxedCosineSums();
    void perIndexExponentCellsAreDotProducts();
    void tableCellsAreItsRowsDotProducts();
    void ropeOnesIsTwiceTheCosineSum();
    void ropeRandomQueryAndKeyTurnAsMetasRope();
    void yarnFactorIsSquaredOnTheScore();
    void dynamicNtkFollowsTheWindowsEnd();
    void alibiIsTheHeadsLinearBias();
    void causalMasksLaterKeys();
    void largeWindowShowsAPageOfCellsAndSaysSo();
    void stepsKeepTheMatrixInPlace();
    void compareDrawsTheOtherScheme();
    void gemmaLayersMaskTheWindowAndDrawEachOther();
    void nopeLayerIsUniformWithItsTemperature();
    void settingsRoundTrip();
    void drawsEverySchemeAndSaysWhenTooLarge();

  private:
    void set(const pe::EncodingParams &p) { QVERIFY(!params_->set(p)); }
    QCPColorMap *map() const { return view_->plot()->findChild<QCPColorMap *>(); }
    // The heatmap's value drawn at query t, key s.
    double cell(std::int64_t t, std::int64_t s) const;
    // Every cell and the whole row t against the expected weights; `what` names the case.
    void checkAgainst(const Score &score, bool causal, const char *what);
    // The row curve's points, by key position: (lowest, highest) drawn there.
    std::map<double, std::pair<double, double>> rowPoints(int graph) const;

    std::unique_ptr<ViewFixture<AttentionView>> fixture_;
    Parameters *params_ = nullptr;
    AttentionView *view_ = nullptr;
};

void TestAttentionView::init()
{
    fixture_ = std::make_unique<ViewFixture<AttentionView>>(QSize(1300, 1000));
    params_ = &fixture_->params;
    view_ = fixture_->view.get();
    QVERIFY(fixture_->exposed());
}

void TestAttentionView::cleanup()
{
    fixture_.reset();
}

double TestAttentionView::cell(std::int64_t t, std::int64_t s) const
{
    // Keys across (the key axis), queries down (the value axis): read where the map draws (s, t).
    int key = -1, value = -1;
    map()->data()->coordToCell(static_cast<double>(s), static_cast<double>(t), &key, &value);
    return map()->data()->cell(key, value);
}

std::map<double, std::pair<double, double>> TestAttentionView::rowPoints(int graph) const
{
    std::map<double, std::pair<double, double>> out;
    for (const QCPGraphData &d : *view_->plot()->graph(graph)->data()) {
        auto [it, fresh] = out.emplace(d.key, std::pair{d.value, d.value});
        it->second.first = std::min(it->second.first, d.value);
        it->second.second = std::max(it->second.second, d.value);
    }
    return out;
}

void TestAttentionView::checkAgainst(const Score &score, bool causal, const char *what)
{
    const pe::EncodingParams &p = params_->values();
    const std::int64_t first = view_->firstCell(), cells = view_->cellCount();
    QVERIFY2(cells >= 2, what);
    // The map's cells are one a position, first .. first + cells - 1 on both axes.
    QCOMPARE(map()->data()->keySize(), static_cast<int>(cells));
    QCOMPARE(map()->data()->valueSize(), static_cast<int>(cells));
    QCOMPARE(map()->data()->keyRange().lower, static_cast<double>(first));
    QCOMPARE(map()->data()->keyRange().upper, static_cast<double>(first + cells - 1));
    for (std::int64_t t = first; t < first + cells; ++t) {
        const std::vector<double> row = softmaxRow(score, t, p.startPos, p.seqLen, causal);
        for (std::int64_t s = first; s < first + cells; ++s) {
            const double shown = cell(t, s);
            if ((causal && s > t) || std::isinf(score(t, s))) { // a score of -∞: outside a sliding window
                QVERIFY2(std::isnan(shown),
                         qPrintable(
                             QStringLiteral("%1: (%2, %3) is not masked").arg(QString::fromUtf8(what)).arg(t).arg(s)));
                continue;
            }
            const double expected = row[static_cast<std::size_t>(s - p.startPos)];
            QVERIFY2(std::abs(shown - expected) <= 1e-12 * std::max(1.0, expected),
                     qPrintable(QStringLiteral("%1: cell (t %2, s %3) shows %4, expected %5")
                                    .arg(QString::fromUtf8(what))
                                    .arg(t)
                                    .arg(s)
                                    .arg(shown, 0, 'g', 17)
                                    .arg(expected, 0, 'g', 17)));
        }
    }
    // The row below: row t over the whole window, one point a key while the keys fit the pixels.
    const std::int64_t t = params_->position();
    const std::vector<double> row = softmaxRow(score, t, p.startPos, p.seqLen, causal);
    const auto points = rowPoints(0);
    QCOMPARE(static_cast<std::int64_t>(points.size()), p.seqLen);
    for (std::int64_t i = 0; i < p.seqLen; ++i) {
        const auto it = points.find(static_cast<double>(p.startPos + i));
        QVERIFY(it != points.end());
        QVERIFY2(it->second.first == it->second.second &&
                     std::abs(it->second.first - row[static_cast<std::size_t>(i)]) <= 1e-12,
                 qPrintable(QStringLiteral("%1: row %2 at s %3 draws %4, expected %5")
                                .arg(QString::fromUtf8(what))
                                .arg(t)
                                .arg(p.startPos + i)
                                .arg(it->second.first, 0, 'g', 17)
                                .arg(row[static_cast<std::size_t>(i)], 0, 'g', 17)));
    }
    // The title names the row's largest weight and where it is.
    const auto best = std::max_element(row.begin(), row.end()) - row.begin();
    const QString said = QStringLiteral("row t = %1: largest weight %2 at s = %3")
                             .arg(t)
                             .arg(row[static_cast<std::size_t>(best)], 0, 'g', 4)
                             .arg(p.startPos + best);
    QVERIFY2(titleOf(view_).contains(said), qPrintable(titleOf(view_) + QStringLiteral(" lacks ") + said));
}

void TestAttentionView::sinusoidalCellsAreSoftmaxedCosineSums()
{
    // Seed 003's attention from positions alone: PE(t)·PE(s) = Σ_i cos((t − s)·w_i), a window that
    // does not start at 0 and a position off its middle.
    set(params(40, 16, 1e4, 100));
    QVERIFY(params_->setPosition(117));
    QCOMPARE(view_->firstCell(), qint64(100));
    QCOMPARE(view_->cellCount(), qint64(40));
    checkAgainst(sinusoidalScore(1e4, 16), false, "sinusoidal");
    // Another start_pos alone moves the window over the same scores per offset.
    set(params(40, 16, 1e4, 300));
    QVERIFY(params_->setPosition(331));
    QCOMPARE(view_->firstCell(), qint64(300));
    checkAgainst(sinusoidalScore(1e4, 16), false, "sinusoidal from 300");
    // A small base turns every pair fast: still Σ cos, a different picture.
    set(params(30, 6, 10));
    checkAgainst(sinusoidalScore(10, 6), false, "sinusoidal, base 10");
    QVERIFY(titleOf(view_).contains(QStringLiteral("softmax over s of PE(t)·PE(s)/√d")));
}

void TestAttentionView::perIndexExponentCellsAreDotProducts()
{
    // Seed 002's per-index exponent is not a function of t − s: the view computes every score. The
    // expected ones here are the dot products of PE(t, j) = sin or cos(t·base^(−j/d)) written out.
    const int d = 9;
    set(params(24, d, 100, 5, pe::Layout::Interleaved, pe::Exponent::Index));
    QVERIFY(params_->setPosition(20));
    const Score score = [d](std::int64_t t, std::int64_t s) {
        long double sum = 0;
        for (int j = 0; j < d; ++j) {
            const double w = std::pow(100.0, -static_cast<double>(j) / d);
            sum += testsupport::referenceValue(t, w, j % 2 == 0) * testsupport::referenceValue(s, w, j % 2 == 0);
        }
        return sum / sqrtl(d);
    };
    checkAgainst(score, false, "per-index exponent");
}

void TestAttentionView::tableCellsAreItsRowsDotProducts()
{
    // A position table: PE(t)·PE(s)/√d over its own rows, whatever they hold.
    const int rows = 30, d = 5;
    std::string bytes = pe::npyHeader({rows, d});
    std::vector<double> values;
    for (int i = 0; i < rows * d; ++i) {
        values.push_back(0.3 * std::sin(0.7 * i * i) + 0.01 * i);
        bytes.append(reinterpret_cast<const char *>(&values.back()), sizeof(double));
    }
    const auto table =
        pe::PositionTable::fromBytes(reinterpret_cast<const unsigned char *>(bytes.data()), bytes.size(), "wpe.npy");
    QVERIFY(table);
    set(pe::tableParams({}, table));
    QCOMPARE(params_->values().seqLen, qint64(rows));
    QVERIFY(params_->setPosition(11));
    checkAgainst(
        [&values](std::int64_t t, std::int64_t s) {
            long double sum = 0;
            for (int j = 0; j < d; ++j)
                sum += static_cast<long double>(values[static_cast<std::size_t>(t * d + j)]) *
                       values[static_cast<std::size_t>(s * d + j)];
            return sum / sqrtl(d);
        },
        false, "position table");
}

void TestAttentionView::ropeOnesIsTwiceTheCosineSum()
{
    // q = k = ones: (R_t q)·(R_s k) = Σ_i 2·cos((t − s)·θ_i), RoFormer 3.4.3's decay.
    pe::EncodingParams p = params(48, 16, 1e4);
    p.scheme = pe::SchemeId::Rope;
    set(p);
    QVERIFY(params_->setPosition(30));
    const std::vector<double> ones(16, 1.0);
    checkAgainst(ropeScore(plainTheta(1e4, 16), ones, ones), false, "RoPE, q = k = ones");
    // The same closed form without the rotation: twice the sinusoids' score.
    const Score twice = [sin = sinusoidalScore(1e4, 16)](std::int64_t t, std::int64_t s) { return 2 * sin(t, s); };
    checkAgainst(twice, false, "RoPE as 2 Σ cos");
    QVERIFY(titleOf(view_).contains(QStringLiteral("q = k = ones")));
}

void TestAttentionView::ropeRandomQueryAndKeyTurnAsMetasRope()
{
    // Random q and k: the score is no longer even in t − s, so a rotation the wrong way round (or
    // q and k swapped) moves the weights. The vectors are the view's seeded ones; the rotation and
    // the dot product are written out here.
    pe::EncodingParams p = params(40, 12, 100);
    p.scheme = pe::SchemeId::Rope;
    set(p);
    QVERIFY(params_->setPosition(25));
    QVERIFY(!view_->applySettings(
        {{QStringLiteral("attentionQk"), QStringLiteral("random")}, {QStringLiteral("attentionSeed"), 7}}));
    QCOMPARE(view_->attentionSettings().qk, pe::QueryKey::Random);
    QCOMPARE(view_->attentionSettings().seed, std::uint64_t(7));
    const std::vector<double> q = pe::queryKeyVector(pe::QueryKey::Random, 12, 7, 0);
    const std::vector<double> k = pe::queryKeyVector(pe::QueryKey::Random, 12, 7, 1);
    QVERIFY(q != k);
    const Score score = ropeScore(plainTheta(100, 12), q, k);
    QVERIFY(std::abs(score(25, 20) - score(25, 30)) > 1e-3); // a test of the direction
    checkAgainst(score, false, "RoPE, random q and k");
    QVERIFY(titleOf(view_).contains(QStringLiteral("Gaussian (seed 7)")));
}

void TestAttentionView::yarnFactorIsSquaredOnTheScore()
{
    // YaRN (transformers' _compute_yarn_parameters): pair i keeps θ_i for i <= floor(dim(β_fast)),
    // θ_i/s from ceil(dim(β_slow)), a linear ramp in i between; cos and sin carry 0.1·ln s + 1,
    // so the score carries its square. Written out for d 16, base 1e4, L 64, s 4.
    const int d = 16;
    pe::EncodingParams p = params(60, d, 1e4);
    p.scheme = pe::SchemeId::Rope;
    p.rope.scaling = pe::RopeScaling::Yarn;
    p.rope.factor = 4;
    p.rope.originalContext = 64;
    set(p);
    QVERIFY(params_->setPosition(33));
    const auto dim = [d](double rotations) {
        return d * std::log(64 / (rotations * 2 * std::numbers::pi)) / (2 * std::log(1e4));
    };
    const double low = std::max(0.0, std::floor(dim(32))), high = std::min(d - 1.0, std::ceil(dim(1)));
    QCOMPARE(low, 0.0);
    QCOMPARE(high, 3.0);
    std::vector<long double> theta = plainTheta(1e4, d);
    for (std::size_t i = 0; i < theta.size(); ++i) {
        const long double kept = 1 - std::clamp((static_cast<double>(i) - low) / (high - low), 0.0, 1.0);
        theta[i] = theta[i] * kept + theta[i] / 4 * (1 - kept);
    }
    const std::vector<double> ones(d, 1.0);
    checkAgainst(ropeScore(theta, ones, ones, 0.1L * logl(4) + 1), false, "YaRN");
}

void TestAttentionView::dynamicNtkFollowsTheWindowsEnd()
{
    // Dynamic NTK's θ depends on start_pos + seq_len: base' = base·(s·len/L − (s − 1))^(d/(d−2)) once
    // len > L. A start_pos step changes θ, so the scores must be recomputed, not moved.
    const int d = 16;
    pe::EncodingParams p = params(40, d, 1e4);
    p.scheme = pe::SchemeId::Rope;
    p.rope.scaling = pe::RopeScaling::DynamicNtk;
    p.rope.factor = 2;
    p.rope.originalContext = 32;
    const std::vector<double> ones(d, 1.0);
    for (std::int64_t start : {0, 20, 200}) {
        p.startPos = start;
        set(p);
        QVERIFY(params_->setPosition(start + 21));
        const double len = static_cast<double>(start + 40);
        const double base = 1e4 * std::pow(2 * len / 32 - 1, d / (d - 2.0));
        checkAgainst(ropeScore(plainTheta(base, d), ones, ones), false,
                     qPrintable(QStringLiteral("dynamic NTK from %1").arg(start)));
    }
    // With the sinusoids compared: RoPE's row follows the window's end too.
    QVERIFY(!view_->applySettings({{QStringLiteral("attentionCompare"), true}}));
    for (std::int64_t start : {0, 60}) {
        p.scheme = pe::SchemeId::Sinusoidal;
        p.startPos = start;
        set(p);
        QVERIFY(params_->setPosition(start + 9));
        const double len = static_cast<double>(start + 40);
        const double base = 1e4 * std::pow(2 * len / 32 - 1, d / (d - 2.0));
        const std::vector<double> row =
            softmaxRow(ropeScore(plainTheta(base, d), ones, ones), start + 9, start, 40, false);
        const auto points = rowPoints(1);
        QCOMPARE(points.size(), std::size_t(40));
        for (std::int64_t s = 0; s < 40; ++s)
            QVERIFY2(std::abs(points.at(static_cast<double>(start + s)).first - row[static_cast<std::size_t>(s)]) <=
                         1e-12,
                     qPrintable(QStringLiteral("compared RoPE from %1 at s = %2").arg(start).arg(start + s)));
    }
}

void TestAttentionView::alibiIsTheHeadsLinearBias()
{
    // ALiBi: softmax of −m_h·|t − s|. Head 10 of 12: get_slopes gives 8 heads 2^(−h), then every
    // other slope of 16 heads, 2^(−0.5), 2^(−1.5), ...: head 10 has 2^(−1.5), not the text's 2^(−80/12).
    pe::EncodingParams p = params(50, 16, 1e4, 10);
    p.scheme = pe::SchemeId::Alibi;
    p.heads = 12;
    p.head = 10;
    set(p);
    QVERIFY(params_->setPosition(31));
    const long double m = powl(2, -1.5L);
    checkAgainst([m](std::int64_t t, std::int64_t s) { return -m * static_cast<long double>(std::llabs(t - s)); },
                 false, "ALiBi head 10 of 12");
    QVERIFY2(titleOf(view_).contains(QStringLiteral("head 10 of 12, m = 0.353553")), qPrintable(titleOf(view_)));
    // Head 3 of 8: 2^(−3).
    p.heads = 8;
    p.head = 3;
    set(p);
    checkAgainst([](std::int64_t t, std::int64_t s) { return -0.125L * static_cast<long double>(std::llabs(t - s)); },
                 false, "ALiBi head 3 of 8");
}

void TestAttentionView::causalMasksLaterKeys()
{
    // A decoder's mask: t sees s <= t only, its weights softmaxed over those; later keys are grey
    // (NaN) cells and zeros on the row.
    set(params(30, 16, 1e4));
    QVERIFY(params_->setPosition(12));
    QVERIFY(!view_->applySettings({{QStringLiteral("attentionCausal"), true}}));
    checkAgainst(sinusoidalScore(1e4, 16), true, "causal sinusoidal");
    const auto points = rowPoints(0);
    for (std::int64_t s = 13; s < 30; ++s)
        QCOMPARE(points.at(static_cast<double>(s)).second, 0.0);
    QVERIFY(titleOf(view_).contains(QStringLiteral("causal: grey keys s > t masked")));
    pe::EncodingParams p = params(30, 16, 1e4);
    p.scheme = pe::SchemeId::Alibi;
    set(p);
    checkAgainst([](std::int64_t t, std::int64_t s) { return -0.5L * static_cast<long double>(std::llabs(t - s)); },
                 true, "causal ALiBi");
}

void TestAttentionView::largeWindowShowsAPageOfCellsAndSaysSo()
{
    // 3000 positions: the cells are a page of positions that holds t, one a position (never a sample), the
    // title says which; the row is reduced to its envelope per pixel column and says that too.
    const std::int64_t n = 3000, t = 1700;
    set(params(n, 16, 1e4));
    QVERIFY(params_->setPosition(t));
    const std::int64_t cells = view_->cellCount();
    const QRect area = view_->plot()->axisRect()->rect();
    QVERIFY2(cells >= 8 && cells < n && cells <= std::max(8, std::min(area.width(), area.height())),
             qPrintable(QString::number(cells)));
    // The page that holds t, t in its middle half.
    QCOMPARE(view_->firstCell(), testsupport::matrixPageFirst(t, 0, n, cells));
    QVERIFY(t - view_->firstCell() >= cells / 4 && t - view_->firstCell() < cells - cells / 4);
    const Score score = sinusoidalScore(1e4, 16);
    const std::int64_t first = view_->firstCell();
    for (std::int64_t r : {first, t, first + cells - 1}) {
        const std::vector<double> row = softmaxRow(score, r, 0, n, false);
        for (std::int64_t s : {first, t - 1, t + 3, first + cells - 1})
            QVERIFY(std::abs(cell(r, s) - row[static_cast<std::size_t>(s)]) <= 1e-12);
    }
    const QString title = titleOf(view_);
    QVERIFY2(title.contains(QStringLiteral("cells: positions %1–%2 of 0–2999 (the page that holds t), one a position")
                                .arg(first)
                                .arg(first + cells - 1)),
             qPrintable(title));
    // The row: each run of `stride` keys drawn from its lowest to its highest weight.
    const std::vector<double> row = softmaxRow(score, t, 0, n, false);
    const auto points = rowPoints(0);
    QVERIFY(points.size() < static_cast<std::size_t>(n));
    const auto stride = static_cast<std::int64_t>(std::next(points.begin())->first - points.begin()->first);
    QVERIFY(stride > 1);
    QCOMPARE(static_cast<std::int64_t>(points.size()), (n + stride - 1) / stride);
    QVERIFY2(title.contains(QStringLiteral("row: lowest to highest of each %1 keys per pixel column").arg(stride)),
             qPrintable(title));
    for (const auto &[x, range] : points) {
        const auto begin = static_cast<std::size_t>(x);
        QCOMPARE(begin % static_cast<std::size_t>(stride), std::size_t(0));
        const auto end = std::min(row.size(), begin + static_cast<std::size_t>(stride));
        const auto [lo, hi] = std::minmax_element(row.begin() + static_cast<std::ptrdiff_t>(begin),
                                                  row.begin() + static_cast<std::ptrdiff_t>(end));
        QVERIFY(std::abs(range.first - *lo) <= 1e-12 && std::abs(range.second - *hi) <= 1e-12);
    }
    // The peak at s = t survives the reduction.
    QVERIFY(std::abs(std::max_element(points.begin(), points.end(),
                                      [](const auto &a, const auto &b) { return a.second.second < b.second.second; })
                         ->second.second -
                     row[static_cast<std::size_t>(t)]) <= 1e-12);
    // Cells asked for: that many, on pages 10 apart, t in the middle half of its page.
    QVERIFY(!view_->applySettings({{QStringLiteral("attentionCells"), 21}}));
    QCOMPARE(view_->cellCount(), qint64(21));
    QCOMPARE(view_->firstCell(), qint64(1690));
    QVERIFY(titleOf(view_).contains(QStringLiteral("cells: positions 1690–1710 of 0–2999")));
    QVERIFY(params_->setPosition(1704));
    QCOMPARE(view_->firstCell(), qint64(1690));
    QVERIFY(params_->setPosition(1705));
    QCOMPARE(view_->firstCell(), qint64(1700));
    QVERIFY(params_->setPosition(1694));
    QCOMPARE(view_->firstCell(), qint64(1680));
    // A step on the page keeps the cells; another base on the same page computes them again.
    const auto cellsAre = [this, n](const Score &expected, const char *what) {
        const std::int64_t from = view_->firstCell(), to = from + view_->cellCount() - 1;
        for (std::int64_t r : {from, params_->position(), to}) {
            const std::vector<double> row = softmaxRow(expected, r, 0, n, false);
            for (std::int64_t s : {from, r, to})
                QVERIFY2(std::abs(cell(r, s) - row[static_cast<std::size_t>(s)]) <= 1e-12, what);
        }
    };
    QVERIFY(params_->setPosition(1685));
    QCOMPARE(view_->firstCell(), qint64(1680));
    cellsAre(score, "stepped on the page");
    set(params(n, 16, 1e3));
    QVERIFY(params_->setPosition(1685));
    QCOMPARE(view_->firstCell(), qint64(1680));
    cellsAre(sinusoidalScore(1e3, 16), "base 1000 on the same page");
    set(params(n, 16, 1e4));
    // At the window's end the cells stop at its last position.
    QVERIFY(params_->setPosition(n - 1));
    QCOMPARE(view_->firstCell(), n - 21);
}

void TestAttentionView::stepsKeepTheMatrixInPlace()
{
    // The row's weight labels change width with t (0.0025, 0.002): the matrix, aligned to them,
    // keeps its left margin over steps (the margin may grow, never shrink: a step sets the
    // matrix's least margin to the margin it has), and a whole rebuild lets it fit again.
    set(params(400, 64, 1e4));
    QVERIFY(params_->setPosition(0));
    QCPAxisRect *matrixRect = view_->plot()->axisRect();
    const int ownLeast = matrixRect->minimumMargins().left();
    int left = matrixRect->rect().left();
    for (std::int64_t t = 1; t <= 12; ++t) {
        QVERIFY(params_->setPosition(t));
        QCoreApplication::processEvents();
        QVERIFY2(matrixRect->rect().left() >= left, qPrintable(QStringLiteral("t = %1").arg(t)));
        left = matrixRect->rect().left();
        QVERIFY(matrixRect->minimumMargins().left() >= matrixRect->margins().left() - 1);
        QVERIFY(matrixRect->minimumMargins().left() > ownLeast);
    }
    set(params(400, 64, 1e3));
    QCOMPARE(matrixRect->minimumMargins().left(), ownLeast);
    // The row's axis title on two lines where one is longer than the row's plot is high.
    const auto rowAxis = [this] {
        for (QCPAxisRect *rect : view_->plot()->axisRects())
            if (rect->axis(QCPAxis::atLeft)->label().startsWith(QStringLiteral("weight in row")))
                return rect->axis(QCPAxis::atLeft);
        return static_cast<QCPAxis *>(nullptr);
    };
    // Lecture mode's type (2.4 times) on a figure less than twice as wide as tall (the row under
    // the matrix): the title is longer than the row's plot is high.
    for (const bool lecture : {false, true}) {
        view_->setLectureMode(lecture);
        set(params(400, 64, lecture ? 1e2 : 1e3));
        QCPAxis *y = rowAxis();
        QVERIFY(y);
        const QString line = QStringLiteral("weight in row t = %1").arg(params_->position());
        const bool fits = QFontMetrics(y->labelFont()).horizontalAdvance(line) <= y->axisRect()->height();
        QCOMPARE(fits, !lecture); // both cases met
        QCOMPARE(y->label(), fits ? line : QStringLiteral("weight in row\nt = %1").arg(params_->position()));
    }
    view_->setLectureMode(false);
}

void TestAttentionView::compareDrawsTheOtherScheme()
{
    // --compare: the sinusoids' row beside RoPE's (q = k = ones) with the same d and base, and back.
    set(params(40, 16, 1e4));
    QVERIFY(params_->setPosition(15));
    QVERIFY(!view_->plot()->graph(1)->visible());
    QVERIFY(!view_->applySettings({{QStringLiteral("attentionCompare"), true}}));
    QVERIFY(view_->plot()->graph(1)->visible());
    const std::vector<double> ones(16, 1.0);
    const auto check = [&](const Score &score, const char *what) {
        const std::vector<double> row = softmaxRow(score, 15, 0, 40, false);
        const auto points = rowPoints(1);
        QCOMPARE(points.size(), std::size_t(40));
        for (std::size_t s = 0; s < 40; ++s)
            QVERIFY2(std::abs(points.at(static_cast<double>(s)).first - row[s]) <= 1e-12,
                     qPrintable(QStringLiteral("%1 at s = %2").arg(QString::fromUtf8(what)).arg(s)));
    };
    check(ropeScore(plainTheta(1e4, 16), ones, ones), "RoPE beside the sinusoids");
    QCOMPARE(orangeKey(view_), QStringLiteral("RoPE, same d and base"));
    pe::EncodingParams p = params(40, 16, 1e4);
    p.scheme = pe::SchemeId::Rope;
    set(p);
    check(sinusoidalScore(1e4, 16), "the sinusoids beside RoPE");
    QCOMPARE(orangeKey(view_), QStringLiteral("sinusoidal, same d and base"));
    checkAgainst(ropeScore(plainTheta(1e4, 16), ones, ones), false, "RoPE with the comparison");
    // ALiBi has no other scheme to compare.
    p.scheme = pe::SchemeId::Alibi;
    set(p);
    QVERIFY(!view_->plot()->graph(1)->visible());
}

void TestAttentionView::gemmaLayersMaskTheWindowAndDrawEachOther()
{
    // Gemma's two kinds of layer: global (base 1e4, linear x8), local (base 100, unscaled) seeing
    // t - 5 < s <= t. The heatmap is the chosen kind's, the orange row the other's.
    pe::EncodingParams p = params(40, 16, 1e4);
    p.scheme = pe::SchemeId::Rope;
    p.rope.scaling = pe::RopeScaling::Linear;
    p.rope.factor = 8;
    p.localBase = 100;
    p.slidingWindow = 5;
    set(p);
    QVERIFY(params_->setPosition(20));
    const std::vector<double> ones(16, 1.0);
    std::vector<long double> scaled = plainTheta(1e4, 16);
    for (long double &th : scaled)
        th = static_cast<long double>(static_cast<double>(th) / 8); // the core's θ/s, to the bit
    const Score global = ropeScore(scaled, ones, ones);
    const Score plainLocal = ropeScore(plainTheta(100, 16), ones, ones);
    const Score local = [plainLocal](std::int64_t t, std::int64_t s) {
        return t - s >= 5 || s - t >= 5 ? -std::numeric_limits<long double>::infinity() : plainLocal(t, s);
    };
    const auto orangeRow = [&](const Score &score, bool causal, const char *what) {
        QVERIFY(view_->plot()->graph(1)->visible());
        const std::vector<double> row = softmaxRow(score, 20, 0, 40, causal);
        const auto points = rowPoints(1);
        QCOMPARE(points.size(), std::size_t(40));
        for (std::size_t s = 0; s < 40; ++s)
            QVERIFY2(std::abs(points.at(static_cast<double>(s)).first - row[s]) <= 1e-12,
                     qPrintable(QStringLiteral("%1 at s = %2").arg(QString::fromUtf8(what)).arg(s)));
    };
    QVERIFY(!view_->applySettings({{QStringLiteral("attentionCausal"), true}}));
    checkAgainst(global, true, "a global layer");
    orangeRow(local, true, "the local layer's row beside");
    QVERIFY2(orangeKey(view_).contains(QStringLiteral("a local layer: base 100, no scaling, window 5")),
             qPrintable(orangeKey(view_)));
    QVERIFY(!view_->applySettings({{QStringLiteral("attentionLayer"), QStringLiteral("local")}}));
    checkAgainst(local, true, "a local layer, causal");
    orangeRow(global, true, "the global layer's row beside");
    QVERIFY2(titleOf(view_).contains(QStringLiteral("sliding window: t sees t − 5 < s ≤ t, grey keys masked")),
             qPrintable(titleOf(view_)));
    QVERIFY(orangeKey(view_).contains(QStringLiteral("a global layer: linear ×8")));
    // Both sides of t without the causal mask.
    QVERIFY(!view_->applySettings({{QStringLiteral("attentionCausal"), false}}));
    checkAgainst(local, false, "a local layer, both sides");
    // The export is the chosen kind's matrix.
    const pe::Table table = pe::attentionTable(params_->encoding(), view_->attentionSettings());
    std::vector<double> values(static_cast<std::size_t>(table.rows * table.cols));
    table.fill(0, table.rows, values.data());
    const std::vector<double> row = softmaxRow(local, 20, 0, 40, false);
    for (std::size_t s = 0; s < 40; ++s)
        QVERIFY(std::abs(values[20 * 40 + s] - row[s]) <= 1e-12);
    // Without local layers the chooser is off and the compare box is the sinusoids' again.
    p.localBase = 0;
    p.slidingWindow = 0;
    set(p);
    QVERIFY(!view_->findChild<QComboBox *>(QStringLiteral("attentionLayer"))->isEnabled());
    QVERIFY(view_->findChild<QCheckBox *>(QStringLiteral("attentionCompare"))->isEnabled());
}

void TestAttentionView::nopeLayerIsUniformWithItsTemperature()
{
    // Llama 4: a NoPE layer's heatmap and row weigh each key seen the same; the RoPE layer's row in
    // orange; the temperature's panel at every position of the window, gone with the NoPE layers.
    pe::EncodingParams p = params(40, 16, 1e4);
    p.scheme = pe::SchemeId::Rope;
    p.nopeInterval = 4;
    p.floorScale = 8;
    p.attnScale = 0.5;
    set(p);
    QVERIFY(params_->setPosition(20));
    QVERIFY(!view_->applySettings(
        {{QStringLiteral("attentionLayer"), QStringLiteral("nope")}, {QStringLiteral("attentionCausal"), true}}));
    checkAgainst([](std::int64_t, std::int64_t) { return 0.0L; }, true, "a NoPE layer");
    const std::vector<double> ones(16, 1.0);
    const std::vector<double> row = softmaxRow(ropeScore(plainTheta(1e4, 16), ones, ones), 20, 0, 40, true);
    const auto points = rowPoints(1);
    for (std::size_t s = 0; s < 40; ++s)
        QVERIFY(std::abs(points.at(static_cast<double>(s)).first - row[s]) <= 1e-12);
    const QString title = titleOf(view_);
    QVERIFY2(title.contains(QStringLiteral("no position enters the score")) &&
                 orangeKey(view_).startsWith(QStringLiteral("a global layer")) &&
                 title.contains(QStringLiteral("= %1 at t = 20").arg(1 + 0.5 * std::log(3.0), 0, 'g', 6)),
             qPrintable(title));
    QCPGraph *tau = view_->plot()->graph(2);
    QVERIFY(tau->keyAxis()->axisRect()->visible());
    QCOMPARE(tau->dataCount(), 40);
    for (const QCPGraphData &d : *tau->data())
        QCOMPARE(d.value, 1 + 0.5 * std::log1p(std::floor((d.key + 1) / 8)));
    p.nopeInterval = 0;
    set(p);
    QVERIFY(!tau->keyAxis()->axisRect()->visible());
    QVERIFY(tau->data()->isEmpty());
}

void TestAttentionView::settingsRoundTrip()
{
    pe::EncodingParams p = params(64, 16, 1e4);
    p.scheme = pe::SchemeId::Rope;
    set(p);
    const QJsonObject asked{{QStringLiteral("attentionQk"), QStringLiteral("random")},
                            {QStringLiteral("attentionSeed"), 123},
                            {QStringLiteral("attentionCausal"), true},
                            {QStringLiteral("attentionCells"), 31},
                            {QStringLiteral("attentionCompare"), true},
                            {QStringLiteral("markers"), QStringLiteral("3, 40")}};
    QVERIFY(!view_->applySettings(asked));
    const QJsonObject saved = view_->settings();
    for (auto it = asked.begin(); it != asked.end(); ++it)
        QVERIFY2(saved.value(it.key()) == it.value(), qPrintable(it.key()));
    const pe::AttentionSettings s = view_->attentionSettings();
    QCOMPARE(s.qk, pe::QueryKey::Random);
    QCOMPARE(s.seed, std::uint64_t(123));
    QVERIFY(s.causal);
    QCOMPARE(view_->cellCount(), qint64(31));
    // A second view given the first's settings has the same settings and draws the same cells.
    ViewFixture<AttentionView> other(QSize(1300, 1000));
    QVERIFY(other.exposed());
    QVERIFY(!other.params.set(p));
    QVERIFY(!other.view->applySettings(saved));
    QCOMPARE(other.view->settings(), saved);
    QCOMPARE(other.view->attentionSettings(), s);
    auto *otherMap = other.view->plot()->findChild<QCPColorMap *>();
    for (int r = 0; r < 31; r += 5)
        for (int c = 0; c <= r; c += 3)
            QCOMPARE(otherMap->data()->cell(c, r), map()->data()->cell(c, r));
    // A value out of range is refused with the setting's name, and nothing is applied.
    const std::optional<QString> problem =
        view_->applySettings({{QStringLiteral("attentionCells"), 5000}, {QStringLiteral("attentionCausal"), false}});
    QVERIFY(problem);
    QVERIFY2(problem->contains(QStringLiteral("attentionCells")), qPrintable(*problem));
    QCOMPARE(view_->settings(), saved);
    QVERIFY(view_->applySettings({{QStringLiteral("attentionQk"), QStringLiteral("gaussian")}}));
    QCOMPARE(view_->settings(), saved);
}

void TestAttentionView::drawsEverySchemeAndSaysWhenTooLarge()
{
    // The view draws every scheme, ALiBi included (which the views of vectors refuse).
    auto *notice = view_->findChild<QLabel *>(QStringLiteral("schemeNotice"));
    QVERIFY(notice);
    for (pe::SchemeId scheme : {pe::SchemeId::Sinusoidal, pe::SchemeId::Rope, pe::SchemeId::Alibi}) {
        pe::EncodingParams p = params(20, 8, 1e4);
        p.scheme = scheme;
        set(p);
        QVERIFY(view_->info().schemeProblem(p).isEmpty());
        QVERIFY(!notice->isVisible());
        QVERIFY(view_->plot()->isVisible());
        QCOMPARE(view_->cellCount(), qint64(20));
    }
    const std::vector<pe::SchemeId> all{pe::SchemeId::Sinusoidal, pe::SchemeId::Rope, pe::SchemeId::Alibi,
                                        pe::SchemeId::T5, pe::SchemeId::Table};
    QCOMPARE(view_->info().schemes, all); // a position table's too
    // T5 without its learned table: no cells, and the title says what it needs.
    pe::EncodingParams t5 = params(20, 8, 1e4);
    t5.scheme = pe::SchemeId::T5;
    set(t5);
    QCOMPARE(view_->cellCount(), qint64(0));
    QVERIFY2(titleOf(view_).contains(QStringLiteral("give --bias-table FILE")), qPrintable(titleOf(view_)));
    // What it cannot compute it says in a sentence, with no cells: 5000 positions of the per-index
    // exponent are 5000² scores.
    set(params(5000, 16, 1e4, 0, pe::Layout::Interleaved, pe::Exponent::Index));
    QCOMPARE(view_->cellCount(), qint64(0));
    QVERIFY2(titleOf(view_).contains(QStringLiteral("all N x N scores are computed: at most 4,096 positions")),
             qPrintable(titleOf(view_)));
    QCOMPARE(view_->cannotDraw(), QString::fromStdString(pe::PositionalAttention::tooLarge(params_->values())));
    // and draws again once it can.
    set(params(2000, 16, 1e4, 0, pe::Layout::Interleaved, pe::Exponent::Index));
    QVERIFY(view_->cellCount() > 0);
    QVERIFY(view_->cannotDraw().isEmpty());
}

QTEST_MAIN(TestAttentionView)
#include "tst_attention_view.moc"

// The ALiBi view: the bias cells against −m·|t − s|, the slopes against 2^(−8h/H) and, for a
// number of heads that is not a power of two, against the reference get_slopes' interleaving
// written out here; its title, settings and schemes.
#include "state/parameters.h"
#include "test_support.h"
#include "view_fixture.h"
#include "views/alibi_view.h"

#include <qcustomplot.h>

#include <QLabel>
#include <QTest>

#include <algorithm>
#include <cmath>

using testsupport::params;

namespace {

QString titleOf(const PlotView *view)
{
    return view->plot()->findChild<QCPTextElement *>()->text().replace(QLatin1Char('\n'), QLatin1Char(' '));
}

pe::EncodingParams alibi(std::int64_t n, int heads, int head, std::int64_t start = 0)
{
    pe::EncodingParams p = params(n, 64, 1e4, start);
    p.scheme = pe::SchemeId::Alibi;
    p.heads = heads;
    p.head = head;
    return p;
}

// ofirpress/attention_with_linear_biases' get_slopes(12), by hand: get_slopes_power_of_2(8) is
// 2^(−1) .. 2^(−8); then get_slopes(16)[0::2][:4], from 2^(−0.5·k) for k = 1..16, is k = 1, 3, 5, 7.
const double kTwelve[12] = {0.5,
                            0.25,
                            0.125,
                            0.0625,
                            0.03125,
                            0.015625,
                            0.0078125,
                            0.00390625,
                            0.70710678118654752,   // 2^(−0.5)
                            0.35355339059327376,   // 2^(−1.5)
                            0.17677669529663688,   // 2^(−2.5)
                            0.088388347648318441}; // 2^(−3.5)

} // namespace

class TestAlibiView : public QObject
{
    Q_OBJECT

  private slots:
    void init();
    void cleanup();
    void biasCellsAreMinusSlopeTimesDistance();
    void powerOfTwoSlopesAreTheTextsFormula();
    void twelveHeadsFollowGetSlopes();
    void largeWindowShowsAPageOfCellsAndSaysSo();
    void slidingWindowDrawsAsAFreshView();
    void settingsRoundTrip();
    void refusesSchemesWithVectors();

  private:
    void set(const pe::EncodingParams &p) { QVERIFY(!params_->set(p)); }
    QCPColorMap *map() const { return view_->plot()->findChild<QCPColorMap *>(); }
    double cell(std::int64_t t, std::int64_t s) const;
    void checkCells(double m, const char *what);

    std::unique_ptr<ViewFixture<AlibiView>> fixture_;
    Parameters *params_ = nullptr;
    AlibiView *view_ = nullptr;
};

void TestAlibiView::init()
{
    fixture_ = std::make_unique<ViewFixture<AlibiView>>(QSize(1300, 900));
    params_ = &fixture_->params;
    view_ = fixture_->view.get();
    QVERIFY(fixture_->exposed());
}

void TestAlibiView::cleanup()
{
    fixture_.reset();
}

double TestAlibiView::cell(std::int64_t t, std::int64_t s) const
{
    int key = -1, value = -1; // keys across, queries down
    map()->data()->coordToCell(static_cast<double>(s), static_cast<double>(t), &key, &value);
    return map()->data()->cell(key, value);
}

void TestAlibiView::checkCells(double m, const char *what)
{
    // Every cell of the map is at a position of the window and holds −m·|t − s|.
    QCPColorMapData *data = map()->data();
    const int cells = data->keySize();
    QVERIFY2(cells >= 2 && data->valueSize() == cells, what);
    const double first = data->keyRange().lower;
    QCOMPARE(data->keyRange().upper, first + cells - 1);
    QCOMPARE(data->valueRange(), data->keyRange());
    for (int c = 0; c < cells; ++c)
        for (int r = 0; r < cells; ++r) {
            const double expected = -m * std::abs(static_cast<double>(r - c));
            QVERIFY2(std::abs(data->cell(c, r) - expected) <= 1e-15 * (1 + std::abs(expected)),
                     qPrintable(QStringLiteral("%1: cell (t %2, s %3) shows %4, expected %5")
                                    .arg(QString::fromUtf8(what))
                                    .arg(first + r)
                                    .arg(first + c)
                                    .arg(data->cell(c, r))
                                    .arg(expected)));
        }
    // The colours span the bias shown: 0 on the diagonal to the farthest pair of cells.
    QCOMPARE(map()->dataRange().upper, 0.0);
    QVERIFY(std::abs(map()->dataRange().lower + m * (cells - 1)) <= 1e-12);
}

void TestAlibiView::biasCellsAreMinusSlopeTimesDistance()
{
    set(alibi(40, 8, 3, 100));
    QVERIFY(params_->setPosition(121));
    checkCells(0.125, "head 3 of 8");                 // 2^(−8·3/8)
    QCOMPARE(map()->data()->keyRange().lower, 100.0); // the whole window, a cell a position
    QCOMPARE(cell(121, 100), -0.125 * 21);
    QVERIFY2(titleOf(view_).contains(QStringLiteral("head 3 of 8 adds −m·|t − s| to its scores, m = 0.125")),
             qPrintable(titleOf(view_)));
    // The current head and row are marked.
    const auto lines = view_->plot()->findChildren<QCPItemStraightLine *>();
    bool headMarked = false, rowMarked = false;
    for (QCPItemStraightLine *l : lines) {
        const QPointF a = l->point1->coords(), b = l->point2->coords();
        headMarked |= a.x() == 3 && b.x() == 3;
        rowMarked |= a.y() == 121 && b.y() == 121;
    }
    QVERIFY(headMarked && rowMarked);
}

void TestAlibiView::powerOfTwoSlopesAreTheTextsFormula()
{
    for (int heads : {1, 2, 8, 16, 32}) {
        set(alibi(20, heads, heads));
        QCPGraph *code = view_->plot()->graph(1);
        QCOMPARE(code->dataCount(), heads);
        for (int h = 1; h <= heads; ++h) {
            QCOMPARE(code->data()->at(h - 1)->key, double(h));
            QCOMPARE(code->data()->at(h - 1)->value, std::exp2(-8.0 * h / heads));
        }
        QVERIFY(!view_->plot()->graph(0)->visible()); // no second series where they agree
        QVERIFY2(titleOf(view_).contains(QStringLiteral("2^(−8h/H) for H = %1, a power of two").arg(heads)),
                 qPrintable(titleOf(view_)));
        checkCells(std::exp2(-8.0), QStringLiteral("head %1 of %1").arg(heads).toUtf8().constData());
    }
}

void TestAlibiView::twelveHeadsFollowGetSlopes()
{
    // Twelve heads: the code's slopes (filled) are the reference's interleaving, the paper's text
    // (hollow) 2^(−8h/12) beside them, and the title says which is which.
    set(alibi(30, 12, 10));
    QCPGraph *code = view_->plot()->graph(1), *paper = view_->plot()->graph(0);
    QCOMPARE(code->dataCount(), 12);
    QCOMPARE(paper->dataCount(), 12);
    QVERIFY(paper->visible());
    for (int h = 1; h <= 12; ++h) {
        QCOMPARE(code->data()->at(h - 1)->key, double(h));
        QVERIFY2(std::abs(code->data()->at(h - 1)->value - kTwelve[h - 1]) <= 1e-16,
                 qPrintable(QStringLiteral("head %1: %2").arg(h).arg(code->data()->at(h - 1)->value, 0, 'g', 17)));
        QCOMPARE(paper->data()->at(h - 1)->value, std::exp2(-8.0 * h / 12));
    }
    // They differ from head 1: 2^(−2/3) against the code's 2^(−1).
    QVERIFY(std::abs(paper->data()->at(0)->value - code->data()->at(0)->value) > 0.1);
    const QString title = titleOf(view_);
    QVERIFY2(title.contains(QStringLiteral("head 10 of 12 adds −m·|t − s| to its scores, m = 0.353553")),
             qPrintable(title));
    QVERIFY(title.contains(QStringLiteral("H = 12 is not a power of two: get_slopes takes the slopes of 8 heads, "
                                          "then every other of 16")));
    checkCells(kTwelve[9], "head 10 of 12");
    // Every head's cells follow its own slope.
    for (int h : {1, 8, 9, 12}) {
        set(alibi(30, 12, h));
        checkCells(kTwelve[h - 1], qPrintable(QStringLiteral("head %1 of 12").arg(h)));
    }
    // Six heads: 4 of 2^(−2h), then 2^(−1), 2^(−3) from 8 heads.
    set(alibi(30, 6, 5));
    const double six[6] = {0.25, 0.0625, 0.015625, 0.00390625, 0.5, 0.125};
    for (int h = 1; h <= 6; ++h)
        QCOMPARE(view_->plot()->graph(1)->data()->at(h - 1)->value, six[h - 1]);
    checkCells(0.5, "head 5 of 6");
}

void TestAlibiView::largeWindowShowsAPageOfCellsAndSaysSo()
{
    set(alibi(5000, 8, 2));
    QVERIFY(params_->setPosition(2500));
    QCPColorMapData *data = map()->data();
    const int cells = data->keySize();
    const QRect area = view_->plot()->axisRect()->rect();
    QVERIFY(cells >= 8 && cells < 5000 && cells <= std::max(8, std::min(area.width(), area.height())));
    const auto first = static_cast<std::int64_t>(data->keyRange().lower);
    // The page that holds t, t in its middle half.
    QCOMPARE(first, testsupport::matrixPageFirst(2500, 0, 5000, cells));
    QVERIFY2(2500 - first >= cells / 4 && 2500 - first < cells - cells / 4, qPrintable(QString::number(first)));
    checkCells(0.25, "5000 positions"); // 2^(−8·2/8)
    QCOMPARE(cell(2500, first), -0.25 * static_cast<double>(2500 - first));
    QVERIFY2(titleOf(view_).contains(
                 QStringLiteral("cells: positions %1–%2 of 0–4999 (the page that holds t), one a position")
                     .arg(first)
                     .arg(first + cells - 1)),
             qPrintable(titleOf(view_)));
    QVERIFY(!view_->applySettings({{QStringLiteral("alibiCells"), 11}}));
    QCOMPARE(map()->data()->keySize(), 11);
    QCOMPARE(map()->data()->keyRange().lower, 2495.0);
    checkCells(0.25, "11 cells");
    // A window that fits says nothing of cells.
    set(alibi(11, 8, 2));
    QVERIFY(!titleOf(view_).contains(QStringLiteral("cells:")));
}

void TestAlibiView::slidingWindowDrawsAsAFreshView()
{
    // A position step on the page moves the row line; to another page it shows the same cells (a
    // bias of the offset alone): the map keeps its colours and moves (PositionMatrix::fillByOffset). The figure must be
    // the one a view opened at that position draws, and a new slope must still colour the cells again. A fixed count of
    // cells: 'fit' counts them from the plot's last layout, whose tick labels depend on the window the view came from.
    set(alibi(5000, 8, 2));
    QVERIFY(!view_->applySettings({{QStringLiteral("alibiCells"), 301}}));
    QVERIFY(params_->setPosition(2500));
    for (const std::int64_t t : {2501, 2400, 4999, 2600}) {
        QVERIFY(params_->setPosition(t));
        const int cells = map()->data()->keySize();
        QCOMPARE(cells, 301);
        QCOMPARE(static_cast<std::int64_t>(map()->data()->keyRange().lower),
                 testsupport::matrixPageFirst(t, 0, 5000, cells));
        checkCells(0.25, qPrintable(QStringLiteral("stepped to %1").arg(t)));
        ViewFixture<AlibiView> fresh(QSize(1300, 900));
        QVERIFY(fresh.exposed());
        // Opened at t, then given its cells: one whole fill at t.
        QVERIFY(!fresh.params.set(alibi(5000, 8, 2)));
        QVERIFY(fresh.params.setPosition(t));
        QVERIFY(!fresh.view->applySettings({{QStringLiteral("alibiCells"), 301}}));
        // Pixels compared (QImage's == also compares how each pixmap was last painted: its format).
        QCOMPARE(view_->plot()->toPixmap().toImage().convertToFormat(QImage::Format_RGB32),
                 fresh.view->plot()->toPixmap().toImage().convertToFormat(QImage::Format_RGB32));
    }
    // Another head at the same position: other cells.
    set(alibi(5000, 8, 4));
    checkCells(0.0625, "head 4, after the steps");
}

void TestAlibiView::settingsRoundTrip()
{
    set(alibi(300, 8, 1));
    QVERIFY(!view_->applySettings({{QStringLiteral("alibiCells"), 25}}));
    const QJsonObject saved = view_->settings();
    QCOMPARE(saved.value(QStringLiteral("alibiCells")).toInt(), 25);
    ViewFixture<AlibiView> other(QSize(1000, 700));
    QVERIFY(other.exposed());
    QVERIFY(!other.params.set(alibi(300, 8, 1)));
    QVERIFY(!other.view->applySettings(saved));
    QCOMPARE(other.view->settings(), saved);
    QCOMPARE(other.view->plot()->findChild<QCPColorMap *>()->data()->keySize(), 25);
    // Refused: past the most cells, or not a number; nothing applied.
    const std::optional<QString> problem = view_->applySettings({{QStringLiteral("alibiCells"), 100000}});
    QVERIFY(problem && problem->contains(QStringLiteral("alibiCells")));
    QVERIFY(view_->applySettings({{QStringLiteral("alibiCells"), QStringLiteral("many")}}));
    QCOMPARE(view_->settings(), saved);
    // 0 is 'fit': as many cells as the pixels hold again.
    QVERIFY(!view_->applySettings({{QStringLiteral("alibiCells"), 0}}));
    QVERIFY(map()->data()->keySize() > 25);
}

void TestAlibiView::refusesSchemesWithVectors()
{
    // ALiBi only: under the sinusoids or RoPE the view says which scheme it shows, in place of a
    // figure, and how to choose it.
    QVERIFY(verifySchemeRefused(view_, params_, {pe::SchemeId::Sinusoidal, pe::SchemeId::Rope},
                                QStringLiteral("The ALiBi view shows the alibi scheme: choose it (--scheme alibi).")));
    auto *notice = view_->findChild<QLabel *>(QStringLiteral("schemeNotice"));
    set(alibi(50, 8, 1));
    QVERIFY(view_->info().schemeProblem(params_->values()).isEmpty());
    QVERIFY(!notice->isVisible());
    QVERIFY(view_->plot()->isVisible());
    checkCells(0.5, "back to ALiBi");
}

QTEST_MAIN(TestAlibiView)
#include "tst_alibi_view.moc"

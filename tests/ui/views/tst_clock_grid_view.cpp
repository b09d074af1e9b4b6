#include "analysis/clock.h"
#include "state/parameters.h"
#include "test_support.h"
#include "view_fixture.h"
#include "views/clock_grid_view.h"

#include <qcustomplot.h>

#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>

#include <numbers>

class TestClockGridView : public QObject
{
    Q_OBJECT

  private slots:
    void init();
    void cleanup();
    void seed002Grid();
    void handsAtTrueAngles();
    void facesAreRound();
    void pageFollowsPosition();
    void boundedAtMaximumSizes();
    void positionMoveIsCheap();
    void tooltipShowsAngle();
    void handsStayInsideTheFaces();
    void pairChoiceSpreadsFastestLists();
    void gridIsCentred();
    void noHandWithoutACosineColumn();
    void interpolatedHandsSayHowFarPast();

  private:
    void set(const pe::EncodingParams &p) { QVERIFY(!params_->set(p)); }
    // The hands' points of every row, each row once (the curves below the overlay); and the
    // overlay's, where the current row is drawn again over its band.
    int handPoints(bool overlay = false) const
    {
        int n = 0;
        for (const QCPCurve *curve : view_->plot()->findChildren<QCPCurve *>())
            if ((curve->layer()->name() == QLatin1String("overlay")) == overlay)
                n += curve->dataCount();
        return n;
    }

    std::unique_ptr<ViewFixture<ClockGridView>> fixture_;
    Parameters *params_ = nullptr;
    ClockGridView *view_ = nullptr;
};

void TestClockGridView::init()
{
    fixture_ = std::make_unique<ViewFixture<ClockGridView>>(QSize(1000, 800));
    params_ = &fixture_->params;
    view_ = fixture_->view.get();
    QVERIFY(fixture_->exposed());
}

void TestClockGridView::cleanup()
{
    fixture_.reset();
}

void TestClockGridView::seed002Grid()
{
    // Seed 002: 5 x 5 clock faces, positions 0..4, pairs 0..4 of d = 9, base 100, per-index exponent.
    set(testsupport::params(5, 9, 100, 0, pe::Layout::Interleaved, pe::Exponent::Index));
    view_->setFace(pe::ClockFace::CounterClockwise);
    QCOMPARE(view_->rowCount(), 5);
    QCOMPARE(view_->columnCount(), 5);
    // Seed 002 draws the hand at (cos theta, sin theta) with theta = t / 100^(2j/9).
    for (int t = 0; t < 5; ++t)
        for (int j = 0; j < 5; ++j) {
            const double theta = t / std::pow(100.0, 2.0 * j / 9);
            const QPointF tip = view_->handTip(t, j) - view_->clockCentre(t, j);
            QVERIFY(std::abs(tip.x() / ClockGridView::kHandLength - std::cos(theta)) < 1e-12);
            QVERIFY(std::abs(-tip.y() / ClockGridView::kHandLength - std::sin(theta)) <
                    1e-12); // the y axis points down
        }
}

void TestClockGridView::handsAtTrueAngles()
{
    set(testsupport::params(16, 128, 1e4));
    view_->setShownPairs(64);
    view_->setShownPositions(16);
    QCOMPARE(view_->columnCount(), 64);
    QCOMPARE(view_->rowCount(), 16);
    const pe::Encoding &e = params_->encoding();
    for (int r : {0, 7, 15})
        for (int c : {0, 1, 20, 63}) {
            const QPointF tip = view_->handTip(r, c) - view_->clockCentre(r, c);
            QVERIFY(std::abs(tip.x() / ClockGridView::kHandLength - e.value(r, 2 * c)) < 1e-12);
            QVERIFY(std::abs(-tip.y() / ClockGridView::kHandLength - e.value(r, 2 * c + 1)) < 1e-12);
        }
    // The hands curves (every row, and the current row's on the position layer) hold one segment
    // per clock and nothing else.
    QCOMPARE(handPoints(), 64 * 16 * 3);
    QCOMPARE(handPoints(true), 64 * 3); // the current row again, over the band
}

void TestClockGridView::facesAreRound()
{
    set(testsupport::params(5, 10, 1e4));
    for (QSize size : {QSize(900, 500), QSize(500, 900)}) {
        view_->resize(size);
        view_->plot()->replot(QCustomPlot::rpImmediateRefresh);
        QCPAxis *x = view_->plot()->xAxis2, *y = view_->plot()->yAxis;
        const double w = std::abs(x->coordToPixel(1) - x->coordToPixel(0));
        const double h = std::abs(y->coordToPixel(1) - y->coordToPixel(0));
        QVERIFY2(std::abs(w - h) < 0.5, qPrintable(QStringLiteral("%1 vs %2").arg(w).arg(h)));
    }
    // At export size too.
    const QImage img = view_->render(QSize(1600, 600), 1.0);
    QCOMPARE(img.size(), QSize(1600, 600));
}

void TestClockGridView::pageFollowsPosition()
{
    set(testsupport::params(100, 16, 1e4));
    view_->setShownPositions(10);
    QCOMPARE(view_->firstRowPosition(), 0);
    params_->setPosition(23);
    QCOMPARE(view_->firstRowPosition(), 20);
    params_->setPosition(99);
    QCOMPARE(view_->firstRowPosition(), 90);
    pe::EncodingParams v = params_->values();
    v.seqLen = 95; // the last page is kept full: it ends at the window's end
    set(v);
    QCOMPARE(params_->position(), 94);
    QCOMPARE(view_->firstRowPosition(), 85);
}

void TestClockGridView::boundedAtMaximumSizes()
{
    view_->setShownPairs(0);
    view_->setShownPositions(0);
    set(testsupport::params(1'000'000, 4096, 1e4, 999'000'000));
    QVERIFY(view_->columnCount() <= ClockGridView::kMaxPairs);
    QVERIFY(view_->rowCount() <= ClockGridView::kMaxRows);
    QVERIFY(view_->columnCount() >= 10 && view_->rowCount() >= 10); // fit: as many as fit at 1000 x 800
    QCOMPARE(view_->firstRowPosition(), 999'000'000);
    params_->setPosition(999'999'999);
    QVERIFY(view_->firstRowPosition() + view_->rowCount() - 1 == 999'999'999);
}

void TestClockGridView::positionMoveIsCheap()
{
    // A clicker's step within the page moves the band, and the current row drawn again over it, on
    // the overlay: the rows below hold every row at its own position, so nothing else is drawn
    // again (issue 30: the whole figure took 20 to 34 ms at 3840 x 2160). The picture is the whole
    // figure's. A new page is a whole replot.
    set(testsupport::params(40, 32, 1e4));
    view_->setShownPositions(20);
    QCoreApplication::processEvents();
    QSignalSpy rebuilt(view_, &PlotView::rebuilt);
    QSignalSpy replotted(view_->plot(), &QCustomPlot::afterReplot);
    const QImage before = view_->plot()->grab().toImage();
    params_->setPosition(5);
    QCOMPARE(rebuilt.count(), 1);
    QCOMPARE(view_->firstRowPosition(), 0); // same page: only the band and the row moved
    QCoreApplication::processEvents();
    QCOMPARE(replotted.count(), 0);
    const QImage stepped = view_->plot()->grab().toImage();
    QVERIFY(stepped != before);
    QCOMPARE(handPoints(), 20 * view_->columnCount() * 3);
    QCOMPARE(handPoints(true), view_->columnCount() * 3);
    view_->plot()->replot(QCustomPlot::rpImmediateRefresh);
    QVERIFY(view_->plot()->grab().toImage() == stepped);
    replotted.clear();
    params_->setPosition(25);
    QCOMPARE(view_->firstRowPosition(), 20);
    QTRY_VERIFY(replotted.count() >= 1);
}

void TestClockGridView::tooltipShowsAngle()
{
    set(testsupport::params(10, 8, 1e4));
    view_->plot()->replot(QCustomPlot::rpImmediateRefresh);
    const QPointF at(view_->plot()->xAxis2->coordToPixel(0), view_->plot()->yAxis->coordToPixel(2));
    const QString tip = view_->tooltipAt(at);
    QVERIFY2(tip.contains(QStringLiteral("position t = 2, pair i = 0")), qPrintable(tip));
    QVERIFY(tip.contains(QStringLiteral("≡ 2.0000 rad")));
    QVERIFY(tip.contains(QStringLiteral("PE[t, 1] = cos = -0.416147")));
}

void TestClockGridView::handsStayInsideTheFaces()
{
    // seed002-clocks' rows 3-4 once had hands past the rim, and the projector theme's lecture pens
    // still touched it. The tip plus half the hand's pen must stay inside the face's radius minus
    // half its pen: plain, lecture, projector and both, with large cells and with small ones.
    struct Case {
        pe::EncodingParams params;
        int pairs, rows;
    };
    for (const Case &k : {Case{testsupport::params(5, 9, 100, 0, pe::Layout::Interleaved, pe::Exponent::Index), 0, 0},
                          Case{testsupport::params(200, 256), 64, 32}}) {
        set(k.params);
        view_->setShownPairs(k.pairs);
        view_->setShownPositions(k.rows);
        for (bool projector : {false, true})
            for (bool lecture : {false, true}) {
                qApp->setProperty("projector", projector);
                view_->setLectureMode(lecture);
                view_->refresh();
                view_->plot()->replot(QCustomPlot::rpImmediateRefresh);
                auto *hands = view_->plot()->findChild<QCPCurve *>();
                QCPAxis *x = view_->plot()->xAxis2;
                const double px = std::abs(x->coordToPixel(1) - x->coordToPixel(0)); // pixels per cell
                const double handPen = hands->pen().widthF();
                QCOMPARE(handPen, ClockGridView::handPenWidth((lecture ? 2.5 : 1.0) * (projector ? 1.6 : 1.0), px));
                const double facePen = ClockGridView::facePenWidth((lecture ? 2.5 : 1.0) * (projector ? 1.6 : 1.0), px);
                QVERIFY(handPen >= 0.6); // thin only where the cells are
                for (int r = 0; r < view_->rowCount(); ++r)
                    for (int c = 0; c < view_->columnCount(); ++c) {
                        const QPointF d = view_->handTip(r, c) - view_->clockCentre(r, c);
                        const double tip = std::hypot(d.x(), d.y()) * px + handPen / 2;
                        QVERIFY2(
                            tip + 0.04 * px < 0.42 * px - facePen / 2, // clear of it, not touching
                            qPrintable(QStringLiteral(
                                           "%1 x %2 clocks, projector %3, lecture %4, row %5 col %6: %7 px past %8 px")
                                           .arg(view_->rowCount())
                                           .arg(view_->columnCount())
                                           .arg(projector)
                                           .arg(lecture)
                                           .arg(r)
                                           .arg(c)
                                           .arg(tip)
                                           .arg(0.42 * px - facePen / 2)));
                    }
            }
    }
    qApp->setProperty("projector", false);
    view_->setLectureMode(false);
}

void TestClockGridView::pairChoiceSpreadsFastestLists()
{
    // Issue 12: at 1,000,000 x 4,096 the grid showed 23 of 2,048 pairs, all of wavelength 6.3-6.9.
    set(testsupport::params(1'000'000, 4096, 1e4, 999'000'000));
    const std::vector<int> spread = view_->shownPairs();
    QVERIFY(spread.size() >= 10);
    QCOMPARE(spread.front(), 0);
    QCOMPARE(spread.back(), 2047); // the slowest hand, the hour hand, is there
    for (std::size_t k = 1; k < spread.size(); ++k)
        QVERIFY(spread[k] > spread[k - 1]);
    pe::PairChoice fastest;
    fastest.mode = pe::PairChoice::Mode::Fastest;
    view_->setPairChoice(fastest);
    QCOMPARE(view_->shownPairs().back(), static_cast<int>(view_->shownPairs().size()) - 1);
    std::string error;
    view_->setPairChoice(*pe::parsePairChoice("0,5,31,4000", &error));
    QCOMPARE(view_->shownPairs(), (std::vector<int>{0, 5, 31})); // 4000 does not exist at d 4096
    QCOMPARE(view_->columnCount(), 3);
    // A hand shows the listed pair: column 2 is pair 31.
    const QPointF tip = view_->handTip(0, 2) - view_->clockCentre(0, 2);
    const pe::Point want = pe::handTip(params_->encoding(), view_->firstRowPosition(), 31, pe::ClockFace::Clockwise);
    QVERIFY(std::abs(tip.x() - ClockGridView::kHandLength * want.x) < 1e-12);
}

void TestClockGridView::gridIsCentred()
{
    // A few clocks in a wide view sit in the middle, not against the left edge.
    set(testsupport::params(4, 8, 1e4));
    view_->plot()->replot(QCustomPlot::rpImmediateRefresh);
    QCPAxis *x = view_->plot()->xAxis2;
    const QRect area = view_->plot()->viewport();
    const double left = x->coordToPixel(-0.5) - area.left();
    const double right = area.right() - x->coordToPixel(view_->columnCount() - 0.5);
    QVERIFY(left > 200); // far from the left edge: a wide view with 4 columns of clocks
    // Centred in the figure, but for the row labels' margin on the left.
    QVERIFY2(right > 100 && std::abs(left - right) < 150,
             qPrintable(QStringLiteral("%1 px left, %2 px right").arg(left).arg(right)));
}

void TestClockGridView::noHandWithoutACosineColumn()
{
    // Issue 28: at d_model 1 the one clock drew a hand without a word, though the encoding has no
    // cosine column. The hand stays (the formula's angle t w_0, as seed 002 draws its fifth clock
    // at d 9) and the title and tooltip say the vector keeps only its sine; a table's lone column
    // has no angle, so no hand.
    auto *title = view_->plot()->findChild<QCPTextElement *>();
    set(testsupport::params(20, 1, 1e4));
    view_->setShownPositions(10);
    QCOMPARE(view_->columnCount(), 1);
    QCOMPARE(handPoints(), 10 * 3);
    QVERIFY2(title->text().contains(QStringLiteral("pair 0 sine only, no cosine column (odd d)")),
             qPrintable(title->text()));
    const QPointF centre(view_->plot()->xAxis2->coordToPixel(0), view_->plot()->yAxis->coordToPixel(3));
    QVERIFY2(view_->tooltipAt(centre).contains(QStringLiteral("no cosine column")),
             qPrintable(view_->tooltipAt(centre)));
    // The hand at t = 3 is at the angle 3 w_0 = 3 radians.
    const QPointF tip = view_->handTip(3, 0) - view_->clockCentre(3, 0);
    QVERIFY(std::abs(tip.x() / ClockGridView::kHandLength - std::sin(3.0)) < 1e-12);
    set(testsupport::params(20, 5, 1e4));
    QCOMPARE(view_->columnCount(), 3);
    QCOMPARE(handPoints(), 3 * 10 * 3);
    QVERIFY2(title->text().contains(QStringLiteral("pair 2 sine only, no cosine column")), qPrintable(title->text()));
    set(testsupport::params(20, 6, 1e4));
    QCOMPARE(handPoints(), 3 * 10 * 3);
    QVERIFY2(!title->text().contains(QStringLiteral("no cosine column")), qPrintable(title->text()));
}

void TestClockGridView::interpolatedHandsSayHowFarPast()
{
    // Issue 28: linear x4 from 4,096 at position 16,381 said "11 of 37 hands outside their arcs":
    // true, by a fraction of a degree. The title says how far: the largest angle past an arc.
    pe::EncodingParams p = testsupport::params(16384, 128, 1e4);
    p.scheme = pe::SchemeId::Rope;
    p.rope.scaling = pe::RopeScaling::Linear;
    p.rope.factor = 4;
    p.rope.originalContext = 4096;
    set(p);
    QVERIFY(params_->setPosition(16381));
    auto *title = view_->plot()->findChild<QCPTextElement *>();
    const pe::Encoding &e = params_->encoding();
    double past = 0;
    int outside = 0;
    for (int pair : view_->shownPairs())
        if (pe::outsideTrainedArc(e, 16381, pair)) {
            ++outside;
            past = std::max(past, pe::handAngle(e, 16381, pair) - pe::trainedSweep(e, pair));
        }
    QVERIFY(outside > 0);
    QVERIFY(past * 180 / std::numbers::pi < 0.5); // a fraction of a degree
    const QString expected = QStringLiteral("%1 of %2 hands outside their arcs, at most %3° past")
                                 .arg(outside)
                                 .arg(view_->columnCount())
                                 .arg(QString::number(past * 180 / std::numbers::pi, 'g', 2));
    QVERIFY2(title->text().contains(expected), qPrintable(title->text() + QStringLiteral(" / ") + expected));
    // Without scaling past L the slow hands are tens of degrees out.
    p.rope.scaling = pe::RopeScaling::None;
    p.rope.factor = 1;
    set(p);
    QVERIFY(params_->setPosition(16381));
    static const QRegularExpression most(QStringLiteral("at most ([0-9.]+)° past"));
    const auto m = most.match(title->text());
    QVERIFY2(m.hasMatch() && m.captured(1).toDouble() >= 10, qPrintable(title->text()));
}

QTEST_MAIN(TestClockGridView)
#include "tst_clock_grid_view.moc"

#include "state/parameters.h"
#include "view_fixture.h"
#include "views/frequency_view.h"

#include <qcustomplot.h>

#include <QTest>

#include <cmath>
#include <numbers>

class TestFrequencyView : public QObject
{
    Q_OBJECT

  private slots:
    void init();
    void cleanup();
    void seed000Comparison();
    void currentBaseIsNotDuplicated();
    void wavelengthsMarkCompletedPeriods();
    void pointsBoundedByPixels();
    void invalidComparisonRefused();
    void logScale();
    void tooltip();
    void legendAndTitleInOrder();
    void measuredOverlaysTheFormula();
    void gemmaLocalLayersBeside();

  private:
    void set(std::int64_t n, int d, double base);

    std::unique_ptr<ViewFixture<FrequencyView>> fixture_;
    Parameters *params_ = nullptr;
    FrequencyView *view_ = nullptr;
};

void TestFrequencyView::init()
{
    fixture_ = std::make_unique<ViewFixture<FrequencyView>>(QSize(800, 600));
    params_ = &fixture_->params;
    view_ = fixture_->view.get();
    QVERIFY(fixture_->exposed());
}

void TestFrequencyView::cleanup()
{
    fixture_.reset();
}

void TestFrequencyView::set(std::int64_t n, int d, double base)
{
    pe::EncodingParams v = params_->values();
    v.seqLen = n;
    v.dModel = d;
    v.base = base;
    QVERIFY(!params_->set(v));
}

void TestFrequencyView::seed000Comparison()
{
    set(50, 128, 1e2); // current 1e2: compare with 1e4 and 1e8
    QCustomPlot *p = view_->plot();
    QCOMPARE(p->graphCount(), 3);
    QCPGraph *current = p->graph(2);
    QVERIFY(current->name().contains(QStringLiteral("current")));
    QCOMPARE(current->dataCount(), 64);
    QCOMPARE(current->data()->at(0)->value, 1.0);
    QVERIFY(std::abs(current->data()->at(63)->value - std::pow(100.0, -126.0 / 128)) < 1e-15);
    // The larger the base, the faster the fall (seed 000's figure).
    QVERIFY(p->graph(1)->data()->at(10)->value < p->graph(0)->data()->at(10)->value);
    QVERIFY(p->graph(0)->data()->at(10)->value < current->data()->at(10)->value);
}

void TestFrequencyView::currentBaseIsNotDuplicated()
{
    set(50, 128, 1e4);
    QCOMPARE(view_->plot()->graphCount(), 3); // 1e2, 1e8 and the current 1e4
}

void TestFrequencyView::wavelengthsMarkCompletedPeriods()
{
    set(50, 128, 1e4);
    view_->setQuantity(FrequencyView::Quantity::Wavelength);
    int expected = 0;
    for (int i = 0; i < 64; ++i)
        expected += 2 * M_PI * std::pow(1e4, 2.0 * i / 128) <= 49;
    QCOMPARE(view_->completedPeriods(), expected);
    QVERIFY(expected > 5 && expected < 20);
    QCPGraph *marks = view_->plot()->graph(view_->plot()->graphCount() - 1);
    QCOMPARE(marks->dataCount(), expected);
    QCOMPARE(view_->plot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
}

void TestFrequencyView::pointsBoundedByPixels()
{
    set(50, 4096, 1e4);
    view_->resize(500, 400);
    QCustomPlot *p = view_->plot();
    const int width = p->axisRect()->width();
    for (int g = 0; g < p->graphCount(); ++g)
        QVERIFY2(p->graph(g)->dataCount() <= width, qPrintable(QString::number(p->graph(g)->dataCount())));
    QCOMPARE(p->graph(p->graphCount() - 1)->data()->at(p->graph(p->graphCount() - 1)->dataCount() - 1)->key, 2047.0);
}

void TestFrequencyView::invalidComparisonRefused()
{
    QVERIFY(!view_->setComparisonText(QStringLiteral("1e2, banana")));
    QCOMPARE(view_->comparisonBases(), (std::vector<double>{1e2, 1e4, 1e8}));
    QVERIFY(!view_->setComparisonText(QStringLiteral("0.5")));
    QVERIFY(view_->setComparisonText(QStringLiteral("500000, 1e6")));
    QCOMPARE(view_->comparisonBases(), (std::vector<double>{5e5, 1e6}));
    QCOMPARE(view_->plot()->graphCount(), 3);
}

void TestFrequencyView::logScale()
{
    view_->setLogScale(true);
    QCOMPARE(view_->plot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
    QVERIFY(view_->plot()->yAxis->range().lower > 0);
    view_->setLogScale(false);
    QCOMPARE(view_->plot()->yAxis->scaleType(), QCPAxis::stLinear);
}

void TestFrequencyView::tooltip()
{
    set(50, 128, 1e4);
    view_->plot()->replot(QCustomPlot::rpImmediateRefresh);
    const QPointF at(view_->plot()->xAxis->coordToPixel(1), view_->plot()->axisRect()->center().y());
    const QString tip = view_->tooltipAt(at);
    QVERIFY2(tip.contains(QStringLiteral("pair 1 (dimensions 2, 3)")), qPrintable(tip));
    QVERIFY(tip.contains(QStringLiteral("completes a period")));
}

void TestFrequencyView::legendAndTitleInOrder()
{
    set(50, 128, 1e6);
    QCPLegend *legend = view_->plot()->legend;
    QVERIFY(legend->itemCount() >= 4);
    auto name = [legend](int i) { return static_cast<QCPPlottableLegendItem *>(legend->item(i))->plottable()->name(); };
    QVERIFY2(name(0).contains(QStringLiteral("current")), qPrintable(name(0)));
    QCOMPARE(name(1), QStringLiteral("base 100"));
    QCOMPARE(name(2), QStringLiteral("base 10000"));
    QCOMPARE(name(3), QStringLiteral("base 1e8"));
    const QString title = view_->plot()->findChild<QCPTextElement *>()->text();
    QVERIFY2(!title.contains(QStringLiteral(":  ·")) && title.startsWith(QStringLiteral("Frequency decay: ω_i")),
             qPrintable(title));
}

// Measure (FFT): each pair's frequency measured from its column lies on the formula's curve, the
// pairs that turn fewer than two periods in the window left out; off again, the overlay is gone.
void TestFrequencyView::measuredOverlaysTheFormula()
{
    set(2000, 32, 1e4);
    const int before = view_->plot()->graphCount();
    view_->setMeasured(true);
    QCustomPlot *p = view_->plot();
    QCOMPARE(p->graphCount(), before + 1);
    QCPGraph *measured = nullptr;
    for (int i = 0; i < p->graphCount(); ++i)
        if (p->graph(i)->name().startsWith(QStringLiteral("measured")))
            measured = p->graph(i);
    QVERIFY(measured);
    QCOMPARE(view_->spectrum().positions, 2000);
    const double bin = 2 * std::numbers::pi / 2000;
    int resolved = 0;
    for (int k = 0; k < measured->dataCount(); ++k) {
        const int i = static_cast<int>(measured->data()->at(k)->key);
        const double formula = std::pow(1e4, -2.0 * i / 32);
        QVERIFY(formula >= 2 * bin);
        QVERIFY2(std::abs(measured->data()->at(k)->value - formula) < 0.05 * bin, qPrintable(QString::number(i)));
        ++resolved;
    }
    QVERIFY(resolved >= 8); // pairs 0-8 turn at least two periods in 2,000 positions
    view_->setMeasured(false);
    QCOMPARE(p->graphCount(), before);
}

void TestFrequencyView::gemmaLocalLayersBeside()
{
    // Gemma's local layers: their θ (base 100, unscaled) beside the global ones (base 1e4, linear
    // x4), the count of pairs turning a period within the sliding window, and its line at W - 1.
    pe::EncodingParams v = params_->values();
    v.scheme = pe::SchemeId::Rope;
    v.seqLen = 200;
    v.dModel = 16;
    v.rope.scaling = pe::RopeScaling::Linear;
    v.rope.factor = 4;
    v.localBase = 100;
    v.slidingWindow = 30;
    QVERIFY(!params_->set(v));
    QVERIFY(!view_->applySettings({{QStringLiteral("compareBases"), QString()}}));
    view_->setQuantity(FrequencyView::Quantity::Wavelength);
    QCustomPlot *p = view_->plot();
    QCPGraph *local = nullptr, *global = nullptr;
    for (int g = 0; g < p->graphCount(); ++g) {
        if (p->graph(g)->name() == QStringLiteral("local layers: base 100, no scaling, window 30"))
            local = p->graph(g);
        if (p->graph(g)->name().startsWith(QStringLiteral("global layers: base 10000, linear ×4")))
            global = p->graph(g);
    }
    QVERIFY(local && global);
    int within = 0;
    for (int i = 0; i < 8; ++i) {
        const double lambda = 2 * std::numbers::pi / std::pow(100.0, -2.0 * i / 16);
        QVERIFY(std::abs(local->data()->at(i)->value - lambda) <= 1e-12 * lambda);
        QVERIFY(std::abs(global->data()->at(i)->value - 4 * lambda * std::pow(100.0, 2.0 * i / 16)) <=
                1e-12 * global->data()->at(i)->value);
        within += lambda <= 29;
    }
    const QString title = p->findChild<QCPTextElement *>()->text().replace(QLatin1Char('\n'), QLatin1Char(' '));
    QVERIFY2(title.contains(QStringLiteral("%1 of 8 pairs turn a whole period within the sliding window").arg(within)),
             qPrintable(title));
    bool line = false;
    for (QCPItemStraightLine *l : p->findChildren<QCPItemStraightLine *>())
        line = line || (l->visible() && l->point1->coords().y() == 29 && l->point2->coords().y() == 29);
    QVERIFY(line);
}

QTEST_MAIN(TestFrequencyView)
#include "tst_frequency_view.moc"

#include "views/frequency_view.h"

#include "encodings/scheme.h"
#include "figures/integer_ticker.h"
#include "figures/power_ticker.h"
#include "state/parameters.h"
#include "state/view_registry.h"
#include "state/view_state.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>

#include <algorithm>
#include <cmath>

namespace {

const QColor kLocalColor(0, 150, 160); // Gemma's local layers: a colour no compared base takes
const QColor kComparisonColors[] = {QColor(230, 120, 20), QColor(40, 150, 60), QColor(150, 60, 170),
                                    QColor(120, 120, 120), QColor(200, 60, 60)};

} // namespace

FrequencyView::FrequencyView(Parameters *parameters, QWidget *parent)
    : PlotView(parameters, parent)
    , quantityChoice_(new QComboBox(this))
    , logBox_(new QCheckBox(tr("Log scale"), this))
    , measureBox_(new QCheckBox(tr("Measure (FFT)"), this))
    , compareEdit_(new QLineEdit(this))
{
    setObjectName(QStringLiteral("frequencyView"));
    quantityChoice_->setObjectName(QStringLiteral("quantity"));
    quantityChoice_->addItem(tr("Frequency ω"));
    quantityChoice_->addItem(tr("Wavelength λ = 2π/ω"));
    quantityChoice_->setToolTip(tr("Plot the angular frequencies, or the wavelengths in positions"));
    logBox_->setObjectName(QStringLiteral("logScale"));
    logBox_->setToolTip(tr("Logarithmic value axis: a geometric decay becomes a straight line"));
    compareEdit_->setObjectName(QStringLiteral("compareBases"));
    compareEdit_->setToolTip(tr("Bases to compare with, separated by commas (article 0 compares 1e2, 1e4, 1e8)"));
    toolRow()->addWidget(new QLabel(tr("Show:"), this));
    toolRow()->addWidget(quantityChoice_);
    toolRow()->addWidget(logBox_);
    measureBox_->setObjectName(QStringLiteral("measure"));
    measureBox_->setToolTip(
        tr("Also plot each column's dominant frequency measured from its values over the window (FFT): "
           "the check that the formula is what the columns do"));
    toolRow()->addWidget(measureBox_);
    toolRow()->addWidget(new QLabel(tr("Compare bases:"), this));
    toolRow()->addWidget(compareEdit_, 1);

    QCustomPlot *p = plot();
    title_ = addTitle();
    p->xAxis->setTicker(QSharedPointer<IntegerTicker>::create());
    // The legend in a strip above the plot: inside it, the compared bases' curves ran under it at
    // a 3.5 in figure's size.
    placeLegendAbove();
    spanLine_ = addMarkerLine(QColor(200, 30, 30));
    spanLabel_ = new QCPItemText(p);
    spanLabel_->setColor(QColor(200, 30, 30));
    spanLabel_->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    localSpanLine_ = addMarkerLine(kLocalColor);
    localSpanLabel_ = new QCPItemText(p);
    localSpanLabel_->setColor(kLocalColor);
    localSpanLabel_->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);

    // Wavelengths span many decades: choosing them ticks the log scale too (an edit of its own).
    connect(quantityChoice_, &QComboBox::activated, this, [this](int index) { logBox_->setChecked(index == 1); });
    // The field applies a text that parses (its value is the last such text); one that does not
    // is framed in red with the reason.
    connect(compareEdit_, &QLineEdit::editingFinished, this, [this] {
        if (const auto bases = comparisonOf(compareEdit_->text()))
            compareEdit_->setProperty("appliedText", compareEdit_->text().trimmed());
    });
}

std::optional<std::vector<double>> FrequencyView::comparisonOf(const QString &text) const
{
    QString problem;
    auto bases = basesOf(text, &problem);
    compareEdit_->setStyleSheet(problem.isEmpty() ? QString() : QStringLiteral("border: 1px solid red;"));
    compareEdit_->setToolTip(problem.isEmpty() ? tr("Bases to compare with, separated by commas") : problem);
    return bases;
}

std::optional<std::vector<double>> FrequencyView::basesOf(const QString &text, QString *problem) const
{
    std::vector<double> bases;
    for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QString trimmed = part.trimmed();
        const auto v = pe::parseReal(trimmed.toStdString());
        pe::EncodingParams probe = parameters()->values();
        if (v)
            probe.base = *v;
        if (!v || pe::validate(probe)) {
            *problem = tr("'%1' is not a valid base: each must be %2.")
                           .arg(trimmed, QString::fromStdString(pe::allowedText(pe::Field::Base)));
            return std::nullopt;
        }
        bases.push_back(*v);
    }
    return bases;
}

void FrequencyView::settingsChanged(const QStringList &keys)
{
    // A compare text from a session or undo is framed as a typed one is; a slider step never
    // restyles the field (a style sheet is set only here and when the field is edited).
    if (keys.contains(QStringLiteral("compareBases")))
        comparisonOf(state().text(QStringLiteral("compareBases")));
    refresh();
}

void FrequencyView::setQuantity(Quantity quantity)
{
    // As the control does: wavelengths on a log axis.
    applySettings({{QStringLiteral("quantity"),
                    quantity == Quantity::Wavelength ? QStringLiteral("wavelength") : QStringLiteral("frequency")},
                   {QStringLiteral("logScale"), quantity == Quantity::Wavelength}});
}

void FrequencyView::setLogScale(bool on)
{
    applySettings({{QStringLiteral("logScale"), on}});
}
void FrequencyView::setMeasured(bool on)
{
    applySettings({{QStringLiteral("measure"), on}});
}

bool FrequencyView::setComparisonText(const QString &text)
{
    if (!comparisonOf(text))
        return false;
    applySettings({{QStringLiteral("compareBases"), text.trimmed()}});
    return true;
}

void FrequencyView::rebuild()
{
    const pe::Encoding &enc = parameters()->encoding();
    const pe::EncodingParams &p = enc.params();
    const bool wavelength = state().choice(QStringLiteral("quantity")) == QLatin1String("wavelength");
    const bool logScale = state().flag(QStringLiteral("logScale"));
    QCustomPlot *plt = plot();
    plt->clearGraphs();
    spectrum_ = {};
    // A table has no formula and no base: its spectrum alone, every control but the quantity off.
    const bool table = !enc.hasFrequencies();
    compareEdit_->setEnabled(!table);
    measureBox_->setEnabled(!table);
    const QString why = tr("A table has no frequency formula: the view shows each column's measured spectrum");
    compareEdit_->setToolTip(
        table ? why : tr("Bases to compare with, separated by commas (article 0 compares 1e2, 1e4, 1e8)"));
    if (table) {
        const int maxPoints = std::max(2, static_cast<int>(plt->axisRect()->width() * pixelScale()));
        const std::vector<int> shown = pe::sampledIndices(p.dModel, maxPoints);
        rebuildSpectrum(shown);
        return;
    }

    const int n = enc.channelCount();
    const int maxPoints = std::max(2, static_cast<int>(plt->axisRect()->width() * pixelScale()));
    const std::vector<int> shown = pe::sampledIndices(n, maxPoints);
    const double span = static_cast<double>(p.seqLen - 1);
    auto quantity = [wavelength](double w) { return wavelength ? pe::wavelengthOf(w) : w; };
    const bool markers = static_cast<int>(shown.size()) <= 64;

    auto addCurve = [&](const pe::EncodingParams &params, const QPen &pen, const QString &name) {
        QCPGraph *g = addGraph();
        g->setName(name);
        g->setPen(pen);
        if (markers)
            g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, pen.color(), pen.color(), 5 * lineScale()));
        QVector<double> x, y;
        x.reserve(static_cast<int>(shown.size()));
        y.reserve(static_cast<int>(shown.size()));
        const pe::Encoding encoding(params); // RoPE's scaled θ' with every base compared
        for (int i : shown) {
            // A pair that does not turn (partial rotary: ω 0, λ ∞) has no point on a log axis or
            // of infinite height; the title counts them.
            const double v = quantity(encoding.channelFrequency(i));
            if (std::isfinite(v) && (!logScale || v > 0)) {
                x << i;
                y << v;
            }
        }
        g->setData(x, y, true);
        return g;
    };

    int colorIndex = 0;
    std::vector<QCPGraph *> others;
    QString problem;
    comparison_ = basesOf(state().text(QStringLiteral("compareBases")), &problem).value_or(std::vector<double>{});
    std::vector<double> bases(comparison_.begin(), comparison_.end());
    std::sort(bases.begin(), bases.end());
    for (double base : bases) {
        if (base == p.base)
            continue;
        pe::EncodingParams other = p;
        other.base = base;
        const QColor color = kComparisonColors[colorIndex++ % std::size(kComparisonColors)];
        others.push_back(addCurve(other, QPen(color, 1.5 * lineScale(), Qt::DashLine),
                                  tr("base %1").arg(QString::fromStdString(pe::compactNumber(base)))));
    }
    if (pe::hasLocalLayers(p)) // Gemma's sliding-window layers beside the global ones
        others.push_back(addCurve(pe::localLayers(p), QPen(kLocalColor, 2.0 * lineScale()),
                                  QString::fromStdString(pe::localLayersText(p))));
    QCPGraph *current = addCurve(
        p, QPen(QColor(30, 90, 200), 2.5 * lineScale()),
        pe::hasLocalLayers(p)
            ? tr("global layers: base %1, %2")
                  .arg(QString::fromStdString(pe::compactNumber(p.base)), QString::fromStdString(pe::scalingSummary(p)))
            : tr("base %1 (current)").arg(QString::fromStdString(pe::compactNumber(p.base))));

    completed_ = 0;
    for (int i = 0; i < n; ++i)
        completed_ += enc.channelWavelength(i) <= span ? 1 : 0;
    const QString unit = !pe::perIndexExponent(p) ? tr("pairs") : tr("dimensions");
    spanLine_->setVisible(wavelength);
    spanLabel_->setVisible(wavelength);
    if (wavelength) {
        // Filled markers: a whole period fits between the first and the last position.
        current->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssCircle, QColor(30, 90, 200), Qt::white, 6 * lineScale()));
        QCPGraph *done = addGraph();
        done->setName(tr("completes a period within the window"));
        done->setLineStyle(QCPGraph::lsNone);
        done->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(200, 30, 30), 7 * lineScale()));
        QVector<double> x, y;
        for (int i : shown)
            if (enc.channelWavelength(i) <= span) {
                x << i;
                y << enc.channelWavelength(i);
            }
        done->setData(x, y, true);
        placeHorizontal(spanLine_, std::max(span, 1e-300));
        spanLabel_->position->setCoords(0, std::max(span, 1e-300));
        spanLabel_->setText(tr(" window span: %1 positions").arg(p.seqLen - 1));
    }
    const bool localSpan = wavelength && pe::hasLocalLayers(p) && p.slidingWindow > 1;
    localSpanLine_->setVisible(localSpan);
    localSpanLabel_->setVisible(localSpan);
    if (localSpan) {
        const double w = static_cast<double>(p.slidingWindow - 1);
        placeHorizontal(localSpanLine_, w);
        localSpanLabel_->position->setCoords(std::max(1, n - 1), w);
        localSpanLabel_->setText(tr("local layers' sliding window: %1 positions ")
                                     .arg(QString::fromStdString(pe::withThousands(p.slidingWindow - 1))));
    }

    if (state().flag(QStringLiteral("measure"))) {
        // The column each channel's frequency is read from: a pair's sine column, else the column.
        std::vector<int> columns;
        for (int i : shown)
            columns.push_back(!pe::perIndexExponent(p) ? enc.pairSineColumn(i) : i);
        spectrum_ = pe::columnSpectrum(enc, columns);
        QCPGraph *measured = addGraph();
        measured->setName(tr("measured: FFT of the column over %1 positions").arg(spectrum_.positions));
        measured->setLineStyle(QCPGraph::lsNone);
        measured->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, QColor(200, 30, 30), 8 * lineScale()));
        QVector<double> x, y;
        for (std::size_t k = 0; k < shown.size(); ++k)
            if (spectrum_.resolved(k)) {
                x << shown[k];
                y << quantity(spectrum_.omega[k]);
            }
        measured->setData(x, y, true);
    }

    // The legend: the current base first, then the others in ascending order (the current curve is
    // still drawn last, on top).
    plt->legend->clearItems();
    current->addToLegend();
    for (QCPGraph *g : others)
        g->addToLegend();
    for (int i = 0; i < plt->graphCount(); ++i)
        if (plt->graph(i) != current && std::find(others.begin(), others.end(), plt->graph(i)) == others.end())
            plt->graph(i)->addToLegend();
    wrapLegend();

    const QString symbol = !pe::perIndexExponent(p) ? QStringLiteral("i") : QStringLiteral("j");
    plt->xAxis->setLabel(!pe::perIndexExponent(p) ? tr("pair index i") : tr("dimension j"));
    plt->yAxis->setLabel(wavelength ? tr("wavelength λ_%1 = 2π/ω_%1 (positions)").arg(symbol)
                                    : tr("ω_%1 (radians per position)").arg(symbol));
    setValueScale(logScale);
    plt->xAxis->setRange(-0.5, std::max(1, n - 1) + 0.5);
    plt->rescaleAxes(true);
    plt->xAxis->setRange(-0.5, std::max(1, n - 1) + 0.5);
    if (wavelength)
        plt->yAxis->setRange(plt->yAxis->range().expanded(std::max(span, 1.0)));
    padValueRange(logScale);

    QStringList title =
        wavelength ? QStringList{tr("Wavelengths: %1 of %2 %3 complete a period").arg(completed_).arg(n).arg(unit),
                                 tr("within positions %1–%2").arg(p.startPos).arg(p.startPos + p.seqLen - 1)}
        : p.scheme == pe::SchemeId::Rope
            ? QStringList{tr("RoPE's frequencies θ′ᵢ"), tr("d = %1").arg(p.dModel)}
            : QStringList{!pe::perIndexExponent(p) ? tr("Frequency decay: ω_i = base^(−2i/d)")
                                                   : tr("Frequency decay: ω_j = base^(−j/d)"),
                          tr("d = %1").arg(p.dModel)};
    if (p.scheme == pe::SchemeId::Rope)
        title << tr("RoPE: %1 (the RoPE scaling view compares them with θᵢ)")
                     .arg(QString::fromStdString(pe::scalingSummary(p)));
    if (pe::hasLocalLayers(p)) {
        // What a local layer can tell apart: a pair turning less than a period within its window
        // gives the keys it sees angles within one turn.
        const pe::Encoding local(pe::localLayers(p));
        int within = 0;
        for (int i = 0; i < n; ++i)
            within += p.slidingWindow > 0 && local.channelWavelength(i) <= static_cast<double>(p.slidingWindow - 1);
        title << (p.slidingWindow > 0 ? tr("teal: the %1; %2 of %3 pairs turn a whole period within the sliding window")
                                            .arg(QString::fromStdString(pe::localLayersText(p)))
                                            .arg(within)
                                            .arg(n)
                                      : tr("teal: the %1").arg(QString::fromStdString(pe::localLayersText(p))));
    }
    if (const int turning = p.scheme == pe::SchemeId::Rope ? pe::rotatedPairs(p.dModel, p.rope) : n; turning < n)
        title << tr("pairs %1–%2 do not rotate (rotary fraction %3): ω = 0%4")
                     .arg(turning)
                     .arg(n - 1)
                     .arg(p.rope.rotaryFraction, 0, 'g', 4)
                     .arg(wavelength || logScale ? tr(", λ = ∞: not drawn") : QString());
    setTitle(title_, title);
    plt->replot(QCustomPlot::rpQueuedReplot);
}

void FrequencyView::setValueScale(bool logScale)
{
    QCPAxis *y = plot()->yAxis;
    if (logScale) {
        PowerTicker::install(y);
        return;
    }
    y->setScaleType(QCPAxis::stLinear);
    y->setTicker(QSharedPointer<QCPAxisTicker>::create());
    y->setNumberFormat(QStringLiteral("g"));
    y->setNumberPrecision(6);
}

void FrequencyView::padValueRange(bool logScale)
{
    // Room around the values: half a decade-ish on a log axis; from 0 and 5 % above on a linear one.
    QCPAxis *y = plot()->yAxis;
    const QCPRange r = y->range();
    if (logScale)
        y->setRange(r.lower / 1.5, r.upper * 1.5);
    else
        y->setRange(std::min(0.0, r.lower), r.upper + 0.05 * std::max(r.size(), 1e-9));
}

void FrequencyView::rebuildSpectrum(const std::vector<int> &columns)
{
    const pe::Encoding &enc = parameters()->encoding();
    const pe::EncodingParams &p = enc.params();
    const bool wavelength = state().choice(QStringLiteral("quantity")) == QLatin1String("wavelength");
    QCustomPlot *plt = plot();
    spectrum_ = pe::columnSpectrum(enc, columns);
    auto quantity = [wavelength](double w) { return wavelength ? pe::wavelengthOf(w) : w; };
    const bool markers = columns.size() <= 256;
    QCPGraph *resolved = addGraph();
    resolved->setName(tr("dominant frequency of the column"));
    resolved->setLineStyle(QCPGraph::lsNone);
    resolved->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(30, 90, 200), (markers ? 6 : 3) * lineScale()));
    QCPGraph *unresolved = addGraph();
    unresolved->setName(tr("fewer than 2 periods in the window: not resolved"));
    unresolved->setLineStyle(QCPGraph::lsNone);
    unresolved->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QColor(150, 150, 150), (markers ? 6 : 3) * lineScale()));
    QVector<double> x, y, ux, uy;
    int count = 0;
    for (std::size_t k = 0; k < columns.size(); ++k) {
        const double w = std::max(spectrum_.omega[k], spectrum_.resolution);
        if (spectrum_.resolved(k)) {
            x << columns[k];
            y << quantity(w);
            ++count;
        } else {
            ux << columns[k];
            uy << quantity(w);
        }
    }
    resolved->setData(x, y, true);
    unresolved->setData(ux, uy, true);
    spanLine_->setVisible(false);
    localSpanLine_->setVisible(false);
    localSpanLabel_->setVisible(false);
    spanLabel_->setVisible(false);
    completed_ = count;
    plt->legend->clearItems();
    resolved->addToLegend();
    unresolved->addToLegend();
    wrapLegend();
    plt->xAxis->setLabel(tr("dimension j"));
    // As short as the sinusoids' axis titles: the title and the legend say "dominant" (the longer
    // text ran past both ends of the axis in lecture mode).
    plt->yAxis->setLabel(wavelength ? tr("wavelength 2π/ω (positions)") : tr("ω (radians per position)"));
    const bool logScale = state().flag(QStringLiteral("logScale"));
    setValueScale(logScale);
    plt->rescaleAxes(true);
    plt->xAxis->setRange(-0.5, std::max(1, p.dModel - 1) + 0.5);
    padValueRange(logScale);
    QStringList title{tr("Spectrum of %1: each column's dominant frequency over positions %2–%3 (FFT, Hann window)")
                          .arg(QString::fromStdString(pe::tableName(p)))
                          .arg(p.startPos)
                          .arg(p.startPos + spectrum_.positions - 1),
                      tr("%1 of %2 columns shown turn at least two periods").arg(count).arg(columns.size())};
    if (static_cast<int>(columns.size()) < p.dModel)
        title << tr("(sampled: %1 of %2 columns)").arg(columns.size()).arg(p.dModel);
    setTitle(title_, title);
    plt->replot(QCustomPlot::rpQueuedReplot);
}

QString FrequencyView::tooltipAt(QPointF pixel) const
{
    const pe::Encoding &enc = parameters()->encoding();
    if (!plot()->axisRect()->rect().contains(pixel.toPoint()))
        return {};
    const auto i = static_cast<int>(std::llround(plot()->xAxis->pixelToCoord(pixel.x())));
    if (!enc.hasFrequencies()) {
        const auto it = std::find(spectrum_.columns.begin(), spectrum_.columns.end(), i);
        if (it == spectrum_.columns.end())
            return {};
        const auto k = static_cast<std::size_t>(it - spectrum_.columns.begin());
        return tr("dimension %1\ndominant ω = %2 rad/position\nλ = %3 positions\n%4% of its power within ±2 bins of "
                  "the peak%5")
            .arg(i)
            .arg(spectrum_.omega[k], 0, 'g', 6)
            .arg(pe::wavelengthOf(spectrum_.omega[k]), 0, 'g', 6)
            .arg(100 * spectrum_.peakShare[k], 0, 'f', 1)
            .arg(spectrum_.resolved(k) ? QString() : tr("\nfewer than 2 periods in the window: not resolved"));
    }
    if (i < 0 || i >= enc.channelCount())
        return {};
    const double span = static_cast<double>(enc.params().seqLen - 1);
    // A channel is a pair when each pair has one frequency (the pair exponent), else a column.
    QString name = tr("dimension %1").arg(i);
    if (enc.channelCount() == enc.pairCount()) {
        const int sine = enc.pairSineColumn(i), cosine = enc.pairCosineColumn(i);
        name = cosine >= 0 ? tr("pair %1 (dimensions %2, %3)").arg(i).arg(sine).arg(cosine)
                           : tr("pair %1 (dimension %2, a sine with no partner)").arg(i).arg(sine);
    }
    return tr("%1\nω = %2 rad/position\nλ = %3 positions\n%4")
        .arg(name)
        .arg(enc.channelFrequency(i), 0, 'g', 8)
        .arg(QString::fromStdString(pe::numberText(enc.channelWavelength(i), 8)))
        .arg(enc.channelFrequency(i) == 0 ? tr("does not rotate (partial rotary)")
             : enc.channelWavelength(i) <= span
                 ? tr("completes a period within the window")
                 : tr("turns %1 of a period across the window").arg(span / enc.channelWavelength(i), 0, 'f', 3));
}

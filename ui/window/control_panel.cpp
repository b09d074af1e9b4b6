#include "window/control_panel.h"

#include "encodings/scheme.h"
#include "models/model_config.h"
#include "window/control_panel_internal.h"

#include "state/parameters.h"
#include "window/scientific_spin_box.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QSlider>
#include <QStandardItemModel>

#include <algorithm>
#include <cmath>
#include <limits>

using control_panel_internal::wholeSpin;

std::vector<double> decadeStops(double min, double linearTo, double max, int perDecade)
{
    std::vector<double> out;
    for (double v = min; v <= std::min(linearTo, max); v += 1)
        out.push_back(v);
    for (double decade = linearTo; decade < max; decade *= 10) {
        const double step = decade * 9 / perDecade;
        for (int k = 1; k <= perDecade && decade + k * step <= max; ++k)
            out.push_back(std::round(decade + k * step));
    }
    if (out.back() != max)
        out.push_back(max);
    return out;
}

std::vector<double> powerOfTwoStops(int max)
{
    std::vector<double> out;
    for (int v = 1; v <= std::min(128, max); ++v)
        out.push_back(v);
    for (int octave = 128; octave < max; octave *= 2)
        for (int v = octave + octave / 16; v <= std::min(2 * octave, max); v += octave / 16)
            out.push_back(v);
    if (out.back() != max)
        out.push_back(max);
    return out;
}

std::vector<double> logStops(double max, int perDecade)
{
    std::vector<double> out;
    const int last = static_cast<int>(std::floor(std::log10(max) * perDecade + 1e-9));
    for (int k = 1; k <= last; ++k)
        out.push_back(std::pow(10.0, static_cast<double>(k) / perDecade));
    return out;
}

namespace {

int nearestStop(const std::vector<double> &stops, double value)
{
    const auto it = std::lower_bound(stops.begin(), stops.end(), value);
    if (it == stops.begin())
        return 0;
    if (it == stops.end())
        return static_cast<int>(stops.size()) - 1;
    const auto i = static_cast<int>(it - stops.begin());
    // Nearest on a log scale: the stops are spaced geometrically beyond the linear part.
    return std::abs(std::log(*it / value)) <= std::abs(std::log(value / stops[i - 1])) ? i : i - 1;
}

double fieldValue(const pe::EncodingParams &p, pe::Field f)
{
    switch (f) {
    case pe::Field::SeqLen:
        return static_cast<double>(p.seqLen);
    case pe::Field::DModel:
        return p.dModel;
    case pe::Field::Base:
        return p.base;
    case pe::Field::StartPos:
        return static_cast<double>(p.startPos);
    default:
        return 0;
    }
}

void setFieldValue(pe::EncodingParams &p, pe::Field f, double v)
{
    // Typed whole numbers stay below 2^53; d_model's int takes the nearest it can hold.
    const double whole = std::round(v);
    switch (f) {
    case pe::Field::SeqLen:
        p.seqLen = static_cast<std::int64_t>(whole);
        break;
    case pe::Field::DModel:
        p.dModel = static_cast<int>(
            std::clamp(whole, double(std::numeric_limits<int>::min()), double(std::numeric_limits<int>::max())));
        break;
    case pe::Field::Base:
        p.base = v;
        break;
    case pe::Field::StartPos:
        p.startPos = static_cast<std::int64_t>(whole);
        break;
    default:
        break;
    }
}

} // namespace

ControlPanel::ControlPanel(Parameters *parameters, Playback *playback, QWidget *parent)
    : QWidget(parent)
    , parameters_(parameters)
    , schemeChoice_(new QComboBox(this))
    , layoutChoice_(new QComboBox(this))
    , exponentChoice_(new QComboBox(this))
    , formula_(new QLabel(this))
    , model_(new QLabel(this))
    , error_(new QLabel(this))
{
    setObjectName(QStringLiteral("controlPanel"));
    auto *grid = new QGridLayout(this);
    grid->setColumnStretch(1, 1);

    // The schemes of the core's catalogue; one opened from a file (a table) is shown, not chosen.
    schemeChoice_->setObjectName(QStringLiteral("scheme"));
    for (pe::SchemeId id : pe::kSchemes) {
        const pe::SchemeInfo &info = pe::schemeInfo(id);
        schemeChoice_->addItem(QString::fromUtf8(info.title.data(), static_cast<qsizetype>(info.title.size())),
                               QString::fromUtf8(pe::schemeName(id).data()));
        schemeChoice_->setItemData(
            schemeChoice_->count() - 1,
            QString::fromUtf8(info.reference.data(), static_cast<qsizetype>(info.reference.size())), Qt::ToolTipRole);
        if (!info.byName)
            if (auto *model = qobject_cast<QStandardItemModel *>(schemeChoice_->model()))
                model->item(schemeChoice_->count() - 1)->setEnabled(false);
    }
    grid->addWidget(new QLabel(tr("scheme"), this), 0, 0);
    grid->addWidget(schemeChoice_, 0, 1, 1, 2);

    using namespace pe::limits;
    addControl(pe::Field::SeqLen, tr("seq_len"),
               tr("Number of positions shown (rows of the encoding matrix): %1")
                   .arg(QString::fromStdString(pe::allowedText(pe::Field::SeqLen))),
               wholeSpin(1, static_cast<double>(maxSeqLen)), decadeStops(1, 100, static_cast<double>(maxSeqLen), 9));
    addControl(pe::Field::DModel, tr("d_model"),
               tr("Embedding size: number of dimensions (columns), %1")
                   .arg(QString::fromStdString(pe::allowedText(pe::Field::DModel))),
               wholeSpin(1, maxDModel), powerOfTwoStops(maxDModel));
    auto *baseSpin = new ScientificSpinBox;
    baseSpin->setLogarithmicSteps(true);
    baseSpin->setStepRange(1.000000001, maxBase);
    addControl(pe::Field::Base, tr("base"),
               tr("Base of the frequencies w_i = base^(-2i/d): larger means slower clocks (the paper uses 10000)"),
               baseSpin, logStops(maxBase, 100));
    addControl(pe::Field::StartPos, tr("start_pos"),
               tr("First position shown: moves the window along the sequence (article 0's start_pos)"),
               wholeSpin(0, static_cast<double>(maxPositionEnd - 1)),
               decadeStops(0, 100, static_cast<double>(maxPositionEnd - 1), 9));

    layoutChoice_->setObjectName(QStringLiteral("layout"));
    layoutChoice_->addItem(tr("interleaved (sin, cos, sin, cos…)"), QStringLiteral("interleaved"));
    layoutChoice_->addItem(tr("split (all sin | all cos)"), QStringLiteral("split"));
    layoutChoice_->setToolTip(tr("Interleaved as in the paper; split halves as in tensor2tensor"));
    exponentChoice_->setObjectName(QStringLiteral("exponent"));
    exponentChoice_->addItem(tr("pair: base^(2i/d)"), QStringLiteral("pair"));
    exponentChoice_->addItem(tr("index: base^(j/d)"), QStringLiteral("index"));
    exponentChoice_->setToolTip(tr("Pair exponent as in the paper; per-index exponent as in article 2"));
    int row = grid->rowCount();
    grid->addWidget(new QLabel(tr("layout"), this), row, 0);
    grid->addWidget(layoutChoice_, row, 1, 1, 2);
    grid->addWidget(new QLabel(tr("exponent"), this), row + 1, 0);
    grid->addWidget(exponentChoice_, row + 1, 1, 1, 2);
    addSchemeControls(grid);

    addPositionControls(playback);
    addNoiseControls();

    formula_->setObjectName(QStringLiteral("formula"));
    formula_->setWordWrap(true);
    formula_->setTextFormat(Qt::RichText); // ω with sub- and superscripts, one equation a line
    formula_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    formula_->setToolTip(tr("The formula of the variant shown"));
    model_->setObjectName(QStringLiteral("model"));
    model_->setWordWrap(true);
    model_->setTextFormat(Qt::RichText);
    model_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    model_->setVisible(false);
    error_->setObjectName(QStringLiteral("error"));
    error_->setWordWrap(true);
    updateErrorColor();
    row = grid->rowCount();
    grid->addWidget(model_, row, 0, 1, 3);
    grid->addWidget(formula_, row + 1, 0, 1, 3);
    grid->addWidget(error_, row + 2, 0, 1, 3);
    grid->setRowStretch(row + 3, 1);

    auto onChoice = [this] {
        if (following_)
            return;
        pe::EncodingParams p = parameters_->values();
        if (const auto scheme = pe::parseScheme(schemeChoice_->currentData().toString().toStdString()))
            p.scheme = *scheme;
        if (p.scheme != pe::SchemeId::T5)
            p.biasTable.reset(); // T5's learned bias goes with T5 (undo brings both back)
        p.layout = *pe::parseLayout(layoutChoice_->currentData().toString().toStdString());
        p.exponent = *pe::parseExponent(exponentChoice_->currentData().toString().toStdString());
        apply(p);
    };
    connect(schemeChoice_, &QComboBox::currentIndexChanged, this, onChoice);
    connect(layoutChoice_, &QComboBox::currentIndexChanged, this, onChoice);
    connect(exponentChoice_, &QComboBox::currentIndexChanged, this, onChoice);
    connect(parameters_, &Parameters::changed, this, &ControlPanel::followState);
    connect(parameters_, &Parameters::positionChanged, this, &ControlPanel::followPosition);
    followState();
}

ControlPanel::~ControlPanel()
{
    // A field losing focus as it is deleted would commit into a half-destroyed panel.
    for (const Typed &t : typed_)
        disconnect(t.spin, nullptr, this, nullptr);
}

void ControlPanel::addTyped(ScientificSpinBox *spin, std::function<std::optional<std::string>(double)> apply,
                            std::function<double()> inForce)
{
    typed_.push_back({spin, std::move(apply), std::move(inForce), 0.0, QString()});
    const std::size_t index = typed_.size() - 1;
    // Without keyboard tracking valueChanged comes on Enter, on leaving the field and on a step.
    connect(spin, &QDoubleSpinBox::valueChanged, this, [this, index](double value) {
        if (!following_)
            commit(index, value);
    });
    connect(spin, &ScientificSpinBox::escapePressed, this, [this, index] { restore(index); });
}

void ControlPanel::commit(std::size_t index, double value)
{
    Typed &t = typed_[index];
    const double before = t.inForce();
    if (auto problem = t.apply(value)) {
        t.refusal = QString::fromStdString(*problem);
        t.refusedOver = before;
        t.spin->setRefused(true);
        showRefusals();
        return;
    }
    t.refusal.clear();
    t.spin->setRefused(false);
    showRefusals();
}

void ControlPanel::restore(std::size_t index)
{
    Typed &t = typed_[index];
    following_ = true;
    t.spin->setValue(t.inForce());
    following_ = false;
    t.refusal.clear();
    t.spin->setRefused(false);
    showRefusals();
}

void ControlPanel::followTyped()
{
    // A refused value stays while what it was refused over is still in force; once that changes
    // (undo, a slider, playback) the field follows and its refusal goes.
    bool cleared = false;
    for (Typed &t : typed_) {
        const double v = t.inForce();
        if (!t.refusal.isEmpty() && v == t.refusedOver && t.spin->isEnabled())
            continue;
        const bool wasRefused = !t.refusal.isEmpty();
        cleared = cleared || wasRefused;
        t.refusal.clear();
        t.spin->setRefused(false);
        if (t.spin->value() != v || wasRefused)
            t.spin->setValue(v); // not otherwise: playback would overwrite a field being typed in
    }
    if (cleared)
        showRefusals();
}

void ControlPanel::showRefusals(const QString &first)
{
    // One sentence per framed field, so none is framed without its reason.
    QStringList sentences;
    if (!first.isEmpty())
        sentences << first;
    for (const Typed &t : typed_)
        if (!t.refusal.isEmpty())
            sentences << t.refusal;
    error_->setText(sentences.join(QLatin1Char('\n')));
}

void ControlPanel::updateErrorColor()
{
    QPalette pal = error_->palette();
    pal.setColor(QPalette::WindowText, ScientificSpinBox::refusedColor(palette()));
    error_->setPalette(pal);
}

void ControlPanel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange)
        updateErrorColor();
}

void ControlPanel::addControl(pe::Field field, const QString &label, const QString &tip, ScientificSpinBox *spin,
                              std::vector<double> stops)
{
    auto *grid = static_cast<QGridLayout *>(layout());
    const QString name = QString::fromUtf8(pe::fieldName(field).data(), static_cast<int>(pe::fieldName(field).size()));
    auto *slider = new QSlider(Qt::Horizontal, this);
    slider->setObjectName(name + QStringLiteral("Slider"));
    slider->setRange(0, static_cast<int>(stops.size()) - 1);
    slider->setPageStep(std::max(1, static_cast<int>(stops.size()) / 20));
    slider->setMinimumWidth(140);
    slider->setToolTip(tip);
    spin->setParent(this);
    spin->setObjectName(name + QStringLiteral("Spin"));
    spin->setToolTip(tip);
    spin->setMinimumWidth(110);
    auto *text = new QLabel(label, this);
    text->setToolTip(tip);
    const int row = grid->rowCount();
    grid->addWidget(text, row, 0);
    grid->addWidget(slider, row, 1);
    grid->addWidget(spin, row, 2);
    controls_.push_back({field, slider, std::move(stops), spin, tip});
    const std::size_t index = controls_.size() - 1;

    connect(slider, &QSlider::sliderPressed, this, &ControlPanel::gestureStarted);
    connect(slider, &QSlider::sliderReleased, this, &ControlPanel::gestureEnded);
    connect(slider, &QSlider::valueChanged, this, [this, index](int position) {
        if (following_)
            return;
        const Control &c = controls_[index];
        pe::EncodingParams p = parameters_->values();
        setFieldValue(p, c.field, c.stops[static_cast<std::size_t>(position)]);
        apply(p);
    });
    addTyped(
        spin,
        [this, field](double value) -> std::optional<std::string> {
            pe::EncodingParams p = parameters_->values();
            setFieldValue(p, field, value);
            if (auto error = parameters_->set(p))
                return error->message;
            return std::nullopt;
        },
        [this, field] { return fieldValue(parameters_->values(), field); });
}

QSlider *ControlPanel::slider(pe::Field field) const
{
    for (const Control &c : controls_)
        if (c.field == field)
            return c.slider;
    return nullptr;
}

QString ControlPanel::errorText() const
{
    return error_->text();
}

void ControlPanel::apply(pe::EncodingParams candidate)
{
    if (auto error = parameters_->set(candidate)) {
        followState(); // the controls return to what is shown
        showRefusals(QString::fromStdString(error->message));
        return;
    }
    showRefusals();
}

void ControlPanel::followScheme(const pe::EncodingParams &p)
{
    // What applies is the scheme's to say (pe::notApplicable): disabled controls tell why.
    const auto why = [&p](pe::Field f) { return QString::fromStdString(pe::notApplicable(p, f)); };
    for (const Control &c : controls_) {
        const QString reason = why(c.field);
        for (QWidget *w : {static_cast<QWidget *>(c.slider), c.spin}) {
            w->setEnabled(reason.isEmpty());
            w->setToolTip(reason.isEmpty() ? c.tip : reason);
        }
    }
    // RoPE puts the cosine first in each pair (Meta's freqs_cis, rotate_half's halves).
    const bool rope = p.scheme == pe::SchemeId::Rope;
    layoutChoice_->setItemText(0, rope ? tr("interleaved (cos, sin, cos, sin…: Meta)")
                                       : tr("interleaved (sin, cos, sin, cos…)"));
    layoutChoice_->setItemText(1, rope ? tr("split (all cos | all sin: NeoX)") : tr("split (all sin | all cos)"));
    layoutChoice_->setEnabled(why(pe::Field::Layout).isEmpty());
    layoutChoice_->setToolTip(layoutChoice_->isEnabled()
                                  ? tr("Interleaved as in the paper; split halves as in tensor2tensor")
                                  : why(pe::Field::Layout));
    exponentChoice_->setEnabled(why(pe::Field::Exponent).isEmpty());
    exponentChoice_->setToolTip(exponentChoice_->isEnabled()
                                    ? tr("Pair exponent as in the paper; per-index exponent as in article 2")
                                    : why(pe::Field::Exponent));
    followSchemeControls(p);
    const bool byName = pe::schemeInfo(p.scheme).byName;
    schemeChoice_->setEnabled(byName);
    schemeChoice_->setToolTip(byName ? tr("The encoding shown; each view asks it what its columns hold")
                                     : tr("A table from %1: File > Close table returns to the formulas")
                                           .arg(QString::fromStdString(pe::tableName(p))));
}

void ControlPanel::followState()
{
    following_ = true;
    const pe::EncodingParams &p = parameters_->values();
    for (const Control &c : controls_)
        c.slider->setValue(nearestStop(c.stops, fieldValue(p, c.field)));
    schemeChoice_->setCurrentIndex(schemeChoice_->findData(QString::fromUtf8(pe::schemeName(p.scheme).data())));
    layoutChoice_->setCurrentIndex(p.layout == pe::Layout::Split ? 1 : 0);
    exponentChoice_->setCurrentIndex(p.exponent == pe::Exponent::Index ? 1 : 0);
    followScheme(p);
    formula_->setText(QString::fromStdString(pe::formulaHtml(p)));
    followModel(p);
    const pe::NoiseParams &noise = parameters_->noise();
    noiseBox_->setChecked(noise.active());
    if (noise.active())
        lastSigma_ = noise.sigma; // off, the sigma box keeps the sigma to come back to
    sigmaSpin_->setEnabled(noise.active());
    seedSpin_->setEnabled(noise.active());
    rngChoice_->setCurrentIndex(rngChoice_->findData(QString::fromUtf8(pe::rngName(noise.rng))));
    rngChoice_->setEnabled(noise.active());
    following_ = false;
    followPosition(); // and every typed field
}

void ControlPanel::followModel(const pe::EncodingParams &p)
{
    model_->setVisible(p.model != nullptr);
    if (!p.model)
        return;
    const pe::ModelConfig &m = *p.model;
    // The model, how each value was read, and what the controls changed since.
    QString html = tr("<b>Model</b>: %1").arg(QString::fromStdString(pe::modelTitle(m)).toHtmlEscaped());
    // What the controls changed first: the panel's foot is cut at small windows.
    const std::vector<std::string> changed = pe::changedFromModel(p);
    if (!changed.empty()) {
        QStringList names;
        for (const std::string &n : changed)
            names << QString::fromStdString(n);
        html += tr("<br><i>Changed since: %1</i>").arg(names.join(QStringLiteral(", ")).toHtmlEscaped());
    }
    html += tr("<br><small>from %1:</small>").arg(QFileInfo(QString::fromStdString(m.path)).fileName().toHtmlEscaped());
    html += QStringLiteral("<ul style=\"margin-left: 0px; -qt-list-indent: 1;\">");
    for (const std::string &line : m.mapping)
        html += QStringLiteral("<li><small>%1</small></li>").arg(QString::fromStdString(line).toHtmlEscaped());
    html += QStringLiteral("</ul>");
    model_->setText(html);
    model_->setToolTip(tr("Read from %1").arg(QString::fromStdString(m.path).toHtmlEscaped()));
}

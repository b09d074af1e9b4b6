// PlotView's settings: the view's ViewState (the workspace's, or its own until attached), the
// controls that edit it, data requests.
#include "figures/plot_view.h"

#include "state/parameters.h"
#include "state/view_registry.h"
#include "state/view_state.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSpinBox>

void PlotView::bindSettings(const ViewInfo &info)
{
    info_ = &info;
    controls_.clear();
    ownState_ = new ViewState(info.settings, this);
    state_ = ownState_;
    // A setting's control is the view's child named by its key; the figure's own settings (title,
    // markers) have none in the tool row: View > Figure title edits them.
    for (const ViewSetting &s : info.settings) {
        QWidget *w = findChild<QWidget *>(s.key);
        controls_.push_back(w);
        if (!w)
            continue;
        const QSignalBlocker quiet(w);
        if (auto *c = qobject_cast<QComboBox *>(w)) {
            if (c->count() != s.choices.size())
                qFatal("view '%s': '%s' lists %d items for %d names", qPrintable(info.id), qPrintable(s.key),
                       int(c->count()), int(s.choices.size()));
            for (int i = 0; i < c->count(); ++i)
                c->setItemData(i, s.choices[i]);
        } else if (auto *sb = qobject_cast<QSpinBox *>(w)) {
            sb->setRange(static_cast<int>(s.minimum), static_cast<int>(s.maximum));
            sb->setSpecialValueText(s.special);
        } else if (auto *ds = qobject_cast<QDoubleSpinBox *>(w)) {
            ds->setDecimals(s.decimals);
            ds->setRange(s.minimum, s.maximum);
            ds->setSpecialValueText(s.special);
        } else if (auto *e = qobject_cast<QLineEdit *>(w)) {
            e->setMaxLength(kMaxSettingText);
        }
    }
    QStringList figureKeys{markerSetting().key, legendSetting().key, aspectSetting({}).key};
    for (const ViewSetting &f : figureSettings())
        figureKeys << f.key;
    for (const ViewSetting &f : colourSettings(ColourScale::Values))
        figureKeys << f.key;
    for (const ViewSetting &s : info.settings)
        if (!findChild<QWidget *>(s.key) && !figureKeys.contains(s.key))
            qFatal("view '%s' declares the setting '%s' but has no control of that name", qPrintable(info.id),
                   qPrintable(s.key));
    showSettings(allKeys());
    connect(state_, &ViewState::changed, this, &PlotView::stateChanged);
    for (std::size_t i = 0; i < controls_.size(); ++i) {
        QWidget *w = controls_[i];
        const auto edited = [this, i] { controlEdited(i); };
        if (auto *c = qobject_cast<QComboBox *>(w))
            connect(c, &QComboBox::currentIndexChanged, this, edited);
        else if (auto *sb = qobject_cast<QSpinBox *>(w))
            connect(sb, &QSpinBox::valueChanged, this, edited);
        else if (auto *ds = qobject_cast<QDoubleSpinBox *>(w))
            connect(ds, &QDoubleSpinBox::valueChanged, this, edited);
        else if (auto *b = qobject_cast<QCheckBox *>(w))
            connect(b, &QCheckBox::toggled, this, edited);
        else if (auto *e = qobject_cast<QLineEdit *>(w))
            connect(e, &QLineEdit::editingFinished, this, edited);
    }
    settingsBound();
}

QStringList PlotView::allKeys() const
{
    QStringList keys;
    for (const ViewSetting &s : info_->settings)
        keys << s.key;
    return keys;
}

void PlotView::useState(ViewState *state)
{
    if (!state)
        state = ownState_;
    if (state == state_)
        return;
    disconnect(state_, nullptr, this, nullptr);
    const QJsonObject before = state_->values();
    state_ = state;
    connect(state_, &ViewState::changed, this, &PlotView::stateChanged);
    const QStringList keys = state_->changedKeys(before, state_->values());
    if (!keys.isEmpty())
        stateChanged(before, state_->values(), keys);
}

QJsonValue PlotView::controlValue(std::size_t i) const
{
    const ViewSetting &s = info_->settings[i];
    const QWidget *w = controls_[i];
    if (auto *c = qobject_cast<const QComboBox *>(w))
        return s.choices.value(c->currentIndex());
    if (auto *sb = qobject_cast<const QSpinBox *>(w))
        return sb->value();
    if (auto *d = qobject_cast<const QDoubleSpinBox *>(w))
        return d->value();
    if (auto *b = qobject_cast<const QCheckBox *>(w))
        return b->isChecked();
    if (auto *e = qobject_cast<const QLineEdit *>(w))
        // A field may hold a typed text it refused (framed in red): the text it applies is the value.
        return e->property("appliedText").isValid() ? e->property("appliedText").toString() : e->text();
    return {};
}

void PlotView::controlEdited(std::size_t i)
{
    if (showingSettings_ > 0)
        return;
    const QString key = info_->settings[i].key;
    const QJsonValue value = controlValue(i);
    if (value == state_->values().value(key))
        return;
    const QJsonObject before = state_->values();
    if (state_->set({{key, value}}))
        return; // refused: the state keeps its value (a field shows why, framed in red)
    emit settingsEdited(before, state_->values());
}

void PlotView::stateChanged(const QJsonObject &, const QJsonObject &, const QStringList &keys)
{
    showSettings(keys);
    // The colour limits and the legend's place are PlotView's (rebuildFigure): the view's own
    // settingsChanged need not know them.
    QStringList own = keys;
    for (const ViewSetting &s : colourSettings(ColourScale::Values))
        own.removeAll(s.key);
    own.removeAll(legendSetting().key);
    own.removeAll(aspectSetting({}).key);
    if (!own.isEmpty())
        settingsChanged(own);
    if (own.size() != keys.size())
        refresh();
}

void PlotView::showSettings(const QStringList &keys)
{
    ++showingSettings_;
    for (std::size_t i = 0; i < controls_.size(); ++i) {
        const ViewSetting &s = info_->settings[i];
        QWidget *w = controls_[i];
        if (!w || !keys.contains(s.key))
            continue;
        const QJsonValue v = state_->values().value(s.key);
        if (auto *c = qobject_cast<QComboBox *>(w))
            c->setCurrentIndex(choiceIndex(s, v));
        else if (auto *sb = qobject_cast<QSpinBox *>(w))
            sb->setValue(v.toInt());
        else if (auto *ds = qobject_cast<QDoubleSpinBox *>(w))
            ds->setValue(v.toDouble());
        else if (auto *b = qobject_cast<QCheckBox *>(w))
            b->setChecked(v.toBool());
        else if (auto *e = qobject_cast<QLineEdit *>(w)) {
            e->setText(v.toString());
            emit e->editingFinished(); // a field that checks its text (the pairs) frames a refused one
        }
    }
    --showingSettings_;
}

void PlotView::settingsChanged(const QStringList &)
{
    refresh();
}

QJsonObject PlotView::settings() const
{
    return state_->values();
}

const ViewState &PlotView::state() const
{
    return *state_;
}

std::optional<QString> PlotView::applySettings(const QJsonObject &values)
{
    return state_->set(values);
}

DataRequest PlotView::dataRequest() const
{
    return {parameters_->sharedEncoding(), parameters_->noise(), parameters_->position(), state_->values()};
}

QString PlotView::cannotDraw() const
{
    return info_ && info_->cannotDraw ? info_->cannotDraw(dataRequest()) : QString();
}

std::optional<pe::Table> PlotView::dataTable() const
{
    if (info_->exports.empty())
        return std::nullopt;
    const DataExport &e = info_->exports.front();
    const DataRequest request = dataRequest();
    if (e.problem && !e.problem(request).isEmpty())
        return std::nullopt;
    return e.make(request);
}

// PlotView's settings: binding the registry's declared settings to controls, to and from JSON, data requests.
#include "figures/plot_view.h"

#include "state/parameters.h"
#include "state/view_registry.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSpinBox>

void PlotView::bindSettings(const ViewInfo &info)
{
    info_ = &info;
    controls_.clear();
    for (const ViewSetting &s : info.settings) {
        QWidget *w = findChild<QWidget *>(s.key);
        if (!w)
            qFatal("view '%s' declares the setting '%s' but has no control of that name", qPrintable(info.id),
                   qPrintable(s.key));
        controls_.push_back(w);
        const QSignalBlocker quiet(w); // the defaults are the state the view starts in
        if (auto *c = qobject_cast<QComboBox *>(w)) {
            if (c->count() != s.choices.size())
                qFatal("view '%s': '%s' lists %d items for %d names", qPrintable(info.id), qPrintable(s.key),
                       int(c->count()), int(s.choices.size()));
            for (int i = 0; i < c->count(); ++i)
                c->setItemData(i, s.choices[i]);
            c->setCurrentIndex(choiceIndex(s, s.defaultValue));
        } else if (auto *sb = qobject_cast<QSpinBox *>(w)) {
            sb->setRange(static_cast<int>(s.minimum), static_cast<int>(s.maximum));
            sb->setSpecialValueText(s.special);
            sb->setValue(s.defaultValue.toInt());
        } else if (auto *ds = qobject_cast<QDoubleSpinBox *>(w)) {
            ds->setDecimals(s.decimals);
            ds->setRange(s.minimum, s.maximum);
            ds->setSpecialValueText(s.special);
            ds->setValue(s.defaultValue.toDouble());
        } else if (auto *b = qobject_cast<QCheckBox *>(w)) {
            b->setChecked(s.defaultValue.toBool());
        } else if (auto *e = qobject_cast<QLineEdit *>(w)) {
            e->setMaxLength(kMaxSettingText);
            e->setText(s.defaultValue.toString());
        }
    }
    // A text is read by its view when editing finishes: the view takes the declared default so.
    ++quietSettings_;
    for (QWidget *w : controls_)
        if (auto *e = qobject_cast<QLineEdit *>(w))
            emit e->editingFinished();
    settingsBound();
    --quietSettings_;
    shownSettings_ = settings();
    // After the view's own handlers: an edit is seen once the view has taken it.
    for (QWidget *w : controls_) {
        if (auto *c = qobject_cast<QComboBox *>(w))
            connect(c, &QComboBox::currentIndexChanged, this, &PlotView::settingTouched);
        else if (auto *sb = qobject_cast<QSpinBox *>(w))
            connect(sb, &QSpinBox::valueChanged, this, &PlotView::settingTouched);
        else if (auto *ds = qobject_cast<QDoubleSpinBox *>(w))
            connect(ds, &QDoubleSpinBox::valueChanged, this, &PlotView::settingTouched);
        else if (auto *b = qobject_cast<QCheckBox *>(w))
            connect(b, &QCheckBox::toggled, this, &PlotView::settingTouched);
        else if (auto *e = qobject_cast<QLineEdit *>(w))
            connect(e, &QLineEdit::editingFinished, this, &PlotView::settingTouched);
    }
}

void PlotView::settingTouched()
{
    const QJsonObject now = settings();
    if (now == shownSettings_)
        return;
    const QJsonObject before = std::exchange(shownSettings_, now);
    if (quietSettings_ == 0)
        emit settingsEdited(before, now);
}

QJsonObject PlotView::settings() const
{
    QJsonObject out;
    for (std::size_t i = 0; i < controls_.size(); ++i) {
        const ViewSetting &s = info_->settings[i];
        const QWidget *w = controls_[i];
        if (auto *c = qobject_cast<const QComboBox *>(w))
            out.insert(s.key, s.choices.value(c->currentIndex()));
        else if (auto *sb = qobject_cast<const QSpinBox *>(w))
            out.insert(s.key, sb->value());
        else if (auto *d = qobject_cast<const QDoubleSpinBox *>(w))
            out.insert(s.key, d->value());
        else if (auto *b = qobject_cast<const QCheckBox *>(w))
            out.insert(s.key, b->isChecked());
        else if (auto *e = qobject_cast<const QLineEdit *>(w))
            // A field may hold a typed text it refused (framed in red): the text it applies is saved.
            out.insert(s.key, e->property("appliedText").isValid() ? e->property("appliedText").toString() : e->text());
    }
    return out;
}

std::optional<QString> PlotView::applySettings(const QJsonObject &values)
{
    if (auto problem = checkSettings(info_->settings, values))
        return problem;
    ++quietSettings_; // applied, not edited: the caller records it if it should be undone
    for (std::size_t i = 0; i < controls_.size(); ++i) {
        const ViewSetting &s = info_->settings[i];
        if (!values.contains(s.key))
            continue;
        QWidget *w = controls_[i];
        const QJsonValue v = values.value(s.key);
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
            emit e->editingFinished(); // as if typed: the view reads it then
        }
    }
    --quietSettings_;
    shownSettings_ = settings();
    return std::nullopt;
}

DataRequest PlotView::dataRequest() const
{
    return {parameters_->sharedEncoding(), parameters_->noise(), parameters_->position(),
            completeSettings(info_->settings, settings())};
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

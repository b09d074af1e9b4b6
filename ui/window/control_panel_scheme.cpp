// The rows of the parameters a scheme adds (RoPE's scaling, ALiBi's heads), made from the core's
// table of them (pe::schemeParameters()): a row shows while the scheme, and its scaling, take it.
#include "encodings/scheme.h"
#include "encodings/scheme_parameters.h"
#include "state/parameters.h"
#include "window/control_panel.h"
#include "window/control_panel_internal.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>

namespace {

QString text(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

} // namespace

void ControlPanel::addSchemeControls(QGridLayout *grid)
{
    for (const pe::SchemeParameter &sp : pe::schemeParameters()) {
        const int row = grid->rowCount();
        SchemeControl control{&sp, new QLabel(text(sp.label), this), nullptr};
        control.label->setToolTip(text(sp.help));
        if (sp.kind == pe::SchemeParameter::Kind::Choice) {
            auto *combo = new QComboBox(this);
            for (std::string_view name : sp.choices)
                combo->addItem(text(name));
            connect(combo, &QComboBox::currentIndexChanged, this, [this, &sp](int index) {
                if (following_ || index < 0)
                    return;
                pe::EncodingParams p = parameters_->values();
                sp.set(p, index);
                // LongRoPE chosen here starts from factors of 1 (no rescale) where its lists do not
                // fit d; the fields below take a model's.
                const auto pairs = static_cast<std::size_t>(pe::rotatedPairs(p.dModel, p.rope));
                if (p.rope.scaling == pe::RopeScaling::LongRope) {
                    if (p.rope.shortFactor.size() != pairs)
                        p.rope.shortFactor.assign(pairs, 1.0);
                    if (p.rope.longFactor.size() != pairs)
                        p.rope.longFactor.assign(pairs, 1.0);
                }
                apply(p);
            });
            control.widget = combo;
        } else if (sp.kind == pe::SchemeParameter::Kind::Switch) {
            auto *box = new QCheckBox(this);
            connect(box, &QCheckBox::toggled, this, [this, &sp](bool on) {
                if (following_)
                    return;
                pe::EncodingParams p = parameters_->values();
                sp.set(p, on ? 1.0 : 0.0);
                apply(p);
            });
            control.widget = box;
        } else if (sp.kind == pe::SchemeParameter::Kind::List) {
            // A list is typed whole ("1,1.02,2.5") and applied on Enter or leaving the field; a
            // refused one is said under the controls and the field returns to what is shown.
            auto *edit = new QLineEdit(this);
            edit->setMaxLength(static_cast<int>(pe::kMaxListValues) * 24);
            connect(edit, &QLineEdit::editingFinished, this, [this, &sp, edit] {
                if (following_)
                    return;
                std::string error;
                auto list = pe::parseList(sp, edit->text().toStdString(), &error);
                const auto shown = [this, &sp, edit] { // the field returns to the state's list
                    edit->setText(QString::fromStdString(pe::listText(sp.getList(parameters_->values()))));
                    edit->setCursorPosition(0);
                };
                if (!list) {
                    followState();
                    shown();
                    showRefusals(QString::fromStdString(error));
                    return;
                }
                pe::EncodingParams p = parameters_->values();
                if (sp.getList(p) == *list)
                    return;
                sp.setList(p, std::move(*list));
                apply(p);
                shown();
            });
            control.widget = edit;
        } else {
            auto *spin = new ScientificSpinBox;
            spin->setWholeNumbers(sp.kind == pe::SchemeParameter::Kind::Integer);
            // A fraction (the rotary fraction, in (0, 1]) steps by 1/16 from 1/16: its arrows would
            // otherwise have the one value 1.
            if (sp.minimumExcluded && sp.maximum <= 1) {
                spin->setSingleStep(1.0 / 16);
                spin->setStepRange(1.0 / 16, sp.maximum);
            } else {
                spin->setStepRange(sp.minimumExcluded ? std::min(1.0, sp.maximum) : sp.minimum, sp.maximum);
            }
            addTyped(
                spin,
                [this, &sp](double v) -> std::optional<std::string> {
                    pe::EncodingParams p = parameters_->values();
                    sp.set(p, v);
                    // Fewer heads take the shown head along: its spin box's maximum is the count.
                    p.head = std::min(p.head, p.heads);
                    if (auto error = parameters_->set(p))
                        return error->message;
                    return std::nullopt;
                },
                [this, &sp] { return sp.get(parameters_->values()); });
            control.widget = spin;
        }
        control.widget->setObjectName(QString::fromStdString(sp.flag()));
        control.widget->setToolTip(
            QStringLiteral("%1: %2").arg(text(sp.help), QString::fromStdString(pe::parameterAllowedText(sp))));
        grid->addWidget(control.label, row, 0);
        grid->addWidget(control.widget, row, 1, 1, 2);
        schemeControls_.push_back(control);
    }
}

void ControlPanel::followSchemeControls(const pe::EncodingParams &p)
{
    for (const SchemeControl &c : schemeControls_) {
        const bool shown = pe::takes(p, c.parameter->field);
        c.label->setVisible(shown);
        c.widget->setVisible(shown);
        if (auto *combo = qobject_cast<QComboBox *>(c.widget))
            combo->setCurrentIndex(static_cast<int>(c.parameter->get(p)));
        else if (auto *box = qobject_cast<QCheckBox *>(c.widget))
            box->setChecked(c.parameter->get(p) != 0);
        else if (auto *edit = qobject_cast<QLineEdit *>(c.widget); edit && !edit->hasFocus()) {
            edit->setText(QString::fromStdString(pe::listText(c.parameter->getList(p))));
            edit->setCursorPosition(0); // the first factors, not the last
        }
        if (c.parameter->field == pe::Field::Head)
            static_cast<ScientificSpinBox *>(c.widget)->setStepRange(1, p.heads);
    }
}

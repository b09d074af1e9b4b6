// FigureTitleDialog: the form of View > Figure title and markers and its check of the markers.
#include "window/figure_title_dialog.h"

#include "state/view_registry.h"
#include "state/view_settings.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>

FigureTitleDialog::FigureTitleDialog(const QString &viewTitle, const QJsonObject &settings, bool markers,
                                     QWidget *parent)
    : QDialog(parent)
    , hasMarkers_(markers)
    , text_(new QLineEdit(settings.value(QStringLiteral("title")).toString(), this))
    , shown_(new QCheckBox(tr("Show a title"), this))
    , markers_(new QLineEdit(settings.value(QStringLiteral("markers")).toString(), this))
    , problem_(new QLabel(this))
{
    setWindowTitle(tr("Figure title: %1").arg(viewTitle));
    auto *form = new QFormLayout(this);
    text_->setObjectName(QStringLiteral("figureTitleText"));
    text_->setPlaceholderText(tr("the view's own title"));
    text_->setMaxLength(kMaxSettingText);
    text_->setMinimumWidth(360);
    shown_->setObjectName(QStringLiteral("figureTitleShown"));
    shown_->setChecked(settings.value(QStringLiteral("showTitle")).toBool(true));
    connect(shown_, &QCheckBox::toggled, text_, &QWidget::setEnabled);
    text_->setEnabled(shown_->isChecked());
    form->addRow(tr("Title:"), text_);
    form->addRow(QString(), shown_);
    markers_->setObjectName(QStringLiteral("figureMarkers"));
    markers_->setPlaceholderText(tr("positions, e.g. 50, 100"));
    markers_->setToolTip(tr("A red dashed line across the position axes at each position listed"));
    problem_->setObjectName(QStringLiteral("figureMarkersProblem"));
    problem_->setWordWrap(true);
    problem_->hide();
    if (hasMarkers_) {
        form->addRow(tr("Markers:"), markers_);
        form->addRow(QString(), problem_);
    } else {
        markers_->hide();
    }
    form->addRow(new QLabel(tr("An empty title keeps the view's own. Figures, copies and sessions use these."), this));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &FigureTitleDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

QString FigureTitleDialog::title() const
{
    return text_->text();
}

bool FigureTitleDialog::showTitle() const
{
    return shown_->isChecked();
}

QString FigureTitleDialog::markers() const
{
    return markers_->text().trimmed();
}

QJsonObject FigureTitleDialog::values() const
{
    QJsonObject values{{QStringLiteral("title"), title()}, {QStringLiteral("showTitle"), showTitle()}};
    if (hasMarkers_)
        values.insert(QStringLiteral("markers"), markers());
    return values;
}

QString FigureTitleDialog::problem() const
{
    QString error;
    if (hasMarkers_ && !parseMarkers(markers_->text(), &error))
        return error;
    return QString();
}

void FigureTitleDialog::accept()
{
    // A marker list that is not one is said in the dialog, which stays open.
    if (const QString why = problem(); !why.isEmpty()) {
        problem_->setText(why);
        problem_->show();
        return;
    }
    QDialog::accept();
}

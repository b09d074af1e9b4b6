// FigureTitleDialog: the form of View > Figure title and markers and its check of the markers.
#include "window/figure_title_dialog.h"

#include "state/view_registry.h"
#include "state/view_settings.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>

#include <algorithm>

FigureTitleDialog::FigureTitleDialog(const QString &viewTitle, const QJsonObject &settings,
                                     const ViewSettings &declared, QWidget *parent)
    : QDialog(parent)
    , declared_(declared)
    , hasMarkers_(findSetting(declared, QStringLiteral("markers")) != nullptr)
    , hasColours_(findSetting(declared, QStringLiteral("colorMin")) != nullptr)
    , colorMin_(new QLineEdit(settings.value(QStringLiteral("colorMin")).toString(), this))
    , colorMax_(new QLineEdit(settings.value(QStringLiteral("colorMax")).toString(), this))
    , robust_(new QCheckBox(tr("Robust: the 2nd to 98th percentile of the values drawn"), this))
    , colorLabel_(new QLineEdit(settings.value(QStringLiteral("colorLabel")).toString(), this))
    , legend_(new QComboBox(this))
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
    if (hasMarkers_)
        form->addRow(tr("Markers:"), markers_);
    else
        markers_->hide();
    colorMin_->setObjectName(QStringLiteral("figureColorMin"));
    colorMax_->setObjectName(QStringLiteral("figureColorMax"));
    robust_->setObjectName(QStringLiteral("figureColorRobust"));
    colorLabel_->setObjectName(QStringLiteral("figureColorLabel"));
    for (QLineEdit *e : {colorMin_, colorMax_}) {
        e->setPlaceholderText(tr("auto: the view's own"));
        e->setMaxLength(kMaxSettingText);
    }
    colorMin_->setToolTip(tr("Values below it take the lowest colour (--vmin)"));
    colorMax_->setToolTip(tr("Values above it take the highest colour (--vmax)"));
    colorLabel_->setPlaceholderText(tr("the view's own"));
    colorLabel_->setMaxLength(kMaxSettingText);
    robust_->setChecked(settings.value(QStringLiteral("colorRobust")).toBool(false));
    robust_->setToolTip(tr("Where no limit is given, the colours run over the 2nd to 98th percentile of the "
                           "cells drawn (--robust), said in the colour bar"));
    const bool hasRobust = findSetting(declared, QStringLiteral("colorRobust")) != nullptr;
    if (hasColours_) {
        form->addRow(tr("Colours from:"), colorMin_);
        form->addRow(tr("Colours to:"), colorMax_);
        if (hasRobust)
            form->addRow(QString(), robust_);
        form->addRow(tr("Colour bar label:"), colorLabel_);
    }
    for (QWidget *w :
         {static_cast<QWidget *>(colorMin_), static_cast<QWidget *>(colorMax_), static_cast<QWidget *>(colorLabel_)})
        w->setVisible(hasColours_);
    robust_->setVisible(hasColours_ && hasRobust);
    legend_->setObjectName(QStringLiteral("figureLegend"));
    if (const ViewSetting *legend = findSetting(declared, QStringLiteral("legend"))) {
        const QStringList names{tr("above the plots"),         tr("below the plots"),
                                tr("best corner in the plot"), tr("upper left in the plot"),
                                tr("upper right in the plot"), tr("lower left in the plot"),
                                tr("lower right in the plot"), tr("off")};
        for (int i = 0; i < legend->choices.size(); ++i)
            legend_->addItem(names.value(i, legend->choices[i]), legend->choices[i]);
        legend_->setCurrentIndex(
            std::max(0, static_cast<int>(legend->choices.indexOf(
                            settings.value(QStringLiteral("legend")).toString(QStringLiteral("above"))))));
        legend_->setToolTip(tr("Where the legend goes (--legend)"));
        form->addRow(tr("Legend:"), legend_);
    } else {
        legend_->hide();
    }
    form->addRow(QString(), problem_);
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
    if (findSetting(declared_, QStringLiteral("legend")))
        values.insert(QStringLiteral("legend"), legend_->currentData().toString());
    if (hasColours_) {
        values.insert(QStringLiteral("colorMin"), colorMin_->text().trimmed());
        values.insert(QStringLiteral("colorMax"), colorMax_->text().trimmed());
        if (findSetting(declared_, QStringLiteral("colorRobust")))
            values.insert(QStringLiteral("colorRobust"), robust_->isChecked());
        values.insert(QStringLiteral("colorLabel"), colorLabel_->text());
    }
    return values;
}

QString FigureTitleDialog::problem() const
{
    // Every value as the command line checks it (a text by its setting's check: the markers by
    // parseMarkers), then the limits' order.
    const QJsonObject v = values();
    if (const auto why = checkSettings(declared_, v))
        return *why;
    for (const ViewSetting &s : declared_)
        if (s.check && v.contains(s.key))
            if (const QString why = s.check(v.value(s.key).toString()); !why.isEmpty())
                return why;
    return colourLimitsProblem(v);
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

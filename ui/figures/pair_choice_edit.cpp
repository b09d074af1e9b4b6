#include "figures/pair_choice_edit.h"

#include <QKeyEvent>

PairChoiceEdit::PairChoiceEdit(const QString &objectName, QWidget *parent)
    : QLineEdit(parent) // its text, "spread" by default, comes from the view's declared setting
    , helpText_(tr("Which pairs to show when not all fit: spread (evenly in log wavelength from the fastest to the "
                   "slowest), fastest, or a list like 0,5,31 or 10-20; Enter applies, Esc restores"))
{
    setObjectName(objectName);
    setToolTip(helpText_);
    setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("fastest, 10-20")));
    connect(this, &QLineEdit::editingFinished, this, &PairChoiceEdit::apply);
}

void PairChoiceEdit::setChoice(const pe::PairChoice &choice)
{
    setText(QString::fromStdString(pe::pairChoiceText(choice)));
    apply();
}

pe::PairChoice PairChoiceEdit::choiceOf(const QString &text)
{
    std::string error;
    return pe::parsePairChoice(text.trimmed().toStdString(), &error).value_or(pe::PairChoice{});
}

void PairChoiceEdit::apply()
{
    std::string error;
    const auto parsed = pe::parsePairChoice(text().trimmed().toStdString(), &error);
    if (!parsed) {
        showProblem(QString::fromStdString(error));
        return;
    }
    showProblem(QString());
    setProperty("appliedText", text().trimmed()); // what sessions save (PlotView::settings)
    const bool changed = parsed->mode != choice_.mode || parsed->list != choice_.list;
    choice_ = *parsed;
    if (changed)
        emit choiceChanged();
}

void PairChoiceEdit::showProblem(const QString &problem)
{
    problem_ = problem;
    setStyleSheet(problem.isEmpty() ? QString() : QStringLiteral("QLineEdit { border: 2px solid #d01c1c; }"));
    setToolTip(problem.isEmpty() ? helpText_ : problem);
}

void PairChoiceEdit::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Escape && !problem_.isEmpty()) {
        setText(QString::fromStdString(pe::pairChoiceText(choice_)));
        showProblem(QString());
        return;
    }
    QLineEdit::keyPressEvent(event);
}

QString PairChoiceEdit::titleText(const pe::PairChoice &choice, bool noneListed, bool hasFrequencies)
{
    if (noneListed)
        return tr("no listed pair exists at this d_model: spread instead");
    switch (choice.mode) {
    case pe::PairChoice::Mode::Spread:
        return hasFrequencies ? tr("pairs spread evenly in log wavelength, fastest to slowest")
                              : tr("pairs spread evenly over the columns");
    case pe::PairChoice::Mode::Fastest:
        return hasFrequencies ? tr("the fastest pairs") : tr("the first pairs");
    case pe::PairChoice::Mode::List:
        return tr("pairs %1").arg(QString::fromStdString(pe::pairChoiceText(choice)));
    }
    return {};
}

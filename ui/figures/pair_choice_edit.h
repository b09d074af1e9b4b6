#pragma once

#include "analysis/clock.h"
#include "state/view_settings.h"

#include <QLineEdit>

// The field that says which pairs the clocks and circles show: "spread" (the default), "fastest",
// or a list like "0,5,31" or "10-20". A typed text that does not parse is kept, framed in red with
// the reason in its tooltip, and changes nothing until corrected; Esc restores the last good text.
// Saved in sessions as its text (the view's settings read every named line edit).
class PairChoiceEdit : public QLineEdit
{
    Q_OBJECT

  public:
    explicit PairChoiceEdit(const QString &objectName, QWidget *parent = nullptr);

    const pe::PairChoice &choice() const { return choice_; }
    // The choice a setting's text says; a text that does not parse (a session may hold one: the
    // field frames it in red) is the default, spread.
    static pe::PairChoice choiceOf(const QString &text);
    void setChoice(const pe::PairChoice &choice);
    // Empty when the text applies; else the one-sentence reason.
    QString problem() const { return problem_; }
    // What a view's title says of the pairs it shows; noneListed: a list that names no pair of this
    // d, for which the view spreads instead.
    // A table's pairs have no wavelengths: spread is then even in the pair index.
    static QString titleText(const pe::PairChoice &choice, bool noneListed, bool hasFrequencies = true);

  signals:
    void choiceChanged();

  protected:
    void keyPressEvent(QKeyEvent *event) override;

  private:
    void apply();
    void showProblem(const QString &problem);

    pe::PairChoice choice_;
    QString problem_;
    QString helpText_;
};

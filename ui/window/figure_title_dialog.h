// FigureTitleDialog: View > Figure title and markers, a view's title replaced or hidden and its position markers.
#pragma once

#include <QDialog>
#include <QJsonObject>

class QCheckBox;
class QLabel;
class QLineEdit;

// Shows a view's settings now (PlotView::settings()): its title, whether it is shown, and, for a
// view with a position axis (`markers`), the positions marked with red dashed lines. OK with a
// markers text that is not positions says why under it and keeps the dialog open (parseMarkers).
class FigureTitleDialog : public QDialog
{
    Q_OBJECT

  public:
    FigureTitleDialog(const QString &viewTitle, const QJsonObject &settings, bool markers, QWidget *parent = nullptr);

    QString title() const;
    bool showTitle() const;
    bool hasMarkers() const { return hasMarkers_; }
    QString markers() const; // trimmed
    // What the view applies (PlotView::applySettings): title and showTitle, and markers when it has them.
    QJsonObject values() const;
    // Why the markers text is refused, or empty (always empty for a view without markers).
    QString problem() const;

    void accept() override;

  private:
    bool hasMarkers_;
    QLineEdit *text_;
    QCheckBox *shown_;
    QLineEdit *markers_;
    QLabel *problem_;
};

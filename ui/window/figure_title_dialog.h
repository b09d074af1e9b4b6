// FigureTitleDialog: View > Figure title, markers and colours: a view's title replaced or hidden, its
// position markers, and its colour bar's limits and label.
#pragma once

#include <QDialog>
#include <QJsonObject>

#include "state/view_settings.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;

// Shows a view's settings now (PlotView::settings()): its title, whether it is shown, for a view
// with a position axis the positions marked with red dashed lines, for a view with a legend where
// it goes (legendSetting, --legend), and for a view with a colour bar
// its lowest and highest values, robust limits and label (colourSettings; the same as --vmin,
// --vmax, --robust, --colorbar-label). The settings the view declares (`declared`) decide which
// rows show. OK with a text that is refused says why under the form and keeps the dialog open.
class FigureTitleDialog : public QDialog
{
    Q_OBJECT

  public:
    FigureTitleDialog(const QString &viewTitle, const QJsonObject &settings, const ViewSettings &declared,
                      QWidget *parent = nullptr);

    QString title() const;
    bool showTitle() const;
    bool hasMarkers() const { return hasMarkers_; }
    bool hasColours() const { return hasColours_; }
    QString markers() const; // trimmed
    // What the view applies (PlotView::applySettings): title and showTitle, and the markers and
    // colour settings when it has them.
    QJsonObject values() const;
    // Why a text is refused (the markers, a colour limit, the limits' order), or empty.
    QString problem() const;

    void accept() override;

  private:
    ViewSettings declared_;
    bool hasMarkers_;
    bool hasColours_;
    QLineEdit *colorMin_;
    QLineEdit *colorMax_;
    QCheckBox *robust_;
    QLineEdit *colorLabel_;
    QComboBox *legend_;
    QLineEdit *text_;
    QCheckBox *shown_;
    QLineEdit *markers_;
    QLabel *problem_;
};

#pragma once

#include "figures/figure_export.h"

#include <QDialog>
#include <QImage>

#include <functional>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTimer;

// File > Export figure: which view, its size in pixels or in a unit (in, mm, cm) with the dpi,
// the type's size in points, and the file, with a preview of the figure as it will be laid out.
// The choices are remembered (QSettings) for the next export. Writing happens on accept through
// exportFigure(); a failure is shown and the dialog stays open.
class ExportDialog : public QDialog
{
    Q_OBJECT

  public:
    // `preview` draws a view (by index) with the dialog's options at pixelRatio device pixels a
    // point (figurePreview), and says what the dialog notes under the size; empty: no preview.
    using Preview = std::function<QImage(int view, const FigureOptions &options, double pixelRatio, QString *note)>;
    ExportDialog(const QStringList &viewTitles, int currentView, QSize currentSize, Preview preview = {},
                 QWidget *parent = nullptr);

    int viewIndex() const;
    FigureOptions options() const;
    QString path() const;

    void accept() override;

  private:
    void browse();
    void unitChanged();
    void update();
    void drawPreview();

    Preview preview_;
    QComboBox *view_;
    QComboBox *unit_;
    QDoubleSpinBox *width_;
    QDoubleSpinBox *height_;
    QDoubleSpinBox *scale_;
    QSpinBox *dpi_;
    QDoubleSpinBox *font_;
    QLineEdit *path_;
    QLabel *pixels_;
    QLabel *picture_;
    QLabel *note_; // what fitting the figure to its size found (figurePreview)
    QTimer *previewTimer_;
    int shownUnit_ = 0;
};

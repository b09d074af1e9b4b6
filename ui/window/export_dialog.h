#pragma once

#include "figures/panel_figure.h"

#include <QDialog>
#include <QImage>

#include <functional>

class QCheckBox;
class QComboBox;
class QListWidget;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTimer;

// File > Export figure: which view (or several, ticked and ordered, as the panels of one figure in
// a grid of rows and columns, labelled (a), (b)...), its size in pixels or in a unit (in, mm, cm) with the dpi,
// the type's size in points, and the file, with a preview of the figure as it will be laid out.
// The choices are remembered (QSettings) for the next export. Writing happens on accept through
// exportFigure(); a failure is shown and the dialog stays open.
class ExportDialog : public QDialog
{
    Q_OBJECT

  public:
    // `preview` draws the views (by index: one, or the panels in the grid) with the dialog's options
    // at pixelRatio device pixels a point (figurePreview, panelPreview), and says what the dialog
    // notes under the size; empty: no preview.
    using Preview = std::function<QImage(const QList<int> &views, const PanelGrid &grid, const FigureOptions &options,
                                         double pixelRatio, QString *note)>;
    ExportDialog(const QStringList &viewTitles, int currentView, QSize currentSize, Preview preview = {},
                 QWidget *parent = nullptr);

    int viewIndex() const;
    // The panels' views in their order (empty: one view, viewIndex()), and their grid and labels.
    QList<int> panelViews() const;
    PanelGrid grid() const;
    // What is wrong with the panels chosen (too few views, a grid that does not hold them), or nothing.
    std::optional<QString> panelsProblem() const;
    FigureOptions options() const;
    QString path() const;

    void accept() override;

  private:
    void browse();
    void unitChanged();
    void update();
    void drawPreview();
    void panelsChanged();

    Preview preview_;
    QComboBox *view_;
    QCheckBox *panels_;       // several views as panels
    QListWidget *panelViews_; // checkable, dragged into order
    QSpinBox *rows_;
    QSpinBox *columns_;
    QComboBox *labels_;
    QWidget *panelBox_;
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

#pragma once

#include "figure_export.h"

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QSpinBox;

// File > Export figure: which view, its size and scale, and the file. Writing happens on accept
// through exportFigure(); a failure is shown and the dialog stays open.
class ExportDialog : public QDialog
{
    Q_OBJECT

  public:
    ExportDialog(const QStringList &viewTitles, int currentView, QSize currentSize, QWidget *parent = nullptr);

    int viewIndex() const;
    FigureOptions options() const;
    QString path() const;

  private:
    void browse();

    QComboBox *view_;
    QSpinBox *width_;
    QSpinBox *height_;
    QDoubleSpinBox *scale_;
    QLineEdit *path_;
};

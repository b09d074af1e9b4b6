#include "export_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include <cmath>

ExportDialog::ExportDialog(const QStringList &viewTitles, int currentView, QSize currentSize, QWidget *parent)
    : QDialog(parent)
    , view_(new QComboBox(this))
    , width_(new QSpinBox(this))
    , height_(new QSpinBox(this))
    , scale_(new QDoubleSpinBox(this))
    , path_(new QLineEdit(this))
{
    setWindowTitle(tr("Export figure"));
    view_->addItems(viewTitles);
    view_->setCurrentIndex(currentView);
    for (QSpinBox *side : {width_, height_}) {
        side->setRange(figurelimits::minSide, figurelimits::maxSide);
        side->setSuffix(tr(" px"));
    }
    width_->setValue(std::clamp(currentSize.width(), figurelimits::minSide, figurelimits::maxSide));
    height_->setValue(std::clamp(currentSize.height(), figurelimits::minSide, figurelimits::maxSide));
    scale_->setRange(figurelimits::minScale, figurelimits::maxScale);
    scale_->setSingleStep(0.5);
    scale_->setValue(2.0);
    scale_->setToolTip(tr("Device pixels per pixel: 2 gives a sharp figure for print at the same layout "
                          "(SVG and PDF: how finely heatmap cells and projection points are computed)"));
    path_->setText(QDir::current().filePath(QStringLiteral("figure.png")));
    auto *browseButton = new QPushButton(tr("Browse…"), this);
    connect(browseButton, &QPushButton::clicked, this, &ExportDialog::browse);
    auto *fileRow = new QHBoxLayout;
    fileRow->addWidget(path_, 1);
    fileRow->addWidget(browseButton);

    auto *pixels = new QLabel(this);
    auto showPixels = [this, pixels] {
        pixels->setText(tr("%1 × %2 pixels")
                            .arg(std::lround(width_->value() * scale_->value()))
                            .arg(std::lround(height_->value() * scale_->value())));
    };
    connect(width_, &QSpinBox::valueChanged, this, showPixels);
    connect(height_, &QSpinBox::valueChanged, this, showPixels);
    connect(scale_, &QDoubleSpinBox::valueChanged, this, showPixels);
    showPixels();

    auto *form = new QFormLayout(this);
    form->addRow(tr("View:"), view_);
    form->addRow(tr("Width:"), width_);
    form->addRow(tr("Height:"), height_);
    form->addRow(tr("Scale:"), scale_);
    form->addRow(tr("Image:"), pixels);
    form->addRow(tr("File (.png, .svg, .pdf):"), fileRow);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
    setMinimumWidth(520);
}

int ExportDialog::viewIndex() const
{
    return view_->currentIndex();
}

FigureOptions ExportDialog::options() const
{
    return {QSize(width_->value(), height_->value()), scale_->value()};
}

QString ExportDialog::path() const
{
    return path_->text();
}

void ExportDialog::browse()
{
    const QString chosen = QFileDialog::getSaveFileName(
        this, tr("Export figure"), path_->text(), tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
    if (!chosen.isEmpty())
        path_->setText(chosen);
}

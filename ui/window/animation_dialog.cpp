// AnimationDialog: the form of Playback > Export animation, its defaults, ranges and file check.
#include "window/animation_dialog.h"

#include "figures/figure_export.h"
#include "figures/gif_writer.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include <algorithm>

AnimationDialog::AnimationDialog(const QString &viewTitle, const QString &viewId, std::int64_t positionsLeft,
                                 QSize plotSize, QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Export animation: %1").arg(viewTitle));
    auto *form = new QFormLayout(this);
    frames_ = new QSpinBox(this);
    frames_->setRange(1, 10000);
    frames_->setValue(static_cast<int>(std::clamp<std::int64_t>(positionsLeft, 1, 100)));
    frames_->setToolTip(tr("Frames, one position step apart; past the window's end it slides along"));
    step_ = new QSpinBox(this);
    step_->setRange(1, 1000000);
    step_->setValue(1);
    fps_ = new QSpinBox(this);
    fps_->setRange(1, GifWriter::kMaxFps);
    fps_->setValue(10);
    width_ = new QSpinBox(this);
    height_ = new QSpinBox(this);
    for (QSpinBox *side : {width_, height_}) {
        side->setRange(figurelimits::minSide, 2000);
        side->setSuffix(tr(" px"));
    }
    width_->setValue(std::clamp(plotSize.width(), figurelimits::minSide, 2000));
    height_->setValue(std::clamp(plotSize.height(), figurelimits::minSide, 2000));
    auto *size = new QHBoxLayout;
    size->addWidget(width_);
    size->addWidget(new QLabel(QStringLiteral("×"), this));
    size->addWidget(height_);
    path_ = new QLineEdit(QDir::current().filePath(viewId + QStringLiteral(".gif")), this);
    auto *browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, &AnimationDialog::browse);
    auto *file = new QHBoxLayout;
    file->addWidget(path_, 1);
    file->addWidget(browse);
    form->addRow(tr("Frames:"), frames_);
    form->addRow(tr("Positions a frame:"), step_);
    form->addRow(tr("Frames a second:"), fps_);
    form->addRow(tr("Size:"), size);
    form->addRow(tr("File (.gif):"), file);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    form->addRow(buttons);
}

int AnimationDialog::frames() const
{
    return frames_->value();
}

int AnimationDialog::step() const
{
    return step_->value();
}

int AnimationDialog::fps() const
{
    return fps_->value();
}

QSize AnimationDialog::imageSize() const
{
    return QSize(width_->value(), height_->value());
}

QString AnimationDialog::path() const
{
    return path_->text();
}

QString AnimationDialog::problem() const
{
    if (!path().endsWith(QStringLiteral(".gif"), Qt::CaseInsensitive))
        return tr("The file name must end in .gif.");
    return QString();
}

void AnimationDialog::browse()
{
    const QString chosen =
        QFileDialog::getSaveFileName(this, tr("Export animation"), path_->text(), tr("GIF animation (*.gif)"));
    if (!chosen.isEmpty())
        path_->setText(chosen);
}

// AnimationDialog: the form of Playback > Export animation, its defaults, ranges and file check.
#include "window/animation_dialog.h"

#include "figures/figure_export.h"
#include "figures/gif_writer.h"
#include "figures/video_writer.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
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
    format_ = new QComboBox(this);
    format_->setObjectName(QStringLiteral("animationFormat"));
    format_->addItem(tr("GIF (looping)"), QStringLiteral("gif"));
    format_->addItem(tr("MP4 video (H.264)"), QStringLiteral("mp4"));
    format_->addItem(tr("WebM video (VP9)"), QStringLiteral("webm"));
    format_->setToolTip(tr("A video plays in slides and browsers at up to 60 frames a second and 3840 x 2160; "
                           "a GIF loops anywhere (--export-frames FILE.gif|mp4|webm)"));
    width_ = new QSpinBox(this);
    height_ = new QSpinBox(this);
    width_->setRange(figurelimits::minSide, VideoWriter::kMaxWidth);
    height_->setRange(figurelimits::minSide, VideoWriter::kMaxHeight);
    for (QSpinBox *side : {width_, height_})
        side->setSuffix(tr(" px"));
    width_->setValue(std::clamp(plotSize.width(), figurelimits::minSide, VideoWriter::kMaxWidth));
    height_->setValue(std::clamp(plotSize.height(), figurelimits::minSide, VideoWriter::kMaxHeight));
    font_ = new QDoubleSpinBox(this);
    font_->setObjectName(QStringLiteral("animationFont"));
    font_->setRange(0, figurelimits::maxFont);
    font_->setDecimals(1);
    font_->setSingleStep(1);
    font_->setSpecialValueText(tr("the view's own"));
    font_->setSuffix(tr(" pt"));
    font_->setToolTip(tr("The tick labels' size, titles in proportion (--font-size): 22 pt is 2% of a 1080-line "
                         "frame, as lecture mode sets it"));
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
    form->addRow(tr("Format:"), format_);
    form->addRow(tr("Size:"), size);
    form->addRow(tr("Type:"), font_);
    form->addRow(tr("File:"), file);
    // The format names the file's ending, and the frame rate its range (GIF delays are hundredths).
    connect(format_, &QComboBox::currentIndexChanged, this, [this] {
        const QString ext = format_->currentData().toString();
        QFileInfo info(path_->text());
        path_->setText(info.dir().filePath(info.completeBaseName() + QLatin1Char('.') + ext));
        fps_->setMaximum(ext == QLatin1String("gif") ? GifWriter::kMaxFps : VideoWriter::kMaxFps);
        if (ext != QLatin1String("gif") && fps_->value() == 10)
            fps_->setValue(30);
    });
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

double AnimationDialog::fontPoints() const
{
    return font_->value();
}

void AnimationDialog::setFormat(const QString &ending)
{
    format_->setCurrentIndex(std::max(0, format_->findData(ending)));
}

QString AnimationDialog::problem() const
{
    const QString ext = format_->currentData().toString();
    if (QFileInfo(path()).suffix().toLower() != ext)
        return tr("The file name must end in .%1.").arg(ext);
    const QSize size = imageSize();
    if (ext == QLatin1String("gif") && (size.width() > kMaxGifSide || size.height() > kMaxGifSide))
        return tr("A GIF is at most %1 pixels a side; choose MP4 or WebM for larger frames.").arg(kMaxGifSide);
    if (font_->value() > 0 && font_->value() < figurelimits::minFont)
        return tr("The type must be at least %1 pt.").arg(figurelimits::minFont);
    return QString();
}

void AnimationDialog::browse()
{
    const QString ext = format_->currentData().toString();
    const QString chosen = QFileDialog::getSaveFileName(this, tr("Export animation"), path_->text(),
                                                        format_->currentText() + QStringLiteral(" (*.") + ext + u')');
    if (!chosen.isEmpty())
        path_->setText(chosen);
}

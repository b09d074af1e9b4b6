#include "window/lecture_presenter.h"

#include "state/lecture.h"
#include "window/lecture_player.h"

#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QTextBrowser>

namespace {

constexpr QSize kNextThumbnail(480, 270);

QFont sized(const QFont &base, double factor, bool bold = false)
{
    QFont f = base;
    f.setPointSizeF(base.pointSizeF() * factor);
    f.setBold(bold);
    return f;
}

} // namespace

LecturePresenter::LecturePresenter(LecturePlayer *player, QWidget *parent)
    : QWidget(parent, Qt::Window)
    , player_(player)
    , step_(new QLabel(this))
    , clock_(new QLabel(this))
    , caption_(new QLabel(this))
    , notes_(new QTextBrowser(this))
    , nextTitle_(new QLabel(this))
    , nextImage_(new QLabel(this))
{
    setObjectName(QStringLiteral("lecturePresenter"));
    setWindowTitle(tr("Presenter view"));
    step_->setObjectName(QStringLiteral("presenterStep"));
    clock_->setObjectName(QStringLiteral("presenterClock"));
    caption_->setObjectName(QStringLiteral("presenterCaption"));
    notes_->setObjectName(QStringLiteral("presenterNotes"));
    nextTitle_->setObjectName(QStringLiteral("presenterNextTitle"));
    nextImage_->setObjectName(QStringLiteral("presenterNextImage"));
    step_->setFont(sized(font(), 1.8, true));
    step_->setWordWrap(true);
    clock_->setFont(sized(font(), 2.4, true));
    clock_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    caption_->setFont(sized(font(), 1.3));
    caption_->setTextFormat(Qt::RichText);
    caption_->setWordWrap(true);
    notes_->setFont(sized(font(), 1.5));
    notes_->setFocusPolicy(Qt::NoFocus); // the keys stay the clicker's
    nextTitle_->setFont(sized(font(), 1.2, true));
    nextTitle_->setWordWrap(true);
    nextImage_->setMinimumSize(kNextThumbnail / 2);
    nextImage_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // the pixmap follows the column
    nextImage_->setAlignment(Qt::AlignCenter);
    auto *previous = new QPushButton(tr("◀ Previous"), this);
    auto *next = new QPushButton(tr("Next ▶"), this);
    for (QPushButton *b : {previous, next})
        b->setFocusPolicy(Qt::NoFocus);
    connect(previous, &QPushButton::clicked, player_, &LecturePlayer::previous);
    connect(next, &QPushButton::clicked, player_, &LecturePlayer::next);
    auto *grid = new QGridLayout(this);
    grid->addWidget(step_, 0, 0);
    grid->addWidget(clock_, 0, 1);
    grid->addWidget(caption_, 1, 0);
    grid->addWidget(nextTitle_, 1, 1);
    grid->addWidget(notes_, 2, 0);
    grid->addWidget(nextImage_, 2, 1, Qt::AlignTop);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(previous);
    buttons->addWidget(next);
    buttons->addStretch(1);
    grid->addLayout(buttons, 3, 0, 1, 2);
    grid->setColumnStretch(0, 3);
    grid->setColumnStretch(1, 2);
    grid->setRowStretch(2, 1);
    seconds_.setInterval(1000);
    connect(&seconds_, &QTimer::timeout, this, &LecturePresenter::tick);
    seconds_.start();
    since_.start();
    draw_.setSingleShot(true);
    draw_.setInterval(0);
    connect(&draw_, &QTimer::timeout, this, &LecturePresenter::drawNextThumbnail);
    connect(player_, &LecturePlayer::stepChanged, this, &LecturePresenter::update);
    resize(1100, 700);
    update();
    tick();
}

void LecturePresenter::update()
{
    if (!player_->isOpen())
        return;
    const Lecture &lecture = player_->lecture();
    const int k = player_->step();
    const LectureStep &step = lecture.steps[static_cast<std::size_t>(k)];
    step_->setText(tr("%1 / %2  ·  %3").arg(k + 1).arg(lecture.steps.size()).arg(step.title));
    caption_->setText(captionHtml(step.caption));
    notes_->setPlainText(step.notes.isEmpty() ? tr("(no notes)") : step.notes);
    const bool last = k + 1 >= static_cast<int>(lecture.steps.size());
    nextTitle_->setText(last
                            ? tr("The last step.")
                            : tr("Next: %1 · %2").arg(k + 2).arg(lecture.steps[static_cast<std::size_t>(k + 1)].title));
    nextImage_->clear();
    next_ = QImage();
    if (!last)
        draw_.start();
}

void LecturePresenter::drawNextThumbnail()
{
    const int k = player_->step() + 1;
    if (!player_->isOpen() || k >= static_cast<int>(player_->lecture().steps.size()))
        return;
    next_ = figure_.thumbnail(player_->lecture().steps[static_cast<std::size_t>(k)], kNextThumbnail);
    showNext();
}

void LecturePresenter::showNext()
{
    // The whole figure, as wide as the column allows.
    if (next_.isNull())
        return;
    const QPixmap pixmap = QPixmap::fromImage(next_.width() > nextImage_->width()
                                                  ? next_.scaledToWidth(nextImage_->width(), Qt::SmoothTransformation)
                                                  : next_);
    nextImage_->setMinimumHeight(pixmap.height()); // all of it, not the middle of a short label
    nextImage_->setPixmap(pixmap);
}

void LecturePresenter::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    showNext();
}

void LecturePresenter::tick()
{
    const qint64 s = since_.elapsed() / 1000;
    clock_->setText(QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0')));
}

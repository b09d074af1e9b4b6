#include "window/lecture_overview.h"

#include <QKeyEvent>
#include <QPainter>

namespace {

constexpr QSize kThumbnail(320, 180);

QPixmap placeholder()
{
    QPixmap p(kThumbnail);
    p.fill(QColor(128, 128, 128, 60));
    QPainter painter(&p);
    painter.drawText(p.rect(), Qt::AlignCenter, QObject::tr("drawing…"));
    return p;
}

} // namespace

LectureOverview::LectureOverview(QWidget *parent)
    : QListWidget(parent)
{
    setObjectName(QStringLiteral("lectureOverview"));
    setViewMode(QListView::IconMode);
    setIconSize(kThumbnail);
    setGridSize(kThumbnail + QSize(24, 64));
    setResizeMode(QListView::Adjust);
    setMovement(QListView::Static);
    setWordWrap(true);
    setUniformItemSizes(true);
    setSpacing(6);
    timer_.setSingleShot(true);
    timer_.setInterval(0);
    connect(&timer_, &QTimer::timeout, this, &LectureOverview::drawNext);
    connect(this, &QListWidget::itemActivated, this, [this](QListWidgetItem *item) {
        hide();
        emit chosen(row(item));
    });
    if (parent)
        parent->installEventFilter(this); // it covers the parent at every size
    hide();
}

bool LectureOverview::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == parentWidget() && event->type() == QEvent::Resize)
        setGeometry(parentWidget()->rect());
    return QListWidget::eventFilter(watched, event);
}

void LectureOverview::showFor(const Lecture &lecture, int current)
{
    const QJsonObject json = lectureToJson(lecture);
    if (json != lectureJson_) { // another lecture, or an edited one: drawn again
        lectureJson_ = json;
        lecture_ = lecture;
        thumbnails_.assign(lecture.steps.size(), QImage());
        queue_.clear();
        for (int k = 0; k < static_cast<int>(lecture.steps.size()); ++k)
            queue_.push_back(k);
    }
    clear();
    const QPixmap waiting = placeholder();
    for (std::size_t k = 0; k < lecture_.steps.size(); ++k) {
        auto *item = new QListWidgetItem(tr("%1 · %2").arg(k + 1).arg(lecture_.steps[k].title), this);
        item->setIcon(thumbnails_[k].isNull() ? QIcon(waiting) : QIcon(QPixmap::fromImage(thumbnails_[k])));
        item->setTextAlignment(Qt::AlignHCenter | Qt::AlignTop);
    }
    // The current step first in the queue: it is what the lecturer looks for.
    if (const auto it = std::find(queue_.begin(), queue_.end(), current); it != queue_.end())
        std::rotate(queue_.begin(), it, it + 1);
    setCurrentRow(current);
    if (parentWidget())
        setGeometry(parentWidget()->rect());
    show();
    raise();
    setFocus();
    if (!queue_.empty())
        timer_.start();
}

void LectureOverview::drawNext()
{
    if (queue_.empty() || !isVisible())
        return;
    const int k = queue_.front();
    queue_.erase(queue_.begin());
    thumbnails_[static_cast<std::size_t>(k)] =
        figure_.thumbnail(lecture_.steps[static_cast<std::size_t>(k)], kThumbnail);
    if (QListWidgetItem *it = item(k); it && !thumbnails_[static_cast<std::size_t>(k)].isNull())
        it->setIcon(QIcon(QPixmap::fromImage(thumbnails_[static_cast<std::size_t>(k)])));
    if (!queue_.empty())
        timer_.start(); // the next one after the events waiting (a key) are handled
}

bool LectureOverview::event(QEvent *event)
{
    // Esc and O close the overview before the window's shortcuts (Esc leaves lecture mode) see them.
    if (event->type() == QEvent::ShortcutOverride) {
        const int key = static_cast<QKeyEvent *>(event)->key();
        if (key == Qt::Key_Escape || key == Qt::Key_O || key == Qt::Key_Return || key == Qt::Key_Enter) {
            event->accept();
            return true;
        }
    }
    return QListWidget::event(event);
}

void LectureOverview::keyPressEvent(QKeyEvent *event)
{
    switch (event->key()) {
    case Qt::Key_Escape:
    case Qt::Key_O:
        hide();
        emit chosen(-1);
        return;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (currentRow() >= 0) {
            hide();
            emit chosen(currentRow());
        }
        return;
    default:
        QListWidget::keyPressEvent(event);
    }
}

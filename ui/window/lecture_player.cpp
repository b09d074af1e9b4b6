#include "window/lecture_player.h"

#include "figures/math_text.h"
#include "figures/plot_view.h"
#include "figures/theme.h"
#include "state/parameter_history.h"
#include "state/parameters.h"
#include "state/playback.h"
#include "state/view_registry.h"
#include "state/workspace.h"
#include "window/lecture_overview.h"
#include "window/lecture_presenter.h"
#include "window/main_window.h"

#include <QApplication>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QScreen>

#include <algorithm>
#include <cmath>

LecturePlayer::LecturePlayer(MainWindow *window)
    : QObject(window)
    , window_(window)
    , bar_(new QWidget(window))
    , caption_(new QLabel(bar_))
    , counter_(new QLabel(bar_))
{
    bar_->setObjectName(QStringLiteral("lectureCaptionBar"));
    caption_->setObjectName(QStringLiteral("lectureCaption"));
    counter_->setObjectName(QStringLiteral("lectureCounter"));
    caption_->setTextFormat(Qt::RichText);
    caption_->setWordWrap(true);
    caption_->setAlignment(Qt::AlignCenter);
    counter_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    auto *row = new QHBoxLayout(bar_);
    row->setContentsMargins(24, 6, 24, 10);
    row->addWidget(caption_, 1);
    row->addWidget(counter_, 0);
    bar_->hide();
    timer_.setInterval(16); // a frame at 60 Hz
    timer_.setTimerType(Qt::PreciseTimer);
    connect(&timer_, &QTimer::timeout, this, &LecturePlayer::tick);
}

LecturePlayer::~LecturePlayer()
{
    qApp->removeEventFilter(this);
}

bool LecturePlayer::start(const Lecture &lecture, int step, QString *error)
{
    if (!load(lecture, step, error))
        return false;
    window_->setLectureMode(true);
    showCaption();
    return true;
}

bool LecturePlayer::load(const Lecture &lecture, int step, QString *error)
{
    if (lecture.steps.empty() || step < 0 || step >= static_cast<int>(lecture.steps.size())) {
        if (error)
            *error = tr("the lecture has no step %1.").arg(step + 1);
        return false;
    }
    const Lecture before = lecture_;
    const bool wasOpen = open_;
    lecture_ = lecture;
    open_ = true;
    if (!goTo(step, error)) {
        lecture_ = before;
        open_ = wasOpen;
        return false;
    }
    qApp->removeEventFilter(this); // once
    qApp->installEventFilter(this);
    emit lectureChanged();
    return true;
}

void LecturePlayer::setLecture(const Lecture &lecture, int step)
{
    if (lecture.steps.empty()) {
        close();
        return;
    }
    if (!open_)
        qApp->installEventFilter(this);
    lecture_ = lecture;
    open_ = true;
    step_ = std::clamp(step, 0, static_cast<int>(lecture_.steps.size()) - 1);
    showCaption();
    emit lectureChanged();
}

void LecturePlayer::close()
{
    if (!open_)
        return;
    endMotion();
    open_ = false;
    typed_.clear();
    qApp->removeEventFilter(this);
    bar_->hide();
    if (overview_)
        overview_->hide();
    if (presenter_)
        presenter_->hide();
    emit lectureChanged();
}

bool LecturePlayer::goTo(int index, QString *error)
{
    if (!open_ || index < 0 || index >= static_cast<int>(lecture_.steps.size())) {
        if (error)
            *error = tr("there is no step %1; the lecture has %2.").arg(index + 1).arg(lecture_.steps.size());
        return false;
    }
    const LectureStep &step = lecture_.steps[static_cast<std::size_t>(index)];
    endMotion();
    // The numbers move to where the step's action starts (the base at its first value), not to
    // the state's own only for the action to jump away from them.
    const Session entry = stateBeforeAction(step);
    Session start;
    const std::optional<Motion> transition = transitionTo(entry, &start);
    if (!window_->applySession(transition ? start : entry, error))
        return false;
    step_ = index;
    typed_.clear();
    const QString theme = step.theme.isEmpty() ? lecture_.theme : step.theme;
    if (const auto t = themeNamed(theme); t && *t != window_->theme())
        window_->setTheme(*t, false);
    const QString beside = window_->secondView() ? window_->secondView()->info().id : QString();
    if (beside != step.beside)
        window_->setSecondView(step.beside);
    showCaption();
    emit stepChanged(index);
    if (transition)
        startMotion(*transition);
    else
        runAction();
    return true;
}

void LecturePlayer::next()
{
    goTo(std::min(step_ + 1, static_cast<int>(lecture_.steps.size()) - 1));
}

void LecturePlayer::previous()
{
    goTo(std::max(step_ - 1, 0));
}

void LecturePlayer::showOverview()
{
    if (!open_)
        return;
    if (!overview_) {
        overview_ = new LectureOverview(window_->centralWidget());
        connect(overview_, &LectureOverview::chosen, this, [this](int index) {
            if (index >= 0)
                goTo(index);
            window_->currentView()->setFocus(); // the clicker's keys again
        });
    }
    overview_->showFor(lecture_, step_);
}

void LecturePlayer::showPresenter()
{
    if (!open_)
        return;
    if (!presenter_) {
        presenter_ = new LecturePresenter(this, window_);
        // On a second screen, the one the audience's window is not on.
        for (QScreen *screen : QGuiApplication::screens())
            if (screen != window_->screen()) {
                presenter_->move(screen->availableGeometry().topLeft());
                break;
            }
    }
    presenter_->update();
    presenter_->show();
    presenter_->raise();
}

void LecturePlayer::lectureModeChanged(bool on)
{
    if (!on)
        endMotion();
    showCaption();
}

void LecturePlayer::setCaptionVisible(bool on)
{
    captionOn_ = on;
    showCaption();
}

std::optional<LecturePlayer::Motion> LecturePlayer::transitionTo(const Session &target, Session *start) const
{
    const Parameters *p = window_->workspace()->parameters();
    if (!window_->currentView() || window_->currentView()->info().id != target.view)
        return std::nullopt; // another view: numbers moving on it would mean nothing yet
    Motion m;
    m.seconds = kTransitionSeconds;
    m.thenAction = true;
    *start = target;
    for (const QString &name : animatableParameters()) {
        const auto now = animatedValue(name, p->values(), p->noise());
        const auto then = animatedValue(name, target.params, target.noise);
        if (!now || !then || *now == *then)
            continue;
        setAnimated(name, *now, start->params, start->noise);
        m.parameters << name;
        m.from.push_back(*now);
        m.to.push_back(*then);
    }
    // Only the numbers may differ: the same scheme, sizes, table and seed.
    if (start->params != p->values() || start->noise != p->noise())
        return std::nullopt;
    if (p->realPosition() != target.position &&
        !pe::validateRealPosition(target.params, target.noise, p->realPosition())) {
        m.position = true;
        m.positionFrom = p->realPosition();
        m.positionTo = target.position;
        start->position = p->realPosition();
    }
    if (m.parameters.isEmpty() && !m.position)
        return std::nullopt;
    return m;
}

void LecturePlayer::runAction()
{
    const LectureAction &a = lecture_.steps[static_cast<std::size_t>(step_)].action;
    Motion m;
    switch (a.kind) {
    case LectureAction::Kind::None:
        return;
    case LectureAction::Kind::Play:
        m.position = true;
        m.positionFrom = a.from;
        m.positionTo = a.to;
        break;
    case LectureAction::Kind::Animate:
        m.parameters << a.parameter;
        m.from.push_back(a.from);
        m.to.push_back(a.to);
        break;
    }
    m.seconds = actionSeconds(a);
    startMotion(m);
}

void LecturePlayer::startMotion(const Motion &motion)
{
    motion_ = motion;
    if (!motion_.parameters.isEmpty() && !gesture_) {
        // One undo step, however many frames: the move into a step and its action together.
        window_->workspace()->history()->beginGesture();
        gesture_ = true;
    }
    applyMotion(0);
    clock_.start();
    timer_.start();
}

void LecturePlayer::tick()
{
    const double u = motion_.seconds > 0 ? clock_.nsecsElapsed() * 1e-9 / motion_.seconds : 1.0;
    applyMotion(std::min(u, 1.0));
    if (u >= 1.0)
        completeStage(); // a transition's action starts now
}

void LecturePlayer::applyMotion(double u)
{
    Parameters *p = window_->workspace()->parameters();
    if (!motion_.parameters.isEmpty()) {
        pe::EncodingParams params = p->values();
        pe::NoiseParams noise = p->noise();
        for (qsizetype i = 0; i < motion_.parameters.size(); ++i)
            setAnimated(
                motion_.parameters[i],
                animatedBetween(motion_.from[static_cast<std::size_t>(i)], motion_.to[static_cast<std::size_t>(i)], u),
                params, noise);
        p->setState(params, noise); // both ends were checked; a value between them that is refused is skipped
    }
    if (motion_.position) {
        // Smoothly between whole positions where the state has them, else from whole one to whole one.
        const double t = motion_.positionFrom + (motion_.positionTo - motion_.positionFrom) * u;
        if (!p->takesRealPositions() || !p->setRealPosition(t))
            p->setPosition(std::llround(t));
    }
}

void LecturePlayer::completeStage()
{
    applyMotion(1.0);
    const bool thenAction = motion_.thenAction;
    endMotion(thenAction);
    if (thenAction)
        runAction();
    if (!timer_.isActive())
        endMotion(); // nothing follows: the gesture closes
}

void LecturePlayer::finishMotion()
{
    while (timer_.isActive())
        completeStage();
}

void LecturePlayer::endMotion(bool keepGesture)
{
    timer_.stop();
    if (gesture_ && !keepGesture) {
        window_->workspace()->history()->endGesture();
        gesture_ = false;
    }
    motion_ = Motion();
}

void LecturePlayer::showCaption()
{
    const bool show = open_ && window_->lectureMode();
    bar_->setVisible(show);
    if (!show)
        return;
    const LectureStep &step = lecture_.steps[static_cast<std::size_t>(step_)];
    // The step's title first, in bold: the class sees what this step is about.
    caption_->setText(captionOn_
                          ? QStringLiteral("<b>%1.</b> %2").arg(step.title.toHtmlEscaped(), mathText(step.caption))
                          : QString());
    // Large enough for the back row: a thirty-fifth of the screen's height (31 px at 1080 lines),
    // times the lecture's zoom (Ctrl+= and Ctrl+-).
    const QScreen *screen = window_->screen();
    const int pixels =
        std::max(18, qRound((screen ? screen->geometry().height() : 840) / 35.0 * window_->lectureZoom()));
    QFont f = window_->font();
    f.setPixelSize(pixels);
    caption_->setFont(f);
    f.setPixelSize(std::max(12, pixels * 4 / 5));
    counter_->setFont(f);
    updateCounter();
}

void LecturePlayer::updateCounter()
{
    counter_->setText(typed_.isEmpty() ? tr("%1 / %2").arg(step_ + 1).arg(lecture_.steps.size())
                                       : tr("go to %1 …").arg(typed_));
}

bool LecturePlayer::eventFilter(QObject *watched, QEvent *event)
{
    if ((event->type() != QEvent::KeyPress && event->type() != QEvent::ShortcutOverride) || !open_ ||
        !window_->lectureMode() || !watched->isWidgetType())
        return false;
    // The audience's window and the presenter's; the overview, while it shows, keeps its own keys.
    const QWidget *window = static_cast<QWidget *>(watched)->window();
    if ((window != window_ && window != presenter_) || (overview_ && overview_->isVisible()))
        return false;
    const auto *key = static_cast<QKeyEvent *>(event);
    const std::function<void()> act = keyAction(key->key(), key->modifiers() & ~Qt::KeypadModifier);
    if (!act)
        return false;
    if (event->type() == QEvent::ShortcutOverride) {
        event->accept(); // ours, ahead of the window's shortcuts (its position keys share the arrows)
        return true;
    }
    act();
    return true;
}

std::function<void()> LecturePlayer::keyAction(int key, Qt::KeyboardModifiers modifiers)
{
    if (modifiers == Qt::ShiftModifier && key == Qt::Key_Space)
        return [this] { window_->playback()->toggle(); };
    if (modifiers != Qt::NoModifier)
        return {}; // Ctrl+Z and the rest stay the window's
    if (key >= Qt::Key_0 && key <= Qt::Key_9)
        return [this, key] {
            if (typed_.size() < 4)
                typed_ += QChar(u'0' + (key - Qt::Key_0));
            updateCounter();
        };
    if (!typed_.isEmpty() && (key == Qt::Key_Return || key == Qt::Key_Enter))
        return [this] {
            const int index = typed_.toInt() - 1;
            typed_.clear();
            if (!goTo(index))
                updateCounter(); // no such step: the number goes
        };
    if (!typed_.isEmpty() && (key == Qt::Key_Escape || key == Qt::Key_Backspace))
        return [this] {
            typed_.clear();
            updateCounter();
        };
    switch (key) {
    case Qt::Key_PageDown:
    case Qt::Key_Right:
    case Qt::Key_Down:
    case Qt::Key_Space:
    case Qt::Key_N:
    case Qt::Key_Return:
    case Qt::Key_Enter:
        return [this] { next(); };
    case Qt::Key_PageUp:
    case Qt::Key_Left:
    case Qt::Key_Up:
    case Qt::Key_B:
    case Qt::Key_P:
    case Qt::Key_Backspace:
        return [this] { previous(); };
    case Qt::Key_Home:
        return [this] { goTo(0); };
    case Qt::Key_End:
        return [this] { goTo(static_cast<int>(lecture_.steps.size()) - 1); };
    case Qt::Key_Comma:
        return [this] { window_->workspace()->parameters()->stepPosition(-1); };
    case Qt::Key_Period:
        return [this] { window_->workspace()->parameters()->stepPosition(1); };
    case Qt::Key_R:
        return [this] {
            endMotion();
            runAction();
        };
    case Qt::Key_C:
        return [this] { setCaptionVisible(!captionOn_); };
    case Qt::Key_O:
        return [this] { showOverview(); };
    default:
        return {};
    }
}

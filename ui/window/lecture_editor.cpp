#include "window/lecture_editor.h"

#include "figures/plot_view.h"
#include "state/view_registry.h"
#include "window/lecture_player.h"
#include "window/main_window.h"

#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QUndoCommand>
#include <QUndoStack>
#include <QVBoxLayout>

namespace {

// One edit of the lecture: the lecture and the step chosen before and after.
class LectureEdit : public QUndoCommand
{
  public:
    LectureEdit(LectureEditor *editor, LecturePlayer *player, Lecture before, int stepBefore, Lecture after,
                int stepAfter, const QString &text, int merge)
        : QUndoCommand(text)
        , editor_(editor)
        , player_(player)
        , before_(std::move(before))
        , after_(std::move(after))
        , stepBefore_(stepBefore)
        , stepAfter_(stepAfter)
        , merge_(merge)
    {
    }

    int id() const override { return 3; }
    void undo() override { apply(before_, stepBefore_); }
    void redo() override { apply(after_, stepAfter_); }
    bool mergeWith(const QUndoCommand *other) override
    {
        const auto *next = static_cast<const LectureEdit *>(other);
        if (merge_ == 0 || next->merge_ != merge_)
            return false;
        after_ = next->after_;
        stepAfter_ = next->stepAfter_;
        return true;
    }

  private:
    void apply(const Lecture &lecture, int step)
    {
        player_->setLecture(lecture, step);
        editor_->refresh();
    }

    LectureEditor *editor_;
    LecturePlayer *player_;
    Lecture before_, after_;
    int stepBefore_, stepAfter_;
    int merge_;
};

int lastMerge = 0; // typing: each field's edits merge while it keeps the keyboard

} // namespace

LectureEditor::LectureEditor(MainWindow *window, LecturePlayer *player)
    : QWidget(window)
    , window_(window)
    , player_(player)
    , lectureTitle_(new QLineEdit(this))
    , steps_(new QListWidget(this))
    , title_(new QLineEdit(this))
    , caption_(new QPlainTextEdit(this))
    , notes_(new QPlainTextEdit(this))
    , remove_(new QPushButton(tr("Delete"), this))
{
    setObjectName(QStringLiteral("lectureEditor"));
    steps_->setObjectName(QStringLiteral("lectureSteps"));
    lectureTitle_->setObjectName(QStringLiteral("lectureTitle"));
    lectureTitle_->setToolTip(tr("The lecture's title: the handout's header, the Lecture menu's entry"));
    steps_->setToolTip(tr("The steps in order; choose one to show it"));
    title_->setToolTip(tr("The step's name in the overview and the presenter view"));
    caption_->setToolTip(tr("Shown large under the figure in lecture mode (C hides it) and on the handout"));
    notes_->setToolTip(tr("The speaker's notes, shown in the presenter view"));
    title_->setObjectName(QStringLiteral("stepTitle"));
    caption_->setObjectName(QStringLiteral("stepCaption"));
    notes_->setObjectName(QStringLiteral("stepNotes"));
    caption_->setPlaceholderText(tr("Shown large under the figure: <i>, <b>, <sub>, <sup>, math between $ signs"));
    notes_->setPlaceholderText(tr("For the presenter view"));
    caption_->setMaximumHeight(90);
    for (QLineEdit *line : {lectureTitle_, title_})
        line->setMaxLength(kMaxStepTitleChars);
    auto button = [this](const QString &text, const QString &tip, auto slot) {
        auto *b = new QPushButton(text, this);
        b->setToolTip(tip);
        connect(b, &QPushButton::clicked, this, slot);
        return b;
    };
    auto *row = new QHBoxLayout;
    row->addWidget(button(tr("Add this state"), tr("The window's state now, as a step after the chosen one"),
                          [this] { addCurrentState(); }));
    row->addWidget(button(tr("Update"), tr("The chosen step takes the window's state now"), [this] { updateStep(); }));
    row->addWidget(button(tr("Duplicate"), tr("A copy of the chosen step after it"), [this] { duplicateStep(); }));
    remove_->setToolTip(tr("Delete the chosen step (a lecture keeps one)"));
    connect(remove_, &QPushButton::clicked, this, [this] { deleteStep(); });
    row->addWidget(remove_);
    row->addWidget(button(QStringLiteral("▲"), tr("Move the chosen step up"), [this] { moveStep(-1); }));
    row->addWidget(button(QStringLiteral("▼"), tr("Move the chosen step down"), [this] { moveStep(1); }));
    auto *form = new QFormLayout;
    form->addRow(tr("Step title"), title_);
    form->addRow(tr("Caption"), caption_);
    form->addRow(tr("Notes"), notes_);
    auto *layout = new QVBoxLayout(this);
    auto *top = new QFormLayout;
    top->addRow(tr("Lecture"), lectureTitle_);
    layout->addLayout(top);
    layout->addWidget(steps_, 1);
    layout->addLayout(row);
    layout->addLayout(form);
    auto *give = button(tr("Give from this step (F5)"), tr("Lecture mode at the chosen step"), [this] {
        if (player_->isOpen())
            window_->setLectureMode(true);
    });
    layout->addWidget(give);

    connect(steps_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (refreshing_) // refresh() filling the list
            return;
        if (row >= 0 && row != player_->step())
            player_->goTo(row); // stepChanged refreshes
    });
    // Typing: one undo step per field while it keeps the keyboard (a new one each time it gets it).
    auto typed = [this](QWidget *field, const QString &what, auto change) {
        return [this, field, what, change] {
            if (refreshing_ || !player_->isOpen())
                return;
            Lecture after = player_->lecture();
            change(after);
            if (field->property("merge").toInt() == 0)
                field->setProperty("merge", ++lastMerge);
            edit(after, player_->step(), what, field->property("merge").toInt());
        };
    };
    const auto stepOf = [this](Lecture &l) -> LectureStep & {
        return l.steps[static_cast<std::size_t>(player_->step())];
    };
    connect(lectureTitle_, &QLineEdit::textEdited, this,
            typed(lectureTitle_, tr("lecture title"), [this](Lecture &l) { l.title = lectureTitle_->text(); }));
    connect(title_, &QLineEdit::textEdited, this,
            typed(title_, tr("step title"), [this, stepOf](Lecture &l) { stepOf(l).title = title_->text(); }));
    connect(caption_, &QPlainTextEdit::textChanged, this, typed(caption_, tr("caption"), [this, stepOf](Lecture &l) {
                stepOf(l).caption = caption_->toPlainText().left(kMaxCaptionChars);
            }));
    connect(notes_, &QPlainTextEdit::textChanged, this, typed(notes_, tr("notes"), [this, stepOf](Lecture &l) {
                stepOf(l).notes = notes_->toPlainText().left(kMaxNotesChars);
            }));
    for (QWidget *field : fields())
        field->installEventFilter(this);
    connect(player_, &LecturePlayer::stepChanged, this, &LectureEditor::refresh);
    refresh();
}

int LectureEditor::chosen() const
{
    return player_->step();
}

LectureStep LectureEditor::currentState() const
{
    LectureStep step;
    step.state = window_->currentSession();
    step.title = window_->currentView()->info().title;
    if (window_->lectureMode() && window_->secondView())
        step.beside = window_->secondView()->info().id;
    return step;
}

void LectureEditor::newLecture()
{
    Lecture lecture;
    lecture.title = tr("Untitled lecture");
    lecture.steps.push_back(currentState());
    const Lecture before = player_->isOpen() ? player_->lecture() : Lecture();
    const int stepBefore = player_->step();
    path_.clear();
    window_->undoStack()->push(new LectureEdit(this, player_, before, stepBefore, lecture, 0, tr("new lecture"), 0));
}

void LectureEditor::addCurrentState()
{
    if (!player_->isOpen())
        return newLecture();
    Lecture after = player_->lecture();
    const int at = chosen() + 1;
    after.steps.insert(after.steps.begin() + at, currentState());
    edit(after, at, tr("add step"));
}

void LectureEditor::updateStep()
{
    if (!player_->isOpen())
        return;
    Lecture after = player_->lecture();
    LectureStep &step = after.steps[static_cast<std::size_t>(chosen())];
    const LectureStep now = currentState();
    step.state = now.state;
    step.beside = now.beside;
    step.action = {}; // an action was checked against the state it replaces
    edit(after, chosen(), tr("update step"));
}

void LectureEditor::duplicateStep()
{
    if (!player_->isOpen())
        return;
    Lecture after = player_->lecture();
    const int at = chosen();
    after.steps.insert(after.steps.begin() + at + 1, after.steps[static_cast<std::size_t>(at)]);
    edit(after, at + 1, tr("duplicate step"));
}

void LectureEditor::deleteStep()
{
    if (!player_->isOpen() || player_->lecture().steps.size() < 2)
        return;
    Lecture after = player_->lecture();
    const int at = chosen();
    after.steps.erase(after.steps.begin() + at);
    edit(after, std::min(at, static_cast<int>(after.steps.size()) - 1), tr("delete step"));
}

void LectureEditor::moveStep(int by)
{
    if (!player_->isOpen())
        return;
    Lecture after = player_->lecture();
    const int at = chosen();
    const int to = at + by;
    if (to < 0 || to >= static_cast<int>(after.steps.size()))
        return;
    std::swap(after.steps[static_cast<std::size_t>(at)], after.steps[static_cast<std::size_t>(to)]);
    edit(after, to, tr("move step"));
}

bool LectureEditor::save(const QString &path, QString *error)
{
    if (!player_->isOpen()) {
        *error = tr("there is no lecture to save.");
        return false;
    }
    if (!writeLectureFile(path, player_->lecture(), error))
        return false;
    path_ = path;
    return true;
}

std::vector<QWidget *> LectureEditor::fields() const
{
    return {lectureTitle_, title_, caption_, notes_};
}

bool LectureEditor::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::FocusIn || event->type() == QEvent::FocusOut)
        watched->setProperty("merge", 0); // the next edit starts a step of its own
    return QWidget::eventFilter(watched, event);
}

void LectureEditor::edit(const Lecture &after, int step, const QString &text, int merge)
{
    window_->undoStack()->push(
        new LectureEdit(this, player_, player_->lecture(), player_->step(), after, step, text, merge));
}

void LectureEditor::refresh()
{
    refreshing_ = true;
    const bool open = player_->isOpen();
    setEnabled(open);
    steps_->clear();
    if (open) {
        const Lecture &lecture = player_->lecture();
        for (std::size_t k = 0; k < lecture.steps.size(); ++k)
            steps_->addItem(tr("%1 · %2").arg(k + 1).arg(lecture.steps[k].title));
        steps_->setCurrentRow(player_->step());
        const LectureStep &step = lecture.steps[static_cast<std::size_t>(player_->step())];
        // Set only when different: a field being typed into keeps its cursor.
        if (lectureTitle_->text() != lecture.title)
            lectureTitle_->setText(lecture.title);
        if (title_->text() != step.title)
            title_->setText(step.title);
        if (caption_->toPlainText() != step.caption)
            caption_->setPlainText(step.caption);
        if (notes_->toPlainText() != step.notes)
            notes_->setPlainText(step.notes);
        remove_->setEnabled(lecture.steps.size() > 1);
    }
    refreshing_ = false;
}

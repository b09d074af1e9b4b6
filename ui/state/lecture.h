#pragma once

#include "state/session.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

// What a step does once it is shown: play the position from `from` to `to` at `speed` positions a
// second, or move one parameter from `from` to `to` over `seconds` (the base from 1e4 to 1e6, so
// the class sees the clocks slow down).
struct LectureAction {
    enum class Kind { None, Play, Animate };
    Kind kind = Kind::None;
    double from = 0;
    double to = 0;
    double speed = 0;   // Play: positions a second, in Playback's range
    double seconds = 0; // Animate
    QString parameter;  // Animate: "base", "sigma" (the noise) or a scheme parameter's key ("factor")

    bool operator==(const LectureAction &) const = default;
};

// One step of a lecture: a complete state (a session: the scheme and its parameters, the position,
// the noise, the view in front and every view's settings), an optional second view beside it and
// theme, a caption shown large under the figure, the speaker's notes and an action on entry.
struct LectureStep {
    QString title;   // short: the overview's and the presenter's name for it
    Session state;   // complete
    QString beside;  // a view id shown beside state.view, or empty
    QString theme;   // "system", "light", "dark", "projector", or empty: the lecture's
    QString caption; // rich text (<b>, <i>, <br>) with math between dollar signs
    QString notes;   // plain text, for the presenter's screen
    LectureAction action;
};

// A lecture: an ordered list of steps (.pelecture files, the built-in ones in resources/lectures).
struct Lecture {
    QString title;
    QString source;      // the articles or papers it follows
    QString description; // one line, --list-lectures
    QString theme;       // the steps' theme where a step names none; empty: the window's
    std::vector<LectureStep> steps;
    QString name; // a built-in lecture's name (--lecture-file NAME), from its file name
};

inline constexpr int kLectureVersion = 1;
// A lecture of a few hundred steps is a few hundred kilobytes; anything beyond this is refused
// before it is read.
inline constexpr qint64 kMaxLectureBytes = 4 << 20;
inline constexpr int kMaxLectureSteps = 500;
// Text limits, in characters: a caption is a line or two under the figure.
inline constexpr int kMaxCaptionChars = 600;
inline constexpr int kMaxNotesChars = 4000;
inline constexpr int kMaxStepTitleChars = 120;
// An action's time: a parameter moves over at most a minute.
inline constexpr double kMaxAnimateSeconds = 60;
inline constexpr double kMinAnimateSeconds = 0.1;

// The themes a step may name, in the order of figures/theme.h's kThemes.
QStringList themeNames();

// The parameters a step's action may move: "base", "sigma" and the real-valued scheme parameters.
QStringList animatableParameters();
// `params` and `noise` with `parameter` set to `value`; false when the parameter does not apply to
// the scheme (a table has no base) or is not animatable.
bool setAnimated(const QString &parameter, double value, pe::EncodingParams &params, pe::NoiseParams &noise);
// The parameter's value in a state, or nothing when it does not apply.
std::optional<double> animatedValue(const QString &parameter, const pe::EncodingParams &params,
                                    const pe::NoiseParams &noise);
// The value a fraction u of the way from `from` to `to`: geometric between two positive values
// (a base's decades pass evenly), linear otherwise.
double animatedBetween(double from, double to, double u);

// The step's state as its action leaves it (the position at the play's end, the parameter at its
// last value): what a handout or slide shows of it.
Session stateAfterAction(const LectureStep &step);
// And where it starts: what the window shows on entering the step.
Session stateBeforeAction(const LectureStep &step);
// A fraction u (0 to 1) of the way through its action: the position played (whole positions) or
// the parameter moved (animatedBetween). The player's frames and a video's.
Session stateDuringAction(const LectureStep &step, double u);
// How long the action runs: a play's positions at its speed, an animation's seconds; 0 for none.
double actionSeconds(const LectureAction &action);

// Strict reading, as sessions are read: unknown keys, wrong types and values the validators refuse
// are refused with one line naming the step ("step 3 (Why sine and cosine): ...") and the key.
// A step's state is a session's fields (parameters, position, noise, view, views), or "preset": a
// preset's whole state, which "state" may then change: each parameter and each view setting it
// names, and the position, noise and view whole.
std::optional<Lecture> lectureFromJson(const QJsonObject &json, QString *error);
std::optional<Lecture> parseLecture(const QByteArray &bytes, QString *error);
// A lecture as its file holds it: every step's whole state (no preset named).
QJsonObject lectureToJson(const Lecture &lecture);

// Files: refused when missing, not a regular file, unreadable or larger than kMaxLectureBytes;
// written atomically.
std::optional<Lecture> readLectureFile(const QString &path, QString *error);
bool writeLectureFile(const QString &path, const Lecture &lecture, QString *error);

// The built-in lectures (resources/lectures/NAME.pelecture), by name in order.
const std::vector<Lecture> &builtInLectures();
const Lecture *findBuiltInLecture(const QString &name);
// --lecture-file's value: a built-in lecture's name, or a file.
std::optional<Lecture> openLecture(const QString &nameOrPath, QString *error);

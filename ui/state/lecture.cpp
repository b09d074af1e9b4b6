#include "state/lecture.h"

#include "encodings/scheme.h"
#include "encodings/scheme_parameters.h"
#include "state/json_file.h"
#include "state/json_reader.h"
#include "state/playback.h"
#include "state/view_registry.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>

#include <algorithm>
#include <cmath>

namespace {

constexpr auto kFormat = "positional-encoding-explorer-lecture";

QString keyText(std::string_view key)
{
    return QString::fromUtf8(key.data(), static_cast<qsizetype>(key.size()));
}

// The first key of `o` not among `allowed`, said in one sentence with what is allowed.
std::optional<QString> unknownKey(const QJsonObject &o, const QStringList &allowed, const QString &what)
{
    for (auto it = o.begin(); it != o.end(); ++it)
        if (!allowed.contains(it.key()))
            return QStringLiteral("unknown key '%1' in %2; it may have %3.")
                .arg(oneLine(it.key().left(40)), what, allowed.join(QStringLiteral(", ")));
    return std::nullopt;
}

// Every key a session's parameters may have.
QStringList parameterKeys()
{
    QStringList keys{QStringLiteral("scheme"),   QStringLiteral("seq_len"),   QStringLiteral("d_model"),
                     QStringLiteral("base"),     QStringLiteral("start_pos"), QStringLiteral("layout"),
                     QStringLiteral("exponent"), QStringLiteral("table"),     QStringLiteral("bias_table"),
                     QStringLiteral("model")};
    for (const pe::SchemeParameter &sp : pe::schemeParameters())
        keys << keyText(sp.key);
    return keys;
}

const pe::SchemeParameter *realParameter(const QString &key)
{
    for (const pe::SchemeParameter &sp : pe::schemeParameters())
        if (sp.kind == pe::SchemeParameter::Kind::Real && keyText(sp.key) == key)
            return &sp;
    return nullptr;
}

// `o` with `changes` laid over it: objects named in `deep` merge key by key (a state's parameters;
// its views, each view's settings key by key), every other key is replaced whole.
QJsonObject overlay(QJsonObject o, const QJsonObject &changes, int depth)
{
    for (auto it = changes.begin(); it != changes.end(); ++it) {
        const bool merge =
            depth > 0 && it.value().isObject() && o.value(it.key()).isObject() &&
            (it.key() == QLatin1String("parameters") || it.key() == QLatin1String("views") || depth == 1);
        o.insert(it.key(), merge ? QJsonValue(overlay(o.value(it.key()).toObject(), it.value().toObject(), depth - 1))
                                 : QJsonValue(it.value()));
    }
    return o;
}

// The state of a step: the preset's, changed by "state", read as a session.
std::optional<Session> readStepState(const QJsonObject &step, QString *error)
{
    const JsonReader r{error};
    QJsonObject state;
    if (step.contains(QLatin1String("preset"))) {
        QString name;
        if (!r.string(step, "preset", name))
            return std::nullopt;
        const Session *preset = findPreset(name);
        if (!preset) {
            r.fail(QStringLiteral("no preset '%1' (see --list-presets).").arg(oneLine(name.left(60))));
            return std::nullopt;
        }
        state = sessionToJson(*preset);
        for (const char *key : {"name", "source", "title", "description"})
            state.remove(QLatin1String(key));
    } else if (!step.contains(QLatin1String("state"))) {
        r.fail(QStringLiteral("a step needs a 'state', a 'preset', or both."));
        return std::nullopt;
    }
    if (step.contains(QLatin1String("state"))) {
        QJsonObject changes;
        if (!r.object(step, "state", changes))
            return std::nullopt;
        if (auto problem = unknownKey(changes,
                                      {QStringLiteral("parameters"), QStringLiteral("position"),
                                       QStringLiteral("noise"), QStringLiteral("view"), QStringLiteral("views")},
                                      QStringLiteral("its state"))) {
            r.fail(*problem);
            return std::nullopt;
        }
        if (const QJsonValue p = changes.value(QLatin1String("parameters")); p.isObject())
            if (auto problem = unknownKey(p.toObject(), parameterKeys(), QStringLiteral("its parameters"))) {
                r.fail(*problem);
                return std::nullopt;
            }
        if (const QJsonValue n = changes.value(QLatin1String("noise")); n.isObject())
            if (auto problem =
                    unknownKey(n.toObject(), {QStringLiteral("sigma"), QStringLiteral("seed"), QStringLiteral("rng")},
                               QStringLiteral("its noise"))) {
                r.fail(*problem);
                return std::nullopt;
            }
        state = overlay(state, changes, 2);
    }
    state.insert(QStringLiteral("format"), QLatin1String(kSessionFormat));
    state.insert(QStringLiteral("version"), kSessionVersion);
    return sessionFromJson(state, error);
}

std::optional<LectureAction> readAction(const QJsonObject &step, const Session &state, QString *error)
{
    const JsonReader r{error};
    LectureAction a;
    if (!step.contains(QLatin1String("action")))
        return a;
    QJsonObject o;
    QString kind;
    if (!r.object(step, "action", o) || !r.string(o, "kind", kind))
        return std::nullopt;
    const auto fail = [&](const QString &why) {
        r.fail(QStringLiteral("action: %1").arg(why));
        return std::nullopt;
    };
    if (kind == QLatin1String("play")) {
        a.kind = LectureAction::Kind::Play;
        std::int64_t from = 0, to = 0;
        if (auto problem = unknownKey(
                o, {QStringLiteral("kind"), QStringLiteral("from"), QStringLiteral("to"), QStringLiteral("speed")},
                QStringLiteral("a play action")))
            return fail(*problem);
        if (!r.integer(o, "from", from) || !r.integer(o, "to", to) || !r.number(o, "speed", a.speed))
            return std::nullopt;
        for (const std::int64_t t : {from, to})
            if (auto problem = pe::validatePosition(state.params, t))
                return fail(QString::fromStdString(*problem));
        if (from == to)
            return fail(QStringLiteral("'from' and 'to' are the same position: nothing to play."));
        if (!(a.speed >= Playback::kMinSpeed && a.speed <= Playback::kMaxSpeed))
            return fail(QStringLiteral("'speed' must be %1 to %2 positions a second (got %3).")
                            .arg(Playback::kMinSpeed)
                            .arg(Playback::kMaxSpeed)
                            .arg(a.speed));
        a.from = static_cast<double>(from);
        a.to = static_cast<double>(to);
        return a;
    }
    if (kind != QLatin1String("animate"))
        return fail(QStringLiteral("'kind' must be play or animate (got '%1').").arg(oneLine(kind.left(40))));
    a.kind = LectureAction::Kind::Animate;
    if (auto problem = unknownKey(o,
                                  {QStringLiteral("kind"), QStringLiteral("parameter"), QStringLiteral("from"),
                                   QStringLiteral("to"), QStringLiteral("seconds")},
                                  QStringLiteral("an animate action")))
        return fail(*problem);
    if (!r.string(o, "parameter", a.parameter) || !r.number(o, "from", a.from) || !r.number(o, "to", a.to) ||
        !r.number(o, "seconds", a.seconds))
        return std::nullopt;
    if (!animatableParameters().contains(a.parameter))
        return fail(QStringLiteral("'parameter' must be one of %1 (got '%2').")
                        .arg(animatableParameters().join(QStringLiteral(", ")), oneLine(a.parameter.left(40))));
    if (!animatedValue(a.parameter, state.params, state.noise))
        return fail(QStringLiteral("the scheme %1 has no %2 to move.")
                        .arg(QString::fromUtf8(pe::schemeName(state.params.scheme).data()), a.parameter));
    if (a.from == a.to)
        return fail(QStringLiteral("'from' and 'to' are the same value: nothing moves."));
    if (!(a.seconds >= kMinAnimateSeconds && a.seconds <= kMaxAnimateSeconds))
        return fail(QStringLiteral("'seconds' must be %1 to %2 (got %3).")
                        .arg(kMinAnimateSeconds)
                        .arg(kMaxAnimateSeconds)
                        .arg(a.seconds));
    // Both ends, and so every value between them (each range is an interval), pass the validators.
    for (const double v : {a.from, a.to}) {
        pe::EncodingParams params = state.params;
        pe::NoiseParams noise = state.noise;
        setAnimated(a.parameter, v, params, noise);
        if (auto problem = pe::validate(params))
            return fail(
                QStringLiteral("%1 %2: %3").arg(a.parameter).arg(v).arg(QString::fromStdString(problem->message)));
        if (auto problem = pe::validateNoiseFor(params, noise))
            return fail(QStringLiteral("%1 %2: %3").arg(a.parameter).arg(v).arg(QString::fromStdString(*problem)));
    }
    return a;
}

std::optional<LectureStep> readStep(const QJsonObject &o, QString *error)
{
    const JsonReader r{error};
    LectureStep step;
    if (auto problem = unknownKey(o,
                                  {QStringLiteral("title"), QStringLiteral("preset"), QStringLiteral("state"),
                                   QStringLiteral("beside"), QStringLiteral("theme"), QStringLiteral("caption"),
                                   QStringLiteral("notes"), QStringLiteral("action")},
                                  QStringLiteral("a step"))) {
        r.fail(*problem);
        return std::nullopt;
    }
    auto state = readStepState(o, error);
    if (!state)
        return std::nullopt;
    step.state = *state;
    if (!r.string(o, "beside", step.beside, false) || !r.string(o, "theme", step.theme, false) ||
        !r.string(o, "caption", step.caption, false) || !r.string(o, "notes", step.notes, false))
        return std::nullopt;
    if (!step.beside.isEmpty() && !findView(step.beside)) {
        r.fail(QStringLiteral("beside: unknown view '%1'; views are %2.")
                   .arg(oneLine(step.beside.left(40)), viewIds().join(QStringLiteral(", "))));
        return std::nullopt;
    }
    if (step.beside == step.state.view) {
        r.fail(QStringLiteral("beside: '%1' is the step's own view; name another one.").arg(step.beside));
        return std::nullopt;
    }
    if (!step.theme.isEmpty() && !themeNames().contains(step.theme)) {
        r.fail(QStringLiteral("theme must be %1 (got '%2').")
                   .arg(themeNames().join(QStringLiteral(", ")), oneLine(step.theme.left(40))));
        return std::nullopt;
    }
    if (step.caption.size() > kMaxCaptionChars || step.notes.size() > kMaxNotesChars) {
        const bool caption = step.caption.size() > kMaxCaptionChars;
        r.fail(QStringLiteral("'%1' has %2 characters; at most %3.")
                   .arg(caption ? QStringLiteral("caption") : QStringLiteral("notes"))
                   .arg((caption ? step.caption : step.notes).size())
                   .arg(caption ? kMaxCaptionChars : kMaxNotesChars));
        return std::nullopt;
    }
    auto action = readAction(o, step.state, error);
    if (!action)
        return std::nullopt;
    step.action = *action;
    return step;
}

std::optional<Lecture> readLecture(const QJsonObject &json, QString *error)
{
    const JsonReader r{error};
    QString format;
    std::int64_t version = 0;
    if (!r.string(json, "format", format))
        return std::nullopt;
    if (format != QLatin1String(kFormat)) {
        r.fail(QStringLiteral("this is not a lecture file (format '%1').").arg(format.left(60)));
        return std::nullopt;
    }
    if (!r.integer(json, "version", version))
        return std::nullopt;
    if (version != kLectureVersion) {
        r.fail(QStringLiteral("lecture version %1 is not known to this program (it reads version %2).")
                   .arg(version)
                   .arg(kLectureVersion));
        return std::nullopt;
    }
    if (auto problem = unknownKey(json,
                                  {QStringLiteral("format"), QStringLiteral("version"), QStringLiteral("title"),
                                   QStringLiteral("source"), QStringLiteral("description"), QStringLiteral("theme"),
                                   QStringLiteral("steps")},
                                  QStringLiteral("a lecture"))) {
        r.fail(*problem);
        return std::nullopt;
    }
    Lecture lecture;
    if (!r.string(json, "title", lecture.title) || !r.string(json, "source", lecture.source, false) ||
        !r.string(json, "description", lecture.description, false) || !r.string(json, "theme", lecture.theme, false))
        return std::nullopt;
    if (lecture.title.trimmed().isEmpty() || lecture.title.size() > kMaxStepTitleChars) {
        r.fail(QStringLiteral("'title' must be 1 to %1 characters.").arg(kMaxStepTitleChars));
        return std::nullopt;
    }
    if (!lecture.theme.isEmpty() && !themeNames().contains(lecture.theme)) {
        r.fail(QStringLiteral("theme must be %1 (got '%2').")
                   .arg(themeNames().join(QStringLiteral(", ")), oneLine(lecture.theme.left(40))));
        return std::nullopt;
    }
    const QJsonValue steps = json.value(QLatin1String("steps"));
    if (!steps.isArray() || steps.toArray().isEmpty() || steps.toArray().size() > kMaxLectureSteps) {
        r.fail(steps.isUndefined()
                   ? QStringLiteral("the field 'steps' is missing.")
                   : QStringLiteral("'steps' must be an array of 1 to %1 steps.").arg(kMaxLectureSteps));
        return std::nullopt;
    }
    int number = 0;
    for (const QJsonValue &v : steps.toArray()) {
        ++number;
        const QString title = v.toObject().value(QLatin1String("title")).toString();
        const QString which = title.isEmpty() ? QStringLiteral("step %1").arg(number)
                                              : QStringLiteral("step %1 (%2)").arg(number).arg(title.left(40));
        if (!v.isObject()) {
            r.fail(QStringLiteral("%1: a step must be an object.").arg(which));
            return std::nullopt;
        }
        QString why;
        const JsonReader stepReader{&why};
        QString checkedTitle;
        std::optional<LectureStep> step;
        if (stepReader.string(v.toObject(), "title", checkedTitle)) {
            if (checkedTitle.trimmed().isEmpty() || checkedTitle.size() > kMaxStepTitleChars)
                why = QStringLiteral("'title' must be 1 to %1 characters.").arg(kMaxStepTitleChars);
            else
                step = readStep(v.toObject(), &why);
        }
        if (!step) {
            r.fail(QStringLiteral("%1: %2").arg(which, why));
            return std::nullopt;
        }
        step->title = checkedTitle;
        lecture.steps.push_back(std::move(*step));
    }
    return lecture;
}

} // namespace

QStringList themeNames()
{
    return {QStringLiteral("system"), QStringLiteral("light"), QStringLiteral("dark"), QStringLiteral("projector")};
}

QStringList animatableParameters()
{
    QStringList names{QStringLiteral("base"), QStringLiteral("sigma")};
    for (const pe::SchemeParameter &sp : pe::schemeParameters())
        if (sp.kind == pe::SchemeParameter::Kind::Real)
            names << keyText(sp.key);
    return names;
}

std::optional<double> animatedValue(const QString &parameter, const pe::EncodingParams &params,
                                    const pe::NoiseParams &noise)
{
    if (parameter == QLatin1String("sigma"))
        return noise.sigma;
    if (parameter == QLatin1String("base"))
        return pe::notApplicable(params, pe::Field::Base).empty() ? std::optional<double>(params.base) : std::nullopt;
    const pe::SchemeParameter *sp = realParameter(parameter);
    if (!sp || !pe::notApplicable(params, sp->field).empty())
        return std::nullopt;
    return sp->get(params);
}

bool setAnimated(const QString &parameter, double value, pe::EncodingParams &params, pe::NoiseParams &noise)
{
    if (!animatedValue(parameter, params, noise))
        return false;
    if (parameter == QLatin1String("sigma"))
        noise.sigma = value;
    else if (parameter == QLatin1String("base"))
        params.base = value;
    else
        realParameter(parameter)->set(params, value);
    return true;
}

double animatedBetween(double from, double to, double u)
{
    if (u >= 1)
        return to;
    if (from > 0 && to > 0)
        return from * std::pow(to / from, u);
    return from + (to - from) * u;
}

Session stateDuringAction(const LectureStep &step, double u)
{
    Session s = step.state;
    const LectureAction &a = step.action;
    if (a.kind == LectureAction::Kind::Play) {
        // Between whole positions where the state has them (smooth), else the nearest whole one.
        const double t = a.from + (a.to - a.from) * std::clamp(u, 0.0, 1.0);
        s.position = pe::realPositionProblem(s.params, s.noise).empty() ? t : std::round(t);
    } else if (a.kind == LectureAction::Kind::Animate) // both ends checked when read, so all between
        setAnimated(a.parameter, animatedBetween(a.from, a.to, std::clamp(u, 0.0, 1.0)), s.params, s.noise);
    return s;
}

double actionSeconds(const LectureAction &action)
{
    switch (action.kind) {
    case LectureAction::Kind::Play:
        return std::abs(action.to - action.from) / action.speed;
    case LectureAction::Kind::Animate:
        return action.seconds;
    case LectureAction::Kind::None:
        break;
    }
    return 0;
}

Session stateAfterAction(const LectureStep &step)
{
    return stateDuringAction(step, 1.0);
}

Session stateBeforeAction(const LectureStep &step)
{
    return stateDuringAction(step, 0.0);
}

std::optional<Lecture> lectureFromJson(const QJsonObject &json, QString *error)
{
    std::optional<Lecture> lecture = readLecture(json, error);
    if (!lecture && error)
        *error = oneLine(*error); // messages quote the file's own text
    return lecture;
}

std::optional<Lecture> parseLecture(const QByteArray &bytes, QString *error)
{
    const auto json = jsonObjectOf(bytes, kMaxLectureBytes, QStringLiteral("lecture"), error);
    return json ? lectureFromJson(*json, error) : std::nullopt;
}

QJsonObject lectureToJson(const Lecture &lecture)
{
    QJsonArray steps;
    for (const LectureStep &step : lecture.steps) {
        QJsonObject state = sessionToJson(step.state);
        for (const char *key : {"format", "version", "name", "source", "title", "description"})
            state.remove(QLatin1String(key));
        QJsonObject o{{QStringLiteral("title"), step.title}, {QStringLiteral("state"), state}};
        if (!step.beside.isEmpty())
            o.insert(QStringLiteral("beside"), step.beside);
        if (!step.theme.isEmpty())
            o.insert(QStringLiteral("theme"), step.theme);
        if (!step.caption.isEmpty())
            o.insert(QStringLiteral("caption"), step.caption);
        if (!step.notes.isEmpty())
            o.insert(QStringLiteral("notes"), step.notes);
        const LectureAction &a = step.action;
        if (a.kind == LectureAction::Kind::Play)
            o.insert(QStringLiteral("action"), QJsonObject{{QStringLiteral("kind"), QStringLiteral("play")},
                                                           {QStringLiteral("from"), a.from},
                                                           {QStringLiteral("to"), a.to},
                                                           {QStringLiteral("speed"), a.speed}});
        else if (a.kind == LectureAction::Kind::Animate)
            o.insert(QStringLiteral("action"), QJsonObject{{QStringLiteral("kind"), QStringLiteral("animate")},
                                                           {QStringLiteral("parameter"), a.parameter},
                                                           {QStringLiteral("from"), a.from},
                                                           {QStringLiteral("to"), a.to},
                                                           {QStringLiteral("seconds"), a.seconds}});
        steps.append(o);
    }
    QJsonObject json{{QStringLiteral("format"), QLatin1String(kFormat)},
                     {QStringLiteral("version"), kLectureVersion},
                     {QStringLiteral("title"), lecture.title},
                     {QStringLiteral("steps"), steps}};
    if (!lecture.source.isEmpty())
        json.insert(QStringLiteral("source"), lecture.source);
    if (!lecture.description.isEmpty())
        json.insert(QStringLiteral("description"), lecture.description);
    if (!lecture.theme.isEmpty())
        json.insert(QStringLiteral("theme"), lecture.theme);
    return json;
}

std::optional<Lecture> readLectureFile(const QString &path, QString *error)
{
    const auto bytes = readJsonFileBytes(path, kMaxLectureBytes, QStringLiteral("lecture"), error);
    return bytes ? parseLecture(*bytes, error) : std::nullopt;
}

bool writeLectureFile(const QString &path, const Lecture &lecture, QString *error)
{
    return writeJsonFile(path, lectureToJson(lecture), error);
}

const std::vector<Lecture> &builtInLectures()
{
    static const std::vector<Lecture> list = [] {
        // In the order a course would give them; a file not listed here comes after, by name.
        QStringList names{QStringLiteral("clock-intuition"), QStringLiteral("rope-long-context"),
                          QStringLiteral("alibi")};
        for (const QString &file : QDir(QStringLiteral(":/lectures")).entryList({QStringLiteral("*.pelecture")}))
            if (!names.contains(QFileInfo(file).completeBaseName()))
                names << QFileInfo(file).completeBaseName();
        std::vector<Lecture> out;
        for (const QString &name : names) {
            QFile f(QStringLiteral(":/lectures/%1.pelecture").arg(name));
            if (!f.open(QIODevice::ReadOnly))
                continue;
            QString error;
            std::optional<Lecture> lecture = parseLecture(f.readAll(), &error);
            if (!lecture)
                qFatal("resources/lectures/%s.pelecture: %s", qPrintable(name), qPrintable(error));
            lecture->name = name;
            out.push_back(std::move(*lecture));
        }
        return out;
    }();
    return list;
}

const Lecture *findBuiltInLecture(const QString &name)
{
    for (const Lecture &l : builtInLectures())
        if (l.name == name)
            return &l;
    return nullptr;
}

std::optional<Lecture> openLecture(const QString &nameOrPath, QString *error)
{
    if (const Lecture *builtIn = findBuiltInLecture(nameOrPath))
        return *builtIn;
    if (!QFileInfo::exists(nameOrPath) && !nameOrPath.contains(QLatin1Char('/')) &&
        !nameOrPath.endsWith(QLatin1String(".pelecture"))) {
        QStringList names;
        for (const Lecture &l : builtInLectures())
            names << l.name;
        if (error)
            *error = QStringLiteral("no built-in lecture or file '%1'; the built-in lectures are %2 (--list-lectures).")
                         .arg(oneLine(nameOrPath.left(60)), names.join(QStringLiteral(", ")));
        return std::nullopt;
    }
    return readLectureFile(nameOrPath, error);
}

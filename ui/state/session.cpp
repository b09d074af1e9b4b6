#include "state/session.h"

#include "encodings/scheme_parameters.h"

#include "encodings/position_table.h"
#include "models/model_config.h"
#include "state/json_file.h"
#include "state/json_reader.h"
#include "state/view_registry.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

namespace {

std::optional<Session> readSession(const QJsonObject &json, QString *error);

} // namespace

QString oneLine(QString text)
{
    for (QChar &c : text)
        if (c.category() == QChar::Other_Control || c == QChar::LineSeparator || c == QChar::ParagraphSeparator)
            c = QLatin1Char(' ');
    return text;
}

std::optional<Session> sessionFromJson(const QJsonObject &json, QString *error)
{
    std::optional<Session> s = readSession(json, error);
    // Messages quote the file's own text: it must not break the one line.
    if (!s && error)
        *error = oneLine(*error);
    return s;
}

namespace {

std::optional<Session> readSession(const QJsonObject &json, QString *error)
{
    const JsonReader r{error};
    QString format;
    std::int64_t version = 0;
    if (!r.string(json, "format", format))
        return std::nullopt;
    if (format != QLatin1String(kSessionFormat)) {
        r.fail(QStringLiteral("this is not a session file (format '%1').").arg(format.left(60)));
        return std::nullopt;
    }
    if (!r.integer(json, "version", version))
        return std::nullopt;
    if (version != kSessionVersion) {
        r.fail(QStringLiteral("session version %1 is not known to this program (it reads version %2).")
                   .arg(version)
                   .arg(kSessionVersion));
        return std::nullopt;
    }
    Session s;
    QJsonObject p;
    std::int64_t dModel = 0;
    QString layout, exponent;
    if (!r.object(json, "parameters", p) || !r.integer(p, "seq_len", s.params.seqLen) ||
        !r.integer(p, "d_model", dModel) || !r.number(p, "base", s.params.base) ||
        !r.integer(p, "start_pos", s.params.startPos) || !r.string(p, "layout", layout) ||
        !r.string(p, "exponent", exponent))
        return std::nullopt;
    // Up to a table's widest (the validator holds other schemes to maxDModel below).
    if (dModel < pe::limits::minDModel || dModel > pe::limits::maxTableColumns) {
        r.fail(QStringLiteral("d_model must be %1 (got %2).")
                   .arg(QString::fromStdString(pe::allowedText(pe::Field::DModel)))
                   .arg(dModel));
        return std::nullopt;
    }
    s.params.dModel = static_cast<int>(dModel);
    const auto l = pe::parseLayout(layout.toStdString());
    const auto e = pe::parseExponent(exponent.toStdString());
    if (!l || !e) {
        const pe::Field field = !l ? pe::Field::Layout : pe::Field::Exponent;
        r.fail(QStringLiteral("%1 must be %2 (got '%3').")
                   .arg(QString::fromUtf8(pe::fieldName(field).data()), QString::fromStdString(pe::allowedText(field)),
                        (!l ? layout : exponent).left(40)));
        return std::nullopt;
    }
    s.params.layout = *l;
    s.params.exponent = *e;
    // The scheme by name (older sessions have none: the sinusoids); a table is its file, below.
    if (p.contains(QLatin1String("scheme"))) {
        QString scheme;
        if (!r.string(p, "scheme", scheme))
            return std::nullopt;
        const auto id = pe::parseScheme(scheme.toStdString());
        const bool table = p.contains(QLatin1String("table"));
        if (scheme == QLatin1String("table") && !table) {
            r.fail(QStringLiteral("scheme 'table' needs its file: the field 'table' (the .npy path) is missing."));
            return std::nullopt;
        }
        if (id && table) {
            r.fail(QStringLiteral("scheme '%1' does not go with a table; a table's scheme is 'table'.").arg(scheme));
            return std::nullopt;
        }
        if (!id && !(scheme == QLatin1String("table") && table)) {
            r.fail(QStringLiteral("scheme must be %1 (got '%2').")
                       .arg(QString::fromStdString(pe::allowedText(pe::Field::Scheme)), oneLine(scheme.left(40))));
            return std::nullopt;
        }
        s.params.scheme = id.value_or(pe::SchemeId::Sinusoidal);
    }
    // A position table is kept by its path (older sessions have none: the sinusoids).
    if (p.contains(QLatin1String("table"))) {
        QString path;
        if (!r.string(p, "table", path))
            return std::nullopt;
        try {
            s.params.table = pe::PositionTable::open(path.toStdString());
            s.params.scheme = pe::SchemeId::Table;
        } catch (const std::exception &ex) {
            r.fail(QStringLiteral("table: %1").arg(QString::fromStdString(ex.what())));
            return std::nullopt;
        }
    }
    // T5's learned bias table, by its path (--bias-table): the validator holds it against the scheme
    // and the buckets.
    if (p.contains(QLatin1String("bias_table"))) {
        QString path;
        if (!r.string(p, "bias_table", path))
            return std::nullopt;
        try {
            s.params.biasTable = pe::PositionTable::open(path.toStdString(), pe::PositionTable::Role::T5Bias);
        } catch (const std::exception &ex) {
            r.fail(QStringLiteral("bias_table: %1").arg(QString::fromStdString(ex.what())));
            return std::nullopt;
        }
    }
    // The model config the parameters came from, by its path: provenance (the parameters below are
    // what is shown), so the window can name the model and what changed since.
    if (p.contains(QLatin1String("model"))) {
        QString path, why;
        if (!r.string(p, "model", path))
            return std::nullopt;
        s.params.model = openModelFile(path, &why);
        if (!s.params.model) {
            r.fail(QStringLiteral("model: %1").arg(why));
            return std::nullopt;
        }
    }
    // The parameters a scheme adds, each by its key (older files have none: the defaults); a
    // choice by its name.
    for (const pe::SchemeParameter &sp : pe::schemeParameters()) {
        const QJsonValue v = p.value(QLatin1String(sp.key.data(), static_cast<qsizetype>(sp.key.size())));
        if (v.isUndefined())
            continue;
        const QString key = QString::fromUtf8(sp.key.data(), static_cast<qsizetype>(sp.key.size()));
        if (sp.kind == pe::SchemeParameter::Kind::List) { // an array of numbers
            std::vector<double> list;
            bool numbers = v.isArray() && v.toArray().size() <= static_cast<qsizetype>(pe::kMaxListValues);
            for (const QJsonValue &item : v.toArray())
                numbers = numbers && item.isDouble();
            if (numbers)
                for (const QJsonValue &item : v.toArray())
                    list.push_back(item.toDouble());
            const auto problem = numbers ? pe::listProblem(sp, list) : std::nullopt;
            if (!numbers || problem) {
                r.fail(problem ? QString::fromStdString(*problem)
                               : QStringLiteral("%1 must be an array of %2.")
                                     .arg(key, QString::fromStdString(pe::parameterAllowedText(sp))));
                return std::nullopt;
            }
            sp.setList(s.params, std::move(list));
            continue;
        }
        const bool choice = sp.kind == pe::SchemeParameter::Kind::Choice;
        std::optional<double> value;
        if (choice && v.isString())
            value = pe::parseParameter(sp, v.toString().toStdString(), nullptr);
        else if (sp.kind == pe::SchemeParameter::Kind::Switch && v.isBool())
            value = v.toBool() ? 1.0 : 0.0;
        else if (!choice && sp.kind != pe::SchemeParameter::Kind::Switch && v.isDouble() &&
                 pe::inRange(sp, v.toDouble()))
            value = v.toDouble();
        if (!value) {
            r.fail(QStringLiteral("%1 must be %2 (got %3).")
                       .arg(QString::fromUtf8(sp.key.data(), static_cast<qsizetype>(sp.key.size())),
                            QString::fromStdString(pe::parameterAllowedText(sp)),
                            oneLine(QString::fromUtf8(QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact))
                                        .mid(1)
                                        .chopped(1)
                                        .left(40))));
            return std::nullopt;
        }
        sp.set(s.params, *value);
    }
    if (auto problem = pe::validate(s.params)) {
        r.fail(QString::fromStdString(problem->message));
        return std::nullopt;
    }
    // A real position (2.25) where the state has positions between whole ones: checked with the noise.
    s.position = static_cast<double>(s.params.startPos);
    if (json.contains(QLatin1String("position")) && !r.number(json, "position", s.position))
        return std::nullopt;
    if (json.contains(QLatin1String("noise"))) {
        QJsonObject n;
        std::int64_t seed = 42;
        if (!r.object(json, "noise", n) || !r.number(n, "sigma", s.noise.sigma) || !r.integer(n, "seed", seed))
            return std::nullopt;
        if (auto problem = pe::validateSeed(seed)) {
            r.fail(QString::fromStdString(*problem));
            return std::nullopt;
        }
        s.noise.seed = static_cast<std::uint64_t>(seed);
        // The generator by name (older files have none: the counter generator).
        if (n.contains(QLatin1String("rng"))) {
            QString rng;
            if (!r.string(n, "rng", rng))
                return std::nullopt;
            const auto id = pe::parseRng(rng.toStdString());
            if (!id) {
                r.fail(QStringLiteral("rng must be %1 (got '%2').")
                           .arg(QString::fromStdString(pe::rngAllowedText()), oneLine(rng.left(40))));
                return std::nullopt;
            }
            s.noise.rng = *id;
        }
        if (auto problem = pe::validateNoiseFor(s.params, s.noise)) {
            r.fail(QString::fromStdString(*problem));
            return std::nullopt;
        }
    }
    if (auto problem = pe::validateRealPosition(s.params, s.noise, s.position)) {
        r.fail(QString::fromStdString(*problem));
        return std::nullopt;
    }
    s.view = viewIds().first();
    if (!r.string(json, "view", s.view, false))
        return std::nullopt;
    if (!findView(s.view)) {
        r.fail(QStringLiteral("unknown view '%1'; views are %2.")
                   .arg(s.view.left(40), viewIds().join(QStringLiteral(", "))));
        return std::nullopt;
    }
    if (json.contains(QLatin1String("views"))) {
        QJsonObject views;
        if (!r.object(json, "views", views))
            return std::nullopt;
        for (auto it = views.begin(); it != views.end(); ++it) {
            if (!findView(it.key())) {
                r.fail(QStringLiteral("settings for an unknown view '%1'.").arg(it.key().left(40)));
                return std::nullopt;
            }
            if (!it.value().isObject()) {
                r.fail(QStringLiteral("the settings of view '%1' must be an object.").arg(it.key()));
                return std::nullopt;
            }
            // Checked against what the view declares, so every path (window, figures, data) gets
            // checked values; choices kept by name (an older file's indices become names).
            const ViewInfo &view = *findView(it.key());
            const QJsonObject settings = it.value().toObject();
            if (auto problem = checkSettings(view.settings, settings)) {
                r.fail(QStringLiteral("view '%1': %2").arg(it.key(), *problem));
                return std::nullopt;
            }
            QJsonObject saved;
            for (auto v = settings.begin(); v != settings.end(); ++v)
                saved.insert(v.key(), savedSetting(*findSetting(view.settings, v.key()), v.value()));
            s.views.insert(it.key(), saved);
        }
    }
    if (!r.string(json, "name", s.name, false) || !r.string(json, "source", s.source, false) ||
        !r.string(json, "title", s.title, false) || !r.string(json, "description", s.description, false))
        return std::nullopt;
    return s;
}

} // namespace

std::optional<Session> parseSession(const QByteArray &bytes, QString *error)
{
    const auto json = jsonObjectOf(bytes, kMaxSessionBytes, QStringLiteral("session"), error);
    return json ? sessionFromJson(*json, error) : std::nullopt;
}

QJsonObject sessionToJson(const Session &s)
{
    QJsonObject params{{QStringLiteral("scheme"), QString::fromUtf8(pe::schemeName(s.params.scheme).data())},
                       {QStringLiteral("seq_len"), static_cast<double>(s.params.seqLen)},
                       {QStringLiteral("d_model"), s.params.dModel},
                       {QStringLiteral("base"), s.params.base},
                       {QStringLiteral("start_pos"), static_cast<double>(s.params.startPos)},
                       {QStringLiteral("layout"), QString::fromUtf8(pe::layoutName(s.params.layout).data())},
                       {QStringLiteral("exponent"), QString::fromUtf8(pe::exponentName(s.params.exponent).data())}};
    for (const pe::SchemeParameter &sp : pe::schemeParameters()) {
        const QString key = QString::fromUtf8(sp.key.data(), static_cast<qsizetype>(sp.key.size()));
        if (sp.kind == pe::SchemeParameter::Kind::List) {
            QJsonArray list;
            for (double v : sp.getList(s.params))
                list.append(v);
            params.insert(key, list);
            continue;
        }
        const double v = sp.get(s.params);
        if (sp.kind == pe::SchemeParameter::Kind::Choice)
            params.insert(key, QString::fromStdString(pe::parameterText(sp, v)));
        else if (sp.kind == pe::SchemeParameter::Kind::Switch)
            params.insert(key, v != 0);
        else
            params.insert(key, v);
    }
    if (s.params.table)
        params.insert(QStringLiteral("table"),
                      QFileInfo(QString::fromStdString(s.params.table->path())).absoluteFilePath());
    if (s.params.biasTable)
        params.insert(QStringLiteral("bias_table"),
                      QFileInfo(QString::fromStdString(s.params.biasTable->path())).absoluteFilePath());
    if (s.params.model) {
        const QString path = QString::fromStdString(s.params.model->path);
        params.insert(QStringLiteral("model"),
                      path.startsWith(QLatin1String(":/")) ? path : QFileInfo(path).absoluteFilePath());
    }
    QJsonObject views;
    for (auto it = s.views.begin(); it != s.views.end(); ++it)
        views.insert(it.key(), it.value());
    QJsonObject json{
        {QStringLiteral("format"), QLatin1String(kSessionFormat)},
        {QStringLiteral("version"), kSessionVersion},
        {QStringLiteral("parameters"), params},
        {QStringLiteral("position"), s.position},
        {QStringLiteral("noise"), QJsonObject{{QStringLiteral("sigma"), s.noise.sigma},
                                              {QStringLiteral("seed"), static_cast<double>(s.noise.seed)},
                                              {QStringLiteral("rng"), QString::fromUtf8(pe::rngName(s.noise.rng))}}},
        {QStringLiteral("view"), s.view},
        {QStringLiteral("views"), views}};
    if (!s.name.isEmpty())
        json.insert(QStringLiteral("name"), s.name);
    if (!s.source.isEmpty())
        json.insert(QStringLiteral("source"), s.source);
    if (!s.title.isEmpty())
        json.insert(QStringLiteral("title"), s.title);
    if (!s.description.isEmpty())
        json.insert(QStringLiteral("description"), s.description);
    return json;
}

std::optional<Session> readSessionFile(const QString &path, QString *error)
{
    const auto bytes = readJsonFileBytes(path, kMaxSessionBytes, QStringLiteral("session"), error);
    return bytes ? parseSession(*bytes, error) : std::nullopt;
}

bool writeSessionFile(const QString &path, const Session &session, QString *error)
{
    return writeJsonFile(path, sessionToJson(session), error);
}

std::shared_ptr<const pe::ModelConfig> openModelFile(const QString &path, QString *error)
{
    try {
        if (!path.startsWith(QLatin1String(":/")))
            return pe::openModel(path.toStdString());
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            throw std::runtime_error("'" + path.toStdString() + "' is not a config this program ships");
        const QByteArray text = f.readAll();
        auto model = pe::readModelConfig(std::string_view(text.constData(), static_cast<std::size_t>(text.size())),
                                         path.toStdString());
        model.path = path.toStdString();
        return std::make_shared<const pe::ModelConfig>(std::move(model));
    } catch (const std::exception &e) {
        if (error)
            *error = QString::fromStdString(e.what());
        return nullptr;
    }
}

namespace {

// A preset read from a shipped config ("model": "llama-3.1-8b.json"): the config's parameters, then
// the preset's own "parameters" over them (a longer seq_len, a position), as a session file holds them.
QJsonObject presetFromModel(QJsonObject o)
{
    const QString path = QStringLiteral(":/models/") + o.take(QStringLiteral("model")).toString();
    QString error;
    const auto model = openModelFile(path, &error);
    if (!model)
        qFatal("resources/presets.json: preset '%s': %s", qPrintable(o.value(QStringLiteral("name")).toString()),
               qPrintable(error));
    Session base;
    base.params = pe::modelParams(model);
    QJsonObject params = sessionToJson(base).value(QStringLiteral("parameters")).toObject();
    const QJsonObject own = o.value(QStringLiteral("parameters")).toObject();
    for (auto it = own.begin(); it != own.end(); ++it)
        params.insert(it.key(), it.value());
    o.insert(QStringLiteral("parameters"), params);
    return o;
}

} // namespace

const std::vector<Session> &presets()
{
    static const std::vector<Session> list = [] {
        std::vector<Session> out;
        QFile f(QStringLiteral(":/presets.json"));
        if (!f.open(QIODevice::ReadOnly))
            return out;
        const QJsonArray array = QJsonDocument::fromJson(f.readAll()).array();
        for (const QJsonValue &v : array) {
            QString error;
            QJsonObject o = v.toObject();
            if (o.contains(QStringLiteral("model")))
                o = presetFromModel(o);
            // Presets leave out what they share with every session file.
            o.insert(QStringLiteral("format"), QLatin1String(kSessionFormat));
            o.insert(QStringLiteral("version"), kSessionVersion);
            if (auto s = sessionFromJson(o, &error))
                out.push_back(*s);
            else
                qFatal("resources/presets.json: preset '%s': %s",
                       qPrintable(o.value(QStringLiteral("name")).toString()), qPrintable(error));
        }
        return out;
    }();
    return list;
}

const Session *findPreset(const QString &name)
{
    for (const Session &s : presets())
        if (s.name == name)
            return &s;
    return nullptr;
}

#pragma once

#include "encodings/encoding_params.h"
#include "encodings/noise.h"

#include <QByteArray>
#include <QJsonObject>
#include <QMap>
#include <QString>

#include <memory>
#include <optional>

// Everything the window shows, as a file: the parameters, the current position, the noise, the
// view in front and each view's settings (PlotView::settings). Presets are sessions too, with a
// name and a title (resources/presets.json).
struct Session {
    pe::EncodingParams params;
    double position = 0; // a whole one, or between whole ones where the state has them (validateRealPosition)
    pe::NoiseParams noise;
    QString view;                     // a view id of the registry
    QMap<QString, QJsonObject> views; // view id -> its settings

    QString name;        // presets: the --preset name
    QString source;      // presets: the article or model they reproduce (the Presets menu's submenu)
    QString title;       // presets: the menu text
    QString description; // presets: which figure of which seed
};

inline constexpr int kSessionVersion = 1;
inline constexpr auto kSessionFormat = "positional-encoding-explorer-session";

// Text with control characters and line breaks turned into spaces: what quotes user input in a
// one-line message.
QString oneLine(QString text);
// Session files are a few kilobytes; anything beyond this is refused before it is read.
inline constexpr qint64 kMaxSessionBytes = 1 << 20;

// A session from JSON: nothing when malformed, of another format or version, with a field of the
// wrong type or missing, or a value the validators refuse; `error` then says which in one line.
// View settings are checked against what each view declares in the registry (checkSettings) and
// kept with choices by name.
std::optional<Session> sessionFromJson(const QJsonObject &json, QString *error);
std::optional<Session> parseSession(const QByteArray &bytes, QString *error);
QJsonObject sessionToJson(const Session &session);

// Files: refused when missing, unreadable or larger than kMaxSessionBytes; written atomically.
std::optional<Session> readSessionFile(const QString &path, QString *error);
bool writeSessionFile(const QString &path, const Session &session, QString *error);

// A model's config (pe::openModel: a config.json, a GGUF file or a model's folder; ":/models/NAME.json"
// for the configs shipped in resources/models), or null with *error one sentence.
std::shared_ptr<const pe::ModelConfig> openModelFile(const QString &path, QString *error);

// The presets shipped in resources/presets.json (one per figure of the seeds), in menu order.
const std::vector<Session> &presets();
const Session *findPreset(const QString &name);

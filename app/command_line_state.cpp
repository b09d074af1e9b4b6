// The command line's state stages: the session or preset, the parameters, the position, the noise.
#include "command_line_internal.h"
#include "command_line_options.h"

#include "encodings/position_table.h"
#include "encodings/scheme.h"
#include "encodings/scheme_parameters.h"
#include "models/model_config.h"

#include <QCommandLineParser>

#include <cmath>
#include <limits>
#include <memory>
#include <tuple>
#include <utility>

std::optional<QString> cli::integerFlag(const QCommandLineParser &parser, const QString &name, std::int64_t &target,
                                        pe::Field field)
{
    if (!parser.isSet(name))
        return std::nullopt;
    const QString text = parser.value(name);
    const auto v = pe::parseInteger(text.toStdString());
    if (!v)
        return QStringLiteral("--%1: '%2' is not a whole number; %3 must be %4.")
            .arg(name, text, QString::fromUtf8(pe::fieldName(field).data()), allowed(field));
    target = *v;
    return std::nullopt;
}

std::optional<QString> cli::readSource(const QCommandLineParser &parser, CommandLine &cmd)
{
    const bool fromSession = parser.isSet(QStringLiteral("session")),
               fromPreset = parser.isSet(QStringLiteral("preset"));
    if (fromSession && fromPreset)
        return QStringLiteral("--session and --preset exclude each other; give one.");
    if (fromSession) {
        QString error;
        cmd.session = readSessionFile(parser.value(QStringLiteral("session")), &error);
        if (!cmd.session)
            return QStringLiteral("--session: ") + error;
    } else if (fromPreset) {
        const Session *preset = findPreset(parser.value(QStringLiteral("preset")));
        if (!preset)
            return QStringLiteral("--preset: unknown preset '%1'; --list-presets lists them.")
                .arg(parser.value(QStringLiteral("preset")));
        cmd.session = *preset;
    }
    if (cmd.session) {
        cmd.params = cmd.session->params;
        cmd.noise = cmd.session->noise;
    }
    if (parser.isSet(QStringLiteral("model"))) {
        // A model's config gives the parameters as a session does; the flags below change them.
        if (fromSession || fromPreset)
            return QStringLiteral("--model and --%1 both give the parameters; give one.")
                .arg(fromSession ? QStringLiteral("session") : QStringLiteral("preset"));
        if (parser.isSet(QStringLiteral("table")))
            return QStringLiteral("--model: a table is its own scheme; give --model or --table, not both (--model "
                                  "reads the config, --table the checkpoint's learned positions).");
        QString error;
        const auto model = openModelFile(parser.value(QStringLiteral("model")), &error);
        if (!model)
            return QStringLiteral("--model: ") + error;
        cmd.params = pe::modelParams(model);
    }
    return std::nullopt;
}

std::optional<QString> cli::readScheme(const QCommandLineParser &parser, CommandLine &cmd)
{
    pe::EncodingParams &p = cmd.params;
    std::shared_ptr<const pe::PositionTable> table;
    if (parser.isSet(QStringLiteral("table"))) {
        try {
            table = pe::PositionTable::open(parser.value(QStringLiteral("table")).toStdString());
        } catch (const std::exception &e) {
            return QStringLiteral("--table: ") + QString::fromStdString(e.what());
        }
        if (parser.isSet(QStringLiteral("scheme")))
            return QStringLiteral("--scheme: a table is its own scheme; give --scheme or --table, not both.");
    }
    if (parser.isSet(QStringLiteral("scheme")) && parser.value(QStringLiteral("scheme")) == QLatin1String("xpos")) {
        // xPos is RoPE with a scale (Sun et al. 2022): the scheme rope with torchscale's scale_base
        // 512, which --xpos-scale-base changes; sessions keep it as rope and xpos_scale_base.
        p.scheme = pe::SchemeId::Rope;
        p.table.reset();
        if (p.xposScaleBase <= 0)
            p.xposScaleBase = 512;
    } else if (parser.isSet(QStringLiteral("scheme"))) {
        const auto scheme = pe::parseScheme(parser.value(QStringLiteral("scheme")).toStdString());
        if (!scheme)
            return QStringLiteral("--scheme: '%1' is not a scheme; use %2.")
                .arg(parser.value(QStringLiteral("scheme")), allowed(pe::Field::Scheme));
        p.scheme = *scheme;
        p.table.reset(); // a session's table gives way to the scheme named
        if (p.scheme != pe::SchemeId::T5)
            p.biasTable.reset(); // and a T5 session's bias table
    }
    if (parser.isSet(QStringLiteral("bias-table"))) {
        // T5's learned relative_attention_bias, [buckets, heads]: it gives the buckets unless
        // --buckets is given (the validator holds that against its rows), and the first head.
        if (p.scheme != pe::SchemeId::T5)
            return QStringLiteral("--bias-table: a bias table is T5's learned relative_attention_bias; give --scheme "
                                  "t5 with it.");
        try {
            p.biasTable = pe::PositionTable::open(parser.value(QStringLiteral("bias-table")).toStdString(),
                                                  pe::PositionTable::Role::T5Bias);
        } catch (const std::exception &e) {
            return QStringLiteral("--bias-table: ") + QString::fromStdString(e.what());
        }
        // A model's config and its checkpoint must agree on the buckets and the heads.
        if (p.model && p.scheme == pe::SchemeId::T5 && !parser.isSet(QStringLiteral("buckets")) &&
            (p.biasTable->rows() != p.model->params.buckets || p.biasTable->cols() != p.model->params.heads))
            return QStringLiteral("--bias-table: the table has %1 buckets and %2 heads, the model's config %3 and %4 "
                                  "(relative_attention_num_buckets, num_heads).")
                .arg(p.biasTable->rows())
                .arg(p.biasTable->cols())
                .arg(p.model->params.buckets)
                .arg(p.model->params.heads);
        if (p.biasTable->rows() <= std::numeric_limits<int>::max())
            p.buckets = static_cast<int>(p.biasTable->rows());
    }
    std::int64_t dModel = p.dModel;
    for (auto [name, target, field] : {std::tuple{QStringLiteral("seq-len"), &p.seqLen, pe::Field::SeqLen},
                                       std::tuple{QStringLiteral("d-model"), &dModel, pe::Field::DModel},
                                       std::tuple{QStringLiteral("start-pos"), &p.startPos, pe::Field::StartPos}})
        if (auto error = integerFlag(parser, name, *target, field))
            return error;
    // Up to a table's widest: the validator holds other schemes to maxDModel.
    if (dModel < pe::limits::minDModel || dModel > (table ? pe::limits::maxTableColumns : pe::limits::maxDModel))
        return QStringLiteral("--d-model: d_model must be %1 (got %2).").arg(allowed(pe::Field::DModel)).arg(dModel);
    p.dModel = static_cast<int>(dModel);
    if (table) {
        // The table sets d_model and, unless given, seq_len; a --d-model given stays, for the
        // validator to hold against the table's columns.
        p = pe::tableParams(p, table, parser.isSet(QStringLiteral("seq-len")));
        if (parser.isSet(QStringLiteral("d-model")))
            p.dModel = static_cast<int>(dModel);
    }
    return std::nullopt;
}

std::optional<QString> cli::readFrequencies(const QCommandLineParser &parser, CommandLine &cmd)
{
    pe::EncodingParams &p = cmd.params;
    // A flag for a parameter the scheme does not take is refused with the scheme's reason
    // (d_model of a table is held against its columns by the validator instead).
    // The layout is left to the validator: a table's is interleaved, and only split is refused.
    // For a table, d_model and the layout are the validator's to hold against the file.
    for (const pe::Field f : {pe::Field::Base, pe::Field::Exponent, pe::Field::DModel, pe::Field::Layout})
        if (const QString flag = flagFor(f); parser.isSet(flag.mid(2)) && !pe::takes(p, f) &&
                                             !(p.table && (f == pe::Field::DModel || f == pe::Field::Layout)))
            return QStringLiteral("%1: %2").arg(flag, QString::fromStdString(pe::notApplicable(p, f)));
    if (parser.isSet(QStringLiteral("base"))) {
        const auto v = pe::parseReal(parser.value(QStringLiteral("base")).toStdString());
        if (!v)
            return QStringLiteral("--base: '%1' is not a number; base must be %2.")
                .arg(parser.value(QStringLiteral("base")), allowed(pe::Field::Base));
        p.base = *v;
    }
    if (parser.isSet(QStringLiteral("layout"))) {
        const auto v = pe::parseLayout(parser.value(QStringLiteral("layout")).toStdString());
        if (!v)
            return QStringLiteral("--layout: '%1' is not a layout; use %2.")
                .arg(parser.value(QStringLiteral("layout")), allowed(pe::Field::Layout));
        p.layout = *v;
    }
    if (parser.isSet(QStringLiteral("exponent"))) {
        const auto v = pe::parseExponent(parser.value(QStringLiteral("exponent")).toStdString());
        if (!v)
            return QStringLiteral("--exponent: '%1' is not an exponent; use %2.")
                .arg(parser.value(QStringLiteral("exponent")), allowed(pe::Field::Exponent));
        p.exponent = *v;
    }
    return std::nullopt;
}

std::optional<QString> cli::readSchemeParameters(const QCommandLineParser &parser, CommandLine &cmd)
{
    pe::EncodingParams &p = cmd.params;
    // The scheme's own parameters in the table's order, so a scaling is known before its factor.
    for (const pe::SchemeParameter &sp : pe::schemeParameters()) {
        const QString flag = QString::fromStdString(sp.flag());
        if (!parser.isSet(flag))
            continue;
        if (!pe::takes(p, sp.field))
            return QStringLiteral("--%1: %2").arg(flag, QString::fromStdString(pe::notApplicable(p, sp.field)));
        std::string error;
        if (sp.kind == pe::SchemeParameter::Kind::Switch) { // --no-truncate: the default turned over
            sp.set(p, sp.get(pe::EncodingParams{}) != 0 ? 0.0 : 1.0);
            continue;
        }
        if (sp.kind == pe::SchemeParameter::Kind::List) {
            auto list = pe::parseList(sp, parser.value(flag).toStdString(), &error);
            if (!list)
                return QStringLiteral("--%1: %2").arg(flag, QString::fromStdString(error));
            sp.setList(p, std::move(*list));
            continue;
        }
        const auto v = pe::parseParameter(sp, parser.value(flag).toStdString(), &error);
        if (!v)
            return QStringLiteral("--%1: %2").arg(flag, QString::fromStdString(error));
        sp.set(p, *v);
    }
    if (auto error = pe::validate(p)) {
        // An order between two parameters is named by the flag given: the other may be the file's
        // or the default ("--heads 4" with a preset's head 9).
        static const std::pair<pe::Field, pe::Field> partners[] = {
            {pe::Field::BetaFast, pe::Field::BetaSlow},
            {pe::Field::HighFreqFactor, pe::Field::LowFreqFactor},
            {pe::Field::Head, pe::Field::Heads},
            {pe::Field::MaxDistance, pe::Field::Buckets},
            {pe::Field::ShortFactor, pe::Field::DModel},
            {pe::Field::LongFactor, pe::Field::DModel},
            {pe::Field::ShortFactor, pe::Field::RotaryFraction},
            {pe::Field::LongFactor, pe::Field::RotaryFraction}};
        pe::Field field = error->field;
        for (auto [a, b] : partners)
            if (field == a && !parser.isSet(flagFor(a).mid(2)) && parser.isSet(flagFor(b).mid(2)))
                field = b;
        return flagFor(field) + QStringLiteral(": ") + QString::fromStdString(error->message);
    }
    return std::nullopt;
}

std::optional<QString> cli::readPosition(const QCommandLineParser &parser, CommandLine &cmd)
{
    const pe::EncodingParams &p = cmd.params;
    if (parser.isSet(QStringLiteral("position")) && parser.isSet(QStringLiteral("reference")))
        return QStringLiteral("--reference is the current position: give --position or --reference, not both.");
    const QString positionFlag =
        parser.isSet(QStringLiteral("reference")) ? QStringLiteral("reference") : QStringLiteral("position");
    if (parser.isSet(positionFlag)) {
        std::int64_t t = 0;
        const QString text = parser.value(positionFlag);
        const auto v = pe::parseInteger(text.toStdString());
        t = v.value_or(-1);
        // --position 2.25: a real position inside the window (readRealPositions asks the view).
        const auto real = v ? std::nullopt : pe::parseReal(text.toStdString());
        if (real && positionFlag == QStringLiteral("position") && std::isfinite(*real) &&
            *real >= static_cast<double>(p.startPos) && *real <= static_cast<double>(p.startPos + p.seqLen - 1)) {
            cmd.position = static_cast<std::int64_t>(std::floor(*real));
            cmd.fraction = *real - std::floor(*real);
            return std::nullopt;
        }
        if (!v || pe::validatePosition(p, t))
            return QStringLiteral("--%1: must be %2 (got '%3').")
                .arg(positionFlag,
                     positionFlag == QStringLiteral("position")
                         ? QStringLiteral("a number inside the window, from %1 to %2 (a fraction where the view "
                                          "draws any real t)")
                               .arg(QString::fromStdString(pe::withThousands(p.startPos)),
                                    QString::fromStdString(pe::withThousands(p.startPos + p.seqLen - 1)))
                         : QString::fromStdString(pe::positionAllowedText(p)),
                     text);
        cmd.position = t;
    } else if (cmd.session) {
        // The file's position, which the flags' window must still hold.
        const double t = cmd.session->position;
        cmd.position = static_cast<std::int64_t>(std::floor(t));
        cmd.fraction = t - std::floor(t);
        if (pe::validatePosition(p, cmd.position))
            return QStringLiteral("--position: the %1's position %2 is outside the window given, %3; give "
                                  "--position.")
                .arg(parser.isSet(QStringLiteral("session")) ? QStringLiteral("session") : QStringLiteral("preset"))
                .arg(QString::fromStdString(pe::positionText(t)))
                .arg(QString::fromStdString(pe::positionAllowedText(p)));
    } else {
        cmd.position = p.startPos;
    }
    return std::nullopt;
}

std::optional<QString> cli::readNoise(const QCommandLineParser &parser, CommandLine &cmd)
{
    if (parser.isSet(QStringLiteral("noise"))) {
        const auto v = pe::parseReal(parser.value(QStringLiteral("noise")).toStdString());
        cmd.noise.sigma = v.value_or(-1);
        if (auto error = pe::validateNoise(cmd.noise); error || !v)
            return QStringLiteral("--noise: %1")
                .arg(v ? QString::fromStdString(*error)
                       : QStringLiteral("'%1' is not a number; sigma must be %2.")
                             .arg(parser.value(QStringLiteral("noise")),
                                  QString::fromStdString(pe::sigmaAllowedText())));
    }
    if (parser.isSet(QStringLiteral("seed"))) {
        const auto v = pe::parseInteger(parser.value(QStringLiteral("seed")).toStdString());
        if (!v || pe::validateSeed(*v))
            return QStringLiteral("--seed: must be %1 (got '%2').")
                .arg(QString::fromStdString(pe::seedAllowedText()), parser.value(QStringLiteral("seed")));
        cmd.noise.seed = static_cast<std::uint64_t>(*v);
    }
    if (parser.isSet(QStringLiteral("rng"))) {
        const auto v = pe::parseRng(parser.value(QStringLiteral("rng")).toStdString());
        if (!v)
            return QStringLiteral("--rng: '%1' is not a generator; use %2.")
                .arg(parser.value(QStringLiteral("rng")), QString::fromStdString(pe::rngAllowedText()));
        cmd.noise.rng = *v;
    }
    if (auto error = pe::validateNoiseFor(cmd.params, cmd.noise)) {
        // Named by the flag that asked for more than numpy's draws (a preset's numpy with --seq-len).
        QString flag = QStringLiteral("rng");
        for (const QString &f : {QStringLiteral("rng"), QStringLiteral("seq-len"), QStringLiteral("d-model"),
                                 QStringLiteral("start-pos"), QStringLiteral("noise")})
            if (parser.isSet(f)) {
                flag = f;
                break;
            }
        return QStringLiteral("--%1: %2").arg(flag, QString::fromStdString(*error));
    }
    return std::nullopt;
}

bool cli::givesState(const QCommandLineParser &parser, const CommandLine &cmd)
{
    static const QStringList stateFlags{
        QStringLiteral("scheme"),   QStringLiteral("seq-len"),    QStringLiteral("d-model"),
        QStringLiteral("base"),     QStringLiteral("start-pos"),  QStringLiteral("layout"),
        QStringLiteral("exponent"), QStringLiteral("position"),   QStringLiteral("reference"),
        QStringLiteral("noise"),    QStringLiteral("seed"),       QStringLiteral("table"),
        QStringLiteral("rng"),      QStringLiteral("bias-table"), QStringLiteral("model")};
    QStringList schemeFlags;
    for (const pe::SchemeParameter &sp : pe::schemeParameters())
        schemeFlags << QString::fromStdString(sp.flag());
    bool anyState = cmd.session.has_value();
    for (const QString &flag : stateFlags + schemeFlags)
        anyState = anyState || parser.isSet(flag);
    return anyState;
}

#include "command_line_options.h"

#include "command_line.h"
#include "encodings/noise.h"
#include "encodings/scheme_parameters.h"
#include "figures/figure_export.h"
#include "figures/panel_figure.h"
#include "state/view_registry.h"

#include <QCommandLineParser>

QString flagFor(pe::Field f)
{
    if (const pe::SchemeParameter *own = pe::schemeParameter(f))
        return QStringLiteral("--") + QString::fromStdString(own->flag());
    switch (f) {
    case pe::Field::Scheme:
        return QStringLiteral("--scheme");
    case pe::Field::SeqLen:
        return QStringLiteral("--seq-len");
    case pe::Field::DModel:
        return QStringLiteral("--d-model");
    case pe::Field::Base:
        return QStringLiteral("--base");
    case pe::Field::StartPos:
        return QStringLiteral("--start-pos");
    case pe::Field::Layout:
        return QStringLiteral("--layout");
    case pe::Field::Exponent:
        return QStringLiteral("--exponent");
    default: // a scheme's own parameters, above
        break;
    }
    return {};
}

QString allowed(pe::Field field)
{
    return QString::fromStdString(pe::allowedText(field));
}

QString dataKindsText(const QString &separator)
{
    QStringList kinds;
    for (const DataKind &k : dataKinds())
        kinds << k.data->kind;
    return kinds.join(separator);
}

// The options the views declare (ViewInfo::settings), each once: two views may share one (--metric).
QList<QCommandLineOption> viewOptions(const QStringList &taken)
{
    QList<QCommandLineOption> out;
    QStringList seen = taken;
    for (const ViewInfo &view : viewRegistry())
        for (const ViewSetting &s : view.settings) {
            if (s.flag.isEmpty() || seen.contains(s.flag))
                continue;
            seen << s.flag;
            QStringList views; // every view that declares it
            for (const ViewInfo &other : viewRegistry())
                for (const ViewSetting &o : other.settings)
                    if (o.flag == s.flag)
                        views << other.id;
            if (views.size() == static_cast<qsizetype>(viewRegistry().size()))
                views = QStringList{QStringLiteral("every view")};
            const QJsonValue d = s.defaultValue;
            const QString shown = d.isString()
                                      ? (d.toString().isEmpty() ? QStringLiteral("the view's own") : d.toString())
                                  : d.isBool() ? (d.toBool() ? QStringLiteral("true") : QStringLiteral("false"))
                                  : !s.special.isEmpty() && d.toDouble() == s.minimum ? s.special
                                                                                      : QString::number(d.toDouble());
            // A true-or-false setting is a switch: given, it sets the opposite of the default.
            if (s.kind == ViewSetting::Kind::Bool)
                out << QCommandLineOption(s.flag,
                                          QStringLiteral("%1 (%2).").arg(s.help, views.join(QStringLiteral(", "))));
            else
                out << QCommandLineOption(s.flag,
                                          QStringLiteral("%1 (%2): %3 (default %4).")
                                              .arg(s.help, views.join(QStringLiteral(", ")), allowedText(s), shown),
                                          s.valueName.isEmpty() ? QStringLiteral("V") : s.valueName);
        }
    return out;
}

QList<QCommandLineOption> options()
{
    QList<QCommandLineOption> fixed = {
        {QStringLiteral("scheme"),
         QStringLiteral("Encoding scheme: %1 (default sinusoidal); xpos: rope with --xpos-scale-base 512 (xPos).")
             .arg(allowed(pe::Field::Scheme)),
         QStringLiteral("NAME")},
        {QStringLiteral("seq-len"),
         QStringLiteral("Number of positions: %1 (default 50).").arg(allowed(pe::Field::SeqLen)), QStringLiteral("N")},
        {QStringLiteral("d-model"), QStringLiteral("Embedding size: %1 (default 128).").arg(allowed(pe::Field::DModel)),
         QStringLiteral("D")},
        {QStringLiteral("base"), QStringLiteral("Frequency base: %1 (default 10000).").arg(allowed(pe::Field::Base)),
         QStringLiteral("B")},
        {QStringLiteral("start-pos"),
         QStringLiteral("First position: %1, with start_pos + seq_len at most %2 (default 0).")
             .arg(allowed(pe::Field::StartPos), QString::fromStdString(pe::withThousands(pe::limits::maxPositionEnd))),
         QStringLiteral("P")},
        {QStringLiteral("layout"), QStringLiteral("%1 (default interleaved).").arg(allowed(pe::Field::Layout)),
         QStringLiteral("L")},
        {QStringLiteral("exponent"),
         QStringLiteral("%1 (default pair: base^(2i/d); index: base^(j/d)).").arg(allowed(pe::Field::Exponent)),
         QStringLiteral("E")},
    };
    // The parameters a scheme adds (pe::schemeParameters()): RoPE's scaling, ALiBi's heads.
    for (const pe::SchemeParameter &sp : pe::schemeParameters()) {
        const pe::EncodingParams defaults;
        const QString help = QString::fromUtf8(sp.help.data(), static_cast<qsizetype>(sp.help.size()));
        switch (sp.kind) {
        case pe::SchemeParameter::Kind::Switch: { // a switch without a value: it turns the default over
            const bool on = sp.get(defaults) != 0;
            fixed << QCommandLineOption(QString::fromStdString(sp.flag()),
                                        QStringLiteral("%1 (default %2; this switch turns it %3).")
                                            .arg(help, on ? QStringLiteral("on") : QStringLiteral("off"),
                                                 on ? QStringLiteral("off") : QStringLiteral("on")));
            break;
        }
        case pe::SchemeParameter::Kind::List:
            fixed << QCommandLineOption(QString::fromStdString(sp.flag()),
                                        QStringLiteral("%1: %2.").arg(help, allowed(sp.field)), QStringLiteral("LIST"));
            break;
        default:
            fixed << QCommandLineOption(
                QString::fromStdString(sp.flag()),
                QStringLiteral("%1: %2 (default %3).")
                    .arg(help, allowed(sp.field), QString::fromStdString(pe::parameterText(sp, sp.get(defaults)))),
                sp.kind == pe::SchemeParameter::Kind::Choice ? QStringLiteral("NAME") : QStringLiteral("V"));
        }
    }
    fixed << QList<QCommandLineOption>{
        {QStringLiteral("table"),
         QStringLiteral(
             "Show a position table instead of the sinusoids: a NumPy .npy array, or a tensor of a safetensors or "
             "GGUF checkpoint (FILE:TENSOR; without a name, the one named as a position table: wpe, "
             "position_embeddings, embed_positions, pos_embed, position_embd). 2-D float16/bfloat16/32/64, rows "
             "are positions, up to 16,384 columns; OPT's, BART's and RoBERTa's first two rows and a ViT's class "
             "token are skipped, as each model reads them. seq_len defaults to all its rows."),
         QStringLiteral("FILE[:TENSOR]")},
        {QStringLiteral("bias-table"),
         QStringLiteral(
             "T5's learned relative_attention_bias, a [buckets, heads] array (a row a bucket, a column a head) "
             "from a .npy file or a checkpoint (FILE:TENSOR; without a name, the one relative_attention_bias "
             "or attn_rel_b): the bias of --head against the offset in the T5 buckets view and the attention "
             "it gives in the attention view. Sets --buckets to its rows unless given."),
         QStringLiteral("FILE[:TENSOR]")},
        {QStringLiteral("model"),
         QStringLiteral("Show a model's own positions: its Hugging Face config.json (or the model's folder holding "
                        "it) or a GGUF checkpoint's metadata, mapped to the scheme and its parameters (rope_theta, "
                        "rope_scaling or rope_parameters, head_dim, partial rotary, Gemma's local layers, ALiBi's "
                        "heads, T5's buckets); seq_len is the model's context. Flags given with it change what "
                        "they name. --model-info shows how each value was read."),
         QStringLiteral("FILE")},
        {QStringLiteral("model-info"),
         QStringLiteral("Say how a model's config.json or GGUF file maps to the scheme (each value and the key it "
                        "came from) and the same as flags, and exit."),
         QStringLiteral("FILE")},
        {QStringLiteral("list-tensors"),
         QStringLiteral("List every tensor of a .npy, safetensors or GGUF file (name, type, shape), marking the "
                        "ones --table and --bias-table would take, and exit."),
         QStringLiteral("FILE")},
        {QStringLiteral("export"),
         QStringLiteral("Write the figure of VIEW to --out (.png, .svg or .pdf) and exit: ") +
             viewIds().join(QStringLiteral(", ")) +
             QStringLiteral("; all: every view into the folder --out, in --format; VIEW,VIEW,...: up to %1 views "
                            "as the panels of one figure (--panels, --panel-labels), in one type, their plots "
                            "aligned.")
                 .arg(kMaxPanels),
         QStringLiteral("VIEW")},
        {QStringLiteral("panels"),
         QStringLiteral("The grid of --export VIEW,VIEW,...'s panels, ROWSxCOLUMNS, filled row by row (default one "
                        "row). --grid RxC says the same when the grid view is not a panel."),
         QStringLiteral("RxC")},
        {QStringLiteral("panel-labels"),
         QStringLiteral("The panels' labels: %1 (default (a)).").arg(panelLabelStyles().join(QStringLiteral(", "))),
         QStringLiteral("STYLE")},
        {QStringLiteral("format"),
         QStringLiteral("The format of --export all and --export-lecture FOLDER: png, svg or pdf (default png)."),
         QStringLiteral("FORMAT")},
        {QStringLiteral("export-data"),
         QStringLiteral("Write KIND to --out (.csv or .npy) and exit: ") + dataKindsText(QStringLiteral(", ")) +
             QLatin1Char('.'),
         QStringLiteral("KIND")},
        {QStringLiteral("out"),
         QStringLiteral(
             "Output file of --export (.png, .svg, .pdf; a folder for --export all) or --export-data (.csv, .npy)."),
         QStringLiteral("FILE")},
        {QStringLiteral("size"),
         QStringLiteral("Figure size: pixels (1200x800, %1 to %2 a side; the default) or a physical size with its "
                        "unit, laid out in points: 3.5x2.5in, 89x64mm, 9x6cm. A PDF is a page of that size, an SVG "
                        "carries the unit, a PNG is size times --dpi pixels.")
             .arg(figurelimits::minSide)
             .arg(figurelimits::maxSide),
         QStringLiteral("WxH[UNIT]")},
        {QStringLiteral("scale"),
         QStringLiteral("Device pixels per pixel of a pixel size's PNG, %1 to %2 (default 1).")
             .arg(figurelimits::minScale)
             .arg(figurelimits::maxScale),
         QStringLiteral("S")},
        {QStringLiteral("dpi"),
         QStringLiteral("Pixels per inch of a physical size's PNG, %1 to %2, stored in every PNG (default 100).")
             .arg(figurelimits::minDpi)
             .arg(figurelimits::maxDpi),
         QStringLiteral("N")},
        {QStringLiteral("font-size"),
         QStringLiteral("Tick labels in points, %1 to %2, axis labels and titles in proportion (default for a "
                        "physical size: the largest from %3 down to %4 pt, in half points, at which every plot "
                        "keeps its room; a pixel size keeps the window's type).")
             .arg(figurelimits::minFont)
             .arg(figurelimits::maxFont)
             .arg(kDefaultFigureFont)
             .arg(kSmallestFittedFont),
         QStringLiteral("PT")},
        {QStringLiteral("font"),
         QStringLiteral("The figure's font family, any installed one (DejaVu Serif for a paper set in serif; "
                        "default the window's)."),
         QStringLiteral("FAMILY")},
        {QStringLiteral("position"),
         QStringLiteral("Current position marked in every view, inside the window (default start_pos); 2.25 "
                        "between whole ones for the clocks, circles, heatmap and attention."),
         QStringLiteral("T")},
        {QStringLiteral("view"),
         QStringLiteral("View shown first in the window, or drawn by --export-frames (default heatmap)."),
         QStringLiteral("VIEW")},
        {QStringLiteral("reference"),
         QStringLiteral("The similarity reference: the same as --position (article 1 uses 30)."), QStringLiteral("R")},
        {QStringLiteral("noise"),
         QStringLiteral("Noise sigma, %1: x = PE + sigma z (article 1 uses 0.5; default 0).")
             .arg(QString::fromStdString(pe::sigmaAllowedText())),
         QStringLiteral("SIGMA")},
        {QStringLiteral("seed"),
         QStringLiteral(
             "Seed of the noise and of t-SNE's random start, %1 (default 42); the same seed, the same numbers.")
             .arg(QString::fromStdString(pe::seedAllowedText())),
         QStringLiteral("S")},
        {QStringLiteral("rng"),
         QStringLiteral("Where the noise comes from, %1 (default counter): numpy is np.random.seed(S); "
                        "np.random.randn(...) bit for bit, z(t, j) = draw t*d + j, up to %2 draws; counter has "
                        "no limit.")
             .arg(QString::fromStdString(pe::rngAllowedText()),
                  QString::fromStdString(pe::withThousands(pe::limits::maxNumpyDraws))),
         QStringLiteral("RNG")},
        {QStringLiteral("lecture"),
         QStringLiteral("Start in lecture mode: full screen, large type, keyboard only (Esc leaves).")},
        {QStringLiteral("lecture-file"),
         QStringLiteral("Give a lecture in lecture mode: a built-in one by name (see --list-lectures) or a .pelecture "
                        "file; PageDown, Space and arrows go from step to step."),
         QStringLiteral("NAME|FILE")},
        {QStringLiteral("lecture-step"), QStringLiteral("The step --lecture-file starts at, from 1 (default 1)."),
         QStringLiteral("N")},
        {QStringLiteral("export-lecture"),
         QStringLiteral("Draw every step of --lecture-file and exit: FILE.pdf, a handout (a page a step: its title, "
                        "figure and caption); a folder, step-01.png ... for slides (--format png, svg or pdf; "
                        "--size, default 1920x1080 with tick labels at 2% of the height)."),
         QStringLiteral("FILE.pdf|DIR")},
        {QStringLiteral("with-video"),
         QStringLiteral("With --export-lecture: each step's action as an H.264 video too, step-03.mp4 in the "
                        "folder or FILE-step-03.mp4 beside the handout (--fps, default 30).")},
        {QStringLiteral("with-notes"),
         QStringLiteral("With --export-lecture FILE.pdf: each step's speaker notes under its caption (a "
                        "speaker's copy).")},
        {QStringLiteral("transparent"),
         QStringLiteral("Draw figures without their background rectangle: PNG, SVG and PDF from --export, "
                        "--export-frames DIR and --export-lecture FOLDER (for slides of any colour).")},
        {QStringLiteral("list-lectures"),
         QStringLiteral("List the built-in lectures' names, titles and steps, and exit.")},
        {QStringLiteral("theme"),
         QStringLiteral("The window's and the figures' theme: system, light, dark or projector (default: the "
                        "window's last; figures: the system's; a handout: light)."),
         QStringLiteral("NAME")},
        {QStringLiteral("export-frames"),
         QStringLiteral("Draw --view for --frames positions while the position advances, and exit: FILE.gif writes "
                        "one animated GIF (looping, --fps), FILE.mp4 an H.264 video and FILE.webm a VP9 one (up to "
                        "3840x2160), a folder DIR numbered PNGs."),
         QStringLiteral("DIR|FILE.gif|FILE.mp4|FILE.webm")},
        {QStringLiteral("fps"),
         QStringLiteral("Frames a second of --export-frames FILE.gif (1 to 50) or a video (1 to 60); default 10."),
         QStringLiteral("N")},
        {QStringLiteral("frames"), QStringLiteral("Number of frames, 1 to %1.").arg(kMaxFrames), QStringLiteral("N")},
        {QStringLiteral("step"),
         QStringLiteral("Positions advanced per frame, 0.001 to %1 (default 1); a fraction (0.25) for the clocks, "
                        "circles, heatmap and attention of the sinusoids, RoPE and ALiBi; past the window's end it "
                        "slides along.")
             .arg(QString::fromStdString(pe::withThousands(pe::limits::maxSeqLen))),
         QStringLiteral("K")},
        {QStringLiteral("screenshot"), QStringLiteral("Open the window, save its first complete paint as PNG, exit."),
         QStringLiteral("FILE")},
        {QStringLiteral("session"),
         QStringLiteral(
             "Start from a session file (File > Save session): parameters, position, noise, view, view settings."),
         QStringLiteral("FILE")},
        {QStringLiteral("preset"),
         QStringLiteral("Start from a preset, one per figure of the five articles (see --list-presets)."),
         QStringLiteral("NAME")},
        {QStringLiteral("list-presets"), QStringLiteral("List the presets' names and titles, and exit.")},
        {{QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Show this help and exit.")},
        {QStringLiteral("version"), QStringLiteral("Show the version and exit.")},
    };
    QStringList taken;
    for (const QCommandLineOption &o : fixed)
        taken << o.names();
    return fixed + viewOptions(taken);
}

QString helpText()
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Positional Encoding Explorer: see how a transformer's sinusoidal positional encoding works.\n"
                       "Without --export, --export-data or --screenshot the window opens with the given parameters.\n"
                       "Bad input exits with code 2 and writes nothing."));
    parser.addOptions(options());
    QString text = parser.helpText();
    // Without an application object Qt does not know the program's name.
    return text.replace(QStringLiteral("<executable_name>"), QStringLiteral("pe-explorer"));
}

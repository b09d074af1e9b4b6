// Publication figures from the command line: physical sizes (PNG pixels and stored dpi, the PDF's
// page, the SVG's unit), type in points, titles replaced and hidden, --export all in a format.
#include "command_line.h"
#include "command_line_support.h"
#include "figures/gif_writer.h"
#include "scheme_support.h"
#include "state/session.h"
#include "state/view_registry.h"
#include "test_support.h"

#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QImageReader>
#include <QRegularExpression>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

class TestFigures : public QObject
{
    Q_OBJECT

  private slots:
    void physicalSizeInEveryFormat_data();
    void physicalSizeInEveryFormat();
    void pixelSizesStayPixels();
    void textInPoints();
    void typeFittedToTheSize();
    void refusedSizeNamesOneThatFits();
    void titleReplacedAndHidden();
    void exportAllInAFormat();
    void everyViewSettingOnTheCommandLine();
    void markersDrawnWhereAsked();
    void smallTablesStayVector();
    void animatedGif();
    void smallTitlesKeepWhatWasReduced();
    void quantizeKeepsFewColoursExact();

  private:
    QString export_(const QStringList &args, const QString &name);
    QTemporaryDir dir_;
};

QString TestFigures::export_(const QStringList &args, const QString &name)
{
    const QString out = dir_.filePath(name);
    const Run r =
        run(QStringList{QStringLiteral("--preset"), QStringLiteral("seed001-similarity-noisy"),
                        QStringLiteral("--export"), QStringLiteral("similarity"), QStringLiteral("--out"), out} +
            args);
    if (r.code != 0)
        qWarning("%s", qPrintable(r.err));
    return r.code == 0 ? out : QString();
}

namespace {

// The PDF's one page in points: its box's width and height (x0 y0 x1 y1; Qt's whole-point page
// made exact reaches below zero).
QSizeF mediaBox(const QByteArray &pdf)
{
    static const QRegularExpression box(
        QStringLiteral("/MediaBox \\[(-?[0-9.]+) (-?[0-9.]+) (-?[0-9.]+) (-?[0-9.]+) *\\]"));
    const auto m = box.match(QString::fromLatin1(pdf));
    if (!m.hasMatch())
        return {};
    return {m.captured(3).toDouble() - m.captured(1).toDouble(), m.captured(4).toDouble() - m.captured(2).toDouble()};
}

// The SVG's width and height attributes as written, e.g. {"3.5in", "2.5in"}.
QStringList svgSize(const QByteArray &svg)
{
    static const QRegularExpression head(QStringLiteral("<svg width=\"([^\"]*)\" height=\"([^\"]*)\""));
    const auto m = head.match(QString::fromUtf8(svg));
    return m.hasMatch() ? QStringList{m.captured(1), m.captured(2)} : QStringList{};
}

// Every font-size an SVG's text is drawn with.
QList<double> svgFontSizes(const QByteArray &svg)
{
    static const QRegularExpression size(QStringLiteral("<text [^>]*font-size=\"([0-9.]+)\""));
    QList<double> out;
    auto it = size.globalMatch(QString::fromUtf8(svg));
    while (it.hasNext())
        out << it.next().captured(1).toDouble();
    return out;
}

} // namespace

void TestFigures::physicalSizeInEveryFormat_data()
{
    QTest::addColumn<QString>("size");
    QTest::addColumn<int>("dpi");
    QTest::addColumn<QSize>("pixels");
    QTest::addColumn<QSizeF>("points");
    QTest::addColumn<QStringList>("svg");
    // A journal column and a page width, in inches, millimetres and centimetres.
    QTest::newRow("3.5 in at 300 dpi") << QStringLiteral("3.5x2.5in") << 300 << QSize(1050, 750) << QSizeF(252, 180)
                                       << QStringList{QStringLiteral("3.5in"), QStringLiteral("2.5in")};
    QTest::newRow("7 in at 150 dpi") << QStringLiteral("7x4in") << 150 << QSize(1050, 600) << QSizeF(504, 288)
                                     << QStringList{QStringLiteral("7in"), QStringLiteral("4in")};
    QTest::newRow("89 mm at 600 dpi") << QStringLiteral("89x64mm") << 600 << QSize(2102, 1512)
                                      << QSizeF(252.283, 181.417)
                                      << QStringList{QStringLiteral("89mm"), QStringLiteral("64mm")};
    QTest::newRow("9 cm at the default 100 dpi")
        << QStringLiteral("9x6cm") << 0 << QSize(354, 236) << QSizeF(255.118, 170.079)
        << QStringList{QStringLiteral("9cm"), QStringLiteral("6cm")};
}

void TestFigures::physicalSizeInEveryFormat()
{
    QFETCH(QString, size);
    QFETCH(int, dpi);
    QFETCH(QSize, pixels);
    QFETCH(QSizeF, points);
    QFETCH(QStringList, svg);
    QStringList args{QStringLiteral("--size"), size};
    if (dpi > 0)
        args << QStringLiteral("--dpi") << QString::number(dpi);
    const int stored = dpi > 0 ? dpi : 100;

    // PNG: size times dpi, the dpi kept in the file.
    const QString png = export_(args, QStringLiteral("f.png"));
    QVERIFY(!png.isEmpty());
    const QImage image(png);
    QCOMPARE(image.size(), pixels);
    QCOMPARE(image.dotsPerMeterX(), static_cast<int>(std::lround(stored / 0.0254)));
    QCOMPARE(image.dotsPerMeterY(), image.dotsPerMeterX());

    // PDF: one page of exactly that size.
    const QString pdf = export_(args, QStringLiteral("f.pdf"));
    QVERIFY(!pdf.isEmpty());
    const QSizeF page = mediaBox(testsupport::readFile(pdf));
    QVERIFY2(std::abs(page.width() - points.width()) < 0.01 && std::abs(page.height() - points.height()) < 0.01,
             qPrintable(QStringLiteral("%1 x %2").arg(page.width()).arg(page.height())));

    // SVG: the unit asked for, and a view box of the layout's points.
    const QString file = export_(args, QStringLiteral("f.svg"));
    QVERIFY(!file.isEmpty());
    const QByteArray bytes = testsupport::readFile(file);
    QCOMPARE(svgSize(bytes), svg);
    QSvgRenderer renderer(file);
    QVERIFY(renderer.isValid());
    QCOMPARE(renderer.viewBox().size(), QSize(std::lround(points.width()), std::lround(points.height())));
}

void TestFigures::pixelSizesStayPixels()
{
    // 1200 x 800 stays 1200 x 800 pixels (the PDF 1200 x 800 points), with --dpi only recorded.
    const QString png =
        export_({QStringLiteral("--size"), QStringLiteral("600x400"), QStringLiteral("--dpi"), QStringLiteral("300")},
                QStringLiteral("p.png"));
    QVERIFY(!png.isEmpty());
    const QImage image(png);
    QCOMPARE(image.size(), QSize(600, 400));
    QCOMPARE(image.dotsPerMeterX(), static_cast<int>(std::lround(300 / 0.0254)));
    const QString pdf = export_({QStringLiteral("--size"), QStringLiteral("600x400")}, QStringLiteral("p.pdf"));
    QCOMPARE(mediaBox(testsupport::readFile(pdf)), QSizeF(600, 400));
    const QString svg = export_({QStringLiteral("--size"), QStringLiteral("600x400")}, QStringLiteral("p.svg"));
    QCOMPARE(svgSize(testsupport::readFile(svg)), (QStringList{QStringLiteral("600px"), QStringLiteral("400px")}));

    // A heatmap's cells embedded in a PDF stay lossless (Flate), never JPEG.
    const QString heatmap = dir_.filePath(QStringLiteral("heatmap.pdf"));
    const Run r = run({QStringLiteral("--export"), QStringLiteral("heatmap"), QStringLiteral("--size"),
                       QStringLiteral("3.5x2.5in"), QStringLiteral("--out"), heatmap});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QByteArray bytes = testsupport::readFile(heatmap);
    QVERIFY(bytes.contains("/Subtype /Image"));
    QVERIFY(!bytes.contains("/DCTDecode"));
}

void TestFigures::textInPoints()
{
    // Axis labels are 10/9 of the tick labels' --font-size: 8 pt ticks give 8.89 pt labels, 12
    // give 13.3 (in 5 in: 3.5 in has no room for 12 pt); a physical size without --font-size gets
    // the default 8 where the view has room for it.
    for (const auto &[flags, label] :
         {std::pair{QStringList{QStringLiteral("--size"), QStringLiteral("5x3.5in"), QStringLiteral("--font-size"),
                                QStringLiteral("12")},
                    12 * 10 / 9.0},
          std::pair{QStringList{QStringLiteral("--size"), QStringLiteral("3.5x2.5in")}, 8 * 10 / 9.0}}) {
        const QString svg = export_(flags, QStringLiteral("t.svg"));
        QVERIFY(!svg.isEmpty());
        const QList<double> sizes = svgFontSizes(testsupport::readFile(svg));
        QVERIFY(!sizes.isEmpty());
        const double want = label; // (clang 14 captures no structured binding)
        QVERIFY2(std::any_of(sizes.begin(), sizes.end(), [want](double s) { return std::abs(s - want) < 0.01; }),
                 qPrintable(QStringLiteral("no text at %1 among the figure's sizes").arg(label)));
        // Nothing larger than the title (11/9 of the ticks).
        QVERIFY(*std::max_element(sizes.begin(), sizes.end()) <= label * 1.1 + 0.01);
    }
}

void TestFigures::typeFittedToTheSize()
{
    // Without --font-size a physical size gets the largest type from 8 pt down to 6 at which the
    // view's plots keep their room: the probe's four panels at 3.5 x 2.5 in are set smaller than 8.
    const QString probe = dir_.filePath(QStringLiteral("probe.svg"));
    Run r = run(QStringList{QStringLiteral("--export"), QStringLiteral("probe"), QStringLiteral("--size"),
                            QStringLiteral("3.5x2.5in"), QStringLiteral("--out"), probe} +
                shortProbeArgs());
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QList<double> sizes = svgFontSizes(testsupport::readFile(probe));
    QVERIFY(!sizes.isEmpty());
    const double largest = *std::max_element(sizes.begin(), sizes.end());
    // (the axis labels, 10/9 of the type, are the largest: the long title shrinks to the ticks)
    QVERIFY2(largest < 8 * 10 / 9.0 - 0.01 && largest >= 6 * 10 / 9.0 - 0.01, qPrintable(QString::number(largest)));
    // No room even at 6 pt: refused with the size it needs, and nothing written. (The circles fit
    // 3.5 x 2.5 in since their compact plots are square; 2 x 1.5 in is too small.)
    const QString circles = dir_.filePath(QStringLiteral("circles.png"));
    r = run({QStringLiteral("--export"), QStringLiteral("circles"), QStringLiteral("--size"), QStringLiteral("2x1.5in"),
             QStringLiteral("--out"), circles});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.startsWith(QStringLiteral("pe-explorer: --size: at 6 pt the view's plots need ")) &&
                 r.err.contains(QStringLiteral("would overlap")),
             qPrintable(r.err));
    QVERIFY(!QFileInfo::exists(circles));
    // A type asked for is kept, or refused where it has no room.
    const QString heatmap = dir_.filePath(QStringLiteral("big-type.png"));
    r = run({QStringLiteral("--export"), QStringLiteral("heatmap"), QStringLiteral("--size"),
             QStringLiteral("3.5x2.5in"), QStringLiteral("--font-size"), QStringLiteral("20"), QStringLiteral("--out"),
             heatmap});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains(QStringLiteral("at 20 pt")) && r.err.contains(QStringLiteral("or a smaller type")),
             qPrintable(r.err));
    QVERIFY(!QFileInfo::exists(heatmap));
    // An axis title that would be cut ends in "…": the frequencies' "ω_i (radians per position)"
    // beside a short plot below the legend at 3.5 x 2.5 in; at 7 x 5 in it is whole.
    const QString frequencies = dir_.filePath(QStringLiteral("frequencies.svg"));
    const auto yTitle = [&](const QString &size) {
        const Run e = run({QStringLiteral("--export"), QStringLiteral("frequencies"), QStringLiteral("--size"), size,
                           QStringLiteral("--out"), frequencies});
        if (e.code != 0)
            qWarning("%s", qPrintable(e.err));
        static const QRegularExpression title(QStringLiteral(">(i \\(radians[^<]*)<"));
        return title.match(QString::fromUtf8(testsupport::readFile(frequencies))).captured(1);
    };
    const QString cut = yTitle(QStringLiteral("3.5x2.5in"));
    QVERIFY2(cut.endsWith(QStringLiteral("…")) && cut.size() < 24, qPrintable(cut));
    QCOMPARE(yTitle(QStringLiteral("7x5in")), QStringLiteral("i (radians per position)"));
}

void TestFigures::refusedSizeNamesOneThatFits()
{
    // Issue 28: llama3's scaling view at 3.5 x 2.5 in asked for 2.7 in, and at 2.7 for 2.8: a view's
    // layout changes with its size. The size a refusal names is one at which the export succeeds,
    // for every view, at a physical size, a pixel size in a given type, and llama3's case.
    static const QRegularExpression needs(QStringLiteral("need ([0-9.]+x[0-9.]+(?:in|mm|px))"));
    const QStringList llama3{QStringLiteral("--scheme"),
                             QStringLiteral("rope"),
                             QStringLiteral("--scaling"),
                             QStringLiteral("llama3"),
                             QStringLiteral("--factor"),
                             QStringLiteral("8"),
                             QStringLiteral("--original-context"),
                             QStringLiteral("8192"),
                             QStringLiteral("--base"),
                             QStringLiteral("5e5")};
    struct Case {
        QString view;
        QStringList args;
    };
    QList<Case> cases{
        {QStringLiteral("scaling"), llama3 + QStringList{QStringLiteral("--size"), QStringLiteral("3.5x2.5in")}}};
    for (const ViewInfo &info : viewRegistry())
        for (const QStringList &size : {QStringList{QStringLiteral("--size"), QStringLiteral("1.5x1in")},
                                        QStringList{QStringLiteral("--size"), QStringLiteral("60x40mm")},
                                        QStringList{QStringLiteral("--size"), QStringLiteral("300x200"),
                                                    QStringLiteral("--font-size"), QStringLiteral("9")}})
            cases.append({info.id, drawArgs(info) + size});
    int refused = 0;
    for (const Case &c : cases) {
        const QString out = dir_.filePath(QStringLiteral("needs-%1.png").arg(c.view));
        const QStringList args = c.args + QStringList{QStringLiteral("--export"), c.view, QStringLiteral("--out"), out};
        const Run first = run(args);
        if (first.code == 0) {
            QFile::remove(out); // (a later case's refusal must write nothing)
            continue;
        }
        const auto m = needs.match(first.err);
        QVERIFY2(first.code == 2 && m.hasMatch() && !QFileInfo::exists(out),
                 qPrintable(args.join(QLatin1Char(' ')) + QStringLiteral(" -> ") + first.err));
        ++refused;
        QStringList again = args;
        again[again.indexOf(QStringLiteral("--size")) + 1] = m.captured(1);
        const Run second = run(again);
        QVERIFY2(second.code == 0 && QFileInfo(out).size() > 1000,
                 qPrintable(again.join(QLatin1Char(' ')) + QStringLiteral(" -> ") + second.err));
        QFile::remove(out);
    }
    QVERIFY2(refused >= 10, qPrintable(QString::number(refused))); // the loop checked many refusals
}

void TestFigures::titleReplacedAndHidden()
{
    const auto svgText = [this](const QStringList &args) {
        const QString svg = export_(QStringList{QStringLiteral("--size"), QStringLiteral("800x500")} + args,
                                    QStringLiteral("title.svg"));
        return svg.isEmpty() ? QString() : QString::fromUtf8(testsupport::readFile(svg));
    };
    const QString own = svgText({});
    QVERIFY(own.contains(QStringLiteral("Similarity of every position")));
    const QString replaced = svgText({QStringLiteral("--title"), QStringLiteral("Noisy inputs against PE(30)")});
    QVERIFY(replaced.contains(QStringLiteral("Noisy inputs against PE(30)")));
    QVERIFY(!replaced.contains(QStringLiteral("Similarity of every position")));
    const QString hidden = svgText({QStringLiteral("--title"), QString()});
    QVERIFY(!hidden.isEmpty());
    QVERIFY(!hidden.contains(QStringLiteral("Similarity of every position")));

    // Hidden, the plot takes the title's room: the PNG's top rows hold the plot, not white.
    const QString png =
        export_({QStringLiteral("--size"), QStringLiteral("800x500"), QStringLiteral("--title"), QString()},
                QStringLiteral("hidden.png"));
    const QString shown = export_({QStringLiteral("--size"), QStringLiteral("800x500")}, QStringLiteral("shown.png"));
    // The y axis is the column with the most dark pixels: without the title it runs longer.
    const auto axisLength = [](const QString &file) {
        const QImage img(file);
        int longest = 0;
        for (int x = 0; x < img.width() / 3; ++x) {
            int dark = 0;
            for (int y = 0; y < img.height(); ++y)
                dark += img.pixelColor(x, y).lightness() < 100;
            longest = std::max(longest, dark);
        }
        return longest;
    };
    QVERIFY2(axisLength(png) > axisLength(shown) + 20,
             qPrintable(QStringLiteral("%1 against %2").arg(axisLength(png)).arg(axisLength(shown))));
}

void TestFigures::exportAllInAFormat()
{
    const QString all = dir_.filePath(QStringLiteral("all"));
    const Run r = run(QStringList{QStringLiteral("--seq-len"), QStringLiteral("64"), QStringLiteral("--d-model"),
                                  QStringLiteral("16"), QStringLiteral("--export"), QStringLiteral("all"),
                                  QStringLiteral("--format"), QStringLiteral("svg"), QStringLiteral("--size"),
                                  QStringLiteral("3.5x2.5in"), QStringLiteral("--out"), all} +
                      shortProbeArgs());
    QVERIFY2(r.code == 0, qPrintable(r.err));
    int written = 0;
    for (const ViewInfo &info : viewRegistry()) {
        const QString file = QDir(all).filePath(info.id + QStringLiteral(".svg"));
        if (!QFileInfo::exists(file))
            continue; // a view that does not draw the sinusoids (said on stderr)
        ++written;
        QCOMPARE(svgSize(testsupport::readFile(file)), (QStringList{QStringLiteral("3.5in"), QStringLiteral("2.5in")}));
        QVERIFY(!QFileInfo::exists(QDir(all).filePath(info.id + QStringLiteral(".png"))));
    }
    QVERIFY(written >= 10);
}

void TestFigures::everyViewSettingOnTheCommandLine()
{
    // Every setting a view declares has a flag (but showTitle, which --title '' sets), and a value
    // given on the command line reaches the view's settings and comes back from a session file.
    int flags = 0;
    for (const ViewInfo &view : viewRegistry())
        for (const ViewSetting &s : view.settings) {
            if (s.key == QStringLiteral("showTitle"))
                continue;
            QVERIFY2(!s.flag.isEmpty(),
                     qPrintable(view.id + QStringLiteral(": '") + s.key + QStringLiteral("' has no flag")));
            QStringList args{QStringLiteral("pe-explorer")};
            args << (s.schemes.empty() ? schemeArgs(view)
                                       : QStringList{QStringLiteral("--scheme"),
                                                     QString::fromUtf8(pe::schemeName(s.schemes.front()).data())});
            QJsonValue expected;
            switch (s.kind) {
            case ViewSetting::Kind::Bool:
                args << QStringLiteral("--") + s.flag;
                expected = !s.defaultValue.toBool();
                break;
            case ViewSetting::Kind::Choice:
                expected =
                    s.choices.constLast() == s.defaultValue.toString() ? s.choices.constFirst() : s.choices.constLast();
                args << QStringLiteral("--") + s.flag << expected.toString();
                break;
            case ViewSetting::Kind::Integer:
                expected = static_cast<int>(s.maximum);
                args << QStringLiteral("--") + s.flag << QString::number(static_cast<qint64>(s.maximum));
                break;
            case ViewSetting::Kind::Real:
                expected = s.maximum;
                args << QStringLiteral("--") + s.flag << QString::number(s.maximum, 'f', s.decimals);
                break;
            case ViewSetting::Kind::Text:
                expected = s.key == QStringLiteral("compareBases")        ? QStringLiteral("1e3")
                           : s.key == QStringLiteral("markers")           ? QStringLiteral("50, 100")
                           : s.key.endsWith(QStringLiteral("PairChoice")) ? QStringLiteral("0,1")
                           : s.key == QStringLiteral("gridShape")         ? QStringLiteral("5x10")
                           : s.key == QStringLiteral("mropeSection")      ? QStringLiteral("1,2,3")
                           : s.key.startsWith(QStringLiteral("colorM"))   ? QStringLiteral("-0.5")
                           : s.key == QStringLiteral("colorBy")           ? QStringLiteral("phase:3")
                                                                          : QStringLiteral("A figure's own title");
                args << QStringLiteral("--") + s.flag << expected.toString();
                break;
            }
            const ParsedCommandLine r = parseCommandLine(args);
            QVERIFY2(r.error.isEmpty(), qPrintable(args.join(QLatin1Char(' ')) + QStringLiteral(": ") + r.error));
            QCOMPARE(viewSettings(r.command, view).value(s.key), expected);
            Session session;
            session.params = r.command.params;
            session.view = view.id;
            session.views = r.command.viewSettings;
            QString error;
            const auto back = sessionFromJson(sessionToJson(session), &error);
            QVERIFY2(back, qPrintable(error));
            QCOMPARE(back->views.value(view.id).value(s.key), expected);
            ++flags;
        }
    QVERIFY(flags > 40);
}

void TestFigures::markersDrawnWhereAsked()
{
    // Pure red (matplotlib's 'red') is drawn by the markers alone: columns holding it, per image.
    const auto redColumns = [](const QString &file) {
        const QImage img(file);
        QList<int> columns;
        for (int x = 0; x < img.width(); ++x) {
            int red = 0;
            for (int y = 0; y < img.height(); ++y) {
                const QColor c = img.pixelColor(x, y);
                red += c.red() > 200 && c.green() < 140 && c.blue() < 140 && c.red() - c.green() > 100;
            }
            if (red > img.height() / 10)
                columns << x;
        }
        return columns;
    };
    const auto similarity = [this](const QStringList &args, const QString &name) {
        const QString out = dir_.filePath(name);
        const Run r = run(QStringList{QStringLiteral("--seq-len"), QStringLiteral("201"), QStringLiteral("--export"),
                                      QStringLiteral("similarity"), QStringLiteral("--size"), QStringLiteral("800x500"),
                                      QStringLiteral("--out"), out} +
                          args);
        return r.code == 0 ? out : QString();
    };
    // The reference line at 0 is red too: what the markers add is what the plain figure lacks.
    const QList<int> none = redColumns(similarity({}, QStringLiteral("none.png")));
    const auto added = [&](QList<int> columns) {
        columns.removeIf([&](int x) { return none.contains(x); });
        return columns;
    };
    const QList<int> one =
        added(redColumns(similarity({QStringLiteral("--marker"), QStringLiteral("100")}, QStringLiteral("one.png"))));
    const QList<int> two = added(redColumns(similarity(
        {QStringLiteral("--marker"), QStringLiteral("50"), QStringLiteral("--marker"), QStringLiteral("150")},
        QStringLiteral("two.png"))));
    QVERIFY2(!one.isEmpty() && one.size() <= 3, qPrintable(QString::number(one.size()))); // a pixel or two wide
    QVERIFY(two.size() >= 2);
    // 50 and 150 sit either side of 100, equally far in pixels (a linear position axis).
    const int left = two.first(), right = two.last(), middle = one.first();
    QVERIFY2(left < middle && middle < right, qPrintable(QStringLiteral("%1 %2 %3").arg(left).arg(middle).arg(right)));
    QVERIFY(std::abs((middle - left) - (right - middle)) <= 2);

    // The preset of seed 001's first figure carries the article's lines at 50 and 100.
    const QString inputs = dir_.filePath(QStringLiteral("inputs.png"));
    const Run r = run({QStringLiteral("--preset"), QStringLiteral("seed001-inputs"), QStringLiteral("--export"),
                       QStringLiteral("inputs"), QStringLiteral("--out"), inputs});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QVERIFY(redColumns(inputs).size() >= 2); // 50 and 100 (the inputs view has no other red)

    // Not a position: one sentence, nothing written.
    const Run bad = run({QStringLiteral("--export"), QStringLiteral("similarity"), QStringLiteral("--marker"),
                         QStringLiteral("fifty"), QStringLiteral("--out"), dir_.filePath(QStringLiteral("bad.png"))});
    QCOMPARE(bad.code, 2);
    QVERIFY2(bad.err.contains(QStringLiteral("--marker: a marker is a position")), qPrintable(bad.err));
    QVERIFY(!QFileInfo::exists(dir_.filePath(QStringLiteral("bad.png"))));
}

void TestFigures::smallTablesStayVector()
{
    // Seed 003's 10 x 6 table and seed 002's 15 x 9: every cell a rectangle and its value text in
    // SVG and PDF; the only picture is the colour bar's gradient. A 200 x 128 heatmap (25,600
    // cells, past 10,000) embeds its cells as one lossless picture.
    const auto images = [this](const QStringList &args, const QString &name) {
        const QString out = dir_.filePath(name);
        const Run r = run(QStringList{QStringLiteral("--export"), QStringLiteral("heatmap"), QStringLiteral("--size"),
                                      QStringLiteral("3.5x2.5in"), QStringLiteral("--out"), out} +
                          args);
        if (r.code != 0)
            qWarning("%s", qPrintable(r.err));
        const QByteArray bytes = testsupport::readFile(out);
        return name.endsWith(QStringLiteral(".svg")) ? bytes.count("<image") : bytes.count("/Subtype /Image");
    };
    for (const char *preset : {"seed002-table", "seed003-table"}) {
        const QStringList args{QStringLiteral("--preset"), QLatin1String(preset)};
        QCOMPARE(images(args, QStringLiteral("table.svg")), 1);
        QCOMPARE(images(args, QStringLiteral("table.pdf")), 1);
    }
    const QString svg = QString::fromUtf8(testsupport::readFile(dir_.filePath(QStringLiteral("table.svg"))));
    QVERIFY(svg.contains(QStringLiteral(">0.84<")) ||
            svg.contains(QStringLiteral(">0.84 <"))); // PE(1, 0) = sin 1, in seed 003's table
    const QStringList large{QStringLiteral("--seq-len"), QStringLiteral("200"), QStringLiteral("--d-model"),
                            QStringLiteral("128")};
    QCOMPARE(images(large, QStringLiteral("large.svg")), 2);
    QVERIFY(images(large, QStringLiteral("large.pdf")) >= 2);
}

void TestFigures::animatedGif()
{
    // --export-frames FILE.gif: one GIF of --frames frames, each 1/fps s, the frames differing as
    // the clock hands turn; read back with Qt's own GIF reader.
    const QString gif = dir_.filePath(QStringLiteral("clocks.gif"));
    const Run r =
        run({QStringLiteral("--view"), QStringLiteral("clocks"), QStringLiteral("--seq-len"), QStringLiteral("64"),
             QStringLiteral("--d-model"), QStringLiteral("16"), QStringLiteral("--export-frames"), gif,
             QStringLiteral("--frames"), QStringLiteral("12"), QStringLiteral("--size"), QStringLiteral("320x240"),
             QStringLiteral("--fps"), QStringLiteral("5")});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    QImageReader reader(gif);
    QCOMPARE(reader.format(), QByteArray("gif"));
    QVERIFY(reader.supportsAnimation());
    QCOMPARE(reader.imageCount(), 12);
    QCOMPARE(reader.loopCount(), -1); // forever
    QList<QImage> frames;
    for (int k = 0; k < 12; ++k) {
        const QImage frame = reader.read();
        QVERIFY2(!frame.isNull(), qPrintable(reader.errorString()));
        QCOMPARE(frame.size(), QSize(320, 240));
        if (k == 0)
            QCOMPARE(reader.nextImageDelay(), 200); // 5 fps
        frames << frame.convertToFormat(QImage::Format_RGB32);
    }
    for (int k = 1; k < 12; ++k)
        QVERIFY2(frames[k] != frames[k - 1], qPrintable(QStringLiteral("frame %1 repeats %2").arg(k).arg(k - 1)));

    // --fps without a GIF, and a GIF in a missing folder: one sentence, nothing written.
    for (const QStringList &bad :
         {QStringList{QStringLiteral("--export-frames"), dir_.filePath(QStringLiteral("pngs")),
                      QStringLiteral("--frames"), QStringLiteral("2"), QStringLiteral("--fps"), QStringLiteral("5")},
          QStringList{QStringLiteral("--export-frames"), dir_.filePath(QStringLiteral("none/a.gif")),
                      QStringLiteral("--frames"), QStringLiteral("2")},
          QStringList{QStringLiteral("--export-frames"), gif, QStringLiteral("--frames"), QStringLiteral("2"),
                      QStringLiteral("--fps"), QStringLiteral("0")}}) {
        const Run refused = run(bad);
        QCOMPARE(refused.code, 2);
        QCOMPARE(refused.err.trimmed().count(QLatin1Char('\n')), 0);
    }
    QVERIFY(!QFileInfo::exists(dir_.filePath(QStringLiteral("pngs"))));
    QCOMPARE(QImageReader(gif).imageCount(), 12); // the good file untouched by the refused run
}

void TestFigures::smallTitlesKeepWhatWasReduced()
{
    // A heatmap of 20,000 x 4,096 at 3.5 x 2.5 in is sampled, and its title says so in its last
    // part: when the title does not fit, its head gives way, not that.
    const QString svg = dir_.filePath(QStringLiteral("sampled.svg"));
    const Run r = run({QStringLiteral("--seq-len"), QStringLiteral("20000"), QStringLiteral("--d-model"),
                       QStringLiteral("4096"), QStringLiteral("--export"), QStringLiteral("heatmap"),
                       QStringLiteral("--size"), QStringLiteral("3.5x2.5in"), QStringLiteral("--out"), svg});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QString text = QString::fromUtf8(testsupport::readFile(svg));
    QVERIFY2(text.contains(QStringLiteral("sampled: 1 position in each")), "the sampling is said");
    QVERIFY(text.contains(QStringLiteral("…")));                   // the head was cut, and says so
    QVERIFY(text.contains(QStringLiteral("Positional encoding"))); // and what the figure is
}

void TestFigures::quantizeKeepsFewColoursExact()
{
    // A figure of few colours (lines and text on white) keeps them exactly; a gradient of more
    // than 256 gets 256 entries, each pixel within a box of its colour.
    QImage few(64, 16, QImage::Format_RGB32);
    const QRgb colours[] = {qRgb(255, 255, 255), qRgb(220, 30, 30), qRgb(31, 119, 180), qRgb(0, 0, 0)};
    for (int y = 0; y < 16; ++y)
        for (int x = 0; x < 64; ++x)
            few.setPixel(x, y, colours[(x / 16 + y / 8) % 4]);
    const QuantizedFrame q = quantize(few);
    QCOMPARE(static_cast<int>(q.palette.size()), 4);
    for (int y = 0; y < 16; ++y)
        for (int x = 0; x < 64; ++x)
            QCOMPARE(q.palette[q.indices[static_cast<std::size_t>(y) * 64 + x]], few.pixel(x, y));
    QImage ramp(512, 4, QImage::Format_RGB32);
    for (int x = 0; x < 512; ++x)
        for (int y = 0; y < 4; ++y)
            ramp.setPixel(x, y, qRgb(x / 2, 255 - x / 2, (x * 7) % 256));
    const QuantizedFrame r = quantize(ramp);
    QVERIFY(r.palette.size() <= 256 && r.palette.size() > 200);
    int worst = 0;
    for (int x = 0; x < 512; ++x) {
        const QRgb got = r.palette[r.indices[static_cast<std::size_t>(x)]], want = ramp.pixel(x, 0);
        worst = std::max({worst, std::abs(qRed(got) - qRed(want)), std::abs(qGreen(got) - qGreen(want)),
                          std::abs(qBlue(got) - qBlue(want))});
    }
    QVERIFY2(worst <= 40, qPrintable(QString::number(worst)));
}

QTEST_GUILESS_MAIN(TestFigures)
#include "tst_figures.moc"

// Issue 33's figures of several views: panels in a grid, aligned along rows and columns, one type
// for all (measured in the PDF's own text operators), labels clear of every text, the window's
// dialog and the command line's refusals.
#include "command_line.h"
#include "command_line_support.h"
#include "figures/panel_figure.h"
#include "figures/plot_view.h"
#include "figures/view_factory.h"
#include "state/parameters.h"
#include "state/view_registry.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

namespace {

// The views of a figure, drawing one state.
struct Panels {
    Parameters params;
    std::vector<std::unique_ptr<PlotView>> owned;
    std::vector<PlotView *> views;
    Panels(const QStringList &ids, const pe::EncodingParams &p)
    {
        if (params.set(p))
            qFatal("bad parameters");
        for (const QString &id : ids) {
            owned.emplace_back(createView(*findView(id), &params, nullptr));
            owned.back()->setCompleteFigures(true);
            views.push_back(owned.back().get());
        }
    }
};

FigureOptions inches(double w, double h, double points = 0)
{
    FigureOptions o;
    o.unit = SizeUnit::Inch;
    o.physical = QSizeF(w, h);
    o.dpi = 150;
    o.fontPoints = points;
    return o;
}

PanelGrid gridOf(int rows, int columns)
{
    PanelGrid g;
    g.rows = rows;
    g.columns = columns;
    return g;
}

// The size of every piece of text a PDF draws, in points on its page: each content stream inflated
// (FlateDecode is zlib's format: qUncompress takes it behind a 4-byte length), then the operators
// q, Q, cm and Tf followed, the font's size times the scale of the matrix in force.
std::vector<double> pdfTextSizes(const QByteArray &pdf)
{
    std::vector<double> sizes;
    static const QRegularExpression streamStart(QStringLiteral("stream\\r?\\n"));
    qsizetype at = 0;
    while ((at = pdf.indexOf("stream", at)) >= 0) {
        if (at >= 3 && pdf.mid(at - 3, 3) == "end") {
            at += 6;
            continue;
        }
        qsizetype start = at + 6;
        if (pdf.at(start) == '\r')
            ++start;
        if (pdf.at(start) != '\n') {
            at = start;
            continue;
        }
        ++start;
        const qsizetype end = pdf.indexOf("endstream", start);
        if (end < 0)
            break;
        // The stream's dictionary: content is deflated, images are not read.
        const QByteArray dictionary = pdf.mid(std::max<qsizetype>(0, at - 300), 300);
        const qsizetype open = dictionary.lastIndexOf("<<");
        if (open < 0 || !dictionary.mid(open).contains("/FlateDecode") || dictionary.mid(open).contains("/Image")) {
            at = end + 9;
            continue;
        }
        QByteArray packed(4, '\0');
        qToBigEndian<quint32>(64u << 20, packed.data()); // room enough; qUncompress grows to what it needs
        packed += pdf.mid(start, end - start);
        const QByteArray content = qUncompress(packed);
        at = end + 9;
        if (!content.contains(" Tf"))
            continue;
        std::vector<double> scale{1.0};
        std::vector<double> operands;
        for (const QByteArray &token : content.simplified().split(' ')) {
            bool number = false;
            const double v = token.toDouble(&number);
            if (number) {
                operands.push_back(v);
                continue;
            }
            if (token == "q")
                scale.push_back(scale.back());
            else if (token == "Q" && scale.size() > 1)
                scale.pop_back();
            else if (token == "cm" && operands.size() >= 6) {
                const double *m = &operands[operands.size() - 6];
                scale.back() *= std::sqrt(std::abs(m[0] * m[3] - m[1] * m[2]));
            } else if (token == "Tf" && !operands.empty())
                sizes.push_back(operands.back() * scale.back());
            if (!token.startsWith('/'))
                operands.clear();
        }
    }
    return sizes;
}

// The size most pieces of text are set in (the tick labels), to a hundredth of a point.
double commonestSize(const std::vector<double> &sizes)
{
    std::map<long, int> count;
    for (double s : sizes)
        ++count[std::lround(s * 100)];
    const auto most =
        std::max_element(count.begin(), count.end(), [](const auto &a, const auto &b) { return a.second < b.second; });
    return most == count.end() ? 0 : most->first / 100.0;
}

QString refusal(const QStringList &words)
{
    return parseCommandLine(QStringList{QStringLiteral("pe-explorer")} + words +
                            QStringList{QStringLiteral("--out"), QStringLiteral("x.pdf")})
        .error;
}

QStringList words(const char *text)
{
    return QString::fromLatin1(text).split(QLatin1Char(' '));
}

} // namespace

class TestPanelFigures : public QObject
{
    Q_OBJECT

  private slots:
    void gridsAndLabels();
    void panelsAlignAlongRowsAndColumns();
    void labelsClearOfEveryText();
    void oneTypeMeasuredInThePdf();
    void singleFigureTypeMeasuredInThePdf();
    void stackedViewsFitAColumnAtSevenPoints();
    void allFormatsDrawTheSamePage();
    void tooSmallIsRefusedWithTheSizeNeeded();
    void commandLine();
};

void TestPanelFigures::gridsAndLabels()
{
    PanelGrid g;
    QVERIFY(!parsePanelGrid(QStringLiteral("2x2"), 3, &g));
    QCOMPARE(g.rows, 2);
    QCOMPARE(g.columns, 2);
    QVERIFY(parsePanelGrid(QStringLiteral("1x2"), 3, &g)->contains(QStringLiteral("fewer than the 3 views")));
    QVERIFY(parsePanelGrid(QStringLiteral("3x2"), 3, &g)->contains(QStringLiteral("give 2x2")));
    QVERIFY(parsePanelGrid(QStringLiteral("0x2"), 1, &g));
    QVERIFY(parsePanelGrid(QStringLiteral("2by2"), 3, &g));
    QVERIFY(parsePanelGrid(QString(), 3, &g));
    QCOMPARE(panelLabel(QStringLiteral("(a)"), 1), QStringLiteral("(b)"));
    QCOMPARE(panelLabel(QStringLiteral("A"), 2), QStringLiteral("C"));
    QCOMPARE(panelLabel(QStringLiteral("a)"), 0), QStringLiteral("a)"));
    QCOMPARE(panelLabel(QStringLiteral("(A)"), 3), QStringLiteral("(D)"));
    QVERIFY(panelLabel(QStringLiteral("off"), 0).isEmpty());
    QVERIFY(parsePanelLabels(QStringLiteral("[a]"), &g));
    QVERIFY(!parsePanelLabels(QStringLiteral("A"), &g));
    QCOMPARE(g.labels, QStringLiteral("A"));
}

void TestPanelFigures::panelsAlignAlongRowsAndColumns()
{
    // Views whose own layouts put their plots at different places (a colour bar, a legend strip,
    // a two-line title): in a row their plots share top and bottom, in a column left and right.
    struct Case {
        QStringList ids;
        int rows, columns;
        double w, h;
    };
    const QStringList four{QStringLiteral("heatmap"), QStringLiteral("frequencies"), QStringLiteral("similarity"),
                           QStringLiteral("distance")};
    const std::vector<Case> cases{
        {four.mid(0, 2), 1, 2, 7, 2.5},
        {four.mid(0, 2), 2, 1, 3.5, 5},
        {four, 2, 2, 7, 5},
        {four.mid(0, 3), 1, 3, 7, 2.5},
    };
    pe::EncodingParams p;
    p.seqLen = 64;
    p.dModel = 32;
    for (const Case &c : cases) {
        Panels panels(c.ids, p);
        QString problem;
        const FigureOptions o = fitPanels(panels.views, inches(c.w, c.h), gridOf(c.rows, c.columns), &problem);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        const std::vector<PanelPlacement> placed = placePanels(panels.views, o, gridOf(c.rows, c.columns));
        QCOMPARE(placed.size(), std::size_t(c.ids.size()));
        const QString what = c.ids.join(QLatin1Char(',')) + QStringLiteral(" %1x%2").arg(c.rows).arg(c.columns);
        for (std::size_t a = 0; a < placed.size(); ++a) {
            QVERIFY2(placed[a].cell.contains(placed[a].plots), qPrintable(what));
            QVERIFY2(placed[a].needs.width() <= placed[a].cell.width() &&
                         placed[a].needs.height() <= placed[a].cell.height(),
                     qPrintable(what));
            for (std::size_t b = a + 1; b < placed.size(); ++b) {
                const QRect &p1 = placed[a].plots, &p2 = placed[b].plots;
                QVERIFY2(!p1.intersects(p2), qPrintable(what));
                // Within a point (the layout's whole points).
                if (int(a) / c.columns == int(b) / c.columns) {
                    QVERIFY2(std::abs(p1.top() - p2.top()) <= 1 && std::abs(p1.bottom() - p2.bottom()) <= 1,
                             qPrintable(what + QStringLiteral(": row %1-%2 vs %3-%4")
                                                   .arg(p1.top())
                                                   .arg(p1.bottom())
                                                   .arg(p2.top())
                                                   .arg(p2.bottom())));
                }
                if (int(a) % c.columns == int(b) % c.columns) {
                    // Offset by the cells: the same place in each column's cell.
                    const int dx = placed[b].cell.left() - placed[a].cell.left();
                    QVERIFY2(std::abs(p1.left() + dx - p2.left()) <= 1 && std::abs(p1.right() + dx - p2.right()) <= 1,
                             qPrintable(what + QStringLiteral(": column %1-%2 vs %3-%4")
                                                   .arg(p1.left())
                                                   .arg(p1.right())
                                                   .arg(p2.left())
                                                   .arg(p2.right())));
                }
            }
        }
    }
}

void TestPanelFigures::labelsClearOfEveryText()
{
    // Every label style, with titles and without: a label touches no title, legend or plot of any
    // panel, and stays in its own cell's top-left corner.
    pe::EncodingParams p;
    p.seqLen = 64;
    p.dModel = 32;
    for (const QString &style : panelLabelStyles())
        for (bool titles : {true, false}) {
            Panels panels({QStringLiteral("frequencies"), QStringLiteral("heatmap")}, p);
            if (!titles)
                for (PlotView *v : panels.views)
                    QVERIFY(!v->applySettings({{QStringLiteral("showTitle"), false}}));
            PanelGrid g = gridOf(1, 2);
            g.labels = style;
            QString problem;
            const FigureOptions o = fitPanels(panels.views, inches(7, 2.5), g, &problem);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
            const std::vector<PanelPlacement> placed = placePanels(panels.views, o, g);
            for (std::size_t k = 0; k < placed.size(); ++k) {
                const PanelPlacement &pp = placed[k];
                if (style == QLatin1String("off")) {
                    QVERIFY(pp.label.isEmpty());
                    continue;
                }
                QVERIFY(!pp.label.isEmpty());
                QVERIFY(pp.cell.contains(pp.label));
                QVERIFY(pp.label.left() - pp.cell.left() < pp.label.height());
                QVERIFY(pp.label.top() - pp.cell.top() < pp.label.height());
                for (const PanelPlacement &other : placed) {
                    QVERIFY2(!pp.label.intersects(other.plots), qPrintable(style));
                    for (const QRect &t : other.texts)
                        QVERIFY2(!pp.label.intersects(t), qPrintable(style));
                }
                // Titles and legends of a panel apart from each other and from the plots' data
                // area, unless a legend is asked inside.
                for (std::size_t i = 0; i < pp.texts.size(); ++i) {
                    QVERIFY(!pp.texts[i].intersects(pp.plots));
                    for (std::size_t j = i + 1; j < pp.texts.size(); ++j)
                        QVERIFY(!pp.texts[i].intersects(pp.texts[j]));
                }
            }
        }
}

void TestPanelFigures::oneTypeMeasuredInThePdf()
{
    // Asked 7 pt: the PDF's tick labels (the commonest size) are 7 pt on its page, in every panel;
    // no text is smaller than the cell values' 7/9 of it; automatic, every panel gets the one
    // type fitPanels chose.
    QTemporaryDir dir;
    pe::EncodingParams p;
    p.seqLen = 64;
    p.dModel = 32;
    for (double asked : {7.0, 0.0}) {
        Panels panels({QStringLiteral("heatmap"), QStringLiteral("frequencies")}, p);
        QString problem;
        const FigureOptions o = fitPanels(panels.views, inches(7, 2.5, asked), gridOf(1, 2), &problem);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        const double type = o.fontPoints;
        QVERIFY(type >= kSmallestFittedFont && type <= kDefaultFigureFont);
        if (asked > 0)
            QCOMPARE(type, asked);
        const QString path = dir.filePath(QStringLiteral("f.pdf"));
        QString error;
        QVERIFY2(exportPanels(panels.views, path, o, gridOf(1, 2), &error), qPrintable(error));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray pdf = f.readAll();
        QVERIFY(pdf.contains("/MediaBox [0 0 504.000000 180.000000]")); // 7 x 2.5 in
        const std::vector<double> sizes = pdfTextSizes(pdf);
        QVERIFY(sizes.size() > 20);
        QCOMPARE(commonestSize(sizes), type);
        for (double s : sizes)
            QVERIFY2(s >= type * 7 / 9 - 0.01, qPrintable(QString::number(s)));
        // Each panel alone at its cell's size, in the same type: the same sizes in its PDF.
        for (PlotView *view : panels.views) {
            FigureOptions one = inches(3.5, 2.5, type);
            const QByteArray single = figureBytes(view, FigureFormat::Pdf, one);
            QCOMPARE(commonestSize(pdfTextSizes(single)), type);
        }
    }
}

void TestPanelFigures::singleFigureTypeMeasuredInThePdf()
{
    // One view at 3.5 x 2.5 in and 7 pt, for every view that fits it: its tick labels are 7 pt
    // on the page.
    QStringList measured;
    for (const QString &id : {QStringLiteral("heatmap"), QStringLiteral("frequencies"), QStringLiteral("similarity"),
                              QStringLiteral("distance"), QStringLiteral("rope-decay")}) {
        pe::EncodingParams p;
        p.seqLen = 64;
        p.dModel = 32;
        if (id == QLatin1String("rope-decay"))
            p.scheme = pe::SchemeId::Rope;
        Panels panels({id}, p);
        QString problem;
        const FigureOptions o = fitFigure(panels.views.front(), inches(3.5, 2.5, 7), &problem);
        QVERIFY2(problem.isEmpty(), qPrintable(id + problem));
        const std::vector<double> sizes = pdfTextSizes(figureBytes(panels.views.front(), FigureFormat::Pdf, o));
        QVERIFY2(commonestSize(sizes) == 7.0, qPrintable(id));
        measured << id;
    }
    QCOMPARE(measured.size(), 5);
}

void TestPanelFigures::stackedViewsFitAColumnAtSevenPoints()
{
    // The column: the circles, the inputs and the scaling view of Llama 3.1, YaRN x4 and
    // NTK at 3.5 x 2.5 in in 7 pt, drawn (not refused), their tick labels 7 pt in the PDF. What
    // made room: the stacked plots share their x axis, compact circles are square, the margins and
    // titles are measured in the figure's type.
    QTemporaryDir dir;
    const QStringList cases{QStringLiteral("seed000-circles circles"), QStringLiteral("seed001-inputs inputs"),
                            QStringLiteral("llama3.1-rope scaling"), QStringLiteral("yarn-x4 scaling"),
                            QStringLiteral("dynamic-ntk scaling")};
    for (const QString &c : cases) {
        const QStringList preset = c.split(QLatin1Char(' '));
        const QString out = dir.filePath(preset[0] + QStringLiteral(".pdf"));
        const Run r = run({QStringLiteral("--preset"), preset[0], QStringLiteral("--export"), preset[1],
                           QStringLiteral("--size"), QStringLiteral("3.5x2.5in"), QStringLiteral("--font-size"),
                           QStringLiteral("7"), QStringLiteral("--out"), out});
        QVERIFY2(r.code == 0, qPrintable(c + QStringLiteral(": ") + r.err));
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        // Tick labels at 7 pt (the circles' nine plot titles, at the axis titles' 10/9, outnumber
        // their colour bar's ticks), nothing below the cell values' 7/9 nor above the title's 11/9.
        const std::vector<double> sizes = pdfTextSizes(f.readAll());
        QVERIFY2(std::any_of(sizes.begin(), sizes.end(), [](double s) { return std::abs(s - 7) < 0.01; }),
                 qPrintable(c));
        for (double s : sizes)
            QVERIFY2(s >= 7 * 7 / 9.0 - 0.01 && s <= 7 * 11 / 9.0 + 0.5, qPrintable(c + QString::number(s)));
    }
}

void TestPanelFigures::allFormatsDrawTheSamePage()
{
    // The PNG holds the page at the dpi (7 x 2.5 in at 150 dpi: 1050 x 375), the SVG its size in
    // inches; the PNG's panels are the single views' pixels where no inset moved them (the
    // frequencies' panel, whose plots set the row).
    pe::EncodingParams p;
    p.seqLen = 64;
    p.dModel = 32;
    Panels panels({QStringLiteral("heatmap"), QStringLiteral("frequencies")}, p);
    QString problem;
    const FigureOptions o = fitPanels(panels.views, inches(7, 2.5), gridOf(1, 2), &problem);
    QVERIFY(problem.isEmpty());
    const QImage page = panelImage(panels.views, o, gridOf(1, 2));
    QCOMPARE(page.size(), QSize(1050, 375));
    QCOMPARE(page.dotsPerMeterX(), std::lround(150 / 0.0254));
    const QByteArray svg = panelBytes(panels.views, FigureFormat::Svg, o, gridOf(1, 2));
    QVERIFY(svg.contains("width=\"7in\"") && svg.contains("height=\"2.5in\""));
    // Every cell drawn: no transparent pixel anywhere on the page.
    for (int y = 0; y < page.height(); y += 7)
        for (int x = 0; x < page.width(); x += 7)
            QVERIFY(qAlpha(page.pixel(x, y)) == 255);
}

void TestPanelFigures::tooSmallIsRefusedWithTheSizeNeeded()
{
    pe::EncodingParams p;
    p.seqLen = 64;
    p.dModel = 32;
    Panels panels({QStringLiteral("heatmap"), QStringLiteral("frequencies"), QStringLiteral("similarity")}, p);
    QString problem;
    fitPanels(panels.views, inches(3.5, 1.2), gridOf(1, 3), &problem);
    QVERIFY2(problem.contains(QStringLiteral("would overlap")) && problem.contains(QStringLiteral("in")),
             qPrintable(problem));
    // The size named fits.
    static const QRegularExpression named(QStringLiteral("aligned, need ([\\d.]+)x([\\d.]+)in"));
    const auto m = named.match(problem);
    QVERIFY2(m.hasMatch(), qPrintable(problem));
    fitPanels(panels.views, inches(m.captured(1).toDouble(), m.captured(2).toDouble()), gridOf(1, 3), &problem);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

void TestPanelFigures::commandLine()
{
    const ParsedCommandLine ok =
        parseCommandLine(QStringList{QStringLiteral("pe-explorer")} +
                         words("--export heatmap,frequencies --grid 1x2 --size 7x2.5in --panel-labels A --out f.pdf"));
    QVERIFY2(ok.error.isEmpty(), qPrintable(ok.error));
    QCOMPARE(ok.command.panels, QStringList({QStringLiteral("heatmap"), QStringLiteral("frequencies")}));
    QCOMPARE(ok.command.grid.columns, 2);
    QCOMPARE(ok.command.grid.labels, QStringLiteral("A"));
    QVERIFY(!ok.command.viewSettings.contains(QStringLiteral("grid"))); // the panels' grid, not the grid view's
    // Default one row.
    const ParsedCommandLine row = parseCommandLine(QStringList{QStringLiteral("pe-explorer")} +
                                                   words("--export heatmap,frequencies,similarity --out f.png"));
    QVERIFY(row.error.isEmpty());
    QCOMPARE(row.command.grid.rows, 1);
    QCOMPARE(row.command.grid.columns, 3);
    // With the grid view among the panels, --grid is the grid view's.
    QVERIFY(refusal(words("--scheme rope --seq-len 4 --export heatmap,grid --grid 2x2 --panels 1x2")).isEmpty());
    QVERIFY(refusal(words("--export heatmap,nope")).contains(QStringLiteral("unknown view 'nope'")));
    QVERIFY(refusal(words("--export heatmap,heatmap")).contains(QStringLiteral("named twice")));
    QVERIFY(refusal(words("--export heatmap,all")).contains(QStringLiteral("unknown view 'all'")));
    QVERIFY(refusal(words("--export heatmap,frequencies --panels 1x1")).contains(QStringLiteral("--panels:")));
    QVERIFY(refusal(words("--export heatmap,frequencies --panels 3x1")).contains(QStringLiteral("give 2x1")));
    QVERIFY(refusal(words("--export heatmap --panels 1x2")).contains(QStringLiteral("goes with --export VIEW,VIEW")));
    QVERIFY(refusal(words("--export heatmap,frequencies --panel-labels roman"))
                .contains(QStringLiteral("--panel-labels:")));
    // A view's flag applies when one panel has it; refused when none does.
    QVERIFY(refusal(words("--export heatmap,frequencies --robust --legend best")).isEmpty());
    QVERIFY(refusal(words("--export heatmap,frequencies --perplexity 5"))
                .contains(QStringLiteral("not to heatmap or frequencies")));
    // Each panel must draw the scheme.
    QVERIFY(refusal(words("--export heatmap,rope-decay")).contains(QStringLiteral("--export rope-decay:")));
    QVERIFY(refusal(words("--export-data frequencies --panels 1x2")).contains(QStringLiteral("--panels")));
}

QTEST_MAIN(TestPanelFigures)
#include "tst_panel_figures.moc"

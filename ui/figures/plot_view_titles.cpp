// PlotView's titles: the title row, fitting a title's parts to its room, and count texts.
#include "figures/plot_view.h"

#include "figures/math_text.h"
#include "figures/title_text.h"

#include "state/view_state.h"

#include <algorithm>
#include <cstdlib>
#include <qcustomplot.h>

QCPTextElement *PlotView::addTitle()
{
    // The title gets a row of the whole width; what was the plot layout's content moves into a
    // grid of its own below it, so a colour scale beside the plot does not narrow the title.
    auto *title = new TitleText(plot_, QFont(font().family(), 11, QFont::Bold));
    QCPLayoutGrid *outer = plot_->plotLayout();
    QCPLayoutElement *main = outer->element(0, 0);
    outer->take(main);
    outer->simplify();
    content_ = new QCPLayoutGrid;
    outer->addElement(0, 0, title);
    outer->addElement(1, 0, content_);
    content_->addElement(0, 0, main);
    return title;
}

void PlotView::setTitle(QCPTextElement *title, const QStringList &viewParts) const
{
    // Kept to fit again once the plots are laid out (refitTitles()).
    const auto kept = std::find_if(titles_.begin(), titles_.end(), [title](const auto &t) { return t.title == title; });
    if (kept == titles_.end())
        titles_.push_back({title, viewParts, title->font()});
    else
        *kept = {title, viewParts, title->font()};
    // The figure's own title (--title, View > Figure title) in place of the view's, or none.
    QStringList parts = viewParts;
    if (state_ && !state_->flag(QStringLiteral("showTitle"))) {
        // No row at all: an empty text still measures one line.
        title->setText(QString());
        title->setMargins(QMargins());
        // (0 would mean "the text's height" to QCustomPlot; one pixel is the least it takes).
        title->setMinimumSize(1, 1);
        title->setMaximumSize(QWIDGETSIZE_MAX, 1);
        return;
    }
    title->setMargins(QMargins(2, 2, 2, 2));
    title->setMinimumSize(0, 0);
    title->setMaximumSize(QWIDGETSIZE_MAX, QWIDGETSIZE_MAX);
    if (const QString own = state_ ? state_->text(QStringLiteral("title")) : QString(); !own.isEmpty())
        parts = QStringList{mathText(own)}; // $\omega_i$ as ωᵢ
    // A title never takes more than about a fifth of the figure: its type shrinks first, never
    // below the tick labels' size; then parts give way, an ellipsis saying so (a 3.5 in figure cut
    // the first and last lines of a five-line title at its edges). The first part (what the figure
    // is) and the last (views end with what they reduced: "every 2nd position") stay longest.
    QFont font = title->font();
    // In a figure of given type, a seventh (at 3.5 x 2.5 in, two lines: the scaling and decay views'
    // titles and legends took 40% of the column's figure, matplotlib's a tenth).
    double room = (figureFontPoints_ > 0 ? 1 / 7.0 : 0.2) * layoutArea().height();
    if (figureFontPoints_ > 0 && content_) // in a figure, what the plots leave at most
        // (less the title's margins and the row spacing above the plots)
        room = std::min(room, layoutArea().height() - content_->minimumOuterSizeHint().height() - 4.0 -
                                  plot_->plotLayout()->rowSpacing());
    // (in a panel not at all: every panel's title in one type)
    const double smallest = panel_ ? font.pointSizeF() : std::min(font.pointSizeF(), fontSize(9));
    // Measured as the title measures itself (its text's bounding box, a little taller than the
    // lines' spacing: a two-line title took 24 pt of 20).
    const auto fits = [&](const QStringList &p) {
        return QFontMetrics(font).boundingRect(0, 0, 0, 0, Qt::TextDontClip, wrappedTitle(font, p)).height() <= room;
    };
    while (!fits(parts) && font.pointSizeF() > 0 && font.pointSizeF() * 0.88 >= smallest)
        font.setPointSizeF(font.pointSizeF() * 0.88);
    const QString more = QStringLiteral(" …");
    while (parts.size() > 2 && !fits(parts)) {
        parts.removeAt(parts.size() - 2);
        if (!parts.first().endsWith(more))
            parts.first() += more;
    }

    QString text = wrappedTitle(font, parts);
    // A line that gives way ends in the ellipsis, words dropped until both fit the line's room (a
    // full line with " …" added ran past both edges of a centred title).
    const auto cut = [&font, room = layoutArea().width() - 20, &more](QString line) {
        const QFontMetrics metrics(font);
        while (metrics.horizontalAdvance(line + more) > room && line.lastIndexOf(QLatin1Char(' ')) > 0)
            line.truncate(line.lastIndexOf(QLatin1Char(' ')));
        return line + more;
    };
    const int lineCount =
        std::max(1, static_cast<int>((room - QFontMetrics(font).descent()) / QFontMetrics(font).lineSpacing()));
    if (text.count(QLatin1Char('\n')) + 1 > lineCount) {
        // Lines give way too: the head's last lines, then the last part's (what was reduced).
        QStringList head =
            wrappedTitle(font, parts.size() > 1 ? parts.mid(0, parts.size() - 1) : parts).split(QLatin1Char('\n'));
        QStringList tail =
            parts.size() > 1 ? wrappedTitle(font, {parts.last()}).split(QLatin1Char('\n')) : QStringList{};
        const int keepTail = std::min(static_cast<int>(tail.size()), std::max(0, lineCount - 1));
        const int keepHead = std::max(1, lineCount - keepTail);
        if (head.size() > keepHead) {
            head = head.mid(0, keepHead);
            head.last() = cut(head.last());
        }
        if (tail.size() > keepTail) {
            tail = tail.mid(0, keepTail);
            if (!tail.isEmpty())
                tail.last() = cut(tail.last());
        }
        text = (head + tail).join(QLatin1Char('\n'));
    }
    title->setFont(font);
    title->setText(text);
}

void PlotView::refitTitles()
{
    // A title's room is what the plots leave, measured while the view rebuilt, before its plots
    // were laid out at this size: their margins then were the last layout's (a first export of the
    // circles took a line more for its title than the same export after another, and a refused
    // size named one that was refused in turn).
    for (const TitleParts &t : std::vector<TitleParts>(titles_))
        if (t.title) {
            t.title->setFont(t.font);
            setTitle(t.title, t.parts);
        }
}

QString PlotView::wrappedTitle(const QFont &font, const QStringList &parts) const
{
    const QFontMetrics metrics(font);
    const int room = layoutArea().width() - 20;
    const QString line = parts.join(QStringLiteral("  ·  "));
    if (metrics.horizontalAdvance(line) <= room)
        return line;
    // One part a line, and a part too wide for a line wrapped at spaces: a word goes on the line
    // when the line with it measures no more than the room. The line's width is carried as a sum
    // (line, space, word) and the line is measured whole only when that sum comes near the room, in
    // one pass over the words rather than a measure of the whole line for each (a 4K title step
    // spent 4 ms here). The sum differs from the whole measure by each width's rounding to a pixel
    // (at most a pixel a join) and by kerning at the spaces; "near" is a twentieth of the room, and
    // never less than two pixels a join on the line, so the decisions are the whole measure's.
    const int space = metrics.horizontalAdvance(QLatin1Char(' '));
    QStringList lines;
    for (const QString &part : parts) {
        QString current;
        int width = 0;
        int joins = 0;
        for (const QString &word : part.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            const int advance = metrics.horizontalAdvance(word);
            if (current.isEmpty()) {
                current = word;
                width = advance;
                joins = 0;
                continue;
            }
            const QString longer = current + QLatin1Char(' ') + word;
            int longerWidth = width + space + advance;
            const int near = std::max({8, room / 20, 2 * (joins + 1)});
            if (std::abs(longerWidth - room) <= near)
                longerWidth = metrics.horizontalAdvance(longer);
            if (longerWidth > room) {
                lines << current;
                current = word;
                width = advance;
                joins = 0;
            } else {
                current = longer;
                width = longerWidth;
                ++joins;
            }
        }
        lines << current;
    }
    return lines.join(QLatin1Char('\n'));
}

QString PlotView::countText(std::int64_t n, const QString &one, const QString &many)
{
    return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? one : many);
}

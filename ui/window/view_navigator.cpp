#include "window/view_navigator.h"

#include "state/view_registry.h"

#include <algorithm>

ViewNavigator::ViewNavigator(QWidget *parent)
    : QTreeWidget(parent)
{
    setObjectName(QStringLiteral("viewNavigator"));
    setHeaderHidden(true);
    setColumnCount(1);
    setRootIsDecorated(false);
    setItemsExpandable(false);
    setIndentation(fontMetrics().averageCharWidth() * 2);
    setFocusPolicy(Qt::NoFocus);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setFrameShape(QFrame::NoFrame);
    setToolTip(tr("The views, by what they explain (View menu: the same, with keys)"));
    const auto &views = viewRegistry();
    items_.resize(views.size());
    for (const QString &group : viewGroups()) {
        auto *heading = new QTreeWidgetItem(this, {group});
        heading->setFlags(Qt::ItemIsEnabled); // a heading, not a view
        QFont bold = font();
        bold.setBold(true);
        heading->setFont(0, bold);
        for (std::size_t i = 0; i < views.size(); ++i)
            if (views[i].group == group) {
                items_[i] = new QTreeWidgetItem(heading, {views[i].title});
                items_[i]->setData(0, Qt::UserRole, static_cast<int>(i));
                items_[i]->setToolTip(0, views[i].id);
                items_[i]->setSizeHint(0, QSize(-1, fontMetrics().height() + 6)); // room to click
            }
    }
    expandAll();
    connect(this, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem *item) {
        const QVariant index = item->data(0, Qt::UserRole);
        if (index.isValid())
            emit viewChosen(index.toInt());
    });
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Expanding);
}

void ViewNavigator::setCurrent(int index)
{
    if (index >= 0 && index < static_cast<int>(items_.size()) && items_[static_cast<std::size_t>(index)])
        setCurrentItem(items_[static_cast<std::size_t>(index)]);
}

QTreeWidgetItem *ViewNavigator::viewItem(int index) const
{
    return index >= 0 && index < static_cast<int>(items_.size()) ? items_[static_cast<std::size_t>(index)] : nullptr;
}

QSize ViewNavigator::sizeHint() const
{
    // As wide as its longest line, headings and indented titles alike; as tall as every row.
    const int row = fontMetrics().height() + 6;
    int width = 0;
    int rows = 0;
    for (int g = 0; g < topLevelItemCount(); ++g) {
        const QTreeWidgetItem *heading = topLevelItem(g);
        width = std::max(width, QFontMetrics(heading->font(0)).horizontalAdvance(heading->text(0)));
        for (int c = 0; c < heading->childCount(); ++c)
            width = std::max(width, indentation() + fontMetrics().horizontalAdvance(heading->child(c)->text(0)));
        rows += 1 + heading->childCount();
    }
    return {width + 2 * frameWidth() + 2 * fontMetrics().averageCharWidth(), rows * row + 2 * frameWidth()};
}

QSize ViewNavigator::minimumSizeHint() const
{
    return {sizeHint().width(), 4 * (fontMetrics().height() + 6)}; // shorter than that, it scrolls
}

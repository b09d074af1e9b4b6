#pragma once

#include <QTreeWidget>

// The window's map of the views: every view under the heading of what it explains (viewGroups()),
// one click away, beside the plots. It takes no keyboard focus, so the arrow keys keep stepping
// the position of the view in front.
class ViewNavigator : public QTreeWidget
{
    Q_OBJECT
  public:
    explicit ViewNavigator(QWidget *parent = nullptr);

    // Marks the view at this index of viewRegistry() as the one shown.
    void setCurrent(int index);
    // The item of a view (for tests: where to click).
    QTreeWidgetItem *viewItem(int index) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

  signals:
    void viewChosen(int index);

  private:
    std::vector<QTreeWidgetItem *> items_; // by registry index
};

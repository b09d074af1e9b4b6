#pragma once

#include <QAbstractTableModel>
#include <QWidget>

class Parameters;
class QSpinBox;
class QTableView;

// The encoding's numbers as seed 003 prints them: one row per position, one column per
// dimension, each column headed by its denominator base^(2i/d) and frequency. Values are computed
// for the cells on screen only, so any window size the controls allow can be browsed.
class ValuesModel : public QAbstractTableModel
{
    Q_OBJECT

  public:
    explicit ValuesModel(Parameters *parameters, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

    int decimals() const { return decimals_; }
    void setDecimals(int decimals);
    // The cells of a selection as tab-separated text with the shown decimals; the first line and
    // column name the dimensions and positions.
    QString tsv(const QModelIndexList &cells) const;

  private:
    Parameters *parameters_;
    int decimals_ = 4;
};

class ValuesTable : public QWidget
{
    Q_OBJECT

  public:
    explicit ValuesTable(Parameters *parameters, QWidget *parent = nullptr);

    QTableView *table() const { return table_; }
    ValuesModel *model() const { return model_; }
    // Puts the selection on the clipboard as TSV (also Ctrl+C in the table).
    void copySelection();
    // While nobody sees the table (the window's dock hidden), the view lets go of the model: a reset
    // at every parameter change made its headers measure themselves, about 1 ms of every slider
    // step at 100,000 positions. Live again, it takes the model back as it is then.
    void setLive(bool live);

  private:
    Parameters *parameters_;
    ValuesModel *model_;
    QTableView *table_;
    QSpinBox *decimals_;
    std::int64_t shownPosition_ = -1, shownStart_ = -1; // the row the table last followed
};

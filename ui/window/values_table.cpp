#include "window/values_table.h"

#include "state/parameters.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>
#include <cmath>
#include <map>

ValuesModel::ValuesModel(Parameters *parameters, QObject *parent)
    : QAbstractTableModel(parent)
    , parameters_(parameters)
{
    connect(parameters_, &Parameters::changed, this, [this] {
        beginResetModel();
        endResetModel();
    });
}

int ValuesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(std::min<std::int64_t>(parameters_->values().seqLen, INT_MAX));
}

int ValuesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : parameters_->values().dModel;
}

QVariant ValuesModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    const std::int64_t t = parameters_->values().startPos + index.row();
    if (role == Qt::DisplayRole)
        return QString::number(parameters_->encoding().value(t, index.column()), 'f', decimals_);
    if (role == Qt::ToolTipRole)
        return tr("PE(%1, %2) = %3")
            .arg(t)
            .arg(index.column())
            .arg(parameters_->encoding().value(t, index.column()), 0, 'g', 17);
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::BackgroundRole && t == parameters_->position())
        return QApplication::palette().alternateBase();
    return {};
}

QVariant ValuesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    if (orientation == Qt::Vertical)
        return QString::number(parameters_->values().startPos + section);
    const pe::Encoding &e = parameters_->encoding();
    const double w = e.columnFrequency(section);
    // Article 3 prints the denominators base^(2i/d) (the cosine column shares its sine's).
    if (role == Qt::ToolTipRole)
        return tr("dimension %1: %2, denominator %3, ω = %4, wavelength %5")
            .arg(section)
            .arg(e.columnIsSine(section) ? QStringLiteral("sin") : QStringLiteral("cos"))
            .arg(QString::fromStdString(pe::numberText(1.0 / w, 6)))
            .arg(w, 0, 'g', 6)
            .arg(QString::fromStdString(pe::numberText(pe::wavelengthOf(w), 6)));
    return tr("%1 %2\n÷ %3\nω %4")
        .arg(section)
        .arg(e.columnIsSine(section) ? QStringLiteral("sin") : QStringLiteral("cos"))
        .arg(QString::fromStdString(pe::numberText(1.0 / w, 4)))
        .arg(w, 0, 'g', 3);
}

void ValuesModel::setDecimals(int decimals)
{
    decimals_ = decimals;
    if (rowCount() > 0 && columnCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1), {Qt::DisplayRole});
}

QString ValuesModel::tsv(const QModelIndexList &cells) const
{
    if (cells.isEmpty())
        return {};
    std::map<int, std::map<int, QString>> grid;
    int minCol = INT_MAX, maxCol = INT_MIN;
    for (const QModelIndex &i : cells) {
        grid[i.row()][i.column()] = data(i, Qt::DisplayRole).toString();
        minCol = std::min(minCol, i.column());
        maxCol = std::max(maxCol, i.column());
    }
    QString out = QStringLiteral("position");
    for (int c = minCol; c <= maxCol; ++c)
        out += QStringLiteral("\td%1").arg(c);
    out += QLatin1Char('\n');
    for (const auto &[row, cols] : grid) {
        out += QString::number(parameters_->values().startPos + row);
        for (int c = minCol; c <= maxCol; ++c) {
            out += QLatin1Char('\t');
            if (auto it = cols.find(c); it != cols.end())
                out += it->second;
        }
        out += QLatin1Char('\n');
    }
    return out;
}

ValuesTable::ValuesTable(Parameters *parameters, QWidget *parent)
    : QWidget(parent)
    , parameters_(parameters)
    , model_(new ValuesModel(parameters, this))
    , table_(new QTableView(this))
    , decimals_(new QSpinBox(this))
{
    setObjectName(QStringLiteral("valuesTable"));
    table_->setObjectName(QStringLiteral("values"));
    table_->setModel(model_);
    table_->setSelectionMode(QAbstractItemView::ContiguousSelection);
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
    table_->horizontalHeader()->setDefaultSectionSize(
        table_->fontMetrics().horizontalAdvance(QStringLiteral("-0.00000000")) + 8);
    table_->setToolTip(
        tr("Every value of the window, computed for the cells on screen; Ctrl+C copies the selection as TSV"));
    decimals_->setObjectName(QStringLiteral("decimals"));
    decimals_->setRange(0, 17);
    decimals_->setValue(model_->decimals());
    decimals_->setToolTip(tr("Decimals shown and copied (article 3 prints 4)"));
    connect(decimals_, &QSpinBox::valueChanged, model_, &ValuesModel::setDecimals);

    auto *copy = new QAction(tr("Copy"), table_);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    connect(copy, &QAction::triggered, this, &ValuesTable::copySelection);
    table_->addAction(copy);
    table_->setContextMenuPolicy(Qt::ActionsContextMenu);

    // The current position's row follows the position.
    connect(parameters_, &Parameters::positionChanged, this, [this] {
        const std::int64_t row = parameters_->position() - parameters_->values().startPos;
        // A fraction that moved (playback) leaves the row where it is.
        if (parameters_->position() == shownPosition_ && parameters_->values().startPos == shownStart_)
            return;
        shownPosition_ = parameters_->position();
        shownStart_ = parameters_->values().startPos;
        if (table_->model() == model_ && row >= 0 && row < model_->rowCount()) {
            table_->scrollTo(model_->index(static_cast<int>(row), 0));
            emit model_->headerDataChanged(Qt::Vertical, static_cast<int>(row), static_cast<int>(row));
            table_->viewport()->update();
        }
    });

    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Decimals:"), this));
    top->addWidget(decimals_);
    top->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(table_, 1);
}

void ValuesTable::copySelection()
{
    if (table_->selectionModel())
        QApplication::clipboard()->setText(model_->tsv(table_->selectionModel()->selectedIndexes()));
}

void ValuesTable::setLive(bool live)
{
    if (live == (table_->model() == model_))
        return;
    table_->setModel(live ? model_ : nullptr);
}

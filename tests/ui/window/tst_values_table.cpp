#include "state/parameters.h"
#include "test_support.h"
#include "window/values_table.h"

#include <QApplication>
#include <QClipboard>
#include <QItemSelectionModel>
#include <QSpinBox>
#include <QTableView>
#include <QTest>

using testsupport::params;

class TestValuesTable : public QObject
{
    Q_OBJECT

  private slots:
    void seed003Table();
    void copiesTheSelectionAsTsv();
    void anyWindowSize();
};

void TestValuesTable::seed003Table()
{
    // Seed 003: max_sequence_length 10, d_model 6; its denominators 1, 21.5443, 464.1589.
    Parameters p;
    QVERIFY(!p.set(params(10, 6)));
    ValuesTable t(&p);
    ValuesModel *m = t.model();
    QCOMPARE(m->rowCount(), 10);
    QCOMPARE(m->columnCount(), 6);
    QCOMPARE(m->data(m->index(1, 0), Qt::DisplayRole).toString(), QStringLiteral("0.8415")); // sin(1)
    QCOMPARE(m->data(m->index(1, 1), Qt::DisplayRole).toString(), QStringLiteral("0.5403")); // cos(1)
    // Seed 003 prints row 9 as [0.4121, -0.9111, 0.4057, 0.9140, 0.0194, 0.9998].
    const QStringList row9{QStringLiteral("0.4121"), QStringLiteral("-0.9111"), QStringLiteral("0.4057"),
                           QStringLiteral("0.9140"), QStringLiteral("0.0194"),  QStringLiteral("0.9998")};
    for (int c = 0; c < 6; ++c)
        QCOMPARE(m->data(m->index(9, c), Qt::DisplayRole).toString(), row9[c]);
    QVERIFY(m->headerData(2, Qt::Horizontal, Qt::DisplayRole).toString().contains(QStringLiteral("÷ 21.54")));
    QVERIFY(m->headerData(5, Qt::Horizontal, Qt::DisplayRole).toString().contains(QStringLiteral("÷ 464.2")));
    t.findChild<QSpinBox *>(QStringLiteral("decimals"))->setValue(6);
    QCOMPARE(m->data(m->index(1, 0), Qt::DisplayRole).toString(), QStringLiteral("0.841471"));
    // A parameter change is followed at once.
    QVERIFY(!p.set(params(4, 2, 1e4, 100)));
    QCOMPARE(m->rowCount(), 4);
    QCOMPARE(m->headerData(0, Qt::Vertical, Qt::DisplayRole).toString(), QStringLiteral("100"));
}

void TestValuesTable::copiesTheSelectionAsTsv()
{
    Parameters p;
    QVERIFY(!p.set(params(10, 6)));
    ValuesTable t(&p);
    QTableView *view = t.table();
    view->selectionModel()->select(QItemSelection(t.model()->index(0, 0), t.model()->index(1, 1)),
                                   QItemSelectionModel::Select);
    t.copySelection();
    QCOMPARE(QApplication::clipboard()->text(),
             QStringLiteral("position\td0\td1\n0\t0.0000\t1.0000\n1\t0.8415\t0.5403\n"));
}

void TestValuesTable::anyWindowSize()
{
    // A million rows of 4,096 columns: only the cells asked for are computed.
    Parameters p;
    QVERIFY(!p.set(params(1'000'000, 4096, 1e4, 999'000'000)));
    ValuesTable t(&p);
    t.resize(800, 400);
    t.show();
    QVERIFY(QTest::qWaitForWindowExposed(&t));
    QCOMPARE(t.model()->rowCount(), 1'000'000);
    QCOMPARE(t.model()->columnCount(), 4096);
    const double v = t.model()->data(t.model()->index(999'999, 4095), Qt::DisplayRole).toString().toDouble();
    QVERIFY(std::abs(v - p.encoding().value(999'999'999, 4095)) < 1e-4);
}

QTEST_MAIN(TestValuesTable)
#include "tst_values_table.moc"

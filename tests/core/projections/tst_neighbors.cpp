// Nearest neighbours and trustworthiness (core/neighbors.h).
#include "projections/neighbors.h"
#include "projections/projection.h"
#include "test_support.h"

#include <Eigen/Dense>

#include <QTest>

#include <cmath>
#include <set>

using testsupport::params;

class TestNeighbors : public QObject
{
    Q_OBJECT

  private slots:
    void offsetNeighborsEqualExactSearch();
    void exactNeighborsOfNoisyVectors();
    void trustworthinessMatchesScikitLearn();
};

void TestNeighbors::offsetNeighborsEqualExactSearch()
{
    // Pure pair encodings: |PE(t) - PE(s)|^2 depends on t - s only, so the offsets give the answer.
    const pe::Encoding e(params(700, 32));
    const pe::Neighbors fast = pe::offsetNeighbors(e, 12);
    const pe::Neighbors exact = pe::exactNeighbors(pe::embeddingRows(e, {}), 12);
    QCOMPARE(fast.n, exact.n);
    for (std::int64_t i = 0; i < fast.n; ++i)
        for (int j = 0; j < 12; ++j) {
            const auto at = static_cast<std::size_t>(i * 12 + j);
            QVERIFY2(std::abs(fast.dist2[at] - exact.dist2[at]) < 1e-9,
                     qPrintable(QStringLiteral("row %1, neighbour %2: %3 vs %4")
                                    .arg(i)
                                    .arg(j)
                                    .arg(fast.dist2[at])
                                    .arg(exact.dist2[at])));
        }
    // Distances of the offsets' answer are the true ones.
    for (std::int64_t i : {0, 1, 350, 699}) {
        for (int j = 0; j < 12; ++j) {
            const std::int64_t other = fast.index[static_cast<std::size_t>(i * 12 + j)];
            double d2 = 0;
            for (int c = 0; c < 32; ++c)
                d2 += std::pow(e.value(i, c) - e.value(other, c), 2);
            QVERIFY(std::abs(d2 - fast.dist2[static_cast<std::size_t>(i * 12 + j)]) < 1e-9);
        }
    }
}

void TestNeighbors::exactNeighborsOfNoisyVectors()
{
    const pe::Encoding e(params(300, 16));
    const pe::NoiseParams noise{0.5, 7};
    const pe::Rows rows = pe::embeddingRows(e, noise);
    const std::vector<double> x = rows.all();
    const pe::Neighbors nb = pe::exactNeighbors(rows, 5);
    for (std::int64_t i : {0, 17, 299}) {
        std::vector<std::pair<double, std::int64_t>> all;
        for (std::int64_t j = 0; j < 300; ++j)
            if (j != i) {
                double d2 = 0;
                for (int c = 0; c < 16; ++c)
                    d2 +=
                        std::pow(x[static_cast<std::size_t>(i * 16 + c)] - x[static_cast<std::size_t>(j * 16 + c)], 2);
                all.emplace_back(d2, j);
            }
        std::sort(all.begin(), all.end());
        for (int j = 0; j < 5; ++j) {
            QCOMPARE(static_cast<std::int64_t>(nb.index[static_cast<std::size_t>(i * 5 + j)]),
                     all[static_cast<std::size_t>(j)].second);
            QVERIFY(std::abs(nb.dist2[static_cast<std::size_t>(i * 5 + j)] - all[static_cast<std::size_t>(j)].first) <
                    1e-9);
        }
    }
}

void TestNeighbors::trustworthinessMatchesScikitLearn()
{
    // sklearn.manifold.trustworthiness(pe, pe[:, [0, 3]], n_neighbors=5) = 0.72109375 and
    // (pe, pe[:, [2, 3]], 5) = 0.74140625 for the 40 x 6 per-index encoding (scikit-learn 1.2.1,
    // on this program's CSV export). Per-index, so no two distances tie: scikit-learn breaks ties
    // by an unstable sort.
    const pe::Encoding e(params(40, 6, 1e4, 0, pe::Layout::Interleaved, pe::Exponent::Index));
    const pe::Rows rows = pe::embeddingRows(e, {});
    const std::vector<double> x = rows.all();
    for (auto [a, b, expected] : {std::tuple{0, 3, 0.72109375}, std::tuple{2, 3, 0.74140625}}) {
        std::vector<double> y;
        for (int i = 0; i < 40; ++i) {
            y.push_back(x[static_cast<std::size_t>(i * 6 + a)]);
            y.push_back(x[static_cast<std::size_t>(i * 6 + b)]);
        }
        QVERIFY2(std::abs(pe::trustworthiness(rows, y, 2, 5) - expected) < 1e-9,
                 qPrintable(QString::number(pe::trustworthiness(rows, y, 2, 5), 'g', 12)));
    }
    // An embedding that is the input itself keeps every neighbourhood.
    const pe::Encoding flat(params(60, 2));
    const pe::Rows flatRows = pe::embeddingRows(flat, {0.3, 1});
    QCOMPARE(pe::trustworthiness(flatRows, flatRows.all(), 2, 5), 1.0);
}

QTEST_APPLESS_MAIN(TestNeighbors)
#include "tst_neighbors.moc"

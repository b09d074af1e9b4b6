// Nearest neighbours and trustworthiness (core/neighbors.h).
#include "projections/neighbors.h"
#include "projections/projection.h"
#include "test_support.h"

#include <Eigen/Dense>

#include <QTest>

#include <cmath>
#include <set>
#include <thread>

using testsupport::params;

class TestNeighbors : public QObject
{
    Q_OBJECT

  private slots:
    void offsetNeighborsEqualExactSearch();
    void exactNeighborsOfNoisyVectors();
    void trustworthinessMatchesScikitLearn();
    void approximateRecallIsMeasuredTruly();
    void approximateNeighborsAreTheSameOnAnyThreads();
    void searchChoice();
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

namespace {

double squaredDistance(const std::vector<float> &x, int d, std::int64_t i, std::int64_t j)
{
    double s = 0;
    for (int c = 0; c < d; ++c) {
        const double e = static_cast<double>(x[static_cast<std::size_t>(i * d + c)]) -
                         static_cast<double>(x[static_cast<std::size_t>(j * d + c)]);
        s += e * e;
    }
    return s;
}

// Every row's k-th nearest squared distance, by a direct search in double of the same
// single-precision rows the index holds.
std::vector<double> kthDistances(const std::vector<float> &x, std::int64_t n, int d, int k)
{
    std::vector<double> kth(static_cast<std::size_t>(n));
    std::vector<double> dist;
    for (std::int64_t i = 0; i < n; ++i) {
        dist.clear();
        for (std::int64_t j = 0; j < n; ++j)
            if (j != i)
                dist.push_back(squaredDistance(x, d, i, j));
        std::nth_element(dist.begin(), dist.begin() + (k - 1), dist.end());
        kth[static_cast<std::size_t>(i)] = dist[static_cast<std::size_t>(k - 1)];
    }
    return kth;
}

std::vector<float> floatRows(const pe::Rows &rows)
{
    const std::vector<double> all = rows.all();
    return std::vector<float>(all.begin(), all.end());
}

} // namespace

void TestNeighbors::approximateRecallIsMeasuredTruly()
{
    // The figure itself: lists with every third row's last three entries swapped for far rows give
    // exactly the share a direct search counts, over every row (1,000 rows: the sample is all).
    {
        const int n = 1000, d = 32, k = 10;
        const pe::Encoding e(params(n, d));
        const pe::Rows rows = pe::embeddingRows(e, {0.5, 3});
        pe::Neighbors nb = pe::approximateNeighbors(rows, k);
        const std::vector<float> x = floatRows(rows);
        for (std::int64_t i = 0; i < n; i += 3)
            for (int j = k - 3; j < k; ++j) {
                const auto at = static_cast<std::size_t>(i * k + j);
                const std::int32_t far = static_cast<std::int32_t>((i + n / 2 + j) % n);
                nb.index[at] = far;
                nb.dist2[at] = squaredDistance(x, d, i, far);
            }
        const std::vector<double> kth = kthDistances(x, n, d, k);
        std::int64_t found = 0;
        for (std::int64_t i = 0; i < n; ++i)
            for (int j = 0; j < k; ++j)
                found += nb.dist2[static_cast<std::size_t>(i * k + j)] <= kth[static_cast<std::size_t>(i)] * (1 + 1e-9);
        QCOMPARE(pe::recallSampleSize(n, d), static_cast<std::int64_t>(n));
        const double truth = static_cast<double>(found) / (n * k);
        QVERIFY2(truth < 0.92, qPrintable(QString::number(truth))); // the swaps did lose neighbours
        QCOMPARE(pe::measureRecall(rows, nb, n), truth);
    }
    // The index on noisy sinusoids: lists of distinct other rows, nearest first, their distances the
    // rows' own in double; the 1,000-row sample's figure within 0.02 of every row's.
    const int n = 2000, d = 128;
    for (auto [sigma, k] : {std::pair{10.0, 10}, std::pair{0.5, 30}}) {
        const pe::Encoding e(params(n, d));
        const pe::Rows rows = pe::embeddingRows(e, {sigma, 11});
        const pe::Neighbors nb = pe::approximateNeighbors(rows, k);
        QCOMPARE(nb.n, static_cast<std::int64_t>(n));
        QCOMPARE(nb.recall.sample, static_cast<std::int64_t>(1000));
        QCOMPARE(nb.recall.k, k);
        const std::vector<float> x = floatRows(rows);
        const std::vector<double> kth = kthDistances(x, n, d, k);
        std::int64_t found = 0;
        for (std::int64_t i = 0; i < n; ++i) {
            std::set<std::int32_t> seen;
            for (int j = 0; j < k; ++j) {
                const auto at = static_cast<std::size_t>(i * k + j);
                const std::int32_t other = nb.index[at];
                QVERIFY(other >= 0 && other < n && other != i);
                QVERIFY(seen.insert(other).second); // no row twice
                const double s = squaredDistance(x, d, i, other);
                QVERIFY2(std::abs(nb.dist2[at] - s) <= 1e-12 * s,
                         qPrintable(QStringLiteral("%1 vs %2").arg(nb.dist2[at]).arg(s)));
                if (j > 0)
                    QVERIFY(nb.dist2[at] >= nb.dist2[at - 1]);
                found += nb.dist2[at] <= kth[static_cast<std::size_t>(i)] * (1 + 1e-9) ? 1 : 0;
            }
        }
        const double truth = static_cast<double>(found) / (static_cast<double>(n) * k);
        QVERIFY2(std::abs(nb.recall.value - truth) < 0.02,
                 qPrintable(QStringLiteral("sample %1, every row %2").arg(nb.recall.value).arg(truth)));
        QVERIFY2(truth > 0.9, qPrintable(QString::number(truth)));
    }
}

void TestNeighbors::approximateNeighborsAreTheSameOnAnyThreads()
{
    // The index is built on one thread and only searched in parallel: a caller on the worker pool
    // and one running alone (a concurrent second caller) get the same lists and recall.
    const pe::Encoding e(params(3000, 32));
    const pe::Rows rows = pe::embeddingRows(e, {0.7, 5});
    pe::Neighbors a, b;
    std::thread first([&] { a = pe::approximateNeighbors(rows, 15); });
    std::thread second([&] { b = pe::approximateNeighbors(rows, 15); });
    first.join();
    second.join();
    const pe::Neighbors c = pe::approximateNeighbors(rows, 15);
    for (const pe::Neighbors *other : std::initializer_list<const pe::Neighbors *>{&b, &c}) {
        QVERIFY(a.index == other->index);
        QVERIFY(a.dist2 == other->dist2);
        QCOMPARE(a.recall.value, other->recall.value);
    }
    // Cancelled: nothing.
    std::atomic<bool> cancel{true};
    QCOMPARE(pe::approximateNeighbors(rows, 15, &cancel).n, std::int64_t{0});
}

void TestNeighbors::searchChoice()
{
    // Offsets where they apply, exact while n^2 d is within the limit, the index above it.
    using S = pe::NeighborSearch;
    QCOMPARE(pe::neighborSearch(params(1'000'000, 64), {}), S::Offsets);
    QCOMPARE(pe::neighborSearch(params(20'000, 128), {0.5, 1}), S::Exact);       // 5.1e10
    QCOMPARE(pe::neighborSearch(params(30'000, 128), {0.5, 1}), S::Approximate); // 1.15e11
    QCOMPARE(pe::neighborSearch(params(1000, 64, 1e4, 0, pe::Layout::Interleaved, pe::Exponent::Index), {}), S::Exact);
    // What the window's search gives: exact lists say so.
    const pe::Encoding small(params(500, 16));
    const pe::Neighbors nb = pe::windowNeighbors(small, {0.5, 3}, 5);
    QVERIFY(!nb.recall.approximate());
    QCOMPARE(nb.recall.value, 1.0);
}

QTEST_APPLESS_MAIN(TestNeighbors)
#include "tst_neighbors.moc"

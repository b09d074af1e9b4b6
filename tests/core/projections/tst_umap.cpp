// UMAP (core/projections/umap.h): the kernel's a and b, the fuzzy graph against a direct
// computation, the spectral start, the same bits on any thread count, and the neighbourhoods the
// layout keeps.
#include "projections/neighbors.h"
#include "projections/umap.h"
#include "test_support.h"

#include <Eigen/Dense>

#include <QTest>

#include <cmath>
#include <random>
#include <thread>

using testsupport::params;

// `count` rings of `size` points, each point joined with weight 1 to its `reach` nearest on either
// side of its own ring, and to nothing on another.
static pe::UmapGraph rings(int count, int size, int reach)
{
    pe::UmapGraph g;
    g.n = count * size;
    g.rowStart.push_back(0);
    for (int i = 0; i < g.n; ++i) {
        const int base = i / size * size;
        std::vector<int> cols;
        for (int o = -reach; o <= reach; ++o)
            if (o != 0)
                cols.push_back(base + (i - base + o + size) % size);
        std::sort(cols.begin(), cols.end());
        for (int c : cols) {
            g.column.push_back(c);
            g.weight.push_back(1.0);
        }
        g.rowStart.push_back(static_cast<std::int64_t>(g.column.size()));
    }
    return g;
}

class TestUmap : public QObject
{
    Q_OBJECT

  private slots:
    void curveMatchesUmapLearn();
    void settingsAreChecked();
    void graphMatchesADirectComputation();
    void spectralStartIsTheLaplaciansSmoothestVectors();
    void piecesStartApart();
    void sameSeedSameBitsOnAnyThreads();
    void layoutKeepsNeighbourhoods();
    void threeDimensions();
};

void TestUmap::curveMatchesUmapLearn()
{
    // umap-learn 0.5's find_ab_params (scipy's curve_fit) for its defaults, min_dist 0.1 and
    // spread 1: a = 1.5769434603113077, b = 0.8950608779109733 (as umap-learn's docs and its users'
    // reports print them; the same fit run on Debian's scipy gives them to 1e-6).
    const auto [a, b] = pe::umapCurve(0.1, 1.0);
    QVERIFY2(std::abs(a - 1.5769434603113077) < 1e-5 && std::abs(b - 0.8950608779109733) < 1e-5,
             qPrintable(QStringLiteral("a %1, b %2").arg(a, 0, 'g', 17).arg(b, 0, 'g', 17)));
    // The fit is a minimum: nudging either parameter costs more.
    const auto cost = [](double a, double b) {
        double c = 0;
        for (int i = 0; i < 300; ++i) {
            const double x = 3.0 * i / 299, y = x < 0.5 ? 1.0 : std::exp(-(x - 0.5));
            c += std::pow(1.0 / (1.0 + a * std::pow(x, 2 * b)) - y, 2);
        }
        return c;
    };
    const auto [a5, b5] = pe::umapCurve(0.5, 1.0);
    for (const auto &[da, db] : {std::pair{1e-3, 0.0}, {-1e-3, 0.0}, {0.0, 1e-3}, {0.0, -1e-3}})
        QVERIFY(cost(a5 + da, b5 + db) > cost(a5, b5));
}

void TestUmap::settingsAreChecked()
{
    pe::UmapSettings s;
    QVERIFY(!pe::validateUmap(s, 100));
    QVERIFY(pe::validateUmap(s, 2)->find("at least 3") != std::string::npos);
    QVERIFY(pe::validateUmap(s, 10)->find("at most seq_len (10)") != std::string::npos);
    s.minDist = 2;
    QVERIFY(pe::validateUmap(s, 100)->find("minimum distance") != std::string::npos);
    s = {};
    s.spread = 0;
    QVERIFY(pe::validateUmap(s, 100));
    s = {};
    s.neighbors = 1;
    QVERIFY(pe::validateUmap(s, 100));
    s = {};
    QCOMPARE(pe::umapEpochs(s, 10'000), 500);
    QCOMPARE(pe::umapEpochs(s, 10'001), 200);
    s.epochs = 7;
    QCOMPARE(pe::umapEpochs(s, 10'001), 7);
}

void TestUmap::graphMatchesADirectComputation()
{
    // Noisy rows (ties and duplicates nowhere), k = 8: every row's sigma meets the paper's target,
    // log2 k, and the graph's weights are the fuzzy union of the memberships, computed here densely.
    const pe::Encoding e(params(90, 6));
    const pe::Rows rows = pe::embeddingRows(e, {0.4, 5});
    const int k = 8;
    const pe::Neighbors nb = pe::exactNeighbors(rows, k - 1);
    const pe::UmapGraph g = pe::umapGraph(nb);
    QCOMPARE(g.n, std::int64_t{90});
    Eigen::MatrixXd a = Eigen::MatrixXd::Zero(90, 90);
    for (int i = 0; i < 90; ++i) {
        const double rho = g.rho[static_cast<std::size_t>(i)], sigma = g.sigma[static_cast<std::size_t>(i)];
        QCOMPARE(rho, std::sqrt(nb.dist2[static_cast<std::size_t>(i * (k - 1))]));
        double psum = 0;
        for (int j = 0; j < k - 1; ++j) {
            const double d = std::sqrt(nb.dist2[static_cast<std::size_t>(i * (k - 1) + j)]);
            const double w = d - rho > 0 ? std::exp(-(d - rho) / sigma) : 1.0;
            psum += w;
            a(i, nb.index[static_cast<std::size_t>(i * (k - 1) + j)]) = w;
        }
        QVERIFY2(std::abs(psum - std::log2(8.0)) < 1e-4, qPrintable(QStringLiteral("row %1: %2").arg(i).arg(psum)));
    }
    const Eigen::MatrixXd u = a + a.transpose() - a.cwiseProduct(a.transpose());
    int entries = 0;
    for (int i = 0; i < 90; ++i) {
        int last = -1;
        for (std::int64_t e2 = g.rowStart[static_cast<std::size_t>(i)];
             e2 < g.rowStart[static_cast<std::size_t>(i + 1)]; ++e2) {
            const int j = g.column[static_cast<std::size_t>(e2)];
            QVERIFY(j > last && j != i); // increasing columns, no loop
            last = j;
            QVERIFY(std::abs(g.weight[static_cast<std::size_t>(e2)] - u(i, j)) < 1e-15);
            ++entries;
        }
    }
    QCOMPARE(entries, static_cast<int>((u.array() > 0).count())); // every pair of the union, none more
    QVERIFY((u - u.transpose()).cwiseAbs().maxCoeff() == 0);
}

void TestUmap::spectralStartIsTheLaplaciansSmoothestVectors()
{
    // A ring of 400 points, each joined to its 4 nearest on either side: the normalised Laplacian's
    // two smallest non-trivial eigenvectors are cos and sin of the angle, so the start is a circle.
    const int n = 400;
    const pe::UmapGraph g = rings(1, n, 4);
    const std::vector<double> y = pe::umapSpectralStart(g, 1);
    double cx = 0, cy = 0;
    for (int i = 0; i < n; ++i) {
        QVERIFY(y[2 * i] >= 0 && y[2 * i] <= 10 && y[2 * i + 1] >= 0 && y[2 * i + 1] <= 10);
        cx += y[2 * i] / n;
        cy += y[2 * i + 1] / n;
    }
    // On a circle about the middle: every radius within 1% of the mean, neighbours adjacent.
    double mean = 0;
    for (int i = 0; i < n; ++i)
        mean += std::hypot(y[2 * i] - cx, y[2 * i + 1] - cy) / n;
    for (int i = 0; i < n; ++i) {
        const double r = std::hypot(y[2 * i] - cx, y[2 * i + 1] - cy);
        QVERIFY2(std::abs(r / mean - 1) < 0.01,
                 qPrintable(QStringLiteral("point %1: %2 of %3").arg(i).arg(r).arg(mean)));
        const int j = (i + 1) % n;
        QVERIFY(std::hypot(y[2 * i] - y[2 * j], y[2 * i + 1] - y[2 * j + 1]) < 2 * 3.1416 * mean / n * 1.1);
    }
}

// The graph with its rows dealt out: row i of g becomes row (i % size) * count + i / size, so the
// pieces of g (`count` of `size` rows) are interleaved, row j on piece j % count.
static pe::UmapGraph interleaved(const pe::UmapGraph &g, int count)
{
    const auto size = static_cast<int>(g.n) / count;
    const auto to = [&](std::int64_t i) { return static_cast<std::int32_t>((i % size) * count + i / size); };
    std::vector<std::int64_t> from(static_cast<std::size_t>(g.n));
    for (std::int64_t i = 0; i < g.n; ++i)
        from[static_cast<std::size_t>(to(i))] = i;
    pe::UmapGraph out;
    out.n = g.n;
    out.rowStart.push_back(0);
    for (std::int64_t j = 0; j < g.n; ++j) {
        const std::int64_t i = from[static_cast<std::size_t>(j)];
        std::vector<std::pair<std::int32_t, double>> row;
        for (std::int64_t e = g.rowStart[static_cast<std::size_t>(i)]; e < g.rowStart[static_cast<std::size_t>(i + 1)];
             ++e)
            row.emplace_back(to(g.column[static_cast<std::size_t>(e)]), g.weight[static_cast<std::size_t>(e)]);
        std::sort(row.begin(), row.end());
        for (const auto &[c, w] : row) {
            out.column.push_back(c);
            out.weight.push_back(w);
        }
        out.rowStart.push_back(static_cast<std::int64_t>(out.column.size()));
    }
    return out;
}

// The smallest distance between a point of one piece and a point of another (row i on piece
// pieceOf(i)).
template <class F> static double closestAcrossPieces(const std::vector<double> &y, F pieceOf)
{
    const int n = static_cast<int>(y.size() / 2);
    double closest = 1e300;
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j)
            if (pieceOf(i) != pieceOf(j))
                closest = std::min(closest, std::hypot(y[2 * i] - y[2 * j], y[2 * i + 1] - y[2 * j + 1]));
    return closest;
}

void TestUmap::piecesStartApart()
{
    // Two rings with no edge between them: eigenvalue 1 twice. A spectral layout of the whole graph
    // would put each ring on a ray; umap-learn lays each piece out alone, about its own centre (+-e1
    // for two pieces). Each ring is a ring again, in its own disc, and the two stand apart.
    const int n = 200;
    const pe::UmapGraph g = rings(2, n / 2, 1);
    const std::vector<double> y = pe::umapSpectralStart(g, 3);
    // Discs of 0.4 x 2 about +-1 on the first axis: a gap of 0.4 in a width of 3.6, so 1.1 of [0, 10].
    const double apart = closestAcrossPieces(y, [&](int i) { return i / (n / 2); });
    QVERIFY2(apart > 1.0, qPrintable(QString::number(apart)));
    for (int p = 0; p < 2; ++p) {
        // A circle, drawn squeezed (each axis is scaled to [0, 10]: the first spans 3.6, the second
        // 1.6): its centre is the mean, and (x/sx)^2 + (y/sy)^2 is the same for every point.
        double cx = 0, cy = 0, lox = 1e300, hix = -1e300, loy = 1e300, hiy = -1e300;
        for (int i = p * n / 2; i < (p + 1) * n / 2; ++i) {
            cx += y[2 * i] / (n / 2);
            cy += y[2 * i + 1] / (n / 2);
            lox = std::min(lox, y[2 * i]);
            hix = std::max(hix, y[2 * i]);
            loy = std::min(loy, y[2 * i + 1]);
            hiy = std::max(hiy, y[2 * i + 1]);
        }
        QVERIFY2(std::abs((hix - lox) / (hiy - loy) - 1.6 / 3.6) < 0.01,
                 qPrintable(QString::number((hix - lox) / (hiy - loy))));
        for (int i = p * n / 2; i < (p + 1) * n / 2; ++i) {
            const double r = std::hypot((y[2 * i] - cx) / (hix - lox), (y[2 * i + 1] - cy) / (hiy - loy));
            QVERIFY2(std::abs(r - 0.5) < 0.01, qPrintable(QStringLiteral("point %1: %2").arg(i).arg(r)));
        }
    }

    // Six rings of 200 points, interleaved (row i on ring i % 6, at angle i / 6), their rows round
    // centroids on a line, 100 apart: placed by the centroids' principal axis, in their order along
    // it, apart. The same bits alone, from the worker pool and on a thread of its own (two callers
    // at once). Two rings with one centroid: round a circle instead, still apart.
    const int size = 200, count = 6;
    const pe::UmapGraph six = interleaved(rings(count, size, 2), count);
    const auto ringRows = [&](std::vector<double> along) {
        pe::Rows rows;
        rows.n = count * size;
        rows.d = 3;
        rows.fill = [along, ring = std::int64_t{size}, rings = std::int64_t{count}](std::int64_t first, std::int64_t m,
                                                                                    std::int64_t step, double *out) {
            for (std::int64_t r = 0; r < m; ++r) {
                const std::int64_t i = first + r * step;
                const double angle = 2 * 3.141592653589793 * static_cast<double>(i / rings) / ring;
                out[3 * r] = along[static_cast<std::size_t>(i % rings)];
                out[3 * r + 1] = std::cos(angle);
                out[3 * r + 2] = std::sin(angle);
            }
        };
        return rows;
    };
    const pe::Rows rows = ringRows({0, 100, 200, 300, 400, 500});
    const std::vector<double> line = pe::umapSpectralStart(six, 5, nullptr, &rows);
    std::vector<double> other, same;
    std::thread t([&] { other = pe::umapSpectralStart(six, 5, nullptr, &rows); });
    same = pe::umapSpectralStart(six, 5, nullptr, &rows);
    t.join();
    QVERIFY(other == line && same == line);
    std::vector<double> middle(count, 0.0);
    for (int i = 0; i < count * size; ++i)
        middle[static_cast<std::size_t>(i % count)] += line[2 * i] / size;
    const double sign = middle[1] > middle[0] ? 1 : -1;
    for (int p = 1; p < count; ++p)
        QVERIFY2(sign * (middle[p] - middle[p - 1]) > 1.0, qPrintable(QString::number(middle[p] - middle[p - 1])));
    const double lineGap = closestAcrossPieces(line, [&](int i) { return i % count; });
    QVERIFY2(lineGap > 0.2, qPrintable(QString::number(lineGap)));
    const pe::Rows twins = ringRows({0, 100, 200, 300, 400, 400});
    const std::vector<double> round = pe::umapSpectralStart(six, 5, nullptr, &twins);
    QVERIFY(round == pe::umapSpectralStart(six, 5)); // what no rows give
    const double roundGap = closestAcrossPieces(round, [&](int i) { return i % count; });
    QVERIFY2(roundGap > 0.2, qPrintable(QString::number(roundGap)));

    // Three pieces at e1, e2 and -e1, as umap-learn places them: right, top, left.
    const std::vector<double> three = pe::umapSpectralStart(rings(3, 50, 2), 9);
    std::vector<double> mx(3, 0.0), my(3, 0.0);
    for (int i = 0; i < 150; ++i) {
        mx[static_cast<std::size_t>(i / 50)] += three[2 * i] / 50;
        my[static_cast<std::size_t>(i / 50)] += three[2 * i + 1] / 50;
    }
    QVERIFY(mx[0] > 7 && mx[2] < 3 && std::abs(mx[1] - 5) < 1 && my[1] > 7 && std::abs(my[0] - my[2]) < 0.5);

    // Pieces too small for a spectral layout (3 points) are spread in their own squares.
    const std::vector<double> tiny = pe::umapSpectralStart(rings(5, 3, 1), 7);
    const double tinyGap = closestAcrossPieces(tiny, [](int i) { return i / 3; });
    QVERIFY2(tinyGap > 0.2, qPrintable(QString::number(tinyGap)));
    for (int i = 0; i < 15; ++i)
        for (int j = i + 1; j < 15; ++j)
            QVERIFY(tiny[2 * i] != tiny[2 * j] || tiny[2 * i + 1] != tiny[2 * j + 1]);
}

void TestUmap::sameSeedSameBitsOnAnyThreads()
{
    // Two callers at once: one gets the worker pool, the other runs alone on its own thread; both
    // give a lone caller's bits. Another seed, another layout.
    const pe::Encoding e(params(3000, 32));
    const pe::NoiseParams noise{0.3, 9};
    pe::UmapSettings s;
    s.epochs = 60;
    const auto run = [&](std::uint64_t seed) {
        pe::UmapSettings t = s;
        t.seed = seed;
        std::optional<pe::Umap> u = pe::prepareUmap(e, noise, t, 2);
        pe::runUmap(*u);
        return u->embedding();
    };
    const std::vector<double> alone = run(42);
    std::vector<double> a, b;
    std::thread other([&] { a = run(42); });
    b = run(42);
    other.join();
    QVERIFY(a == alone && b == alone);
    QVERIFY(run(43) != alone);
}

void TestUmap::layoutKeepsNeighbourhoods()
{
    // Noisy sinusoids, 2,000 x 32 (500 epochs): UMAP keeps what t-SNE keeps of each point's 10
    // nearest. The comparison with umap-learn on the same rows is tests/bench's (pe-bench --umap).
    const pe::Encoding e(params(2000, 32));
    const pe::NoiseParams noise{0.2, 4};
    std::optional<pe::Umap> u = pe::prepareUmap(e, noise, {}, 2);
    QVERIFY(u);
    QCOMPARE(u->epochs(), 500);
    int frames = 0;
    QVERIFY(pe::runUmap(*u, [&](const pe::Umap &) { return ++frames > 0; }));
    QCOMPARE(frames, 500);
    QVERIFY(u->finished());
    const double t = pe::trustworthiness(pe::embeddingRows(e, noise), u->embedding(), 2, 10);
    QVERIFY2(t > 0.95, qPrintable(QString::number(t)));
    for (double v : u->embedding())
        QVERIFY(std::isfinite(v));
    // Cancelled before an epoch: nothing changes, and the run resumes where it was.
    std::optional<pe::Umap> v = pe::prepareUmap(e, noise, {}, 2);
    const std::atomic<bool> cancel{true};
    const std::vector<double> before = v->embedding();
    QVERIFY(!v->step(&cancel));
    QCOMPARE(v->epoch(), 0);
    QVERIFY(v->embedding() == before);
}

QTEST_GUILESS_MAIN(TestUmap)
void TestUmap::threeDimensions()
{
    // A chain of 300 points (each joined to its 3 nearest on either side): the Laplacian's smoothest
    // vectors have distinct eigenvalues, cos(pi k (i + 1/2) / n) for k = 1, 2, 3. The 3-D start's
    // first two columns are the 2-D start's; its third is the next vector, cos(3 pi (i + 1/2) / n)
    // up to sign, scaled to [0, 10].
    const int n = 300;
    pe::UmapGraph chain;
    chain.n = n;
    chain.rowStart.push_back(0);
    for (int i = 0; i < n; ++i) {
        for (int j = std::max(0, i - 3); j <= std::min(n - 1, i + 3); ++j)
            if (j != i) {
                chain.column.push_back(j);
                chain.weight.push_back(1.0);
            }
        chain.rowStart.push_back(static_cast<std::int64_t>(chain.column.size()));
    }
    const std::vector<double> flat = pe::umapSpectralStart(chain, 4);
    const std::vector<double> deep = pe::umapSpectralStart(chain, 4, nullptr, nullptr, 3);
    QCOMPARE(deep.size(), std::size_t(3 * n));
    double worst = 0, third = 0, norm = 0;
    for (int i = 0; i < n; ++i) {
        for (int c = 0; c < 2; ++c)
            worst = std::max(worst, std::abs(deep[3 * i + c] - flat[2 * i + c]));
        const double want = std::cos(3 * 3.141592653589793 * (i + 0.5) / n);
        third += (deep[3 * i + 2] - 5) * want;
        norm += (deep[3 * i + 2] - 5) * (deep[3 * i + 2] - 5);
    }
    QVERIFY2(worst < 1e-3, qPrintable(QString::number(worst)));
    // The chain's vectors are not exactly cosines (its ends have fewer edges): correlation > 0.99.
    const double corr = std::abs(third) / std::sqrt(norm * n / 2.0);
    QVERIFY2(corr > 0.99, qPrintable(QString::number(corr)));

    // Six pieces go to +-e1, +-e2 and +-e3 (umap-learn's order: e1, e2, e3, then their negatives).
    const std::vector<double> six = pe::umapSpectralStart(rings(6, 40, 2), 9, nullptr, nullptr, 3);
    for (int p = 0; p < 6; ++p) {
        double m[3] = {0, 0, 0};
        for (int i = p * 40; i < (p + 1) * 40; ++i)
            for (int c = 0; c < 3; ++c)
                m[c] += six[static_cast<std::size_t>(3 * i + c)] / 40;
        // Centres at +-1 with balls of 0.4 sqrt 2 about them: +1 at 8.2 of [0, 10], -1 at 1.8.
        for (int c = 0; c < 3; ++c) {
            const bool ok = c != p % 3 ? std::abs(m[c] - 5) < 0.5 : p < 3 ? m[c] > 7.5 : m[c] < 2.5;
            QVERIFY2(ok, qPrintable(QStringLiteral("piece %1 axis %2: %3").arg(p).arg(c).arg(m[c])));
        }
    }

    // The layout in 3-D keeps the neighbourhoods at least as well as in 2-D, with the same bits for
    // two callers at once (one on the worker pool, one alone).
    const pe::Encoding e(params(2000, 32));
    const pe::NoiseParams noise{0.2, 4};
    const auto run = [&](int dims) {
        std::optional<pe::Umap> u = pe::prepareUmap(e, noise, {}, dims);
        pe::runUmap(*u);
        return u->embedding();
    };
    const std::vector<double> three = run(3);
    QCOMPARE(three.size(), std::size_t(3 * 2000));
    std::vector<double> a, b;
    std::thread other([&] { a = run(3); });
    b = run(3);
    other.join();
    QVERIFY(a == three && b == three);
    const double t3 = pe::trustworthiness(pe::embeddingRows(e, noise), three, 3, 10);
    const double t2 = pe::trustworthiness(pe::embeddingRows(e, noise), run(2), 2, 10);
    QVERIFY2(t3 > 0.95 && t3 > t2 - 0.005, qPrintable(QStringLiteral("3-D %1, 2-D %2").arg(t3).arg(t2)));
}

#include "tst_umap.moc"

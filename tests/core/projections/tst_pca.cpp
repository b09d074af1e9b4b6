// PCA (core/pca.h) and the projection it gives (core/projection.h).
#include "encodings/encoding_covariance.h"
#include "projections/pca.h"
#include "projections/projection.h"
#include "test_support.h"

#include <Eigen/Dense>

#include <QTest>

#include <cmath>
#include <thread>

using testsupport::params;

Q_DECLARE_METATYPE(pe::EncodingParams)

class TestPca : public QObject
{
    Q_OBJECT

  private slots:
    void pcaMatchesFullEigendecomposition();
    void pcaOfWideVectors();
    void projectionOfPcaIsCentred();
    void threeComponentsAreTheTopThree();
    void viewFromIsMatplotlibsOrthographicCamera();
    void closedFormCovarianceMatchesTheRows_data();
    void closedFormCovarianceMatchesTheRows();
    void closedFormPcaMatchesTheStreamedPca();
    void noisyRowsHaveNoClosedForm();
    void formedCovarianceMatchesTheRows();
    void formedCovarianceMatchesTheStreamedPath();
    void formedCovarianceDoesNotDependOnTheThreads();
    void wideRowsFormTheirCovarianceWhenSlowToSettle();
};

namespace {

// The same rows without the closed form: what principalComponents streamed before it had one
// (called with PcaPath::Streamed, so that they are not formed either).
pe::Rows streamedOnly(pe::Rows rows)
{
    rows.pure = nullptr;
    return rows;
}

// The rows in memory, centred on their mean (two passes: the reference the tests compare with).
struct Centred {
    Eigen::MatrixXd rows;
    Eigen::RowVectorXd mean;
};
Centred centredRows(const pe::Rows &rows)
{
    const std::vector<double> x = rows.all();
    const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> m(x.data(), rows.n,
                                                                                                     rows.d);
    const Eigen::RowVectorXd mean = m.colwise().mean();
    return {m.rowwise() - mean, mean};
}

pe::EncodingParams rope(std::int64_t seqLen, int d, pe::RopeScaling scaling, double factor)
{
    pe::EncodingParams p = params(seqLen, d);
    p.scheme = pe::SchemeId::Rope;
    p.rope.scaling = scaling;
    p.rope.factor = factor;
    return p;
}

} // namespace

void TestPca::pcaMatchesFullEigendecomposition()
{
    const pe::Encoding e(params(300, 24));
    const pe::Rows rows = pe::embeddingRows(e, {0.3, 5});
    const Centred reference = centredRows(rows);
    const Eigen::MatrixXd &centred = reference.rows;
    const Eigen::MatrixXd cov = centred.transpose() * centred / 299.0;
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> full(cov);
    // Both paths: the covariance formed (noisy rows, more of them than columns) and streamed.
    for (const pe::PcaPath path : {pe::PcaPath::Auto, pe::PcaPath::Streamed}) {
        const pe::Pca pca = pe::principalComponents(rows, 3, 0, nullptr, 1e-12, path);
        QCOMPARE(pca.formed, path == pe::PcaPath::Auto);
        QCOMPARE(pca.count(), 3);
        QVERIFY(std::abs(pca.totalVariance - cov.trace()) < 1e-10 * cov.trace());
        for (int c = 0; c < 3; ++c) {
            const double expected = full.eigenvalues()(23 - c);
            QVERIFY2(std::abs(pca.variance[static_cast<std::size_t>(c)] - expected) < 1e-9 * expected,
                     qPrintable(QStringLiteral("component %1: %2 vs %3")
                                    .arg(c)
                                    .arg(pca.variance[static_cast<std::size_t>(c)])
                                    .arg(expected)));
            const Eigen::Map<const Eigen::VectorXd> v(pca.components.data() + c * 24, 24);
            QVERIFY(std::abs(std::abs(v.dot(full.eigenvectors().col(23 - c))) - 1.0) < 1e-6);
        }
    }
    // All components: the explained fractions add up to 1.
    const pe::Pca all = pe::principalComponents(rows, 24);
    double sum = 0;
    for (int c = 0; c < 24; ++c)
        sum += all.explained(c);
    QVERIFY(std::abs(sum - 1.0) < 1e-9);
}

void TestPca::pcaOfWideVectors()
{
    // d = 1024 and fewer rows: subspace iteration over the streamed rows, never a 1024 x 1024
    // matrix; checked by the Rayleigh quotient and the residual |C v - lambda v|.
    const pe::Encoding e(params(900, 1024));
    const pe::Rows rows = pe::embeddingRows(e, {});
    const pe::Pca pca = pe::principalComponents(rows, 2);
    QVERIFY(pca.iterations < 300);
    QVERIFY(!pca.formed);
    QVERIFY(pca.explained(0) >= pca.explained(1));
    QVERIFY(pca.explained(0) + pca.explained(1) <= 1.0);
    const Centred reference = centredRows(rows);
    const Eigen::MatrixXd &centred = reference.rows;
    for (int c = 0; c < 2; ++c) {
        const Eigen::Map<const Eigen::VectorXd> v(pca.components.data() + c * 1024, 1024);
        const Eigen::VectorXd cv = centred.transpose() * (centred * v) / 899.0;
        QVERIFY((cv - pca.variance[static_cast<std::size_t>(c)] * v).norm() <
                1e-6 * pca.variance[static_cast<std::size_t>(c)]);
    }
}

void TestPca::projectionOfPcaIsCentred()
{
    const pe::Encoding e(params(500, 32));
    const pe::Projection pr = pe::pcaProjection(e, {});
    QCOMPARE(pr.coords.size(), std::size_t(1000));
    double mx = 0, my = 0;
    for (int i = 0; i < 500; ++i) {
        mx += pr.coords[static_cast<std::size_t>(2 * i)];
        my += pr.coords[static_cast<std::size_t>(2 * i + 1)];
    }
    QVERIFY(std::abs(mx / 500) < 1e-10 && std::abs(my / 500) < 1e-10);
    QVERIFY(pr.explained[0] >= pr.explained[1] && pr.explained[1] > 0);
}

void TestPca::threeComponentsAreTheTopThree()
{
    // Against a full decomposition of the rows' covariance: each axis's share of the variance, and
    // each column is the rows' projection on that eigenvector (up to sign); the first two are the
    // 2-D projection's.
    const pe::Encoding e(params(500, 32));
    const pe::Rows rows = pe::embeddingRows(e, {});
    std::vector<double> values(static_cast<std::size_t>(rows.n * rows.d));
    rows.fill(0, rows.n, 1, values.data());
    Eigen::MatrixXd x = Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
        values.data(), rows.n, rows.d);
    x.rowwise() -= x.colwise().mean();
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(x.transpose() * x / (rows.n - 1.0));
    const double trace = es.eigenvalues().sum();
    const pe::Projection three = pe::pcaProjection(e, {}, nullptr, 3);
    const pe::Projection two = pe::pcaProjection(e, {});
    QCOMPARE(three.dims, 3);
    QCOMPARE(three.coords.size(), std::size_t(1500));
    for (int c = 0; c < 3; ++c) {
        const int k = rows.d - 1 - c;
        QVERIFY(std::abs(three.explained[c] - es.eigenvalues()(k) / trace) < 1e-9);
        const Eigen::VectorXd want = x * es.eigenvectors().col(k);
        Eigen::VectorXd got(rows.n);
        for (int i = 0; i < rows.n; ++i)
            got(i) = three.coords[static_cast<std::size_t>(3 * i + c)];
        const double corr = std::abs(got.dot(want)) / (got.norm() * want.norm());
        QVERIFY2(corr > 1 - 1e-9, qPrintable(QString::number(1 - corr)));
        // The same axes as in 2-D, signs included, to the iteration's tolerance (Ritz values settled
        // to 1e-12 leave the vectors good to about 1e-6).
        if (c < 2)
            for (int i = 0; i < rows.n; ++i)
                QVERIFY(std::abs(got(i) - two.coords[static_cast<std::size_t>(2 * i + c)]) <
                        1e-5 * got.cwiseAbs().maxCoeff());
    }
}

void TestPca::viewFromIsMatplotlibsOrthographicCamera()
{
    // The unit axes on the screen, as matplotlib 3.6's orthographic Axes3D draws them after
    // view_init(elev, azim) (proj3d.proj_transform with ax.get_proj(), proj_type="ortho", a cube
    // box; its scale divided out): e1, e2, e3 at (azim, elev).
    struct Case {
        double azimuth, elevation;
        double e[3][2];
    };
    const Case cases[] = {{-60, 30, {{0.866, -0.25}, {0.5, 0.433}, {0, 0.866}}},
                          {20, 10, {{-0.342, -0.1632}, {0.9397, -0.0594}, {0, 0.9848}}},
                          {0, 0, {{0, 0}, {1, 0}, {0, 1}}},
                          {135, -40, {{-0.7071, -0.4545}, {-0.7071, 0.4545}, {0, 0.766}}}};
    const std::vector<double> axes{1, 0, 0, 0, 1, 0, 0, 0, 1};
    std::vector<double> screen, depth;
    for (const Case &k : cases) {
        pe::viewFrom(axes, {k.azimuth, k.elevation}, screen, depth);
        for (int a = 0; a < 3; ++a)
            for (int c = 0; c < 2; ++c)
                QVERIFY2(std::abs(screen[static_cast<std::size_t>(2 * a + c)] - k.e[a][c]) < 1e-4,
                         qPrintable(
                             QStringLiteral("azimuth %1 elevation %2 axis %3").arg(k.azimuth).arg(k.elevation).arg(a)));
    }
    // Looking down the third axis (azimuth -90, elevation 90): the first two as the 2-D picture has
    // them, the third towards the eye. Any angle keeps lengths (a rotation).
    pe::viewFrom({0.3, -1.2, 2.5}, {-90, 90}, screen, depth);
    QVERIFY(std::abs(screen[0] - 0.3) < 1e-15 && std::abs(screen[1] + 1.2) < 1e-15 && std::abs(depth[0] - 2.5) < 1e-15);
    pe::viewFrom({0.3, -1.2, 2.5}, {37.5, -12.25}, screen, depth);
    QVERIFY(std::abs(screen[0] * screen[0] + screen[1] * screen[1] + depth[0] * depth[0] - (0.09 + 1.44 + 6.25)) <
            1e-12);
}

void TestPca::closedFormCovarianceMatchesTheRows_data()
{
    QTest::addColumn<pe::EncodingParams>("p");
    QTest::addColumn<qint64>("step");
    QTest::newRow("interleaved 300 x 24") << params(300, 24) << qint64(1);
    QTest::newRow("split 257 x 16") << params(257, 16, 1e4, 0, pe::Layout::Split) << qint64(1);
    QTest::newRow("per-index 15 x 9, base 100 (seed 002)")
        << params(15, 9, 100, 0, pe::Layout::Interleaved, pe::Exponent::Index) << qint64(1);
    QTest::newRow("odd d 400 x 7") << params(400, 7) << qint64(1);
    QTest::newRow("base 10, 1,000 positions") << params(1000, 12, 10) << qint64(1);
    QTest::newRow("near position 1e9") << params(600, 20, 1e4, 999'999'000) << qint64(1);
    QTest::newRow("every 37th of 20,000 (the t-SNE start)") << params(20000, 32) << qint64(37);
    QTest::newRow("base 2, every 44th: theta h past several 2 pi") << params(5000, 8, 2) << qint64(44);
    QTest::newRow("RoPE d 64") << rope(700, 64, pe::RopeScaling::None, 1) << qint64(1);
    QTest::newRow("RoPE YaRN x4 (amplitude)") << rope(700, 64, pe::RopeScaling::Yarn, 4) << qint64(1);
    QTest::newRow("RoPE llama3 x8") << rope(700, 64, pe::RopeScaling::Llama3, 8) << qint64(3);
}

void TestPca::closedFormCovarianceMatchesTheRows()
{
    // The sums by Dirichlet kernels against the sums over the filled rows (in long double).
    QFETCH(pe::EncodingParams, p);
    QFETCH(qint64, step);
    const pe::Encoding e(p);
    QVERIFY(pe::hasClosedFormCovariance(e));
    const pe::Rows rows = pe::embeddingRows(e, {});
    const std::int64_t count = (p.seqLen + step - 1) / step;
    const int d = p.dModel;
    std::vector<double> x(static_cast<std::size_t>(count * d));
    rows.fill(0, count, step, x.data());
    std::vector<long double> mean(static_cast<std::size_t>(d), 0.0L);
    for (std::int64_t r = 0; r < count; ++r)
        for (int j = 0; j < d; ++j)
            mean[static_cast<std::size_t>(j)] += x[static_cast<std::size_t>(r * d + j)];
    for (long double &m : mean)
        m /= count;
    const pe::ColumnCovariance c = pe::columnCovariance(e, p.startPos, count, step);
    double worstMean = 0, worstCov = 0;
    for (int a = 0; a < d; ++a) {
        worstMean = std::max(worstMean, std::abs(static_cast<double>(mean[static_cast<std::size_t>(a)] -
                                                                     c.mean[static_cast<std::size_t>(a)])));
        for (int b = 0; b < d; ++b) {
            long double sum = 0;
            for (std::int64_t r = 0; r < count; ++r)
                sum += (x[static_cast<std::size_t>(r * d + a)] - mean[static_cast<std::size_t>(a)]) *
                       (x[static_cast<std::size_t>(r * d + b)] - mean[static_cast<std::size_t>(b)]);
            const double expected = static_cast<double>(sum / (count - 1));
            worstCov = std::max(worstCov, std::abs(expected - c.covariance[static_cast<std::size_t>(a) * d + b]));
        }
    }
    QVERIFY2(worstMean < 1e-12 && worstCov < 1e-12,
             qPrintable(QStringLiteral("mean off by %1, covariance by %2").arg(worstMean).arg(worstCov)));
}

void TestPca::closedFormPcaMatchesTheStreamedPca()
{
    // The bar: the same explained variance as the streamed path to 1e-9, the same axes.
    // maxRows 0 (every row) and 1,000 (every 20th of 20,000: the t-SNE start's kind of sample).
    for (const std::int64_t maxRows : {0, 1000}) {
        const pe::Encoding e(params(20000, 256));
        const pe::Rows rows = pe::embeddingRows(e, {});
        const pe::Pca closed = pe::principalComponents(rows, 2, maxRows);
        const pe::Pca streamed =
            pe::principalComponents(streamedOnly(rows), 2, maxRows, nullptr, 1e-12, pe::PcaPath::Streamed);
        for (int c = 0; c < 2; ++c)
            QVERIFY2(std::abs(closed.explained(c) - streamed.explained(c)) < 1e-9,
                     qPrintable(QStringLiteral("maxRows %1, component %2").arg(maxRows).arg(c)));
    }
    for (const pe::EncodingParams &p :
         {params(3000, 64, 1e4, 123'456'789), params(5000, 33, 1e4, 0, pe::Layout::Interleaved, pe::Exponent::Index),
          rope(4000, 128, pe::RopeScaling::Yarn, 4)}) {
        const pe::Encoding e(p);
        const pe::Rows rows = pe::embeddingRows(e, {});
        QVERIFY(rows.pure);
        const pe::Pca closed = pe::principalComponents(rows, 2);
        const pe::Pca streamed =
            pe::principalComponents(streamedOnly(rows), 2, 0, nullptr, 1e-12, pe::PcaPath::Streamed);
        const QString what = QStringLiteral("%1 x %2 from %3").arg(p.seqLen).arg(p.dModel).arg(p.startPos);
        QVERIFY2(std::abs(closed.totalVariance - streamed.totalVariance) < 1e-9 * streamed.totalVariance,
                 qPrintable(what));
        for (int c = 0; c < 2; ++c) {
            QVERIFY2(std::abs(closed.explained(c) - streamed.explained(c)) < 1e-9,
                     qPrintable(QStringLiteral("%1: component %2 explains %3 against %4")
                                    .arg(what)
                                    .arg(c)
                                    .arg(closed.explained(c), 0, 'g', 17)
                                    .arg(streamed.explained(c), 0, 'g', 17)));
            const Eigen::Map<const Eigen::VectorXd> u(closed.components.data() + c * p.dModel, p.dModel);
            // The two top variances may nearly tie (a sine and its cosine): compare the plane, which is
            // what a picture shows, through the projection of u onto the streamed pair.
            const Eigen::Map<const Eigen::MatrixXd> plane(streamed.components.data(), p.dModel, 2);
            QVERIFY2((plane.transpose() * u).norm() > 1 - 1e-6, qPrintable(what));
        }
    }
}

void TestPca::noisyRowsHaveNoClosedForm()
{
    const pe::Encoding e(params(100, 8));
    QVERIFY(!pe::embeddingRows(e, {0.5, 1}).pure);
    QVERIFY(pe::embeddingRows(e, {}).pure == &e);
    pe::EncodingParams alibi = params(100, 8);
    alibi.scheme = pe::SchemeId::Alibi;
    QVERIFY(!pe::hasClosedFormCovariance(pe::Encoding(alibi)));
}

namespace {

// Noisy rows (x = PE + 0.5 z) moved far from the origin: every value plus `offset`.
pe::Rows offsetRows(const pe::Encoding &e, double offset)
{
    pe::Rows rows = pe::embeddingRows(e, {0.5, 7});
    rows.fill = [inner = rows.fill, d = rows.d, offset](std::int64_t first, std::int64_t count, std::int64_t step,
                                                        double *out) {
        inner(first, count, step, out);
        for (std::int64_t i = 0; i < count * d; ++i)
            out[i] += offset;
    };
    return rows;
}

} // namespace

void TestPca::formedCovarianceMatchesTheRows()
{
    // Noisy rows with more rows than columns: the covariance formed in one pass (three super-blocks
    // and a part, two tiles of columns and a part), against a two-pass centred covariance and a
    // full decomposition. Moved 1e5 from the origin, sums about zero would keep a millionth of the
    // variance (the sums are taken about the first rows' mean).
    const pe::Encoding e(params(15'000, 130));
    const pe::Rows rows = offsetRows(e, 1e5);
    const Centred reference = centredRows(rows);
    const Eigen::MatrixXd &centred = reference.rows;
    const Eigen::MatrixXd cov = centred.transpose() * centred / 14'999.0;
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> full(cov);
    const pe::Pca pca = pe::principalComponents(rows, 3);
    QVERIFY(pca.formed);
    QVERIFY2(
        std::abs(pca.totalVariance - cov.trace()) < 1e-10 * cov.trace(),
        qPrintable(QStringLiteral("%1 against %2").arg(pca.totalVariance, 0, 'g', 17).arg(cov.trace(), 0, 'g', 17)));
    for (int j = 0; j < 130; ++j)
        QVERIFY(std::abs(pca.mean[static_cast<std::size_t>(j)] - reference.mean(j)) < 1e-9);
    for (int c = 0; c < 3; ++c) {
        const double expected = full.eigenvalues()(129 - c);
        QVERIFY2(std::abs(pca.variance[static_cast<std::size_t>(c)] - expected) < 1e-9 * expected,
                 qPrintable(QStringLiteral("component %1: %2 vs %3")
                                .arg(c)
                                .arg(pca.variance[static_cast<std::size_t>(c)], 0, 'g', 17)
                                .arg(expected, 0, 'g', 17)));
        QVERIFY(std::abs(pca.explained(c) - expected / cov.trace()) < 1e-9);
        const Eigen::Map<const Eigen::VectorXd> v(pca.components.data() + c * 130, 130);
        QVERIFY(std::abs(std::abs(v.dot(full.eigenvectors().col(129 - c))) - 1.0) < 1e-6);
    }
}

void TestPca::formedCovarianceMatchesTheStreamedPath()
{
    // Noisy rows, every row and every 7th (the t-SNE start's kind of sample): the formed
    // covariance's explained variances equal the streamed iteration's to 1e-9, the same plane.
    const pe::Encoding e(params(12'000, 64));
    const pe::Rows rows = pe::embeddingRows(e, {0.2, 9});
    for (const std::int64_t maxRows : {0, 1'700}) {
        const pe::Pca formed = pe::principalComponents(rows, 2, maxRows);
        const pe::Pca streamed = pe::principalComponents(rows, 2, maxRows, nullptr, 1e-12, pe::PcaPath::Streamed);
        QVERIFY(formed.formed && !streamed.formed);
        QVERIFY(std::abs(formed.totalVariance - streamed.totalVariance) < 1e-10 * streamed.totalVariance);
        for (int c = 0; c < 2; ++c)
            QVERIFY2(std::abs(formed.explained(c) - streamed.explained(c)) < 1e-9,
                     qPrintable(QStringLiteral("maxRows %1, component %2").arg(maxRows).arg(c)));
        const Eigen::Map<const Eigen::MatrixXd> a(formed.components.data(), 64, 2),
            b(streamed.components.data(), 64, 2);
        for (int c = 0; c < 2; ++c) // each formed axis lies in the streamed plane
            QVERIFY((b.transpose() * a.col(c)).norm() > 1 - 1e-6);
    }
}

void TestPca::formedCovarianceDoesNotDependOnTheThreads()
{
    // Two callers at once: one gets the worker pool, the other runs alone on its own thread. Both
    // give a lone caller's bits.
    const pe::Encoding e(params(9'000, 96));
    const pe::Rows rows = pe::embeddingRows(e, {0.5, 3});
    const pe::Pca alone = pe::principalComponents(rows, 2);
    QVERIFY(alone.formed);
    pe::Pca a, b;
    std::thread other([&] { a = pe::principalComponents(rows, 2); });
    b = pe::principalComponents(rows, 2);
    other.join();
    QVERIFY(a.components == alone.components && b.components == alone.components);
    QVERIFY(a.variance == alone.variance && b.variance == alone.variance && a.mean == alone.mean);
}

void TestPca::wideRowsFormTheirCovarianceWhenSlowToSettle()
{
    // d above the formed-at-once limit, rows of noise alone (a flat spectrum: its top eigenvalues
    // a few hundredths apart): the streamed iteration does not settle in its first passes and
    // forms the covariance; the components are eigenvectors of the rows' covariance (the residual
    // |C v - lambda v|).
    constexpr std::int64_t n = 2'300;
    constexpr int d = 2'100;
    pe::Rows rows;
    rows.n = n;
    rows.d = d;
    rows.fill = [](std::int64_t first, std::int64_t count, std::int64_t step, double *out) {
        for (std::int64_t r = 0; r < count; ++r)
            for (int j = 0; j < d; ++j) {
                // splitmix64 of the cell's index: uniform in [-1, 1), the same for any block.
                std::uint64_t z = static_cast<std::uint64_t>((first + r * step) * d + j) + 0x9e3779b97f4a7c15ULL;
                z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
                z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
                z ^= z >> 31;
                out[r * d + j] = static_cast<double>(z >> 11) * 0x1p-52 - 1.0;
            }
    };
    const pe::Pca pca = pe::principalComponents(rows, 2);
    QVERIFY(pca.formed);
    QVERIFY(pca.iterations < 5000); // settled against the formed matrix, not stopped by the bound
    const Centred reference = centredRows(rows);
    const Eigen::MatrixXd &centred = reference.rows;
    QVERIFY(std::abs(pca.totalVariance - centred.squaredNorm() / (n - 1)) < 1e-10 * pca.totalVariance);
    for (int c = 0; c < 2; ++c) {
        const Eigen::Map<const Eigen::VectorXd> v(pca.components.data() + c * d, d);
        const Eigen::VectorXd cv = centred.transpose() * (centred * v) / static_cast<double>(n - 1);
        QVERIFY2((cv - pca.variance[static_cast<std::size_t>(c)] * v).norm() <
                     1e-6 * pca.variance[static_cast<std::size_t>(c)],
                 qPrintable(QStringLiteral("component %1").arg(c)));
    }
}

QTEST_APPLESS_MAIN(TestPca)
#include "tst_pca.moc"

// PCA (core/pca.h) and the projection it gives (core/projection.h).
#include "encodings/encoding_covariance.h"
#include "projections/pca.h"
#include "projections/projection.h"
#include "test_support.h"

#include <Eigen/Dense>

#include <QTest>

#include <cmath>

using testsupport::params;

Q_DECLARE_METATYPE(pe::EncodingParams)

class TestPca : public QObject
{
    Q_OBJECT

  private slots:
    void pcaMatchesFullEigendecomposition();
    void pcaOfWideVectors();
    void projectionOfPcaIsCentred();
    void closedFormCovarianceMatchesTheRows_data();
    void closedFormCovarianceMatchesTheRows();
    void closedFormPcaMatchesTheStreamedPca();
    void noisyRowsHaveNoClosedForm();
};

namespace {

// The same rows without the closed form: what principalComponents streamed before it had one.
pe::Rows streamedOnly(pe::Rows rows)
{
    rows.pure = nullptr;
    return rows;
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
    const std::vector<double> x = rows.all();
    const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> m(x.data(), 300, 24);
    const Eigen::MatrixXd centred = m.rowwise() - m.colwise().mean();
    const Eigen::MatrixXd cov = centred.transpose() * centred / 299.0;
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> full(cov);
    const pe::Pca pca = pe::principalComponents(rows, 3);
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
    // All components: the explained fractions add up to 1.
    const pe::Pca all = pe::principalComponents(rows, 24);
    double sum = 0;
    for (int c = 0; c < 24; ++c)
        sum += all.explained(c);
    QVERIFY(std::abs(sum - 1.0) < 1e-9);
}

void TestPca::pcaOfWideVectors()
{
    // d = 1024: subspace iteration, never a 1024 x 1024 decomposition; checked by the Rayleigh
    // quotient and the residual |C v - lambda v|.
    const pe::Encoding e(params(2000, 1024));
    const pe::Rows rows = pe::embeddingRows(e, {});
    const pe::Pca pca = pe::principalComponents(rows, 2);
    QVERIFY(pca.iterations < 300);
    QVERIFY(pca.explained(0) >= pca.explained(1));
    QVERIFY(pca.explained(0) + pca.explained(1) <= 1.0);
    const std::vector<double> x = rows.all();
    const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> m(x.data(), 2000,
                                                                                                     1024);
    const Eigen::MatrixXd centred = m.rowwise() - m.colwise().mean();
    for (int c = 0; c < 2; ++c) {
        const Eigen::Map<const Eigen::VectorXd> v(pca.components.data() + c * 1024, 1024);
        const Eigen::VectorXd cv = centred.transpose() * (centred * v) / 1999.0;
        QVERIFY((cv - pca.variance[static_cast<std::size_t>(c)] * v).norm() <
                1e-6 * pca.variance[static_cast<std::size_t>(c)]);
    }
}

void TestPca::projectionOfPcaIsCentred()
{
    const pe::Encoding e(params(500, 32));
    const pe::Projection pr = pe::pcaProjection(e, {});
    QCOMPARE(pr.xy.size(), std::size_t(1000));
    double mx = 0, my = 0;
    for (int i = 0; i < 500; ++i) {
        mx += pr.xy[static_cast<std::size_t>(2 * i)];
        my += pr.xy[static_cast<std::size_t>(2 * i + 1)];
    }
    QVERIFY(std::abs(mx / 500) < 1e-10 && std::abs(my / 500) < 1e-10);
    QVERIFY(pr.explained[0] >= pr.explained[1] && pr.explained[1] > 0);
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
        const pe::Pca streamed = pe::principalComponents(streamedOnly(rows), 2, maxRows);
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
        const pe::Pca streamed = pe::principalComponents(streamedOnly(rows), 2);
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

QTEST_APPLESS_MAIN(TestPca)
#include "tst_pca.moc"

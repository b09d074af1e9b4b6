// PCA (core/pca.h) and the projection it gives (core/projection.h).
#include "pca.h"
#include "projection.h"
#include "test_support.h"

#include <Eigen/Dense>

#include <QTest>

#include <cmath>

using testsupport::params;

class TestPca : public QObject
{
    Q_OBJECT

  private slots:
    void pcaMatchesFullEigendecomposition();
    void pcaOfWideVectors();
    void projectionOfPcaIsCentred();
};

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

QTEST_APPLESS_MAIN(TestPca)
#include "tst_pca.moc"

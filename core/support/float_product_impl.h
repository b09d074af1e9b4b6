// The body of floatProductNT, included by one file per instruction set. Each includer renames
// Eigen's namespace first (#define Eigen EigenXyz), so the inline functions Eigen instantiates
// here, compiled for that instruction set, can never be picked by the linker for another file.
#include <cstdint>

#include <Eigen/Core>

namespace pe::detail {

void PE_FLOAT_PRODUCT(const float *a, std::int64_t rows, const float *b, std::int64_t n, int d, float *c)
{
    using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    const Eigen::Map<const Matrix> lhs(a, rows, d), rhs(b, n, d);
    Eigen::Map<Matrix> out(c, rows, n);
    out.noalias() = lhs * rhs.transpose();
}

} // namespace pe::detail

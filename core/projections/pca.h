#pragma once

#include "projections/neighbors.h"

#include <atomic>
#include <vector>

namespace pe {

// The top principal components of n rows, by subspace iteration with Rayleigh-Ritz (Golub and
// Van Loan, 8.2.4): a block of a few vectors is multiplied by the covariance until its Ritz values
// settle. For the pure encoding with more rows than columns (Rows::pure) the covariance is formed
// in closed form (encoding_covariance.h). Other rows (noise, a table) with at least d of them and d
// up to 2,048 get their covariance formed in one blocked, threaded pass. Otherwise it is applied
// by streaming the rows a block at a time, so d = 4096 costs what d = 8 does per value; with at
// least d rows and d up to 4,096, the covariance is formed once the Ritz values are slow to settle
// (noisy rows: a flat spectrum). Never fully decomposed.
struct Pca {
    int d = 0;
    std::vector<double> mean;       // d
    std::vector<double> components; // k unit vectors of length d, one after another
    std::vector<double> variance;   // k eigenvalues of the covariance (divisor n - 1), largest first
    double totalVariance = 0;       // the covariance's trace
    int iterations = 0;
    bool formed = false; // the rows' covariance was formed (at once, or when streaming settled slowly)
    bool cancelled = false;

    int count() const { return static_cast<int>(variance.size()); }
    double explained(int c) const { return totalVariance > 0 ? variance[c] / totalVariance : 0.0; }
};

// k from 1 to min(d, n); rows.n >= 2. maxRows > 0 uses that many evenly spaced rows only (enough
// for an initialisation); 0 uses all. Iterates until the top k Ritz values change by at most
// tolerance (relative) from one step to the next. Streamed: never form the covariance (the tests
// compare the paths).
enum class PcaPath { Auto, Streamed };
Pca principalComponents(const Rows &rows, int k, std::int64_t maxRows = 0, const std::atomic<bool> *cancel = nullptr,
                        double tolerance = 1e-12, PcaPath path = PcaPath::Auto);

// Every row's coordinates on the components: n x k, row-major; empty when cancelled (a million rows
// of d 4,096 take seconds).
std::vector<double> project(const Rows &rows, const Pca &pca, const std::atomic<bool> *cancel = nullptr);

} // namespace pe

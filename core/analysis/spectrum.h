#pragma once

#include "encodings/encoding.h"

#include <cstdint>
#include <mutex>
#include <vector>

namespace pe {

// What each column's values do as the position advances, measured rather than assumed: the
// dominant angular frequency of a column over the window's positions, from its discrete Fourier
// transform (FFTW). The frequency view's spectrum: for a table the only frequencies there are, for
// the sinusoids a check that reproduces w_i.
//
// Per column: the mean is removed, a Hann window applied, and the peak bin of the power spectrum
// refined by a parabola through the logarithms of it and its two neighbours (exact for a Gaussian
// peak; a Hann-windowed sinusoid's is close to one, a few thousandths of a bin).
struct ColumnSpectrum {
    std::vector<int> columns;  // the columns measured
    std::vector<double> omega; // each one's dominant frequency, radians per position
    std::vector<double>
        peakShare;              // the power within ±2 bins of the peak over the column's power: 1 for a pure sinusoid
    std::int64_t positions = 0; // positions transformed: the window's first ones, at most maxPositions
    // 2π / positions, the spacing of the bins: a column that turns less than about two periods
    // over the positions (omega below 2 * resolution) is not resolved.
    double resolution = 0;
    bool resolved(std::size_t k) const { return omega[k] >= 2 * resolution; }
};

inline constexpr std::int64_t kSpectrumPositions = 8192;

// FFTW's planner is not thread-safe (executing a plan on other arrays is): every plan and its
// destruction, here and in t-SNE's repulsion (tsne_fft.h), is made under this lock.
std::mutex &fftwPlannerLock();

// The columns' spectra over positions start_pos, start_pos + 1, ... (at most maxPositions of them,
// never sampled with a stride, which would fold fast columns onto slow frequencies).
ColumnSpectrum columnSpectrum(const Encoding &encoding, const std::vector<int> &columns,
                              std::int64_t maxPositions = kSpectrumPositions);

} // namespace pe

#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace pe {

// t-SNE's repulsion by FFT-accelerated interpolation (Linderman, Rachh, Hoskins, Steinerberger and
// Kluger 2019, "Fast interpolation-based t-SNE for improved visualization of single-cell RNA-seq
// data", Nature Methods 16, 243-245: FIt-SNE), written from the paper.
//
// With w = 1 / (1 + |y_i - y_j|^2), every sum the gradient needs is one of four sums of the kernel
// w^2 against a charge of y_j: phi_c(i) = sum_j w_ij^2 q_c(j), q = 1, x, y, x^2 + y^2. Then
//   sum_j w_ij^2 (y_i - y_j) = y_i phi_1 - (phi_2, phi_3),
//   sum_j w_ij = sum_j w_ij^2 (1 + |y_i - y_j|^2) = (1 + |y_i|^2) phi_1 - 2 y_i . (phi_2, phi_3) + phi_4.
// The embedding's square is cut into boxes half a unit wide, each with 3 x 3 interpolation nodes
// (equally spaced: together one uniform grid); the charges are spread to the nodes by Lagrange
// interpolation, the kernel between all nodes is applied as one convolution (FFTW, zero-padded to
// twice the grid), and the results interpolated back to the points. O(n + G log G) for G nodes
// against Barnes-Hut's O(n log n): it pays while the embedding is small against n (the first
// hundreds of steps of a large run), which Tsne checks at every step (fftRepulsionPays).
// An embedding's bounding box (n >= 1 points, x and y interleaved): what the quadtree, the FFT grid
// and the choice between them all start from.
struct Bounds {
    double minX, maxX, minY, maxY;
    double width() const; // the larger extent, at least 1e-12
};
Bounds boundsOf(const double *y, std::int64_t n);

class FftRepulsion
{
  public:
    FftRepulsion();
    ~FftRepulsion();
    FftRepulsion(const FftRepulsion &) = delete;
    FftRepulsion &operator=(const FftRepulsion &) = delete;

    // For n points y (x, y interleaved): rep[2i..2i+1] = sum_j w_ij^2 (y_i - y_j) and
    // zPart[i] = sum_{j != i} w_ij, as the Barnes-Hut loop gives them.
    void compute(const double *y, std::int64_t n, const Bounds &bounds, double *rep, double *zPart);

    // Interpolation nodes on each side of the grid for an embedding this wide (the larger of its
    // extents): 3 per box, boxes at most half a unit wide and at least kMinBoxes of them, rounded up
    // to a size FFTW transforms fast.
    static int gridSide(double width);
    static constexpr int kNodesPerBox = 3;
    static constexpr int kMinBoxes = 50;
    // Boxes half a unit wide: the kernel falls from 1 to 1/4 within one unit, and three nodes a unit
    // (FIt-SNE's default) left errors of 4% and a bias in Z of 0.7% in the forces of a 5,000-point
    // run; at two boxes a unit the error is an eighth of that.
    static constexpr double kBoxesPerUnit = 2.0;

  private:
    struct Plans;
    std::unique_ptr<Plans> plans_;
};

// Whether a step of n points whose embedding is this wide costs less by FftRepulsion than by
// Barnes-Hut (measured on both cores: see the README's speed section).
bool fftRepulsionPays(std::int64_t n, double width);

} // namespace pe

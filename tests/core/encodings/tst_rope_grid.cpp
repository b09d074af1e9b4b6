#include "encodings/rope_grid.h"

#include <QTest>

#include <cmath>
#include <numbers>

// RoPE over a grid of patches against each model's reference construction written out as its code
// builds it (transformers' PixtralRotaryEmbedding, Qwen2-VL's VisionRotaryEmbedding and
// apply_multimodal_rotary_pos_emb: the angle tensors assembled and split as there, then the rotary
// vectors' cosine similarity as a plain dot product), and the grid and section parsers.
class TestRopeGrid : public QObject
{
    Q_OBJECT

  private slots:
    void pixtralAsItsRotaryEmbedding();
    void qwen2VlVisionAsItsRotaryEmbedding();
    void mropeAsApplyMultimodal();
    void similarityIsOneAtTheReferenceAndSymmetric();
    void parsesGridsAndSections();
    void refusals();
};

namespace {

// Every patch's d/2 angles, as the reference assembles them.
using Angles = std::vector<std::vector<double>>;

// The cosine similarity of two patches' rotary vectors (cos a_j, sin a_j for each j), as a dot
// product over the norms.
double cosine(const std::vector<double> &a, const std::vector<double> &b)
{
    double dot = 0, na = 0, nb = 0;
    for (std::size_t j = 0; j < a.size(); ++j) {
        const double xa[2] = {std::cos(a[j]), std::sin(a[j])};
        const double xb[2] = {std::cos(b[j]), std::sin(b[j])};
        for (int k = 0; k < 2; ++k) {
            dot += xa[k] * xb[k];
            na += xa[k] * xa[k];
            nb += xb[k] * xb[k];
        }
    }
    return dot / std::sqrt(na * nb);
}

void compareWithAngles(const std::vector<pe::GridPair> &pairs, const pe::PatchGrid &grid, const Angles &angles,
                       std::int64_t offset)
{
    QCOMPARE(static_cast<std::int64_t>(angles.size()), grid.patches());
    // One set of one-axis sums for the three references, as the view keeps them while t moves.
    const pe::GridOffsetSums sums = pe::gridOffsetSums(pairs, grid);
    for (std::int64_t ref : {std::int64_t(0), grid.patches() / 2 + 3, grid.patches() - 1}) {
        const pe::GridPatch rp = pe::gridPatch(grid, ref);
        const std::vector<double> s = pe::gridSimilarity(sums, rp);
        for (std::int64_t q = 0; q < grid.patches(); ++q) {
            const double want = cosine(angles[static_cast<std::size_t>(q)], angles[static_cast<std::size_t>(ref)]);
            if (std::abs(s[static_cast<std::size_t>(q)] - want) > 1e-13)
                QFAIL(qPrintable(QStringLiteral("patch %1 against %2: %3, the reference %4")
                                     .arg(q)
                                     .arg(ref)
                                     .arg(s[static_cast<std::size_t>(q)], 0, 'g', 17)
                                     .arg(want, 0, 'g', 17)));
        }
        // The clocks' angles: the reference's, reduced to [0, 2π).
        for (std::size_t j = 0; j < pairs.size(); ++j) {
            const double want = std::fmod(angles[static_cast<std::size_t>(ref)][j], 2 * std::numbers::pi);
            const double got = pe::gridAngle(pairs[j], rp, offset);
            QVERIFY(got >= 0 && got < 2 * std::numbers::pi);
            QVERIFY2(std::abs(got - want) < 1e-12 || std::abs(std::abs(got - want) - 2 * std::numbers::pi) < 1e-12,
                     qPrintable(QStringLiteral("pair %1: %2 against %3").arg(j).arg(got).arg(want)));
        }
    }
}

} // namespace

void TestRopeGrid::pixtralAsItsRotaryEmbedding()
{
    // freqs = 1 / base^(arange(0, dim, 2) / dim); freqs_h = outer(h, freqs[::2]),
    // freqs_w = outer(w, freqs[1::2]); inv_freq = cat([freqs_h[:, None], freqs_w[None, :]], -1)
    // reshaped to (H·W, dim/2): row-major patches, the row's angles first.
    const int d = 64;
    const double base = 10000;
    const pe::PatchGrid grid{1, 7, 9};
    std::vector<double> freqs;
    for (int m = 0; m < d; m += 2)
        freqs.push_back(1.0 / std::pow(base, static_cast<double>(m) / d));
    Angles angles;
    for (int h = 0; h < grid.rows; ++h)
        for (int w = 0; w < grid.cols; ++w) {
            std::vector<double> a;
            for (std::size_t m = 0; m < freqs.size(); m += 2)
                a.push_back(h * freqs[m]);
            for (std::size_t m = 1; m < freqs.size(); m += 2)
                a.push_back(w * freqs[m]);
            angles.push_back(a);
        }
    const auto pairs = pe::gridPairs(pe::GridRope::Pixtral, base, d, {}, {}, grid.patches());
    QCOMPARE(pairs.size(), std::size_t(32));
    QCOMPARE(pairs[15].axis, pe::GridAxis::Row);
    QCOMPARE(pairs[16].axis, pe::GridAxis::Column);
    compareWithAngles(pairs, grid, angles, 0);
}

void TestRopeGrid::qwen2VlVisionAsItsRotaryEmbedding()
{
    // VisionRotaryEmbedding(head_dim // 2): inv_freq = 1 / base^(arange(0, dim, 2) / dim) with
    // dim = head_dim / 2; rot_pos_emb gathers (hpos, wpos) rows of outer(seq, inv_freq) and
    // flattens them: the row's angles, then the column's, at the same frequencies. Head 80 as
    // Qwen2-VL's vision tower (embed_dim 1280, 16 heads).
    const int d = 80;
    const double base = 10000;
    const pe::PatchGrid grid{1, 6, 5};
    const int dim = d / 2;
    std::vector<double> inv;
    for (int m = 0; m < dim; m += 2)
        inv.push_back(1.0 / std::pow(base, static_cast<double>(m) / dim));
    Angles angles;
    for (int h = 0; h < grid.rows; ++h)
        for (int w = 0; w < grid.cols; ++w) {
            std::vector<double> a;
            for (double f : inv)
                a.push_back(h * f);
            for (double f : inv)
                a.push_back(w * f);
            angles.push_back(a);
        }
    const auto pairs = pe::gridPairs(pe::GridRope::Qwen2Vl, base, d, {}, {}, grid.patches());
    QCOMPARE(pairs.size(), std::size_t(40));
    compareWithAngles(pairs, grid, angles, 0);
}

void TestRopeGrid::mropeAsApplyMultimodal()
{
    // Qwen2VLRotaryEmbedding: freqs of each of the three position ids (t, h, w), shape
    // (3, seq, d/2), emb = cat(freqs, freqs) over d; apply_multimodal_rotary_pos_emb splits emb's
    // last dimension by mrope_section * 2 and takes chunk i from position kind i % 3. The image's
    // ids start at the text before it (get_rope_index: + st_idx), here 5.
    const int d = 32;
    const double base = 1e6;
    const std::array<int, 3> section{4, 6, 6};
    const pe::PatchGrid grid{3, 4, 5};
    const std::int64_t offset = 5;
    std::vector<double> inv;
    for (int m = 0; m < d; m += 2)
        inv.push_back(1.0 / std::pow(base, static_cast<double>(m) / d));
    std::vector<int> chunks;
    for (int rep = 0; rep < 2; ++rep)
        for (int s : section)
            chunks.push_back(s);
    Angles angles;
    for (int t = 0; t < grid.frames; ++t)
        for (int h = 0; h < grid.rows; ++h)
            for (int w = 0; w < grid.cols; ++w) {
                const double ids[3] = {double(offset + t), double(offset + h), double(offset + w)};
                std::vector<double> emb; // d values: chunk i from kind i % 3 of cat(freqs, freqs)
                int at = 0;
                for (std::size_t i = 0; i < chunks.size(); ++i)
                    for (int k = 0; k < chunks[i]; ++k, ++at)
                        emb.push_back(ids[i % 3] * inv[static_cast<std::size_t>(at % (d / 2))]);
                // rotate_half pairs dimension j with j + d/2: both halves must agree.
                for (int j = 0; j < d / 2; ++j)
                    QCOMPARE(emb[static_cast<std::size_t>(j)], emb[static_cast<std::size_t>(j + d / 2)]);
                emb.resize(d / 2);
                angles.push_back(emb);
            }
    const auto pairs = pe::gridPairs(pe::GridRope::Mrope, base, d, {}, section, grid.patches());
    QCOMPARE(pairs[3].axis, pe::GridAxis::Frame);
    QCOMPARE(pairs[4].axis, pe::GridAxis::Row);
    QCOMPARE(pairs[10].axis, pe::GridAxis::Column);
    compareWithAngles(pairs, grid, angles, offset);
    // Qwen2-VL's own section at its head of 128.
    const std::array<int, 3> qwen{16, 24, 24};
    QCOMPARE(pe::fitMropeSection(64), qwen);
}

void TestRopeGrid::similarityIsOneAtTheReferenceAndSymmetric()
{
    const pe::PatchGrid grid{1, 12, 12};
    const auto pairs = pe::gridPairs(pe::GridRope::Pixtral, 100, 16, {}, {}, grid.patches());
    const pe::GridPatch a = pe::gridPatch(grid, 17), b = pe::gridPatch(grid, 100);
    QCOMPARE(a.row, 1);
    QCOMPARE(a.col, 5);
    const auto sa = pe::gridSimilarity(pairs, grid, a);
    const auto sb = pe::gridSimilarity(pairs, grid, b);
    QVERIFY(std::abs(sa[17] - 1) < 1e-15);
    QVERIFY(std::abs(sa[100] - sb[17]) < 1e-15);
    // Separable: a patch one row down and one column right is the row's term plus the column's.
    for (double v : sa)
        QVERIFY(v <= 1 + 1e-15 && v >= -1 - 1e-15);
}

void TestRopeGrid::parsesGridsAndSections()
{
    std::string error;
    auto g = pe::parsePatchGrid("16x24", &error);
    QVERIFY(g && g->frames == 1 && g->rows == 16 && g->cols == 24);
    g = pe::parsePatchGrid("2x16x16", &error);
    QVERIFY(g && g->frames == 2 && g->patches() == 512);
    QCOMPARE(pe::patchGridText(*g), std::string("2x16x16"));
    for (const char *bad : {"", "16", "16x", "x16", "16x16x16x16", "0x4", "4x5000", "-1x4", "+2x4", "4.5x4", "2000x2x2",
                            "16X16", "16 x 16"}) {
        error.clear();
        QVERIFY2(!pe::parsePatchGrid(bad, &error), bad);
        QVERIFY2(!error.empty(), bad);
    }
    QVERIFY(pe::parsePatchGrid("1x1", nullptr));
    // fit: the squarest exact grid.
    QCOMPARE(pe::patchGridText(pe::fitPatchGrid(256)), std::string("16x16"));
    QCOMPARE(pe::patchGridText(pe::fitPatchGrid(50)), std::string("5x10"));
    QCOMPARE(pe::patchGridText(pe::fitPatchGrid(13)), std::string("1x13"));
    QCOMPARE(pe::patchGridText(pe::fitPatchGrid(1)), std::string("1x1"));
    QCOMPARE(pe::fitPatchGrid(1'000'000).rows, 1000);
    const auto s = pe::parseMropeSection("16,24,24", &error);
    QVERIFY(s && (*s)[0] == 16 && (*s)[2] == 24);
    for (const char *bad : {"", "16,24", "16,24,24,1", "16,,24", "a,b,c", "-1,2,3", "16, 24, 24", "5000,1,1"})
        QVERIFY2(!pe::parseMropeSection(bad, &error), bad);
}

void TestRopeGrid::refusals()
{
    const pe::PatchGrid image{1, 8, 8}, video{2, 8, 8};
    pe::RopeScalingParams none;
    QVERIFY(!pe::gridProblem(pe::GridRope::Pixtral, 64, none, 0, {}, image));
    pe::RopeScalingParams linear;
    linear.scaling = pe::RopeScaling::Linear;
    linear.factor = 2;
    QVERIFY(pe::gridProblem(pe::GridRope::Pixtral, 64, linear, 0, {}, image)->find("--scaling none") !=
            std::string::npos);
    QVERIFY(pe::gridProblem(pe::GridRope::Qwen2Vl, 66, none, 0, {}, image)->find("multiple of 4") != std::string::npos);
    QVERIFY(pe::gridProblem(pe::GridRope::Pixtral, 64, none, 0, {}, video)->find("no time axis") != std::string::npos);
    QVERIFY(pe::gridProblem(pe::GridRope::Pixtral, 64, none, 512, {}, image)->find("xPos") != std::string::npos);
    // M-RoPE: the section covers the rotated pairs; the scaling is the text model's own.
    QVERIFY(!pe::gridProblem(pe::GridRope::Mrope, 128, linear, 0, {16, 24, 24}, video));
    QVERIFY(pe::gridProblem(pe::GridRope::Mrope, 128, none, 0, {16, 24, 20}, video)->find("add up") !=
            std::string::npos);
    pe::RopeScalingParams half;
    half.rotaryFraction = 0.5;
    QVERIFY(!pe::gridProblem(pe::GridRope::Mrope, 128, half, 0, {8, 12, 12}, video));
    const auto pairs = pe::gridPairs(pe::GridRope::Mrope, 1e4, 128, half, {8, 12, 12}, 128);
    QCOMPARE(pairs[31].axis, pe::GridAxis::Column);
    QCOMPARE(pairs[32].axis, pe::GridAxis::Still);
    // Still pairs add cos 0 = 1 to every patch's sum.
    const auto s = pe::gridSimilarity(pairs, video, pe::gridPatch(video, 0));
    for (double v : s)
        QVERIFY(v >= 0.5 - 1e-15);
}

QTEST_APPLESS_MAIN(TestRopeGrid)
#include "tst_rope_grid.moc"

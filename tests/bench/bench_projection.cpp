#include "bench_support.h"

#include "encodings/encoding.h"
#include "projections/neighbors.h"
#include "projections/pca.h"
#include "projections/tsne.h"
#include "test_support.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>

#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

extern char **environ;

using testsupport::params;

namespace bench {

namespace {

// Three or more timings as "min / median / max".
std::string spread(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    char text[96];
    std::snprintf(text, sizeof text, "%.2f / %.2f / %.2f s", v.front(), median(v), v.back());
    return text;
}

// A Python script (Debian's /usr/bin/python3 -c) run with args, that prints `count` numbers on one
// line separated by spaces; nothing when it fails, times out (ms) or prints something else (its
// modules are not installed).
std::optional<std::vector<double>> pythonNumbers(const char *script, const QStringList &args, int count, int timeoutMs)
{
    QProcess py;
    py.start(QStringLiteral("/usr/bin/python3"), QStringList{QStringLiteral("-c"), QString::fromUtf8(script)} + args);
    if (!py.waitForFinished(timeoutMs) || py.exitCode() != 0)
        return std::nullopt;
    const QStringList parts = QString::fromUtf8(py.readAllStandardOutput()).trimmed().split(QLatin1Char(' '));
    if (parts.size() != count)
        return std::nullopt;
    std::vector<double> numbers;
    for (const QString &part : parts)
        numbers.push_back(part.toDouble());
    return numbers;
}

// scikit-learn's Barnes-Hut t-SNE on the same vectors (Debian's python3-sklearn), timed around
// fit_transform alone; seconds, KL and trustworthiness(10), or nothing when it is not installed.
struct SklearnRun {
    double seconds, kl, trust;
};
std::optional<SklearnRun> sklearnTsne(std::int64_t n, int d)
{
    const char *script = R"(
import sys, time, numpy as np
from sklearn.manifold import TSNE, trustworthiness
n, d = int(sys.argv[1]), int(sys.argv[2])
pos = np.arange(n)[:, None]
div = np.exp(np.arange(0, d, 2) * (-np.log(10000.0) / d))
pe = np.zeros((n, d)); pe[:, 0::2] = np.sin(pos * div); pe[:, 1::2] = np.cos(pos * div)
t = time.perf_counter()
tsne = TSNE(n_components=2, perplexity=30, init='pca', learning_rate='auto', random_state=0)
y = tsne.fit_transform(pe)
s = time.perf_counter() - t
print(s, tsne.kl_divergence_, trustworthiness(pe, y, n_neighbors=10))
)";
    const std::optional<std::vector<double>> v =
        pythonNumbers(script, {QString::number(n), QString::number(d)}, 3, 600'000);
    if (!v)
        return std::nullopt;
    return SklearnRun{(*v)[0], (*v)[1], (*v)[2]};
}

// numpy's PCA (np.cov and np.linalg.eigh, Debian's python3-numpy) of x = PE + 0.5 z, n x d, PE
// interleaved with base 1e4: z from np.random.seed(42) and randn when `legacy` (the app's
// --rng numpy, bit for bit), else from default_rng(0). Seconds around cov and eigh, and the top
// two explained fractions; nothing when numpy is missing.
struct NumpyPca {
    double seconds, explained[2];
};
std::optional<NumpyPca> numpyPca(std::int64_t n, int d, bool legacy)
{
    const char *script = R"(
import sys, time, numpy as np
n, d, legacy = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == '1'
pos = np.arange(n)[:, None]
w = 10000.0 ** (-2.0 * np.arange(d // 2) / d)
x = np.zeros((n, d)); x[:, 0::2] = np.sin(pos * w); x[:, 1::2] = np.cos(pos * w)
if legacy:
    np.random.seed(42); x += 0.5 * np.random.randn(n, d)
else:
    x += 0.5 * np.random.default_rng(0).standard_normal((n, d))
t = time.perf_counter()
vals = np.linalg.eigh(np.cov(x, rowvar=False))[0]
s = time.perf_counter() - t
print(s, vals[-1] / vals.sum(), vals[-2] / vals.sum())
)";
    const std::optional<std::vector<double>> v = pythonNumbers(
        script, {QString::number(n), QString::number(d), legacy ? QStringLiteral("1") : QStringLiteral("0")}, 3,
        1'800'000);
    if (!v)
        return std::nullopt;
    return NumpyPca{(*v)[0], {(*v)[1], (*v)[2]}};
}

// The command a user runs, start to exit: pe-explorer ... --export-data projection --out FILE (or,
// with figure, --export projection --out FILE.png); its peak resident memory (KiB) in *peakKiB when
// given (wait4's, of this child alone).
double wholeProcessSeconds(const QString &explorer, const QStringList &args, long *peakKiB = nullptr,
                           bool figure = false)
{
    QTemporaryDir dir;
    const QStringList all =
        QStringList{explorer} + args +
        QStringList{figure ? QStringLiteral("--export") : QStringLiteral("--export-data"), QStringLiteral("projection"),
                    QStringLiteral("--out"), dir.filePath(figure ? QStringLiteral("p.png") : QStringLiteral("p.csv"))};
    std::vector<QByteArray> bytes;
    for (const QString &a : all)
        bytes.push_back(a.toLocal8Bit());
    std::vector<char *> argv;
    for (QByteArray &b : bytes)
        argv.push_back(b.data());
    argv.push_back(nullptr);
    const auto t0 = std::chrono::steady_clock::now();
    pid_t pid = 0;
    if (posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0) {
        std::fprintf(stderr, "pe-bench: cannot start %s\n", argv[0]);
        std::exit(1);
    }
    int status = 0;
    rusage usage{};
    if (wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::fprintf(stderr, "pe-bench: %s failed\n", qPrintable(all.join(QLatin1Char(' '))));
        std::exit(1);
    }
    if (peakKiB)
        *peakKiB = usage.ru_maxrss;
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// One of the comparison scripts beside this file (Debian's /usr/bin/python3 SCRIPT --explorer
// EXPLORER), its output passed through; `missing` says what its failure most likely means.
void benchScript(const char *what, const char *script, const QString &explorer, const char *missing)
{
    QProcess py;
    py.setProcessChannelMode(QProcess::ForwardedChannels);
    std::printf("  %s (tests/bench/%s):\n", what, script);
    std::fflush(stdout);
    py.start(QStringLiteral("/usr/bin/python3"),
             {QFileInfo(QStringLiteral(__FILE__)).dir().filePath(QString::fromLatin1(script)),
              QStringLiteral("--explorer"), explorer});
    if (!py.waitForFinished(3'600'000) || py.exitCode() != 0)
        std::printf("  (not measured: %s, or the script failed)\n", missing);
}

QStringList windowArgs(std::int64_t n, int d)
{
    return {QStringLiteral("--seq-len"), QString::number(n), QStringLiteral("--d-model"), QString::number(d)};
}

} // namespace

void projectionBenchmarks(bool quick, const QString &explorer)
{
    struct Case {
        std::int64_t n;
        int d;
        double perplexity;
        bool trust;
    };
    std::vector<Case> cases = {{128, 8, 4, true}, {5'000, 128, 30, true}};
    if (!quick) {
        cases.push_back({100'000, 128, 30, false});
        cases.push_back({1'000'000, 64, 30, false}); // issue 17: within 3 minutes, under 2 GiB
    }
    std::vector<double> whole5000;
    for (const Case &c : cases) {
        const pe::Encoding e(params(c.n, c.d));
        pe::TsneSettings s;
        s.perplexity = c.perplexity;
        std::optional<pe::Tsne> tsne;
        std::vector<double> preps, totals, whole;
        double firstKl = 0;
        int fftSteps = 0;
        // In-process (prepareTsne and runTsne on this thread) and whole process (the command, start to
        // exit), alternately: 5 runs each (3 at 100,000, 1 at 1,000,000), 3 and 1 with --quick.
        const int runs = c.n > 100'000 ? 1 : c.n > 10'000 ? (quick ? 1 : 3) : (quick ? 3 : 5);
        long peakKiB = 0;
        for (int rep = 0; rep < runs; ++rep) {
            const double prep = seconds([&] { tsne = pe::prepareTsne(e, {}, s, 2); });
            const double run = seconds([&] {
                fftSteps = 0;
                pe::runTsne(*tsne, [&](const pe::Tsne &t) {
                    if (t.iteration() == 1)
                        firstKl = t.kl();
                    fftSteps += t.iteration() > 0 && t.lastStepFft();
                    return true;
                });
            });
            preps.push_back(prep);
            totals.push_back(prep + run);
            long peak = 0;
            whole.push_back(wholeProcessSeconds(
                explorer,
                windowArgs(c.n, c.d) + QStringList{QStringLiteral("--method"), QStringLiteral("tsne"),
                                                   QStringLiteral("--perplexity"), QString::number(c.perplexity),
                                                   QStringLiteral("--seed"), QStringLiteral("0")},
                &peak));
            peakKiB = std::max(peakKiB, peak);
        }
        if (c.n == 5'000)
            whole5000 = whole;
        std::printf("  t-SNE %7lld x %3d, perplexity %g, %d iterations (%s), min / median / max of %d:\n"
                    "    in-process %s (neighbours+P+start %.3f s); whole process %s (peak resident %.0f MiB); KL "
                    "%.3f after 1 step, %.3f at the end; %d steps by FFT",
                    static_cast<long long>(c.n), c.d, c.perplexity, s.iterations,
                    tsne->exact() ? "exact" : "Barnes-Hut or FFT, the cheaper each step", runs, spread(totals).c_str(),
                    median(preps), spread(whole).c_str(), static_cast<double>(peakKiB) / 1024.0, firstKl, tsne->kl(),
                    fftSteps);
        if (c.trust)
            std::printf("; trustworthiness(10) %.4f",
                        pe::trustworthiness(pe::embeddingRows(e, {}), tsne->embedding(), 2, 10));
        std::printf("\n");
    }
    // Run pressed to the first frame (the start), and a cancel to the worker's return, at 100,000.
    for (int d : {128, 512}) {
        const pe::Encoding e(params(100'000, d));
        std::vector<double> first, cancelPrepare, cancelRun;
        for (int rep = 0; rep < 3; ++rep) {
            for (int phase = 0; phase < 2; ++phase) {
                std::atomic<bool> cancel{false};
                std::atomic<bool> iterating{false};
                const auto t0 = std::chrono::steady_clock::now();
                std::chrono::steady_clock::time_point started{};
                std::thread worker([&] {
                    std::optional<pe::Tsne> tsne =
                        pe::prepareTsne(e, {}, {}, 2, &cancel, [&](const std::vector<double> &) {
                            started = std::chrono::steady_clock::now();
                        });
                    if (tsne)
                        pe::runTsne(
                            *tsne,
                            [&](const pe::Tsne &t) {
                                iterating = t.iteration() >= 3;
                                return true;
                            },
                            &cancel);
                });
                if (phase == 0) {
                    while (started == std::chrono::steady_clock::time_point{})
                        std::this_thread::sleep_for(std::chrono::microseconds(200));
                } else {
                    while (!iterating)
                        std::this_thread::sleep_for(std::chrono::microseconds(200));
                }
                const auto c0 = std::chrono::steady_clock::now();
                cancel = true;
                worker.join();
                const double ms = std::chrono::duration<double>(std::chrono::steady_clock::now() - c0).count() * 1e3;
                (phase == 0 ? cancelPrepare : cancelRun).push_back(ms);
                if (phase == 0)
                    first.push_back(std::chrono::duration<double>(started - t0).count() * 1e3);
            }
        }
        std::printf("  t-SNE 100,000 x %d: Run to the first frame (the start) %.0f ms (median of 3); cancel to the "
                    "worker's return "
                    "%.1f ms while finding neighbours, %.1f ms while iterating (worst of 3)\n",
                    d, median(first), *std::max_element(cancelPrepare.begin(), cancelPrepare.end()),
                    *std::max_element(cancelRun.begin(), cancelRun.end()));
    }
    for (auto [n, d] : {std::pair<std::int64_t, int>{5'000, 128}, {100'000, 1024}}) {
        const pe::Encoding e(params(n, d));
        pe::Rows streamedRows = pe::embeddingRows(e, {});
        streamedRows.pure = nullptr; // the streamed path, as for noisy rows
        pe::Pca closed, streamed;
        std::vector<double> closedTimes, streamedTimes, whole;
        for (int rep = 0; rep < (quick ? 1 : 3); ++rep) {
            closedTimes.push_back(seconds([&] { closed = pe::principalComponents(pe::embeddingRows(e, {}), 2); }));
            streamedTimes.push_back(seconds([&] { streamed = pe::principalComponents(streamedRows, 2); }));
            whole.push_back(wholeProcessSeconds(
                explorer, windowArgs(n, d) + QStringList{QStringLiteral("--method"), QStringLiteral("pca")}));
        }
        std::printf("  PCA %6lld x %4d, top 2, min / median / max of %d: closed-form covariance %s (%d iterations), "
                    "rows without it %s (%d iterations); whole process (--method pca --export-data projection) %s; "
                    "explained %.12f + %.12f, without it %.12f + %.12f\n",
                    static_cast<long long>(n), d, quick ? 1 : 3, spread(closedTimes).c_str(), closed.iterations,
                    spread(streamedTimes).c_str(), streamed.iterations, spread(whole).c_str(), closed.explained(0),
                    closed.explained(1), streamed.explained(0), streamed.explained(1));
    }
    // Issue 34: PCA of noisy rows (no closed form) against numpy in the same run. At 40,000 x 768
    // numpy draws the same noise (--rng numpy), so the explained variances compare; at 100,000 the
    // same shape with its own draws (the app keeps at most 2^25 of numpy's).
    for (auto [n, legacy] : quick ? std::vector<std::pair<std::int64_t, bool>>{{40'000, true}}
                                  : std::vector<std::pair<std::int64_t, bool>>{{40'000, true}, {100'000, false}}) {
        const int d = 768;
        const pe::NoiseParams noise{0.5, 42, legacy ? pe::NoiseRng::Numpy : pe::NoiseRng::Counter};
        QStringList args = windowArgs(n, d) + QStringList{QStringLiteral("--noise"), QStringLiteral("0.5"),
                                                          QStringLiteral("--method"), QStringLiteral("pca")};
        if (legacy)
            args << QStringLiteral("--rng") << QStringLiteral("numpy");
        const double whole = wholeProcessSeconds(explorer, args);
        const pe::Encoding e(params(n, d));
        pe::Pca pca;
        const double inside = seconds([&] { pca = pe::principalComponents(pe::embeddingRows(e, noise), 2); });
        std::printf("  PCA of noisy rows (sigma 0.5%s) %lld x %d: whole process %.2f s (in process %.2f s, %s, %d "
                    "iterations); explained %.12f + %.12f",
                    legacy ? ", numpy's draws" : "", static_cast<long long>(n), d, whole, inside,
                    pca.formed ? "covariance formed" : "streamed", pca.iterations, pca.explained(0), pca.explained(1));
        if (const std::optional<NumpyPca> np = numpyPca(n, d, legacy)) {
            std::printf("; numpy cov + eigh %.2f s (%.1fx ours), explained %.12f + %.12f", np->seconds,
                        np->seconds / whole, np->explained[0], np->explained[1]);
            if (legacy)
                std::printf(", differences %.1e and %.1e", std::abs(pca.explained(0) - np->explained[0]),
                            std::abs(pca.explained(1) - np->explained[1]));
        } else {
            std::printf("; numpy not measured (python3-numpy missing)");
        }
        std::printf("\n");
        std::fflush(stdout);
    }
    // Issue 28: a figure export's peak within twice the data export's plus the image (its frames were
    // queued while it waited: 4.1 GB against 99 MB at 300,000 x 64).
    for (std::int64_t n : quick ? std::vector<std::int64_t>{20'000} : std::vector<std::int64_t>{100'000, 300'000}) {
        const QStringList args = windowArgs(n, 64) + QStringList{QStringLiteral("--method"), QStringLiteral("tsne")};
        long dataKiB = 0, figureKiB = 0;
        const double data = wholeProcessSeconds(explorer, args, &dataKiB);
        const double figure = wholeProcessSeconds(explorer, args, &figureKiB, true);
        std::printf("  t-SNE %lld x 64, whole process: --export-data projection %.1f s, peak resident %.0f MiB; "
                    "--export projection (1200 x 800 PNG) %.1f s, peak resident %.0f MiB\n",
                    static_cast<long long>(n), data, static_cast<double>(dataKiB) / 1024.0, figure,
                    static_cast<double>(figureKiB) / 1024.0);
    }
    // Issue 28: small inputs against scikit-learn on the same table (tests/bench/tsne_quality.py).
    if (!quick)
        benchScript("t-SNE trustworthiness(10) against scikit-learn", "tsne_quality.py", explorer,
                    "python3-sklearn not installed");
    // Issue 34: the approximate index above the exact search's reach, in process (build and search
    // apart) and as t-SNE's and UMAP's whole process, with the recall each measured.
    for (auto [n, d] : quick ? std::vector<std::pair<std::int64_t, int>>{{40'000, 128}}
                             : std::vector<std::pair<std::int64_t, int>>{{100'000, 128}, {1'000'000, 64}}) {
        const pe::Encoding e(params(n, d));
        const pe::NoiseParams noise{0.5, 42};
        for (int k : {14, 90}) {
            pe::Neighbors nb;
            const double inside = seconds([&] { nb = pe::approximateNeighbors(pe::embeddingRows(e, noise), k); });
            std::printf("  approximate neighbours (HNSW), sigma 0.5, %lld x %d, k %d: %.2f s in process, %s\n",
                        static_cast<long long>(n), d, k, inside, pe::recallNote(nb.recall).c_str());
            std::fflush(stdout);
        }
        for (const char *method : {"umap", "tsne"}) {
            long peak = 0;
            const double whole = wholeProcessSeconds(
                explorer,
                windowArgs(n, d) + QStringList{QStringLiteral("--noise"), QStringLiteral("0.5"),
                                               QStringLiteral("--method"), QString::fromLatin1(method)},
                &peak);
            std::printf("  %s of noisy rows (sigma 0.5) %lld x %d, whole process %.1f s, peak resident %.0f MiB\n",
                        method, static_cast<long long>(n), d, whole, static_cast<double>(peak) / 1024.0);
            std::fflush(stdout);
        }
    }
    // Issue 34: UMAP against umap-learn, whole process both (tests/bench/umap_quality.py).
    if (!quick)
        benchScript("UMAP against umap-learn", "umap_quality.py", explorer,
                    "umap-learn or python3-sklearn not installed");
    std::vector<double> sk;
    SklearnRun last{};
    for (int rep = 0; rep < (quick ? 0 : 3); ++rep)
        if (const std::optional<SklearnRun> r = sklearnTsne(5'000, 128)) {
            sk.push_back(r->seconds);
            last = *r;
        }
    if (!sk.empty() && !whole5000.empty())
        std::printf("  scikit-learn TSNE (Barnes-Hut, perplexity 30, PCA init, learning_rate auto) on 5,000 x 128, "
                    "fit_transform alone, min / median / max of %zu: %s; KL %.3f, trustworthiness(10) %.4f; "
                    "median against our whole process: %.1fx\n",
                    sk.size(), spread(sk).c_str(), last.kl, last.trust, median(sk) / median(whole5000));
    else
        std::printf("  scikit-learn TSNE not measured (python3-sklearn not installed, or --quick)\n");
}

} // namespace bench

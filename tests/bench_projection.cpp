#include "bench_support.h"

#include "encoding.h"
#include "neighbors.h"
#include "pca.h"
#include "test_support.h"
#include "tsne.h"

#include <QProcess>
#include <QString>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

using testsupport::params;

namespace bench {

namespace {

// scikit-learn 1.2's Barnes-Hut t-SNE on the same vectors (Debian's python3-sklearn), in seconds;
// negative when it is not installed.
double sklearnTsneSeconds(std::int64_t n, int d)
{
    const char *script = R"(
import sys, time, numpy as np
from sklearn.manifold import TSNE
n, d = int(sys.argv[1]), int(sys.argv[2])
pos = np.arange(n)[:, None]
div = np.exp(np.arange(0, d, 2) * (-np.log(10000.0) / d))
pe = np.zeros((n, d)); pe[:, 0::2] = np.sin(pos * div); pe[:, 1::2] = np.cos(pos * div)
t = time.perf_counter()
TSNE(n_components=2, perplexity=30, init='pca', learning_rate='auto', random_state=0).fit_transform(pe)
print(time.perf_counter() - t)
)";
    QProcess py;
    py.start(QStringLiteral("/usr/bin/python3"),
             {QStringLiteral("-c"), QString::fromUtf8(script), QString::number(n), QString::number(d)});
    if (!py.waitForFinished(600'000) || py.exitCode() != 0)
        return -1;
    bool ok = false;
    const double s = QString::fromUtf8(py.readAllStandardOutput()).trimmed().toDouble(&ok);
    return ok ? s : -1;
}
} // namespace

void projectionBenchmarks(bool quick)
{
    struct Case {
        std::int64_t n;
        int d;
        double perplexity;
        bool trust;
    };
    std::vector<Case> cases = {{128, 8, 4, true}, {5'000, 128, 30, true}};
    if (!quick)
        cases.push_back({100'000, 128, 30, false});
    double ours5000 = 0;
    for (const Case &c : cases) {
        const pe::Encoding e(params(c.n, c.d));
        pe::TsneSettings s;
        s.perplexity = c.perplexity;
        std::optional<pe::Tsne> tsne;
        std::vector<double> preps, runs;
        double firstKl = 0;
        // The median of 3 runs (1 at 100,000): this machine's timings wander by 20%.
        for (int rep = 0; rep < (c.n > 10'000 ? 1 : 3); ++rep) {
            preps.push_back(seconds([&] { tsne = pe::prepareTsne(e, {}, s); }));
            runs.push_back(seconds([&] {
                pe::runTsne(*tsne, [&](const pe::Tsne &t) {
                    if (t.iteration() == 1)
                        firstKl = t.kl();
                    return true;
                });
            }));
        }
        const double prep = median(preps), run = median(runs);
        if (c.n == 5'000)
            ours5000 = prep + run;
        std::printf(
            "  t-SNE %6lld x %3d, perplexity %g, %d iterations (%s): neighbours+P+init %.3f s, iterations %.3f s, "
            "total %.3f s; KL %.3f after 1 step, %.3f at the end",
            static_cast<long long>(c.n), c.d, c.perplexity, s.iterations, tsne->exact() ? "exact" : "Barnes-Hut", prep,
            run, prep + run, firstKl, tsne->kl());
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
                        pe::prepareTsne(e, {}, {}, &cancel, [&](const std::vector<double> &) {
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
        pe::Pca pca;
        const double s = seconds([&] { pca = pe::principalComponents(pe::embeddingRows(e, {}), 2); });
        std::printf("  PCA %6lld x %4d, top 2 by subspace iteration: %.3f s, %d iterations, explained %.4f + %.4f\n",
                    static_cast<long long>(n), d, s, pca.iterations, pca.explained(0), pca.explained(1));
    }
    const double sk = quick ? -1 : sklearnTsneSeconds(5'000, 128);
    if (sk > 0)
        std::printf("  scikit-learn TSNE (Barnes-Hut, perplexity 30, PCA init) on 5,000 x 128: %.2f s, %.1fx ours\n",
                    sk, sk / ours5000);
    else
        std::printf("  scikit-learn TSNE not measured (python3-sklearn not installed, or --quick)\n");
}

} // namespace bench

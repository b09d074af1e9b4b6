// pe-bench: the figures quoted in the README. Measured, never asserted.
//   build/tests/pe-bench            all benchmarks
//   build/tests/pe-bench --quick    smaller repeat counts
//   build/tests/pe-bench [--quick] --projection   t-SNE, PCA, UMAP and the approximate neighbours only
//                                                 (scikit-learn, numpy and umap-learn when installed;
//                                                 without --quick also 1,000,000 x 64 in the window)
//   build/tests/pe-bench --projection-window      t-SNE of 1,000,000 x 64 in the window alone
//   build/tests/pe-bench --recovery               recovery only
//   build/tests/pe-bench [--quick] --views a,b    the interaction table of those views alone
//   build/tests/pe-bench [--quick] --lecture 3840x2160 [--dpr 2] [--views a,b]   lecture mode on that screen
//     (--views lectures: the built-in lectures' plays and animations alone)
//   build/tests/pe-bench [--quick] --no-interaction   everything but the interaction table
//   PE_DYNAMIC_MALLOC=1 build/tests/pe-bench       with glibc's moving mmap threshold (core/allocator.h)
#include "analysis/recovery.h"
#include "analysis/similarity.h"
#include "bench_support.h"
#include "encodings/encoding.h"
#include "figures/plot_view.h"
#include "scheme_support.h"
#include "state/parameters.h"
#include "state/playback.h"
#include "state/view_registry.h"
#include "support/allocator.h"
#include "support/float_product.h"
#include "support/parallel.h"
#include "test_support.h"
#include "views/clock_grid_view.h"
#include "views/projection_view.h"
#include "window/control_panel.h"
#include "window/main_window.h"

using testsupport::params;

#include <qcustomplot.h>

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QProcess>
#include <QSlider>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <vector>

using bench::median;
using bench::percentile;
using bench::projectionBenchmarks;
using bench::seconds;

namespace {

// Fill the whole window 256 rows at a time into one reused buffer: how exports and views use it.
double streamedNsPerElement(std::int64_t n, int d, int repeats)
{
    const pe::Encoding e(params(n, d));
    std::vector<double> buf(256 * static_cast<std::size_t>(d));
    std::vector<double> times;
    for (int r = 0; r < repeats; ++r)
        times.push_back(seconds([&] {
            pe::Block b = e.windowBlock();
            for (std::int64_t r0 = 0; r0 < n; r0 += 256) {
                b.firstPosition = r0;
                b.rows = std::min<std::int64_t>(256, n - r0);
                e.fill(b, buf.data());
            }
        }));
    return median(times) * 1e9 / (static_cast<double>(n) * d);
}

// Fill a whole n x d matrix in memory, as numpy does.
double wholeNsPerElement(std::int64_t n, int d, int repeats, double *maxError)
{
    const pe::Encoding e(params(n, d));
    std::vector<double> m(static_cast<std::size_t>(n) * d);
    std::vector<double> times;
    for (int r = 0; r < repeats; ++r)
        times.push_back(seconds([&] { e.fill(e.windowBlock(), m.data()); }));
    long double worst = 0;
    for (std::int64_t t = 0; t < n; t += 97)
        for (int j = 0; j < d; ++j)
            worst = std::max(worst, std::abs(m[static_cast<std::size_t>(t * d + j)] -
                                             testsupport::referenceValue(t, e.columnFrequency(j), e.columnIsSine(j))));
    *maxError = static_cast<double>(worst);
    return median(times) * 1e9 / (static_cast<double>(n) * d);
}

// Seed 000's compute_pos_emb under Debian's python3-numpy, when it is installed.
double numpyNsPerElement(std::int64_t n, int d)
{
    // Debian's interpreter, which python3-numpy belongs to, before any other on the PATH.
    QString python = QStandardPaths::findExecutable(QStringLiteral("python3"), {QStringLiteral("/usr/bin")});
    if (python.isEmpty())
        python = QStandardPaths::findExecutable(QStringLiteral("python3"));
    if (python.isEmpty())
        return -1;
    const QString script = QStringLiteral(R"(
import sys, time
import numpy as np
def compute_pos_emb(seq_len, emb_size, denom_base, start_pos=0):
    denom_pow = 2 * np.arange(emb_size // 2) / emb_size
    denom = denom_base ** denom_pow
    sincos_base = (start_pos + np.arange(seq_len)[:, None]) / denom[None, :]
    sin = np.sin(sincos_base)
    cos = np.cos(sincos_base)
    return np.stack([sin, cos], axis=-1).reshape(seq_len, emb_size)
n, d = int(sys.argv[1]), int(sys.argv[2])
best = []
for _ in range(3):
    t0 = time.perf_counter(); compute_pos_emb(n, d, 1e4); best.append(time.perf_counter() - t0)
best.sort()
print(best[1] * 1e9 / (n * d))
)");
    QProcess p;
    p.start(python, {QStringLiteral("-c"), script, QString::number(n), QString::number(d)});
    if (!p.waitForFinished(300000) || p.exitCode() != 0)
        return -1;
    return p.readAllStandardOutput().trimmed().toDouble();
}

// t-SNE of 1,000,000 positions of d 64 in the window (issue 17: the window shows progress and stays
// responsive): the projection view opened on it, run to the end. Reports when the first frame (the
// start) is shown, how often frames follow, the event loop's lag (a 10 ms timer's worst late
// firing) and the whole run; saves the window mid-run and at the end in dir.
void millionProjectionWindow(const QString &dir)
{
    Parameters parameters;
    MainWindow window(&parameters);
    window.resize(1280, 800);
    window.show();
    QApplication::processEvents();
    window.showView(QStringLiteral("projection"));
    QApplication::processEvents();
    auto *view = qobject_cast<ProjectionView *>(window.currentView());
    QElapsedTimer clock;
    clock.start();
    parameters.set(params(1'000'000, 64));
    std::vector<double> lags, frameTimes;
    double firstFrame = -1, last = 0;
    int lastIteration = -1;
    bool savedMid = false;
    QTimer tick;
    tick.setInterval(10);
    QObject::connect(&tick, &QTimer::timeout, [&] {
        const double now = clock.nsecsElapsed() / 1e6;
        lags.push_back(std::max(0.0, now - last - 10.0));
        last = now;
        const bool ours = view->projection().coords.size() == 2'000'000; // not the 50 positions before
        if (firstFrame < 0 && ours)
            firstFrame = now;
        if (ours && view->projection().iteration != lastIteration) {
            lastIteration = view->projection().iteration;
            frameTimes.push_back(now);
        }
        if (!savedMid && lastIteration >= 500) {
            savedMid = true;
            window.grab().save(dir + QStringLiteral("/million-mid.png"));
        }
    });
    QEventLoop loop; // as the application's: waiting, not polling
    QObject::connect(&tick, &QTimer::timeout, &loop, [&] {
        if (clock.elapsed() > 900'000 || (!view->running() && clock.elapsed() > 10'000))
            loop.quit();
    });
    last = clock.nsecsElapsed() / 1e6;
    tick.start();
    loop.exec();
    tick.stop();
    const double total = clock.nsecsElapsed() / 1e9;
    window.grab().save(dir + QStringLiteral("/million-end.png"));
    std::vector<double> gaps;
    for (std::size_t f = 1; f < frameTimes.size(); ++f)
        gaps.push_back(frameTimes[f] - frameTimes[f - 1]);
    std::printf("  t-SNE 1,000,000 x 64 in the window (1280x800, offscreen): first frame (the PCA start) after %.1f s; "
                "%zu frames, %.0f ms apart (median); event loop lag p50 %.1f ms, p99 %.1f ms, worst %.0f ms; "
                "iteration %d after %.1f s. Window saved as %s/million-mid.png and million-end.png\n",
                firstFrame / 1e3, frameTimes.size(), gaps.empty() ? 0.0 : median(gaps), percentile(lags, 0.5),
                percentile(lags, 0.99), lags.empty() ? 0.0 : *std::max_element(lags.begin(), lags.end()),
                view->projection().iteration, total, qPrintable(dir));
}

// From a slider's setValue to the visible view recomputed, replotted and painted; p50 and p95.
std::pair<double, double> sliderSteps(MainWindow &window, QSlider *slider, int steps)
{
    QCustomPlot *plot = window.currentView()->plot();
    const int start = slider->value();
    // Walk away from the start and back, 1 to 9 stops, so every step changes the value.
    const int direction = start - 10 >= slider->minimum() ? -1 : 1;
    auto target = [&](int i) {
        const int phase = i % 18;
        return start + direction * (1 + (phase < 9 ? phase : 18 - phase));
    };
    int refused = 0;
    const std::vector<double> ms = bench::stepsToPaint(
        plot, plot, steps,
        [&](int i) {
            slider->setValue(target(i));
            // A value the scheme refuses (RoPE's odd d_model) changes nothing: not a step to time.
            if (!window.controlPanel()->errorText().isEmpty()) {
                ++refused;
                return false;
            }
            return true;
        },
        [&](int i) {
            std::printf("  (no paint within 5 s: %s to %d)\n", qPrintable(slider->objectName()), target(i));
        });
    slider->setValue(start);
    QApplication::processEvents();
    if (refused > 0)
        std::printf("  (%d of %d steps of %s refused by the validator, not timed)\n", refused, steps,
                    qPrintable(slider->objectName()));
    return {percentile(ms, 0.5), percentile(ms, 0.95)};
}

// Each view under a scheme it draws (RoPE's and ALiBi's views under theirs); `only`, when not
// empty, names the views to measure (pe-bench --views scaling,attention).
void interactionTable(Parameters &parameters, MainWindow &window, int steps, const QStringList &only = {})
{
    std::vector<QSlider *> sliders;
    for (pe::Field f : {pe::Field::SeqLen, pe::Field::DModel, pe::Field::Base, pe::Field::StartPos})
        sliders.push_back(window.controlPanel()->slider(f));
    sliders.push_back(window.controlPanel()->findChild<QSlider *>(QStringLiteral("positionSlider")));
    std::printf("  %-22s %-12s", "size", "view");
    for (QSlider *s : sliders)
        std::printf(" %18s", (s->objectName().chopped(6) + QStringLiteral(" p50/p95")).toStdString().c_str());
    std::printf("\n");
    for (auto [n, d] : {std::pair<std::int64_t, int>{100, 128}, {100'000, 1024}, {1'000'000, 4096}}) {
        for (const ViewInfo &info : viewRegistry()) {
            if (!only.isEmpty() && !only.contains(info.id))
                continue;
            pe::EncodingParams v = params(n, d);
            v.scheme = drawnScheme(info);
            parameters.set(v);
            window.showView(info.id);
            QApplication::processEvents();
            std::printf("  %9lld x %-10d %-12s", static_cast<long long>(n), d, info.id.toStdString().c_str());
            for (QSlider *s : sliders) {
                if (!window.currentView()->followsPosition() && s->objectName() == QStringLiteral("positionSlider")) {
                    std::printf("    %15s", "(not shown)"); // the view does not depend on the position
                    continue;
                }
                const auto [p50, p95] = sliderSteps(window, s, steps);
                std::printf("    %6.1f / %6.1f", p50, p95);
            }
            std::printf("  ms\n");
        }
    }
}

long peakResidentKiB()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n'))
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').first().toLong();
    return -1;
}

// From starting the program to its first complete paint saved (offscreen), median of 5.
double launchToFirstPaintMs(const char *program)
{
    QTemporaryDir dir;
    std::vector<double> ms;
    for (int i = 0; i < 5; ++i) {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        p.setProcessEnvironment(env);
        QElapsedTimer t;
        t.start();
        p.start(QString::fromLocal8Bit(program),
                {QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("s.png"))});
        if (!p.waitForFinished(30000) || p.exitCode() != 0)
            return -1;
        ms.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
    }
    return median(ms);
}

// Playback's path: the current position steps and the clock hands are moved and painted.
void clockFrames(Parameters &parameters, MainWindow &window, int steps)
{
    // The sinusoids: the interaction table leaves the last view's scheme (ALiBi, which the clocks
    // do not draw, so no frame ever came and each step waited out the 5 s limit).
    pe::EncodingParams v = params(16, 128);
    parameters.set(v);
    window.showView(QStringLiteral("clocks"));
    auto *clocks = static_cast<ClockGridView *>(window.view(QStringLiteral("clocks")));
    clocks->setShownPairs(64);
    clocks->setShownPositions(16);
    QApplication::processEvents();
    QCustomPlot *plot = clocks->plot();
    auto measure = [&](const char *what, const std::function<void(int)> &change) {
        const std::vector<double> ms = bench::stepsToPaint(plot, plot, steps, [&](int i) {
            change(i);
            return true;
        });
        std::printf("  %-44s p50 %6.2f ms  p95 %6.2f ms  (%d frames, %d x %d clocks)\n", what, percentile(ms, 0.5),
                    percentile(ms, 0.95), steps, clocks->columnCount(), clocks->rowCount());
    };
    // With the window sliding each step, every hand moves: playback at its heaviest.
    window.playback()->setLoop(false);
    parameters.setPosition(15);
    measure("position step, window sliding (all hands move)", [&](int) { window.playback()->advance(1); });
    measure("base slider step (all hands move)", [&](int i) {
        QSlider *s = window.controlPanel()->slider(pe::Field::Base);
        s->setValue(s->value() + (i % 2 == 0 ? 1 : -1));
    });
}

// Issue 4's figures: the similarity curve as the reference moves, and recovery.
void recoveryBenchmarks();

void analysisBenchmarks(Parameters &parameters, MainWindow &window, int steps)
{
    {
        const pe::Encoding e(params(100'000, 512));
        std::vector<double> ms;
        const auto t0 = std::chrono::steady_clock::now();
        const pe::OffsetKernel kernel(e, 99'999);
        const double build = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() * 1e3;
        for (int i = 0; i < steps; ++i)
            ms.push_back(seconds([&] { (void)pe::similarityToReference(e, {}, 500 + i, pe::Metric::Dot, &kernel); }) *
                         1e3);
        std::printf(
            "  similarity curve, all 100,000 positions, d 512: kernel S(k) built once in %.1f ms; each reference move "
            "p50 %.3f ms, p95 %.3f ms\n",
            build, percentile(ms, 0.5), percentile(ms, 0.95));
    }
    {
        parameters.set(params(100'000, 512));
        window.showView(QStringLiteral("similarity"));
        QApplication::processEvents();
        parameters.stepPosition(1); // the first move builds the kernel
        QApplication::processEvents();
        QCustomPlot *plot = window.currentView()->plot();
        const std::vector<double> ms = bench::stepsToPaint(plot, plot, steps, [&](int i) {
            parameters.stepPosition(i % 2 ? -1 : 1);
            return true;
        });
        std::printf("  similarity view at 100,000 x 512, reference step to repainted: p50 %.2f ms, p95 %.2f ms\n",
                    percentile(ms, 0.5), percentile(ms, 0.95));
    }
    recoveryBenchmarks();
}

void recoveryBenchmarks()
{
    struct Case {
        const char *what;
        pe::EncodingParams p;
        pe::NoiseParams noise;
    };
    pe::EncodingParams index = params(10'000, 512);
    index.exponent = pe::Exponent::Index;
    for (const Case &c : {Case{"recovery 10,000 x 512, pure", params(10'000, 512), {}},
                          Case{"recovery 10,000 x 512, sigma 0.5 (pruned by S(k))", params(10'000, 512), {0.5, 42}},
                          Case{"recovery 10,000 x 512, sigma 1.0 (dense products)", params(10'000, 512), {1.0, 42}},
                          Case{"recovery 10,000 x 512, sigma 2.0 (dense products)", params(10'000, 512), {2.0, 42}},
                          Case{"recovery 10,000 x 512, per-index exponent, sigma 0.5 (dense)", index, {0.5, 42}},
                          Case{"recovery seed 001: 300 x 20, sigma 0.5", params(300, 20), {0.5, 42}}}) {
        const pe::Encoding e(c.p);
        pe::Recovery r;
        const double s = seconds([&] { r = pe::recoverPositions(e, c.noise); });
        std::printf("  %-62s %8.3f s, accuracy %.4f (%d threads, %s products)\n", c.what, s, r.accuracy(),
                    pe::parallelThreads(), pe::simdName(pe::bestSimdLevel()));
    }
}

} // namespace

// A 3-D projection turned in the window (issue 34): PCA of n positions of d 64 in 3-D, then the
// azimuth set 20 times, each timed from the setting to the plot's repaint done (what a drag costs a
// step, since a drag draws the same way). Prints the median and the slowest; and the same redraw
// of the 2-D projection (the setting changed, nothing else), what a 3-D turn costs beyond it.
void turnBenchmark()
{
    for (const std::int64_t n : {std::int64_t{100'000}, std::int64_t{1'000'000}})
        for (const int components : {3, 2}) {
            Parameters parameters;
            MainWindow window(&parameters);
            window.resize(1280, 800);
            window.show();
            window.showView(QStringLiteral("projection"));
            auto *view = qobject_cast<ProjectionView *>(window.currentView());
            if (view->applySettings({{QStringLiteral("projectionMethod"), QStringLiteral("pca")},
                                     {QStringLiteral("components"), components}}))
                return;
            parameters.set(params(n, 64));
            view->finishWork();
            QApplication::processEvents();
            if (view->projection().size() != n)
                return;
            bool painted = false;
            QObject::connect(view->plot(), &QCustomPlot::afterReplot, [&] { painted = true; });
            std::vector<double> ms;
            for (int k = 0; k < 20; ++k) {
                QElapsedTimer clock;
                clock.start();
                painted = false;
                view->applySettings({{QStringLiteral("azimuth"), -60.0 + 7.5 * (k + 1)}});
                while (!painted)
                    QApplication::processEvents(QEventLoop::WaitForMoreEvents);
                ms.push_back(clock.nsecsElapsed() / 1e6);
            }
            std::sort(ms.begin(), ms.end());
            std::printf("  %s PCA of %7lld x 64 in the window: median %.1f ms, slowest %.1f ms (20 angles)\n",
                        components == 3 ? "turn a 3-D" : "redraw a 2-D", static_cast<long long>(n), ms[ms.size() / 2],
                        ms.back());
        }
}

int main(int argc, char **argv)
{
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
    if (!qEnvironmentVariableIsSet("PE_DYNAMIC_MALLOC")) // set: glibc's default, to compare
        pe::returnLargeBlocksToTheSystem();              // as pe-explorer's main() does
    const bool quick = argc > 1 && std::string(argv[1]) == "--quick";
    const int repeats = quick ? 3 : 5;
    if (argc > 1 && std::string(argv[argc - 1]) == "--recovery") {
        std::printf("Recovery (PE_SIMD=generic|avx2 caps the instruction set):\n");
        recoveryBenchmarks();
        return 0;
    }
    if (argc > 1 && std::string(argv[argc - 1]) == "--projection-window") {
        qputenv("QT_QPA_PLATFORM", "offscreen");
        QApplication app(argc, argv);
        std::printf("Projection window on %d threads:\n", pe::parallelThreads());
        millionProjectionWindow(QDir::tempPath());
        return 0;
    }
    if (argc > 1 && std::string(argv[argc - 1]) == "--turn") {
        qputenv("QT_QPA_PLATFORM", "offscreen");
        QApplication app(argc, argv);
        std::printf("Turning a 3-D projection on %d threads:\n", pe::parallelThreads());
        turnBenchmark();
        return 0;
    }
    if (argc > 1 && std::string(argv[argc - 1]) == "--projection") {
        std::printf("Projections (t-SNE, PCA, UMAP) on %d threads:\n", pe::parallelThreads());
        const std::filesystem::path self = std::filesystem::canonical("/proc/self/exe");
        projectionBenchmarks(argc > 2, QString::fromStdString((self.parent_path() / "../app/pe-explorer").string()));
        if (argc == 2) {
            qputenv("QT_QPA_PLATFORM", "offscreen");
            QApplication app(argc, argv);
            millionProjectionWindow(QDir::tempPath());
        }
        return 0;
    }
    // pe-bench [--quick] --lecture WxH [--dpr R]: lecture mode on an offscreen screen of that size.
    for (int i = 1; i + 1 < argc; ++i)
        if (std::string(argv[i]) == "--lecture") {
            int w = 0, h = 0;
            double dpr = 1;
            std::sscanf(argv[i + 1], "%dx%d", &w, &h);
            for (int j = 1; j + 1 < argc; ++j)
                if (std::string(argv[j]) == "--dpr")
                    dpr = std::atof(argv[j + 1]);
            bench::useOffscreenScreen(QSize(w, h), dpr);
            QApplication app(argc, argv);
            const QStringList args = QCoreApplication::arguments();
            const auto at = args.indexOf(QStringLiteral("--views"));
            bench::lectureBenchmarks(quick, at > 0 && at + 1 < args.size() ? args[at + 1].split(QLatin1Char(','))
                                                                           : QStringList());
            return 0;
        }
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    // pe-bench [--quick] --views a,b: the interaction table of those views alone, then exit.
    if (const int at = static_cast<int>(QCoreApplication::arguments().indexOf(QStringLiteral("--views")));
        at > 0 && at + 1 < QCoreApplication::arguments().size()) {
        Parameters parameters;
        MainWindow window(&parameters);
        window.show();
        QApplication::processEvents();
        interactionTable(parameters, window, quick ? 40 : 200,
                         QCoreApplication::arguments()[at + 1].split(QLatin1Char(',')));
        return 0;
    }
    const QString explorer = QCoreApplication::applicationDirPath() + QStringLiteral("/../app/pe-explorer");
    const double launch = launchToFirstPaintMs(explorer.toLocal8Bit().constData());
    std::printf("Launch to first complete paint (pe-explorer --screenshot, offscreen, median of 5): %.0f ms\n", launch);
    Parameters parameters;
    MainWindow window(&parameters);
    window.show();
    QApplication::processEvents();
    const int steps = quick ? 40 : 200;
    // pe-bench [--quick] --no-interaction: everything but the interaction table (the slow part).
    if (!QCoreApplication::arguments().contains(QStringLiteral("--no-interaction"))) {
        std::printf(
            "Interaction: slider setValue to the visible view repainted (offscreen 1280x800 window, %d steps each):\n",
            steps);
        interactionTable(parameters, window, steps);
    }
    std::printf("Clock grid, 64 pairs x 16 positions (offscreen):\n");
    clockFrames(parameters, window, steps);
    std::printf("Similarity and recovery:\n");
    analysisBenchmarks(parameters, window, steps);
    // Measured before the fill benchmarks below allocate their matrices.
    std::printf("Peak resident memory of the window through all of the above, up to 1,000,000 x 4,096: %.0f MiB\n",
                peakResidentKiB() / 1024.0);
    std::printf("Encoding fill (one core, median of %d):\n", repeats);
    for (auto [n, d] : {std::pair<std::int64_t, int>{100'000, 512}, {1'000'000, 1024}})
        std::printf("  %7lld x %4d streamed 256 rows at a time: %.3f ns/element\n", static_cast<long long>(n), d,
                    streamedNsPerElement(n, d, repeats));
    double error = 0;
    const double whole = wholeNsPerElement(100'000, 512, repeats, &error);
    std::printf("  100000 x  512 into one 400 MB matrix:    %.3f ns/element, max error vs long double %.2e\n", whole,
                error);
    std::printf("Against seed 000's numpy compute_pos_emb (Debian's python3-numpy), whole matrix, same sizes:\n");
    for (auto [n, d] : {std::pair<std::int64_t, int>{100, 128}, {100'000, 512}, {100'000, 1024}}) {
        double err = 0;
        const double ours = wholeNsPerElement(n, d, repeats, &err);
        const double numpy = numpyNsPerElement(n, d);
        if (numpy > 0)
            std::printf("  %7lld x %4d: ours %.3f ns/element, numpy %.2f ns/element: %.1fx\n",
                        static_cast<long long>(n), d, ours, numpy, numpy / ours);
        else
            std::printf("  %7lld x %4d: ours %.3f ns/element; numpy not installed, not measured\n",
                        static_cast<long long>(n), d, ours);
    }
    std::printf(
        "  (1,000,000 x 4,096 is 32 GB as one float64 matrix: numpy cannot hold it here; the app never does)\n");

    return 0;
}

// pe-bench --lecture WxH [--dpr R]: lecture mode on an offscreen screen of that size and device
// pixel ratio (Qt's offscreen platform, its screens from a configuration file):
// - step to painted: the position stepped (, and . in a lecture) and a lecture's step (its state
//   applied, its move finished) to the view replotted and painted, p50 and p95, every view at
//   100,000 x 1,024;
// - playback's frame interval on the clocks and the circles at 60 positions a second;
// - a step's animation (the base from 1e2 to 1e8 over 2 s, as the built-in lecture's) on the
//   heatmap and the clocks: the interval between painted frames, and frames a second;
// - every play and animation of the built-in lectures, at their own sizes (--views lectures for
//   these alone).
#include "bench_support.h"
#include "figures/plot_view.h"
#include "scheme_support.h"
#include "state/lecture.h"
#include "state/parameters.h"
#include "state/playback.h"
#include "state/view_registry.h"
#include "test_support.h"
#include "window/lecture_player.h"
#include "window/main_window.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFontInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QScreen>

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace {

using bench::PaintStamps;
using bench::percentile;

// Replots of the current view, painted: the time from `change` to the paint.
std::vector<double> timedChanges(MainWindow &window, int steps, const std::function<void(int)> &change)
{
    return bench::stepsToPaint(window.currentView()->plot(), window.currentView(), steps, [&](int i) {
        change(i);
        return true;
    });
}

// The intervals between painted frames while something runs for `seconds`.
std::vector<double> frameIntervals(MainWindow &window, double seconds)
{
    QCustomPlot *plot = window.currentView()->plot();
    QElapsedTimer clock;
    clock.start();
    PaintStamps paints(clock);
    plot->installEventFilter(&paints);
    while (clock.elapsed() < seconds * 1000)
        QApplication::processEvents(QEventLoop::AllEvents);
    plot->removeEventFilter(&paints);
    const std::vector<double> &stamps = paints.stamps;
    std::vector<double> gaps;
    for (std::size_t i = 1; i < stamps.size(); ++i)
        gaps.push_back(stamps[i] - stamps[i - 1]);
    return gaps;
}

// Frames a second over the intervals between painted frames (0 without any).
double framesPerSecond(const std::vector<double> &gaps)
{
    const double total = std::accumulate(gaps.begin(), gaps.end(), 0.0);
    return total > 0 ? 1000.0 * static_cast<double>(gaps.size()) / total : 0.0;
}

Lecture twoSteps(const QString &view, const pe::EncodingParams &p, const QJsonObject &action)
{
    QJsonObject params{{QStringLiteral("scheme"), QString::fromUtf8(pe::schemeName(p.scheme).data())},
                       {QStringLiteral("seq_len"), static_cast<double>(p.seqLen)},
                       {QStringLiteral("d_model"), p.dModel},
                       {QStringLiteral("base"), p.base},
                       {QStringLiteral("start_pos"), 0},
                       {QStringLiteral("layout"), QStringLiteral("interleaved")},
                       {QStringLiteral("exponent"), QStringLiteral("pair")}};
    auto step = [&](const QString &title, double base, int position) {
        QJsonObject ps = params;
        ps.insert(QStringLiteral("base"), base);
        QJsonObject o{{QStringLiteral("title"), title},
                      {QStringLiteral("state"), QJsonObject{{QStringLiteral("parameters"), ps},
                                                            {QStringLiteral("position"), position},
                                                            {QStringLiteral("view"), view}}}};
        if (!action.isEmpty() && title == QLatin1String("b"))
            o.insert(QStringLiteral("action"), action);
        return o;
    };
    QString error;
    auto lecture = lectureFromJson(
        {{QStringLiteral("format"), QStringLiteral("positional-encoding-explorer-lecture")},
         {QStringLiteral("version"), 1},
         {QStringLiteral("title"), QStringLiteral("bench")},
         {QStringLiteral("steps"), QJsonArray{step(QStringLiteral("a"), 1e4, 10), step(QStringLiteral("b"), 1e5, 20)}}},
        &error);
    if (!lecture)
        qFatal("%s", qPrintable(error));
    return *lecture;
}

} // namespace

namespace bench {

// The offscreen platform's screen, before the application is made.
void useOffscreenScreen(QSize size, double dpr)
{
    const QString path = QDir::temp().filePath(QStringLiteral("pe-bench-screen.json"));
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.write(QJsonDocument(QJsonObject{{QStringLiteral("screens"),
                                       QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("bench")},
                                                              {QStringLiteral("x"), 0},
                                                              {QStringLiteral("y"), 0},
                                                              {QStringLiteral("width"), size.width()},
                                                              {QStringLiteral("height"), size.height()},
                                                              {QStringLiteral("logicalDpi"), 96},
                                                              {QStringLiteral("dpr"), dpr}}}}})
                .toJson());
    f.close();
    qputenv("QT_QPA_PLATFORM", (QStringLiteral("offscreen:configfile=") + path).toLocal8Bit());
}

void lectureBenchmarks(bool quick, const QStringList &only)
{
    auto measured = [&](const QString &id) { return only.isEmpty() || only.contains(id); };
    const QScreen *screen = QGuiApplication::primaryScreen();
    std::printf("Lecture mode on a %d x %d screen (logical pixels) at device pixel ratio %.1f:\n",
                screen->geometry().width(), screen->geometry().height(), screen->devicePixelRatio());
    Parameters parameters;
    MainWindow window(&parameters);
    window.show();
    window.setLectureMode(true);
    QApplication::processEvents();
    std::printf("  window %d x %d; tick labels %d px\n", window.width(), window.height(),
                QFontInfo(window.currentView()->plot()->xAxis->tickLabelFont()).pixelSize());
    const int steps = quick ? 30 : 120;
    std::printf("  %-12s %22s %22s\n", "view", "position step p50/p95", "lecture step p50/p95");
    for (const ViewInfo &info : viewRegistry()) {
        if (!measured(info.id))
            continue;
        pe::EncodingParams v = testsupport::params(100'000, 1024);
        v.scheme = drawnScheme(info);
        parameters.set(v);
        window.showView(info.id);
        QApplication::processEvents();
        if (!window.currentView()->cannotDraw().isEmpty()) {
            std::printf("  %-12s (cannot draw at this size: %s)\n", qPrintable(info.id),
                        qPrintable(window.currentView()->cannotDraw().left(60)));
            continue;
        }
        const std::vector<double> position =
            window.currentView()->followsPosition()
                ? timedChanges(window, steps, [&](int i) { parameters.stepPosition(i % 2 ? -1 : 1); })
                : std::vector<double>();
        // Two steps of this view whose base and position differ: applied, moved, painted.
        const Lecture lecture = twoSteps(info.id, v, {});
        QString error;
        LecturePlayer *player = window.lecturePlayer();
        if (!window.openLecture(lecture, 0, &error)) {
            std::printf("  %-12s (lecture refused: %s)\n", qPrintable(info.id), qPrintable(error));
            continue;
        }
        const std::vector<double> step = timedChanges(window, quick ? 10 : 40, [&](int i) {
            player->goTo(i % 2 ? 0 : 1);
            player->finishMotion();
        });
        player->close();
        window.setLectureMode(true);
        if (position.empty())
            std::printf("  %-12s %22s", qPrintable(info.id), "(not shown)");
        else
            std::printf("  %-12s %10.1f / %6.1f ms", qPrintable(info.id), percentile(position, 0.5),
                        percentile(position, 0.95));
        std::printf("    %10.1f / %6.1f ms\n", percentile(step, 0.5), percentile(step, 0.95));
    }
    const double runFor = quick ? 1.5 : 4.0;
    // At 60 positions a second a whole position a frame; at 2, positions between whole ones (the
    // smooth motion: every frame a new fraction).
    for (const double speed : {60.0, 2.0})
        for (const QString &id : {QStringLiteral("clocks"), QStringLiteral("circles")}) {
            if (!measured(id))
                continue;
            pe::EncodingParams v = testsupport::params(100'000, 1024);
            parameters.set(v);
            parameters.setPosition(0);
            window.showView(id);
            QApplication::processEvents();
            window.playback()->setSpeed(speed);
            window.playback()->setLoop(true);
            window.playback()->play();
            const std::vector<double> gaps = frameIntervals(window, runFor);
            window.playback()->pause();
            std::printf("  playback, %-8s at %2.0f positions a second: frame interval p50 %.1f ms, p95 %.1f ms (%zu "
                        "frames in %.1f s)\n",
                        qPrintable(id), speed, percentile(gaps, 0.5), percentile(gaps, 0.95), gaps.size() + 1, runFor);
        }
    for (const QString &id : {QStringLiteral("heatmap"), QStringLiteral("clocks")}) {
        if (!measured(id))
            continue;
        pe::EncodingParams v = testsupport::params(id == QLatin1String("heatmap") ? 100'000 : 200, 1024);
        const Lecture lecture = twoSteps(id, v,
                                         {{QStringLiteral("kind"), QStringLiteral("animate")},
                                          {QStringLiteral("parameter"), QStringLiteral("base")},
                                          {QStringLiteral("from"), 100},
                                          {QStringLiteral("to"), 1e8},
                                          {QStringLiteral("seconds"), 2}});
        QString error;
        window.openLecture(lecture, 1, &error);
        const std::vector<double> gaps = frameIntervals(window, 2.0);
        window.lecturePlayer()->close();
        std::printf("  a step's animation (base 1e2 to 1e8 in 2 s), %-8s %lld x 1024: frame interval p50 %.1f ms, "
                    "p95 %.1f ms, %.0f frames a second\n",
                    qPrintable(id), static_cast<long long>(v.seqLen), percentile(gaps, 0.5), percentile(gaps, 0.95),
                    framesPerSecond(gaps));
    }
    // The built-in lectures' own actions at their own sizes: each step with a play or an animation
    // opened (Lecture > Open at that step, its state applied), its action timed for up to 3 s.
    if (!measured(QStringLiteral("lectures")))
        return;
    std::printf("  the built-in lectures' actions (the views painted; frame interval p50 / p95, frames a second):\n");
    for (const Lecture &lecture : builtInLectures())
        for (std::size_t i = 0; i < lecture.steps.size(); ++i) {
            const LectureStep &step = lecture.steps[i];
            if (step.action.kind == LectureAction::Kind::None)
                continue;
            QString error;
            if (!window.openLecture(lecture, static_cast<int>(i), &error)) {
                std::printf("    %s step %zu refused: %s\n", qPrintable(lecture.name), i + 1, qPrintable(error));
                continue;
            }
            const std::vector<double> gaps = frameIntervals(window, std::min(3.0, actionSeconds(step.action)));
            window.lecturePlayer()->close();
            const QString what = step.action.kind == LectureAction::Kind::Play ? QStringLiteral("play %1 to %2 at %3/s")
                                                                                     .arg(step.action.from)
                                                                                     .arg(step.action.to)
                                                                                     .arg(step.action.speed)
                                                                               : QStringLiteral("%1 %2 to %3 in %4 s")
                                                                                     .arg(step.action.parameter)
                                                                                     .arg(step.action.from)
                                                                                     .arg(step.action.to)
                                                                                     .arg(step.action.seconds);
            std::printf("    %-18s step %2zu %-9s%s %-34s %6.1f / %5.1f ms, %3.0f frames a second\n",
                        qPrintable(lecture.name), i + 1, qPrintable(step.state.view),
                        step.beside.isEmpty() ? "" : qPrintable(QStringLiteral("+") + step.beside), qPrintable(what),
                        percentile(gaps, 0.5), percentile(gaps, 0.95), framesPerSecond(gaps));
        }
}

} // namespace bench

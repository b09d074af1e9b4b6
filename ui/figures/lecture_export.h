#pragma once

#include "figures/figure_export.h"
#include "figures/theme.h"

#include "figures/panel_figure.h"

#include <QImage>
#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

struct Lecture;
struct LectureStep;
struct Session;
class Parameters;
class PlotView;
class Workspace;
class WorkspaceViews;

// One step's figure drawn offscreen from a state, in a workspace of its own (the window's is left
// as it is): the export's pages, the overview's and the presenter's thumbnails.
class StepFigure
{
  public:
    StepFigure();
    ~StepFigure();
    StepFigure(const StepFigure &) = delete;
    StepFigure &operator=(const StepFigure &) = delete;

    // Applies `state` and makes the step's views (its own, and the one beside it), fitted to the
    // options. One sentence when the state is refused or a view cannot draw (no views then), or
    // when the figure does not fit the size (drawn as asked all the same).
    QString prepare(const LectureStep &step, const Session &state, const FigureOptions &options);
    std::vector<PlotView *> views() const;
    const FigureOptions &fitted() const { return fitted_; }
    // The prepared figure's page: one view, or two side by side.
    FigurePage page() const;
    // The step's action as an H.264 video at the options' size and `fps`, from its first frame to
    // its last, written atomically to `path`; empty when written, else one sentence.
    QString video(const LectureStep &step, const FigureOptions &options, int fps, const QString &path);
    // The step as it begins in `size` pixels: laid out at twice the size with type at 2.5% of its
    // height, then scaled down; null when it cannot draw.
    QImage thumbnail(const LectureStep &step, QSize size);

  private:
    std::unique_ptr<Parameters> parameters_;
    std::unique_ptr<Workspace> workspace_;
    std::unique_ptr<WorkspaceViews> figures_;
    std::vector<std::unique_ptr<PlotView>> views_; // made after the workspace's views, gone before
    FigureOptions fitted_;
    std::vector<PanelPlacement> placed_;
};

// A lecture's steps on paper or as slides (--export-lecture):
// - FILE.pdf, a handout: a page a step, its number and title above the figure (the step's view, or
//   its two views side by side) and its caption below, every page one size;
// - a folder: step-01.png, step-02.png, ... (or .svg, .pdf) at the options' size, for slides, the
//   step's caption under its figure; files of an earlier export named so and not written now go.
// Every step is drawn from its own state as its action leaves it (stateAfterAction), in a workspace
// of its own; `theme` (--theme) draws them
// all in one theme, else a folder takes each step's theme and a handout is printed light. Every
// step is checked before anything is written: its state, its views and its figure's fit.
// Each step's figure when --size is not given: 9 x 5 in on a handout's landscape page, 1920 x 1080
// pixels for slides with tick labels at 2% of their height (as lecture mode sets them on a screen).
inline constexpr double kHandoutFigureWidthInches = 9;
inline constexpr double kHandoutFigureHeightInches = 5;
inline constexpr int kSlideWidth = 1920;
inline constexpr int kSlideHeight = 1080;
inline constexpr double kSlideTickFraction = 0.02;

struct LectureExport {
    QString out; // FILE.pdf or a folder
    FigureFormat folderFormat = FigureFormat::Png;
    FigureOptions figure; // each step's figure
    std::optional<Theme> theme;
    bool withVideo = false; // --with-video: each step's action as step-NN.mp4 (beside a handout: FILE-step-NN.mp4)
    int fps = 30;
    bool withNotes = false; // --with-notes: a handout prints each step's notes under its caption
};
// Empty when written; otherwise one sentence (naming the step) and nothing was written.
// `progress(k)` before step k may cancel (then the reason is "cancelled").
QString exportLecture(const Lecture &lecture, const LectureExport &options,
                      const std::function<bool(int)> &progress = {});

// A handout's caption: the step's rich text with its math (figures/math_text.h) as HTML.
QString captionHtml(const QString &caption);

#pragma once

#include "figures/figure_export.h"
#include "figures/theme.h"

#include <QString>

#include <functional>
#include <optional>

struct Lecture;

// A lecture's steps on paper or as slides (--export-lecture):
// - FILE.pdf, a handout: a page a step, its number and title above the figure (the step's view, or
//   its two views side by side) and its caption below, every page one size;
// - a folder: step-01.png, step-02.png, ... (or .svg, .pdf) at the options' size, for slides.
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
};
// Empty when written; otherwise one sentence (naming the step) and nothing was written.
// `progress(k)` before step k may cancel (then the reason is "cancelled").
QString exportLecture(const Lecture &lecture, const LectureExport &options,
                      const std::function<bool(int)> &progress = {});

// A handout's caption: the step's rich text with its math (figures/math_text.h) as HTML.
QString captionHtml(const QString &caption);

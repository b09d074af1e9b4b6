#pragma once

#include <QPalette>
#include <QString>

#include <optional>

// The window's colour themes: the desktop's own, light, dark, and a high-contrast projector theme
// (white paper, black ink, and plots with thick dark lines: what survives a washed-out beamer).
// Saved by number in QSettings "theme", in this order.
enum class Theme { System, Light, Dark, Projector };
inline constexpr Theme kThemes[] = {Theme::System, Theme::Light, Theme::Dark, Theme::Projector};

// A theme by its name (state/lecture.h's themeNames: "system", "light", "dark", "projector"), or
// nothing for another name.
std::optional<Theme> themeNamed(const QString &name);

// The View > Theme menu's text, with its mnemonic.
QString themeMenuText(Theme theme);

// The theme's palette, built on the desktop's own one (System returns it unchanged).
QPalette themePalette(Theme theme, const QPalette &system);

// The whole application in the theme: its palette, and the "projector" property the plots read
// (PlotView::projector). The desktop's palette is remembered on the first call.
void applyTheme(Theme theme);
bool projectorThemeOn();

// The theme the user chose last (System when none was saved or the number is unknown).
Theme savedTheme();
void saveTheme(Theme theme);

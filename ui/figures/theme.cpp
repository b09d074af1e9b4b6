#include "figures/theme.h"

#include "state/lecture.h"

#include <QApplication>
#include <QCoreApplication>
#include <QSettings>
#include <QStyle>

QString themeMenuText(Theme theme)
{
    switch (theme) {
    case Theme::System:
        return QCoreApplication::translate("Theme", "&System");
    case Theme::Light:
        return QCoreApplication::translate("Theme", "&Light");
    case Theme::Dark:
        return QCoreApplication::translate("Theme", "&Dark");
    case Theme::Projector:
        return QCoreApplication::translate("Theme", "&Projector (high contrast)");
    }
    return {};
}

QPalette themePalette(Theme theme, const QPalette &system)
{
    switch (theme) {
    case Theme::System:
        return system;
    case Theme::Light:
        return QApplication::style()->standardPalette();
    case Theme::Projector: {
        QPalette pal = QApplication::style()->standardPalette();
        for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
            pal.setColor(role, Qt::black);
        pal.setColor(QPalette::Base, Qt::white);
        pal.setColor(QPalette::Window, Qt::white);
        pal.setColor(QPalette::Mid, QColor(60, 60, 60));
        // A disabled field must look disabled on a washed-out projector too: grey text on grey.
        for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
            pal.setColor(QPalette::Disabled, role, QColor(120, 120, 120));
        pal.setColor(QPalette::Disabled, QPalette::Base, QColor(225, 225, 225));
        pal.setColor(QPalette::Disabled, QPalette::Button, QColor(225, 225, 225));
        return pal;
    }
    case Theme::Dark: {
        const QColor window(45, 45, 48), base(30, 30, 32), text(230, 230, 230), mid(100, 100, 106);
        QPalette pal(text, window, window.lighter(130), window.darker(130), mid, text, Qt::white, base, window);
        pal.setColor(QPalette::AlternateBase, QColor(52, 52, 56));
        pal.setColor(QPalette::Highlight, QColor(42, 130, 218));
        pal.setColor(QPalette::HighlightedText, Qt::white);
        pal.setColor(QPalette::Link, QColor(100, 170, 255));
        pal.setColor(QPalette::ToolTipBase, window);
        pal.setColor(QPalette::ToolTipText, text);
        pal.setColor(QPalette::PlaceholderText, QColor(150, 150, 150));
        for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
            pal.setColor(QPalette::Disabled, role, QColor(130, 130, 130));
        return pal;
    }
    }
    return system;
}

void applyTheme(Theme theme)
{
    // The desktop's own palette, as it was before any theme changed it.
    static const QPalette system = QApplication::palette();
    qApp->setProperty("projector", theme == Theme::Projector);
    QApplication::setPalette(themePalette(theme, system));
}

bool projectorThemeOn()
{
    return qApp && qApp->property("projector").toBool();
}

Theme savedTheme()
{
    const int n = QSettings().value(QStringLiteral("theme"), 0).toInt();
    for (Theme t : kThemes)
        if (static_cast<int>(t) == n)
            return t;
    return Theme::System;
}

void saveTheme(Theme theme)
{
    QSettings().setValue(QStringLiteral("theme"), static_cast<int>(theme));
}

std::optional<Theme> themeNamed(const QString &name)
{
    const auto i = themeNames().indexOf(name);
    return i < 0 ? std::nullopt : std::optional<Theme>(kThemes[i]);
}

#pragma once

#include "command_line_support.h"
#include "state/parameters.h"
#include "state/view_registry.h"

#include <QStringList>

#include <algorithm>

// The scheme a test draws a view with: the sinusoids for a view that draws them, else the first
// scheme the view declares (RoPE's views, ALiBi's).
inline pe::SchemeId drawnScheme(const ViewInfo &info)
{
    const auto &s = info.schemes;
    return s.empty() || std::find(s.begin(), s.end(), pe::SchemeId::Sinusoidal) != s.end() ? pe::SchemeId::Sinusoidal
                                                                                           : s.front();
}

// The command-line arguments for that scheme: none for the sinusoids.
inline QStringList schemeArgs(const ViewInfo &info)
{
    const pe::SchemeId s = drawnScheme(info);
    if (s == pe::SchemeId::Sinusoidal)
        return {};
    return {QStringLiteral("--scheme"), QString::fromUtf8(pe::schemeName(s).data())};
}

// The arguments a test that runs the program draws a view with: its scheme, and for the probe a
// short training (shortTrainingArgs, command_line_support.h).
inline QStringList drawArgs(const ViewInfo &info)
{
    return schemeArgs(info) + shortTrainingArgs(info.id);
}

// Sets the parameters' scheme to the one the view draws (d and the rest kept); false if refused.
inline bool showScheme(Parameters &p, const ViewInfo &info)
{
    pe::EncodingParams v = p.values();
    if (v.table)
        return info.schemeProblem(v).isEmpty();
    v.scheme = drawnScheme(info);
    return !p.set(v);
}

#pragma once

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

// The probe trained for 20 epochs, not its 200: for a test that runs the program to draw a figure
// whose subject is not the training (its size, its type, its values at extreme scales). The probe's
// layout does not depend on how long it trained, and its 200 epochs were most of those tests' time
// (6 s an export, about 30 s under the sanitizers). tst_probe and the probe's view tests train it
// in full.
inline QStringList shortProbeArgs()
{
    return {QStringLiteral("--epochs"), QStringLiteral("20")};
}

// The arguments such a test draws a view with: its scheme, and for the probe a short training.
inline QStringList drawArgs(const ViewInfo &info)
{
    return schemeArgs(info) + (info.id == QLatin1String("probe") ? shortProbeArgs() : QStringList{});
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

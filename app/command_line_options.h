#pragma once

#include "encodings/encoding_params.h"

#include <QCommandLineOption>
#include <QList>
#include <QString>
#include <QStringList>

// The command line's options: its own and those the views declare (the registry), with their
// --help sentences, which read the core's ranges.

// --export-frames writes at most this many frames.
inline constexpr int kMaxFrames = 10000;

// The flag that sets a parameter ("--seq-len").
QString flagFor(pe::Field f);
// What a parameter accepts, as the core says it (pe::allowedText).
QString allowed(pe::Field field);
// The registry's data kinds, joined by `separator`.
QString dataKindsText(const QString &separator);
QList<QCommandLineOption> options();

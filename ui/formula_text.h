#pragma once

#include "encoding_params.h"

#include <QString>

// The encoding's formula as rich text for a QLabel: ω with sub- and superscripts, one equation a
// line, the base written out. The plain-text form (status bar, exports) is pe::formulaText.
QString formulaHtml(const pe::EncodingParams &params);

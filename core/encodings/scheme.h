#pragma once

#include "encodings/encoding_params.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pe {

// A scheme as data: where its formula comes from, which parameters it takes, and what views may
// assume of it. The window's controls, the command line and the views ask this (and Encoding, for
// values, pairs and frequencies) instead of testing for the sinusoids or a table. A new scheme is
// an entry in kSchemes (encoding_params.h), here, and its values in Encoding.
struct SchemeInfo {
    SchemeId id;
    std::string_view title;     // the window's chooser
    std::string_view reference; // the paper or code its formula follows
    std::vector<Field> takes;   // the parameters it takes; the others do not apply
    bool byName;                // chosen by name (--scheme); false: by opening a file
};

const SchemeInfo &schemeInfo(SchemeId id);
bool takes(const EncodingParams &p, Field f);
// Why a parameter does not apply to p's scheme, one sentence for a tooltip or an error; empty
// when it applies.
std::string notApplicable(const EncodingParams &p, Field f);

// The scheme adds a vector to the tokens: false for ALiBi and T5, whose positions are a bias on the
// attention scores (their values are all 0).
inline bool addsVector(SchemeId id)
{
    return id != SchemeId::Alibi && id != SchemeId::T5;
}

// Gemma 2 and 3 alternate two kinds of RoPE layer: global ones (p's base and scaling) and
// sliding-window ones. A RoPE model has local layers when --local-base or --sliding-window is given;
// localLayers is their encoding (the local base, or the global one, without a scaling; the same pairs
// rotating), and localLayersText one phrase for titles: "local layers: base 1e4, no scaling, window 1,024".
bool hasLocalLayers(const EncodingParams &p);
EncodingParams localLayers(const EncodingParams &p);
std::string localLayersText(const EncodingParams &p);

// Llama 4 interleaves NoPE layers with RoPE ones (--nope-interval N: every N-th layer); a NoPE
// layer's query is scaled by the temperature τ(t) = ln(floor((t + 1)/floor_scale) + 1)·attn_scale + 1.
bool hasNopeLayers(const EncodingParams &p);
double llama4Temperature(std::int64_t t, const EncodingParams &p);

// Each column has its own frequency (the sinusoids' per-index exponent); false for every scheme
// that does not take the exponent, whatever the field holds (a view switched to RoPE keeps it).
bool perIndexExponent(const EncodingParams &p);

// PE(t)·PE(s) depends on t - s alone for the pure encoding, so the S(k) kernel and the Toeplitz
// paths apply: the sinusoids with the pair exponent and even d (REFERENCE.md section 2).
bool dotDependsOnOffsetOnly(const EncodingParams &p);
// The largest |value| the scheme can hold: the heatmap's symmetric colour range.
double valueBound(const EncodingParams &p);
// One past the last position the scheme has values for.
std::int64_t positionEnd(const EncodingParams &p);

// What RoPE's scaling does, one line with its definition (the formula, the status bar)...
std::string scalingText(const EncodingParams &p);
// ...and in a few words for a figure's title: "YaRN ×4 from L = 4,096", "no scaling, L = 4,096".
std::string scalingSummary(const EncodingParams &p);

// The formula of p's scheme in plain text, e.g. "PE(t,2i) = sin(t·w_i), ..." (status bar, titles)...
std::string formulaText(const EncodingParams &p);
// ...and as rich text (HTML) for a label: ω with sub- and superscripts, one equation a line, the
// base written out.
std::string formulaHtml(const EncodingParams &p);

} // namespace pe

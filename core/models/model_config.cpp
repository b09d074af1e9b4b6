#include "models/model_config.h"

#include "encodings/scheme.h"
#include "encodings/scheme_parameters.h"
#include "formats/json_text.h"
#include "formats/mapped_file.h"
#include "formats/npy_header.h"
#include "formats/quoted_name.h"
#include "support/text.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <stdexcept>

#include <sys/stat.h>

namespace pe {

namespace {

using detail::refuse;

// A name from the file for one line of text: control characters escaped, cut past 200 bytes.
std::string oneLineName(const std::string &name)
{
    const std::string q = quotedName(name);
    return q.substr(1, q.size() - 2);
}

// 500,000 for a whole number, 1e-05 or 0.25 for another.
std::string shown(double v)
{
    if (v == std::floor(v) && std::abs(v) < 1e15)
        return withThousands(static_cast<std::int64_t>(v));
    return compactNumber(v);
}

// Model types whose positions are a learned table (their checkpoint opens with --table).
constexpr std::string_view kLearned[] = {"gpt2",        "gpt_neo",    "gpt_bigcode", "opt",    "bert",   "roberta",
                                         "xlm-roberta", "distilbert", "electra",     "albert", "bart",   "mbart",
                                         "whisper",     "vit",        "deit",        "clip",   "siglip", "blip"};
// Model types with RoPE whose config may name none of its keys (every default taken).
constexpr std::string_view kRope[] = {"llama",       "llama4_text", "mistral",  "mixtral",  "qwen2",  "qwen2_moe",
                                      "qwen3",       "qwen3_moe",   "gemma",    "gemma2",   "gemma3", "gemma3_text",
                                      "phi",         "phi3",        "phimoe",   "gpt_neox", "gptj",   "deepseek_v2",
                                      "deepseek_v3", "falcon",      "stablelm", "olmo",     "olmo2",  "cohere",
                                      "internlm2",   "starcoder2",  "granite",  "exaone",   "glm",    "chatglm",
                                      "glm4",        "codegen",     "gpt_oss",  "llama4"};
// RoPE applied to interleaved pairs (GPT-J's rotate_every_two; DeepSeek's complex view), not halves.
// Llama 4 turns pairs as complex numbers (view_as_complex), GLM-4 x[..., 0::2] and x[..., 1::2].
constexpr std::string_view kInterleaved[] = {"gptj", "codegen", "deepseek_v2", "deepseek_v3", "chatglm",
                                             "glm",  "glm4",    "llama4",      "llama4_text"};
constexpr std::string_view kT5[] = {"t5", "mt5", "umt5", "longt5", "switch_transformers"};

template <std::size_t N> bool among(const std::string_view (&list)[N], const std::string &s)
{
    return std::find(std::begin(list), std::end(list), s) != std::end(list);
}

// What a file gave, held to the one validator: a value it refuses is named with the field.
void refuseUnlessValid(const EncodingParams &p, const std::string &quoted, const std::string &what)
{
    if (const auto why = validate(p))
        refuse(quoted, what + " maps to " + std::string(fieldName(why->field)) + " that is refused: " + why->message);
}

// The defaults of transformers' config classes for the keys this reader uses (each class's
// __init__ signature, configuration_<model>.py): what a key left out of a config.json means.
struct ClassDefaults {
    std::string_view modelType;
    std::string_view className;
    std::string_view json;
};
constexpr ClassDefaults kClassDefaults[] = {
    {"llama", "LlamaConfig",
     R"({"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 2048, "rope_theta": 10000})"},
    {"mistral", "MistralConfig",
     R"({"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 131072, "rope_theta": 10000})"},
    {"mixtral", "MixtralConfig",
     R"({"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 131072, "rope_theta": 1000000})"},
    {"qwen2", "Qwen2Config",
     R"({"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 32768, "rope_theta": 10000})"},
    {"phi3", "Phi3Config",
     R"({"hidden_size": 3072, "num_attention_heads": 32, "max_position_embeddings": 4096,
         "original_max_position_embeddings": 4096, "rope_theta": 10000})"},
    {"gemma", "GemmaConfig",
     R"({"head_dim": 256, "num_attention_heads": 16, "max_position_embeddings": 8192, "rope_theta": 10000})"},
    {"gemma2", "Gemma2Config",
     R"({"head_dim": 256, "num_attention_heads": 8, "max_position_embeddings": 8192, "rope_theta": 10000,
         "sliding_window": 4096})"},
    {"gemma3_text", "Gemma3TextConfig",
     R"({"head_dim": 256, "num_attention_heads": 8, "max_position_embeddings": 131072, "rope_theta": 1000000,
         "rope_local_base_freq": 10000, "sliding_window": 4096})"},
    {"gpt_neox", "GPTNeoXConfig",
     R"({"hidden_size": 6144, "num_attention_heads": 64, "max_position_embeddings": 2048, "rotary_pct": 0.25,
         "rotary_emb_base": 10000})"},
    {"deepseek_v3", "DeepseekV3Config",
     R"({"qk_rope_head_dim": 64, "max_position_embeddings": 4096, "rope_theta": 10000})"},
    {"llama4_text", "Llama4TextConfig",
     R"({"head_dim": 128, "num_attention_heads": 40, "max_position_embeddings": 131072, "rope_theta": 500000,
         "no_rope_layer_interval": 4})"},
    {"gptj", "GPTJConfig", R"({"n_embd": 4096, "n_head": 16, "rotary_dim": 64, "n_positions": 2048})"},
    {"t5", "T5Config",
     R"({"relative_attention_num_buckets": 32, "relative_attention_max_distance": 128, "num_heads": 8,
         "d_kv": 64})"},
};

class ConfigReader
{
  public:
    ConfigReader(const std::string &name, ModelConfig &out)
        : name_(name)
        , out_(out)
    {
    }

    [[noreturn]] void fail(const std::string &why) const { refuse(name_, why); }

    // A number under key, or nullopt when absent or null; another kind refused naming the key.
    std::optional<double> number(const JsonValue &obj, std::string_view key) const
    {
        const JsonValue *v = obj.find(key);
        if (!v || v->kind == JsonValue::Kind::Null)
            return std::nullopt;
        if (!v->isNumber())
            fail(std::string(key) + " is " + std::string(kindName(v->kind)) + ", not a number");
        return v->number();
    }
    std::optional<std::int64_t> whole(const JsonValue &obj, std::string_view key) const
    {
        const auto v = number(obj, key);
        if (!v)
            return std::nullopt;
        if (*v != std::floor(*v) || *v < 0 || *v > 1e15)
            fail(std::string(key) + " is " + shown(*v) + ", not a whole number from 0 to 1e15");
        return static_cast<std::int64_t>(*v);
    }
    std::optional<std::string> text(const JsonValue &obj, std::string_view key) const
    {
        const JsonValue *v = obj.find(key);
        if (!v || v->kind == JsonValue::Kind::Null)
            return std::nullopt;
        if (!v->isString())
            fail(std::string(key) + " is " + std::string(kindName(v->kind)) + ", not a string");
        return v->text;
    }
    std::optional<bool> flag(const JsonValue &obj, std::string_view key) const
    {
        const JsonValue *v = obj.find(key);
        if (!v || v->kind == JsonValue::Kind::Null)
            return std::nullopt;
        if (v->kind != JsonValue::Kind::Bool)
            fail(std::string(key) + " is " + std::string(kindName(v->kind)) + ", not true or false");
        return v->boolean;
    }
    std::vector<double> numbers(const JsonValue &obj, std::string_view key) const
    {
        std::vector<double> out;
        const JsonValue *v = obj.find(key);
        if (!v || v->kind == JsonValue::Kind::Null)
            return out;
        if (!v->isArray())
            fail(std::string(key) + " is " + std::string(kindName(v->kind)) + ", not a list of numbers");
        for (const auto &item : v->items) {
            if (!item.isNumber())
                fail(std::string(key) + " holds " + std::string(kindName(item.kind)) + ", not only numbers");
            out.push_back(*item.number());
        }
        return out;
    }
    void said(std::string line) { out_.mapping.push_back(std::move(line)); }

  private:
    const std::string &name_;
    ModelConfig &out_;
};

std::optional<RopeScaling> ropeTypeFrom(const std::string &type)
{
    if (type == "default" || type == "mrope")
        return RopeScaling::None;
    if (type == "linear")
        return RopeScaling::Linear;
    if (type == "dynamic")
        return RopeScaling::DynamicNtk;
    if (type == "yarn")
        return RopeScaling::Yarn;
    if (type == "llama3")
        return RopeScaling::Llama3;
    if (type == "longrope" || type == "su") // "su": Phi-3's first configs
        return RopeScaling::LongRope;
    if (type == "proportional")
        return RopeScaling::Proportional;
    return std::nullopt;
}

// The RoPE parameters of one rope block (rope_scaling or rope_parameters, one layer type's) over
// the config `top`'s own keys.
void readRope(ConfigReader &r, const JsonValue &top, const JsonValue *block, ModelConfig &out)
{
    EncodingParams &p = out.params;
    RopeScalingParams &rope = p.rope;
    const JsonValue empty;
    const JsonValue &b = block ? *block : empty;
    if (const auto theta = r.number(b, "rope_theta")) {
        p.base = *theta;
        r.said("base " + shown(p.base) + " (rope_parameters.rope_theta)");
    } else if (const auto top_theta = r.number(top, "rope_theta")) {
        p.base = *top_theta;
        r.said("base " + shown(p.base) + " (rope_theta)");
    } else if (const auto neox = r.number(top, "rotary_emb_base")) {
        p.base = *neox;
        r.said("base " + shown(p.base) + " (rotary_emb_base, GPT-NeoX)");
    } else {
        p.base = 10000;
        r.said("base 10,000 (rope_theta absent: transformers' default, as Llama 2's config omits it)");
    }
    // transformers reads rope_type, or the legacy type; a block naming neither is refused by its
    // validation (rope_config_validation), and so here.
    if (block && !b.find("rope_type") && !b.find("type"))
        r.fail("rope_scaling names no rope_type (or type): which scaling is meant is not said");
    std::string type = r.text(b, "rope_type").value_or(r.text(b, "type").value_or("default"));
    const auto scaling = ropeTypeFrom(type);
    if (!scaling)
        r.fail("rope type " + quotedName(type) +
               " is not one this program computes (default, linear, dynamic, yarn, llama3, longrope or su, "
               "proportional, mrope)");
    rope.scaling = *scaling;
    // The keys each type requires (transformers' _validate_<type>_parameters); a missing one refused.
    const std::vector<std::string_view> required =
        type == "linear" || type == "dynamic" || type == "yarn" ? std::vector<std::string_view>{"factor"}
        : type == "llama3" ? std::vector<std::string_view>{"factor", "original_max_position_embeddings",
                                                           "low_freq_factor", "high_freq_factor"}
        : type == "longrope" || type == "su" ? std::vector<std::string_view>{"short_factor", "long_factor"}
                                             : std::vector<std::string_view>{};
    for (std::string_view key : required)
        if (!b.find(key))
            r.fail("rope type \"" + type + "\" needs " + std::string(key) + " in rope_scaling, as transformers does");
    const auto maxPositions = r.whole(top, "max_position_embeddings");
    if (rope.scaling != RopeScaling::None) {
        // L: rope_scaling's original_max_position_embeddings, or the top level's (Phi-3), or else
        // max_position_embeddings as transformers takes it (dynamic, YaRN); position interpolation
        // stretched L to s·L, so under linear it is max_position_embeddings / s (Gemma 3's config
        // gives none).
        const auto original = r.whole(b, "original_max_position_embeddings");
        const auto topOriginal = r.whole(top, "original_max_position_embeddings");
        std::string originalFrom = original      ? "rope_scaling's original_max_position_embeddings"
                                   : topOriginal ? "original_max_position_embeddings"
                                                 : "max_position_embeddings";
        if (original || topOriginal || maxPositions)
            rope.originalContext = original ? *original : topOriginal ? *topOriginal : *maxPositions;
        if (const auto f = r.number(b, "factor"))
            rope.factor = *f;
        else if (rope.scaling == RopeScaling::LongRope && maxPositions && rope.originalContext > 0)
            rope.factor = static_cast<double>(*maxPositions) / static_cast<double>(rope.originalContext);
        if (rope.scaling == RopeScaling::Linear && !original && !topOriginal && maxPositions && rope.factor > 1) {
            rope.originalContext =
                std::max<std::int64_t>(1, std::llround(static_cast<double>(*maxPositions) / rope.factor));
            originalFrom = "max_position_embeddings / factor: the config gives no original context";
        }
        rope.betaFast = r.number(b, "beta_fast").value_or(rope.betaFast);
        rope.betaSlow = r.number(b, "beta_slow").value_or(rope.betaSlow);
        rope.mscale = r.number(b, "mscale").value_or(0);
        rope.mscaleAllDim = r.number(b, "mscale_all_dim").value_or(0);
        rope.attentionFactor = r.number(b, "attention_factor").value_or(0);
        rope.truncate = r.flag(b, "truncate").value_or(true);
        rope.lowFreqFactor = r.number(b, "low_freq_factor").value_or(rope.lowFreqFactor);
        rope.highFreqFactor = r.number(b, "high_freq_factor").value_or(rope.highFreqFactor);
        rope.shortFactor = r.numbers(b, "short_factor");
        rope.longFactor = r.numbers(b, "long_factor");
        r.said("scaling " + std::string(ropeScalingName(rope.scaling)) + " (rope type \"" + type + "\"), factor " +
               shown(rope.factor) + ", original context " + withThousands(rope.originalContext) + " (" + originalFrom +
               ")");
    } else if (type == "mrope") {
        r.said("rope type \"mrope\": Qwen2-VL's M-RoPE, 1-D RoPE for text (the grid view turns it over patches)");
    }
    if (const auto f =
            r.number(b, "partial_rotary_factor").value_or(r.number(top, "partial_rotary_factor").value_or(0));
        f > 0) {
        rope.rotaryFraction = f;
        r.said("rotary fraction " + shown(f) + " (partial_rotary_factor)");
    } else if (const auto pct = r.number(top, "rotary_pct")) {
        rope.rotaryFraction = *pct;
        r.said("rotary fraction " + shown(*pct) + " (rotary_pct, GPT-NeoX)");
    }
}

} // namespace

ModelConfig readModelConfig(std::string_view json, const std::string &name)
{
    const std::string quoted = "'" + name + "'";
    std::string error;
    const auto parsed = parseJson(json, &error);
    if (!parsed)
        refuse(quoted, "not valid JSON (" + error + ")");
    if (!parsed->isObject())
        refuse(quoted, "a config.json is a JSON object, not " + std::string(kindName(parsed->kind)));
    ModelConfig out;
    ConfigReader r(quoted, out);
    const JsonValue &root = *parsed;
    // A multimodal config keeps its language model's keys under text_config (Gemma 3, Llama 4).
    const JsonValue *text = root.find("text_config");
    const JsonValue &given = text && text->isObject() ? *text : root;
    out.modelType = oneLineName(r.text(given, "model_type").value_or(r.text(root, "model_type").value_or("")));
    // transformers saves a config as its difference from the class's defaults (a multimodal
    // model's text_config especially: Gemma 3's names neither head_dim nor rope_theta), so a key
    // left out takes the class's default, said in the mapping.
    JsonValue top = given;
    for (const ClassDefaults &d : kClassDefaults) {
        if (d.modelType != out.modelType)
            continue;
        std::string error;
        const auto defaults = parseJson(d.json, &error);
        std::string filled;
        for (std::size_t k = 0; defaults && k < defaults->keys.size(); ++k)
            if (!top.find(defaults->keys[k])) {
                top.keys.push_back(defaults->keys[k]);
                top.values.push_back(defaults->values[k]);
                filled += (filled.empty() ? "" : ", ") + defaults->keys[k] + " " +
                          shown(defaults->values[k].number().value_or(0));
            }
        if (!filled.empty())
            r.said("not in the file, " + std::string(d.className) + "'s defaults taken: " + filled);
    }
    // The names older classes give the same keys (their attribute_map): GPT-J's and GPT-2's n_embd
    // and n_head, BLOOM's n_embed, MPT's n_heads.
    const std::pair<std::string_view, std::string_view> aliases[] = {{"hidden_size", "n_embd"},
                                                                     {"hidden_size", "n_embed"},
                                                                     {"num_attention_heads", "n_head"},
                                                                     {"num_attention_heads", "n_heads"}};
    for (const auto &[key, alias] : aliases)
        if (const JsonValue *v = top.find(alias); v && !top.find(key)) {
            top.keys.emplace_back(key);
            top.values.push_back(*v);
        }
    if (const JsonValue *a = root.find("architectures"); a && a->isArray())
        for (const auto &item : a->items)
            if (item.isString())
                out.architectures.push_back(oneLineName(item.text));
    // transformers writes the hub name it was loaded from; else the caller's name stands.
    out.name = oneLineName(r.text(root, "_name_or_path").value_or(name));
    if (out.name.empty())
        out.name = name;
    EncodingParams &p = out.params;
    const std::string &type = out.modelType;
    const auto maxPositions = r.whole(top, "max_position_embeddings");
    // The context under each class's name for it: the first given.
    std::optional<std::int64_t> window = maxPositions;
    for (const char *key : {"n_positions", "max_seq_len", "seq_length"})
        if (!window)
            window = r.whole(top, key);
    if (window && *window == 0)
        r.fail("its context (max_position_embeddings or n_positions) is 0 positions");
    if (!window) {
        // Decision: 2,048 positions, a context most models of that time were trained on, said.
        p.seqLen = 2048;
        r.said("seq_len 2,048: the config gives no context (max_position_embeddings, n_positions, max_seq_len)");
    } else {
        p.seqLen = std::clamp<std::int64_t>(*window, limits::minSeqLen, limits::maxSeqLen);
        r.said("seq_len " + withThousands(p.seqLen) + " (the model's context" +
               (*window > limits::maxSeqLen ? ", " + withThousands(*window) + " held to the window's limit" : "") +
               ")");
    }
    p.startPos = 0;

    // ALiBi: BLOOM, MPT's attn_config.alibi, Falcon's alibi.
    const JsonValue *attn = top.find("attn_config");
    const bool mptAlibi = attn && attn->isObject() && r.flag(*attn, "alibi").value_or(false);
    if (type == "bloom" || mptAlibi || r.flag(top, "alibi").value_or(false)) {
        p.scheme = SchemeId::Alibi;
        // n_head and n_heads are num_attention_heads by now (the aliases above).
        const auto heads = r.whole(top, "num_attention_heads");
        if (!heads)
            r.fail("an ALiBi model needs its head count (n_head, n_heads or num_attention_heads)");
        p.heads = static_cast<int>(std::min<std::int64_t>(*heads, 1 << 20));
        p.head = 1;
        r.said("ALiBi (" +
               std::string(type == "bloom" ? "BLOOM"
                           : mptAlibi      ? "attn_config.alibi"
                                           : "alibi") +
               ") with " + withThousands(*heads) + " heads");
    } else if (among(kT5, type)) {
        p.scheme = SchemeId::T5;
        p.buckets = static_cast<int>(r.whole(top, "relative_attention_num_buckets").value_or(32));
        p.maxDistance = r.whole(top, "relative_attention_max_distance").value_or(128);
        if (const auto heads = r.whole(top, "num_heads"))
            p.heads = static_cast<int>(std::min<std::int64_t>(*heads, 1 << 20));
        if (const auto dkv = r.whole(top, "d_kv"))
            p.dModel = static_cast<int>(std::min<std::int64_t>(*dkv, limits::maxDModel + 1));
        r.said("T5's relative buckets: " + std::to_string(p.buckets) +
               " buckets (relative_attention_num_buckets), "
               "max distance " +
               withThousands(p.maxDistance) +
               " (relative_attention_max_distance); the learned bias "
               "is in the checkpoint (--bias-table)");
    } else {
        const JsonValue *scaling = top.find("rope_scaling");
        const JsonValue *parameters = top.find("rope_parameters");
        const bool ropeKeys = (scaling && scaling->kind != JsonValue::Kind::Null) || parameters ||
                              top.find("rope_theta") || top.find("rotary_emb_base") || top.find("rotary_pct") ||
                              top.find("partial_rotary_factor");
        if (!ropeKeys && type == "whisper")
            r.fail("Whisper's positions are tables in its checkpoint (the encoder's its fixed sinusoids, the "
                   "decoder's learned): open model.safetensors with --table");
        if (!ropeKeys && among(kLearned, type))
            r.fail(type + " models learn their position table: open the checkpoint with --table FILE "
                          "(model.safetensors)");
        if (!ropeKeys && !among(kRope, type))
            r.fail(type.empty() ? "it names no model_type and no RoPE key (rope_theta, rope_scaling, "
                                  "rope_parameters): not a config this program reads"
                                : "model_type \"" + type +
                                      "\" names no RoPE key and is not a model this program "
                                      "knows the positions of");
        p.scheme = SchemeId::Rope;
        // rope_parameters, per layer type where nested (full_attention, sliding_attention).
        const JsonValue *block = nullptr, *local = nullptr;
        if (parameters && parameters->isObject()) {
            const JsonValue *full = parameters->find("full_attention");
            local = parameters->find("sliding_attention");
            block = full && full->isObject() ? full : parameters;
        } else if (scaling && scaling->kind != JsonValue::Kind::Null) {
            if (!scaling->isObject())
                r.fail("rope_scaling is " + std::string(kindName(scaling->kind)) + ", not an object");
            block = scaling;
        }
        readRope(r, top, block, out);
        // The head's dimension: DeepSeek's rotary part, head_dim, or hidden_size / heads.
        std::int64_t head = 0;
        if (const auto rope = r.whole(top, "qk_rope_head_dim")) {
            head = *rope;
            r.said("d_model " + withThousands(head) + " (qk_rope_head_dim: DeepSeek's rotary part of each head)");
        } else if (const auto hd = r.whole(top, "head_dim")) {
            head = *hd;
            r.said("d_model " + withThousands(head) + " (head_dim)");
        } else {
            const auto hidden = r.whole(top, "hidden_size");
            const auto heads = r.whole(top, "num_attention_heads");
            if (!hidden || !heads)
                r.fail("it gives neither head_dim nor hidden_size and num_attention_heads: the head's dimension is "
                       "unknown");
            if (*heads == 0)
                r.fail("num_attention_heads is 0");
            if (*hidden % *heads != 0)
                r.fail("hidden_size " + withThousands(*hidden) + " is not a multiple of num_attention_heads " +
                       withThousands(*heads));
            head = *hidden / *heads;
            r.said("d_model " + withThousands(head) + " (head_dim = hidden_size " + withThousands(*hidden) +
                   " / num_attention_heads " + withThousands(*heads) + ")");
        }
        if (head == 0 || head > limits::maxDModel)
            r.fail("the head's dimension is " + withThousands(head) + "; this program computes 2 to " +
                   withThousands(limits::maxDModel));
        p.dModel = static_cast<int>(head);
        // GPT-J's and CodeGen's rotary_dim: the first rotary_dim dimensions of each head rotate.
        if (const auto rd = r.whole(top, "rotary_dim"); rd && p.rope.rotaryFraction == 1.0) {
            if (*rd == 0 || *rd > head || *rd % 2 != 0)
                r.fail("rotary_dim " + withThousands(*rd) + " is not an even number from 2 to the head's " +
                       withThousands(head));
            p.rope.rotaryFraction = static_cast<double>(*rd) / static_cast<double>(head);
            r.said("rotary fraction " + shown(p.rope.rotaryFraction) + " (rotary_dim " + withThousands(*rd) + " of " +
                   withThousands(head) + ")");
        }
        const bool interleaved = r.flag(top, "rope_interleave").value_or(among(kInterleaved, type));
        p.layout = interleaved ? Layout::Interleaved : Layout::Split;
        r.said(interleaved ? "pairs interleaved (2i, 2i+1)"
                           : "pairs in halves (i, d/2 + i: transformers' rotate_half)");
        // Gemma's sliding-window layers: their own base and the window.
        if (local && local->isObject()) {
            p.localBase = r.number(*local, "rope_theta").value_or(10000);
            r.said("local layers' base " + shown(p.localBase) + " (rope_parameters.sliding_attention)");
        } else if (const auto lb = r.number(top, "rope_local_base_freq")) {
            p.localBase = *lb;
            r.said("local layers' base " + shown(p.localBase) + " (rope_local_base_freq)");
        }
        if ((p.localBase > 0 || type == "gemma2" || type == "gemma3" || type == "gemma3_text")) {
            if (const auto w = r.whole(top, "sliding_window")) {
                p.slidingWindow = *w;
                r.said("sliding window " + withThousands(*w) + " (sliding_window)");
            }
        } else if (const auto w = r.whole(top, "sliding_window");
                   w && r.flag(top, "use_sliding_window").value_or(true)) {
            // Mistral 7B v0.1: every layer sees the last sliding_window keys (gpt-oss: the layers
            // layer_types names); the same RoPE on every layer, drawn with full attention.
            r.said("sliding_window " + withThousands(*w) +
                   (top.find("layer_types") ? " on the layers layer_types names" : " on every layer") +
                   ": not drawn (the same RoPE on every layer; the views attend to every key)");
        }
        // Qwen2-VL's M-RoPE: its sections are the grid view's.
        if (const JsonValue *section = block ? block->find("mrope_section") : nullptr; section)
            r.said("mrope_section (Qwen2-VL's temporal, height and width pairs): the RoPE over a grid view's "
                   "section; text positions turn as 1-D RoPE");
        if (const auto nope = r.whole(top, "no_rope_layer_interval"); nope && *nope > 0) {
            p.nopeInterval = static_cast<int>(*nope);
            p.floorScale = r.number(top, "floor_scale").value_or(8192);
            p.attnScale =
                r.flag(top, "attn_temperature_tuning").value_or(true) ? r.number(top, "attn_scale").value_or(0.1) : 0;
            r.said("NoPE every " + std::to_string(p.nopeInterval) + "th layer (no_rope_layer_interval)");
        }
    }
    refuseUnlessValid(p, quoted, "the config");
    return out;
}

namespace {

// A GGUF tensor of F32 values as doubles (rope_freqs, rope_factors_long/short); empty when absent.
std::vector<double> ggufFloats(const TensorIndex &index, const unsigned char *bytes, std::size_t size,
                               const std::string &tensor, const std::string &quoted)
{
    for (const auto &t : index.tensors)
        if (t.name == tensor) {
            if (t.type != TensorType::Float32 || t.shape.size() != 1 || t.offset + t.bytes > size)
                refuse(quoted, "tensor \"" + tensor + "\" is not a 1-D float32 list");
            std::vector<double> out(static_cast<std::size_t>(t.shape[0]));
            for (std::size_t k = 0; k < out.size(); ++k) {
                float f;
                std::memcpy(&f, bytes + t.offset + 4 * k, 4);
                out[k] = f;
            }
            return out;
        }
    return {};
}

} // namespace

ModelConfig readGgufModel(const TensorIndex &index, const unsigned char *bytes, std::size_t size,
                          const std::string &name)
{
    const std::string quoted = "'" + name + "'";
    ModelConfig out;
    const GgufValue *arch = index.find("general.architecture");
    if (!arch || arch->kind != GgufValue::Kind::String)
        refuse(quoted, "its metadata names no general.architecture");
    // The architecture prefixes every key and is said in messages: a name, not any bytes.
    if (arch->text.empty() || arch->text.size() > 64 || escapedName(arch->text) != arch->text)
        refuse(quoted, "general.architecture " + quotedName(arch->text) + " is not an architecture's name");
    out.modelType = arch->text;
    const GgufValue *title = index.find("general.name");
    out.name = title && title->kind == GgufValue::Kind::String ? oneLineName(title->text) : name;
    const std::string a = arch->text + ".";
    auto number = [&](const std::string &key) -> std::optional<double> {
        const GgufValue *v = index.find(a + key);
        if (!v)
            return std::nullopt;
        if (v->kind != GgufValue::Kind::Number || !std::isfinite(v->number))
            refuse(quoted, a + key + " is not a finite number");
        return v->number;
    };
    // A count or a length: a whole number from 0 to 1e15 (the validator holds each to its range).
    auto whole = [&](const std::string &key) -> std::optional<std::int64_t> {
        const auto v = number(key);
        if (!v)
            return std::nullopt;
        if (*v < 0 || *v > 1e15 || *v != std::floor(*v))
            refuse(quoted, a + key + " is " + compactNumber(*v) + ", not a whole number");
        return static_cast<std::int64_t>(*v);
    };
    auto said = [&out](std::string line) { out.mapping.push_back(std::move(line)); };
    EncodingParams &p = out.params;
    if (const auto ctx = whole("context_length")) {
        p.seqLen = std::clamp<std::int64_t>(*ctx, limits::minSeqLen, limits::maxSeqLen);
        said("seq_len " + withThousands(p.seqLen) + " (" + a + "context_length)");
    }
    p.startPos = 0;
    const auto heads = whole("attention.head_count");
    if (arch->text == "bloom" || arch->text == "mpt") {
        if (!heads)
            refuse(quoted, "an ALiBi model needs " + a + "attention.head_count");
        p.scheme = SchemeId::Alibi;
        p.heads = static_cast<int>(std::min<std::int64_t>(*heads, 1 << 20));
        said("ALiBi (" + arch->text + ") with " + withThousands(*heads) + " heads");
    } else if (arch->text == "t5" || arch->text == "t5encoder") {
        p.scheme = SchemeId::T5;
        p.buckets =
            static_cast<int>(std::min<std::int64_t>(whole("attention.relative_buckets_count").value_or(32), 1 << 20));
        if (heads)
            p.heads = static_cast<int>(std::min<std::int64_t>(*heads, 1 << 20));
        said("T5's relative buckets: " + std::to_string(p.buckets) + " buckets (" + a +
             "attention.relative_buckets_count); the learned bias is the tensor enc.blk.0.attn_rel_b (--bias-table)");
    } else if (!index.find(a + "rope.freq_base") && !index.find(a + "rope.dimension_count")) {
        bool learned = false;
        for (const auto &t : index.tensors)
            learned = learned || t.name == "position_embd.weight";
        refuse(quoted, learned ? arch->text + " learns its position table: open the file with --table (its "
                                              "position_embd.weight)"
                               : "its metadata has no " + a + "rope.freq_base or " + a +
                                     "rope.dimension_count: not a RoPE model this program reads");
    } else {
        p.scheme = SchemeId::Rope;
        p.base = number("rope.freq_base").value_or(10000);
        said("base " + compactNumber(p.base) + " (" + a + "rope.freq_base)");
        const auto embedding = number("embedding_length");
        const auto keyLength = number("attention.key_length");
        double head = 0;
        if (keyLength)
            head = *keyLength;
        else if (embedding && heads && *heads > 0)
            head = *embedding / *heads;
        const auto dims = number("rope.dimension_count");
        // DeepSeek's heads: a part without positions and a rotary part of rope.dimension_count,
        // turned as interleaved pairs; the rotary part is the head the views show, as its config's
        // qk_rope_head_dim is.
        const bool deepseek = arch->text == "deepseek2" || arch->text == "deepseek3";
        if (head <= 0 || (deepseek && dims))
            head = dims.value_or(0);
        if (head <= 0 || head != std::floor(head) || head > limits::maxDModel)
            refuse(quoted, "the head's dimension is unknown or above " + withThousands(limits::maxDModel) + " (" + a +
                               "attention.key_length, or " + a + "embedding_length / " + a + "attention.head_count)");
        p.dModel = static_cast<int>(head);
        said("d_model " + std::to_string(p.dModel) +
             (deepseek ? " (" + a + "rope.dimension_count: DeepSeek's rotary part of each head)"
                       : std::string(" (the head's dimension)")));
        if (dims && *dims < head) {
            p.rope.rotaryFraction = *dims / head;
            said("rotary fraction " + compactNumber(p.rope.rotaryFraction) + " (" + a + "rope.dimension_count " +
                 compactNumber(*dims) + " of " + std::to_string(p.dModel) + ")");
        }
        // llama.cpp's GGUF turns the halves (NEOX) for most architectures and pairs (NORM) for
        // llama's; the values are the same up to that permutation, which the views show either way.
        p.layout = arch->text == "llama" || deepseek ? Layout::Interleaved : Layout::Split;
        // Gemma 3's local layers: llama.cpp turns them at 10,000 (its rope_freq_base_train_swa for
        // gemma3) within attention.sliding_window.
        if (arch->text == "gemma3") {
            p.localBase = 10000;
            if (const auto w = whole("attention.sliding_window"))
                p.slidingWindow = *w;
            said("local layers' base 10,000 (llama.cpp's for gemma3), sliding window " +
                 withThousands(p.slidingWindow) + " (" + a + "attention.sliding_window)");
        }
        const GgufValue *type = index.find(a + "rope.scaling.type");
        const std::string scaling = type && type->kind == GgufValue::Kind::String ? type->text : "none";
        const auto factor = number("rope.scaling.factor");
        const auto original = whole("rope.scaling.original_context_length");
        const std::vector<double> freqs = ggufFloats(index, bytes, size, "rope_freqs.weight", quoted);
        const std::vector<double> longFactors = ggufFloats(index, bytes, size, "rope_factors_long.weight", quoted);
        const std::vector<double> shortFactors = ggufFloats(index, bytes, size, "rope_factors_short.weight", quoted);
        if (!longFactors.empty() || !shortFactors.empty()) {
            p.rope.scaling = RopeScaling::LongRope;
            p.rope.longFactor = longFactors;
            p.rope.shortFactor = shortFactors.empty() ? longFactors : shortFactors;
            said("LongRoPE's factors (rope_factors_long / rope_factors_short.weight)");
        } else if (!freqs.empty()) {
            // Llama 3's scaling as llama.cpp stores it: a divisor per pair (rope_freqs.weight), the
            // same as LongRoPE's one list at factor 1.
            p.rope.scaling = RopeScaling::LongRope;
            p.rope.longFactor = freqs;
            p.rope.shortFactor = freqs;
            p.rope.factor = 1;
            p.rope.attentionFactor = 1;
            said("per-pair divisors rope_freqs.weight (llama.cpp's Llama 3 scaling), shown as LongRoPE's factors at "
                 "factor 1");
        } else if (scaling == "linear") {
            p.rope.scaling = RopeScaling::Linear;
        } else if (scaling == "yarn") {
            p.rope.scaling = RopeScaling::Yarn;
            p.rope.betaFast = number("rope.scaling.yarn_beta_fast").value_or(p.rope.betaFast);
            p.rope.betaSlow = number("rope.scaling.yarn_beta_slow").value_or(p.rope.betaSlow);
            // DeepSeek's mscale_all_dim as llama.cpp's converter stores it: 0.1·mscale_all_dim. Its
            // config's mscale and mscale_all_dim are equal, the factor on cos and sin their ratio, 1.
            if (const auto m = number("rope.scaling.yarn_log_multiplier"); m && *m > 0) {
                p.rope.mscale = p.rope.mscaleAllDim = *m / 0.1;
                said("mscale and mscale_all_dim " + compactNumber(*m / 0.1) + " (" + a +
                     "rope.scaling.yarn_log_multiplier / 0.1: DeepSeek's)");
            }
        } else if (scaling == "longrope") {
            refuse(quoted, a + "rope.scaling.type is longrope but the file has no rope_factors_long.weight or "
                               "rope_factors_short.weight");
        } else if (scaling != "none") {
            refuse(quoted, "rope scaling type " + quotedName(scaling) +
                               " is not one this program computes (none, linear, yarn, longrope)");
        }
        if (p.rope.scaling != RopeScaling::None) {
            if (factor && freqs.empty())
                p.rope.factor = *factor;
            if (original)
                p.rope.originalContext = *original;
            // LongRoPE's s is the context over the original one, as transformers takes it.
            const auto context = whole("context_length");
            if (p.rope.scaling == RopeScaling::LongRope && freqs.empty() && !factor && original && context &&
                *original > 0)
                p.rope.factor = static_cast<double>(*context) / static_cast<double>(*original);
            if (const auto attn = number("rope.scaling.attn_factor"); attn && *attn > 0) {
                p.rope.attentionFactor = *attn;
                said("attention factor " + compactNumber(*attn) + " (" + a + "rope.scaling.attn_factor)");
            }
            said("scaling " + std::string(ropeScalingName(p.rope.scaling)) + ", factor " +
                 compactNumber(p.rope.factor) + ", original context " + withThousands(p.rope.originalContext) +
                 (original ? " (" + a + "rope.scaling.original_context_length)"
                           : std::string(" (not in the file: this program's default; the views' L mark only)")));
        }
    }
    refuseUnlessValid(p, quoted, "the metadata");
    return out;
}

namespace {

// "config.json" and "model.gguf" are every model's names: the folder names the model.
// In the hub's cache (huggingface_hub's models--ORG--NAME/snapshots/HASH/config.json) the cache's
// folder names it: ORG/NAME.
std::string displayName(const std::string &path)
{
    std::vector<std::string> parts;
    for (std::size_t start = 0; start <= path.size();) {
        const auto slash = path.find('/', start);
        const std::size_t end = slash == std::string::npos ? path.size() : slash;
        if (end > start)
            parts.push_back(path.substr(start, end - start));
        start = end + 1;
    }
    if (parts.empty())
        return path;
    const std::size_t n = parts.size();
    if (parts[n - 1] == "config.json" && n >= 4 && parts[n - 3] == "snapshots" &&
        parts[n - 4].starts_with("models--")) {
        std::string name = parts[n - 4].substr(8);
        if (const auto sep = name.find("--"); sep != std::string::npos)
            name.replace(sep, 2, "/");
        return oneLineName(name);
    }
    if (parts[n - 1] == "config.json" && n >= 2)
        return oneLineName(parts[n - 2]);
    return oneLineName(parts[n - 1]);
}

// A safetensors file: an 8-byte little-endian header length that fits the file, then '{' (a
// text's first 8 bytes read as that length run far past any file).
bool safetensorsHeader(const unsigned char *bytes, std::size_t size)
{
    if (size < 9 || bytes[8] != '{')
        return false;
    std::uint64_t length = 0;
    for (int k = 7; k >= 0; --k)
        length = (length << 8) | bytes[k];
    return length <= size - 8;
}

// A config.json is a few kilobytes (Phi-3's with its factor lists about 10): past this it is not one.
constexpr std::size_t kMaxConfigBytes = 16u << 20;

} // namespace

std::shared_ptr<const ModelConfig> openModel(const std::string &given)
{
    if (given.empty())
        throw std::runtime_error("the model file name is empty");
    std::string path = given;
    struct stat st {
    };
    // A model's folder as the hub saves it: its config.json.
    if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
        path = (path.back() == '/' ? path : path + "/") + "config.json";
        if (::stat(path.c_str(), &st) != 0)
            detail::refuse("'" + given + "'", "a folder without a config.json (give the config.json or a GGUF file)");
    }
    const std::string quoted = "'" + path + "'";
    MappedFile file;
    file.open(path, quoted, "a config.json or a GGUF file");
    const unsigned char *bytes = file.bytes();
    ModelConfig out;
    if (file.size >= 4 && std::memcmp(bytes, "GGUF", 4) == 0) {
        const TensorIndex index = readTensorIndex(bytes, file.size, quoted);
        out = readGgufModel(index, bytes, file.size, displayName(path));
    } else if ((file.size >= 6 && std::memcmp(bytes, "\x93NUMPY", 6) == 0) || safetensorsHeader(bytes, file.size)) {
        detail::refuse(quoted, "a checkpoint's tensors, not a config: give the config.json beside it to --model, "
                               "and the file to --table for a learned position table");
    } else {
        if (file.size > kMaxConfigBytes)
            detail::refuse(quoted, withThousands(static_cast<std::int64_t>(file.size)) +
                                       " bytes: too large for a config.json (at most 16 MiB)");
        out = readModelConfig(std::string_view(reinterpret_cast<const char *>(bytes), file.size), path);
        if (out.name == path)
            out.name = displayName(path);
    }
    out.path = path;
    return std::make_shared<const ModelConfig>(std::move(out));
}

EncodingParams modelParams(const std::shared_ptr<const ModelConfig> &model)
{
    EncodingParams p = model->params;
    p.model = model;
    return p;
}

std::vector<std::string> changedFromModel(const EncodingParams &p)
{
    std::vector<std::string> out;
    if (!p.model)
        return out;
    const EncodingParams &m = p.model->params;
    const auto differs = [&out](bool d, Field f) {
        if (d)
            out.emplace_back(fieldName(f));
    };
    differs(p.scheme != m.scheme || p.table != m.table, Field::Scheme);
    // seq_len and start_pos are the window shown, not the model's: not named.
    differs(p.dModel != m.dModel, Field::DModel);
    differs(p.base != m.base && takes(p, Field::Base), Field::Base);
    differs(p.layout != m.layout && takes(p, Field::Layout), Field::Layout);
    for (const SchemeParameter &sp : schemeParameters()) {
        if (!takes(p, sp.field) && !takes(m, sp.field))
            continue;
        const bool d = sp.kind == SchemeParameter::Kind::List ? sp.getList(p) != sp.getList(m) : sp.get(p) != sp.get(m);
        differs(d, sp.field);
    }
    return out;
}

std::string modelTitle(const ModelConfig &model)
{
    std::string what = model.modelType;
    for (const auto &a : model.architectures)
        what += (what.empty() ? "" : ", ") + a;
    return what.empty() ? model.name : model.name + " (" + what + ")";
}

} // namespace pe

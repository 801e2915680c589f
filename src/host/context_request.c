/* context_request.c — segments → the original's request, its digest, the neutral llm request and
 * the record's args (context_request.h). The facts (what each segment kind becomes, where a cache
 * breakpoint lands, the default posture, the canonical digest text) are the original chidori's,
 * described in docs/effects.md; the code is ours. Trusts nothing in args.
 */
#include "host/context_request.h"
#include "util/buf.h"
#include "util/sha256.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool context_request_is(const json_t *args) { return json_object_get(args, "__context") != NULL; }

static const char *str_or_empty(const json_t *seg, const char *key)
{
    const char *s = json_string_value(json_object_get(seg, key));
    return s ? s : "";
}

static bool has_name(const json_t *arr, const char *name)
{
    for (size_t i = 0; i < arr->u.array.len; i++)
        if (!strcmp(json_string_value(json_object_get(arr->u.array.items[i], "name")) ?: "", name)) return true;
    return false;
}

static bool has_string(const json_t *arr, const char *s)
{
    for (size_t i = 0; i < arr->u.array.len; i++)
        if (!strcmp(json_string_value(arr->u.array.items[i]) ?: "", s)) return true;
    return false;
}

json_t *context_tool_names(const json_t *segments, const json_t *opts, bool merge_opts)
{
    json_t *names = json_array();
    for (size_t i = 0; json_is_array(segments) && i < segments->u.array.len; i++) {
        const json_t *seg = segments->u.array.items[i];
        if (strcmp(str_or_empty(seg, "kind"), "tools")) continue;
        const json_t *list = json_object_get(seg, "names");
        for (size_t k = 0; json_is_array(list) && k < list->u.array.len; k++) {
            const char *n = json_string_value(list->u.array.items[k]);
            if (n && !has_string(names, n)) json_array_push(names, json_string(n));
        }
    }
    const json_t *extra = merge_opts ? json_object_get(opts, "tools") : NULL;
    for (size_t k = 0; json_is_array(extra) && k < extra->u.array.len; k++) {
        const char *n = json_string_value(extra->u.array.items[k]);
        if (n && !has_string(names, n)) json_array_push(names, json_string(n));
    }
    return names;
}

static json_t *text_block(const char *text)
{
    json_t *b = json_object();
    json_object_set(b, "type", json_string("text"));
    json_object_set(b, "text", json_string(text));
    return b;
}

static json_t *message(const char *role, json_t *block)
{
    json_t *m = json_object();
    json_object_set(m, "role", json_string(role));
    json_t *content = json_array();
    json_array_push(content, block);
    json_object_set(m, "content", content);
    return m;
}

static json_t *ttl_of(const json_t *v) { return json_string(!strcmp(json_string_value(v) ?: "", "1h") ? "1h" : "5m"); }

/* A Message in the original's shape, checked and rebuilt with its known fields only. */
static json_t *checked_message(const json_t *m, const char *where, char **error)
{
    const json_t *role = json_object_get(m, "role"), *content = json_object_get(m, "content");
    if (!json_is_string(role) || !json_is_array(content)) {
        *error = xasprintf("invalid context message segment (%s): a message needs a string `role` and a `content` array "
                           "of blocks",
                           where);
        return NULL;
    }
    json_t *out = json_object();
    json_object_set(out, "role", json_copy(role));
    json_t *blocks = json_array();
    json_object_set(out, "content", blocks);
    for (size_t i = 0; i < content->u.array.len; i++) {
        const json_t *b = content->u.array.items[i];
        const char *type = json_string_value(json_object_get(b, "type"));
        json_t *nb = json_object();
        json_array_push(blocks, nb);
        if (type && !strcmp(type, "text") && json_is_string(json_object_get(b, "text"))) {
            json_object_set(nb, "type", json_string("text"));
            json_object_set(nb, "text", json_copy(json_object_get(b, "text")));
        } else if (type && !strcmp(type, "tool_use") && json_is_string(json_object_get(b, "id")) &&
                   json_is_string(json_object_get(b, "name"))) {
            const json_t *input = json_object_get(b, "input");
            json_object_set(nb, "type", json_string("tool_use"));
            json_object_set(nb, "id", json_copy(json_object_get(b, "id")));
            json_object_set(nb, "name", json_copy(json_object_get(b, "name")));
            json_object_set(nb, "input", input ? json_copy(input) : json_null());
        } else if (type && !strcmp(type, "tool_result") && json_is_string(json_object_get(b, "tool_use_id")) &&
                   json_is_string(json_object_get(b, "content"))) {
            const json_t *is_error = json_object_get(b, "is_error");
            json_object_set(nb, "type", json_string("tool_result"));
            json_object_set(nb, "tool_use_id", json_copy(json_object_get(b, "tool_use_id")));
            json_object_set(nb, "content", json_copy(json_object_get(b, "content")));
            json_object_set(nb, "is_error", json_bool(is_error && is_error->type == JSON_TRUE));
        } else {
            json_free(out);
            *error = xasprintf("invalid context message segment (%s): block %zu is not a text, tool_use or tool_result "
                               "block with its fields",
                               where, i);
            return NULL;
        }
    }
    const json_t *cc = json_object_get(m, "cache_control");
    if (cc && cc->type != JSON_NULL) json_object_set(out, "cache_control", ttl_of(cc));
    return out;
}

/* The posture of opts.cache: NULL (off) or "5m"/"1h" (static strings). */
static const char *posture(const json_t *opts)
{
    const json_t *c = json_object_get(opts, "cache");
    if (!c || c->type == JSON_NULL || c->type == JSON_TRUE) return "5m";
    if (c->type == JSON_FALSE) return NULL;
    if (json_is_object(c)) c = json_object_get(c, "ttl");
    return !strcmp(json_string_value(c) ?: "", "1h") ? "1h" : "5m";
}

json_t *context_original_request(const json_t *segments, const json_t *turns, const json_t *registry, const json_t *opts,
                                 bool merge_opts, const char *model_fallback, bool need_message, char **error)
{
    if (!json_is_array(segments)) {
        *error = xstrdup("chidori.context: the segment list must be an array");
        return NULL;
    }
    if (segments->u.array.len > CONTEXT_MAX_SEGMENTS) {
        *error = xasprintf("chidori.context: %zu segments, more than the %d a context may hold; compact() it",
                           segments->u.array.len, CONTEXT_MAX_SEGMENTS);
        return NULL;
    }
    buf system = {0};
    bool has_system = false;
    json_t *names = json_array(), *inline_tools = json_array(), *messages = json_array();
    json_t *cache_system = NULL, *cache_tools = NULL;
    json_t *out = NULL;
    for (size_t i = 0; i < segments->u.array.len; i++) {
        const json_t *seg = segments->u.array.items[i];
        const json_t *kindv = json_object_get(seg, "kind");
        const char *kind = json_string_value(kindv) ?: "";
        if (!strcmp(kind, "system")) {
            if (has_system) buf_puts(&system, "\n\n");
            buf_puts(&system, str_or_empty(seg, "text"));
            has_system = true;
        } else if (!strcmp(kind, "tools")) {
            const json_t *list = json_object_get(seg, "names");
            for (size_t k = 0; json_is_array(list) && k < list->u.array.len; k++) {
                const char *n = json_string_value(list->u.array.items[k]);
                if (n && !has_string(names, n)) json_array_push(names, json_string(n));
            }
            const json_t *schemas = json_object_get(seg, "schemas");
            for (size_t k = 0; json_is_array(schemas) && k < schemas->u.array.len; k++) {
                const json_t *s = schemas->u.array.items[k];
                const char *n = json_string_value(json_object_get(s, "name"));
                if (!n) {
                    *error = xasprintf("chidori.context: segment %zu: a tools schema is missing `name`", i);
                    goto fail;
                }
                if (has_name(inline_tools, n) || has_string(names, n)) continue;
                json_t *t = json_object();
                const json_t *params = json_object_get(s, "parameters");
                json_object_set(t, "name", json_string(n));
                json_object_set(t, "description", json_string(str_or_empty(s, "description")));
                if (params) {
                    json_object_set(t, "input_schema", json_copy(params));
                } else {
                    json_t *obj = json_object();
                    json_object_set(obj, "type", json_string("object"));
                    json_object_set(t, "input_schema", obj);
                }
                json_array_push(inline_tools, t);
            }
        } else if (!strcmp(kind, "doc")) {
            char *t = xasprintf("<document label=\"%s\">\n%s\n</document>", str_or_empty(seg, "label"), str_or_empty(seg, "text"));
            json_array_push(messages, message("user", text_block(t)));
            free(t);
        } else if (!strcmp(kind, "summary")) {
            char *t = xasprintf("<conversation-summary>\n%s\n</conversation-summary>", str_or_empty(seg, "text"));
            json_array_push(messages, message("user", text_block(t)));
            free(t);
        } else if (!strcmp(kind, "user")) {
            json_array_push(messages, message("user", text_block(str_or_empty(seg, "text"))));
        } else if (!strcmp(kind, "assistant")) {
            json_array_push(messages, message("assistant", text_block(str_or_empty(seg, "text"))));
        } else if (!strcmp(kind, "toolResult")) {
            const json_t *is_error = json_object_get(seg, "isError");
            json_t *b = json_object();
            json_object_set(b, "type", json_string("tool_result"));
            json_object_set(b, "tool_use_id", json_string(str_or_empty(seg, "id")));
            json_object_set(b, "content", json_string(str_or_empty(seg, "content")));
            json_object_set(b, "is_error", json_bool(is_error && is_error->type == JSON_TRUE));
            json_array_push(messages, message("user", b));
        } else if (!strcmp(kind, "message")) {
            const json_t *m = json_object_get(seg, "message");
            if (!m) {
                *error = xasprintf("chidori.context: segment %zu (message) is missing `message`", i);
                goto fail;
            }
            char where[48];
            snprintf(where, sizeof where, "segment %zu", i);
            json_t *cm = checked_message(m, where, error);
            if (!cm) goto fail;
            json_array_push(messages, cm);
        } else if (!strcmp(kind, "cacheBreakpoint")) {
            const json_t *ttl = json_object_get(seg, "ttl");
            if (messages->u.array.len) {
                json_object_set(messages->u.array.items[messages->u.array.len - 1], "cache_control", ttl_of(ttl));
            } else if (names->u.array.len) {
                json_free(cache_tools);
                cache_tools = ttl_of(ttl);
            } else if (has_system) {
                json_free(cache_system);
                cache_system = ttl_of(ttl);
            }
        } else {
            *error = xasprintf("unknown context segment kind `%s`", json_is_string(kindv) ? kind : "(none)");
            goto fail;
        }
    }
    for (size_t i = 0; json_is_array(turns) && i < turns->u.array.len; i++) {
        char where[48];
        snprintf(where, sizeof where, "tool-loop turn %zu", i);
        json_t *cm = checked_message(turns->u.array.items[i], where, error);
        if (!cm) goto fail;
        json_array_push(messages, cm);
    }
    if (merge_opts) {
        const json_t *os = json_object_get(opts, "system");
        if (json_is_string(os)) {
            if (has_system) buf_puts(&system, "\n\n");
            buf_append(&system, os->u.string.bytes, os->u.string.len);
            has_system = true;
        }
        const json_t *extra = json_object_get(opts, "tools");
        for (size_t k = 0; json_is_array(extra) && k < extra->u.array.len; k++) {
            const char *n = json_string_value(extra->u.array.items[k]);
            if (n && !has_string(names, n)) json_array_push(names, json_string(n));
        }
    }
    if (need_message && messages->u.array.len == 0) {
        *error = xstrdup("chidori.context prompt requires at least one user turn (add .user(...))");
        goto fail;
    }
    /* the tools: the registry's schemas of the names, in the names' order, then the inline ones */
    json_t *tools = json_array();
    for (size_t k = 0; k < names->u.array.len; k++) {
        const char *n = json_string_value(names->u.array.items[k]);
        for (size_t j = 0; json_is_array(registry) && j < registry->u.array.len; j++) {
            const json_t *r = registry->u.array.items[j];
            if (strcmp(json_string_value(json_object_get(r, "name")) ?: "", n)) continue;
            json_t *t = json_object();
            const json_t *params = json_object_get(r, "parameters");
            json_object_set(t, "name", json_string(n));
            json_object_set(t, "description", json_string(str_or_empty(r, "description")));
            json_object_set(t, "input_schema", json_is_object(params) ? json_copy(params) : json_object());
            json_array_push(tools, t);
            break;
        }
    }
    for (size_t k = 0; k < inline_tools->u.array.len; k++) json_array_push(tools, json_copy(inline_tools->u.array.items[k]));

    /* automatic cache marks: the heads always, the newest message when a follow-up is likely;
     * a mark the author placed is kept */
    const char *p = posture(opts);
    if (p) {
        if (has_system && !cache_system) cache_system = json_string(p);
        if (tools->u.array.len && !cache_tools) cache_tools = json_string(p);
        if ((messages->u.array.len >= 2 || tools->u.array.len) && messages->u.array.len) {
            json_t *last = messages->u.array.items[messages->u.array.len - 1];
            if (!json_object_get(last, "cache_control")) json_object_set(last, "cache_control", json_string(p));
        }
    }

    out = json_object();
    const json_t *model = json_object_get(opts, "model");
    json_object_set(out, "model", json_is_string(model) ? json_copy(model)
                                                        : json_string(model_fallback ? model_fallback : CONTEXT_DEFAULT_MODEL));
    json_object_set(out, "system", has_system ? json_stringn(system.data ? system.data : "", system.len) : json_null());
    json_object_set(out, "messages", messages);
    messages = NULL;
    json_object_set(out, "tools", tools);
    json_t *cache = json_object();
    json_object_set(cache, "system", cache_system ? cache_system : json_null());
    json_object_set(cache, "tools", cache_tools ? cache_tools : json_null());
    cache_system = cache_tools = NULL;
    json_object_set(out, "cache", cache);
    const json_t *mt = json_object_get(opts, "maxTokens");
    bool mt_ok = mt && mt->type == JSON_NUMBER && mt->u.number >= 0 && mt->u.number <= 9007199254740991.0 &&
                 mt->u.number == floor(mt->u.number);
    json_object_set(out, "max_tokens", json_number(mt_ok ? mt->u.number : 4096));
    const json_t *t = json_object_get(opts, "temperature");
    json_object_set(out, "temperature",
                    json_number(t && t->type == JSON_NUMBER ? t->u.number : CONTEXT_DEFAULT_TEMPERATURE));
fail:
    buf_free(&system);
    json_free(names);
    json_free(inline_tools);
    json_free(messages);
    json_free(cache_system);
    json_free(cache_tools);
    return out;
}

/* A float as the original prints one (Rust's shortest form: "0.7", "1.0", "1e21"). */
static void float_text(buf *b, double d)
{
    char num[40];
    json_format_number(d, num);
    if (!strcmp(num, "null")) {
        buf_puts(b, "null");
        return;
    }
    char *plus = strstr(num, "e+");
    if (plus) memmove(plus + 1, plus + 2, strlen(plus + 2) + 1);
    buf_puts(b, num);
    if (!strpbrk(num, ".e")) buf_puts(b, ".0");
}

static void put_sorted(buf *b, const json_t *v)
{
    size_t n;
    char *text = json_dump_sorted(v, &n);
    buf_append(b, text, n);
    free(text);
}

void context_request_digest(const json_t *original, char out[65])
{
    /* keys sorted: cache, max_tokens, messages, model, system, temperature, tools, v */
    buf b = {0};
    buf_puts(&b, "{\"cache\":");
    put_sorted(&b, json_object_get(original, "cache"));
    buf_puts(&b, ",\"max_tokens\":");
    put_sorted(&b, json_object_get(original, "max_tokens"));
    buf_puts(&b, ",\"messages\":");
    put_sorted(&b, json_object_get(original, "messages"));
    buf_puts(&b, ",\"model\":");
    put_sorted(&b, json_object_get(original, "model"));
    buf_puts(&b, ",\"system\":");
    put_sorted(&b, json_object_get(original, "system"));
    buf_puts(&b, ",\"temperature\":");
    float_text(&b, json_number_value(json_object_get(original, "temperature")));
    buf_puts(&b, ",\"tools\":");
    put_sorted(&b, json_object_get(original, "tools"));
    buf_puts(&b, ",\"v\":1}");
    sha256_hex(b.data, b.len, out);
    buf_free(&b);
}

/* ---- the neutral request (llm.h) ---- */

static json_t *neutral_message(const char *role, buf *text)
{
    json_t *m = json_object();
    json_object_set(m, "role", json_string(role));
    json_object_set(m, "content", json_stringn(text->data ? text->data : "", text->len));
    return m;
}

/* One original Message as neutral messages: a user message's text blocks as one user message,
 * each tool_result as a tool message; an assistant message as one message with its tool calls. */
static void push_neutral(json_t *out, const json_t *m)
{
    const char *role = json_string_value(json_object_get(m, "role")) ?: "user";
    const json_t *blocks = json_object_get(m, "content");
    size_t first = out->u.array.len;
    buf text = {0};
    bool pending = false;
    if (!strcmp(role, "assistant")) {
        json_t *calls = json_array();
        for (size_t i = 0; i < blocks->u.array.len; i++) {
            const json_t *b = blocks->u.array.items[i];
            const char *type = json_string_value(json_object_get(b, "type"));
            if (!strcmp(type, "text")) {
                buf_puts(&text, json_string_value(json_object_get(b, "text")));
            } else if (!strcmp(type, "tool_use")) {
                json_t *c = json_object();
                const json_t *input = json_object_get(b, "input");
                json_object_set(c, "id", json_copy(json_object_get(b, "id")));
                json_object_set(c, "name", json_copy(json_object_get(b, "name")));
                json_object_set(c, "input", json_is_object(input) ? json_copy(input) : json_object());
                json_array_push(calls, c);
            }
        }
        json_t *nm = neutral_message("assistant", &text);
        if (calls->u.array.len) json_object_set(nm, "toolCalls", calls);
        else json_free(calls);
        json_array_push(out, nm);
    } else {
        const char *as = !strcmp(role, "system") ? "system" : "user";
        for (size_t i = 0; i < blocks->u.array.len; i++) {
            const json_t *b = blocks->u.array.items[i];
            const char *type = json_string_value(json_object_get(b, "type"));
            if (!strcmp(type, "tool_result")) {
                if (pending) {
                    json_array_push(out, neutral_message(as, &text));
                    text.len = 0;
                    pending = false;
                }
                json_t *tm = json_object();
                json_object_set(tm, "role", json_string("tool"));
                json_object_set(tm, "toolCallId", json_copy(json_object_get(b, "tool_use_id")));
                json_object_set(tm, "content", json_copy(json_object_get(b, "content")));
                if (json_object_get(b, "is_error")->type == JSON_TRUE) json_object_set(tm, "isError", json_bool(true));
                json_array_push(out, tm);
            } else {
                const char *t = !strcmp(type, "text") ? json_string_value(json_object_get(b, "text")) : NULL;
                if (pending) buf_puts(&text, "\n");
                if (t) buf_puts(&text, t);
                else {
                    char *d = json_dump(b, JSON_COMPACT, NULL);
                    buf_puts(&text, d);
                    free(d);
                }
                pending = true;
            }
        }
        if (pending || out->u.array.len == first) json_array_push(out, neutral_message(as, &text));
    }
    buf_free(&text);
    const json_t *cc = json_object_get(m, "cache_control");
    if (cc) json_object_set(out->u.array.items[out->u.array.len - 1], "cache", json_copy(cc));
}

json_t *context_llm_request(const json_t *args, char **error)
{
    json_t *orig = context_original_request(json_object_get(args, "__context"), json_object_get(args, "__turns"),
                                            json_object_get(args, "__registry"), args, true, NULL, true, error);
    if (!orig) return NULL;
    json_t *req = json_object();
    json_t *msgs = json_array();
    const json_t *om = json_object_get(orig, "messages");
    for (size_t i = 0; i < om->u.array.len; i++) push_neutral(msgs, om->u.array.items[i]);
    json_object_set(req, "messages", msgs);
    const json_t *sys = json_object_get(orig, "system");
    if (json_is_string(sys)) json_object_set(req, "system", json_copy(sys));
    const json_t *model = json_object_get(args, "model");
    if (json_is_string(model)) json_object_set(req, "model", json_copy(model));
    const json_t *mt = json_object_get(args, "maxTokens");
    if (mt && mt->type == JSON_NUMBER) json_object_set(req, "maxTokens", json_copy(mt));
    const json_t *t = json_object_get(args, "temperature");
    if (t && t->type == JSON_NUMBER) json_object_set(req, "temperature", json_copy(t));
    const json_t *type = json_object_get(args, "type");
    if (json_is_string(type)) json_object_set(req, "type", json_copy(type));
    const json_t *ot = json_object_get(orig, "tools");
    if (ot->u.array.len) {
        json_t *tools = json_array();
        for (size_t i = 0; i < ot->u.array.len; i++) {
            const json_t *s = ot->u.array.items[i];
            json_t *n = json_object();
            json_object_set(n, "name", json_copy(json_object_get(s, "name")));
            json_object_set(n, "description", json_copy(json_object_get(s, "description")));
            json_object_set(n, "parameters", json_copy(json_object_get(s, "input_schema")));
            json_array_push(tools, n);
        }
        json_object_set(req, "tools", tools);
    }
    const json_t *cache = json_object_get(orig, "cache");
    const json_t *cs = json_object_get(cache, "system"), *ct = json_object_get(cache, "tools");
    if (json_is_string(cs)) json_object_set(req, "cacheSystem", json_copy(cs));
    if (json_is_string(ct)) json_object_set(req, "cacheTools", json_copy(ct));
    json_free(orig);
    return req;
}

/* ---- the record ---- */

bool context_result_is_response(const json_t *args)
{
    const json_t *turn = json_object_get(args, "turn");
    return !strcmp(json_string_value(json_object_get(args, "__mode")) ?: "", "respond") ||
           (turn && turn->type == JSON_NUMBER);
}

json_t *context_record_args(const json_t *args, const json_t *result)
{
    const json_t *segments = json_object_get(args, "__context");
    const json_t *model = json_object_get(args, "model");
    const json_t *answered = json_object_get(result, "model");
    const char *fallback = json_is_string(model) ? NULL : json_string_value(answered);
    char *ignored = NULL;
    json_t *orig = context_original_request(segments, json_object_get(args, "__turns"), json_object_get(args, "__registry"),
                                            args, true, fallback, false, &ignored);
    free(ignored);
    json_t *o = json_object();
    json_object_set(o, "model", json_is_string(model) ? json_copy(model) : fallback ? json_string(fallback) : json_null());
    const json_t *type = json_object_get(args, "type");
    json_object_set(o, "type", json_is_string(type) ? json_copy(type) : json_null());
    json_object_set(o, "tools", context_tool_names(segments, args, true));
    const json_t *turn = json_object_get(args, "turn");
    json_object_set(o, "turn", turn && turn->type == JSON_NUMBER ? json_copy(turn) : json_null());
    json_object_set(o, "context_segments", json_number(json_is_array(segments) ? (double)segments->u.array.len : 0));
    if (orig) {
        json_object_set(o, "max_tokens", json_copy(json_object_get(orig, "max_tokens")));
        json_object_set(o, "temperature", json_copy(json_object_get(orig, "temperature")));
        char hex[65];
        context_request_digest(orig, hex);
        json_object_set(o, "request_digest", json_string(hex));
        json_free(orig);
    } else {
        json_object_set(o, "max_tokens", json_number(4096));
        json_object_set(o, "temperature", json_number(CONTEXT_DEFAULT_TEMPERATURE));
        json_object_set(o, "request_digest", json_null());
    }
    return o;
}

/* llm_stream.c — streamed provider replies: the Server-Sent Events parser and the two
 * accumulators (OpenAI-compatible chunks, Anthropic message events) that turn a stream back into
 * the response a whole reply gives (see llm_internal.h).
 *
 * Owns: splitting provider bytes into events, reading each event's JSON, the text pieces handed
 * to the caller as they arrive, and rebuilding the non-streamed body at the end.
 * Trusts: NOTHING in the bytes. Every line and event is capped (max_event) and the stream as a
 * whole (max_total); each event is parsed with the same JSON limits as a whole reply; indices of
 * tool calls and content blocks are bounded; every field is type-checked before use. The rebuilt
 * body goes through the very parsers of a whole reply (llm_openai_parse, llm_anthropic_parse), so
 * the streamed response and the whole one cannot differ in shape or in checks.
 */
#include "host/llm_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---------- the SSE parser ---------- */

void llm_sse_init(llm_sse *p, size_t max_event, size_t max_total, llm_sse_event_fn *fn, void *ctx)
{
    memset(p, 0, sizeof *p);
    p->max_event = max_event ? max_event : LLM_DEFAULT_MAX_RESPONSE_BYTES;
    p->max_total = max_total ? max_total : LLM_DEFAULT_MAX_RESPONSE_BYTES;
    p->on_event = fn;
    p->ctx = ctx;
}

void llm_sse_free(llm_sse *p)
{
    buf_free(&p->line);
    buf_free(&p->data);
    buf_free(&p->event);
}

static int dispatch(llm_sse *p, char **error)
{
    int r = 0;
    if (p->has_data && p->on_event)
        r = p->on_event(p->ctx, p->event.len ? p->event.data : "", p->data.data ? p->data.data : "", p->data.len, error);
    p->data.len = 0;
    if (p->data.data) p->data.data[0] = 0;
    p->event.len = 0;
    if (p->event.data) p->event.data[0] = 0;
    p->has_data = false;
    return r;
}

/* One complete line (without its end). */
static int take_line(llm_sse *p, char **error)
{
    const char *l = p->line.data ? p->line.data : "";
    size_t n = p->line.len;
    int r = 0;
    if (n == 0) {
        r = dispatch(p, error);
    } else if (l[0] != ':') { /* ':' starts a comment */
        const char *colon = memchr(l, ':', n);
        size_t name_len = colon ? (size_t)(colon - l) : n;
        const char *value = colon ? colon + 1 : l + n;
        size_t value_len = colon ? n - name_len - 1 : 0;
        if (value_len && *value == ' ') value++, value_len--;
        if (name_len == 4 && !memcmp(l, "data", 4)) {
            if (p->has_data) buf_putc(&p->data, '\n');
            buf_append(&p->data, value, value_len);
            p->has_data = true;
            if (p->data.len > p->max_event) {
                *error = xasprintf("a streamed event is larger than the %zu-byte limit", p->max_event);
                r = -1;
            }
        } else if (name_len == 5 && !memcmp(l, "event", 5)) {
            p->event.len = 0;
            buf_append(&p->event, value, value_len);
        } /* id:, retry: and unknown fields are ignored */
    }
    p->line.len = 0;
    if (p->line.data) p->line.data[0] = 0;
    return r;
}

int llm_sse_feed(llm_sse *p, const char *bytes, size_t n, char **error)
{
    if (n > p->max_total || p->total > p->max_total - n) {
        *error = xasprintf("the streamed response is larger than the %zu-byte limit", p->max_total);
        return -1;
    }
    p->total += n;
    size_t i = 0;
    while (i < n) {
        char c = bytes[i];
        if (c == '\n' && p->last_cr) { /* the LF of a CRLF */
            p->last_cr = false;
            i++;
            continue;
        }
        p->last_cr = false;
        if (c == '\n' || c == '\r') {
            p->last_cr = c == '\r';
            if (take_line(p, error) < 0) return -1;
            i++;
            continue;
        }
        /* the rest of the line in one piece */
        size_t j = i;
        while (j < n && bytes[j] != '\n' && bytes[j] != '\r') j++;
        if (p->line.len + (j - i) > p->max_event) {
            *error = xasprintf("a streamed line is longer than the %zu-byte limit", p->max_event);
            return -1;
        }
        buf_append(&p->line, bytes + i, j - i);
        i = j;
    }
    return 0;
}

int llm_sse_finish(llm_sse *p, char **error)
{
    if (p->line.len && take_line(p, error) < 0) return -1;
    return dispatch(p, error);
}

/* ---------- the accumulators ---------- */

#define STREAM_MAX_PARTS 1024 /* tool calls (OpenAI) or content blocks (Anthropic) in one reply */

typedef struct part {
    long index;       /* the provider's index */
    char *type;       /* Anthropic: the block's type; OpenAI: NULL */
    buf id, name, text; /* text: a text block's text, or a tool call's arguments (JSON text) */
    json_t *input;    /* Anthropic: a tool_use block's input as content_block_start gave it */
} part;

struct llm_stream_acc {
    llm_wire wire;
    size_t max_bytes;
    void (*delta)(void *, const char *, size_t);
    void *ctx;
    size_t events;     /* events that parsed */
    bool started;      /* Anthropic: message_start seen */
    bool finished;     /* the provider said the reply is complete ([DONE], a finish or stop reason, message_stop) */
    buf text;          /* the reply's text in the order it arrived (Anthropic: of every text block) */
    buf reasoning;     /* OpenAI-compatible reasoning_content: kept, never told as a delta */
    json_t *id, *model, *stop, *usage; /* usage: an object, merged from the events */
    part *parts;
    size_t n_parts;
    bool told;         /* a piece of text went to the caller (delta) */
    bool for_now;      /* the stream's error says the provider is overloaded or rate-limited */
};

bool llm_stream_acc_refused_for_now(const llm_stream_acc *a) { return a && a->for_now && !a->told; }

llm_stream_acc *llm_stream_acc_new(llm_wire wire, size_t max_bytes, void (*delta)(void *, const char *, size_t), void *ctx)
{
    llm_stream_acc *a = xcalloc(1, sizeof *a);
    a->wire = wire;
    a->max_bytes = max_bytes ? max_bytes : LLM_DEFAULT_MAX_RESPONSE_BYTES;
    a->delta = delta;
    a->ctx = ctx;
    a->usage = json_object();
    return a;
}

void llm_stream_acc_free(llm_stream_acc *a)
{
    if (!a) return;
    for (size_t i = 0; i < a->n_parts; i++) {
        free(a->parts[i].type);
        buf_free(&a->parts[i].id);
        buf_free(&a->parts[i].name);
        buf_free(&a->parts[i].text);
        json_free(a->parts[i].input);
    }
    free(a->parts);
    buf_free(&a->text);
    buf_free(&a->reasoning);
    json_free(a->id);
    json_free(a->model);
    json_free(a->stop);
    json_free(a->usage);
    free(a);
}

static int fail(char **error, char *msg)
{
    *error = msg;
    return -1;
}

/* The part of that provider index, made when new; NULL with *error past STREAM_MAX_PARTS. */
static part *part_at(llm_stream_acc *a, const json_t *index, char **error)
{
    double d = json_number_value(index);
    long idx = index && index->type == JSON_NUMBER && d >= 0 && d < 1e9 ? (long)d : 0;
    for (size_t i = 0; i < a->n_parts; i++)
        if (a->parts[i].index == idx) return &a->parts[i];
    if (a->n_parts == STREAM_MAX_PARTS) {
        fail(error, xasprintf("the stream has more than %d tool calls or content blocks", STREAM_MAX_PARTS));
        return NULL;
    }
    a->parts = xrealloc(a->parts, (a->n_parts + 1) * sizeof *a->parts);
    part *p = &a->parts[a->n_parts++];
    memset(p, 0, sizeof *p);
    p->index = idx;
    return p;
}

static void keep(json_t **slot, const json_t *v)
{
    if (!v || v->type == JSON_NULL) return;
    json_free(*slot);
    *slot = json_copy(v);
}

static void merge_usage(llm_stream_acc *a, const json_t *u)
{
    if (!json_is_object(u)) return;
    for (size_t i = 0; i < u->u.object.len; i++) {
        const json_t *v = u->u.object.items[i].value;
        if (v && v->type != JSON_NULL) json_object_set(a->usage, u->u.object.items[i].key, json_copy(v));
    }
}

static void put_text(llm_stream_acc *a, buf *into, const json_t *t)
{
    if (!json_is_string(t) || t->u.string.len == 0) return;
    buf_append(into, t->u.string.bytes, t->u.string.len);
    if (a->delta) a->delta(a->ctx, t->u.string.bytes, t->u.string.len), a->told = true;
}

static void append_string(buf *b, const json_t *v)
{
    if (json_is_string(v)) buf_append(b, v->u.string.bytes, v->u.string.len);
}

/* An error event: the call fails with its message. One of the kinds a provider answers with HTTP
 * 429 or 529 when it says so before its 200 (Anthropic's overloaded_error, rate_limit_error, sent
 * as an event once the stream has started) is refused for now, as those statuses are. */
static int reported_error(llm_stream_acc *a, const json_t *err, char **error)
{
    const char *type = json_string_value(json_is_object(err) ? json_object_get(err, "type") : NULL);
    a->for_now = type && (!strcmp(type, "overloaded_error") || !strcmp(type, "rate_limit_error"));
    const json_t *m = json_is_object(err) ? json_object_get(err, "message") : err;
    char *ex = json_is_string(m) ? llm_excerpt(m->u.string.bytes, m->u.string.len, LLM_EXCERPT_BYTES) : xstrdup("(no message)");
    fail(error, xasprintf("the stream reports an error: %s", ex));
    free(ex);
    return -1;
}

static int openai_event(llm_stream_acc *a, const json_t *v, char **error)
{
    const json_t *err = json_object_get(v, "error");
    if (err && err->type != JSON_NULL) return reported_error(a, err, error);
    keep(&a->id, json_object_get(v, "id"));
    keep(&a->model, json_object_get(v, "model"));
    merge_usage(a, json_object_get(v, "usage"));
    const json_t *choices = json_object_get(v, "choices");
    if (!json_is_array(choices) || choices->u.array.len == 0) return 0;
    const json_t *c0 = choices->u.array.items[0];
    keep(&a->stop, json_object_get(c0, "finish_reason"));
    const json_t *d = json_object_get(c0, "delta");
    if (!json_is_object(d)) return 0;
    put_text(a, &a->text, json_object_get(d, "content"));
    append_string(&a->reasoning, json_object_get(d, "reasoning_content"));
    const json_t *calls = json_object_get(d, "tool_calls");
    if (!json_is_array(calls)) return 0;
    for (size_t i = 0; i < calls->u.array.len; i++) {
        const json_t *c = calls->u.array.items[i];
        if (!json_is_object(c)) continue;
        part *p = part_at(a, json_object_get(c, "index"), error);
        if (!p) return -1;
        append_string(&p->id, json_object_get(c, "id"));
        const json_t *fn = json_object_get(c, "function");
        append_string(&p->name, json_object_get(fn, "name"));
        append_string(&p->text, json_object_get(fn, "arguments"));
    }
    return 0;
}

static int anthropic_event(llm_stream_acc *a, const json_t *v, char **error)
{
    const char *type = json_string_value(json_object_get(v, "type"));
    if (!type) return 0;
    if (!strcmp(type, "error")) return reported_error(a, json_object_get(v, "error"), error);
    if (!strcmp(type, "message_start")) {
        const json_t *m = json_object_get(v, "message");
        a->started = true;
        keep(&a->id, json_object_get(m, "id"));
        keep(&a->model, json_object_get(m, "model"));
        keep(&a->stop, json_object_get(m, "stop_reason"));
        merge_usage(a, json_object_get(m, "usage"));
    } else if (!strcmp(type, "content_block_start")) {
        const json_t *b = json_object_get(v, "content_block");
        part *p = part_at(a, json_object_get(v, "index"), error);
        if (!p) return -1;
        const char *bt = json_string_value(json_object_get(b, "type"));
        if (bt && !p->type) p->type = xstrdup(bt);
        append_string(&p->id, json_object_get(b, "id"));
        append_string(&p->name, json_object_get(b, "name"));
        /* a text block's first text, only when the block is text (its first start named it): the
         * content is made of text blocks, and the deltas must be that content */
        if (bt && !strcmp(bt, "text") && !strcmp(p->type, "text")) put_text(a, &a->text, json_object_get(b, "text"));
        const json_t *input = json_object_get(b, "input");
        if (json_is_object(input) && input->u.object.len > 0) keep(&p->input, input);
    } else if (!strcmp(type, "content_block_delta")) {
        const json_t *d = json_object_get(v, "delta");
        part *p = part_at(a, json_object_get(v, "index"), error);
        if (!p) return -1;
        const char *dt = json_string_value(json_object_get(d, "type"));
        if (dt && !strcmp(dt, "text_delta")) {
            if (!p->type) p->type = xstrdup("text");
            if (!strcmp(p->type, "text")) put_text(a, &a->text, json_object_get(d, "text"));
        } else if (dt && !strcmp(dt, "input_json_delta")) {
            append_string(&p->text, json_object_get(d, "partial_json"));
        }
    } else if (!strcmp(type, "message_delta")) {
        keep(&a->stop, json_object_get(json_object_get(v, "delta"), "stop_reason"));
        merge_usage(a, json_object_get(v, "usage"));
    } else if (!strcmp(type, "message_stop")) {
        a->finished = true;
    } /* ping, content_block_stop and unknown events carry nothing we keep */
    return 0;
}

int llm_stream_acc_event(void *ctx, const char *event, const char *data, size_t len, char **error)
{
    llm_stream_acc *a = ctx;
    (void)event; /* the data's own "type" says the same, and is what the whole reply would carry */
    if (len == 6 && !memcmp(data, "[DONE]", 6)) {
        a->finished = true;
        return 0;
    }
    json_error jerr;
    json_t *v = llm_parse_limited(data, len, a->max_bytes, &jerr);
    if (!json_is_object(v)) { /* an unparseable frame is skipped, as providers' own clients do */
        json_free(v);
        return 0;
    }
    a->events++;
    int r = a->wire == LLM_WIRE_OPENAI ? openai_event(a, v, error) : anthropic_event(a, v, error);
    json_free(v);
    if (a->stop && a->stop->type != JSON_NULL) a->finished = true;
    return r;
}

static json_t *string_or_null(const buf *b) { return b->len ? json_stringn(b->data, b->len) : json_null(); }

/* The body a whole OpenAI reply would have been. */
static json_t *openai_body(llm_stream_acc *a)
{
    json_t *msg = json_object();
    json_object_set(msg, "role", json_string("assistant"));
    json_object_set(msg, "content", string_or_null(&a->text));
    if (a->reasoning.len) json_object_set(msg, "reasoning_content", json_stringn(a->reasoning.data, a->reasoning.len));
    if (a->n_parts) {
        json_t *calls = json_array();
        for (size_t i = 0; i < a->n_parts; i++) {
            part *p = &a->parts[i];
            json_t *fn = json_object();
            json_object_set(fn, "name", string_or_null(&p->name));
            json_object_set(fn, "arguments", json_stringn(p->text.data ? p->text.data : "", p->text.len));
            json_t *c = json_object();
            if (p->id.len) json_object_set(c, "id", json_stringn(p->id.data, p->id.len));
            json_object_set(c, "type", json_string("function"));
            json_object_set(c, "function", fn);
            json_array_push(calls, c);
        }
        json_object_set(msg, "tool_calls", calls);
    }
    json_t *c0 = json_object();
    json_object_set(c0, "index", json_number(0));
    json_object_set(c0, "message", msg);
    json_object_set(c0, "finish_reason", a->stop ? json_copy(a->stop) : json_null());
    json_t *choices = json_array();
    json_array_push(choices, c0);
    json_t *body = json_object();
    if (a->id) json_object_set(body, "id", json_copy(a->id));
    if (a->model) json_object_set(body, "model", json_copy(a->model));
    json_object_set(body, "choices", choices);
    json_object_set(body, "usage", json_copy(a->usage));
    return body;
}

/* The body a whole Anthropic reply would have been; NULL with *error for a tool_use whose
 * streamed input does not parse. The text of every text block, in the order it arrived, is one
 * block where the first was (the whole reply's parser concatenates them: the same content, and
 * exactly the deltas, even if a provider interleaved blocks). */
static json_t *anthropic_body(llm_stream_acc *a, char **error)
{
    json_t *content = json_array();
    bool text_placed = false;
    for (size_t i = 0; i < a->n_parts; i++) {
        part *p = &a->parts[i];
        if (!p->type) continue;
        if (!strcmp(p->type, "text") && text_placed) continue;
        json_t *b = json_object();
        json_object_set(b, "type", json_string(p->type));
        if (!strcmp(p->type, "text")) {
            json_object_set(b, "text", json_stringn(a->text.data ? a->text.data : "", a->text.len));
            text_placed = true;
        } else if (!strcmp(p->type, "tool_use")) {
            if (p->id.len) json_object_set(b, "id", json_stringn(p->id.data, p->id.len));
            if (p->name.len) json_object_set(b, "name", json_stringn(p->name.data, p->name.len));
            json_t *input;
            if (p->text.len) {
                json_error jerr;
                input = llm_parse_limited(p->text.data, p->text.len, a->max_bytes, &jerr);
                if (!input) {
                    char *n = llm_excerpt(p->name.data ? p->name.data : "", p->name.len, 80);
                    char *ex = llm_excerpt(p->text.data, p->text.len, 120);
                    *error = xasprintf("tool call \"%s\" has streamed input that is not valid JSON (%s at %d:%d): %s", n,
                                       jerr.message, jerr.line, jerr.col, ex);
                    free(n);
                    free(ex);
                    json_free(b);
                    json_free(content);
                    return NULL;
                }
            } else {
                input = p->input ? json_copy(p->input) : json_object();
            }
            json_object_set(b, "input", input);
        }
        json_array_push(content, b);
    }
    json_t *body = json_object();
    if (a->id) json_object_set(body, "id", json_copy(a->id));
    json_object_set(body, "type", json_string("message"));
    json_object_set(body, "role", json_string("assistant"));
    if (a->model) json_object_set(body, "model", json_copy(a->model));
    json_object_set(body, "content", content);
    json_object_set(body, "stop_reason", a->stop ? json_copy(a->stop) : json_null());
    json_object_set(body, "usage", json_copy(a->usage));
    return body;
}

int llm_stream_acc_finish(llm_stream_acc *a, const char *fallback_model, json_t **out, char **error)
{
    *out = NULL;
    if (a->events == 0) return fail(error, xstrdup("the stream ended before any event that parses"));
    if (a->wire == LLM_WIRE_ANTHROPIC && !a->started)
        return fail(error, xstrdup("the stream has no message_start event"));
    if (!a->finished) /* the connection ended cleanly, but the reply had not: no partial reply is recorded */
        return fail(error, xstrdup("the stream ended before the reply was complete (no finish reason)"));
    json_t *body = a->wire == LLM_WIRE_OPENAI ? openai_body(a) : anthropic_body(a, error);
    if (!body) return -1;
    size_t len;
    char *text = json_dump(body, JSON_COMPACT, &len);
    json_free(body);
    /* the rebuilt body is about the size of the stream's content; the stream itself was capped */
    size_t cap = a->max_bytes + a->max_bytes / 2 + 65536;
    int r = a->wire == LLM_WIRE_OPENAI ? llm_openai_parse(text, len, cap, fallback_model, out, error)
                                       : llm_anthropic_parse(text, len, cap, fallback_model, out, error);
    free(text);
    return r;
}

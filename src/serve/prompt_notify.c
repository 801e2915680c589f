/* prompt_notify.c — prompt events as NOTIFY payloads between nodes (see prompt_notify.h). Owns the
 * payload's format both ways; trusts the host's events when encoding, nothing when decoding. */
#include "serve/prompt_notify.h"
#include "util/buf.h"

#include <stdlib.h>
#include <string.h>

static const char *const TYPES[] = {"prompt_start", "prompt_delta", "prompt_end"};

static const char *known_type(const char *type)
{
    for (size_t i = 0; type && i < 3; i++)
        if (!strcmp(type, TYPES[i])) return TYPES[i];
    return NULL;
}

/* The largest cut <= at that does not split a UTF-8 sequence of s. */
static size_t utf8_cut(const char *s, size_t at)
{
    while (at > 0 && ((unsigned char)s[at] & 0xC0) == 0x80) at--;
    return at;
}

static void put_key(json_t *to, const json_t *from, const char *key)
{
    const json_t *v = json_object_get(from, key);
    if (v) json_object_set(to, key, json_copy(v));
}

/* The payload of one event (e borrowed): NULL when it does not fit. */
static char *payload_of(const char *node, const char *session, size_t records, int64_t attempt, const json_t *e)
{
    json_t *o = json_object();
    json_object_set(o, "a", json_number((double)attempt));
    json_object_set(o, "e", json_copy(e));
    json_object_set(o, "n", json_string(node));
    json_object_set(o, "r", json_number((double)records));
    json_object_set(o, "s", json_string(session));
    char *text = json_dump(o, JSON_COMPACT, NULL);
    json_free(o);
    if (text && strlen(text) > PROMPT_NOTIFY_MAX) free(text), text = NULL;
    return text;
}

/* Send a prompt_delta whose delta is bytes [0, len) of text, split in halves until each fits. */
static void send_delta(const char *node, const char *session, size_t records, int64_t attempt, json_t *e,
                       const char *text, size_t len, prompt_notify_send *send, void *ctx)
{
    char *piece = xmalloc(len + 1);
    memcpy(piece, text, len);
    piece[len] = 0;
    json_object_set(e, "delta", json_string(piece));
    free(piece);
    char *p = payload_of(node, session, records, attempt, e);
    if (p) {
        send(ctx, p);
        free(p);
        return;
    }
    size_t half = utf8_cut(text, len / 2);
    if (half == 0 || half >= len) return; /* the ids alone do not fit: nothing to send */
    send_delta(node, session, records, attempt, e, text, half, send, ctx);
    send_delta(node, session, records, attempt, e, text + half, len - half, send, ctx);
}

/* Cut a string member longer than PROMPT_NOTIFY_TEXT_MAX, marked with "…". */
static void cut_text(json_t *e, const char *key)
{
    const json_t *v = json_object_get(e, key);
    if (!json_is_string(v) || v->u.string.len <= PROMPT_NOTIFY_TEXT_MAX) return;
    size_t at = utf8_cut(v->u.string.bytes, PROMPT_NOTIFY_TEXT_MAX);
    char *cut = xasprintf("%.*s…", (int)at, v->u.string.bytes);
    json_object_set(e, key, json_string(cut));
    free(cut);
}

/* The event's known fields, and nothing else, under its known type: what is sent and what is kept
 * on receipt. */
static json_t *event_fields(const char *type, const json_t *from)
{
    json_t *e = json_object();
    json_object_set(e, "type", json_string(type));
    static const char *const keys[] = {"delta", "error", "model", "prompt_type", "seq", "stream_id"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) put_key(e, from, keys[i]);
    return e;
}

void prompt_notify_encode(const char *node, const char *session, size_t records, int64_t attempt,
                          const json_t *event, prompt_notify_send *send, void *ctx)
{
    const char *type = known_type(json_string_value(json_object_get(event, "type")));
    if (!type || strlen(node) > PROMPT_NOTIFY_ID_MAX || strlen(session) > PROMPT_NOTIFY_ID_MAX) return;
    json_t *e = event_fields(type, event);
    char *p = payload_of(node, session, records, attempt, e);
    if (p) {
        send(ctx, p);
        free(p);
    } else if (type == TYPES[1] && json_is_string(json_object_get(e, "delta"))) {
        const json_t *d = json_object_get(e, "delta");
        char *text = xmalloc(d->u.string.len + 1);
        memcpy(text, d->u.string.bytes, d->u.string.len);
        text[d->u.string.len] = 0;
        send_delta(node, session, records, attempt, e, text, d->u.string.len, send, ctx);
        free(text);
    } else {
        cut_text(e, "model");
        cut_text(e, "error");
        cut_text(e, "prompt_type");
        cut_text(e, "stream_id");
        p = payload_of(node, session, records, attempt, e);
        if (p) send(ctx, p);
        free(p);
    }
    json_free(e);
}

void prompt_notice_clear(prompt_notice *n)
{
    free(n->node);
    free(n->session);
    json_free(n->event);
    memset(n, 0, sizeof *n);
}

/* A whole number in [lo, hi]. */
static bool whole(const json_t *v, double lo, double hi, double *out)
{
    if (!v || v->type != JSON_NUMBER) return false;
    double d = json_number_value(v);
    if (!(d >= lo && d <= hi) || d != (double)(int64_t)d) return false;
    *out = d;
    return true;
}

static bool id_ok(const json_t *v)
{
    return json_is_string(v) && v->u.string.len > 0 && v->u.string.len <= PROMPT_NOTIFY_ID_MAX &&
           strlen(v->u.string.bytes) == v->u.string.len;
}

/* A string member, when present: a string (or null where null allowed). */
static bool text_ok(const json_t *e, const char *key, bool null_ok)
{
    const json_t *v = json_object_get(e, key);
    return !v || json_is_string(v) || (null_ok && v->type == JSON_NULL);
}

bool prompt_notify_decode(const char *payload, size_t len, prompt_notice *out)
{
    memset(out, 0, sizeof *out);
    if (!payload || len > PROMPT_NOTIFY_MAX + 1) return false;
    json_limits lim = {.max_bytes = PROMPT_NOTIFY_MAX + 1, .max_depth = 3, .max_values = 64};
    json_error err;
    json_t *o = json_parse(payload, len, &lim, &err);
    if (!json_is_object(o)) goto bad;
    const json_t *e = json_object_get(o, "e"), *n = json_object_get(o, "n"), *s = json_object_get(o, "s");
    double a, r, seq;
    if (!json_is_object(e) || !id_ok(n) || !id_ok(s)) goto bad;
    if (!whole(json_object_get(o, "a"), -1, 9007199254740991.0, &a)) goto bad;
    if (!whole(json_object_get(o, "r"), 0, 9007199254740991.0, &r)) goto bad;
    const char *type = known_type(json_string_value(json_object_get(e, "type")));
    if (!type || !whole(json_object_get(e, "seq"), 0, 9007199254740991.0, &seq)) goto bad;
    if (!json_is_string(json_object_get(e, "stream_id")) || !text_ok(e, "prompt_type", true) ||
        !text_ok(e, "model", true) || !text_ok(e, "error", true))
        goto bad;
    if (type == TYPES[1] && !json_is_string(json_object_get(e, "delta"))) goto bad;
    json_t *ev = event_fields(type, e);
    out->node = xstrdup(json_string_value(n));
    out->session = xstrdup(json_string_value(s));
    out->records = (size_t)r;
    out->attempt = (int64_t)a;
    out->event = ev;
    json_free(o);
    return true;
bad:
    json_free(o);
    return false;
}

/* mcp_proto.c — the MCP/JSON-RPC protocol engine without I/O: line framing of a server's stdout,
 * classification of each message, answers to the server's own requests, and the shaping of
 * tools/list and tools/call results.
 *
 * Owns: mcp_session (mcp.h) and the result shapes the hub hands out.
 * Trusts: NOTHING the server writes. Lines are capped (max_message_bytes) before they are
 * buffered whole, all bytes of one call are capped, JSON is parsed with json_parse limits, a
 * response counts only when its id is the request in flight, requests from the server get an
 * answer (ping → {}, anything else → -32601) so the server never waits on us, and the answers we
 * queue are capped too (a server that sends requests but never reads is a failure, not a hang).
 * It is driven from a buffer by tests/fuzz/fuzz_mcp.c.
 */
#include "host/mcp.h"
#include "util/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MCP_JSON_MAX_DEPTH 128

void mcp_limits_default(mcp_limits *l)
{
    l->max_message_bytes = (size_t)16 << 20;
    l->max_bytes_per_call = (size_t)64 << 20;
    l->max_pending_write = (size_t)4 << 20;
    l->max_list_pages = 100;
    l->max_tools = 10000;
    l->shutdown_grace_ms = 500;
}

void mcp_session_init(mcp_session *s, const char *name, const mcp_limits *limits)
{
    mcp_limits def;
    if (!limits) {
        mcp_limits_default(&def);
        limits = &def;
    }
    memset(s, 0, sizeof *s);
    s->name = xstrdup(name ? name : "?");
    s->max_message_bytes = limits->max_message_bytes;
    s->max_bytes_per_call = limits->max_bytes_per_call;
    s->max_pending_write = limits->max_pending_write;
    s->next_id = 1;
    s->waiting_id = -1;
}

void mcp_session_reset(mcp_session *s)
{
    free(s->in);
    free(s->out);
    json_free(s->response);
    json_free(s->rpc_error);
    free(s->error);
    s->in = s->out = NULL;
    s->in_len = s->in_cap = s->in_scanned = s->out_len = s->out_cap = 0;
    s->response = s->rpc_error = NULL;
    s->error = NULL;
    s->waiting_id = -1;
    s->bytes_this_call = 0;
}

void mcp_session_free(mcp_session *s)
{
    mcp_session_reset(s);
    free(s->name);
    s->name = NULL;
}

static void out_append(mcp_session *s, const char *data, size_t n)
{
    if (s->out_len + n + 1 > s->out_cap) {
        size_t cap = s->out_cap ? s->out_cap : 4096;
        while (cap < s->out_len + n + 1) cap *= 2;
        s->out = xrealloc(s->out, cap);
        s->out_cap = cap;
    }
    memcpy(s->out + s->out_len, data, n);
    s->out_len += n;
}

/* Messages we send are one line: json_dump escapes control characters, so no raw newline. */
static void send_message(mcp_session *s, json_t *msg)
{
    size_t n;
    char *text = json_dump(msg, JSON_COMPACT, &n);
    out_append(s, text, n);
    out_append(s, "\n", 1);
    free(text);
    json_free(msg);
}

void mcp_session_consumed(mcp_session *s, size_t n)
{
    if (n >= s->out_len) {
        s->out_len = 0;
        return;
    }
    memmove(s->out, s->out + n, s->out_len - n);
    s->out_len -= n;
}

int64_t mcp_session_request(mcp_session *s, const char *method, json_t *params)
{
    json_t *msg = json_object();
    json_object_set(msg, "jsonrpc", json_string("2.0"));
    int64_t id = s->next_id++;
    json_object_set(msg, "id", json_number((double)id));
    json_object_set(msg, "method", json_string(method));
    json_object_set(msg, "params", params ? params : json_object());
    send_message(s, msg);
    s->waiting_id = id;
    s->bytes_this_call = 0;
    json_free(s->response);
    json_free(s->rpc_error);
    s->response = s->rpc_error = NULL;
    return id;
}

void mcp_session_notify(mcp_session *s, const char *method, json_t *params)
{
    json_t *msg = json_object();
    json_object_set(msg, "jsonrpc", json_string("2.0"));
    json_object_set(msg, "method", json_string(method));
    if (params) json_object_set(msg, "params", params);
    send_message(s, msg);
}

static int fail(mcp_session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(mcp_session *s, const char *fmt, ...)
{
    if (!s->error) {
        buf b = {0};
        buf_printf(&b, "MCP server '%s' ", s->name);
        va_list ap;
        va_start(ap, fmt);
        buf_vprintf(&b, fmt, ap);
        va_end(ap);
        s->error = buf_steal(&b);
    }
    return MCP_FEED_FAIL;
}

/* A short, printable rendering of hostile bytes for an error message. */
static void put_excerpt(buf *b, const char *p, size_t n)
{
    size_t max = 80;
    buf_putc(b, '"');
    for (size_t i = 0; i < n && i < max; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') buf_putc(b, (char)c);
        else buf_printf(b, "\\x%02x", c);
    }
    buf_putc(b, '"');
    if (n > max) buf_printf(b, "... (%zu bytes)", n);
}

static void reply_error(mcp_session *s, const json_t *id, int code, const char *message)
{
    json_t *msg = json_object();
    json_object_set(msg, "jsonrpc", json_string("2.0"));
    json_object_set(msg, "id", id ? json_copy(id) : json_null());
    json_t *err = json_object();
    json_object_set(err, "code", json_number(code));
    json_object_set(err, "message", json_string(message));
    json_object_set(msg, "error", err);
    send_message(s, msg);
}

static bool valid_id(const json_t *id)
{
    return id && (id->type == JSON_STRING || id->type == JSON_NUMBER);
}

/* One complete line (without its newline). */
static int handle_line(mcp_session *s, const char *line, size_t n)
{
    if (n > 0 && line[n - 1] == '\r') n--;
    size_t i = 0;
    while (i < n && (line[i] == ' ' || line[i] == '\t')) i++;
    if (i == n) return MCP_FEED_MORE; /* blank line: harmless */

    json_limits lim = {s->max_message_bytes, MCP_JSON_MAX_DEPTH, 0};
    json_error jerr;
    json_t *msg = json_parse(line, n, &lim, &jerr);
    if (!msg) {
        buf b = {0};
        buf_printf(&b, "wrote a line that is not JSON (%d:%d: %s): ", jerr.line, jerr.col, jerr.message);
        put_excerpt(&b, line, n);
        int rc = fail(s, "%s", b.data);
        buf_free(&b);
        return rc;
    }
    int rc = MCP_FEED_MORE;
    if (msg->type == JSON_ARRAY) {
        rc = fail(s, "sent a JSON-RPC batch, which MCP does not use");
        goto out;
    }
    const char *ver = json_string_value(json_object_get(msg, "jsonrpc"));
    if (msg->type != JSON_OBJECT || !ver || strcmp(ver, "2.0") != 0) {
        buf b = {0};
        buf_puts(&b, "wrote a line that is not a JSON-RPC 2.0 message: ");
        put_excerpt(&b, line, n);
        rc = fail(s, "%s", b.data);
        buf_free(&b);
        goto out;
    }
    json_t *id = json_object_get(msg, "id");
    json_t *method = json_object_get(msg, "method");
    if (method) {
        const char *m = json_string_value(method);
        if (!id) { /* a notification: logging, progress, list_changed, cancelled … nothing to do */
            s->ignored++;
            goto out;
        }
        s->answered++;
        if (!valid_id(id) || !m) {
            reply_error(s, valid_id(id) ? id : NULL, -32600, "Invalid Request");
        } else if (strcmp(m, "ping") == 0 && method->u.string.len == 4) {
            json_t *r = json_object();
            json_object_set(r, "jsonrpc", json_string("2.0"));
            json_object_set(r, "id", json_copy(id));
            json_object_set(r, "result", json_object());
            send_message(s, r);
        } else {
            reply_error(s, id, -32601, "Method not found (this client offers no roots, sampling or elicitation)");
        }
        if (s->out_len > s->max_pending_write)
            rc = fail(s, "sent requests faster than it reads our answers (%zu bytes unread)", s->out_len);
        goto out;
    }
    /* A response. It is ours only when its id is the number of the request in flight. */
    json_t *result = json_object_get(msg, "result");
    json_t *error = json_object_get(msg, "error");
    bool ours = s->waiting_id >= 0 && id && id->type == JSON_NUMBER && id->u.number == (double)s->waiting_id;
    if (!ours) {
        if (s->waiting_id >= 0 && id && id->type == JSON_NULL && error) {
            /* The server could not read a request of ours at all (parse error): it is about the
             * one in flight, since we send one at a time. */
            const char *em = json_string_value(json_object_get(error, "message"));
            buf b = {0};
            put_excerpt(&b, em ? em : "", em ? strlen(em) : 0);
            rc = fail(s, "rejected our request: error %s %s", "(id null)", b.data);
            buf_free(&b);
            goto out;
        }
        s->ignored++; /* stale (a timed-out request) or unknown: skip */
        goto out;
    }
    if ((result != NULL) == (error != NULL)) {
        rc = fail(s, "sent a response with %s", result ? "both result and error" : "neither result nor error");
        goto out;
    }
    if (result) {
        s->response = json_copy(result);
    } else {
        if (error->type != JSON_OBJECT) {
            rc = fail(s, "sent an error response whose error is not an object");
            goto out;
        }
        s->rpc_error = json_copy(error);
    }
    s->waiting_id = -1;
    rc = MCP_FEED_DONE;
out:
    json_free(msg);
    return rc;
}

int mcp_session_feed(mcp_session *s, const char *data, size_t len)
{
    if (s->error) return MCP_FEED_FAIL;
    s->bytes_this_call += len;
    if (s->waiting_id >= 0 && s->bytes_this_call > s->max_bytes_per_call)
        return fail(s, "wrote more than %zu bytes without answering", s->max_bytes_per_call);
    /* Append, then take complete lines. Bytes after a DONE stay buffered. */
    if (s->in_len + len + 1 > s->in_cap) {
        size_t cap = s->in_cap ? s->in_cap : 65536;
        while (cap < s->in_len + len + 1) cap *= 2;
        s->in = xrealloc(s->in, cap);
        s->in_cap = cap;
    }
    if (len) memcpy(s->in + s->in_len, data, len);
    s->in_len += len;

    size_t start = 0;
    int rc = MCP_FEED_MORE;
    size_t scan = s->in_scanned; /* no newline before this offset */
    while (rc == MCP_FEED_MORE) {
        if (scan < start) scan = start;
        char *nl = s->in_len > scan ? memchr(s->in + scan, '\n', s->in_len - scan) : NULL;
        if (!nl) {
            scan = s->in_len;
            break;
        }
        size_t n = (size_t)(nl - (s->in + start));
        if (n > s->max_message_bytes) {
            rc = fail(s, "wrote a message larger than %zu bytes", s->max_message_bytes);
            break;
        }
        rc = handle_line(s, s->in + start, n);
        start += n + 1;
    }
    if (rc != MCP_FEED_FAIL && s->in_len - start > s->max_message_bytes)
        rc = fail(s, "wrote a message larger than %zu bytes", s->max_message_bytes);
    if (scan < start) scan = start;
    s->in_scanned = rc == MCP_FEED_MORE ? scan - start : 0;
    if (start > 0) {
        memmove(s->in, s->in + start, s->in_len - start);
        s->in_len -= start;
    }
    /* Keep a huge buffer from lingering after one big message. */
    if (s->in_cap > ((size_t)1 << 20) && s->in_len < 65536) {
        size_t cap = 65536;
        s->in = xrealloc(s->in, cap);
        s->in_cap = cap;
    }
    return rc;
}

void mcp_session_eof(mcp_session *s, const char *why)
{
    if (s->in_len > 0) fail(s, "%s (after a partial line of %zu bytes)", why, s->in_len);
    else fail(s, "%s", why);
}

/* ---- Result shaping ---- */

json_t *mcp_shape_call_result(const json_t *result, char **error)
{
    *error = NULL;
    if (!json_is_object(result)) {
        *error = xstrdup("tools/call result is not an object");
        return NULL;
    }
    const json_t *content = json_object_get(result, "content");
    const json_t *is_error = json_object_get(result, "isError");
    const json_t *structured = json_object_get(result, "structuredContent");
    if (!json_is_array(content)) {
        *error = xstrdup("tools/call result has no content array");
        return NULL;
    }
    for (size_t i = 0; i < content->u.array.len; i++) {
        const json_t *item = content->u.array.items[i];
        if (!json_is_object(item) || !json_is_string(json_object_get(item, "type"))) {
            *error = xasprintf("tools/call result content[%zu] is not an object with a string \"type\"", i);
            return NULL;
        }
    }
    if (is_error && is_error->type != JSON_TRUE && is_error->type != JSON_FALSE && is_error->type != JSON_NULL) {
        *error = xstrdup("tools/call result isError is not a boolean");
        return NULL;
    }
    if (structured && structured->type != JSON_NULL && !json_is_object(structured)) {
        *error = xstrdup("tools/call result structuredContent is not an object");
        return NULL;
    }
    json_t *out = json_object();
    json_object_set(out, "content", json_copy(content));
    json_object_set(out, "isError", json_bool(is_error && is_error->type == JSON_TRUE));
    if (json_is_object(structured)) json_object_set(out, "structuredContent", json_copy(structured));
    return out;
}

static bool valid_tool_name(const json_t *v)
{
    if (!json_is_string(v) || v->u.string.len == 0 || v->u.string.len > 128) return false;
    for (size_t i = 0; i < v->u.string.len; i++) {
        char c = v->u.string.bytes[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
              c == '.'))
            return false;
    }
    return true;
}

int mcp_collect_tools(const char *server, const json_t *result, json_t *tools, size_t max_tools, char **next_cursor,
                      buf *notes, char **error)
{
    *next_cursor = NULL;
    *error = NULL;
    const json_t *list = json_object_get(result, "tools");
    if (!json_is_object(result) || !json_is_array(list)) {
        *error = xstrdup("tools/list result has no tools array");
        return -1;
    }
    for (size_t i = 0; i < list->u.array.len; i++) {
        const json_t *t = list->u.array.items[i];
        const json_t *name = json_object_get(t, "name");
        if (!json_is_object(t) || !valid_tool_name(name)) {
            if (notes) {
                buf_printf(notes, "mcp[%s]: skipping tool ", server);
                if (json_is_string(name)) put_excerpt(notes, name->u.string.bytes, name->u.string.len);
                else buf_puts(notes, "(no name)");
                buf_puts(notes, ": its name is not 1-128 of [A-Za-z0-9_.-]\n");
            }
            continue;
        }
        if (tools->u.array.len >= max_tools) {
            *error = xasprintf("tools/list returned more than %zu tools", max_tools);
            return -1;
        }
        const json_t *desc = json_object_get(t, "description");
        const json_t *schema = json_object_get(t, "inputSchema");
        json_t *o = json_object();
        char *qualified = xasprintf("%s__%s", server, name->u.string.bytes);
        json_object_set(o, "name", json_string(qualified));
        free(qualified);
        json_object_set(o, "description", json_is_string(desc) ? json_copy(desc) : json_string(""));
        if (json_is_object(schema)) {
            json_object_set(o, "inputSchema", json_copy(schema));
        } else {
            json_t *def = json_object();
            json_object_set(def, "type", json_string("object"));
            json_object_set(o, "inputSchema", def);
        }
        json_array_push(tools, o);
    }
    const json_t *cursor = json_object_get(result, "nextCursor");
    if (cursor && cursor->type != JSON_NULL) {
        if (!json_is_string(cursor) || memchr(cursor->u.string.bytes, 0, cursor->u.string.len)) {
            *error = xstrdup("tools/list nextCursor is not a string");
            return -1;
        }
        if (cursor->u.string.len > 0) *next_cursor = xstrdup(cursor->u.string.bytes);
    }
    return 0;
}

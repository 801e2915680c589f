/* otel.c — the spans of a run (see otel.h): the run span, one span per recorded call made from
 * its record (GenAI chat / execute_tool / invoke_agent, MCP tools/call, HTTP client, or the op's
 * name), nested agents under their call_agent span. Serialized to OTLP/JSON when they end, on the
 * run's thread, and handed to the exporter (otel_export.c).
 *
 * Owns: each run's span state (trace id, run span id, the span ids of open call_agent calls).
 * Trusts: nothing in the records (agent-chosen strings are capped and escaped by the JSON
 * writer); prompt text, tool arguments and bodies are never read into a span.
 */
#define _GNU_SOURCE
#include "telemetry/otel.h"
#include "telemetry/otel_internal.h"
#include "host/calllog.h"
#include "host/record_form.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/json.h"
#include "util/random.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OPEN_AGENTS 64

static void hex_id(char *out, size_t bytes)
{
    unsigned char raw[16];
    do random_bytes(raw, bytes);
    while (!memcmp(raw, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", bytes));
    for (size_t i = 0; i < bytes; i++) sprintf(out + 2 * i, "%02x", raw[i]);
}

bool otel_traceparent_valid(const char *tp)
{
    if (!tp || strlen(tp) != 55) return false;
    for (int i = 0; i < 55; i++) {
        bool dash = i == 2 || i == 35 || i == 52;
        if (dash ? tp[i] != '-' : !((tp[i] >= '0' && tp[i] <= '9') || (tp[i] >= 'a' && tp[i] <= 'f'))) return false;
    }
    if (!strncmp(tp, "ff", 2)) return false;
    if (!strncmp(tp + 3, "00000000000000000000000000000000", 32)) return false;
    if (!strncmp(tp + 36, "0000000000000000", 16)) return false;
    return true;
}

struct otel_run {
    char trace_id[33], span_id[17], parent_id[17];
    char *name, *agent, *run_id;
    int64_t start_ms;
    struct {
        uint64_t seq;
        char id[17];
    } open[MAX_OPEN_AGENTS];
    size_t n_open;
};

otel_run *otel_run_begin(const char *agent, const char *run_id, const char *traceparent)
{
    if (!otel_enabled()) return NULL;
    otel_run *r = xcalloc(1, sizeof *r);
    if (otel_traceparent_valid(traceparent)) {
        memcpy(r->trace_id, traceparent + 3, 32);
        memcpy(r->parent_id, traceparent + 36, 16);
    } else {
        hex_id(r->trace_id, 16);
    }
    hex_id(r->span_id, 8);
    r->agent = xstrdup(agent ? agent : "agent");
    r->run_id = run_id ? xstrdup(run_id) : NULL;
    r->start_ms = clock_realtime_ms();
    return r;
}

/* The span id of an open call_agent call (made the first time a nested record names it). */
static const char *open_id(otel_run *r, uint64_t seq, bool take)
{
    for (size_t i = 0; i < r->n_open; i++)
        if (r->open[i].seq == seq) {
            static _Thread_local char kept[17];
            if (!take) return r->open[i].id;
            memcpy(kept, r->open[i].id, 17);
            r->open[i] = r->open[--r->n_open];
            return kept;
        }
    if (take || r->n_open == MAX_OPEN_AGENTS) return NULL;
    r->open[r->n_open].seq = seq;
    hex_id(r->open[r->n_open].id, 8);
    return r->open[r->n_open++].id;
}

static char *ns_text(int64_t ms, double extra_ms)
{
    long double ns = (long double)ms * 1000000.0L + (long double)extra_ms * 1000000.0L;
    if (ns < 0) ns = 0;
    return xasprintf("%llu", (unsigned long long)ns);
}

static void finish_span(otel_run *r, const char *id, const char *parent, const char *name, int kind, int64_t start_ms,
                        double duration_ms, json_t *attrs, const char *error, const char *error_type)
{
    if (r->run_id) otel_attr_str(attrs, "chidori.run_id", r->run_id);
    json_t *s = json_object();
    json_object_set(s, "traceId", json_string(r->trace_id));
    json_object_set(s, "spanId", json_string(id));
    if (parent && *parent) json_object_set(s, "parentSpanId", json_string(parent));
    size_t n = strlen(name);
    json_object_set(s, "name", json_stringn(name, n > 256 ? 256 : n));
    json_object_set(s, "kind", json_number(kind));
    char *t0 = ns_text(start_ms, 0), *t1 = ns_text(start_ms, duration_ms);
    json_object_set(s, "startTimeUnixNano", json_string(t0));
    json_object_set(s, "endTimeUnixNano", json_string(t1));
    free(t0);
    free(t1);
    json_t *status = json_object();
    if (error) {
        otel_attr_str(attrs, "error.type", error_type ? error_type : "_OTHER");
        json_object_set(status, "code", json_number(2));
        size_t m = strlen(error);
        json_object_set(status, "message", json_stringn(error, m > OTEL_ATTR_TEXT_MAX ? OTEL_ATTR_TEXT_MAX : m));
    }
    json_object_set(s, "attributes", attrs);
    json_object_set(s, "status", status);
    otel_enqueue(json_dump(s, JSON_COMPACT, NULL));
    json_free(s);
}

static const char *str_at(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s && *s ? s : NULL;
}

static void http_attrs(json_t *attrs, const json_t *args, const json_t *result, char **name)
{
    const char *method = str_at(args, "method");
    *name = xstrdup(method ? method : "GET");
    for (char *p = *name; *p; p++) *p = (char)toupper((unsigned char)*p);
    otel_attr_str(attrs, "http.request.method", *name);
    const char *url = str_at(args, "url");
    if (url) {
        /* the address without its query, fragment or credentials: those may hold secrets */
        const char *scheme_end = strstr(url, "://");
        const char *host = scheme_end ? scheme_end + 3 : url;
        const char *path = host + strcspn(host, "/?#");
        const char *at = memchr(host, '@', (size_t)(path - host));
        if (at) host = at + 1;
        size_t path_len = strcspn(path, "?#");
        char *full = xasprintf("%.*s%.*s%.*s", scheme_end ? (int)(scheme_end + 3 - url) : 0, url, (int)(path - host),
                               host, (int)path_len, path);
        otel_attr_str(attrs, "url.full", full);
        free(full);
        const char *hend = path;
        const char *colon = NULL;
        if (*host == '[') {
            const char *rb = memchr(host, ']', (size_t)(path - host));
            if (rb && rb + 1 < path && rb[1] == ':') colon = rb + 1;
        } else {
            colon = memchr(host, ':', (size_t)(path - host));
        }
        char *addr = xasprintf("%.*s", (int)((colon ? colon : hend) - host), host);
        otel_attr_str(attrs, "server.address", addr);
        free(addr);
        long port = colon ? strtol(colon + 1, NULL, 10) : (!strncmp(url, "https", 5) ? 443 : 80);
        otel_attr_int(attrs, "server.port", port);
    }
    const json_t *st = json_object_get(result, "status");
    if (st && st->type == JSON_NUMBER) otel_attr_int(attrs, "http.response.status_code", (int64_t)st->u.number);
}

/* The MCP client span of a tool call, under its execute_tool span: `tools/call {tool}`, the tool
 * as its server names it (after `<server>__`). */
static void mcp_span(otel_run *r, const char *parent, const call_record *rec, const char *tool_failed, bool replayed)
{
    const char *full = str_at(call_record_args(rec), "name");
    const char *sep = strstr(full, "__");
    const char *tool = sep && sep[2] ? sep + 2 : full;
    char id[17];
    hex_id(id, 8);
    json_t *attrs = json_array();
    otel_attr_str(attrs, "mcp.method.name", "tools/call");
    otel_attr_str(attrs, "gen_ai.operation.name", "execute_tool");
    otel_attr_str(attrs, "gen_ai.tool.name", tool);
    if (sep) {
        char *server = xasprintf("%.*s", (int)(sep - full), full);
        otel_attr_str(attrs, "chidori.mcp.server", server);
        free(server);
    }
    otel_attr_str(attrs, "chidori.function", "tool");
    otel_attr_int(attrs, "chidori.seq", (int64_t)rec->seq);
    if (replayed) otel_attr_bool(attrs, "chidori.replayed", true);
    char *name = xasprintf("tools/call %s", tool);
    finish_span(r, id, parent, name, 3, rec->timestamp_ms, rec->duration_ms, attrs,
                rec->error ? rec->error : tool_failed, rec->error ? "_OTHER" : "tool_error");
    free(name);
}

void otel_run_call(otel_run *r, const call_record *rec, bool replayed)
{
    if (!r || !rec) return;
    const char *fn = rec->function;
    const char *parent = rec->parent_seq ? open_id(r, rec->parent_seq, false) : NULL;
    if (!parent) parent = r->span_id;
    char parent_copy[17] = {0};
    memcpy(parent_copy, parent, 16); /* before open_id(take) below moves entries */
    const char *id = NULL;
    char fresh[17];
    if (!strcmp(fn, "call_agent")) id = open_id(r, rec->seq, true); /* its nested spans named it already */
    if (!id) {
        hex_id(fresh, 8);
        id = fresh;
    }
    char own_id[17];
    memcpy(own_id, id, 17);
    json_t *attrs = json_array();
    char *name = NULL;
    int kind = 1; /* INTERNAL */
    const char *error_type = NULL;
    bool mcp_call = false;
    /* what the agent saw: a record in the original's shape is read back through its form */
    json_t *seen = NULL;
    if (!rec->legacy && !rec->error && !strcmp(fn, "prompt")) seen = prompt_record_form.decode(rec);
    if (!rec->legacy && !rec->error && !strcmp(fn, "tool")) seen = tool_record_form.decode(rec);
    const json_t *result = seen ? seen : rec->result;
    const json_t *request = json_object_get(call_record_args(rec), "request"); /* ours: the request as sent */
    if (!strcmp(fn, "prompt")) {
        const char *model = str_at(result, "model");
        const char *asked = str_at(request ? request : call_record_args(rec), "model");
        const char *provider = str_at(result, "provider");
        name = xasprintf("chat %s", asked ? asked : model ? model : ""); /* the requested model names it */
        if (!model && !asked) name[4] = 0;
        kind = 3; /* CLIENT */
        otel_attr_str(attrs, "gen_ai.operation.name", "chat");
        if (provider) otel_attr_str(attrs, "gen_ai.provider.name", provider);
        if (asked || model) otel_attr_str(attrs, "gen_ai.request.model", asked ? asked : model);
        if (model) otel_attr_str(attrs, "gen_ai.response.model", model);
        const json_t *u = json_object_get(result, "usage");
        static const char *const usage_keys[][2] = {
            {"inputTokens", "gen_ai.usage.input_tokens"},
            {"outputTokens", "gen_ai.usage.output_tokens"},
            {"cacheReadTokens", "gen_ai.usage.cache_read.input_tokens"},
            {"cacheCreationTokens", "gen_ai.usage.cache_creation.input_tokens"},
        };
        for (size_t i = 0; i < sizeof usage_keys / sizeof usage_keys[0]; i++) {
            const json_t *v = json_object_get(u, usage_keys[i][0]);
            if (v && v->type == JSON_NUMBER && v->u.number >= 0 && v->u.number < 9.0e15)
                otel_attr_int(attrs, usage_keys[i][1], (int64_t)v->u.number);
        }
        const char *stop = str_at(result, "stopReason");
        if (stop) otel_attr_strs(attrs, "gen_ai.response.finish_reasons", stop);
        const char *rid = str_at(result, "id");
        if (rid) otel_attr_str(attrs, "gen_ai.response.id", rid);
    } else if (!strcmp(fn, "tool")) {
        const char *tool = str_at(call_record_args(rec), "name");
        name = xasprintf("execute_tool %s", tool ? tool : "");
        otel_attr_str(attrs, "gen_ai.operation.name", "execute_tool");
        if (tool) otel_attr_str(attrs, "gen_ai.tool.name", tool);
        mcp_call = tool != NULL;
    } else if (!strcmp(fn, "http")) {
        kind = 3;
        http_attrs(attrs, call_record_args(rec), rec->result, &name);
    } else if (!strcmp(fn, "call_agent")) {
        const char *path = str_at(call_record_args(rec), "path");
        name = xasprintf("invoke_agent %s", path ? path : "");
        otel_attr_str(attrs, "gen_ai.operation.name", "invoke_agent");
        if (path) otel_attr_str(attrs, "gen_ai.agent.name", path);
    } else {
        name = xstrdup(fn);
    }
    otel_attr_str(attrs, "chidori.function", fn);
    otel_attr_int(attrs, "chidori.seq", (int64_t)rec->seq);
    if (replayed) otel_attr_bool(attrs, "chidori.replayed", true);
    if (rec->error) error_type = !strncmp(rec->error, "denied", 6) || strstr(rec->error, "policy") ? "chidori.denied" : "_OTHER";
    /* a tool that answered isError failed, though the call itself succeeded (MCP conventions) */
    const json_t *is_error = !strcmp(fn, "tool") ? json_object_get(result, "isError") : NULL;
    const char *tool_failed = is_error && is_error->type == JSON_TRUE ? "the tool reported an error (isError)" : NULL;
    finish_span(r, own_id, parent_copy, name, kind, rec->timestamp_ms, rec->duration_ms, attrs,
                rec->error ? rec->error : tool_failed, rec->error ? error_type : "tool_error");
    free(name);
    if (mcp_call) mcp_span(r, own_id, rec, tool_failed, replayed);
    json_free(seen);
}

void otel_run_end(otel_run *r, const char *error)
{
    if (!r) return;
    json_t *attrs = json_array();
    otel_attr_str(attrs, "gen_ai.operation.name", "invoke_agent");
    otel_attr_str(attrs, "gen_ai.agent.name", r->agent);
    otel_attr_int(attrs, "chidori.seq", 0);
    char *name = xasprintf("invoke_agent %s", r->agent);
    finish_span(r, r->span_id, r->parent_id, name, 1, r->start_ms, (double)(clock_realtime_ms() - r->start_ms), attrs,
                error, "chidori.run_failed");
    free(name);
    free(r->agent);
    free(r->run_id);
    free(r);
}

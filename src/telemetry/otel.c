/* otel.c — the trace exporter and the spans of a run (see otel.h).
 *
 * Owns: the process's one exporter (its settings, queue, thread and counters) and each run's span
 * state (trace id, run span id, the span ids of open call_agent calls). Spans are serialized to
 * OTLP/JSON when they end, on the run's thread; the exporter thread only joins and posts them.
 * Trusts: nothing in the records it reads (agent-chosen strings are capped and escaped by the
 * JSON writer); the operator's settings, checked in otel_start.
 */
#define _GNU_SOURCE
#include "telemetry/otel.h"
#include "host/calllog.h"
#include "settings/settings.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/curl_lazy.h"
#include "util/json.h"
#include "util/random.h"

#include <ctype.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define QUEUE_CAP 2048      /* spans waiting; more are dropped and counted */
#define BATCH_MAX 512       /* spans in one post */
#define BATCH_WAIT_MS 1000  /* a partial batch waits at most this long */
#define POST_TIMEOUT_MS 1500
#define SHUTDOWN_WAIT_MS 2000
#define ATTR_TEXT_MAX 1024  /* an attribute's text is cut here */
#define MAX_OPEN_AGENTS 64
#define PAIRS_MAX 65536   /* OTEL_EXPORTER_OTLP_HEADERS, OTEL_RESOURCE_ATTRIBUTES */

static struct {
    bool on;
    char *url;
    struct curl_slist *headers;
    char *resource_json; /* {"attributes":[...]} */
    pthread_mutex_t mu;
    pthread_cond_t cv, done_cv;
    char *queue[QUEUE_CAP];
    size_t head, len;
    bool stopping, finished;
    pthread_t thread;
    atomic_uint_fast64_t dropped, failed, sent;
} X = {.mu = PTHREAD_MUTEX_INITIALIZER}; /* the condition variables: otel_start (monotonic waits) */

bool otel_enabled(void) { return X.on; }
uint64_t otel_dropped(void) { return atomic_load(&X.dropped); }
uint64_t otel_failed(void) { return atomic_load(&X.failed); }

/* ---- settings ---- */

static int hexval(int c) { return isdigit(c) ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1; }

static char *pct_decode(const char *s, size_t n)
{
    buf b = {0};
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '%' && i + 2 < n && hexval((unsigned char)s[i + 1]) >= 0 &&
            hexval((unsigned char)s[i + 2]) >= 0) {
            buf_putc(&b, (char)(hexval((unsigned char)s[i + 1]) * 16 + hexval((unsigned char)s[i + 2])));
            i += 2;
        } else {
            buf_putc(&b, s[i]);
        }
    }
    buf_putc(&b, 0);
    return b.data;
}

static void trim(const char **s, const char **e)
{
    while (*s < *e && isspace((unsigned char)**s)) (*s)++;
    while (*e > *s && isspace((unsigned char)(*e)[-1])) (*e)--;
}

/* "k=v,k2=v2" → calls each(key, value) with both percent-decoded and trimmed. -1 with *error on an
 * entry without '=' or with an empty key. */
static int parse_pairs(const char *var, const char *text, int (*each)(const char *, const char *, void *, char **),
                       void *ctx, char **error)
{
    if (strlen(text) > PAIRS_MAX) {
        *error = xasprintf("%s: more than %d bytes", var, PAIRS_MAX);
        return -1;
    }
    const char *p = text;
    while (*p) {
        const char *end = strchr(p, ',');
        if (!end) end = p + strlen(p);
        const char *eq = memchr(p, '=', (size_t)(end - p));
        const char *ks = p, *ke = eq ? eq : end;
        trim(&ks, &ke);
        if (ks == ke && !eq && end > p) { /* an empty entry (",,") is skipped */
            const char *a = p, *b2 = end;
            trim(&a, &b2);
            if (a != b2) goto bad;
        } else if (ks != ke || eq) {
            if (!eq || ks == ke) goto bad;
            const char *vs = eq + 1, *ve = end;
            trim(&vs, &ve);
            char *k = pct_decode(ks, (size_t)(ke - ks)), *v = pct_decode(vs, (size_t)(ve - vs));
            int r = each(k, v, ctx, error);
            free(k);
            free(v);
            if (r) return -1;
        }
        p = *end ? end + 1 : end;
    }
    return 0;
bad:
    *error = xasprintf("%s: every entry must be key=value, comma-separated (e.g. api-key=secret,team=ml)", var);
    return -1;
}

static int count_header(const char *k, const char *v, void *ctx, char **error);

static int add_header(const char *k, const char *v, void *ctx, char **error)
{
    int unused = 0;
    if (count_header(k, v, &unused, error) != 0) return -1;
    char *line = xasprintf("%s: %s", k, v);
    *(struct curl_slist **)ctx = curl_slist_append(*(struct curl_slist **)ctx, line);
    free(line);
    return 0;
}

static void attr_str(json_t *attrs, const char *key, const char *value)
{
    json_t *a = json_object(), *v = json_object();
    size_t n = strlen(value);
    json_object_set(v, "stringValue", json_stringn(value, n > ATTR_TEXT_MAX ? ATTR_TEXT_MAX : n));
    json_object_set(a, "key", json_string(key));
    json_object_set(a, "value", v);
    json_array_push(attrs, a);
}

static void attr_int(json_t *attrs, const char *key, int64_t value)
{
    json_t *a = json_object(), *v = json_object();
    char num[32];
    snprintf(num, sizeof num, "%lld", (long long)value);
    json_object_set(v, "intValue", json_string(num)); /* int64 is a string in OTLP/JSON */
    json_object_set(a, "key", json_string(key));
    json_object_set(a, "value", v);
    json_array_push(attrs, a);
}

static void attr_bool(json_t *attrs, const char *key, bool value)
{
    json_t *a = json_object(), *v = json_object();
    json_object_set(v, "boolValue", json_bool(value));
    json_object_set(a, "key", json_string(key));
    json_object_set(a, "value", v);
    json_array_push(attrs, a);
}

static void attr_strs(json_t *attrs, const char *key, const char *one)
{
    json_t *a = json_object(), *v = json_object(), *arr = json_object(), *vals = json_array(), *s = json_object();
    json_object_set(s, "stringValue", json_string(one));
    json_array_push(vals, s);
    json_object_set(arr, "values", vals);
    json_object_set(v, "arrayValue", arr);
    json_object_set(a, "key", json_string(key));
    json_object_set(a, "value", v);
    json_array_push(attrs, a);
}

static int add_resource(const char *k, const char *v, void *ctx, char **error)
{
    if (strcmp(k, "service.name") != 0) attr_str(ctx, k, v); /* OTEL_SERVICE_NAME wins */
    return 0;
}

static int count_pair(const char *k, const char *v, void *ctx, char **error)
{
    (*(int *)ctx)++;
    return 0;
}

static int count_header(const char *k, const char *v, void *ctx, char **error)
{
    for (const char *c = k; *c; c++)
        if (!(isalnum((unsigned char)*c) || strchr("!#$%&'*+-.^_`|~", *c))) {
            *error = xasprintf("OTEL_EXPORTER_OTLP_HEADERS: `%.60s` is not a header name", k);
            return -1;
        }
    if (strpbrk(v, "\r\n")) {
        *error = xstrdup("OTEL_EXPORTER_OTLP_HEADERS: a header value holds a line break");
        return -1;
    }
    (*(int *)ctx)++;
    return 0;
}

int otel_check_pairs(const char *var, const char *text, bool headers, char **error)
{
    int n = 0;
    if (parse_pairs(var, text, headers ? count_header : count_pair, &n, error) != 0) return -1;
    return n;
}

static void *exporter_main(void *arg);

int otel_start(const settings *s, char **error)
{
    if (X.on) return 0;
    const char *which = settings_env(s, "OTEL_TRACES_EXPORTER");
    if (which && !strcmp(which, "none")) return 0;
    const char *traces = settings_env(s, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
    const char *base = settings_env(s, "OTEL_EXPORTER_OTLP_ENDPOINT");
    char *url = NULL;
    if (traces && *traces) url = xstrdup(traces);
    else if (base && *base) {
        size_t n = strlen(base);
        while (n && base[n - 1] == '/') n--;
        url = xasprintf("%.*s/v1/traces", (int)n, base);
    } else {
        return 0; /* no endpoint: tracing is off */
    }
    if (strncmp(url, "http://", 7) != 0 && strncmp(url, "https://", 8) != 0) {
        *error = xasprintf("OTEL_EXPORTER_OTLP_%sENDPOINT: `%.100s` is not an http:// or https:// address",
                           traces && *traces ? "TRACES_" : "", url);
        free(url);
        return -1;
    }
    struct curl_slist *headers = NULL;
    const char *hs = settings_env(s, "OTEL_EXPORTER_OTLP_HEADERS");
    if (hs && parse_pairs("OTEL_EXPORTER_OTLP_HEADERS", hs, add_header, &headers, error) != 0) {
        curl_slist_free_all(headers);
        free(url);
        return -1;
    }
    json_t *attrs = json_array();
    const char *svc = settings_env(s, "OTEL_SERVICE_NAME");
    attr_str(attrs, "service.name", svc && *svc ? svc : "chidori");
    attr_str(attrs, "telemetry.sdk.name", "chidori");
    attr_str(attrs, "telemetry.sdk.language", "c");
    const char *ra = settings_env(s, "OTEL_RESOURCE_ATTRIBUTES");
    if (ra && parse_pairs("OTEL_RESOURCE_ATTRIBUTES", ra, add_resource, attrs, error) != 0) {
        json_free(attrs);
        curl_slist_free_all(headers);
        free(url);
        return -1;
    }
    headers = curl_slist_append(headers, "Content-Type: application/json");
    json_t *res = json_object();
    json_object_set(res, "attributes", attrs);
    X.resource_json = json_dump(res, JSON_COMPACT, NULL);
    json_free(res);
    X.url = url;
    X.headers = headers;
    curl_global_init(CURL_GLOBAL_DEFAULT);
    clock_monotonic_cond_init(&X.cv);
    clock_monotonic_cond_init(&X.done_cv);
    if (pthread_create(&X.thread, NULL, exporter_main, NULL) != 0) {
        fprintf(stderr, "chidori: traces are off: no thread for the exporter\n");
        return 0;
    }
    X.on = true;
    return 0;
}

/* ---- the exporter thread ---- */

static size_t discard(char *p, size_t size, size_t n, void *ud) { return size * n; }

static void post(char **spans, size_t n)
{
    buf b = {0};
    buf_printf(&b, "{\"resourceSpans\":[{\"resource\":%s,\"scopeSpans\":[{\"scope\":{\"name\":\"chidori\"},\"spans\":[",
               X.resource_json);
    for (size_t i = 0; i < n; i++) {
        if (i) buf_putc(&b, ',');
        buf_puts(&b, spans[i]);
    }
    buf_puts(&b, "]}]}]}");
    CURL *c = curl_easy_init();
    bool ok = false;
    if (c) {
        curl_restrict_to_http(c);
        curl_easy_setopt(c, CURLOPT_URL, X.url);
        curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(c, CURLOPT_HTTPHEADER, X.headers);
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, b.data);
        curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, (long)b.len);
        curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)POST_TIMEOUT_MS);
        curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, (long)POST_TIMEOUT_MS);
        curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, discard);
        if (curl_easy_perform(c) == CURLE_OK) {
            long status = 0;
            curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
            ok = status >= 200 && status < 300;
        }
        curl_easy_cleanup(c);
    }
    if (ok) atomic_fetch_add(&X.sent, n);
    else atomic_fetch_add(&X.failed, 1);
    buf_free(&b);
}

static void *exporter_main(void *arg)
{
    char **batch = xcalloc(BATCH_MAX, sizeof *batch);
    pthread_mutex_lock(&X.mu);
    for (;;) {
        if (X.len < BATCH_MAX && !X.stopping) { /* wait for a full batch, at most BATCH_WAIT_MS */
            struct timespec until = clock_monotonic_after_ms(BATCH_WAIT_MS);
            while (X.len < BATCH_MAX && !X.stopping)
                if (pthread_cond_timedwait(&X.cv, &X.mu, &until) != 0) break;
        }
        size_t n = 0;
        while (X.len && n < BATCH_MAX) {
            batch[n++] = X.queue[X.head];
            X.head = (X.head + 1) % QUEUE_CAP;
            X.len--;
        }
        bool stop = X.stopping && !X.len;
        pthread_mutex_unlock(&X.mu);
        if (n) post(batch, n);
        for (size_t i = 0; i < n; i++) free(batch[i]);
        pthread_mutex_lock(&X.mu);
        if (stop && !X.len) break;
    }
    X.finished = true;
    pthread_cond_broadcast(&X.done_cv);
    pthread_mutex_unlock(&X.mu);
    free(batch);
    return NULL;
}

static void enqueue(char *span)
{
    pthread_mutex_lock(&X.mu);
    if (X.len == QUEUE_CAP || X.stopping) {
        pthread_mutex_unlock(&X.mu);
        atomic_fetch_add(&X.dropped, 1);
        free(span);
        return;
    }
    X.queue[(X.head + X.len) % QUEUE_CAP] = span;
    X.len++;
    if (X.len >= BATCH_MAX) pthread_cond_signal(&X.cv);
    pthread_mutex_unlock(&X.mu);
}

void otel_shutdown(void)
{
    if (!X.on) return;
    struct timespec until = clock_monotonic_after_ms(SHUTDOWN_WAIT_MS);
    pthread_mutex_lock(&X.mu);
    X.stopping = true;
    pthread_cond_signal(&X.cv);
    while (!X.finished)
        if (pthread_cond_timedwait(&X.done_cv, &X.mu, &until) != 0) break;
    bool finished = X.finished;
    size_t left = X.len;
    pthread_mutex_unlock(&X.mu);
    X.on = false;
    /* the counters, said once: a collector that is down or slow costs this line, nothing more */
    uint64_t dropped = otel_dropped() + (finished ? 0 : left), failed = otel_failed();
    if (dropped || failed || !finished)
        fprintf(stderr, "chidori: traces: %llu export%s to %s failed, %llu span%s dropped%s (docs/observability.md)\n",
                (unsigned long long)failed, failed == 1 ? "" : "s", X.url, (unsigned long long)dropped,
                dropped == 1 ? "" : "s", finished ? "" : "; the collector did not answer in time");
    if (!finished) { /* a slow collector: the process ends without the rest */
        pthread_detach(X.thread);
        return;
    }
    pthread_join(X.thread, NULL);
    curl_slist_free_all(X.headers);
    free(X.url);
    free(X.resource_json);
    X.headers = NULL;
    X.url = X.resource_json = NULL;
}

/* ---- spans ---- */

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
    if (!X.on) return NULL;
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
    if (r->run_id) attr_str(attrs, "chidori.run_id", r->run_id);
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
        attr_str(attrs, "error.type", error_type ? error_type : "_OTHER");
        json_object_set(status, "code", json_number(2));
        size_t m = strlen(error);
        json_object_set(status, "message", json_stringn(error, m > ATTR_TEXT_MAX ? ATTR_TEXT_MAX : m));
    }
    json_object_set(s, "attributes", attrs);
    json_object_set(s, "status", status);
    enqueue(json_dump(s, JSON_COMPACT, NULL));
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
    attr_str(attrs, "http.request.method", *name);
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
        attr_str(attrs, "url.full", full);
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
        attr_str(attrs, "server.address", addr);
        free(addr);
        long port = colon ? strtol(colon + 1, NULL, 10) : (!strncmp(url, "https", 5) ? 443 : 80);
        attr_int(attrs, "server.port", port);
    }
    const json_t *st = json_object_get(result, "status");
    if (st && st->type == JSON_NUMBER) attr_int(attrs, "http.response.status_code", (int64_t)st->u.number);
}

/* The MCP client span of a tool call, under its execute_tool span: `tools/call {tool}`, the tool
 * as its server names it (after `<server>__`). */
static void mcp_span(otel_run *r, const char *parent, const call_record *rec, const char *tool_failed, bool replayed)
{
    const char *full = str_at(rec->args, "name");
    const char *sep = strstr(full, "__");
    const char *tool = sep && sep[2] ? sep + 2 : full;
    char id[17];
    hex_id(id, 8);
    json_t *attrs = json_array();
    attr_str(attrs, "mcp.method.name", "tools/call");
    attr_str(attrs, "gen_ai.operation.name", "execute_tool");
    attr_str(attrs, "gen_ai.tool.name", tool);
    if (sep) {
        char *server = xasprintf("%.*s", (int)(sep - full), full);
        attr_str(attrs, "chidori.mcp.server", server);
        free(server);
    }
    attr_str(attrs, "chidori.function", "tool");
    attr_int(attrs, "chidori.seq", (int64_t)rec->seq);
    if (replayed) attr_bool(attrs, "chidori.replayed", true);
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
    const char *id = NULL;
    char fresh[17];
    if (!strcmp(fn, "call_agent")) id = open_id(r, rec->seq, true); /* its nested spans named it already */
    if (!id) {
        hex_id(fresh, 8);
        id = fresh;
    }
    char own_id[17];
    memcpy(own_id, id, 17);
    char parent_copy[17] = {0};
    memcpy(parent_copy, parent, 16);
    json_t *attrs = json_array();
    char *name = NULL;
    int kind = 1; /* INTERNAL */
    const char *error_type = NULL;
    bool mcp_call = false;
    if (!strcmp(fn, "prompt")) {
        const char *model = str_at(rec->result, "model");
        const char *asked = str_at(rec->args, "model");
        const char *provider = str_at(rec->result, "provider");
        name = xasprintf("chat %s", asked ? asked : model ? model : ""); /* the requested model names it */
        if (!model && !asked) name[4] = 0;
        kind = 3; /* CLIENT */
        attr_str(attrs, "gen_ai.operation.name", "chat");
        if (provider) attr_str(attrs, "gen_ai.provider.name", provider);
        if (asked || model) attr_str(attrs, "gen_ai.request.model", asked ? asked : model);
        if (model) attr_str(attrs, "gen_ai.response.model", model);
        const json_t *u = json_object_get(rec->result, "usage");
        static const char *const usage_keys[][2] = {
            {"inputTokens", "gen_ai.usage.input_tokens"},
            {"outputTokens", "gen_ai.usage.output_tokens"},
            {"cacheReadTokens", "gen_ai.usage.cache_read.input_tokens"},
            {"cacheCreationTokens", "gen_ai.usage.cache_creation.input_tokens"},
        };
        for (size_t i = 0; i < sizeof usage_keys / sizeof usage_keys[0]; i++) {
            const json_t *v = json_object_get(u, usage_keys[i][0]);
            if (v && v->type == JSON_NUMBER && v->u.number >= 0 && v->u.number < 9.0e15)
                attr_int(attrs, usage_keys[i][1], (int64_t)v->u.number);
        }
        const char *stop = str_at(rec->result, "stopReason");
        if (stop) attr_strs(attrs, "gen_ai.response.finish_reasons", stop);
        const char *rid = str_at(rec->result, "id");
        if (rid) attr_str(attrs, "gen_ai.response.id", rid);
    } else if (!strcmp(fn, "tool")) {
        const char *tool = str_at(rec->args, "name");
        name = xasprintf("execute_tool %s", tool ? tool : "");
        attr_str(attrs, "gen_ai.operation.name", "execute_tool");
        if (tool) attr_str(attrs, "gen_ai.tool.name", tool);
        mcp_call = tool != NULL;
    } else if (!strcmp(fn, "http")) {
        kind = 3;
        http_attrs(attrs, rec->args, rec->result, &name);
    } else if (!strcmp(fn, "call_agent")) {
        const char *path = str_at(rec->args, "path");
        name = xasprintf("invoke_agent %s", path ? path : "");
        attr_str(attrs, "gen_ai.operation.name", "invoke_agent");
        if (path) attr_str(attrs, "gen_ai.agent.name", path);
    } else {
        name = xstrdup(fn);
    }
    attr_str(attrs, "chidori.function", fn);
    attr_int(attrs, "chidori.seq", (int64_t)rec->seq);
    if (replayed) attr_bool(attrs, "chidori.replayed", true);
    if (rec->error) error_type = !strncmp(rec->error, "denied", 6) || strstr(rec->error, "policy") ? "chidori.denied" : "_OTHER";
    /* a tool that answered isError failed, though the call itself succeeded (MCP conventions) */
    const json_t *is_error = !strcmp(fn, "tool") ? json_object_get(rec->result, "isError") : NULL;
    const char *tool_failed = is_error && is_error->type == JSON_TRUE ? "the tool reported an error (isError)" : NULL;
    finish_span(r, own_id, parent_copy, name, kind, rec->timestamp_ms, rec->duration_ms, attrs,
                rec->error ? rec->error : tool_failed, rec->error ? error_type : "tool_error");
    free(name);
    if (mcp_call) mcp_span(r, own_id, rec, tool_failed, replayed);
}

void otel_run_end(otel_run *r, const char *error)
{
    if (!r) return;
    json_t *attrs = json_array();
    attr_str(attrs, "gen_ai.operation.name", "invoke_agent");
    attr_str(attrs, "gen_ai.agent.name", r->agent);
    attr_int(attrs, "chidori.seq", 0);
    char *name = xasprintf("invoke_agent %s", r->agent);
    finish_span(r, r->span_id, r->parent_id, name, 1, r->start_ms, (double)(clock_realtime_ms() - r->start_ms), attrs,
                error, "chidori.run_failed");
    free(name);
    free(r->agent);
    free(r->run_id);
    free(r);
}

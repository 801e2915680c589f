/* otel_export.c — the process's one trace exporter (see otel.h): the OTEL_* settings, a bounded
 * queue of finished spans (OTLP/JSON text), the thread that posts them in batches with libcurl,
 * the counters, the bounded flush at the end.
 *
 * Owns: the queue, the thread, the collector's address and headers, the resource attributes.
 * Trusts: the operator's settings, checked in otel_start (a malformed list is an error naming the
 * variable); nothing the collector answers (its body is discarded, only the status counts).
 */
#define _GNU_SOURCE
#include "telemetry/otel.h"
#include "telemetry/otel_internal.h"
#include "settings/settings.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/curl_lazy.h"
#include "util/json.h"

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

void otel_attr_str(json_t *attrs, const char *key, const char *value)
{
    json_t *a = json_object(), *v = json_object();
    size_t n = strlen(value);
    json_object_set(v, "stringValue", json_stringn(value, n > OTEL_ATTR_TEXT_MAX ? OTEL_ATTR_TEXT_MAX : n));
    json_object_set(a, "key", json_string(key));
    json_object_set(a, "value", v);
    json_array_push(attrs, a);
}

void otel_attr_int(json_t *attrs, const char *key, int64_t value)
{
    json_t *a = json_object(), *v = json_object();
    char num[32];
    snprintf(num, sizeof num, "%lld", (long long)value);
    json_object_set(v, "intValue", json_string(num)); /* int64 is a string in OTLP/JSON */
    json_object_set(a, "key", json_string(key));
    json_object_set(a, "value", v);
    json_array_push(attrs, a);
}

void otel_attr_bool(json_t *attrs, const char *key, bool value)
{
    json_t *a = json_object(), *v = json_object();
    json_object_set(v, "boolValue", json_bool(value));
    json_object_set(a, "key", json_string(key));
    json_object_set(a, "value", v);
    json_array_push(attrs, a);
}

void otel_attr_strs(json_t *attrs, const char *key, const char *one)
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
    if (strcmp(k, "service.name") != 0) otel_attr_str(ctx, k, v); /* OTEL_SERVICE_NAME wins */
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
    otel_attr_str(attrs, "service.name", svc && *svc ? svc : "chidori");
    otel_attr_str(attrs, "telemetry.sdk.name", "chidori");
    otel_attr_str(attrs, "telemetry.sdk.language", "c");
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

void otel_enqueue(char *span)
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

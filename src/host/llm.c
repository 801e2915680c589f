/* llm.c — provider choice, request validation, the HTTP transport and the test provider for
 * `chidori.prompt` (see llm.h). The wire formats live in llm_openai.c and llm_anthropic.c.
 *
 * Owns: llm_complete and llm_config_from_settings; the libcurl call (one easy handle per call, capped
 * body, bounded time, no redirects, no environment proxies, http/https only); error messages.
 * Trusts: the llm_config (operator input). Not the request (guest-derived: every field is
 * type-checked by llm_validate_request) and NOTHING the provider answers: the body is capped while
 * it is read, a non-2xx status becomes an error quoting a bounded, sanitized excerpt, and a 2xx
 * body goes through the limited parsers. Every error is scrubbed of both API keys before return.
 */
#include "host/llm_internal.h"
#include "settings/settings.h"

#include <curl/curl.h>
#include "util/curl_lazy.h"
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const char LLM_JSON_INSTRUCTION[] =
    "Respond with a single valid JSON value only: no prose before or after it and no Markdown code fences.";

/* ---------- configuration ---------- */

static const char *env_nonempty(const settings *s, const char *name)
{
    const char *v = settings_env(s, name);
    return v && *v ? v : NULL;
}

void llm_config_from_settings(llm_config *cfg, const settings *s)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->openai_api_key = env_nonempty(s, "OPENAI_API_KEY");
    cfg->openai_base_url = env_nonempty(s, "OPENAI_BASE_URL");
    if (!cfg->openai_base_url) cfg->openai_base_url = LLM_DEFAULT_OPENAI_BASE_URL;
    cfg->anthropic_api_key = env_nonempty(s, "ANTHROPIC_API_KEY");
    cfg->anthropic_base_url = env_nonempty(s, "ANTHROPIC_BASE_URL");
    if (!cfg->anthropic_base_url) cfg->anthropic_base_url = LLM_DEFAULT_ANTHROPIC_BASE_URL;
    cfg->test_response = settings_text(s, "CHIDORI_TEST_LLM_RESPONSE"); /* "" is a valid (empty) reply */
    cfg->default_model = settings_nonempty(s, "CHIDORI_MODEL");
    cfg->timeout_ms = (long)settings_u64(s, "CHIDORI_LLM_TIMEOUT_MS");
    cfg->max_response_bytes = LLM_DEFAULT_MAX_RESPONSE_BYTES;
}

/* ---------- helpers shared with the wire-format files ---------- */

json_t *llm_parse_limited(const char *s, size_t len, size_t max_bytes, json_error *err)
{
    json_limits lim = {max_bytes ? max_bytes : LLM_DEFAULT_MAX_RESPONSE_BYTES, LLM_JSON_MAX_DEPTH, 0};
    return json_parse(s, len, &lim, err);
}

double llm_count(const json_t *v)
{
    double d = json_number_value(v);
    if (!isfinite(d) || d < 0) return 0;
    if (d > 9007199254740992.0) return 9007199254740992.0;
    return floor(d);
}

/* Length of the valid UTF-8 sequence at s (1-4), or 0 when it is not one. */
static size_t utf8_len(const unsigned char *s, size_t avail)
{
    unsigned c = s[0];
    size_t n;
    unsigned min;
    if (c < 0x80) return 1;
    if (c >= 0xc2 && c <= 0xdf) n = 2, min = 0x80;
    else if (c >= 0xe0 && c <= 0xef) n = 3, min = 0x800;
    else if (c >= 0xf0 && c <= 0xf4) n = 4, min = 0x10000;
    else return 0;
    if (avail < n) return 0;
    unsigned cp = c & (0x3f >> (n - 1));
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80) return 0;
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    return n;
}

char *llm_excerpt(const char *s, size_t len, size_t max)
{
    buf b = {0};
    buf_append(&b, "", 0); /* NUL-terminated even when empty */
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    bool space = false;
    while (i < len) {
        size_t n = utf8_len(u + i, len - i);
        if (n == 0) { /* invalid byte */
            if (b.len + 1 > max) break;
            buf_putc(&b, '?');
            i++;
            space = false;
            continue;
        }
        if (n == 1 && (u[i] < 0x20 || u[i] == 0x7f)) { /* control characters, newlines: one space */
            if (!space && b.len > 0) {
                if (b.len + 1 > max) break;
                buf_putc(&b, ' ');
            }
            space = true;
            i++;
            continue;
        }
        if (b.len + n > max) break;
        buf_append(&b, s + i, n);
        space = false;
        i += n;
    }
    while (b.len > 0 && b.data[b.len - 1] == ' ') b.data[--b.len] = '\0';
    if (i < len) buf_puts(&b, "\xe2\x80\xa6"); /* … */
    return buf_steal(&b);
}

char *llm_http_error(long status, const char *body, size_t len)
{
    /* Both providers answer {"error": {"message": ...}} (Anthropic adds "type":"error"). */
    json_error jerr;
    json_t *v = llm_parse_limited(body, len, len + 1, &jerr);
    const json_t *err = json_object_get(v, "error");
    const json_t *msg = json_is_object(err) ? json_object_get(err, "message") : err;
    char *ex;
    if (json_is_string(msg) && msg->u.string.len > 0) ex = llm_excerpt(msg->u.string.bytes, msg->u.string.len, LLM_EXCERPT_BYTES);
    else ex = llm_excerpt(body, len, LLM_EXCERPT_BYTES);
    json_free(v);
    const char *hint = status >= 300 && status < 400 ? " (redirects are not followed)" : "";
    char *out = *ex ? xasprintf("HTTP %ld%s: %s", status, hint, ex) : xasprintf("HTTP %ld%s with an empty body", status, hint);
    free(ex);
    return out;
}

int llm_parse_json_reply(const char *text, size_t len, size_t max_bytes, json_t **value, char **error)
{
    const char *s = text, *e = text + len;
    while (s < e && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')) s++;
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r')) e--;
    if (e - s >= 6 && memcmp(s, "```", 3) == 0 && memcmp(e - 3, "```", 3) == 0) {
        const char *nl = memchr(s, '\n', (size_t)(e - s));
        if (nl && nl < e - 3) { /* ```json\n … \n``` */
            s = nl + 1;
            e -= 3;
        }
    }
    json_error jerr;
    json_t *v = llm_parse_limited(s, (size_t)(e - s), max_bytes, &jerr);
    if (!v) {
        char *ex = llm_excerpt(text, len, 120);
        *error = xasprintf("format \"json\": the reply is not valid JSON (%s at %d:%d): %s", jerr.message, jerr.line,
                           jerr.col, ex);
        free(ex);
        return -1;
    }
    *value = v;
    return 0;
}

/* ---------- request validation ---------- */

static int fail(char **error, char *msg)
{
    *error = msg;
    return -1;
}

static bool is_string_or_absent(const json_t *v) { return !v || v->type == JSON_NULL || v->type == JSON_STRING; }

bool llm_wants_json(const json_t *request)
{
    const char *f = json_string_value(json_object_get(request, "format"));
    return f && strcmp(f, "json") == 0;
}

int llm_validate_request(const json_t *req, char **error)
{
    if (!json_is_object(req)) return fail(error, xstrdup("request must be an object"));
    const json_t *msgs = json_object_get(req, "messages");
    if (!json_is_array(msgs) || msgs->u.array.len == 0)
        return fail(error, xstrdup("request.messages must be a non-empty array"));
    for (size_t i = 0; i < msgs->u.array.len; i++) {
        const json_t *m = msgs->u.array.items[i];
        if (!json_is_object(m)) return fail(error, xasprintf("messages[%zu] must be an object", i));
        const char *role = json_string_value(json_object_get(m, "role"));
        if (!role || (strcmp(role, "user") && strcmp(role, "assistant") && strcmp(role, "tool") && strcmp(role, "system")))
            return fail(error, xasprintf("messages[%zu].role must be \"user\", \"assistant\", \"tool\" or \"system\"", i));
        const json_t *content = json_object_get(m, "content");
        if (strcmp(role, "tool") != 0 && !is_string_or_absent(content))
            return fail(error, xasprintf("messages[%zu].content must be a string", i));
        const json_t *calls = json_object_get(m, "toolCalls");
        if (calls && calls->type != JSON_NULL) {
            if (strcmp(role, "assistant") != 0)
                return fail(error, xasprintf("messages[%zu].toolCalls is only allowed on assistant messages", i));
            if (!json_is_array(calls)) return fail(error, xasprintf("messages[%zu].toolCalls must be an array", i));
            for (size_t j = 0; j < calls->u.array.len; j++) {
                const json_t *c = calls->u.array.items[j];
                const json_t *id = json_object_get(c, "id"), *name = json_object_get(c, "name");
                if (!json_is_object(c) || !json_is_string(id) || id->u.string.len == 0 || !json_is_string(name) ||
                    name->u.string.len == 0)
                    return fail(error, xasprintf("messages[%zu].toolCalls[%zu] must have a string id and name", i, j));
            }
        }
        if (strcmp(role, "tool") == 0) {
            const json_t *id = json_object_get(m, "toolCallId");
            if (!json_is_string(id) || id->u.string.len == 0)
                return fail(error, xasprintf("messages[%zu] (role \"tool\") needs a string toolCallId", i));
        }
    }
    if (!is_string_or_absent(json_object_get(req, "system"))) return fail(error, xstrdup("request.system must be a string"));
    if (!is_string_or_absent(json_object_get(req, "model"))) return fail(error, xstrdup("request.model must be a string"));
    const json_t *mt = json_object_get(req, "maxTokens");
    if (mt && mt->type != JSON_NULL) {
        double d = json_number_value(mt);
        if (!(d >= 1 && d <= 100000000 && d == floor(d)))
            return fail(error, xstrdup("request.maxTokens must be a positive integer"));
    }
    const json_t *t = json_object_get(req, "temperature");
    if (t && t->type != JSON_NULL && !(isfinite(json_number_value(t)) && json_number_value(t) >= 0))
        return fail(error, xstrdup("request.temperature must be a non-negative number"));
    const json_t *fmt = json_object_get(req, "format");
    if (fmt && fmt->type != JSON_NULL) {
        const char *f = json_string_value(fmt);
        if (!f || (strcmp(f, "json") && strcmp(f, "text")))
            return fail(error, xstrdup("request.format must be \"json\" or \"text\""));
    }
    const json_t *tools = json_object_get(req, "tools");
    if (tools && tools->type != JSON_NULL) {
        if (!json_is_array(tools)) return fail(error, xstrdup("request.tools must be an array"));
        for (size_t i = 0; i < tools->u.array.len; i++) {
            const json_t *tl = tools->u.array.items[i];
            const json_t *name = json_object_get(tl, "name");
            if (!json_is_object(tl) || !json_is_string(name) || name->u.string.len == 0)
                return fail(error, xasprintf("tools[%zu] must be an object with a string name", i));
            if (!is_string_or_absent(json_object_get(tl, "description")))
                return fail(error, xasprintf("tools[%zu].description must be a string", i));
            const json_t *p = json_object_get(tl, "parameters");
            if (p && p->type != JSON_NULL && !json_is_object(p))
                return fail(error, xasprintf("tools[%zu].parameters must be an object (a JSON Schema)", i));
        }
    }
    return 0;
}

/* ---------- transport ---------- */

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static CURLcode curl_init_result = CURLE_FAILED_INIT;

static void curl_init_once(void) { curl_init_result = curl_global_init(CURL_GLOBAL_DEFAULT); }

int llm_global_init(void)
{
    pthread_once(&curl_once, curl_init_once);
    return curl_init_result == CURLE_OK ? 0 : -1;
}

typedef struct body_sink {
    buf data;
    size_t cap;
    bool over;
} body_sink;

static size_t on_body(char *ptr, size_t size, size_t nmemb, void *ud)
{
    body_sink *s = ud;
    size_t n = size * nmemb;
    if (n > s->cap || s->data.len > s->cap - n) {
        s->over = true;
        return 0; /* != n: libcurl aborts with CURLE_WRITE_ERROR */
    }
    buf_append(&s->data, ptr, n);
    return n;
}

static bool has_ctl(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f) return true;
    return false;
}

/* strerror is not thread-safe everywhere; the connect failures worth naming. */
static const char *errno_text(long e)
{
    switch (e) {
    case ECONNREFUSED: return "Connection refused";
    case ETIMEDOUT: return "Connection timed out";
    case ENETUNREACH: return "Network is unreachable";
    case EHOSTUNREACH: return "No route to host";
    case ECONNRESET: return "Connection reset by peer";
    case EACCES: case EPERM: return "Permission denied";
    default: return "connection failed";
    }
}

/* POST body to url. 0 with *status and sink filled; -1 with *error (no provider prefix). */
static int http_post(const llm_config *cfg, const char *url, struct curl_slist *headers, const char *body,
                     size_t body_len, long *status, body_sink *sink, char **error)
{
    if (llm_global_init() != 0) return fail(error, xstrdup("libcurl initialisation failed"));
    CURL *c = curl_easy_init();
    if (!c) return fail(error, xstrdup("libcurl: cannot create a handle"));
    long timeout = cfg->timeout_ms > 0 ? cfg->timeout_ms : LLM_DEFAULT_TIMEOUT_MS;
    char errbuf[CURL_ERROR_SIZE] = "";
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_POST, 1L);
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_len);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, sink);
    curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)sink->cap);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, timeout);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, timeout < 30000 ? timeout : 30000L);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_restrict_to_http(c); /* ignore http_proxy & co.: see llm.h */
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(c, CURLOPT_USERAGENT, "chidori");
    CURLcode rc = curl_easy_perform(c);
    long os_errno = 0;
    curl_easy_getinfo(c, CURLINFO_OS_ERRNO, &os_errno);
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, status);
    curl_easy_cleanup(c);
    if (rc == CURLE_OK) return 0;
    char *detail = llm_excerpt(errbuf, strlen(errbuf), 200);
    const char *d = *detail ? detail : curl_easy_strerror(rc);
    int r;
    if (sink->over || rc == CURLE_FILESIZE_EXCEEDED)
        r = fail(error, xasprintf("response larger than the %zu-byte limit", sink->cap));
    else if (rc == CURLE_OPERATION_TIMEDOUT)
        r = fail(error, xasprintf("request timed out after %ld ms (%s)", timeout, d));
    else if (rc == CURLE_COULDNT_CONNECT)
        r = fail(error, xasprintf("cannot connect: %s (%s)", errno_text(os_errno), d));
    else if (rc == CURLE_COULDNT_RESOLVE_HOST)
        r = fail(error, xasprintf("cannot resolve the host (%s)", d));
    else
        r = fail(error, xasprintf("request failed: %s (%s)", curl_easy_strerror(rc), d));
    free(detail);
    return r;
}

/* Base URL without trailing slashes + path; -1 when the base is not http(s). */
static int make_url(const char *base, const char *path, char **url, char **error)
{
    if (strncmp(base, "http://", 7) != 0 && strncmp(base, "https://", 8) != 0)
        return fail(error, xstrdup("the base URL must start with http:// or https://"));
    if (has_ctl(base)) return fail(error, xstrdup("the base URL contains control characters"));
    size_t n = strlen(base);
    while (n > 0 && base[n - 1] == '/') n--;
    *url = xasprintf("%.*s%s", (int)n, base, path);
    return 0;
}

/* ---------- providers ---------- */

typedef enum { P_NONE, P_TEST, P_OPENAI, P_ANTHROPIC } provider_kind;

static const char *provider_name(provider_kind p)
{
    return p == P_OPENAI ? "openai" : p == P_ANTHROPIC ? "anthropic" : p == P_TEST ? "test" : "llm";
}

static bool has_prefix(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

static provider_kind choose(const llm_config *cfg, const char *model, char **error)
{
    if (cfg->test_response) return P_TEST;
    bool oa = cfg->openai_api_key && *cfg->openai_api_key;
    bool an = cfg->anthropic_api_key && *cfg->anthropic_api_key;
    if (!oa && !an) {
        *error = xstrdup("no LLM provider configured: set OPENAI_API_KEY, ANTHROPIC_API_KEY or CHIDORI_TEST_LLM_RESPONSE");
        return P_NONE;
    }
    if (model && has_prefix(model, "claude")) {
        if (an) return P_ANTHROPIC;
        return P_OPENAI; /* an OpenAI-compatible gateway may serve it */
    }
    if (model && (has_prefix(model, "gpt") || has_prefix(model, "o1") || has_prefix(model, "o3") ||
                  has_prefix(model, "o4") || has_prefix(model, "chatgpt"))) {
        if (oa) return P_OPENAI;
        char *ex = llm_excerpt(model, strlen(model), 80);
        *error = xasprintf("model \"%s\" needs OPENAI_API_KEY (only ANTHROPIC_API_KEY is set)", ex);
        free(ex);
        return P_NONE;
    }
    return oa ? P_OPENAI : P_ANTHROPIC;
}

static json_t *test_response(const llm_config *cfg, const char *model)
{
    json_t *r = json_object();
    json_object_set(r, "content", json_string(cfg->test_response));
    json_object_set(r, "toolCalls", json_array());
    json_object_set(r, "stopReason", json_string("end_turn"));
    json_t *u = json_object();
    json_object_set(u, "inputTokens", json_number(0));
    json_object_set(u, "outputTokens", json_number(0));
    json_object_set(r, "usage", u);
    json_object_set(r, "model", json_string(model ? model : "test"));
    return r;
}

static int call_provider(const llm_config *cfg, provider_kind p, const json_t *req, const char *model, json_t **out,
                         char **error)
{
    const char *key = p == P_OPENAI ? cfg->openai_api_key : cfg->anthropic_api_key;
    const char *base = p == P_OPENAI ? cfg->openai_base_url : cfg->anthropic_base_url;
    if (!base || !*base) base = p == P_OPENAI ? LLM_DEFAULT_OPENAI_BASE_URL : LLM_DEFAULT_ANTHROPIC_BASE_URL;
    if (has_ctl(key))
        return fail(error, xasprintf("%s contains control characters", p == P_OPENAI ? "OPENAI_API_KEY" : "ANTHROPIC_API_KEY"));
    char *url;
    if (make_url(base, p == P_OPENAI ? "/chat/completions" : "/v1/messages", &url, error) != 0) return -1;

    json_t *wire = p == P_OPENAI ? llm_openai_body(req, model) : llm_anthropic_body(req, model);
    size_t body_len;
    char *body = json_dump(wire, JSON_COMPACT, &body_len);
    json_free(wire);

    struct curl_slist *h = NULL;
    char *auth = p == P_OPENAI ? xasprintf("Authorization: Bearer %s", key) : xasprintf("x-api-key: %s", key);
    h = curl_slist_append(h, "Content-Type: application/json");
    h = curl_slist_append(h, "Accept: application/json");
    h = curl_slist_append(h, "Expect:");
    h = curl_slist_append(h, auth);
    if (p == P_ANTHROPIC) h = curl_slist_append(h, "anthropic-version: 2023-06-01");
    memset(auth, 0, strlen(auth));
    free(auth);

    body_sink sink = {.cap = cfg->max_response_bytes ? cfg->max_response_bytes : LLM_DEFAULT_MAX_RESPONSE_BYTES};
    long status = 0;
    int r = h ? http_post(cfg, url, h, body, body_len, &status, &sink, error)
              : fail(error, xstrdup("libcurl: cannot build the request headers"));
    curl_slist_free_all(h); /* libcurl does not scrub the copy of the key header; nothing we can do */
    free(body);
    free(url);
    if (r == 0) {
        const char *data = sink.data.data ? sink.data.data : "";
        if (status < 200 || status > 299) {
            *error = llm_http_error(status, data, sink.data.len);
            r = -1;
        } else if (p == P_OPENAI) {
            r = llm_openai_parse(data, sink.data.len, sink.cap, model, out, error);
        } else {
            r = llm_anthropic_parse(data, sink.data.len, sink.cap, model, out, error);
        }
    }
    buf_free(&sink.data);
    return r;
}

/* Replace every occurrence of key in *s by "[redacted]". */
static void redact(char **s, const char *key)
{
    if (!*s || !key || strlen(key) < 4 || !strstr(*s, key)) return;
    buf b = {0};
    size_t kl = strlen(key);
    const char *p = *s, *hit;
    while ((hit = strstr(p, key))) {
        buf_append(&b, p, (size_t)(hit - p));
        buf_puts(&b, "[redacted]");
        p = hit + kl;
    }
    buf_puts(&b, p);
    free(*s);
    *s = buf_steal(&b);
}

int llm_complete(const llm_config *cfg, const json_t *request, json_t **response, char **error)
{
    *response = NULL;
    *error = NULL;
    const char *model = json_string_value(json_object_get(request, "model"));
    if (model && !*model) model = NULL;
    if (!model) model = cfg->default_model && *cfg->default_model ? cfg->default_model : NULL;
    char *cause = NULL;
    provider_kind p = choose(cfg, model, &cause);
    if (p == P_NONE) {
        *error = cause;
        return -1;
    }
    if (!model && p != P_TEST) model = p == P_OPENAI ? LLM_DEFAULT_OPENAI_MODEL : LLM_DEFAULT_ANTHROPIC_MODEL;

    json_t *out = NULL;
    int r = llm_validate_request(request, &cause);
    if (r == 0) {
        if (p == P_TEST) out = test_response(cfg, model);
        else r = call_provider(cfg, p, request, model, &out, &cause);
    }
    if (r == 0) json_object_set(out, "provider", json_string(provider_name(p)));
    if (r == 0 && llm_wants_json(request)) {
        const json_t *calls = json_object_get(out, "toolCalls");
        if (!json_is_array(calls) || calls->u.array.len == 0) {
            const json_t *content = json_object_get(out, "content");
            json_t *value = NULL;
            size_t cap = cfg->max_response_bytes ? cfg->max_response_bytes : LLM_DEFAULT_MAX_RESPONSE_BYTES;
            if (llm_parse_json_reply(content->u.string.bytes, content->u.string.len, cap, &value, &cause) == 0) {
                json_object_set(out, "json", value);
            } else {
                const char *sr = json_string_value(json_object_get(out, "stopReason"));
                if (sr && (strcmp(sr, "max_tokens") == 0 || strcmp(sr, "length") == 0)) {
                    char *c2 = xasprintf("%s (the reply was cut off at maxTokens)", cause);
                    free(cause);
                    cause = c2;
                }
                r = -1;
            }
        }
    }
    if (r != 0) {
        json_free(out);
        *error = xasprintf("%s: %s", provider_name(p), cause);
        free(cause);
        redact(error, cfg->openai_api_key);
        redact(error, cfg->anthropic_api_key);
        return -1;
    }
    *response = out;
    return 0;
}

json_t *llm_make_response(const char *text, size_t len, json_t *calls, const json_t *stop_reason, const json_t *usage,
                          const char *in_key, const char *out_key, const json_t *model, const char *fallback_model)
{
    json_t *res = json_object();
    json_object_set(res, "content", json_stringn(text ? text : "", len));
    json_object_set(res, "toolCalls", calls);
    json_object_set(res, "stopReason", json_is_string(stop_reason) ? json_copy(stop_reason) : json_null());
    json_t *u = json_object();
    json_object_set(u, "inputTokens", json_number(llm_count(json_object_get(usage, in_key))));
    json_object_set(u, "outputTokens", json_number(llm_count(json_object_get(usage, out_key))));
    json_object_set(res, "usage", u);
    json_object_set(res, "model", json_is_string(model) && model->u.string.len ? json_copy(model)
                                                                                : json_string(fallback_model ? fallback_model : ""));
    return res;
}

json_t *llm_tool_spec(const json_t *tl, const char *schema_key)
{
    json_t *w = json_object();
    json_object_set(w, "name", json_copy(json_object_get(tl, "name")));
    const json_t *d = json_object_get(tl, "description");
    if (json_is_string(d)) json_object_set(w, "description", json_copy(d));
    const json_t *p = json_object_get(tl, "parameters");
    if (json_is_object(p)) {
        json_object_set(w, schema_key, json_copy(p));
    } else {
        json_t *schema = json_object();
        json_object_set(schema, "type", json_string("object"));
        json_object_set(schema, "properties", json_object());
        json_object_set(w, schema_key, schema);
    }
    return w;
}

json_t *llm_parse_reply(const char *body, size_t len, size_t max_bytes, char **error)
{
    json_error jerr;
    json_t *v = llm_parse_limited(body, len, max_bytes, &jerr);
    if (!v) {
        char *ex = llm_excerpt(body, len, LLM_EXCERPT_BYTES);
        *error = xasprintf("invalid JSON in the response (%s at %d:%d): %s", jerr.message, jerr.line, jerr.col, ex);
        free(ex);
    }
    return v;
}

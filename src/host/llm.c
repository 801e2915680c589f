/* llm.c — provider choice, request validation, the HTTP transport and the test provider for
 * `chidori.prompt` (see llm.h). The wire formats live in llm_openai.c and llm_anthropic.c.
 *
 * Owns: llm_complete(_stream) and llm_config_from_settings; the provider order and model names; the
 * libcurl call (one easy handle per call, capped body, bounded time, no redirects, no environment
 * proxies, http/https only), which for a streamed call feeds an event-stream answer to the SSE
 * parser and accumulator of llm_stream.c as it arrives; the attempts of a call (rate-limit slots
 * and retries: llm_pace.c) and the prompt cache's place in it (llm_cache.c); the test provider;
 * error messages.
 * Trusts: the llm_config (operator input). Not the request (guest-derived: every field is
 * type-checked by llm_validate_request) and NOTHING the provider answers: the body is capped while
 * it is read, a non-2xx status becomes an error quoting a bounded, sanitized excerpt, and a 2xx
 * body goes through the limited parsers. Every error is scrubbed of both API keys before return.
 */
#include "host/llm_internal.h"
#include "host/llm_cache.h"
#include "host/llm_pace.h"
#include "settings/settings.h"

#include <curl/curl.h>
#include "util/clock.h"
#include "util/curl_lazy.h"
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char LLM_JSON_INSTRUCTION[] =
    "Respond with a single valid JSON value only: no prose before or after it and no Markdown code fences.";

/* ---------- configuration ---------- */

static const char *env_nonempty(const settings *s, const char *name)
{
    const char *v = settings_env(s, name);
    return text_blank(v) ? NULL : v;
}

static const char *setting_nonblank(const settings *s, const char *name)
{
    const char *v = settings_nonempty(s, name);
    return text_blank(v) ? NULL : v;
}

void llm_config_from_settings(llm_config *cfg, const settings *s)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->openai_api_key = env_nonempty(s, "OPENAI_API_KEY");
    cfg->openai_base_url = env_nonempty(s, "OPENAI_BASE_URL");
    cfg->openai_base_url_set = cfg->openai_base_url != NULL;
    if (!cfg->openai_base_url) cfg->openai_base_url = LLM_DEFAULT_OPENAI_BASE_URL;
    cfg->anthropic_api_key = env_nonempty(s, "ANTHROPIC_API_KEY");
    cfg->anthropic_base_url = env_nonempty(s, "ANTHROPIC_BASE_URL");
    if (!cfg->anthropic_base_url) cfg->anthropic_base_url = LLM_DEFAULT_ANTHROPIC_BASE_URL;
    cfg->test_response = settings_text(s, "CHIDORI_TEST_LLM_RESPONSE"); /* "" is a valid (empty) reply */
    /* the original chidori's OpenAI-compatible pair, under its two names (ours first) */
    cfg->compat_url = setting_nonblank(s, "CHIDORI_OPENAI_COMPAT_URL");
    if (!cfg->compat_url) cfg->compat_url = env_nonempty(s, "LITELLM_API_URL");
    cfg->compat_key = setting_nonblank(s, "CHIDORI_OPENAI_COMPAT_KEY");
    if (!cfg->compat_key) cfg->compat_key = env_nonempty(s, "LITELLM_API_KEY");
    cfg->openrouter_api_key = env_nonempty(s, "OPENROUTER_API_KEY");
    if (!cfg->openrouter_api_key) { /* the key the original's model-login saved: the last resort (choose) */
        cfg->openrouter_api_key = settings_saved_openrouter_key(s);
        cfg->openrouter_key_saved = cfg->openrouter_api_key != NULL;
    }
    cfg->openrouter_base_url = setting_nonblank(s, "CHIDORI_OPENROUTER_URL");
    if (!cfg->openrouter_base_url) cfg->openrouter_base_url = LLM_DEFAULT_OPENROUTER_BASE_URL;
    cfg->default_model = settings_nonempty(s, "CHIDORI_MODEL");
    if (!cfg->default_model) cfg->default_model = env_nonempty(s, "ANTHROPIC_MODEL");
    cfg->timeout_ms = (long)settings_u64(s, "CHIDORI_LLM_TIMEOUT_MS");
    cfg->max_response_bytes = LLM_DEFAULT_MAX_RESPONSE_BYTES;
    cfg->test_tool_call = settings_nonempty(s, "CHIDORI_TEST_LLM_TOOL_CALL");
    cfg->cache_dir = setting_nonblank(s, "CHIDORI_PROMPT_CACHE_DIR");
    cfg->cache_max_bytes = settings_u64(s, "CHIDORI_PROMPT_CACHE_MAX_MB") << 20;
    /* the original chidori's request limits; 0 is no limit, and the compatible endpoint's second
     * name counts when the first is 0 or unset */
    cfg->rpm[PACE_ANTHROPIC] = (uint32_t)settings_u64(s, "CHIDORI_ANTHROPIC_RPM");
    cfg->rpm[PACE_OPENAI] = (uint32_t)settings_u64(s, "CHIDORI_OPENAI_RPM");
    cfg->rpm[PACE_COMPAT] = (uint32_t)settings_u64(s, "CHIDORI_OPENAI_COMPAT_RPM");
    if (!cfg->rpm[PACE_COMPAT]) cfg->rpm[PACE_COMPAT] = (uint32_t)settings_u64(s, "CHIDORI_LITELLM_RPM");
    cfg->rpm[PACE_OPENROUTER] = (uint32_t)settings_u64(s, "CHIDORI_OPENROUTER_RPM");
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

/* The answer's headers a retry reads: Retry-After and retry-after-ms, as sent (bounded). */
typedef struct retry_headers {
    char after[64], after_ms[64];
} retry_headers;

static void keep_header(char *dst, size_t cap, const char *v, size_t n)
{
    while (n && (v[n - 1] == '\r' || v[n - 1] == '\n' || v[n - 1] == ' ' || v[n - 1] == '\t')) n--;
    while (n && (*v == ' ' || *v == '\t')) v++, n--;
    if (n >= cap) n = 0; /* a longer value is no number or date we read: not its front either */
    memcpy(dst, v, n);
    dst[n] = '\0';
}

static size_t on_header(char *ptr, size_t size, size_t nmemb, void *ud)
{
    retry_headers *rh = ud;
    size_t n = size * nmemb;
    if (n > 15 && !strncasecmp(ptr, "retry-after-ms:", 15)) keep_header(rh->after_ms, sizeof rh->after_ms, ptr + 15, n - 15);
    else if (n > 12 && !strncasecmp(ptr, "retry-after:", 12)) keep_header(rh->after, sizeof rh->after, ptr + 12, n - 12);
    return n;
}

/* libcurl's progress callback: a cancelled run ends its call (at least once a second, libcurl's
 * promise, and at every read and write). */
static int on_progress(void *cancel, curl_off_t dt, curl_off_t dn, curl_off_t ut, curl_off_t un)
{
    return cancel && atomic_load((const atomic_int *)cancel) ? 1 : 0;
}

/* POST body to url, the answer's bytes to write_fn(write_data); sink's cap bounds the size; the
 * attempt may take timeout ms (the call's timeout, cfg's, is what an error names); rh (or NULL)
 * gets the retry headers. 0 with *status; -1 with *error (no provider prefix). */
static int http_post(const llm_config *cfg, const char *url, struct curl_slist *headers, const char *body,
                     size_t body_len, curl_write_callback write_fn, void *write_data, CURL **handle, long *status,
                     body_sink *sink, long timeout, retry_headers *rh, char **error)
{
    if (llm_global_init() != 0) return fail(error, xstrdup("libcurl initialisation failed"));
    CURL *c = curl_easy_init();
    if (!c) return fail(error, xstrdup("libcurl: cannot create a handle"));
    long call_timeout = cfg->timeout_ms > 0 ? cfg->timeout_ms : LLM_DEFAULT_TIMEOUT_MS;
    if (timeout < 1) timeout = 1;
    if (rh) {
        curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
        curl_easy_setopt(c, CURLOPT_HEADERDATA, rh);
    }
    if (cfg->cancel) {
        curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
        curl_easy_setopt(c, CURLOPT_XFERINFODATA, (void *)cfg->cancel);
        curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
    }
    char errbuf[CURL_ERROR_SIZE] = "";
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_POST, 1L);
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_len);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
    *handle = c; /* for the write function, while the call runs */
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, write_fn);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, write_data);
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
    *handle = NULL;
    if (rc == CURLE_OK) return 0;
    char *detail = llm_excerpt(errbuf, strlen(errbuf), 200);
    const char *d = *detail ? detail : curl_easy_strerror(rc);
    int r;
    if (sink->over || rc == CURLE_FILESIZE_EXCEEDED)
        r = fail(error, xasprintf("response larger than the %zu-byte limit", sink->cap));
    else if (rc == CURLE_ABORTED_BY_CALLBACK)
        r = fail(error, xstrdup("the run was cancelled during the call"));
    else if (rc == CURLE_OPERATION_TIMEDOUT)
        r = fail(error, xasprintf("request timed out after %ld ms (%s)", call_timeout, d));
    else if (rc == CURLE_COULDNT_CONNECT)
        r = fail(error, xasprintf("cannot connect: %s (%s)", errno_text(os_errno), d));
    else if (rc == CURLE_COULDNT_RESOLVE_HOST)
        r = fail(error, xasprintf("cannot resolve the host (%s)", d));
    else
        r = fail(error, xasprintf("request failed: %s (%s)", curl_easy_strerror(rc), d));
    free(detail);
    return r;
}

/* The endpoint: a base URL that already ends in path is used as it is; otherwise the base without
 * its trailing slashes + path. -1 when the base is not http(s). */
static int make_url(const char *base, const char *path, char **url, char **error)
{
    if (strncmp(base, "http://", 7) != 0 && strncmp(base, "https://", 8) != 0)
        return fail(error, xstrdup("the base URL must start with http:// or https://"));
    if (has_ctl(base)) return fail(error, xstrdup("the base URL contains control characters"));
    size_t n = strlen(base), pl = strlen(path);
    if (n >= pl && !strcmp(base + n - pl, path)) {
        *url = xstrdup(base);
        return 0;
    }
    while (n > 0 && base[n - 1] == '/') n--;
    *url = xasprintf("%.*s%s", (int)n, base, path);
    return 0;
}

/* The host of an http(s) URL, for an error label (malloc'd; "" when there is none). */
static char *url_host(const char *url)
{
    const char *h = strstr(url, "://");
    h = h ? h + 3 : url;
    const char *at = NULL;
    for (const char *p = h; *p && *p != '/' && *p != '?' && *p != '#'; p++)
        if (*p == '@') at = p;
    if (at) h = at + 1;
    size_t n = strcspn(h, "/?#");
    char *ex = llm_excerpt(h, n, 100);
    return ex;
}

/* ---------- providers ---------- */

typedef enum { P_NONE, P_TEST, P_OPENAI, P_ANTHROPIC, P_COMPAT, P_OPENROUTER } provider_kind;

static const char *provider_name(provider_kind p)
{
    switch (p) {
    case P_OPENAI: return "openai";
    case P_ANTHROPIC: return "anthropic";
    case P_COMPAT: return "openai-compatible";
    case P_OPENROUTER: return "openrouter";
    case P_TEST: return "test";
    default: return "llm";
    }
}

/* What an error names: the provider, or for a compatible endpoint its host. Malloc'd. */
static char *provider_label(const llm_config *cfg, provider_kind p)
{
    if (p != P_COMPAT) return xstrdup(provider_name(p));
    char *host = url_host(cfg->compat_url ? cfg->compat_url : "");
    char *l = xasprintf("OpenAI-compatible endpoint %s", host);
    free(host);
    return l;
}

static bool has_prefix(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

static bool openai_family(const char *model)
{
    return model && (has_prefix(model, "gpt") || has_prefix(model, "o1") || has_prefix(model, "o3") ||
                     has_prefix(model, "o4") || has_prefix(model, "chatgpt"));
}

static bool set(const char *v) { return v && *v; }

static provider_kind choose(const llm_config *cfg, const char *model, char **error)
{
    if (cfg->test_response) return P_TEST;
    bool oa = set(cfg->openai_api_key), an = set(cfg->anthropic_api_key);
    bool compat = set(cfg->compat_url), orr_any = set(cfg->openrouter_api_key);
    bool orr = orr_any && !cfg->openrouter_key_saved; /* a saved key serves only what nothing else can */
    if (!oa && !an && !compat && !orr_any) {
        *error = xstrdup("no LLM provider configured: set ANTHROPIC_API_KEY, OPENAI_API_KEY, CHIDORI_OPENAI_COMPAT_URL "
                         "(or LITELLM_API_URL) for any OpenAI-compatible endpoint, OPENROUTER_API_KEY (or sign in "
                         "with the original chidori's model-login), or CHIDORI_TEST_LLM_RESPONSE");
        return P_NONE;
    }
    /* the original chidori's order */
    if (an && model && has_prefix(model, "claude")) return P_ANTHROPIC;
    if (oa && (openai_family(model) || cfg->openai_base_url_set)) return P_OPENAI;
    if (compat) return P_COMPAT;
    if (orr) return P_OPENROUTER;
    /* then ours: an OpenAI key serves any model (a gateway may serve it); Anthropic the rest */
    if (oa) return P_OPENAI;
    if (an && !openai_family(model)) return P_ANTHROPIC;
    if (orr_any) return P_OPENROUTER; /* the key saved in ~/.chidori/credentials.json */
    char *ex = llm_excerpt(model, strlen(model), 80);
    *error = xasprintf("model \"%s\" needs OPENAI_API_KEY (only ANTHROPIC_API_KEY is set)", ex);
    free(ex);
    return P_NONE;
}

const char *llm_anthropic_alias(const char *model)
{
    /* The family names only. The original also maps 3.x short names (claude-3-5-haiku, …) to 4.x
     * models; a request that names a 3.x model here gets that model (docs/effects.md). */
    static const char *const aliases[][2] = {
        {"claude-sonnet", "claude-sonnet-4-6"},
        {"claude-opus", "claude-opus-4-7"},
        {"claude-haiku", "claude-haiku-4-5"},
    };
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (!strcmp(model, aliases[i][0])) return aliases[i][1];
    return model;
}

char *llm_openrouter_slug(const char *model)
{
    if (strchr(model, '/')) return xstrdup(model);
    if (has_prefix(model, "claude-")) {
        /* anthropic/<full id>, its last "-X-Y" (a version) written "X.Y" */
        char *id = xstrdup(llm_anthropic_alias(model));
        size_t n = strlen(id);
        char *last = strrchr(id, '-');
        if (last && last > id) {
            char *prev = last - 1;
            while (prev > id && *prev != '-') prev--;
            bool digits = *prev == '-' && last + 1 < id + n;
            for (char *p = prev + 1; digits && p < last; p++) digits = *p >= '0' && *p <= '9';
            for (char *p = last + 1; digits && *p; p++) digits = *p >= '0' && *p <= '9';
            if (digits && last - prev > 1) *last = '.';
        }
        char *slug = xasprintf("anthropic/%s", id);
        free(id);
        return slug;
    }
    if (has_prefix(model, "gpt") || has_prefix(model, "o1") || has_prefix(model, "o3") || has_prefix(model, "o4"))
        return xasprintf("openai/%s", model);
    return xstrdup(model);
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

/* The test provider's count of calls: the process's (one for a CLI command, one for a whole
 * `serve`), as the original chidori counts them. */
static atomic_uint test_calls;

void llm_test_provider_reset(void) { atomic_store(&test_calls, 0); }

static bool has_tool_result(const json_t *request)
{
    const json_t *msgs = json_object_get(request, "messages");
    for (size_t i = 0; json_is_array(msgs) && i < msgs->u.array.len; i++) {
        const char *role = json_string_value(json_object_get(msgs->u.array.items[i], "role"));
        if (role && !strcmp(role, "tool")) return true;
    }
    return false;
}

/* CHIDORI_TEST_LLM_TOOL_CALL's reply: a call of that tool ({id?, name?, input?}: "test-tool-call",
 * "read" and null when left out), no text. NULL when this is not the process's first call or the
 * request already answers a tool call. */
static json_t *test_tool_call(const llm_config *cfg, const json_t *request, const char *model)
{
    unsigned n = atomic_fetch_add(&test_calls, 1);
    if (n != 0 || !cfg->test_tool_call || has_tool_result(request)) return NULL;
    json_limits lim = {64 << 10, 32, 0};
    json_t *spec = json_parse(cfg->test_tool_call, strlen(cfg->test_tool_call), &lim, NULL);
    if (!json_is_object(spec)) { /* the settings checked it; a caller that fills cfg itself may not have */
        json_free(spec);
        return NULL;
    }
    const char *id = json_string_value(json_object_get(spec, "id")), *name = json_string_value(json_object_get(spec, "name"));
    const json_t *input = json_object_get(spec, "input");
    json_t *call = json_object();
    json_object_set(call, "id", json_string(id ? id : "test-tool-call"));
    json_object_set(call, "name", json_string(name ? name : "read"));
    json_object_set(call, "input", input ? json_copy(input) : json_null());
    json_free(spec);
    json_t *r = test_response(cfg, model);
    json_object_set(r, "content", json_string(""));
    json_array_push((json_t *)json_object_get(r, "toolCalls"), call);
    json_object_set(r, "stopReason", json_string("tool_use"));
    return r;
}

#define TEST_STREAM_PIECES 4

/* The test provider streams its reply in up to TEST_STREAM_PIECES pieces, each ending after a
 * space where there is one (a piece never splits a UTF-8 sequence), so callers see deltas. */
static void test_stream(const char *text, const llm_stream *st)
{
    size_t len = strlen(text), at = 0;
    size_t step = len / TEST_STREAM_PIECES + 1;
    while (at < len) {
        size_t end = at + step < len ? at + step : len;
        while (end < len && text[end - 1] != ' ' && ((unsigned char)text[end] & 0xc0) != 0x80 && end - at < 2 * step) end++;
        while (end < len && ((unsigned char)text[end] & 0xc0) == 0x80) end++;
        st->delta(st->ctx, text + at, end - at);
        at = end;
    }
}

/* ---------- streamed transport ---------- */

/* What a streamed call's bytes go to: an SSE stream (2xx text/event-stream) into the parser, or
 * anything else whole into raw (a non-2xx error body, or a server that answered JSON). */
typedef struct stream_sink {
    CURL *c;
    body_sink raw;
    int mode; /* 0 not known yet, 1 raw, 2 SSE */
    llm_sse sse;
    char *error; /* the parser's */
} stream_sink;

static size_t on_stream_body(char *ptr, size_t size, size_t nmemb, void *ud)
{
    stream_sink *s = ud;
    size_t n = size * nmemb;
    if (s->mode == 0) {
        long status = 0;
        char *ctype = NULL;
        curl_easy_getinfo(s->c, CURLINFO_RESPONSE_CODE, &status);
        curl_easy_getinfo(s->c, CURLINFO_CONTENT_TYPE, &ctype);
        s->mode = status >= 200 && status <= 299 && ctype && !strncasecmp(ctype, "text/event-stream", 17) ? 2 : 1;
    }
    if (s->mode == 1) return on_body(ptr, size, nmemb, &s->raw);
    if (s->error) return 0;
    if (llm_sse_feed(&s->sse, ptr, n, &s->error) < 0) return 0; /* != n: libcurl aborts */
    return n;
}

/* ---------- pacing: the rate limits and the retries (llm_pace.c) ---------- */

/* The call's time (timeout_ms, or the default), at most a day: an embedder's huge value cannot
 * overflow a deadline. */
static long call_time_ms(const llm_config *cfg)
{
    long t = cfg->timeout_ms > 0 ? cfg->timeout_ms : LLM_DEFAULT_TIMEOUT_MS;
    return t > 86400000L ? 86400000L : t;
}

/* What must be left of the call's time to start an attempt: a second, or a quarter of a short
 * call's time. */
static int64_t llm_attempt_budget_ms(const llm_config *cfg)
{
    long t = call_time_ms(cfg);
    return t / 4 < 1000 ? t / 4 : 1000;
}

static pace_provider pace_of(provider_kind p)
{
    switch (p) {
    case P_ANTHROPIC: return PACE_ANTHROPIC;
    case P_COMPAT: return PACE_COMPAT;
    case P_OPENROUTER: return PACE_OPENROUTER;
    default: return PACE_OPENAI;
    }
}

/* The setting a limit came from, for its errors. */
static const char *rpm_setting(provider_kind p)
{
    switch (p) {
    case P_ANTHROPIC: return "CHIDORI_ANTHROPIC_RPM";
    case P_COMPAT: return "CHIDORI_OPENAI_COMPAT_RPM";
    case P_OPENROUTER: return "CHIDORI_OPENROUTER_RPM";
    default: return "CHIDORI_OPENAI_RPM";
    }
}

static void append_to(char **error, char *more)
{
    char *both = xasprintf("%s%s", *error ? *error : "", more);
    free(*error);
    free(more);
    *error = both;
}

/* After the attempt-th answer refusing the call for now (its error in *error): true when the call
 * waited what the provider asked and goes again; false with *error saying why it stops. */
static bool retry_wait(const llm_config *cfg, int attempt, const retry_headers *rh, int64_t deadline_ms, int64_t need_ms,
                       char **error)
{
    const char *s = attempt == 1 ? "" : "s";
    if (attempt >= LLM_PACE_MAX_ATTEMPTS) {
        append_to(error, xasprintf(" (after %d attempts)", attempt));
        return false;
    }
    int64_t wait = llm_pace_retry_wait_ms(rh->after_ms[0] ? rh->after_ms : NULL, rh->after[0] ? rh->after : NULL, attempt,
                                          clock_realtime_ms());
    if (clock_monotonic_ms() + wait + need_ms > deadline_ms) {
        append_to(error, xasprintf(" (after %d attempt%s: the next would start %lld ms from now, after the call's time "
                                   "(CHIDORI_LLM_TIMEOUT_MS) runs out)",
                                   attempt, s, (long long)wait));
        return false;
    }
    if (llm_pace_sleep(wait, cfg->cancel) != 0) {
        append_to(error, xasprintf(" (after %d attempt%s; the run was cancelled while the call waited to try again)", attempt, s));
        return false;
    }
    return true;
}

/* ---------- one call ---------- */

/* The base URL a provider's requests go to. */
static const char *provider_base(const llm_config *cfg, provider_kind p)
{
    const char *base = p == P_ANTHROPIC ? cfg->anthropic_base_url : p == P_COMPAT ? cfg->compat_url
                     : p == P_OPENROUTER ? cfg->openrouter_base_url : cfg->openai_base_url;
    if (base && *base) return base;
    return p == P_ANTHROPIC ? LLM_DEFAULT_ANTHROPIC_BASE_URL : p == P_OPENROUTER ? LLM_DEFAULT_OPENROUTER_BASE_URL
                                                                                 : LLM_DEFAULT_OPENAI_BASE_URL;
}

static int call_provider(const llm_config *cfg, provider_kind p, const json_t *req, const char *model,
                         const llm_stream *stream, int64_t deadline_ms, json_t **out, char **error)
{
    bool anthropic = p == P_ANTHROPIC;
    const char *key, *base = provider_base(cfg, p), *key_name;
    switch (p) {
    case P_ANTHROPIC: key = cfg->anthropic_api_key, key_name = "ANTHROPIC_API_KEY"; break;
    case P_COMPAT: key = cfg->compat_key, key_name = "CHIDORI_OPENAI_COMPAT_KEY"; break;
    case P_OPENROUTER:
        key = cfg->openrouter_api_key;
        key_name = cfg->openrouter_key_saved ? "the OpenRouter key in ~/.chidori/credentials.json" : "OPENROUTER_API_KEY";
        break;
    default: key = cfg->openai_api_key, key_name = "OPENAI_API_KEY"; break;
    }
    if (!key) key = ""; /* a compatible endpoint without a key still gets `Bearer ` */
    if (has_ctl(key)) return fail(error, xasprintf("%s contains control characters", key_name));
    char *url;
    if (make_url(base, anthropic ? "/v1/messages" : "/chat/completions", &url, error) != 0) return -1;

    json_t *wire = anthropic ? llm_anthropic_body(req, model) : llm_openai_body(req, model);
    if (stream) {
        json_object_set(wire, "stream", json_bool(true));
        if (!anthropic) {
            json_t *so = json_object();
            json_object_set(so, "include_usage", json_bool(true));
            json_object_set(wire, "stream_options", so);
        }
    }
    size_t body_len;
    char *body = json_dump(wire, JSON_COMPACT, &body_len);
    json_free(wire);

    struct curl_slist *h = NULL;
    char *auth = anthropic ? xasprintf("x-api-key: %s", key) : xasprintf("Authorization: Bearer %s", key);
    h = curl_slist_append(h, "Content-Type: application/json");
    h = curl_slist_append(h, stream ? "Accept: text/event-stream" : "Accept: application/json");
    h = curl_slist_append(h, "Expect:");
    h = curl_slist_append(h, auth);
    if (anthropic) h = curl_slist_append(h, "anthropic-version: 2023-06-01");
    memset(auth, 0, strlen(auth));
    free(auth);

    size_t cap = cfg->max_response_bytes ? cfg->max_response_bytes : LLM_DEFAULT_MAX_RESPONSE_BYTES;
    int r = h ? 0 : fail(error, xstrdup("libcurl: cannot build the request headers"));
    /* an attempt is started only with this much of the call's time left (a request sent with a
     * few ms to live could be performed, and paid, and still time out here) */
    int64_t need_ms = llm_attempt_budget_ms(cfg);
    char *refusal = NULL; /* the last "refused for now", while the call tries again */
    bool refused = false;  /* the last attempt was refused for now too */
    int attempt = 1;
    for (; r == 0; attempt++) {
        refused = false;
        pace_provider pp = pace_of(p);
        if (llm_pace_acquire(pp, cfg->rpm[pp], rpm_setting(p), cfg->pace_owner, deadline_ms, need_ms, cfg->cancel, error) != 0) {
            r = -1;
            break;
        }
        stream_sink ss = {.raw = {.cap = cap}};
        llm_stream_acc *acc = NULL;
        if (stream) {
            acc = llm_stream_acc_new(anthropic ? LLM_WIRE_ANTHROPIC : LLM_WIRE_OPENAI, cap, stream->delta, stream->ctx);
            llm_sse_init(&ss.sse, cap, cap, llm_stream_acc_event, acc);
        }
        long status = 0;
        retry_headers rh;
        memset(&rh, 0, sizeof rh);
        r = http_post(cfg, url, h, body, body_len, stream ? on_stream_body : on_body, stream ? (void *)&ss : (void *)&ss.raw,
                      &ss.c, &status, &ss.raw, (long)(deadline_ms - clock_monotonic_ms()), &rh, error);
        if (r != 0 && ss.error) { /* the stream broke a limit or reported an error: that is the cause */
            free(*error);
            *error = ss.error, ss.error = NULL;
        }
        bool again = false;
        if (r == 0) {
            const char *data = ss.raw.data.data ? ss.raw.data.data : "";
            if (status < 200 || status > 299) {
                /* refused for now: nothing was streamed (a non-2xx answer is never fed to the
                 * parser), so the next attempt starts clean */
                *error = llm_http_error(status, data, ss.raw.data.len);
                r = -1;
                refused = llm_pace_retryable(status);
                if (refused) again = retry_wait(cfg, attempt, &rh, deadline_ms, need_ms, error);
            } else if (ss.mode == 2) {
                r = llm_sse_finish(&ss.sse, error);
                if (r == 0) r = llm_stream_acc_finish(acc, model, out, error);
            } else {
                r = anthropic ? llm_anthropic_parse(data, ss.raw.data.len, cap, model, out, error)
                              : llm_openai_parse(data, ss.raw.data.len, cap, model, out, error);
                /* asked to stream, answered whole: the reply is one piece */
                const json_t *content = json_object_get(*out, "content");
                if (r == 0 && stream && content->u.string.len) stream->delta(stream->ctx, content->u.string.bytes, content->u.string.len);
            }
        }
        if (r != 0 && !refused && llm_stream_acc_refused_for_now(acc)) {
            /* overloaded or rate-limited, said in the stream after its 200, before any text was
             * told: tried again as the status would be (no retry header: the backoff) */
            refused = true;
            again = retry_wait(cfg, attempt, &rh, deadline_ms, need_ms, error);
        }
        free(ss.error);
        if (stream) llm_sse_free(&ss.sse);
        llm_stream_acc_free(acc);
        buf_free(&ss.raw.data);
        if (!again) break;
        free(refusal);
        refusal = *error;
        *error = NULL;
        r = 0;
    }
    if (r != 0 && refusal && !refused) { /* a later attempt ended otherwise: the refusals before it are part of the story */
        char *ex = llm_excerpt(refusal, strlen(refusal), 200);
        append_to(error, xasprintf(" (attempt %d; refused before it: %s)", attempt, ex));
        free(ex);
    }
    free(refusal);
    curl_slist_free_all(h); /* libcurl does not scrub the copy of the key header; nothing we can do */
    free(body);
    free(url);
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
    return llm_complete_stream(cfg, request, NULL, response, error);
}

int llm_complete_stream(const llm_config *cfg, const json_t *request, const llm_stream *stream, json_t **response,
                        char **error)
{
    *response = NULL;
    *error = NULL;
    int64_t deadline_ms = clock_monotonic_ms() + call_time_ms(cfg);
    const char *model = json_string_value(json_object_get(request, "model"));
    if (model && !*model) model = NULL;
    if (!model) model = cfg->default_model && *cfg->default_model ? cfg->default_model : NULL;
    char *cause = NULL;
    provider_kind p = choose(cfg, model, &cause);
    if (p == P_NONE) {
        *error = cause;
        return -1;
    }
    char *sent = NULL; /* the model name the provider gets */
    if (p == P_ANTHROPIC) sent = xstrdup(llm_anthropic_alias(model ? model : LLM_DEFAULT_ANTHROPIC_MODEL));
    else if (p == P_OPENROUTER) sent = llm_openrouter_slug(model ? model : LLM_DEFAULT_ANTHROPIC_MODEL);
    else if (p != P_TEST) sent = xstrdup(model ? model : LLM_DEFAULT_OPENAI_MODEL);
    else if (model) sent = xstrdup(model);
    if (stream && stream->start) stream->start(stream->ctx, sent ? sent : "test");

    json_t *out = NULL;
    size_t cap = cfg->max_response_bytes ? cfg->max_response_bytes : LLM_DEFAULT_MAX_RESPONSE_BYTES;
    char cache_key[65];
    bool cache_new = false;
    int r = llm_validate_request(request, &cause);
    if (r == 0) {
        if (p == P_TEST) {
            out = test_tool_call(cfg, request, sent);
            if (!out) {
                out = test_response(cfg, sent);
                if (stream && stream->delta) test_stream(cfg->test_response, stream);
            }
        } else {
            /* the prompt cache, when the operator keeps one: an exact repeat is answered from it
             * (as one piece when streamed), and a new answer goes into it */
            const llm_stream *st = stream && stream->delta ? stream : NULL;
            if (cfg->cache_dir) {
                json_t *wire = p == P_ANTHROPIC ? llm_anthropic_body(request, sent) : llm_openai_body(request, sent);
                size_t n;
                char *text = json_dump(wire, JSON_COMPACT, &n);
                llm_cache_key(provider_name(p), provider_base(cfg, p), text, n, cache_key);
                free(text);
                json_free(wire);
                out = llm_cache_lookup(cfg->cache_dir, cache_key, cap);
            }
            const json_t *content = json_object_get(out, "content");
            if (out && st && content->u.string.len) st->delta(st->ctx, content->u.string.bytes, content->u.string.len);
            if (!out) {
                r = call_provider(cfg, p, request, sent, st, deadline_ms, &out, &cause);
                cache_new = r == 0 && cfg->cache_dir;
            }
        }
    }
    free(sent);
    if (r == 0) json_object_set(out, "provider", json_string(provider_name(p)));
    if (r == 0 && llm_wants_json(request)) {
        const json_t *calls = json_object_get(out, "toolCalls");
        if (!json_is_array(calls) || calls->u.array.len == 0) {
            const json_t *content = json_object_get(out, "content");
            json_t *value = NULL;
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
        char *label = provider_label(cfg, p);
        *error = xasprintf("%s: %s", label, cause);
        free(label);
        free(cause);
        redact(error, cfg->openai_api_key);
        redact(error, cfg->anthropic_api_key);
        redact(error, cfg->compat_key);
        redact(error, cfg->openrouter_api_key);
        return -1;
    }
    if (cache_new) llm_cache_store(cfg->cache_dir, cache_key, out, cap, cfg->cache_max_bytes ? cfg->cache_max_bytes : (uint64_t)1 << 30);
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

void llm_response_extras(json_t *res, const json_t *id, const json_t *cache_read, const json_t *cache_creation)
{
    if (json_is_string(id) && id->u.string.len > 0) json_object_set(res, "id", json_copy(id));
    json_t *u = json_object_get(res, "usage");
    if (cache_read && cache_read->type == JSON_NUMBER)
        json_object_set(u, "cacheReadTokens", json_number(llm_count(cache_read)));
    if (cache_creation && cache_creation->type == JSON_NUMBER)
        json_object_set(u, "cacheCreationTokens", json_number(llm_count(cache_creation)));
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

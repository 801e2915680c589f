/* curl_lazy.c — libcurl, loaded on first use instead of at start-up.
 *
 * Linking libcurl pulls in some thirty shared libraries (TLS, Kerberos, LDAP, IDN…), and the
 * dynamic loader's work on them cost about 4 ms on every start of chidori — four times the
 * whole of a hello-world run. Only runs that talk HTTP need it, so this file defines the few
 * libcurl functions chidori calls and forwards each to the real library, which it dlopens
 * (libcurl.so.4) the first time one is called. If the library is missing, calls fail with
 * CURLE_FAILED_INIT and curl_easy_strerror says so.
 *
 * The URL API (curl_url*, curl_free) is bound when present and not required: without it only
 * the `http` effect fails (it cannot parse URLs), provider calls still work.
 *
 * curl_easy_setopt is variadic; its one argument is a long, a pointer (data or function) or a
 * curl_off_t according to the option's number range, exactly as libcurl itself reads it.
 */
#define CURL_DISABLE_TYPECHECK
/* curl_url_get's handle became const in later releases: keep the header's declaration out of the
 * way and define the function with one signature (the ABI is the same either way). */
#define curl_url_get curl_url_get_as_declared
#include <curl/curl.h>
#undef curl_url_get

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    /* the URL API (libcurl >= 7.62), used by the `http` effect; optional: the rest works without */
    CURLU *(*url)(void);
    void (*url_cleanup)(CURLU *);
    CURLUcode (*url_set)(CURLU *, CURLUPart, const char *, unsigned int);
    CURLUcode (*url_get)(CURLU *, CURLUPart, char **, unsigned int);
    void (*free)(void *);
    int loaded;
} api;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void)
{
    void *lib = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return;
#define BIND(field, name) *(void **)&api.field = dlsym(lib, name)
    BIND(global_init, "curl_global_init");
    BIND(easy_init, "curl_easy_init");
    BIND(easy_setopt, "curl_easy_setopt");
    BIND(easy_perform, "curl_easy_perform");
    BIND(easy_getinfo, "curl_easy_getinfo");
    BIND(easy_cleanup, "curl_easy_cleanup");
    BIND(easy_strerror, "curl_easy_strerror");
    BIND(slist_append, "curl_slist_append");
    BIND(slist_free_all, "curl_slist_free_all");
    BIND(url, "curl_url");
    BIND(url_cleanup, "curl_url_cleanup");
    BIND(url_set, "curl_url_set");
    BIND(url_get, "curl_url_get");
    BIND(free, "curl_free");
#undef BIND
    api.loaded = api.global_init && api.easy_init && api.easy_setopt && api.easy_perform && api.easy_getinfo &&
                 api.easy_cleanup && api.easy_strerror && api.slist_append && api.slist_free_all;
}

static int ready(void)
{
    pthread_once(&load_once, load);
    return api.loaded;
}

CURLcode curl_global_init(long flags) { return ready() ? api.global_init(flags) : CURLE_FAILED_INIT; }
CURL *curl_easy_init(void) { return ready() ? api.easy_init() : NULL; }
CURLcode curl_easy_perform(CURL *c) { return ready() ? api.easy_perform(c) : CURLE_FAILED_INIT; }

void curl_easy_cleanup(CURL *c)
{
    if (ready() && c) api.easy_cleanup(c);
}

const char *curl_easy_strerror(CURLcode code)
{
    return ready() ? api.easy_strerror(code) : "libcurl (libcurl.so.4) is not installed";
}

struct curl_slist *curl_slist_append(struct curl_slist *list, const char *s)
{
    return ready() ? api.slist_append(list, s) : NULL;
}

void curl_slist_free_all(struct curl_slist *list)
{
    if (ready() && list) api.slist_free_all(list);
}

static int url_ready(void) { return ready() && api.url && api.url_cleanup && api.url_set && api.url_get && api.free; }

CURLU *curl_url(void) { return url_ready() ? api.url() : NULL; }

void curl_url_cleanup(CURLU *u)
{
    if (url_ready() && u) api.url_cleanup(u);
}

CURLUcode curl_url_set(CURLU *u, CURLUPart what, const char *part, unsigned int flags)
{
    return url_ready() ? api.url_set(u, what, part, flags) : CURLUE_OUT_OF_MEMORY;
}

CURLUcode curl_url_get(CURLU *u, CURLUPart what, char **part, unsigned int flags);
CURLUcode curl_url_get(CURLU *u, CURLUPart what, char **part, unsigned int flags)
{
    if (part) *part = NULL;
    return url_ready() ? api.url_get(u, what, part, flags) : CURLUE_OUT_OF_MEMORY;
}

void curl_free(void *p)
{
    if (url_ready() && p) api.free(p);
}

CURLcode curl_easy_setopt(CURL *c, CURLoption option, ...)
{
    if (!ready()) return CURLE_FAILED_INIT;
    va_list ap;
    va_start(ap, option);
    CURLcode rc;
    if (option < CURLOPTTYPE_OBJECTPOINT) {
        long v = va_arg(ap, long);
        rc = api.easy_setopt(c, option, v);
    } else if (option < CURLOPTTYPE_OFF_T) { /* object and function pointers */
        void *p = va_arg(ap, void *);
        rc = api.easy_setopt(c, option, p);
    } else if (option < CURLOPTTYPE_BLOB) {
        curl_off_t v = va_arg(ap, curl_off_t);
        rc = api.easy_setopt(c, option, v);
    } else {
        void *p = va_arg(ap, void *);
        rc = api.easy_setopt(c, option, p);
    }
    va_end(ap);
    return rc;
}

CURLcode curl_easy_getinfo(CURL *c, CURLINFO info, ...)
{
    if (!ready()) return CURLE_FAILED_INIT;
    va_list ap;
    va_start(ap, info);
    void *out = va_arg(ap, void *); /* every CURLINFO takes a pointer to its result */
    va_end(ap);
    return api.easy_getinfo(c, info, out);
}

void curl_restrict_to_http(CURL *c)
{
#if LIBCURL_VERSION_NUM >= 0x075500
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#else
    curl_easy_setopt(c, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
    curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(c, CURLOPT_PROXY, ""); /* ignore http_proxy & co. */
    curl_easy_setopt(c, CURLOPT_NOPROXY, "*");
}

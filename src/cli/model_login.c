/* model_login.c — `chidori model-login`: sign in to OpenRouter in a browser (OAuth with PKCE) and
 * save the key it gives in ~/.chidori/credentials.json, where the original chidori's command saves
 * it and where chidori.prompt's OpenRouter provider reads it (saved_keys.h).
 *
 * The flow: a one-time state, a one-time start address and a PKCE pair; a port on loopback
 * (login_listen.c) whose /start/<start> redirects once to the sign-in page, which is given
 * http://localhost:<port>/callback/<state> as its callback; the `code` that comes back exchanged,
 * with the verifier, for a key at <CHIDORI_OPENROUTER_URL>/auth/keys; the key merged into the
 * credentials file (its other members kept), written atomically, mode 0600 from the start, in a
 * 0700 folder. Only the start address leaves this process (printed, and given to the browser,
 * whose command line other users may read): the state and the challenge go to whoever opens it
 * first, and a second opening stops the sign-in.
 *
 * Owns: that command's flow, the credentials file's writing, the key exchange. Trusts: the
 * settings (the operator's); nothing that arrives on the port (login_listen.c), nor the exchange's
 * answer (capped, checked, never printed: only its error message is). The key is never printed.
 */
#define _GNU_SOURCE
#include "cli/cli.h"
#include "cli/login_callback.h"
#include "cli/login_listen.h"
#include "host/llm.h"
#include "settings/saved_keys.h"
#include "settings/settings.h"
#include "util/buf.h"
#include "util/curl_lazy.h"
#include "util/files.h"
#include "util/json.h"
#include "util/termtext.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define EXCHANGE_MS 30000
#define EXCHANGE_MAX_BYTES ((size_t)64 << 10)
#define KEY_MAX_BYTES 4096

static int failed(const char *message)
{
    fprintf(stderr, "chidori: model-login: %s\n", message);
    return 1;
}

/* Frees v with the bytes of every string in it overwritten first (it may hold keys). */
static void json_free_wiped(json_t *v)
{
    if (!v) return;
    if (v->type == JSON_STRING) explicit_bzero(v->u.string.bytes, v->u.string.len);
    if (v->type == JSON_ARRAY)
        for (size_t i = 0; i < v->u.array.len; i++) json_free_wiped(v->u.array.items[i]), v->u.array.items[i] = json_null();
    if (v->type == JSON_OBJECT)
        for (size_t i = 0; i < v->u.object.len; i++)
            json_free_wiped(v->u.object.items[i].value), v->u.object.items[i].value = json_null();
    json_free(v);
}

/* ---- the credentials file ---- */

/* The file's JSON object (a new one when there is no file); NULL with *error when it cannot be
 * read or holds anything else (left as it is: nothing of the user's is overwritten). */
static json_t *read_credentials(const char *path, char **error)
{
    struct stat st;
    if (lstat(path, &st) != 0) {
        if (errno == ENOENT) return json_object();
        *error = xasprintf("cannot look at %s: %s", path, strerror(errno));
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        /* chidori.prompt does not read through a link either (saved_keys.c) */
        *error = xasprintf("%s is not a plain file (a symbolic link, say); chidori neither reads nor writes through one: "
                           "put the file itself there, then sign in again",
                           path);
        return NULL;
    }
    size_t len = 0;
    char *why = NULL;
    char *text = read_regular_file_capped(path, CREDENTIALS_MAX_BYTES, &len, &why);
    if (!text) {
        *error = xasprintf("cannot read %s (%s); chidori leaves it as it is", path, why);
        free(why);
        return NULL;
    }
    json_limits lim = {CREDENTIALS_MAX_BYTES, 16, 0};
    json_t *v = json_parse(text, len, &lim, NULL);
    explicit_bzero(text, len);
    free(text);
    if (!json_is_object(v)) {
        json_free_wiped(v);
        *error = xasprintf("%s does not hold a JSON object; chidori leaves it as it is: move it away, then sign in again",
                           path);
        return NULL;
    }
    return v;
}

static int save_key(const char *dir, const char *path, const char *key, char **error)
{
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        *error = xasprintf("cannot create %s: %s", dir, strerror(errno));
        return -1;
    }
    chmod(dir, 0700); /* the folder of the user's secrets: theirs alone, as the original makes it */
    json_t *creds = read_credentials(path, error); /* again: another program may have written it meanwhile */
    if (!creds) return -1;
    json_object_set(creds, "openrouter_api_key", json_string(key));
    size_t len = 0;
    char *text = json_dump(creds, JSON_PRETTY, &len);
    json_free_wiped(creds);
    buf b = {0};
    buf_append(&b, text, len);
    buf_putc(&b, '\n');
    explicit_bzero(text, len);
    free(text);
    int rc = write_file_atomic(path, b.data, b.len, true, error); /* created 0600 */
    explicit_bzero(b.data, b.len);
    buf_free(&b);
    return rc;
}

/* ---- the browser ---- */

/* $BROWSER (one program, given the address as its argument), else xdg-open; its output goes
 * nowhere, SIGPIPE is its default again, and it is not waited for. Whether it opens anything is
 * the user's to see: the address is printed either way. */
static void open_browser(const char *program, const char *url)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    posix_spawnattr_t at;
    posix_spawnattr_init(&at);
    sigset_t def;
    sigemptyset(&def);
    sigaddset(&def, SIGPIPE); /* chidori ignores it (main.c); ignored stays ignored across exec */
    posix_spawnattr_setsigdefault(&at, &def);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGDEF);
    char *argv[] = {(char *)program, (char *)url, NULL};
    pid_t pid;
    (void)posix_spawnp(&pid, program, &fa, &at, argv, environ); /* not there: the address is printed */
    posix_spawnattr_destroy(&at);
    posix_spawn_file_actions_destroy(&fa);
}

/* ---- the exchange ---- */

typedef struct sink {
    buf data;
    bool over;
} sink;

static size_t collect(char *p, size_t size, size_t n, void *ud)
{
    sink *s = ud;
    if (s->data.len + size * n > EXCHANGE_MAX_BYTES) {
        s->over = true;
        return 0;
    }
    buf_append(&s->data, p, size * n);
    return size * n;
}

/* A key chidori can send as a header: printable ASCII without spaces, not too long. */
static bool usable_key(const json_t *k)
{
    if (!json_is_string(k) || k->u.string.len == 0 || k->u.string.len > KEY_MAX_BYTES) return false;
    for (size_t i = 0; i < k->u.string.len; i++)
        if ((unsigned char)k->u.string.bytes[i] <= 0x20 || (unsigned char)k->u.string.bytes[i] >= 0x7f) return false;
    return true;
}

/* Why the exchange answered status: its error's message when it has one (OpenRouter's
 * {"error": {"message": …}}), sanitized and cut; never the rest of the body, which could hold
 * anything (a key, too). */
static char *refusal(const json_t *v, long status)
{
    const json_t *e = json_object_get(v, "error");
    const json_t *m = json_is_object(e) ? json_object_get(e, "message") : e;
    if (!json_is_string(m)) return xasprintf("HTTP %ld", status);
    buf b = {0};
    term_sanitize(&b, m->u.string.bytes, m->u.string.len > 200 ? 200 : m->u.string.len, false);
    char *out = xasprintf("HTTP %ld: %s", status, b.data ? b.data : "");
    buf_free(&b);
    return out;
}

/* The key OpenRouter gives for code and verifier (malloc'd), or NULL with *error. */
static char *exchange(const char *base, const char *code, const char *verifier, char **error)
{
    size_t bl = strlen(base);
    while (bl && base[bl - 1] == '/') bl--;
    char *url = xasprintf("%.*s/auth/keys", (int)bl, base);
    json_t *req = json_object();
    json_object_set(req, "code", json_string(code));
    json_object_set(req, "code_verifier", json_string(verifier));
    json_object_set(req, "code_challenge_method", json_string("S256"));
    size_t body_len = 0;
    char *body = json_dump(req, JSON_COMPACT, &body_len);
    json_free_wiped(req);
    char *key = NULL;
    sink s = {{0}, false};
    CURL *c = llm_global_init() == 0 ? curl_easy_init() : NULL;
    if (!c) {
        *error = xstrdup("libcurl cannot be loaded, so the key cannot be fetched; nothing was saved");
    } else {
        struct curl_slist *headers = curl_slist_append(NULL, "Content-Type: application/json");
        char errbuf[CURL_ERROR_SIZE] = "";
        curl_restrict_to_http(c);
        curl_easy_setopt(c, CURLOPT_URL, url);
        curl_easy_setopt(c, CURLOPT_POST, 1L);
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
        curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, (long)body_len);
        curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
        curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, collect);
        curl_easy_setopt(c, CURLOPT_WRITEDATA, &s);
        curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)EXCHANGE_MS);
        curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
        curl_easy_setopt(c, CURLOPT_USERAGENT, "chidori");
        CURLcode rc = curl_easy_perform(c);
        long status = 0;
        curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
        curl_easy_cleanup(c);
        curl_slist_free_all(headers);
        json_limits lim = {EXCHANGE_MAX_BYTES, 16, 0};
        json_t *v = rc == CURLE_OK ? json_parse(s.data.data ? s.data.data : "", s.data.len, &lim, NULL) : NULL;
        const json_t *k = json_object_get(v, "key");
        if (rc != CURLE_OK) {
            *error = xasprintf("the key exchange at %s failed: %s; nothing was saved", url,
                               s.over ? "its answer is over 64 KiB" : *errbuf ? errbuf : curl_easy_strerror(rc));
        } else if (status < 200 || status > 299) {
            char *why = refusal(v, status);
            *error = xasprintf("the key exchange at %s answered %s; nothing was saved", url, why);
            free(why);
        } else if (!usable_key(k)) {
            *error = xasprintf("the key exchange at %s answered without a key chidori can use; nothing was saved", url);
        } else {
            key = xstrdup(k->u.string.bytes);
        }
        json_free_wiped(v);
    }
    if (s.data.data) explicit_bzero(s.data.data, s.data.len);
    buf_free(&s.data);
    explicit_bzero(body, body_len);
    free(body);
    free(url);
    return key;
}

/* ---- the command ---- */

static void wipe_free(char *s)
{
    if (s) explicit_bzero(s, strlen(s));
    free(s);
}

int cmd_model_login(int argc, char **argv, const settings *s)
{
    if (argc > 0) return cli_usage_error("model-login takes no arguments (got `%s`)", argv[0]);
    if (!text_blank(settings_env(s, "OPENROUTER_API_KEY"))) {
        puts("OPENROUTER_API_KEY is set, and chidori uses that key; unset it to sign in in a browser instead.");
        return 0;
    }
    const char *home = settings_env(s, "HOME");
    if (!home || !*home) return failed("HOME is not set, so there is no ~/.chidori to save the key in");
    const char *auth = settings_nonempty(s, "CHIDORI_OPENROUTER_AUTH_URL");
    if (!auth) auth = "https://openrouter.ai/auth";
    const char *base = settings_nonempty(s, "CHIDORI_OPENROUTER_URL");
    if (!base) base = "https://openrouter.ai/api/v1";
    if (strncmp(auth, "http://", 7) != 0 && strncmp(auth, "https://", 8) != 0)
        return failed("CHIDORI_OPENROUTER_AUTH_URL must start with http:// or https://");
    uint64_t timeout_ms = settings_u64(s, "CHIDORI_MODEL_LOGIN_TIMEOUT_MS");
    char *dir = xasprintf("%s/.chidori", home), *path = xasprintf("%s/credentials.json", dir), *error = NULL;
    char *state = NULL, *start = NULL, *verifier = NULL, *challenge = NULL, *code = NULL, *key = NULL, *sign_in = NULL;
    login_listen *l = NULL;
    int rc = 1;
    /* a file chidori would have to overwrite stops the sign-in before the browser opens */
    json_t *creds = read_credentials(path, &error);
    if (!creds) goto out;
    if (json_object_get(creds, "openrouter_api_key"))
        printf("%s already holds an OpenRouter key; signing in again replaces it.\n", path);
    json_free_wiped(creds);
    if (!(l = login_listen_open(&error))) goto out;
    state = login_new_state();
    start = login_new_state();
    login_new_pkce(&verifier, &challenge);
    char *callback = xasprintf("http://localhost:%d/callback/%s", login_listen_port(l), state);
    char *cb = login_url_encode(callback);
    sign_in = xasprintf("%s%scallback_url=%s&code_challenge=%s&code_challenge_method=S256", auth,
                        strchr(auth, '?') ? "&" : "?", cb, challenge);
    free(cb);
    free(callback);
    char *start_url = xasprintf("http://localhost:%d/start/%s", login_listen_port(l), start);
    printf("Sign in to OpenRouter in your browser. If no page opens, visit this address (on this machine: it\n"
           "leads to OpenRouter's sign-in page, once):\n\n  %s\n\nWaiting for the browser (up to %llu s)...\n",
           start_url, (unsigned long long)(timeout_ms + 999) / 1000);
    fflush(stdout);
    const char *browser = settings_env(s, "BROWSER");
    open_browser(browser && *browser ? browser : "xdg-open", start_url);
    free(start_url);
    code = login_listen_wait(l, start, state, sign_in, timeout_ms, &error);
    if (!code) goto out;
    puts("The browser came back; asking OpenRouter for a key...");
    fflush(stdout);
    if (!(key = exchange(base, code, verifier, &error))) goto out;
    if (save_key(dir, path, key, &error) != 0) goto out;
    printf("Signed in to OpenRouter; the key is saved in %s.\n", path);
    rc = 0;
out:
    if (error) failed(error);
    login_listen_close(l);
    free(error), free(dir), free(path), free(state), free(start), free(challenge), free(sign_in);
    wipe_free(verifier), wipe_free(code), wipe_free(key);
    while (waitpid(-1, NULL, WNOHANG) > 0) {} /* the browser opener, if it is done */
    return rc;
}

/* model_login.c — `chidori model-login`: sign in to OpenRouter in a browser (OAuth with PKCE) and
 * save the key it gives in ~/.chidori/credentials.json, where the original chidori's command saves
 * it and where chidori.prompt's OpenRouter provider reads it (saved_keys.h).
 *
 * The flow: a one-time state and a PKCE pair; a listener on 127.0.0.1 (a free port) whose only
 * accepted path is /callback/<state>; the browser sent to the sign-in page with that address as
 * its callback; the `code` that comes back exchanged, with the verifier, for a key at
 * <CHIDORI_OPENROUTER_URL>/auth/keys; the key merged into the credentials file (its other members
 * kept), written atomically, mode 0600 from the start, in a 0700 folder.
 *
 * Owns: that command. Trusts: the settings (the operator's); nothing that arrives on the port
 * (login_callback.c reads it: any local process or web page can connect, and only the one-time
 * path is taken, so a page cannot slip in a code of its own account), nor the exchange's answer
 * (capped, checked, never printed whole). The key is never printed.
 */
#define _GNU_SOURCE
#include "cli/cli.h"
#include "cli/login_callback.h"
#include "host/llm.h"
#include "settings/settings.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/curl_lazy.h"
#include "util/files.h"
#include "util/json.h"
#include "util/termtext.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define CREDENTIALS_MAX_BYTES ((size_t)64 << 10) /* as saved_keys.c reads it */
#define CONNECTION_MS 2000                       /* one connection's time to send its request line */
#define EXCHANGE_MS 30000
#define EXCHANGE_MAX_BYTES ((size_t)64 << 10)

static int failed(const char *fmt, const char *arg)
{
    fputs("chidori: model-login: ", stderr);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    return 1;
}

/* ---- the credentials file ---- */

/* The file's JSON object (a new one when there is no file); NULL with *error when it cannot be
 * read or holds anything else (left as it is: nothing of the user's is overwritten). */
static json_t *read_credentials(const char *path, char **error)
{
    struct stat st;
    if (lstat(path, &st) != 0 && errno == ENOENT) return json_object();
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
        json_free(v);
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
    json_free(creds);
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
 * nowhere and it is not waited for. Whether it opens anything is the user's to see: the address
 * is printed either way. */
static void open_browser(const char *program, const char *url)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    char *argv[] = {(char *)program, (char *)url, NULL};
    pid_t pid;
    (void)posix_spawnp(&pid, program, &fa, NULL, argv, environ); /* not there: the address is printed */
    posix_spawn_file_actions_destroy(&fa);
}

/* ---- the callback ---- */

static const char PAGE[] = "<!doctype html><meta charset=\"utf-8\"><title>chidori</title><p>%s</p>\n";

static void answer(int fd, const char *status, const char *message)
{
    buf body = {0};
    buf_printf(&body, PAGE, message);
    char *head = xasprintf("HTTP/1.1 %s\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: %zu\r\n"
                           "Cache-Control: no-store\r\nConnection: close\r\n\r\n",
                           status, body.len);
    if (write_all(fd, head, strlen(head)) == 0) (void)write_all(fd, body.data, body.len);
    free(head);
    buf_free(&body);
}

/* Ends a connection that may still be sending (a request refused before its end): its side is
 * shut first and what it still sends is read and dropped for a moment, so that closing does not
 * reset the connection before it has read the answer. */
static void close_lingering(int fd)
{
    shutdown(fd, SHUT_WR);
    char sink[4096];
    for (int i = 0; i < 16; i++) {
        struct pollfd pfd = {fd, POLLIN, 0};
        if (poll(&pfd, 1, 100) <= 0 || read(fd, sink, sizeof sink) <= 0) break;
    }
    close(fd);
}

/* One connection's request target, read for at most CONNECTION_MS (and never past deadline):
 * NULL for anything else (it was answered 400, or it said nothing). */
static char *read_target(int fd, uint64_t deadline)
{
    char req[LOGIN_REQUEST_MAX];
    size_t len = 0;
    uint64_t until = (uint64_t)clock_monotonic_ms() + CONNECTION_MS;
    if (until > deadline) until = deadline;
    for (;;) {
        char *target = NULL;
        login_parse p = login_request_target(req, len, &target);
        if (p == LOGIN_TARGET) return target;
        if (p == LOGIN_BAD) {
            answer(fd, "400 Bad Request", "This is not a request chidori expects.");
            return NULL;
        }
        uint64_t now = (uint64_t)clock_monotonic_ms();
        if (now >= until) return NULL;
        struct pollfd pfd = {fd, POLLIN, 0};
        int r = poll(&pfd, 1, (int)(until - now));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return NULL;
        ssize_t n = read(fd, req + len, sizeof req - len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return NULL;
        len += (size_t)n;
    }
}

/* Waits for the browser's answer: the code (malloc'd), or NULL with *error. */
static char *await_code(int listener, const char *state, uint64_t timeout_ms, char **error)
{
    uint64_t deadline = (uint64_t)clock_monotonic_ms() + timeout_ms;
    for (;;) {
        uint64_t now = (uint64_t)clock_monotonic_ms();
        if (now >= deadline) {
            *error = xasprintf("no answer from the browser in %llu ms (CHIDORI_MODEL_LOGIN_TIMEOUT_MS); nothing was saved",
                               (unsigned long long)timeout_ms);
            return NULL;
        }
        struct pollfd pfd = {listener, POLLIN, 0};
        uint64_t wait = deadline - now;
        int r = poll(&pfd, 1, wait > 60000 ? 60000 : (int)wait);
        if (r <= 0) continue; /* the deadline, or EINTR: checked above */
        int fd = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
        if (fd < 0) continue;
        char *target = read_target(fd, deadline);
        if (!target) {
            close_lingering(fd);
            continue;
        }
        char *code = NULL;
        if (!login_callback_path_is(target, state)) {
            /* not this sign-in's address: a stray request, or a page sweeping the ports */
            answer(fd, "404 Not Found", "Nothing here. Go back to the terminal where chidori model-login runs.");
        } else if ((code = login_query_param(target, "code")) && *code) {
            answer(fd, "200 OK", "Signed in to OpenRouter. You can close this tab and go back to the terminal.");
        } else {
            free(code);
            code = NULL;
            char *denied = login_query_param(target, "error");
            answer(fd, "400 Bad Request", "The sign-in did not go through. Go back to the terminal and try again.");
            if (denied) {
                buf b = {0};
                term_sanitize(&b, denied, strlen(denied) > 200 ? 200 : strlen(denied), false);
                *error = xasprintf("OpenRouter refused the sign-in: %s; nothing was saved", b.data ? b.data : "");
                buf_free(&b);
                free(denied);
                free(target);
                close_lingering(fd);
                return NULL;
            }
        }
        free(target);
        close_lingering(fd);
        if (code) return code;
    }
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
    json_free(req);
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
            buf b = {0};
            term_sanitize(&b, s.data.data ? s.data.data : "", s.data.len > 300 ? 300 : s.data.len, false);
            *error = xasprintf("the key exchange at %s answered HTTP %ld: %s; nothing was saved", url, status,
                               b.data ? b.data : "");
            buf_free(&b);
        } else if (!json_is_string(k) || strlen(k->u.string.bytes) != k->u.string.len || text_blank(k->u.string.bytes)) {
            *error = xasprintf("the key exchange at %s answered without a key; nothing was saved", url);
        } else {
            key = xstrdup(k->u.string.bytes);
        }
        if (v) json_free(v);
    }
    if (s.data.data) explicit_bzero(s.data.data, s.data.len);
    buf_free(&s.data);
    free(body);
    free(url);
    return key;
}

/* ---- the command ---- */

static int listen_loopback(int *port, char **error)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = 0, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t al = sizeof a;
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(fd, 16) != 0 ||
        getsockname(fd, (struct sockaddr *)&a, &al) != 0) {
        *error = xasprintf("cannot listen on 127.0.0.1 for the browser's answer: %s", strerror(errno));
        if (fd >= 0) close(fd);
        return -1;
    }
    *port = ntohs(a.sin_port);
    return fd;
}

int cmd_model_login(int argc, char **argv, const settings *s)
{
    if (argc > 0) return cli_usage_error("model-login takes no arguments (got `%s`)", argv[0]);
    if (!text_blank(settings_env(s, "OPENROUTER_API_KEY"))) {
        puts("OPENROUTER_API_KEY is set, and chidori uses that key; unset it to sign in in a browser instead.");
        return 0;
    }
    const char *home = settings_env(s, "HOME");
    if (!home || !*home) return failed("%s", "HOME is not set, so there is no ~/.chidori to save the key in");
    const char *auth = settings_nonempty(s, "CHIDORI_OPENROUTER_AUTH_URL");
    if (!auth) auth = "https://openrouter.ai/auth";
    const char *base = settings_nonempty(s, "CHIDORI_OPENROUTER_URL");
    if (!base) base = "https://openrouter.ai/api/v1";
    if (strncmp(auth, "http://", 7) && strncmp(auth, "https://", 8))
        return failed("CHIDORI_OPENROUTER_AUTH_URL must start with http:// or https:// (it is `%s`)", auth);
    char *dir = xasprintf("%s/.chidori", home), *path = xasprintf("%s/credentials.json", dir), *error = NULL;
    int rc = 1, listener = -1, port = 0;
    char *state = NULL, *verifier = NULL, *challenge = NULL, *code = NULL, *key = NULL, *url = NULL;
    /* a file chidori would have to overwrite stops the sign-in before the browser opens */
    json_t *creds = read_credentials(path, &error);
    if (!creds) goto out;
    if (json_object_get(creds, "openrouter_api_key"))
        printf("%s already holds an OpenRouter key; signing in again replaces it.\n", path);
    json_free(creds);
    if ((listener = listen_loopback(&port, &error)) < 0) goto out;
    state = login_new_state();
    login_new_pkce(&verifier, &challenge);
    char *callback = xasprintf("http://localhost:%d/callback/%s", port, state);
    char *cb = login_url_encode(callback);
    url = xasprintf("%s%scallback_url=%s&code_challenge=%s&code_challenge_method=S256", auth,
                    strchr(auth, '?') ? "&" : "?", cb, challenge);
    free(cb);
    free(callback);
    printf("Sign in to OpenRouter in your browser. If no page opens, visit:\n\n  %s\n\n"
           "Waiting for the browser (up to %llu s)...\n",
           url, (unsigned long long)(settings_u64(s, "CHIDORI_MODEL_LOGIN_TIMEOUT_MS") + 999) / 1000);
    fflush(stdout);
    const char *browser = settings_env(s, "BROWSER");
    open_browser(browser && *browser ? browser : "xdg-open", url);
    code = await_code(listener, state, settings_u64(s, "CHIDORI_MODEL_LOGIN_TIMEOUT_MS"), &error);
    close(listener);
    listener = -1;
    if (!code) goto out;
    puts("The browser answered; asking OpenRouter for a key...");
    fflush(stdout);
    if (!(key = exchange(base, code, verifier, &error))) goto out;
    if (save_key(dir, path, key, &error) != 0) goto out;
    printf("Signed in to OpenRouter; the key is saved in %s.\n", path);
    rc = 0;
out:
    if (error) failed("%s", error);
    if (listener >= 0) close(listener);
    if (key) explicit_bzero(key, strlen(key));
    if (verifier) explicit_bzero(verifier, strlen(verifier));
    free(error), free(dir), free(path), free(state), free(verifier), free(challenge), free(code), free(key), free(url);
    while (waitpid(-1, NULL, WNOHANG) > 0) {} /* the browser opener, if it is done */
    return rc;
}

/* login_listen.c — the loopback side of `chidori model-login` (see login_listen.h). */
#define _GNU_SOURCE
#include "cli/login_listen.h"
#include "cli/login_callback.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/termtext.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define LINGER_MS 250    /* a refused connection's time to read its answer before it is closed */
#define ACCEPT_BATCH 4   /* connections taken from a listener between two reads of those open */
#define MIN_AGE_MS 250   /* a connection is not pushed out by newer ones before this */
#define BACKOFF_MS 50    /* the listeners rest this long when accept fails (out of descriptors) */
#define OPEN_ATTEMPTS 16 /* ports tried when ::1's twin of a free 127.0.0.1 port is taken */

typedef struct conn {
    int fd;
    uint64_t opened, until;
    bool closing; /* answered (or refused): what it still sends is dropped until it ends */
    size_t len;
    char req[LOGIN_REQUEST_MAX];
} conn;

struct login_listen {
    int v4, v6, port;
    uint64_t resting_until; /* the listeners are not polled before (accept failed) */
    conn *conns;            /* LOGIN_MAX_CONNECTIONS; fd -1: free */
};

static uint64_t now_ms(void) { return (uint64_t)clock_monotonic_ms(); }

static int listener(int family, int port, int *bound, int *err)
{
    int fd = socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        *err = errno;
        return -1;
    }
    int rc;
    if (family == AF_INET) {
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
        rc = bind(fd, (struct sockaddr *)&a, sizeof a);
    } else {
        int one = 1;
        setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
        struct sockaddr_in6 a = {.sin6_family = AF_INET6, .sin6_port = htons(port), .sin6_addr = IN6ADDR_LOOPBACK_INIT};
        rc = bind(fd, (struct sockaddr *)&a, sizeof a);
    }
    struct sockaddr_storage got;
    socklen_t gl = sizeof got;
    if (rc != 0 || listen(fd, 128) != 0 || getsockname(fd, (struct sockaddr *)&got, &gl) != 0) {
        *err = errno;
        close(fd);
        return -1;
    }
    *bound = ntohs(family == AF_INET ? ((struct sockaddr_in *)&got)->sin_port : ((struct sockaddr_in6 *)&got)->sin6_port);
    return fd;
}

login_listen *login_listen_open(char **error)
{
    for (int attempt = 0; attempt < OPEN_ATTEMPTS; attempt++) {
        int port = 0, err = 0, port6 = 0;
        int v4 = listener(AF_INET, 0, &port, &err);
        if (v4 < 0) {
            *error = xasprintf("cannot listen on 127.0.0.1 for the browser's answer: %s", strerror(err));
            return NULL;
        }
        int v6 = listener(AF_INET6, port, &port6, &err);
        if (v6 < 0 && err == EADDRINUSE) { /* another program holds [::1]:port: it would get what `localhost` brings */
            close(v4);
            continue;
        }
        /* no ::1 here (no IPv6, or not configured): `localhost` can only be 127.0.0.1 */
        login_listen *l = xcalloc(1, sizeof *l);
        l->v4 = v4, l->v6 = v6, l->port = port;
        l->conns = xcalloc(LOGIN_MAX_CONNECTIONS, sizeof *l->conns);
        for (int i = 0; i < LOGIN_MAX_CONNECTIONS; i++) l->conns[i].fd = -1;
        return l;
    }
    *error = xstrdup("cannot find a port free on both 127.0.0.1 and ::1 for the browser's answer");
    return NULL;
}

int login_listen_port(const login_listen *l) { return l->port; }

static void drop(conn *c)
{
    if (c->fd >= 0) close(c->fd);
    c->fd = -1;
    c->closing = false;
    c->len = 0;
}

void login_listen_close(login_listen *l)
{
    if (!l) return;
    /* the answered ones get LINGER_MS, all together, to read their answer before they are closed
     * (closing a socket that still holds unread bytes resets it, and the answer is lost) */
    uint64_t until = now_ms() + LINGER_MS;
    for (uint64_t now = now_ms(); now < until; now = now_ms()) {
        struct pollfd pfd[LOGIN_MAX_CONNECTIONS];
        int open = 0;
        for (int i = 0; i < LOGIN_MAX_CONNECTIONS; i++) {
            conn *c = &l->conns[i];
            if (c->fd >= 0 && !c->closing) drop(c);
            pfd[i] = (struct pollfd){c->fd, POLLIN, 0};
            open += c->fd >= 0;
        }
        if (!open || poll(pfd, LOGIN_MAX_CONNECTIONS, (int)(until - now)) <= 0) break;
        char sink[4096];
        for (int i = 0; i < LOGIN_MAX_CONNECTIONS; i++) {
            ssize_t n = pfd[i].revents ? read(l->conns[i].fd, sink, sizeof sink) : 1;
            if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) drop(&l->conns[i]);
        }
    }
    for (int i = 0; i < LOGIN_MAX_CONNECTIONS; i++) drop(&l->conns[i]);
    if (l->v4 >= 0) close(l->v4);
    if (l->v6 >= 0) close(l->v6);
    free(l->conns);
    free(l);
}

static const char PAGE[] = "<!doctype html><meta charset=\"utf-8\"><title>chidori</title><p>%s</p>\n";

/* The answer, then the connection's side shut: it is closed once it has read it (or LINGER_MS). */
static void answer(conn *c, const char *status, const char *location, const char *message)
{
    buf body = {0}, head = {0};
    buf_printf(&body, PAGE, message);
    buf_printf(&head, "HTTP/1.1 %s\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: %zu\r\n", status, body.len);
    if (location) buf_printf(&head, "Location: %s\r\n", location);
    buf_puts(&head, "Cache-Control: no-store\r\nReferrer-Policy: no-referrer\r\nConnection: close\r\n\r\n");
    buf_append(&head, body.data, body.len);
    /* a small answer into an empty socket buffer: one write (a peer that reads nothing loses it) */
    (void)write(c->fd, head.data, head.len);
    buf_free(&head);
    buf_free(&body);
    shutdown(c->fd, SHUT_WR);
    c->closing = true;
    c->until = now_ms() + LINGER_MS;
}

/* Whether the process that opened connection fd (a loopback peer) runs as this process's user:
 * 1 yes, 0 no (another user's, or gone already), -1 cannot tell (no /proc). The kernel's socket
 * table (/proc/net/tcp, tcp6) lists the peer's end with its owner's uid: the line whose local end
 * is the peer's address and whose remote end is ours. */
static int peer_is_mine(int fd)
{
    struct sockaddr_storage me, peer;
    socklen_t ml = sizeof me, pl = sizeof peer;
    if (getsockname(fd, (struct sockaddr *)&me, &ml) != 0 || getpeername(fd, (struct sockaddr *)&peer, &pl) != 0) return 0;
    char local[64], remote[64];
    const char *table;
    if (peer.ss_family == AF_INET) {
        const struct sockaddr_in *p = (const void *)&peer, *m = (const void *)&me;
        snprintf(local, sizeof local, "%08X:%04X", (unsigned)p->sin_addr.s_addr, ntohs(p->sin_port));
        snprintf(remote, sizeof remote, "%08X:%04X", (unsigned)m->sin_addr.s_addr, ntohs(m->sin_port));
        table = "/proc/net/tcp";
    } else {
        const struct sockaddr_in6 *p = (const void *)&peer, *m = (const void *)&me;
        uint32_t a[4], b[4];
        memcpy(a, &p->sin6_addr, 16), memcpy(b, &m->sin6_addr, 16);
        snprintf(local, sizeof local, "%08X%08X%08X%08X:%04X", a[0], a[1], a[2], a[3], ntohs(p->sin6_port));
        snprintf(remote, sizeof remote, "%08X%08X%08X%08X:%04X", b[0], b[1], b[2], b[3], ntohs(m->sin6_port));
        table = "/proc/net/tcp6";
    }
    FILE *f = fopen(table, "re");
    if (!f) return -1;
    int mine = 0;
    char *line = NULL;
    size_t cap = 0;
    /* sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid ... : read a line
     * at a time, however long the table is (another user cannot make it unreadable by size) */
    while (getline(&line, &cap, f) > 0) {
        char *field[8];
        int n = 0;
        for (char *save = NULL, *t = strtok_r(line, " \n", &save); t && n < 8; t = strtok_r(NULL, " \n", &save))
            field[n++] = t;
        if (n == 8 && !strcmp(field[1], local) && !strcmp(field[2], remote)) {
            char *end = NULL;
            unsigned long uid = strtoul(field[7], &end, 10);
            mine = end != field[7] && *end == 0 && uid == (unsigned long)geteuid();
            break;
        }
    }
    free(line);
    fclose(f);
    return mine;
}

/* The slot a new connection would take: a free one, else the oldest one's (closing ones first)
 * once it is MIN_AGE_MS old; NULL when every one is younger (new ones then wait in the backlog).
 * A connection is read as soon as it is taken and at every turn, so the browser's request, sent as
 * it connects, is read before newer connections can push it out. */
static conn *slot_for(login_listen *l, uint64_t now)
{
    conn *oldest = NULL;
    for (int i = 0; i < LOGIN_MAX_CONNECTIONS; i++) {
        conn *c = &l->conns[i];
        if (c->fd < 0) return c;
        if (!oldest || (c->closing && !oldest->closing) ||
            (c->closing == oldest->closing && c->opened < oldest->opened))
            oldest = c;
    }
    return oldest->closing || oldest->opened + MIN_AGE_MS <= now ? oldest : NULL;
}

/* When a slot frees up at the latest (for the poll's timeout, while slot_for says none). */
static uint64_t slot_free_at(const login_listen *l)
{
    uint64_t at = UINT64_MAX;
    for (int i = 0; i < LOGIN_MAX_CONNECTIONS; i++) {
        const conn *c = &l->conns[i];
        uint64_t t = c->fd < 0 || c->closing ? 0 : c->opened + MIN_AGE_MS;
        if (t < at) at = t;
    }
    return at;
}

enum { GO_ON, GOT_CODE, FAILED };

/* One request's answer; GOT_CODE with *code, FAILED with *error. */
static int serve(login_listen *l, conn *c, const char *target, const char *start, const char *state,
                 const char *sign_in, bool *started, char **code, char **error)
{
    if (login_path_is(target, "/start/", start)) {
        if (!*started) {
            *started = true;
            answer(c, "302 Found", sign_in, "On to OpenRouter's sign-in page.");
            return GO_ON;
        }
        answer(c, "409 Conflict", NULL, "This sign-in address was opened twice, so chidori stopped the sign-in. "
                                        "Run chidori model-login again.");
        *error = xstrdup("the sign-in address was opened twice, so another program on this machine may have read "
                         "it; the sign-in is stopped and nothing was saved: run chidori model-login again");
        return FAILED;
    }
    if (!login_path_is(target, "/callback/", state)) {
        /* not one of this sign-in's addresses: a stray request, or a page sweeping the ports */
        answer(c, "404 Not Found", NULL, "Nothing here. Go back to the terminal where chidori model-login runs.");
        return GO_ON;
    }
    char *got = login_query_param(target, "code");
    if (got && *got) {
        answer(c, "200 OK", NULL, "chidori has OpenRouter's answer. Go back to the terminal: it says how the sign-in ended.");
        *code = got;
        return GOT_CODE;
    }
    free(got);
    char *denied = login_query_param(target, "error");
    answer(c, "400 Bad Request", NULL, "The sign-in did not go through. Go back to the terminal.");
    if (!denied) return GO_ON;
    buf b = {0};
    term_sanitize(&b, denied, strlen(denied) > 200 ? 200 : strlen(denied), false);
    *error = xasprintf("OpenRouter refused the sign-in: %s; nothing was saved", b.data ? b.data : "");
    buf_free(&b);
    free(denied);
    return FAILED;
}

/* What a readable connection sent, and the answer when a request line is whole. */
static int read_conn(login_listen *l, conn *c, const char *start, const char *state, const char *sign_in,
                     bool *started, char **code, char **error)
{
    if (c->closing) { /* what it sends after its answer is dropped, until it ends */
        char sink[4096];
        ssize_t n = read(c->fd, sink, sizeof sink);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) drop(c);
        return GO_ON;
    }
    ssize_t n = read(c->fd, c->req + c->len, sizeof c->req - c->len);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return GO_ON;
    if (n <= 0) {
        drop(c); /* it ended without a request */
        return GO_ON;
    }
    c->len += (size_t)n;
    char *target = NULL;
    login_parse p = login_request_target(c->req, c->len, &target);
    if (p == LOGIN_MORE) return GO_ON;
    if (p == LOGIN_BAD) {
        answer(c, "400 Bad Request", NULL, "This is not a request chidori expects.");
        return GO_ON;
    }
    int rc = serve(l, c, target, start, state, sign_in, started, code, error);
    free(target);
    return rc;
}

/* Takes up to ACCEPT_BATCH new connections from fd, and reads each at once. */
static int accept_some(login_listen *l, int fd, const char *start, const char *state, const char *sign_in,
                       bool *started, char **code, char **error)
{
    for (int k = 0; k < ACCEPT_BATCH; k++) {
        uint64_t now = now_ms();
        conn *c = slot_for(l, now);
        if (!c) return GO_ON; /* every slot is young: the rest wait in the backlog */
        int a = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (a < 0) {
            if (errno != EAGAIN && errno != EINTR && errno != ECONNABORTED) /* out of descriptors, say */
                l->resting_until = now + BACKOFF_MS;
            return GO_ON;
        }
        if (peer_is_mine(a) == 0) { /* another user's process: it gets nothing, not even a slot */
            close(a);
            continue;
        }
        drop(c);
        c->fd = a, c->opened = now, c->until = now + LOGIN_CONNECTION_MS, c->closing = false, c->len = 0;
        int rc = read_conn(l, c, start, state, sign_in, started, code, error);
        if (rc != GO_ON) return rc;
    }
    return GO_ON;
}

char *login_listen_wait(login_listen *l, const char *start, const char *state, const char *sign_in,
                        uint64_t timeout_ms, char **error)
{
    uint64_t deadline = now_ms() + timeout_ms;
    bool started = false;
    struct pollfd pfd[2 + LOGIN_MAX_CONNECTIONS];
    for (;;) {
        uint64_t now = now_ms(), wake = deadline;
        if (now >= deadline) {
            *error = xasprintf("no answer from the browser in %llu ms (CHIDORI_MODEL_LOGIN_TIMEOUT_MS); nothing was saved",
                               (unsigned long long)timeout_ms);
            return NULL;
        }
        for (int i = 0; i < LOGIN_MAX_CONNECTIONS; i++) {
            conn *c = &l->conns[i];
            if (c->fd >= 0 && c->until <= now) drop(c); /* silent too long, or done lingering */
            pfd[2 + i] = (struct pollfd){c->fd, POLLIN, 0};
            if (c->fd >= 0 && c->until < wake) wake = c->until;
        }
        /* the listeners are left out while they rest, or while every slot is young */
        uint64_t free_at = slot_free_at(l), listen_at = free_at > l->resting_until ? free_at : l->resting_until;
        bool taking = listen_at <= now;
        if (!taking && listen_at < wake) wake = listen_at;
        pfd[0] = (struct pollfd){taking ? l->v4 : -1, POLLIN, 0};
        pfd[1] = (struct pollfd){taking ? l->v6 : -1, POLLIN, 0}; /* v6 is -1 when there is no ::1 */
        uint64_t wait = wake - now;
        int r = poll(pfd, 2 + LOGIN_MAX_CONNECTIONS, wait > 60000 ? 60000 : (int)wait);
        if (r <= 0) continue; /* a deadline, or EINTR: looked at above */
        for (int i = 0; i < LOGIN_MAX_CONNECTIONS; i++) {
            conn *c = &l->conns[i];
            if (c->fd < 0 || !pfd[2 + i].revents) continue;
            char *code = NULL;
            int rc = read_conn(l, c, start, state, sign_in, &started, &code, error);
            if (rc == GOT_CODE) return code;
            if (rc == FAILED) return NULL;
        }
        for (int k = 0; k < 2; k++) {
            if (pfd[k].fd < 0 || !pfd[k].revents) continue;
            char *code = NULL;
            int rc = accept_some(l, pfd[k].fd, start, state, sign_in, &started, &code, error);
            if (rc == GOT_CODE) return code;
            if (rc == FAILED) return NULL;
        }
    }
}

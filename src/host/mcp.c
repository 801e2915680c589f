/* mcp.c — the MCP hub: server processes and the I/O loop around the protocol engine.
 *
 * Owns: starting each configured server (fork/exec, lazily, on first use), the MCP handshake,
 * tools/list (with cursor pagination and a page cap) and tools/call, the poll() loop that moves
 * bytes between the server's pipes and its mcp_session (mcp_proto.c) under a deadline, stderr
 * forwarding, and stopping/reaping servers.
 * Trusts: the configuration (mcp_config.c validated it), and NOTHING a server writes or does:
 * it may die, stop reading, write garbage or floods, never answer, or leave children behind.
 *
 * Process model: the child gets its own process group (so stopping it also stops what it
 * spawned), default signal dispositions and an empty signal mask, stdin/stdout pipes, stderr to
 * a pipe (or /dev/null with "stderr": "discard"), every other fd closed, the environment
 * described in mcp.h, and `cwd` when configured. A command without '/' is looked up in the
 * child's PATH (its configured PATH if any, else ours); exec failures are reported through a
 * close-on-exec pipe, so "no such command" is an immediate, clear error.
 *
 * While no call is in flight nothing is read from a server: requests it sends then are answered
 * at the start of the next call, and a server that writes more than a pipe holds to stderr while
 * idle simply waits until then.
 */
#define _GNU_SOURCE
#include "host/mcp.h"
#include "util/clock.h"
#include "settings/settings.h"
#include "util/buf.h"
#include "util/termtext.h"
#include "util/files.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MCP_PROTOCOL_VERSION "2025-11-25"
#define STDERR_LINE_MAX 1000
#define STDERR_BUDGET_PER_CALL (64 * 1024)

typedef struct mcp_server {
    mcp_server_config cfg;
    pid_t pid;        /* 0 when not running */
    int in_fd, out_fd, err_fd;
    bool in_closed;   /* the server stopped reading (EPIPE) */
    bool has_tools;
    mcp_session s;
    buf errline;      /* a partial stderr line */
    bool errline_cut; /* skipping the rest of an over-long line */
    size_t err_forwarded;
    bool err_cut_noted;
} mcp_server;

struct mcp_hub {
    mcp_server *servers;
    size_t count;
    mcp_limits lim;
};


static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR) {}
}

static void close_fd(int *fd)
{
    if (*fd >= 0) close(*fd);
    *fd = -1;
}

/* write() that cannot kill us with SIGPIPE: SIGPIPE is blocked in this thread for the duration
 * and one it caused is consumed before the old mask comes back. Nothing process-wide changes. */
static ssize_t write_nosigpipe(int fd, const void *p, size_t n)
{
    sigset_t pipe_set, old, pending;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
    sigemptyset(&pending);
    sigpending(&pending);
    bool was_pending = sigismember(&pending, SIGPIPE);
    ssize_t w = write(fd, p, n);
    int e = errno;
    if (w < 0 && e == EPIPE && !was_pending) {
        struct timespec zero = {0, 0};
        while (sigtimedwait(&pipe_set, NULL, &zero) < 0 && errno == EINTR) {}
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = e;
    return w;
}

/* ---- stderr forwarding ---- */

static void emit_err_line(mcp_server *sv, bool cut)
{
    buf b = {0};
    buf_printf(&b, "mcp[%s]: ", sv->cfg.name);
    size_t n = sv->errline.len;
    if (n && sv->errline.data[n - 1] == '\r') n--;
    term_sanitize(&b, sv->errline.data ? sv->errline.data : "", n, false);
    if (cut) buf_puts(&b, " [line cut]");
    buf_putc(&b, '\n');
    size_t off = 0;
    while (off < b.len) {
        ssize_t w = write_nosigpipe(2, b.data + off, b.len - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) break;
        off += (size_t)w;
    }
    buf_free(&b);
    sv->errline.len = 0;
    if (sv->errline.data) sv->errline.data[0] = '\0';
}

static void forward_stderr(mcp_server *sv, const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (sv->err_forwarded >= STDERR_BUDGET_PER_CALL) {
            if (!sv->err_cut_noted) {
                sv->err_cut_noted = true;
                sv->errline.len = 0;
                fprintf(stderr, "mcp[%s]: (more than %d bytes of stderr in one call; dropping the rest)\n",
                        sv->cfg.name, STDERR_BUDGET_PER_CALL);
            }
            return;
        }
        sv->err_forwarded++;
        char c = p[i];
        if (c == '\n') {
            if (!sv->errline_cut) emit_err_line(sv, false);
            sv->errline_cut = false;
            continue;
        }
        if (sv->errline_cut) continue;
        buf_putc(&sv->errline, c);
        if (sv->errline.len >= STDERR_LINE_MAX) {
            emit_err_line(sv, true);
            sv->errline_cut = true;
        }
    }
}

static void drain_stderr(mcp_server *sv)
{
    char chunk[4096];
    for (;;) {
        ssize_t r = read(sv->err_fd, chunk, sizeof chunk);
        if (r > 0) {
            forward_stderr(sv, chunk, (size_t)r);
            continue;
        }
        if (r < 0 && errno == EINTR) continue;
        if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
            if (sv->errline.len > 0 && !sv->errline_cut && sv->err_forwarded < STDERR_BUDGET_PER_CALL)
                emit_err_line(sv, false);
            close_fd(&sv->err_fd);
        }
        return;
    }
}

/* ---- processes ---- */

/* Has the child exited? Does not reap it (WNOWAIT), so its pid (and process group id) stay
 * reserved until we reap it. *status gets the wait status when known. */
static bool child_exited(pid_t pid, int *status)
{
    siginfo_t info;
    memset(&info, 0, sizeof info);
    if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) < 0) {
        if (status) *status = -1;
        return errno == ECHILD; /* someone else reaped it (SIGCHLD ignored) */
    }
    if (info.si_pid == 0) return false;
    if (status) {
        if (info.si_code == CLD_EXITED) *status = (info.si_status & 0xff) << 8;
        else *status = info.si_status & 0x7f; /* killed/dumped: the signal */
    }
    return true;
}

static bool wait_exit(pid_t pid, int ms, int *status)
{
    int64_t end = clock_monotonic_ms() + ms;
    for (;;) {
        if (child_exited(pid, status)) return true;
        if (clock_monotonic_ms() >= end) return false;
        sleep_ms(5);
    }
}

static void describe_status(buf *b, int status)
{
    if (status < 0) buf_puts(b, "exited");
    else if (WIFEXITED(status)) buf_printf(b, "exited with status %d", WEXITSTATUS(status));
    else buf_printf(b, "was killed by signal %d (%s)", status & 0x7f, strsignal(status & 0x7f));
}

/* Stop several servers together: close their pipes (EOF on stdin), wait up to close_wait_ms,
 * SIGTERM their process groups, wait up to term_wait_ms, SIGKILL, reap. */
static void stop_servers(mcp_server **list, size_t n, int close_wait_ms, int term_wait_ms)
{
    for (size_t i = 0; i < n; i++) {
        mcp_server *sv = list[i];
        close_fd(&sv->in_fd);
        close_fd(&sv->out_fd);
        close_fd(&sv->err_fd);
    }
    for (int stage = 0; stage < 2; stage++) {
        int ms = stage == 0 ? close_wait_ms : term_wait_ms;
        if (stage == 1) {
            for (size_t i = 0; i < n; i++) {
                if (list[i]->pid > 0 && !child_exited(list[i]->pid, NULL)) {
                    kill(-list[i]->pid, SIGTERM);
                    kill(list[i]->pid, SIGTERM);
                }
            }
        }
        int64_t end = clock_monotonic_ms() + ms;
        for (;;) {
            bool all = true;
            for (size_t i = 0; i < n; i++)
                if (list[i]->pid > 0 && !child_exited(list[i]->pid, NULL)) all = false;
            if (all || clock_monotonic_ms() >= end) break;
            sleep_ms(5);
        }
    }
    for (size_t i = 0; i < n; i++) {
        mcp_server *sv = list[i];
        if (sv->pid > 0) {
            /* The leader is a zombie or alive, so its pid still names the group: anything it left
             * behind in the group dies too. */
            kill(-sv->pid, SIGKILL);
            kill(sv->pid, SIGKILL);
            while (waitpid(sv->pid, NULL, 0) < 0 && errno == EINTR) {}
        }
        sv->pid = 0;
        sv->in_closed = false;
        buf_free(&sv->errline);
        sv->errline_cut = false;
        mcp_session_reset(&sv->s);
    }
}

static void stop_server(mcp_server *sv, int close_wait_ms, int term_wait_ms)
{
    mcp_server *one = sv;
    if (sv->pid > 0) stop_servers(&one, 1, close_wait_ms, term_wait_ms);
}

/* Move an fd to >= 3 so the child's dup2 onto 0/1/2 cannot clobber another pipe end. */
static int lift_fd(int fd)
{
    if (fd < 0 || fd > 2) return fd;
    int nfd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    close(fd);
    return nfd;
}

static int make_pipe(int p[2])
{
    if (pipe2(p, O_CLOEXEC) < 0) return -1;
    p[0] = lift_fd(p[0]);
    p[1] = lift_fd(p[1]);
    if (p[0] < 0 || p[1] < 0) {
        if (p[0] >= 0) close(p[0]);
        if (p[1] >= 0) close(p[1]);
        return -1;
    }
    return 0;
}

static void close_from(int lo, int hi_excl)
{
    if (lo >= hi_excl) return;
#ifdef SYS_close_range
    if (syscall(SYS_close_range, (unsigned)lo, (unsigned)(hi_excl - 1), 0) == 0) return;
#endif
    for (int fd = lo; fd < hi_excl; fd++) close(fd);
}

struct exec_report {
    int stage; /* 1 = cwd, 2 = exec */
    int err;
};

static _Noreturn void child_main(mcp_server *sv, char **candidates, int in_r, int out_w, int err_w, int report_w,
                                 int max_fd)
{
    struct exec_report rep = {0, 0};
    setpgid(0, 0);
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    for (int sig = 1; sig < NSIG; sig++)
        if (sig != SIGKILL && sig != SIGSTOP) sigaction(sig, &dfl, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (dup2(in_r, 0) < 0 || dup2(out_w, 1) < 0 || dup2(err_w, 2) < 0) {
        rep.stage = 2;
        rep.err = errno;
        goto fail;
    }
    /* report_w stays open (close-on-exec); everything else above 2 goes. */
    close_from(3, report_w);
    close_from(report_w + 1, max_fd);
    if (sv->cfg.cwd && chdir(sv->cfg.cwd) < 0) {
        rep.stage = 1;
        rep.err = errno;
        goto fail;
    }
    rep.stage = 2;
    rep.err = ENOENT;
    for (char **c = candidates; *c; c++) {
        execve(*c, sv->cfg.args, sv->cfg.env);
        if (errno != ENOENT && errno != ENOTDIR) rep.err = errno; /* EACCES etc. is the better reason */
    }
fail:;
    ssize_t w = write(report_w, &rep, sizeof rep);
    (void)w;
    _exit(127);
}

static char **exec_candidates(const mcp_server_config *cfg)
{
    buf b = {0};
    size_t n = 0, cap = 8;
    char **out = xcalloc(cap, sizeof(char *));
    if (strchr(cfg->command, '/')) {
        out[n++] = xstrdup(cfg->command);
        return out;
    }
    const char *path = NULL;
    for (char **e = cfg->env; *e; e++)
        if (strncmp(*e, "PATH=", 5) == 0) path = *e + 5;
    if (!path) path = "/usr/local/bin:/usr/bin:/bin";
    const char *p = path;
    for (;;) {
        const char *colon = strchr(p, ':');
        size_t len = colon ? (size_t)(colon - p) : strlen(p);
        buf_free(&b);
        if (len == 0) buf_puts(&b, ".");
        else buf_append(&b, p, len);
        buf_printf(&b, "/%s", cfg->command);
        if (n + 2 > cap) {
            cap *= 2;
            out = xrealloc(out, cap * sizeof(char *));
        }
        out[n++] = buf_steal(&b);
        out[n] = NULL;
        if (!colon) break;
        p = colon + 1;
    }
    buf_free(&b);
    return out;
}

static int spawn_server(mcp_server *sv, char **error)
{
    int in_p[2] = {-1, -1}, out_p[2] = {-1, -1}, err_p[2] = {-1, -1}, rep_p[2] = {-1, -1};
    int rc = -1;
    char **cands = exec_candidates(&sv->cfg);
    if (make_pipe(in_p) < 0 || make_pipe(out_p) < 0 || make_pipe(rep_p) < 0) {
        *error = xasprintf("cannot start MCP server '%s': pipe: %s", sv->cfg.name, strerror(errno));
        goto out;
    }
    if (sv->cfg.discard_stderr) {
        err_p[1] = lift_fd(open("/dev/null", O_WRONLY | O_CLOEXEC));
        if (err_p[1] < 0) {
            *error = xasprintf("cannot start MCP server '%s': /dev/null: %s", sv->cfg.name, strerror(errno));
            goto out;
        }
    } else if (make_pipe(err_p) < 0) {
        *error = xasprintf("cannot start MCP server '%s': pipe: %s", sv->cfg.name, strerror(errno));
        goto out;
    }
    struct rlimit rl;
    int max_fd = 65536;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < 65536)
        max_fd = (int)rl.rlim_cur;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        *error = xasprintf("cannot start MCP server '%s': fork: %s", sv->cfg.name, strerror(errno));
        goto out;
    }
    if (pid == 0) child_main(sv, cands, in_p[0], out_p[1], err_p[1], rep_p[1], max_fd);
    setpgid(pid, pid); /* also from here, so the group exists before we might signal it */
    close_fd(&in_p[0]);
    close_fd(&out_p[1]);
    close_fd(&err_p[1]);
    close_fd(&rep_p[1]);
    struct exec_report rep;
    ssize_t r;
    while ((r = read(rep_p[0], &rep, sizeof rep)) < 0 && errno == EINTR) {}
    if (r == (ssize_t)sizeof rep) {
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {}
        if (rep.stage == 1)
            *error = xasprintf("cannot start MCP server '%s': cwd '%s': %s", sv->cfg.name, sv->cfg.cwd, strerror(rep.err));
        else
            *error = xasprintf("cannot start MCP server '%s': command '%s': %s", sv->cfg.name, sv->cfg.command,
                               strerror(rep.err));
        goto out;
    }
    sv->pid = pid;
    sv->in_fd = in_p[1];
    sv->out_fd = out_p[0];
    sv->err_fd = err_p[0];
    in_p[1] = out_p[0] = err_p[0] = -1;
    fcntl(sv->in_fd, F_SETFL, fcntl(sv->in_fd, F_GETFL) | O_NONBLOCK);
    fcntl(sv->out_fd, F_SETFL, fcntl(sv->out_fd, F_GETFL) | O_NONBLOCK);
    if (sv->err_fd >= 0) fcntl(sv->err_fd, F_SETFL, fcntl(sv->err_fd, F_GETFL) | O_NONBLOCK);
    sv->in_closed = false;
    mcp_session_reset(&sv->s);
    rc = 0;
out:
    for (int i = 0; i < 2; i++) {
        close_fd(&in_p[i]);
        close_fd(&out_p[i]);
        close_fd(&err_p[i]);
        close_fd(&rep_p[i]);
    }
    for (char **c = cands; *c; c++) free(*c);
    free(cands);
    return rc;
}

/* ---- the request loop ---- */

enum { RPC_OK = 0, RPC_TRANSPORT = -1, RPC_ERROR = -2 };

/* Send one request and wait for its response under the server's timeout. RPC_TRANSPORT: the
 * server was stopped (restart on next use); RPC_ERROR: it answered with a JSON-RPC error and stays
 * up. Either way *error says what happened. */
static int rpc(mcp_hub *hub, mcp_server *sv, const char *method, json_t *params, json_t **result, char **error)
{
    (void)hub;
    *result = NULL;
    mcp_session *s = &sv->s;
    int64_t id = mcp_session_request(s, method, params);
    sv->err_forwarded = 0;
    sv->err_cut_noted = false;
    int64_t deadline = clock_monotonic_ms() + sv->cfg.timeout_ms;
    int st = mcp_session_feed(s, NULL, 0); /* lines already buffered */
    char chunk[65536];
    while (st == MCP_FEED_MORE) {
        if (sv->in_closed) s->out_len = 0;
        /* Write what we can without blocking. */
        while (s->out_len > 0 && !sv->in_closed) {
            ssize_t w = write_nosigpipe(sv->in_fd, s->out, s->out_len);
            if (w > 0) {
                mcp_session_consumed(s, (size_t)w);
                continue;
            }
            if (w < 0 && errno == EINTR) continue;
            if (w < 0 && errno == EPIPE) {
                sv->in_closed = true; /* it may still answer what it read; EOF will tell */
                s->out_len = 0;
            }
            break;
        }
        int64_t left = deadline - clock_monotonic_ms();
        if (left <= 0) {
            /* Best effort: tell it, then stop it. */
            json_t *p = json_object();
            json_object_set(p, "requestId", json_number((double)id));
            json_object_set(p, "reason", json_string("timeout"));
            s->out_len = 0;
            mcp_session_notify(s, "notifications/cancelled", p);
            if (!sv->in_closed) {
                ssize_t w = write_nosigpipe(sv->in_fd, s->out, s->out_len);
                (void)w;
            }
            *error = xasprintf("MCP server '%s' did not answer %s within %d ms", sv->cfg.name, method, sv->cfg.timeout_ms);
            stop_server(sv, 0, 200);
            return RPC_TRANSPORT;
        }
        struct pollfd pf[3];
        int n = 0;
        pf[n++] = (struct pollfd){.fd = sv->out_fd, .events = POLLIN};
        int err_i = -1, in_i = -1;
        if (sv->err_fd >= 0) {
            err_i = n;
            pf[n++] = (struct pollfd){.fd = sv->err_fd, .events = POLLIN};
        }
        if (s->out_len > 0 && !sv->in_closed) {
            in_i = n;
            pf[n++] = (struct pollfd){.fd = sv->in_fd, .events = POLLOUT};
        }
        int pr = poll(pf, (nfds_t)n, left > 1000000 ? 1000000 : (int)left);
        if (pr < 0) {
            if (errno == EINTR) continue;
            *error = xasprintf("MCP server '%s': poll: %s", sv->cfg.name, strerror(errno));
            stop_server(sv, 0, 200);
            return RPC_TRANSPORT;
        }
        (void)in_i;
        if (err_i >= 0 && pf[err_i].revents) drain_stderr(sv);
        if (pf[0].revents) {
            ssize_t r = read(sv->out_fd, chunk, sizeof chunk);
            if (r > 0) {
                st = mcp_session_feed(s, chunk, (size_t)r);
            } else if (r == 0 || (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK)) {
                int status = -1;
                if (sv->err_fd >= 0) drain_stderr(sv);
                buf why = {0};
                if (wait_exit(sv->pid, 300, &status)) {
                    describe_status(&why, status);
                } else {
                    buf_puts(&why, "closed its output");
                }
                buf_printf(&why, " while we waited for its answer to %s", method);
                mcp_session_eof(s, why.data);
                buf_free(&why);
                st = MCP_FEED_FAIL;
            }
        }
    }
    if (st == MCP_FEED_FAIL) {
        const char *e = s->error ? s->error : "failed";
        *error = strstr(e, "while we waited") ? xstrdup(e) : xasprintf("%s (during %s)", e, method);
        stop_server(sv, 0, 200);
        return RPC_TRANSPORT;
    }
    /* DONE */
    if (s->rpc_error) {
        const json_t *code = json_object_get(s->rpc_error, "code");
        const char *msg = json_string_value(json_object_get(s->rpc_error, "message"));
        buf b = {0};
        buf_printf(&b, "MCP server '%s': %s failed: error %.0f: ", sv->cfg.name, method, json_number_value(code));
        if (msg) {
            size_t ml = strlen(msg);
            for (size_t i = 0; i < ml && i < 500; i++) {
                unsigned char c = (unsigned char)msg[i];
                if (c < 0x20 || c == 0x7f) buf_printf(&b, "\\x%02x", c);
                else buf_putc(&b, (char)c);
            }
            if (ml > 500) buf_puts(&b, "...");
        } else {
            buf_puts(&b, "(no message)");
        }
        *error = buf_steal(&b);
        json_free(s->rpc_error);
        s->rpc_error = NULL;
        return RPC_ERROR;
    }
    *result = s->response;
    s->response = NULL;
    return RPC_OK;
}

static bool supported_version(const char *v)
{
    static const char *const known[] = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(v, known[i]) == 0) return true;
    return false;
}

static int ensure_started(mcp_hub *hub, mcp_server *sv, char **error)
{
    if (sv->pid > 0 && sv->in_closed) {
        fprintf(stderr, "mcp[%s]: server stopped reading its input; restarting it\n", sv->cfg.name);
        stop_server(sv, 0, 200);
    }
    if (sv->pid > 0) {
        int status = -1;
        if (!child_exited(sv->pid, &status)) return 0;
        buf b = {0};
        describe_status(&b, status);
        fprintf(stderr, "mcp[%s]: server %s while idle; restarting it\n", sv->cfg.name, b.data);
        buf_free(&b);
        stop_server(sv, 0, 0);
    }
    if (spawn_server(sv, error) < 0) return -1;
    json_t *params = json_object();
    json_object_set(params, "protocolVersion", json_string(MCP_PROTOCOL_VERSION));
    json_object_set(params, "capabilities", json_object());
    json_t *info = json_object();
    json_object_set(info, "name", json_string("chidori"));
    json_object_set(info, "version", json_string("0.1.0"));
    json_object_set(params, "clientInfo", info);
    json_t *result = NULL;
    char *err = NULL;
    int rc = rpc(hub, sv, "initialize", params, &result, &err);
    if (rc != RPC_OK) {
        *error = xasprintf("MCP server '%s' failed to start: %s", sv->cfg.name, err);
        free(err);
        stop_server(sv, 0, 200);
        return -1;
    }
    const char *version = json_string_value(json_object_get(result, "protocolVersion"));
    const json_t *caps = json_object_get(result, "capabilities");
    if (!json_is_object(result) || !version || !supported_version(version) || (caps && !json_is_object(caps))) {
        buf b = {0};
        if (!version) buf_puts(&b, "its initialize result has no protocolVersion");
        else if (!supported_version(version)) buf_printf(&b, "it speaks protocol version '%.40s', which chidori does not", version);
        else buf_puts(&b, "its initialize result is malformed");
        *error = xasprintf("MCP server '%s' failed to start: %s", sv->cfg.name, b.data);
        buf_free(&b);
        json_free(result);
        stop_server(sv, 0, 200);
        return -1;
    }
    sv->has_tools = json_is_object(json_object_get(caps, "tools"));
    json_free(result);
    mcp_session_notify(&sv->s, "notifications/initialized", NULL);
    return 0;
}

/* ---- the hub ---- */

mcp_hub *mcp_hub_new(const char *config_text, size_t len, const settings *set, char **error)
{
    *error = NULL;
    mcp_server_config *cfgs;
    size_t count;
    if (mcp_config_parse(config_text, len, set, &cfgs, &count, error) < 0) return NULL;
    mcp_hub *hub = xcalloc(1, sizeof *hub);
    mcp_limits_default(&hub->lim);
    hub->count = count;
    hub->servers = xcalloc(count + 1, sizeof *hub->servers);
    for (size_t i = 0; i < count; i++) {
        mcp_server *sv = &hub->servers[i];
        sv->cfg = cfgs[i];
        sv->in_fd = sv->out_fd = sv->err_fd = -1;
        mcp_session_init(&sv->s, sv->cfg.name, &hub->lim);
    }
    free(cfgs); /* the records moved into the servers */
    return hub;
}

mcp_hub *mcp_hub_from_settings(const settings *set, char **error)
{
    *error = NULL;
    const char *v = settings_nonempty(set, "CHIDORI_MCP_CONFIG");
    if (!v) return NULL;
    const char *p = v;
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    char *err = NULL;
    mcp_hub *hub;
    if (*p == '{') {
        hub = mcp_hub_new(v, strlen(v), set, &err);
        if (!hub) *error = xasprintf("CHIDORI_MCP_CONFIG: %s", err);
    } else {
        size_t len;
        char *text = read_file_capped(v, (size_t)1 << 20, &len, &err);
        if (!text) {
            *error = xasprintf("CHIDORI_MCP_CONFIG: %s", err);
            free(err);
            return NULL;
        }
        hub = mcp_hub_new(text, len, set, &err);
        if (!hub) *error = xasprintf("CHIDORI_MCP_CONFIG %s: %s", v, err);
        free(text);
    }
    free(err);
    return hub;
}

void mcp_hub_set_limits(mcp_hub *hub, const mcp_limits *limits)
{
    hub->lim = *limits;
    for (size_t i = 0; i < hub->count; i++) {
        mcp_session *s = &hub->servers[i].s;
        s->max_message_bytes = limits->max_message_bytes;
        s->max_bytes_per_call = limits->max_bytes_per_call;
        s->max_pending_write = limits->max_pending_write;
    }
}

static mcp_server *find_server(mcp_hub *hub, const char *name, size_t len)
{
    for (size_t i = 0; i < hub->count; i++)
        if (strlen(hub->servers[i].cfg.name) == len && memcmp(hub->servers[i].cfg.name, name, len) == 0)
            return &hub->servers[i];
    return NULL;
}

int mcp_hub_server_pid(mcp_hub *hub, const char *server)
{
    mcp_server *sv = hub ? find_server(hub, server, strlen(server)) : NULL;
    return sv ? (int)sv->pid : 0;
}

/* One server's tools appended to tools (the cap is per server). */
static int list_server(mcp_hub *hub, mcp_server *sv, json_t *tools, char **error)
{
    if (ensure_started(hub, sv, error) < 0) return -1;
    if (!sv->has_tools) return 0;
    char *cursor = NULL;
    int pages = 0;
    size_t first = tools->u.array.len;
    for (;;) {
        if (++pages > hub->lim.max_list_pages) {
            *error = xasprintf("MCP server '%s': tools/list has more than %d pages", sv->cfg.name, hub->lim.max_list_pages);
            free(cursor);
            return -1;
        }
        json_t *params = json_object();
        if (cursor) json_object_set(params, "cursor", json_string(cursor));
        free(cursor);
        cursor = NULL;
        json_t *result;
        if (rpc(hub, sv, "tools/list", params, &result, error) != RPC_OK) return -1;
        char *err = NULL;
        buf notes = {0};
        int rc = mcp_collect_tools(sv->cfg.name, result, tools, first + hub->lim.max_tools, &cursor, &notes, &err);
        json_free(result);
        if (notes.len) fputs(notes.data, stderr);
        buf_free(&notes);
        if (rc < 0) {
            *error = xasprintf("MCP server '%s': %s", sv->cfg.name, err);
            free(err);
            return -1;
        }
        if (!cursor) return 0;
    }
}

int mcp_hub_list_tools(mcp_hub *hub, json_t **tools_out, char **error)
{
    *tools_out = NULL;
    *error = NULL;
    json_t *tools = json_array();
    for (size_t i = 0; i < hub->count; i++) {
        if (list_server(hub, &hub->servers[i], tools, error) != 0) {
            json_free(tools);
            return -1;
        }
    }
    *tools_out = tools;
    return 0;
}

int mcp_hub_list_server_tools(mcp_hub *hub, const char *server, size_t len, json_t *tools, char **error)
{
    *error = NULL;
    mcp_server *sv = find_server(hub, server, len);
    if (!sv) {
        *error = xasprintf("no MCP server '%.*s' is configured", (int)(len > 64 ? 64 : len), server);
        return -1;
    }
    return list_server(hub, sv, tools, error);
}

int mcp_hub_call_tool(mcp_hub *hub, const char *qualified_name, const json_t *arguments, json_t **result_out,
                      char **error)
{
    *result_out = NULL;
    *error = NULL;
    const char *sep = qualified_name ? strstr(qualified_name, "__") : NULL;
    if (!sep || sep == qualified_name || sep[2] == '\0') {
        *error = xasprintf("MCP tool name '%.200s' is not \"<server>__<tool>\"", qualified_name ? qualified_name : "");
        return -1;
    }
    mcp_server *sv = find_server(hub, qualified_name, (size_t)(sep - qualified_name));
    if (!sv) {
        *error = xasprintf("no MCP server '%.*s' is configured (tool '%.200s')", (int)(sep - qualified_name > 64 ? 64 : sep - qualified_name),
                           qualified_name, qualified_name);
        return -1;
    }
    if (arguments && !json_is_object(arguments)) {
        *error = xasprintf("MCP tool '%.200s': arguments must be an object", qualified_name);
        return -1;
    }
    if (ensure_started(hub, sv, error) < 0) return -1;
    json_t *params = json_object();
    json_object_set(params, "name", json_string(sep + 2));
    json_object_set(params, "arguments", arguments ? json_copy(arguments) : json_object());
    json_t *result;
    if (rpc(hub, sv, "tools/call", params, &result, error) != RPC_OK) return -1;
    char *err = NULL;
    json_t *shaped = mcp_shape_call_result(result, &err);
    json_free(result);
    if (!shaped) {
        *error = xasprintf("MCP server '%s': %s", sv->cfg.name, err);
        free(err);
        return -1;
    }
    *result_out = shaped;
    return 0;
}

void mcp_hub_free(mcp_hub *hub)
{
    if (!hub) return;
    mcp_server **running = xcalloc(hub->count + 1, sizeof *running);
    size_t n = 0;
    for (size_t i = 0; i < hub->count; i++)
        if (hub->servers[i].pid > 0) running[n++] = &hub->servers[i];
    if (n) stop_servers(running, n, hub->lim.shutdown_grace_ms, hub->lim.shutdown_grace_ms);
    free(running);
    for (size_t i = 0; i < hub->count; i++) {
        mcp_session_free(&hub->servers[i].s);
        buf_free(&hub->servers[i].errline);
    }
    /* The config records live inside the servers: move them back into one array to free. */
    mcp_server_config *cfgs = xcalloc(hub->count + 1, sizeof *cfgs);
    for (size_t i = 0; i < hub->count; i++) cfgs[i] = hub->servers[i].cfg;
    mcp_config_free(cfgs, hub->count);
    free(hub->servers);
    free(hub);
}

/* park.c — parked runs of the command line: the socket, its messages, the parked process's start
 * (park.h says what it owns and trusts).
 *
 * The messages, on a Unix stream socket: each is a 4-byte big-endian length and that much JSON,
 * at most PARK_MAX_MESSAGE bytes. The resume sends {"who", "response", "hint"}, its standard
 * input, output and error passed along with the first byte (SCM_RIGHTS); the parked process
 * answers {"taken": true} or {"taken": false, "why"}, and after a taken one, once the run has
 * ended, {"exit": N}.
 * {"leave": true} asks it to let the run go (a resume that will replay, a newer pause of the same
 * run): it answers {"taken": false}.
 *
 * Which parked processes are alive is told by locks, not by connecting: each holds an exclusive
 * flock on <name>.lock beside its <name>.sock for as long as it lives, and only the holder of that
 * lock creates or removes the socket (and removes the lock file, while holding it).
 */
#define _GNU_SOURCE
#include "cli/park.h"

#include "util/buf.h"
#include "util/clock.h"
#include "util/files.h"
#include "util/sha256.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/eventfd.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define PARK_MAX_MESSAGE ((size_t)1 << 20)
/* how long a resume tries to reach a parked process whose backlog is full, and to send it its request */
#define PARK_TAKE_WAIT_MS 60000

struct park_listener {
    int dir_fd;       /* the folder of the socket */
    char *name;       /* <hash>.sock */
    char *lock_name;  /* <hash>.lock, held (lock_fd) while this process lives */
    int lock_fd;
    int fd;           /* listening, or -1 */
    int conn;         /* the resume that took the run, or -1 */
    /* while the run replays (park_watch_early): a thread answers what need not wait for it */
    bool watching;
    pthread_t watcher;
    int stop_fd;                               /* an eventfd: the watch ends */
    bool (*fits)(void *ctx, const json_t *who); /* may this resume be handed the run? */
    void *fits_ctx;
    int early_conn;                            /* a resume it kept for park_wait, or -1 */
    json_t *early_req;
    int early_fds[3], early_n_fds;
};

static void stop_watch(park_listener *l);
static void drop_request(int c, json_t *req, int *fds, int n_fds);

/* the run ended and the resume was told: its hang-up is no longer a kill */
static atomic_bool reported;

/* ---------- the place ---------- */

int park_place_of(const char *state_dir, const char *run_dir, park_place *out)
{
    memset(out, 0, sizeof *out);
    char *real = realpath(run_dir, NULL);
    if (!real) return -1;
    char hex[65];
    sha256_hex(real, strlen(real), hex);
    free(real);
    hex[32] = '\0';
    out->dir = xasprintf("%s/parked", state_dir);
    out->name = xasprintf("%s.sock", hex);
    return 0;
}

void park_place_clear(park_place *p)
{
    free(p->dir);
    free(p->name);
    memset(p, 0, sizeof *p);
}

/* The folder, opened; made (0700) when create. It must be a folder of this user that nobody else
 * may write to. -1 otherwise. */
static int open_dir(const char *dir, bool create)
{
    if (create && mkdir(dir, 0700) < 0 && errno != EEXIST) return -1;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return -1;
    struct stat st;
    if (fstat(fd, &st) < 0 || st.st_uid != geteuid() || (st.st_mode & 077)) {
        close(fd);
        return -1;
    }
    return fd;
}

/* A socket address naming `name` in the folder dir_fd, whatever the folder's path length. */
static socklen_t addr_in(int dir_fd, const char *name, struct sockaddr_un *a)
{
    memset(a, 0, sizeof *a);
    a->sun_family = AF_UNIX;
    int n = snprintf(a->sun_path, sizeof a->sun_path, "/proc/self/fd/%d/%s", dir_fd, name);
    if (n < 0 || (size_t)n >= sizeof a->sun_path) return 0;
    return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + (size_t)n + 1);
}

/* "<hash>.sock" -> "<hash>.lock" (malloc'd). */
static char *lock_name_of(const char *sock_name)
{
    size_t n = strlen(sock_name);
    return xasprintf("%.*s.lock", (int)(n > 5 ? n - 5 : n), sock_name);
}

/* The lock `name` in dir_fd, taken without waiting: its descriptor; -2 when another process holds
 * it (a parked process is alive); -1 on another failure, or when create is false and there is no
 * such file. The lock is on the file the name still names (a holder that removed it as we opened
 * it is not taken for alive, nor its file for ours). */
static int take_lock(int dir_fd, const char *name, bool create)
{
    for (int tries = 0; tries < 8; tries++) {
        int fd = openat(dir_fd, name, O_RDWR | O_CLOEXEC | O_NOFOLLOW | (create ? O_CREAT : 0), 0600);
        if (fd < 0) return -1;
        int rc;
        while ((rc = flock(fd, LOCK_EX | LOCK_NB)) < 0 && errno == EINTR) {
        }
        if (rc < 0) {
            int err = errno;
            close(fd);
            return err == EWOULDBLOCK ? -2 : -1;
        }
        struct stat a, b;
        if (fstat(fd, &a) == 0 && fstatat(dir_fd, name, &b, AT_SYMLINK_NOFOLLOW) == 0 && a.st_ino == b.st_ino &&
            a.st_dev == b.st_dev)
            return fd;
        close(fd); /* removed or replaced meanwhile: again */
        if (!create) return -1;
    }
    return -1;
}

/* Under its lock: the socket and the lock file of a parked process that is gone (or of ours, as
 * we go) removed. */
static void remove_pair(int dir_fd, const char *sock_name, const char *lock_name, int lock_fd)
{
    unlinkat(dir_fd, sock_name, 0);
    unlinkat(dir_fd, lock_name, 0);
    close(lock_fd);
}

/* A connection to the socket `name` in dir_fd, waiting at most until until_ms while its backlog is
 * full: the descriptor, or -1 (nobody listens there). */
static int connect_to(int dir_fd, const char *name, int64_t until_ms)
{
    struct sockaddr_un a;
    socklen_t len = addr_in(dir_fd, name, &a);
    if (!len) return -1;
    for (;;) {
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        if (fd < 0) return -1;
        if (connect(fd, (struct sockaddr *)&a, len) == 0) {
            struct ucred cred;
            socklen_t cl = sizeof cred;
            if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl) == 0 && cred.uid == geteuid()) return fd;
            close(fd);
            return -1;
        }
        int err = errno;
        close(fd);
        /* a full backlog (the parked process is still replaying, others wait): a little later */
        if (err != EAGAIN || clock_monotonic_ms() >= until_ms) return -1;
        usleep(5000);
    }
}

int park_count(const park_place *pl)
{
    int dfd = open_dir(pl->dir, false);
    if (dfd < 0) return 0;
    int dup_fd = dup(dfd);
    DIR *d = dup_fd >= 0 ? fdopendir(dup_fd) : NULL;
    if (!d) {
        if (dup_fd >= 0) close(dup_fd);
        close(dfd);
        return 0;
    }
    int live = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".lock")) continue;
        int fd = take_lock(dfd, e->d_name, false);
        if (fd == -2) {
            live++;
        } else if (fd >= 0) { /* nobody holds it: what is left of a parked process that is gone */
            char *sock = xasprintf("%.*s.sock", (int)(n - 5), e->d_name);
            remove_pair(dfd, sock, e->d_name, fd);
            free(sock);
        }
    }
    closedir(d);
    close(dfd);
    return live;
}

/* ---------- the parked process's start ---------- */

/* The descriptors a parked process is started with: its place's lock and listening socket. */
enum { PARK_FD_LOCK = 3, PARK_FD_LISTEN = 4 };

int park_spawn(char *const argv[], const park_listener *seat)
{
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid > 0) { /* the child starts the parked process and exits at once */
        int status;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
    }
    /* the child: a session of its own, then the parked process in a grandchild, so that nobody
     * waits for it and no terminal signal reaches it */
    if (setsid() < 0) _exit(1);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    signal(SIGPIPE, SIG_DFL);
    int lock = fcntl(seat->lock_fd, F_DUPFD_CLOEXEC, 10), listen_fd = fcntl(seat->fd, F_DUPFD_CLOEXEC, 10);
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (lock < 0 || listen_fd < 0 || null < 0) _exit(1);
    if (dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0) _exit(1);
    if (dup2(lock, PARK_FD_LOCK) < 0 || dup2(listen_fd, PARK_FD_LISTEN) < 0) _exit(1);
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 5u, ~0u, 0u) != 0)
#endif
        for (int fd = 5; fd < 1024; fd++) close(fd);
    if (fork() != 0) _exit(0);
    execve("/proc/self/exe", argv, environ);
    _exit(127);
}

/* ---------- messages ---------- */

/* Write all of data, waiting at most until until_ms for room. 0, or -1. */
static int send_all(int fd, const void *data, size_t n, int64_t until_ms)
{
    const char *p = data;
    while (n) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w > 0) {
            p += w, n -= (size_t)w;
            continue;
        }
        if (w < 0 && errno == EINTR) continue;
        if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK) return -1;
        int64_t left = until_ms - clock_monotonic_ms();
        struct pollfd pf = {fd, POLLOUT, 0};
        if (left <= 0 || poll(&pf, 1, (int)(left > INT_MAX ? INT_MAX : left)) <= 0) return -1;
    }
    return 0;
}

/* One message as JSON, with fds (n_fds of them, or none) passed along. */
static int send_message(int fd, const json_t *v, const int *fds, int n_fds, int64_t until_ms)
{
    size_t len = 0;
    char *text = json_dump(v, JSON_COMPACT, &len);
    if (len > PARK_MAX_MESSAGE) {
        free(text);
        return -1;
    }
    unsigned char head[4] = {(unsigned char)(len >> 24), (unsigned char)(len >> 16), (unsigned char)(len >> 8),
                             (unsigned char)len};
    int rc = 0;
    if (n_fds) { /* the descriptors go with the first byte */
        union {
            struct cmsghdr h;
            char space[CMSG_SPACE(3 * sizeof(int))];
        } control;
        memset(&control, 0, sizeof control);
        struct iovec iov = {head, 1};
        struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.space,
                            .msg_controllen = CMSG_SPACE((size_t)n_fds * sizeof(int))};
        struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN((size_t)n_fds * sizeof(int));
        memcpy(CMSG_DATA(c), fds, (size_t)n_fds * sizeof(int));
        ssize_t w;
        while ((w = sendmsg(fd, &mh, MSG_NOSIGNAL)) < 0 && errno == EINTR) {
        }
        rc = w == 1 ? send_all(fd, head + 1, 3, until_ms) : -1;
    } else {
        rc = send_all(fd, head, 4, until_ms);
    }
    if (rc == 0) rc = send_all(fd, text, len, until_ms);
    free(text);
    return rc;
}

/* Read n bytes by until_ms; fds_out (3 of them) takes descriptors passed along, if any. 0, or -1. */
static int recv_all(int fd, void *data, size_t n, int64_t until_ms, int *fds_out, int *n_fds)
{
    char *p = data;
    while (n) {
        int64_t left = until_ms - clock_monotonic_ms();
        struct pollfd pf = {fd, POLLIN, 0};
        int pr = left <= 0 ? 0 : poll(&pf, 1, (int)(left > INT_MAX ? INT_MAX : left));
        if (pr < 0 && errno == EINTR) continue;
        if (pr <= 0) return -1;
        union {
            struct cmsghdr h;
            char space[CMSG_SPACE(3 * sizeof(int))];
        } control;
        struct iovec iov = {p, n};
        struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = fds_out ? control.space : NULL,
                            .msg_controllen = fds_out ? sizeof control.space : 0};
        ssize_t r = recvmsg(fd, &mh, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
        if (r < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (r <= 0) return -1;
        for (struct cmsghdr *c = fds_out ? CMSG_FIRSTHDR(&mh) : NULL; c; c = CMSG_NXTHDR(&mh, c)) {
            if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
            size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
            int got[16];
            if (k > 16) k = 16;
            memcpy(got, CMSG_DATA(c), k * sizeof(int));
            for (size_t i = 0; i < k; i++) {
                if (*n_fds < 3 && got[i] >= 0) fds_out[(*n_fds)++] = got[i];
                else close(got[i]); /* more than the three streams: not kept */
            }
        }
        if (mh.msg_flags & MSG_CTRUNC) return -1;
        p += r, n -= (size_t)r;
    }
    return 0;
}

/* One message: the JSON value, or NULL (closed, late, too big, not JSON). */
static json_t *recv_message(int fd, int64_t until_ms, int *fds_out, int *n_fds)
{
    unsigned char head[4];
    if (recv_all(fd, head, 4, until_ms, fds_out, n_fds) < 0) return NULL;
    size_t len = (size_t)head[0] << 24 | (size_t)head[1] << 16 | (size_t)head[2] << 8 | head[3];
    if (len == 0 || len > PARK_MAX_MESSAGE) return NULL;
    char *text = xmalloc(len);
    json_t *v = NULL;
    if (recv_all(fd, text, len, until_ms, fds_out, n_fds) == 0) {
        json_limits lim = {PARK_MAX_MESSAGE, JSON_DEFAULT_MAX_DEPTH, 0};
        json_error jerr;
        v = json_parse(text, len, &lim, &jerr);
    }
    free(text);
    if (v && !json_is_object(v)) json_free(v), v = NULL;
    return v;
}

/* ---------- the resume's side ---------- */

/* A connection to the parked process at pl, or -1 when none is alive. */
static int connect_parked(const park_place *pl, int64_t until_ms)
{
    int dfd = open_dir(pl->dir, false);
    if (dfd < 0) return -1;
    char *lock = lock_name_of(pl->name);
    int held = take_lock(dfd, lock, false);
    int fd = -1;
    if (held == -2) fd = connect_to(dfd, pl->name, until_ms);
    else if (held >= 0) remove_pair(dfd, pl->name, lock, held); /* left by one that is gone */
    free(lock);
    close(dfd);
    return fd;
}

bool park_send_away(const park_place *pl)
{
    int64_t until = clock_monotonic_ms() + PARK_TAKE_WAIT_MS;
    int fd = connect_parked(pl, until);
    if (fd < 0) return false;
    json_t *req = json_object();
    json_object_set(req, "leave", json_bool(true));
    if (send_message(fd, req, NULL, 0, until) == 0) json_free(recv_message(fd, INT64_MAX, NULL, NULL));
    json_free(req);
    close(fd);
    return true;
}

int park_hand(const park_place *pl, const json_t *who, const char *response, const json_t *hint)
{
    int64_t until = clock_monotonic_ms() + PARK_TAKE_WAIT_MS;
    int fd = connect_parked(pl, until);
    if (fd < 0) return -1;
    json_t *req = json_object();
    json_object_set(req, "who", json_copy(who));
    json_object_set(req, "response", json_string(response));
    json_object_set(req, "hint", hint ? json_copy(hint) : json_null());
    int fds[3] = {0, 1, 2};
    int sent = send_message(fd, req, fds, 3, until);
    json_free(req);

    /* it answers once it has replayed, however long that takes (its replay is bounded by the run's
     * own limits); a parked process that dies closes the connection */
    json_t *reply = sent == 0 ? recv_message(fd, INT64_MAX, NULL, NULL) : NULL;
    const json_t *t = reply ? json_object_get(reply, "taken") : NULL;
    bool taken = t && t->type == JSON_TRUE;
    json_free(reply);
    if (!taken) { /* refused (it lets the run go) or no answer: the resume replays */
        close(fd);
        return -2;
    }
    /* the run goes on there, writing to our streams; its end may be far off */
    json_t *end = recv_message(fd, INT64_MAX, NULL, NULL);
    close(fd);
    const json_t *code = end ? json_object_get(end, "exit") : NULL;
    int rc = code && code->type == JSON_NUMBER ? (int)json_number_value(code) : -1;
    json_free(end);
    if (rc < 0 || rc > 255) {
        fprintf(stderr, "chidori: the run's parked process ended without saying how the run ended; `chidori runs "
                        "show` tells what it recorded, and a resume continues it if it was cut off\n");
        return 1;
    }
    return rc;
}

/* ---------- the parked process's side ---------- */

/* what the parked process printed before a resume took it: at most this much is kept */
#define PARK_MAX_CAPTURED ((off_t)8 << 20)

/* the file size limit before the capture bounded it (put back when a resume takes the run) */
static struct rlimit fsize_before;
static bool fsize_bounded;

int park_capture_streams(void)
{
    /* the place park_spawn handed over: kept from anything this process starts (its worker) */
    fcntl(PARK_FD_LOCK, F_SETFD, FD_CLOEXEC);
    fcntl(PARK_FD_LISTEN, F_SETFD, FD_CLOEXEC);
    /* The agent's output while it replays lands in memory: the kernel bounds it. Until a resume
     * takes the run this process writes no file but these (nothing live runs), so a file size
     * limit one byte past what is kept caps them whatever writes (its worker too, which inherits
     * it): a write past it ends the writer (SIGXFSZ) having performed nothing, and a resume
     * replays instead (as it does when exactly one byte too many was kept). */
    struct rlimit capped;
    if (getrlimit(RLIMIT_FSIZE, &fsize_before) < 0) return -1;
    capped = fsize_before;
    if (capped.rlim_cur == RLIM_INFINITY || capped.rlim_cur > (rlim_t)PARK_MAX_CAPTURED + 1)
        capped.rlim_cur = (rlim_t)PARK_MAX_CAPTURED + 1;
    if (setrlimit(RLIMIT_FSIZE, &capped) < 0) return -1;
    fsize_bounded = true;
    for (int i = 1; i <= 2; i++) {
        int m = memfd_create(i == 1 ? "chidori-parked-stdout" : "chidori-parked-stderr", MFD_CLOEXEC);
        if (m < 0) return -1;
        int rc = dup2(m, i); /* the descriptor i is read back through (the file is read-write) */
        close(m);
        if (rc < 0) return -1;
    }
    return 0;
}

int park_getrlimit(int resource, struct rlimit *rl)
{
    if (resource == RLIMIT_FSIZE && fsize_bounded) {
        *rl = fsize_before;
        return 0;
    }
    return getrlimit((__rlimit_resource_t)resource, rl);
}

/* More kept of stream i than a resume is given (the capture stopped at the limit). */
static bool captured_too_much(int i)
{
    struct stat st;
    return fstat(i, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > PARK_MAX_CAPTURED;
}

/* The kept output of stream i, written to fd. 0, or -1 (too much, or not written). */
static int copy_captured(int i, int fd)
{
    struct stat st;
    if (fstat(i, &st) < 0 || !S_ISREG(st.st_mode)) return 0; /* not captured */
    if (st.st_size > PARK_MAX_CAPTURED) return -1;
    char chunk[16384];
    for (off_t at = 0; at < st.st_size;) {
        ssize_t r = pread(i, chunk, sizeof chunk, at);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0 || write_all(fd, chunk, (size_t)r) < 0) return -1;
        at += r;
    }
    return 0;
}

/* The listener of a place: its folder, names, lock and listening socket (lock_name is taken). */
static park_listener *new_listener(int dir_fd, const char *name, char *lock_name, int lock_fd, int fd)
{
    park_listener *l = xcalloc(1, sizeof *l);
    l->dir_fd = dir_fd;
    l->name = xstrdup(name);
    l->lock_name = lock_name;
    l->lock_fd = lock_fd;
    l->fd = fd;
    l->conn = l->early_conn = -1;
    return l;
}

park_listener *park_listen(const park_place *pl, char **error)
{
    int dfd = open_dir(pl->dir, true);
    if (dfd < 0) {
        *error = xasprintf("%s is not a folder of this user that only it may enter", pl->dir);
        return NULL;
    }
    char *lock = lock_name_of(pl->name);
    int lock_fd = take_lock(dfd, lock, true);
    /* an older parked process of this run (a resume that did not come to it paused the run
     * again): it is stale now, and asked to go */
    for (int64_t until = clock_monotonic_ms() + 2000; lock_fd == -2 && clock_monotonic_ms() < until;) {
        park_send_away(pl);
        usleep(10000);
        lock_fd = take_lock(dfd, lock, true);
    }
    struct sockaddr_un a;
    socklen_t len = lock_fd >= 0 ? addr_in(dfd, pl->name, &a) : 0;
    int fd = len ? socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0) : -1;
    if (fd >= 0) unlinkat(dfd, pl->name, 0); /* one left by a process that is gone: the lock is ours */
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, len) < 0 || listen(fd, 8) < 0) {
        *error = xasprintf("cannot listen in %s: %s", pl->dir,
                           lock_fd < 0 ? "another process keeps the run's place" : strerror(errno));
        if (fd >= 0) close(fd);
        if (lock_fd >= 0) remove_pair(dfd, pl->name, lock, lock_fd);
        free(lock);
        close(dfd);
        return NULL;
    }
    return new_listener(dfd, pl->name, lock, lock_fd, fd);
}

park_listener *park_adopt(const park_place *pl)
{
    int dfd = open_dir(pl->dir, false);
    if (dfd < 0) return NULL;
    char *lock = lock_name_of(pl->name);
    struct stat a, b, sock;
    int accepting = 0;
    socklen_t al = sizeof accepting;
    /* the place's lock file, its lock held (taken again by the same open file: it is ours), and a
     * socket listening where the place's socket is */
    bool ok = fstat(PARK_FD_LOCK, &a) == 0 && S_ISREG(a.st_mode) &&
              fstatat(dfd, lock, &b, AT_SYMLINK_NOFOLLOW) == 0 && a.st_ino == b.st_ino && a.st_dev == b.st_dev &&
              flock(PARK_FD_LOCK, LOCK_EX | LOCK_NB) == 0 &&
              getsockopt(PARK_FD_LISTEN, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &al) == 0 && accepting == 1 &&
              fstatat(dfd, pl->name, &sock, AT_SYMLINK_NOFOLLOW) == 0 && S_ISSOCK(sock.st_mode);
    if (!ok) {
        free(lock);
        close(dfd);
        return NULL;
    }
    return new_listener(dfd, pl->name, lock, PARK_FD_LOCK, PARK_FD_LISTEN);
}

int park_relisten(park_listener *l)
{
    struct sockaddr_un a;
    socklen_t len = addr_in(l->dir_fd, l->name, &a);
    int fd = len ? socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0) : -1;
    if (fd >= 0) unlinkat(l->dir_fd, l->name, 0); /* the lock is ours: so is the name */
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, len) < 0 || listen(fd, 8) < 0) {
        if (fd >= 0) close(fd);
        return -1;
    }
    if (l->fd >= 0) close(l->fd);
    l->fd = fd;
    return 0;
}

void park_listener_release(park_listener *l)
{
    if (!l) return;
    stop_watch(l);
    if (l->early_conn >= 0) drop_request(l->early_conn, l->early_req, l->early_fds, l->early_n_fds);
    if (l->fd >= 0) close(l->fd);
    close(l->lock_fd); /* the lock stays held: by the process the place was handed to */
    close(l->dir_fd);
    free(l->name);
    free(l->lock_name);
    free(l);
}

/* The resume's end of the connection closes before the run has ended: the resume was killed, and
 * so is this process, where the run goes on, as the resume's own run would have been (the run is
 * then interrupted: its next resume continues it from its log). */
static void *watch_hangup(void *arg)
{
    int fd = (int)(intptr_t)arg;
    struct pollfd pf = {fd, POLLRDHUP, 0};
    while (poll(&pf, 1, -1) < 0 && errno == EINTR) {
    }
    if ((pf.revents & (POLLRDHUP | POLLHUP | POLLERR)) && !atomic_load(&reported)) _exit(1);
    return NULL;
}

static void reply(int fd, bool taken, const char *why)
{
    json_t *r = json_object();
    json_object_set(r, "taken", json_bool(taken));
    if (why) json_object_set(r, "why", json_string(why));
    (void)send_message(fd, r, NULL, 0, clock_monotonic_ms() + 2000);
    json_free(r);
}

/* The next request on the listening socket l->fd, by until_ms (or until stop_fd, when >= 0, is
 * readable): 1 with the connection, its message (NULL: not a message) and the descriptors passed
 * with it; 0 when the time ran out or the wait was stopped. */
static int next_request(park_listener *l, int64_t until_ms, int stop_fd, int *conn, json_t **req, int fds[3],
                        int *n_fds)
{
    for (;;) {
        int64_t left = until_ms - clock_monotonic_ms();
        if (left <= 0) return 0;
        struct pollfd pf[2] = {{l->fd, POLLIN, 0}, {stop_fd, POLLIN, 0}};
        int pr = poll(pf, stop_fd >= 0 ? 2 : 1, (int)(left > INT_MAX ? INT_MAX : left));
        if (pr < 0 && errno == EINTR) continue;
        if (pr <= 0 || (stop_fd >= 0 && pf[1].revents)) return 0;
        int c = accept4(l->fd, NULL, NULL, SOCK_CLOEXEC);
        if (c < 0) continue;
        struct ucred cred;
        socklen_t cl = sizeof cred;
        if (getsockopt(c, SOL_SOCKET, SO_PEERCRED, &cred, &cl) < 0 || cred.uid != geteuid()) {
            close(c); /* the folder is this user's alone: not expected, not served */
            continue;
        }
        *n_fds = 0;
        /* a peer that says nothing is let go once it closes, or after a while */
        *req = recv_message(c, clock_monotonic_ms() + 5000, fds, n_fds);
        *conn = c;
        return 1;
    }
}

static void drop_request(int c, json_t *req, int *fds, int n_fds)
{
    for (int i = 0; i < n_fds; i++) close(fds[i]);
    json_free(req);
    close(c);
}

static bool is_leave(const json_t *req, int n_fds)
{
    const json_t *leave = json_object_get(req, "leave");
    return leave && leave->type == JSON_TRUE && n_fds == 0;
}

/* A resume's message: its who and answer, with the three streams passed along. */
static bool is_resume(const json_t *req, int n_fds)
{
    return req && json_object_get(req, "who") && json_string_value(json_object_get(req, "response")) && n_fds == 3;
}

/* The watch while the run replays: a request to leave, or a resume that cannot be handed the run,
 * makes this process go at once (it has written nothing: nothing live runs before a hand-over);
 * a resume that may be is kept for park_wait; junk is dropped. */
static void *watch_early(void *arg)
{
    park_listener *l = arg;
    int c, fds[3], n_fds;
    json_t *req;
    while (next_request(l, INT64_MAX, l->stop_fd, &c, &req, fds, &n_fds)) {
        bool leave = is_leave(req, n_fds);
        if (leave || (is_resume(req, n_fds) && !l->fits(l->fits_ctx, json_object_get(req, "who")))) {
            reply(c, false, leave ? "asked to leave" : "the resume differs from the run's own");
            remove_pair(l->dir_fd, l->name, l->lock_name, l->lock_fd);
            _exit(0); /* the run's lock goes with this process */
        }
        if (is_resume(req, n_fds)) {
            l->early_conn = c, l->early_req = req, l->early_n_fds = n_fds;
            memcpy(l->early_fds, fds, sizeof fds);
            return NULL;
        }
        drop_request(c, req, fds, n_fds);
    }
    return NULL;
}

void park_watch_early(park_listener *l, bool (*fits)(void *ctx, const json_t *who), void *ctx)
{
    l->fits = fits, l->fits_ctx = ctx;
    l->stop_fd = eventfd(0, EFD_CLOEXEC);
    if (l->stop_fd < 0) return;
    l->watching = pthread_create(&l->watcher, NULL, watch_early, l) == 0;
    if (!l->watching) close(l->stop_fd);
}

/* The early watch ends (before the wait, or as this process goes). */
static void stop_watch(park_listener *l)
{
    if (!l->watching) return;
    uint64_t one = 1;
    if (write(l->stop_fd, &one, sizeof one) < 0) {
    }
    pthread_join(l->watcher, NULL);
    close(l->stop_fd);
    l->watching = false;
}

/* One request while waiting: 1 taken, 0 the wait ends (refused, left, undone), -1 dropped. */
static int handle(park_listener *l, int c, json_t *req, int fds[3], int n_fds, park_take_fn take,
                  void (*untake)(void *ctx), void *ctx, char **response)
{
    const json_t *who = json_object_get(req, "who");
    const char *answer = json_string_value(json_object_get(req, "response"));
    struct pollfd hp = {c, POLLRDHUP, 0};
    bool gone = poll(&hp, 1, 0) > 0 && (hp.revents & (POLLRDHUP | POLLHUP | POLLERR));
    if (is_leave(req, n_fds)) { /* the run is someone else's now */
        reply(c, false, "asked to leave");
        drop_request(c, req, fds, n_fds);
        return 0;
    }
    /* not a resume; or a resume that is gone (killed while it waited for the replay): not taken */
    if (!is_resume(req, n_fds) || gone) {
        drop_request(c, req, fds, n_fds);
        return -1;
    }
    char *why = NULL;
    bool too_much = captured_too_much(1) || captured_too_much(2);
    if (too_much) why = xstrdup("the replay printed more than a parked run keeps");
    if (too_much || take(ctx, who, answer, json_object_get(req, "hint"), &why) < 0) {
        reply(c, false, why ? why : "refused");
        free(why);
        drop_request(c, req, fds, n_fds);
        return 0;
    }
    /* taken (the run marked running with the answer): the resume is told; if it cannot be, it is
     * gone, and the run is put back as it was */
    json_t *yes = json_object();
    json_object_set(yes, "taken", json_bool(true));
    int told = send_message(c, yes, NULL, 0, clock_monotonic_ms() + 2000);
    json_free(yes);
    if (told < 0) {
        untake(ctx);
        drop_request(c, req, fds, n_fds);
        return 0;
    }
    /* what was printed so far goes to the resume's streams, which are this process's from here on;
     * the run writes its files as any run does */
    fflush(stdout);
    fflush(stderr);
    if (fsize_bounded) setrlimit(RLIMIT_FSIZE, &fsize_before);
    for (int i = 1; i <= 2; i++) (void)copy_captured(i, fds[i]);
    for (int i = 0; i < 3; i++) {
        dup2(fds[i], i);
        if (fds[i] > 2) close(fds[i]);
    }
    *response = xstrdup(answer);
    json_free(req);
    /* nobody else comes in: the socket goes (the lock stays ours until we end) */
    close(l->fd), l->fd = -1;
    unlinkat(l->dir_fd, l->name, 0);
    l->conn = c;
    pthread_t t;
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    (void)pthread_create(&t, &at, watch_hangup, (void *)(intptr_t)c);
    pthread_attr_destroy(&at);
    return 1;
}

int park_wait(park_listener *l, int64_t until_ms, park_take_fn take, void (*untake)(void *ctx), void *ctx,
              char **response)
{
    *response = NULL;
    stop_watch(l);
    if (l->early_conn >= 0) { /* a resume came while the run replayed: it is first */
        int c = l->early_conn;
        l->early_conn = -1;
        int got = handle(l, c, l->early_req, l->early_fds, l->early_n_fds, take, untake, ctx, response);
        if (got >= 0) return got;
    }
    int c, fds[3], n_fds;
    json_t *req;
    while (next_request(l, until_ms, -1, &c, &req, fds, &n_fds)) {
        int got = handle(l, c, req, fds, n_fds, take, untake, ctx, response);
        if (got >= 0) return got;
    }
    return 0;
}

void park_report_exit(park_listener *l, int code)
{
    fflush(stdout);
    fflush(stderr);
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null >= 0) {
        for (int i = 0; i < 3; i++) dup2(null, i);
        close(null);
    }
    if (l->conn < 0) return;
    atomic_store(&reported, true);
    json_t *r = json_object();
    json_object_set(r, "exit", json_number(code));
    (void)send_message(l->conn, r, NULL, 0, clock_monotonic_ms() + 5000);
    json_free(r);
}

void park_listener_close(park_listener *l)
{
    if (!l) return;
    stop_watch(l);
    if (l->early_conn >= 0) drop_request(l->early_conn, l->early_req, l->early_fds, l->early_n_fds);
    if (l->fd >= 0) close(l->fd);
    remove_pair(l->dir_fd, l->name, l->lock_name, l->lock_fd); /* the lock is ours: so is the place */
    /* the resume's connection stays open until this process exits: the hang-up watch must not see
     * a close of ours as the resume going away */
    close(l->dir_fd);
    free(l->name);
    free(l->lock_name);
    free(l);
}

/* spawn.c — starting a worker process.
 *
 * The child is started with clone(CLONE_VM | CLONE_VFORK) rather than fork: a server is a large
 * multi-threaded process, and a fork copied its page tables, then every page it wrote took a
 * copy-on-write fault and a TLB shootdown on every CPU (measured: most of the server's CPU under
 * load); the child execs at once anyway, and the calling thread waits until it has.
 *
 * What it execs: chidori-worker, the worker linked statically (no dynamic loader at each run's
 * start, about 0.3 ms here), when that file lies next to this binary — opened once, by descriptor,
 * so the file run is the one found; otherwise this very binary (/proc/self/exe __run-worker). Either
 * way the worker checks that it was built from the same code as its parent (the build id in the
 * first Init, see worker.c).
 *
 * A worker that is to be confined in a pid namespace is cloned into a new one here when this
 * process may make one (root): it starts as that namespace's pid 1, so it does not fork a child
 * of its own for it (which cost about 2 ms a run here: the fork copied the worker's page tables,
 * and the child faulted every page of the binary it touched in again). Otherwise it makes its own
 * (sandbox_ns.c, sandbox_pidns_fork).
 *
 * Every signal is blocked around the clone with the raw system call, glibc's own two included, so
 * that no handler of the parent runs in the child while it shares the parent's memory (execve then
 * resets the handlers; the worker unblocks its signals first thing, as posix_spawn's children do).
 *
 * Trusts its caller; owns nothing after the call but the returned pidfd.
 */
#define _GNU_SOURCE
#include "isolate/spawn.h"
#include "isolate/isolate.h"
#include "util/buf.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/close_range.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define WORKER_BINARY_NAME "chidori-worker"
#define HANDED (ISOLATE_HANDOFF_FD + 1) /* descriptors 0 .. HANDED-1 go to the worker */

static pthread_once_t binary_once = PTHREAD_ONCE_INIT;
static int binary_fd = -1;
static char binary_path[4096];

static void find_binary(void)
{
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) return;
    self[n] = 0;
    char *slash = strrchr(self, '/');
    if (!slash) return;
    *slash = 0;
    if ((size_t)snprintf(binary_path, sizeof binary_path, "%s/%s", self, WORKER_BINARY_NAME) >= sizeof binary_path) return;
    int fd = open(binary_path, O_PATH | O_CLOEXEC);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & S_IXUSR)) {
        binary_fd = fd;
        return;
    }
    if (fd >= 0) close(fd);
    binary_path[0] = 0;
}

const char *spawn_worker_binary(void)
{
    pthread_once(&binary_once, find_binary);
    return binary_fd >= 0 ? binary_path : NULL;
}

int spawn_send_fds(int sock, char byte, const int *fds, int n)
{
    if (n < 0 || n > SPAWN_SEND_FDS_MAX) {
        errno = EINVAL;
        return -1;
    }
    struct iovec iov = {.iov_base = &byte, .iov_len = 1};
    union {
        char buf[CMSG_SPACE(sizeof(int) * SPAWN_SEND_FDS_MAX)];
        struct cmsghdr align;
    } ctl;
    struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1};
    if (n > 0) {
        m.msg_control = ctl.buf;
        m.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)n);
        struct cmsghdr *c = CMSG_FIRSTHDR(&m);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)n);
        memcpy(CMSG_DATA(c), fds, sizeof(int) * (size_t)n);
    }
    return sendmsg(sock, &m, MSG_NOSIGNAL) == 1 ? 0 : -1;
}

char **spawn_worker_env(spawn_environ *se, const char *a, const char *u)
{
    int n = 0;
    if (a) snprintf(se->asan, sizeof se->asan, "ASAN_OPTIONS=%s", a), se->env[n++] = se->asan;
    if (u) snprintf(se->ubsan, sizeof se->ubsan, "UBSAN_OPTIONS=%s", u), se->env[n++] = se->ubsan;
    se->env[n] = NULL;
    return se->env;
}

typedef struct spawn_plan {
    const spawn_request *req;
    pid_t parent;
    int binary; /* the worker binary's descriptor, or -1 */
    bool pid1;  /* cloned into a new pid namespace */
    int binary_errno; /* set by the child when the worker binary could not be exec'd */
} spawn_plan;

/* The child, on its own small stack, in the parent's memory until execve: only raw system calls
 * (a failing one sets errno, which the parent does not read after a successful clone), every
 * signal still blocked (the parent blocked them; execve resets the handlers and the worker unblocks
 * them first thing). Its descriptor table is its own (no CLONE_FILES). */
static int spawn_child(void *arg)
{
    spawn_plan *plan = arg;
    const spawn_request *req = plan->req;
    syscall(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    /* The parent died already (then the worker would run on for nobody). In a pid namespace of
     * its own the parent is outside it and getppid is 0 either way: there a worker whose parent
     * died sees its pipes' end of file at its first read and ends. */
    if (!plan->pid1 && syscall(SYS_getppid) != plan->parent) syscall(SYS_exit, 127);
    syscall(SYS_setsid);
    /* What the worker gets, by number: 0-2 its pipes, 3 the handoff socket. Every source is first
     * moved above those numbers (so no dup2 overwrites another source), then put in place. */
    int from[HANDED] = {req->in, req->out, req->err, req->handoff};
    for (int i = 0; i < HANDED; i++)
        if ((from[i] = (int)syscall(SYS_fcntl, from[i], F_DUPFD_CLOEXEC, HANDED)) < 0) syscall(SYS_exit, 127);
    int binary = plan->binary;
    if (binary >= 0 && binary < HANDED) binary = (int)syscall(SYS_fcntl, binary, F_DUPFD_CLOEXEC, HANDED);
    for (int i = 0; i < HANDED; i++)
        if (syscall(SYS_dup2, from[i], i) < 0) syscall(SYS_exit, 127);
    unsigned first_closed = HANDED;
    static char *const argv[] = {"chidori", "__run-worker", NULL};
    /* Everything above the handed-on descriptors goes at the exec; the binary's stays open until
     * then, as execveat needs it. */
    if (binary >= 0 && syscall(SYS_close_range, first_closed, ~0u, CLOSE_RANGE_CLOEXEC) == 0) {
        long rc = syscall(SYS_execveat, binary, "", argv, req->env, AT_EMPTY_PATH);
        plan->binary_errno = rc < 0 ? errno : 0; /* the parent's memory: it tells */
    }
    syscall(SYS_close_range, first_closed, ~0u, 0);
    syscall(SYS_execve, "/proc/self/exe", argv, req->env);
    syscall(SYS_exit, 127);
    return 127;
}

#define SPAWN_STACK_BYTES (64 * 1024)

/* The worker binary was found but could not be exec'd (it is being replaced: ETXTBSY; a mount
 * without exec): this binary serves as the worker instead, which is safe (the same build, checked)
 * but slower to start. Said once per process, so that an operator sees it. */
static void report_fallback(int err)
{
    static atomic_bool said;
    if (atomic_exchange(&said, true)) return;
    fprintf(stderr, "chidori: the worker binary %s could not be run (%s); this binary runs as the worker instead\n",
            binary_path, strerror(err));
}

/* With the raw system call: glibc's pthread_sigmask and sigprocmask quietly keep its two internal
 * signals (32 and 33) unblocked. The kernel's set is 64 bits on the architectures we build for
 * (NSIG 65); where it is not, the call fails and the C library's mask is the fallback. */
void spawn_block_all(spawn_sigmask *saved)
{
    unsigned long long all = ~0ULL;
    saved->bits = 0;
    saved->raw = syscall(SYS_rt_sigprocmask, SIG_SETMASK, &all, &saved->bits, sizeof all) == 0;
    if (!saved->raw) {
        sigset_t every;
        sigfillset(&every);
        pthread_sigmask(SIG_SETMASK, &every, &saved->libc);
    }
}

void spawn_unblock(const spawn_sigmask *saved)
{
    if (saved->raw) syscall(SYS_rt_sigprocmask, SIG_SETMASK, &saved->bits, NULL, sizeof saved->bits);
    else pthread_sigmask(SIG_SETMASK, &saved->libc, NULL);
}

/* Set once the kernel refused this process a pid namespace for want of privilege: it will again (a
 * failed clone does much of a process's copying before it fails), so later workers make their own
 * from the start. */
static atomic_bool no_new_pidns;

pid_t spawn_worker_process(const spawn_request *req, int *pidfd)
{
    spawn_worker_binary();
    spawn_plan plan = {.req = req, .parent = getpid(), .binary = binary_fd,
                       .pid1 = req->new_pidns && !atomic_load(&no_new_pidns)};
    char *stack = xmalloc(SPAWN_STACK_BYTES);
    spawn_sigmask saved;
    spawn_block_all(&saved);
    *pidfd = -1;
    int flags = CLONE_VM | CLONE_VFORK | CLONE_PIDFD | SIGCHLD;
    pid_t pid = clone(spawn_child, stack + SPAWN_STACK_BYTES, flags | (plan.pid1 ? CLONE_NEWPID : 0), &plan, pidfd);
    if (pid < 0 && plan.pid1 && (errno == EPERM || errno == EINVAL || errno == ENOSPC || errno == EUSERS)) {
        /* not allowed to make a pid namespace here: the worker makes its own (and, refused for
         * want of privilege, so will every later one: a count at its limit, ENOSPC/EUSERS, may
         * pass again) */
        if (errno == EPERM || errno == EINVAL) atomic_store(&no_new_pidns, true);
        plan.pid1 = false;
        *pidfd = -1;
        pid = clone(spawn_child, stack + SPAWN_STACK_BYTES, flags, &plan, pidfd);
    }
    int e = errno;
    spawn_unblock(&saved);
    free(stack);
    if (pid > 0 && plan.binary_errno) report_fallback(plan.binary_errno);
    errno = e;
    return pid;
}

/* forkserver.c — a worker that forks workers: the fork server's side (forkserver_client.c is the
 * parent's).
 *
 * A server starts many runs, and each needs a fresh confined process. Started per run, a worker
 * pays an exec, the C library's start-up and the making of five namespaces, which together were
 * most of the CPU an isolated session cost. A fork server pays them once: it is started like any
 * worker (exec'd, same build check, same handoff socket), enters the namespaces every worker of
 * the server shares — its identity, the user namespace, the server's empty network namespace, the
 * mount namespace with an empty read-only root, ipc/uts — and then forks one worker per request.
 *
 * Each is cloned with CLONE_NEWPID | CLONE_PARENT: pid 1 of a pid namespace of its own, and a
 * child of the server (which holds its pidfd, reaps it and sees its exit status), never of the
 * fork server. It puts the request's four descriptors in place as 0-3 and from there is a worker
 * like any other: worker_main reads its Init, enters its cgroup slot, and applies the layers that
 * are its own (rlimits, capabilities, descriptors, a Landlock domain, the seccomp allowlist) before
 * any agent code exists; isolate_confine reports the shared layers as the fork server applied them.
 * The fork server also builds the engine's runtime, context and prelude once (engine_prepare),
 * which is the same for every run: each worker starts its run on its own copy of it.
 *
 * The fork server runs no agent code and holds nothing of any run: its only input is its parent's
 * Init and requests, and it trusts its parent. Every worker forked from one shares its memory
 * layout (ASLR, the stack protector's canary); the parent replaces it after a number of forks
 * (docs/sandbox-model.md, Current gaps).
 *
 * Protocol on ISOLATE_HANDOFF_FD, a SOCK_SEQPACKET socket: once in its namespaces it sends an int32
 * 0 (ready). A request is the byte 'f' with exactly four descriptors (the new worker's 0, 1, 2, 3);
 * the answer is an int32, the worker's pid (in the parent's pid namespace, which is this one) or
 * -errno when none was made. End of file on the socket ends the fork server.
 */
#define _GNU_SOURCE
#include "isolate/forkserver.h"
#include "isolate/isolate.h"
#include "engine/engine.h"
#include "isolate/sandbox_linux.h"
#include "util/buf.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#define WORKER_FDS 4 /* 0-2 its pipes, 3 its handoff socket */

static int answer(int ctl, int32_t v)
{
    return send(ctl, &v, sizeof v, MSG_NOSIGNAL) == (ssize_t)sizeof v ? 0 : -1;
}

/* One request: 1 with its descriptors in fds, 0 when the parent is gone, -1 for a malformed one
 * (whatever came with it closed). */
static int read_request(int ctl, int fds[WORKER_FDS])
{
    char byte = 0;
    struct iovec iov = {.iov_base = &byte, .iov_len = 1};
    union {
        char buf[CMSG_SPACE(sizeof(int) * WORKER_FDS)];
        struct cmsghdr align;
    } ctlbuf;
    struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctlbuf.buf, .msg_controllen = sizeof ctlbuf.buf};
    ssize_t got;
    do {
        got = recvmsg(ctl, &m, MSG_CMSG_CLOEXEC);
    } while (got < 0 && errno == EINTR);
    if (got <= 0) return 0;
    int n = 0;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
        size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        int got_fds[WORKER_FDS];
        memcpy(got_fds, CMSG_DATA(c), sizeof(int) * (k < WORKER_FDS ? k : WORKER_FDS));
        for (size_t i = 0; i < k && i < WORKER_FDS; i++) {
            if (n < WORKER_FDS) fds[n++] = got_fds[i];
            else close(got_fds[i]);
        }
    }
    if (byte == 'f' && n == WORKER_FDS && !(m.msg_flags & (MSG_CTRUNC | MSG_TRUNC))) return 1;
    for (int i = 0; i < n; i++) close(fds[i]);
    return -1;
}

/* In the new worker: die with the server, and hold the request's descriptors as 0-3 and nothing
 * else (every source first moved above 3, so no dup2 overwrites another; the socket to the
 * parent, 3 here, goes with them). */
static void become_worker(int fds[WORKER_FDS])
{
    /* Armed after the clone: had the server's thread gone already, the worker still ends, at the
     * end of file of its first read. getppid() cannot tell (0 from inside its pid namespace). */
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    prctl(PR_SET_NAME, "chidori-worker", 0, 0, 0);
    setsid(); /* a session and process group of its own, as an exec'd worker has */
    for (int i = 0; i < WORKER_FDS; i++)
        if ((fds[i] = fcntl(fds[i], F_DUPFD_CLOEXEC, WORKER_FDS)) < 0) _exit(127);
    for (int i = 0; i < WORKER_FDS; i++)
        if (dup2(fds[i], i) < 0) _exit(127);
    if (syscall(SYS_close_range, WORKER_FDS, ~0u, 0) < 0) _exit(127);
}

/* A raw clone, like fork() without glibc's bookkeeping: nothing here needs it (the fork server is
 * single-threaded and holds no lock; the child's cached thread id is stale, which nothing it calls
 * reads: raise() asks the kernel). clone3 where the kernel (or a container's filter) has it,
 * else clone, which takes the same flags. */
static long clone_worker(bool own_pidns)
{
    static bool no_clone3;
    unsigned long flags = CLONE_PARENT | (own_pidns ? CLONE_NEWPID : 0);
    if (!no_clone3) {
        struct clone_args a;
        memset(&a, 0, sizeof a);
        a.flags = flags;
        a.exit_signal = 0; /* none with CLONE_PARENT: the child gets ours, SIGCHLD */
        long pid = syscall(SYS_clone3, &a, sizeof a);
        if (pid >= 0 || errno != ENOSYS) return pid;
        no_clone3 = true;
    }
    return syscall(SYS_clone, flags, NULL, NULL, NULL, 0UL);
}

int forkserver_serve(const isolate_sandbox *sandbox, int shared_netns_fd, const char *selftest, bool own_engine,
                     char **error)
{
    prctl(PR_SET_NAME, FORKSERVER_NAME, 0, 0, 0); /* what ps and /proc show: not a worker */
    if (isolate_confine_shared(sandbox, shared_netns_fd, error) != 0) return FORKSERVER_FAILED;
    bool own_pidns = !name_in_list(sandbox->skip, "pidns");
    /* Test-only: a fork server that names a process which is not its parent's child (its parent
     * itself) instead of forking; the parent must refuse the answer. */
    bool lie = selftest && !strcmp(selftest, "forkserver_foreign_pid");
    int ctl = ISOLATE_HANDOFF_FD;
    /* The engine's runtime, context and prelude, built once: each worker runs on its copy. Unless
     * copying costs more than building where a first write to a page traps to a hypervisor: then
     * each worker builds its own (own_engine; page_cost.h). */
    if (!own_engine) engine_prepare();
    /* From here on, its own seccomp filter (sandbox_seccomp_forkserver): what it and its workers
     * do until each installs its own, nothing else. A fork server that was meant to have one and
     * cannot install it does not serve (workers are then exec'd one by one). */
    if (!name_in_list(sandbox->skip, "seccomp")) {
        sandbox_status st = sandbox_seccomp_forkserver();
        if (!st.applied) {
            *error = xasprintf("its seccomp filter: %s", st.detail);
            return FORKSERVER_FAILED;
        }
    }
    if (selftest && !strcmp(selftest, "forkserver_forbidden_syscall")) {
        /* Test-only: a syscall its filter refuses (a socket), which must end it by SIGSYS. */
        syscall(SYS_socket, AF_INET, SOCK_STREAM, 0);
        *error = xstrdup("its seccomp filter let a socket through");
        return FORKSERVER_FAILED;
    }
    close(0); /* its Init came; nothing more will */
    close(1);
    if (answer(ctl, 0) != 0) return FORKSERVER_DONE;
    for (;;) {
        int fds[WORKER_FDS];
        int r = read_request(ctl, fds);
        if (r == 0) return FORKSERVER_DONE;
        if (r < 0) {
            if (answer(ctl, -EINVAL) != 0) return FORKSERVER_DONE;
            continue;
        }
        if (lie) {
            for (int i = 0; i < WORKER_FDS; i++) close(fds[i]);
            if (answer(ctl, (int32_t)getppid()) != 0) return FORKSERVER_DONE;
            continue;
        }
        long pid = clone_worker(own_pidns);
        if (pid == 0) {
            become_worker(fds);
            return FORKSERVER_CHILD;
        }
        int e = errno;
        for (int i = 0; i < WORKER_FDS; i++) close(fds[i]);
        if (answer(ctl, pid > 0 ? (int32_t)pid : -e) != 0) return FORKSERVER_DONE;
    }
}

/* supervisor.c — the parent side of an isolated run: spawn the worker, serve its frames, enforce
 * the run's deadline and CPU budget on it from outside (the backstop, below), map its end to a
 * precise error.
 *
 * Owns the worker process (until it is reaped), its pipes, its cgroup. Treats every frame from the
 * worker as hostile: frames are size-capped and parsed with limits (protocol.c), classified
 * strictly, and anything out of order — a Call after Done, an unknown type, a forged reply, a
 * truncated frame, EOF — fails the run and kills the worker; the parent carries on. Host ops the
 * worker asks for go through host_call exactly as in-process ones do, so records and output are
 * the same bytes in both modes.
 *
 * The worker is started by spawn.c (chidori-worker, or this binary's __run-worker), with
 * descriptors 0/1/2 only (frames in, frames out, a stderr pipe relayed by a thread), a clean
 * environment, a new session (no controlling terminal) and PR_SET_PDEATHSIG, so it dies with us.
 */
#define _GNU_SOURCE
#include "isolate/isolate.h"
#include "isolate/ahead.h"
#include "util/clock.h"
#include "isolate/protocol.h"
#include "host/host.h"
#include "isolate/sandbox_linux.h"
#include "isolate/spawn.h"
#include "isolate/forkserver.h"
#include "util/buf.h"
#include "util/threads.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The worker's cgroup: the engine's own ceiling plus room for the process itself, and a pids
 * limit (the worker and its pid-namespace stub; seccomp forbids creating more anyway). */
#define WORKER_PIDS_MAX 8
#if defined(__SANITIZE_ADDRESS__)
/* An ASan build pays redzones, shadow memory and a quarantine of freed blocks for every byte the
 * engine allocates: the cgroup, a backstop behind the engine's exact ceiling, leaves room for it. */
#define WORKER_MEMORY_FACTOR 4
#define WORKER_MEMORY_SLACK ((uint64_t)512 << 20)
#else
#define WORKER_MEMORY_FACTOR 1
#define WORKER_MEMORY_SLACK ((uint64_t)64 << 20)
#endif


/* ---------- stderr relay ---------- */

typedef struct relay {
    int fd;
    thread_task *task; /* the thread relaying it (threads.h) */
    char tail[4096]; /* the last bytes the worker wrote (it names a blocked syscall there) */
    size_t tail_len;
} relay;

static void *relay_main(void *p)
{
    relay *r = p;
    char chunk[4096];
    ssize_t n;
    while ((n = read(r->fd, chunk, sizeof chunk)) > 0 || (n < 0 && errno == EINTR)) {
        if (n <= 0) continue;
        size_t k = (size_t)n;
        if (k >= sizeof r->tail) {
            memcpy(r->tail, chunk + k - sizeof r->tail, sizeof r->tail);
            r->tail_len = sizeof r->tail;
        } else {
            size_t keep = r->tail_len + k > sizeof r->tail ? sizeof r->tail - k : r->tail_len;
            memmove(r->tail, r->tail + r->tail_len - keep, keep);
            memcpy(r->tail + keep, chunk, k);
            r->tail_len = keep + k;
        }
        for (size_t i = 0; i < k; i++) { /* the worker's bytes reach a terminal: no escape sequences */
            unsigned char c = (unsigned char)chunk[i];
            if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) chunk[i] = '?';
        }
        if (write(STDERR_FILENO, chunk, k) < 0) break;
    }
    return NULL;
}

/* ---------- spawning ---------- */

typedef struct worker {
    pid_t pid;
    int pidfd;
    int to_child, from_child;
    relay *err; /* on the heap: its thread writes to it while the worker struct is copied around
                   (a warm worker is handed from the pool to a run) */
    sandbox_cgroup cgroup;
    int cpu; /* the CPU this thread and the worker share once they take turns (pin_for_run), or -1 */
    int alt_cpu; /* another CPU this thread may run on (pinned runs only), or -1 */
    bool pinned; /* they share it now */
    cpu_set_t allowed; /* this thread's CPUs before (given back by unpin_after_run) */
    unsigned replies; /* replies the worker waited for, until they share it */
    bool apart;  /* this thread is on alt_cpu while the worker replays ahead (place_for_ahead) */
    int handed; /* descriptors sent on its handoff socket */
    uint64_t cpu_secs; /* its RLIMIT_CPU (0: none) */
    uint64_t cpu_used_us; /* what it used, once reaped (its engine's process included) */
    int term_sig;         /* the signal that ended it, once reaped (0: it exited) */
} worker;

/* A run is a strict ping-pong between this process and its worker: one of them always waits
 * for the other. On one CPU each hand-over is a plain context switch; across CPUs it is a wake-up
 * of an idle CPU, which in a virtual machine costs tens of microseconds (measured here: 76 µs per
 * brokered effect across vCPUs, 16 µs on one; a waiting call's round trip today, 22 µs on one CPU
 * against 30 across). So with pin_cpu, once a run has waited for PIN_AFTER_REPLIES replies, the
 * parent moves the worker and itself to one CPU (pin_for_run) for the rest of the run. Not
 * before: pinned from the spawn (as it once was, the worker joining once confined), an isolated
 * hello run took 6-8% longer than unpinned, a resume replaying 600-1,600 records ahead 3-6% longer
 * and a run of 20,000 marks (calls not waited for, where the two work at once) 1.4-1.75x as long;
 * a short run is over before taking turns would pay. */
#define PIN_AFTER_REPLIES 32

/* The CPU the worker and this thread will share if the run keeps waiting (this thread's now), and
 * another this thread may move to while the worker replays ahead; nothing is pinned yet. */
static void choose_cpu(worker *w)
{
    w->cpu = w->alt_cpu = -1;
    int cpu = sched_getcpu();
    if (cpu < 0 || cpu >= CPU_SETSIZE) return;
    CPU_ZERO(&w->allowed);
    if (sched_getaffinity(0, sizeof w->allowed, &w->allowed) != 0 || !CPU_ISSET(cpu, &w->allowed)) return;
    for (int k = 1; k < CPU_SETSIZE && w->alt_cpu < 0; k++) /* the next allowed CPU after this one */
        if (CPU_ISSET((cpu + k) % CPU_SETSIZE, &w->allowed)) w->alt_cpu = (cpu + k) % CPU_SETSIZE;
    w->cpu = cpu;
}

static pid_t engine_pid(const worker *w);

/* From here the worker and this thread share one CPU (see above). The parent moves the worker (it
 * may: the worker's user namespace is the parent's child) — and its engine's process, when the
 * worker is a pid-namespace stub with the engine in its child — then itself. */
static void pin_for_run(worker *w)
{
    if (w->cpu < 0 || w->pinned) return;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(w->cpu, &set);
    pid_t engine = engine_pid(w);
    if (sched_setaffinity(w->pid, sizeof set, &set) == 0 &&
        (engine == w->pid || sched_setaffinity(engine, sizeof set, &set) == 0) &&
        sched_setaffinity(0, sizeof set, &set) == 0)
        w->pinned = true;
    else
        w->cpu = w->alt_cpu = -1; /* then it stays unpinned (a worker already moved does no harm) */
}

/* The run is over: this thread may run wherever it could before, so that what is left of the run
 * here does not wait on one CPU for the worker's exit. */
static void unpin_after_run(worker *w)
{
    if (!w->pinned) return;
    sched_setaffinity(0, sizeof w->allowed, &w->allowed);
    w->pinned = false;
}

/* Replay ahead (ahead.h) is not a ping-pong: while the worker answers calls from an offer, this
 * thread replays the calls it sent, and both can work at once. So a pinned thread moves to another
 * CPU while an offer is out, and back to the worker's when a reply carries none. */
static void place_for_ahead(worker *w, bool apart)
{
    if (!w->pinned || w->alt_cpu < 0 || w->apart == apart) return;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(apart ? w->alt_cpu : w->cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) == 0) w->apart = apart;
}

/* What the worker starts with, prepared while it execs and sent on the handoff socket before its
 * first Init: an empty network namespace to join (the server's shared one, or one made for this
 * worker when this process is root), and its cgroup slot's membership files (sandbox_cgroup.c).
 * The preparation runs on a thread of its own, started before the spawn. */
static void kill_worker(worker *w);

typedef struct handoff {
    const isolate_options *o;
    uint64_t mem_cap_bytes;
    sandbox_cgroup cgroup;
    int own_netns; /* made for this worker, or -1 */
    int own_mntns; /* made for this worker (its empty read-only root), or -1 */
    pthread_t thread;
    bool threaded; /* prepared on a thread of its own, which may leave our network namespace */
} handoff;

static void *prepare_handoff(void *arg)
{
    handoff *h = arg;
    const isolate_options *o = h->o;
    /* the cgroup slot first: the steps below take this thread out of our namespaces, the mount
     * namespace last (the host's files are out of its sight from there) */
    if (!name_in_list(o->sandbox.skip, "cgroup"))
        sandbox_cgroup_claim(o->cgroup_root, h->mem_cap_bytes ? h->mem_cap_bytes * WORKER_MEMORY_FACTOR + WORKER_MEMORY_SLACK : 0,
                             WORKER_PIDS_MAX, &h->cgroup);
    if (h->threaded && !name_in_list(o->sandbox.skip, "netns") && !o->has_shared_netns)
        h->own_netns = isolate_netns_open_here(); /* this thread ends when done: it may leave ours */
    if (h->threaded && !name_in_list(o->sandbox.skip, "mountns"))
        h->own_mntns = isolate_mntns_open_here();
    return NULL;
}

static void handoff_begin(handoff *h, const isolate_options *o, uint64_t mem_cap_bytes)
{
    *h = (handoff){.o = o, .mem_cap_bytes = mem_cap_bytes, .own_netns = -1, .own_mntns = -1,
                   .cgroup = SANDBOX_CGROUP_NONE};
    /* A worker from a fork server starts in microseconds: nothing to overlap with, so no thread. */
    h->threaded = !o->forkserver;
    if (!h->threaded || pthread_create(&h->thread, NULL, prepare_handoff, h) != 0) {
        h->threaded = false; /* then the worker makes its own network namespace */
        prepare_handoff(h);
    }
}

/* Wait for the preparation, send what it made on sock (then closed), and keep the cgroup slot in
 * w (sock < 0: the spawn failed; only clean up). */
static void handoff_end(handoff *h, worker *w, int sock)
{
    if (h->threaded) pthread_join(h->thread, NULL);
    int fds[4], n = 0;
    if (h->o->has_shared_netns && !name_in_list(h->o->sandbox.skip, "netns")) fds[n++] = h->o->shared_netns;
    else if (h->own_netns >= 0) fds[n++] = h->own_netns;
    if (h->own_mntns >= 0) fds[n++] = h->own_mntns;
    for (int i = 0; i < 2; i++)
        if (h->cgroup.join[i] >= 0) fds[n++] = h->cgroup.join[i];
    if (sock >= 0) {
        if (spawn_send_fds(sock, 'h', fds, n) == 0) {
            if (w) w->handed = n;
        } else if (w) {
            /* Never let a worker run without what it was meant to start with (its cgroup above
             * all): it is stopped, and its run fails as one whose worker ended. (Mostly, it died
             * at once already, and its own end says why.) The worker also refuses to run when
             * fewer descriptors came than its first Init says. */
            w->handed = n;
            kill_worker(w);
        }
        close(sock);
    }
    if (h->own_netns >= 0) close(h->own_netns);
    if (h->own_mntns >= 0) close(h->own_mntns);
    if (w) w->cgroup = h->cgroup;
    else sandbox_cgroup_release(&h->cgroup);
}

static int spawn_worker(worker *w, const isolate_options *o, uint64_t mem_cap_bytes, char **error)
{
    int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1}, hand[2] = {-1, -1};
    /* our end of the worker's input is non-blocking: a reply waits for room only until the run's
     * limits (wait_for_room) */
    if (pipe2(in, O_CLOEXEC) || fcntl(in[1], F_SETFL, O_NONBLOCK) || pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC) ||
        socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, hand)) {
        *error = xasprintf("cannot create the worker's pipes: %s", strerror(errno));
        int *all[] = {in, out, err, hand};
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 2; j++)
                if (all[i][j] >= 0) close(all[i][j]);
        return -1;
    }
    handoff h;
    handoff_begin(&h, o, mem_cap_bytes);
    spawn_environ we;
    spawn_request req = {.in = in[0], .out = out[1], .err = err[1], .handoff = hand[0], .env = spawn_worker_env(&we, o->asan_options, o->ubsan_options),
                         .new_pidns = isolate_sandbox_wants(&o->sandbox, "pidns")};
    int pidfd = -1;
    bool no_child = true;
    pid_t pid = o->forkserver ? forkserver_spawn(o->forkserver, o, &req, &pidfd, &no_child) : -1;
    if (pid < 0 && no_child) pid = spawn_worker_process(&req, &pidfd);
    int e = errno;
    close(in[0]);
    close(out[1]);
    close(err[1]);
    close(hand[0]);
    if (pid < 0) {
        handoff_end(&h, NULL, -1);
        close(in[1]), close(out[0]), close(err[0]), close(hand[1]);
        if (!no_child) {
            /* The fork server died or misbehaved mid-request: a worker of its may hold those
             * pipes (it ends at their end of file, now). This run's worker is exec'd on new ones. */
            isolate_options exec_only = *o;
            exec_only.forkserver = NULL;
            return spawn_worker(w, &exec_only, mem_cap_bytes, error);
        }
        *error = xasprintf("cannot start a worker: %s", strerror(e));
        return -1;
    }
    w->pid = pid;
    w->pidfd = pidfd;
    w->cpu_secs = o->sandbox.cpu_secs;
    w->to_child = in[1];
    w->from_child = out[0];
    w->err = xcalloc(1, sizeof *w->err);
    w->err->fd = err[0];
    if (!(w->err->task = threads_run(relay_main, w->err))) {
        close(err[0]);
        w->err->fd = -1;
    }
    if (o->pin_cpu) choose_cpu(w); /* what pin_for_run would use; nothing pinned yet */
    handoff_end(&h, w, hand[1]);
    return 0;
}

/* The worker has exited (without reaping it). After EOF on its pipe a dying worker may take a
 * moment to become a zombie, so wait briefly. */
static bool worker_has_exited(worker *w)
{
    for (int i = 0; i < 50; i++) {
        siginfo_t si = {0};
        if (waitid(P_PID, (id_t)w->pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == w->pid) return true;
        struct timespec ts = {0, 2 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    return false;
}

/* Whether the worker exits within ms (its pidfd becomes readable when it does). */
#define DONE_EXIT_GRACE_MS 250
static bool worker_exits_within(worker *w, int ms)
{
    if (w->pidfd < 0) return false;
    struct pollfd p = {.fd = w->pidfd, .events = POLLIN};
    int64_t until = clock_monotonic_ms() + ms;
    for (;;) {
        int left = (int)(until - clock_monotonic_ms());
        int rc = poll(&p, 1, left > 0 ? left : 0);
        if (rc > 0) return true;
        if (rc == 0 || errno != EINTR) return false;
    }
}

static void kill_worker(worker *w)
{
    if (w->pidfd >= 0) syscall(SYS_pidfd_send_signal, w->pidfd, SIGKILL, NULL, 0);
    else kill(w->pid, SIGKILL);
}

/* Reap the worker and say how it ended when that was not a clean exit. */
static char *reap(worker *w, bool outcome_known)
{
    int status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    while (wait4(w->pid, &status, 0, &ru) < 0 && errno == EINTR) {
    }
    /* A pid-namespace init ignores SIGXCPU, so a worker that is one (forked by a fork server, with
     * no stub to say so) meets its CPU limit as the hard limit's SIGKILL. */
    uint64_t cpu_us = (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000u +
                      (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
    bool out_of_cpu = w->cpu_secs && cpu_us >= w->cpu_secs * 1000000u;
    w->cpu_used_us = cpu_us;
    w->term_sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    close(w->to_child);
    close(w->from_child);
    if (w->err && w->err->fd >= 0) {
        threads_wait(w->err->task);
        close(w->err->fd);
    }
    if (w->pidfd >= 0) close(w->pidfd);
    char *why = NULL;
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        if (sig == SIGSYS) {
            char name[64];
            if (w->err && sandbox_blocked_syscall_from_stderr(w->err->tail, w->err->tail_len, name, sizeof name))
                why = xasprintf("sandbox violation: blocked syscall %s", name);
            else
                why = xstrdup("sandbox violation: blocked syscall (unnamed: the architecture or x32 check)");
        } else if (sig == SIGKILL && sandbox_cgroup_oom_killed(&w->cgroup)) {
            why = xstrdup("memory ceiling reached: the worker's cgroup ran out of memory");
        } else if (sig == SIGXCPU || (sig == SIGKILL && out_of_cpu)) {
            why = xstrdup("CPU limit exceeded: the worker used its CHIDORI_ISOLATE_CPU_SECS");
        } else if (sig == SIGXFSZ) {
            why = xstrdup("file size limit exceeded (CHIDORI_ISOLATE_FSIZE_BYTES)");
        } else if (sig == SIGKILL) {
            /* not a crash, and not chidori (its own kills are told apart by the caller: the
             * deadline, a silent worker, a cancel, a worker that had already sent its outcome) */
            why = xstrdup("engine killed: SIGKILL from outside chidori (an operator, or the system's OOM killer)");
        } else {
            const char *abbrev = sigabbrev_np(sig);
            why = abbrev ? xasprintf("engine crashed: SIG%s", abbrev) : xasprintf("engine crashed: signal %d", sig);
        }
    } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
        why = xasprintf("the worker exited with status %d", WEXITSTATUS(status));
    }
    if (outcome_known) sandbox_cgroup_release(&w->cgroup);
    else sandbox_cgroup_destroy(&w->cgroup); /* needed to read the OOM flag first (above), then clean up */
    free(w->err);
    w->err = NULL;
    return why;
}

/* ---------- the end of a worker that sent its outcome ---------- */

/* After its Done a worker exits by itself, and its exit (its memory, page tables and namespaces
 * torn down by the kernel) took 0.55-0.8 ms here, a fifth of a hello session of `serve`. With
 * end_in_background (a server) the run does not wait for it: a kept thread (threads.h) waits out
 * the exit, kills a worker still there after DONE_EXIT_GRACE_MS, reaps it and releases its cgroup
 * slot. A worker is no threat meanwhile: nobody serves its frames, its cgroup and limits stay on
 * it, and it is killed at the grace as before. At most end_in_background ends (a server's session
 * limit), and never more than REAPS_AT_ONCE, wait so at once (a worker that sends Done and then
 * spins holds its slot and CPU for the grace): beyond that the run waits for its worker, as it
 * always does without end_in_background. The process waits for them before it exits (reaps_wait,
 * registered with atexit), for REAPS_EXIT_WAIT_MS at most: a reap held up by a worker's stderr
 * that cannot be passed on does not keep the server from exiting (its workers die with it,
 * PR_SET_PDEATHSIG). A CLI run waits: it has next to nothing to do meanwhile, and the thread cost
 * what it saved (measured 1.008x-1.045x the time). */
#define REAPS_AT_ONCE 32
#define REAPS_EXIT_WAIT_MS (DONE_EXIT_GRACE_MS + 2000)
static pthread_mutex_t reaps_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t reaps_cond; /* on CLOCK_MONOTONIC, made by reaps_register before any use */
static int reaps_pending;
static pid_t reaps_pid; /* the process that registered reaps_wait (a forked child has no reaps) */

static void end_now(worker *w)
{
    if (!worker_exits_within(w, DONE_EXIT_GRACE_MS)) kill_worker(w);
    free(reap(w, true));
}

static void *end_later(void *p)
{
    worker *w = p;
    end_now(w);
    free(w);
    pthread_mutex_lock(&reaps_lock);
    reaps_pending--;
    pthread_cond_broadcast(&reaps_cond);
    pthread_mutex_unlock(&reaps_lock);
    return NULL;
}

static void reaps_wait(void)
{
    if (getpid() != reaps_pid) return;
    struct timespec until = clock_monotonic_after_ms(REAPS_EXIT_WAIT_MS);
    pthread_mutex_lock(&reaps_lock);
    while (reaps_pending > 0 && pthread_cond_timedwait(&reaps_cond, &reaps_lock, &until) == 0) {
    }
    pthread_mutex_unlock(&reaps_lock);
}

static pthread_once_t reaps_once = PTHREAD_ONCE_INIT;
static void reaps_register(void)
{
    reaps_pid = getpid();
    clock_monotonic_cond_init(&reaps_cond);
    atexit(reaps_wait);
}

static void end_after_done(worker *w, int in_background)
{
    if (in_background <= 0) {
        end_now(w);
        return;
    }
    int most = in_background < REAPS_AT_ONCE ? in_background : REAPS_AT_ONCE;
    pthread_once(&reaps_once, reaps_register);
    pthread_mutex_lock(&reaps_lock);
    bool later = reaps_pending < most;
    if (later) reaps_pending++;
    pthread_mutex_unlock(&reaps_lock);
    if (later) {
        worker *copy = xmalloc(sizeof *copy);
        *copy = *w;
        if (threads_run_detached(end_later, copy) == 0) return;
        free(copy);
        pthread_mutex_lock(&reaps_lock);
        reaps_pending--;
        pthread_cond_broadcast(&reaps_cond);
        pthread_mutex_unlock(&reaps_lock);
    }
    end_now(w);
}

/* Wait until the worker's pipe is ready for `events` (POLLIN: the worker said something; POLLOUT:
 * there is room for a reply), the run is cancelled (cancel_fd >= 0 becoming readable) or `until`
 * passes (0 = no limit). Only waits: the frame itself is read or written by protocol.c. */
typedef enum { WAIT_READY, WAIT_CANCELLED, WAIT_TIMEOUT, WAIT_POLL_FAILED } wait_outcome;
static wait_outcome wait_for_worker(int fd, short events, int cancel_fd, int64_t until)
{
    for (;;) {
        struct pollfd p[2] = {{.fd = fd, .events = events}, {.fd = cancel_fd, .events = POLLIN}};
        int timeout = -1;
        if (until) {
            int64_t left = until - clock_monotonic_ms();
            if (left <= 0) return WAIT_TIMEOUT;
            timeout = left > 60000 ? 60000 : (int)left;
        }
        int n = poll(p, cancel_fd >= 0 ? 2 : 1, timeout);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return WAIT_POLL_FAILED; /* the read reports the error */
        if (cancel_fd >= 0 && p[1].revents) return WAIT_CANCELLED;
        if (p[0].revents) return WAIT_READY;
    }
}

/* Whether the cancel descriptor is readable now (no wait). */
static bool cancel_requested(int cancel_fd)
{
    struct pollfd p = {.fd = cancel_fd, .events = POLLIN};
    return poll(&p, 1, 0) > 0 && p.revents;
}

/* ---------- the backstop: the run's limits, enforced on the worker from outside ----------
 *
 * The engine stops a run at its own CPU budget and deadline, but only when it polls; a builtin
 * that never polls (or a compromised worker) would run on. So the supervisor derives from the
 * run's limits a wall-clock deadline (CHIDORI_JS_DEADLINE_MS plus BACKSTOP_GRACE_MS) and a
 * CPU-time limit (CHIDORI_JS_OP_BUDGET at BACKSTOP_NS_PER_TICK, plus BACKSTOP_CPU_SLACK_MS), and
 * kills the worker itself when either passes (docs/limits.md). CHIDORI_ISOLATE_DEADLINE_MS and
 * CHIDORI_ISOLATE_CPU_SECS, when set, replace them.
 *
 * No cost on the hot path: the supervisor only wakes when a limit could have passed. The worker
 * is single-threaded (seccomp forbids threads), so it cannot use more CPU time than wall time:
 * the supervisor sleeps until the CPU limit could be reached at the earliest, reads the worker's
 * CPU clock, and sleeps again for what is left. CPU time does not advance while the worker waits
 * for a host effect; wall time does, as the engine's deadline does by design. */
#define BACKSTOP_GRACE_MS ISOLATE_BACKSTOP_GRACE_MS
#define BACKSTOP_NS_PER_TICK ISOLATE_BACKSTOP_NS_PER_TICK
#define BACKSTOP_CPU_SLACK_MS ISOLATE_BACKSTOP_CPU_SLACK_MS

typedef struct backstop {
    int64_t wall_at;        /* kill at (0: none) */
    uint64_t deadline_ms;   /* the engine's deadline it backs (0: an explicit CHIDORI_ISOLATE_DEADLINE_MS) */
    bool wall_extended;     /* a host effect ended past the deadline: the engine got one grace for it */
    bool awaiting_report;   /* a new worker: its engine starts once it has reported its confinement */
    uint64_t cpu_limit_us;  /* CPU time the worker may use in this run (0: none) */
    uint64_t cpu_base_us;   /* what it had used before the run began (a warm worker's start-up) */
    int64_t cpu_check_at;   /* when the limit could first be reached (0: no check) */
    uint64_t op_budget;
} backstop;

/* The worker's CPU time so far: its own and its child's (the engine's process, when the worker
 * is a pid-namespace stub), read from their CPU clocks. */
static uint64_t process_cpu_us(pid_t pid)
{
    clockid_t clk;
    struct timespec ts;
    if (clock_getcpuclockid(pid, &clk) != 0 || clock_gettime(clk, &ts) != 0) return 0;
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* The engine's process: the worker's child when the worker is a pid-namespace stub, else the
 * worker itself (forked by a fork server, or with pid namespaces skipped). */
static pid_t engine_pid(const worker *w)
{
    char path[64], text[64];
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)w->pid, (int)w->pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return w->pid;
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n <= 0) return w->pid;
    text[n] = 0;
    long child = strtol(text, NULL, 10);
    return child > 0 ? (pid_t)child : w->pid;
}

static uint64_t worker_cpu_us(const worker *w)
{
    pid_t engine = engine_pid(w);
    return process_cpu_us(w->pid) + (engine != w->pid ? process_cpu_us(engine) : 0);
}

/* The kernel's share of the CPU backstop: while the supervisor performs a host effect it checks
 * nothing, so each worker also sets on itself, with its other rlimits and before any agent code,
 * an RLIMIT_CPU a little above the limit, in whole seconds (SIGKILL at the hard limit, one second
 * on: pid 1 of a pid namespace ignores SIGXCPU). A warm worker sets its rlimits before it knows its
 * run: it is given those of the limits it was made for (the CLI's early worker and a server's
 * pool are made with the runs' limits). 0: none (no budget, or CHIDORI_ISOLATE_CPU_SECS given). */
static uint64_t backstop_rlimit_secs(const isolate_options *o, const engine_limits *lim)
{
    if (o->cpu_secs_set) return o->sandbox.cpu_secs;
    uint64_t ms = isolate_backstop_cpu_ms(lim);
    return ms ? ms / 1000 + 2 : 0;
}

uint64_t isolate_backstop_cpu_ms(const engine_limits *lim)
{
    if (!lim->op_budget) return 0;
    return lim->op_budget / (1000000 / BACKSTOP_NS_PER_TICK) + BACKSTOP_CPU_SLACK_MS;
}

static void backstop_start(backstop *b, const engine_limits *lim, const isolate_options *o, const worker *w, bool warm)
{
    *b = (backstop){.op_budget = lim->op_budget};
    int64_t now = clock_monotonic_ms();
    if (o->deadline_ms_set) {
        if (o->deadline_ms) b->wall_at = now + (int64_t)o->deadline_ms;
    } else if (lim->deadline_ms) {
        b->deadline_ms = lim->deadline_ms;
        b->wall_at = now + (int64_t)lim->deadline_ms + BACKSTOP_GRACE_MS;
        b->awaiting_report = !warm;
    }
    /* An explicit CHIDORI_ISOLATE_CPU_SECS is the worker's RLIMIT_CPU: the kernel enforces it. */
    if (!o->cpu_secs_set && lim->op_budget) {
        uint64_t ms = isolate_backstop_cpu_ms(lim);
        b->cpu_limit_us = ms * 1000;
        b->cpu_base_us = warm ? worker_cpu_us(w) : 0; /* a new worker's start-up is in the slack */
        b->cpu_check_at = now + (int64_t)ms;
    }
}

/* A new worker's confinement report, its first frame: its engine's deadline starts now (its exec
 * and confinement, slow on a loaded machine, must not eat into the run's time). Once only, and
 * only as the first frame: nothing the agent's code can send moves it. */
static void backstop_reported(backstop *b)
{
    if (!b->awaiting_report) return;
    b->awaiting_report = false;
    b->wall_at = clock_monotonic_ms() + (int64_t)b->deadline_ms + BACKSTOP_GRACE_MS;
}

/* After a host effect: one that ended past the deadline leaves the engine one grace to notice it
 * (it could not poll while it waited), so the outcome is the engine's own, as in-process. */
static void backstop_after_effect(backstop *b)
{
    if (!b->deadline_ms || b->wall_extended) return;
    int64_t now = clock_monotonic_ms();
    if (now + BACKSTOP_GRACE_MS > b->wall_at) {
        b->wall_at = now + BACKSTOP_GRACE_MS;
        b->wall_extended = true;
    }
}

/* Ticks its nested runs spent (the tree budget's charge) come off this worker's CPU time too, at the
 * same rate: those runs used CPU time of their own workers, and the tree has one budget. The next
 * check comes at once when nothing is left. */
static void backstop_charged(backstop *b, uint64_t ticks)
{
    if (!b->cpu_limit_us) return;
    uint64_t us = ticks > UINT64_MAX / BACKSTOP_NS_PER_TICK ? UINT64_MAX / 1000 : ticks * BACKSTOP_NS_PER_TICK / 1000;
    uint64_t floor_us = (uint64_t)BACKSTOP_CPU_SLACK_MS * 1000;
    b->cpu_limit_us = b->cpu_limit_us > us + floor_us ? b->cpu_limit_us - us : floor_us;
    b->cpu_check_at = clock_monotonic_ms();
}

/* At b->cpu_check_at: true when the worker used up its CPU time; else the next check is set. */
static bool backstop_cpu_spent(backstop *b, const worker *w)
{
    /* a reading below the base (the engine's process not found this time, so only the stub's
     * clock was read) is no evidence of anything: it counts as nothing used, never as a wrap */
    uint64_t now_us = worker_cpu_us(w), used = now_us > b->cpu_base_us ? now_us - b->cpu_base_us : 0;
    if (used >= b->cpu_limit_us) return true;
    uint64_t left_ms = (b->cpu_limit_us - used) / 1000 + 1;
    b->cpu_check_at = clock_monotonic_ms() + (int64_t)left_ms;
    return false;
}

static char *backstop_wall_message(const backstop *b, const isolate_options *o)
{
    if (!b->deadline_ms)
        return xasprintf("isolation deadline exceeded: the worker was killed after %llu ms "
                         "(CHIDORI_ISOLATE_DEADLINE_MS)",
                         (unsigned long long)o->deadline_ms);
    return xasprintf("wall-clock deadline exceeded: the run passed %llu ms (CHIDORI_JS_DEADLINE_MS) and its "
                     "worker did not stop; the supervisor stopped it",
                     (unsigned long long)b->deadline_ms);
}

/* The wall-clock backstop or the "went quiet" limit has passed: the failure (res->limit set for the
 * deadline, *quiet for the latter), or NULL when neither has. */
static char *time_limit_passed(const backstop *b, const isolate_options *o, int64_t kill_at, int64_t quiet_ms,
                               engine_result *res, bool *quiet)
{
    if (b->wall_at && clock_monotonic_ms() >= b->wall_at) {
        res->limit = LIMIT_DEADLINE;
        return backstop_wall_message(b, o);
    }
    if (kill_at && clock_monotonic_ms() >= kill_at) {
        *quiet = true;
        return xasprintf("the worker went quiet for %lld s, longer than its CPU budget allows; killed",
                         (long long)(quiet_ms / 1000));
    }
    return NULL;
}

static char *backstop_cpu_message(const backstop *b)
{
    return xasprintf("CPU budget exhausted: the run used %llu ms of CPU time, what its %llu ticks "
                     "(CHIDORI_JS_OP_BUDGET) allow at %d ns a tick, and its worker did not stop; the "
                     "supervisor stopped it",
                     (unsigned long long)(b->cpu_limit_us / 1000), (unsigned long long)b->op_budget,
                     BACKSTOP_NS_PER_TICK);
}

/* The failure a wait that ended early means: a cancel, or a limit that passed (which one: res->limit,
 * *quiet for the "went quiet" limit, *by_backstop for the deadline or the CPU time). */
static char *wait_failure(wait_outcome wo, backstop *bs, const isolate_options *o, int64_t kill_at, int64_t quiet_ms,
                          engine_result *res, bool *quiet, bool *by_backstop)
{
    if (wo == WAIT_CANCELLED) return xstrdup("the run was cancelled");
    char *failure = time_limit_passed(bs, o, kill_at, quiet_ms, res, quiet);
    *by_backstop = !*quiet;
    if (!failure) {
        failure = backstop_cpu_message(bs);
        res->limit = LIMIT_BUDGET;
    }
    return failure;
}

/* A reply waits for room in the worker's pipe as the loop waits for a frame: until the kill time,
 * the CPU backstop or a cancel. A worker that sends calls and stops reading their replies fills the
 * pipe; the parent must not then wait past the run's limits (the pipe is non-blocking on our side). */
typedef struct reply_room {
    backstop *bs;
    const worker *w;
    int cancel_fd;
    int64_t kill_at;
    wait_outcome why; /* what ended the wait, when it gave up */
    int err;          /* poll's errno, when that was why */
} reply_room;

/* wait_for_worker until the kill time (0: none) or a used-up CPU time, whichever comes first (both
 * WAIT_TIMEOUT): it sleeps until the CPU limit could first be reached, reads the worker's CPU
 * clock, and sleeps again for what is left. */
static wait_outcome wait_within_limits(int fd, short events, int cancel_fd, int64_t kill_at, backstop *bs,
                                       const worker *w)
{
    for (;;) {
        int64_t check = bs->cpu_check_at;
        int64_t wake = check && (!kill_at || check < kill_at) ? check : kill_at;
        wait_outcome wo = wait_for_worker(fd, events, cancel_fd, wake);
        if (wo != WAIT_TIMEOUT) return wo;
        int64_t now = clock_monotonic_ms();
        if ((kill_at && now >= kill_at) || (check && now >= check && backstop_cpu_spent(bs, w))) return WAIT_TIMEOUT;
    }
}

static int wait_for_room(void *ctx, int fd)
{
    reply_room *r = ctx;
    wait_outcome wo = wait_within_limits(fd, POLLOUT, r->cancel_fd, r->kill_at, r->bs, r->w);
    if (wo == WAIT_READY) return 1;
    r->why = wo;
    r->err = errno; /* what poll said, for WAIT_POLL_FAILED */
    return 0;
}

/* The options a worker's first Init carries: the caller's, the CPU it is to join and how many
 * descriptors it was handed. */
static isolate_options worker_options(const isolate_options *o, const worker *w)
{
    isolate_options first = *o;
    first.handed = w->handed;
    return first;
}

/* Spawn a worker, with a cgroup slot of its own (unless CHIDORI_ISOLATE_SKIP says cgroup). */
static int start_worker(worker *w, const isolate_options *o, uint64_t mem_cap_bytes, char **error)
{
    *w = (worker){.pidfd = -1, .cpu = -1, .alt_cpu = -1, .cgroup = SANDBOX_CGROUP_NONE};
    return spawn_worker(w, o, mem_cap_bytes, error);
}

/* ---------- warm workers ---------- */

struct warm_worker {
    worker w;
    char *banner; /* its confinement report, as the Isolation: text */
};

#define WARM_HANDSHAKE_MS 10000

warm_worker *supervisor_prespawn_begin(const isolate_options *o, const engine_limits *limits, char **error)
{
    warm_worker *ww = xcalloc(1, sizeof *ww);
    if (start_worker(&ww->w, o, limits->mem_cap_bytes, error) != 0) {
        free(ww);
        return NULL;
    }
    isolate_options first = worker_options(o, &ww->w);
    first.sandbox.cpu_secs = backstop_rlimit_secs(o, limits);
    json_t *init = isolate_warm_encode(&first);
    char *io = NULL;
    int rc = frame_write(ww->w.to_child, init, &io);
    json_free(init);
    if (rc != 0) {
        *error = xasprintf("cannot prepare a worker: %s", io ? io : "?");
        free(io);
        warm_worker_discard(ww);
        return NULL;
    }
    return ww;
}

/* The last confinement report a warm worker sent, as bytes, and its banner: a server's workers
 * all send the same one, and parsing it (about 40,000 instructions) was a fifteenth of the
 * server's own work per session. The same bytes are the same report, whoever sent them, so a
 * report equal to this one takes its banner; any other is parsed and checked as before. */
#define REPORT_CACHE_MAX 16384
static pthread_mutex_t report_cache_lock = PTHREAD_MUTEX_INITIALIZER;
static char *report_cache_bytes, *report_cache_banner;
static size_t report_cache_len;

static char *report_cache_get(const char *body, size_t len)
{
    char *banner = NULL;
    pthread_mutex_lock(&report_cache_lock);
    if (report_cache_bytes && len == report_cache_len && !memcmp(body, report_cache_bytes, len))
        banner = xstrdup(report_cache_banner);
    pthread_mutex_unlock(&report_cache_lock);
    return banner;
}

static void report_cache_put(const char *body, size_t len, const char *banner)
{
    if (len > REPORT_CACHE_MAX) return;
    pthread_mutex_lock(&report_cache_lock);
    free(report_cache_bytes);
    free(report_cache_banner);
    report_cache_bytes = xstrndup(body, len); /* parsed as JSON: no NUL inside */
    report_cache_len = len;
    report_cache_banner = xstrdup(banner);
    pthread_mutex_unlock(&report_cache_lock);
}

int supervisor_prespawn_finish(warm_worker *ww, char **error)
{
    json_t *frame = NULL;
    char *io = NULL, *body = NULL;
    size_t len = 0;
    int rc = frame_read_body(ww->w.from_child, clock_monotonic_ms() + WARM_HANDSHAKE_MS, &body, &len, &io);
    if (rc == 0 && (ww->banner = report_cache_get(body, len))) {
        free(body);
        return 0;
    }
    if (rc == 0) rc = frame_parse(body, len, &frame, &io);
    frame_type type = rc == 0 ? frame_classify(frame, &io) : FRAME_INVALID;
    if (type == FRAME_ISOLATION) {
        ww->banner = isolate_banner(json_object_get(frame, "report")); /* no reply: it is one way */
        report_cache_put(body, len, ww->banner);
    } else if (rc == 0) {
        /* a worker that could not confine itself says so in a Done */
        engine_result res;
        char *why = NULL;
        if (type == FRAME_DONE && isolate_outcome_decode(json_object_get(frame, "outcome"), &res, &why) == 0) {
            io = xstrdup(res.error ? res.error : "the worker ended at once");
            engine_result_free(&res);
        } else {
            io = io ? io : xstrdup("it sent something else than its confinement report");
        }
        free(why);
        rc = -1;
    }
    json_free(frame);
    free(body);
    if (rc != 0) *error = xasprintf("cannot prepare a worker: %s", io ? io : "?");
    free(io);
    return rc;
}

warm_worker *supervisor_prespawn(const isolate_options *o, const engine_limits *limits, char **error)
{
    warm_worker *ww = supervisor_prespawn_begin(o, limits, error);
    if (ww && supervisor_prespawn_finish(ww, error) != 0) {
        warm_worker_discard(ww);
        return NULL;
    }
    return ww;
}

void warm_worker_discard(warm_worker *ww)
{
    if (!ww) return;
    kill_worker(&ww->w);
    free(reap(&ww->w, true));
    free(ww->banner);
    free(ww);
}

/* The `Isolation:` line of a worker: its own report of the layers it applied, and its cgroup slot,
 * which only the parent knows (it claims the slot and hands it over): "cgroup vN" among the layers
 * when the worker was given one, else a "skipped: cgroup (why)" like any layer's. */
static char *banner_with_cgroup(const char *report, const worker *w, const isolate_options *o)
{
    /* inside the list of a summary of ours; at the end of anything else (the stand-in for a worker
     * that sent no summary, a summary not shaped as ours): the parent's word is always there */
    const char *close = strncmp(report, "process (", 9) == 0 && strcmp(report, ISOLATE_NO_SUMMARY) ? strchr(report, ')') : NULL;
    if (w->cgroup.version && close)
        return xasprintf("%.*s%scgroup v%d%s", (int)(close - report), report, close > report + 9 ? ", " : "",
                         w->cgroup.version, close);
    if (w->cgroup.version) return xasprintf("%s; cgroup v%d", report, w->cgroup.version);
    const char *why = name_in_list(o->sandbox.skip, "cgroup") ? "disabled"
                      : w->cgroup.status.detail[0]            ? w->cgroup.status.detail
                                                              : "no slot could be claimed";
    bool listing = close && strstr(close, "; skipped: ");
    return xasprintf("%s%s cgroup (%s)", report, listing ? ";" : "; skipped:", why);
}

/* ---------- serving ---------- */

int supervisor_run(const engine_config *cfg, host *h, const isolate_options *o, engine_result *res, char **banner)
{
    memset(res, 0, sizeof *res);
    if (banner) *banner = NULL;
    worker w;
    char *error = NULL;
    warm_worker *ww = o->pool ? worker_pool_take(o->pool) : NULL;
    if (!ww && o->early && *o->early) {
        /* started by the caller before its own set-up: finish its handshake now; if it could not
         * confine itself, a cold worker will say why in the usual way */
        ww = *o->early;
        *o->early = NULL;
        char *why = NULL;
        if (supervisor_prespawn_finish(ww, &why) != 0) {
            free(why);
            warm_worker_discard(ww);
            ww = NULL;
        }
    }
    bool was_warm = ww != NULL;
    if (ww) {
        /* confined already: its report stands in for the one a cold worker sends first */
        w = ww->w;
        if (banner) {
            *banner = banner_with_cgroup(ww->banner, &w, o);
            fprintf(stderr, "Isolation: %s\n", *banner);
        }
        free(ww->banner);
        free(ww);
    } else if (start_worker(&w, o, cfg->limits.mem_cap_bytes, &error) != 0) {
        res->status = RUN_FAILED;
        res->error = error;
        return -1;
    }

    /* Between frames a worker computes; an honest one is stopped by its own CPU budget, which a
     * compromised one ignores. So the parent also gives up on a worker that stays quiet for longer
     * than its budget could last (ticks at a pessimistic 20 ns each, plus a margin). */
    int64_t quiet_ms = cfg->limits.op_budget ? (int64_t)(cfg->limits.op_budget / 50000) + 30000 : 0;
    /* the limit a quiet worker passed, for the caller (a nested run's tree, runner.c) */
    engine_limit_kind quiet_kind = LIMIT_BUDGET;
    if (cfg->limits.deadline_ms && (!quiet_ms || (int64_t)cfg->limits.deadline_ms + 5000 < quiet_ms))
        quiet_ms = (int64_t)cfg->limits.deadline_ms + 5000, quiet_kind = LIMIT_DEADLINE;
    bool killed_for_quiet = false, killed_by_backstop = false;
    bool done = false;
    /* A cold worker's confinement report comes once, as its first frame (a warm worker sent its
     * own in the handshake): any other Isolation frame is the agent's code speaking, refused. */
    bool report_expected = !was_warm;
    char *failure = NULL;
    backstop bs;
    backstop_start(&bs, &cfg->limits, o, &w, was_warm);
    ahead aq;
    ahead_start(&aq, !o->no_ahead);
    bool ahead_failed = false; /* the failure is a call answered ahead that the host did not replay */
    frame_reader from_worker;
    frame_reader_init(&from_worker, w.from_child);
    isolate_options first = worker_options(o, &w);
    if (!was_warm) first.sandbox.cpu_secs = backstop_rlimit_secs(o, &cfg->limits);
    json_t *init = isolate_init_encode(cfg, &first);
    if (aq.enabled) json_object_set(init, "trace_ops", host_trace_ops()); /* calls not waited for (ahead.h) */
    if (frame_write(w.to_child, init, &error) != 0) failure = xasprintf("cannot start the worker: %s", error);
    json_free(init);
    free(error), error = NULL;

    while (!failure && !done) {
        json_t *frame = NULL;
        int64_t quiet_at = quiet_ms ? clock_monotonic_ms() + quiet_ms : 0;
        /* the earliest of the wall deadline and the quiet limit: either kills */
        int64_t kill_at = bs.wall_at && (!quiet_at || bs.wall_at < quiet_at) ? bs.wall_at : quiet_at;
        wait_outcome wo = WAIT_READY;
        /* A wait of its own only when a cancel or a CPU check could come before the kill: else
         * frame_read's own wait until kill_at is all (no extra syscall per frame). */
        bool buffered = frame_reader_has_frame(&from_worker);
        bool check_first = (o->watch_cancel || (bs.cpu_check_at && (!kill_at || bs.cpu_check_at < kill_at))) && !buffered;
        if (buffered) {
            /* a frame that came with others is not taken past the deadlines, a used-up CPU time
             * or a cancel either: what frame_read's wait checked for each frame */
            int64_t now = clock_monotonic_ms();
            if (kill_at && now >= kill_at) wo = WAIT_TIMEOUT;
            else if (bs.cpu_check_at && now >= bs.cpu_check_at && backstop_cpu_spent(&bs, &w)) wo = WAIT_TIMEOUT;
            else if (o->watch_cancel && cancel_requested(o->cancel_fd)) wo = WAIT_CANCELLED;
        }
        if (check_first) wo = wait_within_limits(w.from_child, POLLIN, o->watch_cancel ? o->cancel_fd : -1, kill_at, &bs, &w);
        from_worker.readable = check_first && wo == WAIT_READY; /* no second poll for what it saw */
        if (wo == WAIT_CANCELLED || wo == WAIT_TIMEOUT) {
            /* as below: a quiet kill is told by quiet_kind (it used to leave the limit unset here) */
            failure = wait_failure(wo, &bs, o, kill_at, quiet_ms, res, &killed_for_quiet, &killed_by_backstop);
            break;
        }
        if (frame_reader_next(&from_worker, kill_at, &frame, &error) != 0) {
            failure = time_limit_passed(&bs, o, kill_at, quiet_ms, res, &killed_for_quiet);
            if (failure && !killed_for_quiet) killed_by_backstop = true;
            if (!failure) failure = xasprintf("the worker failed: %s", error);
            free(error), error = NULL;
            break;
        }
        frame_type type = frame_classify(frame, &error);
        bool trace = false; /* a trace op's call the worker went on past (ahead.h) */
        bool first = report_expected;
        report_expected = false;
        if (type == FRAME_ISOLATION && !first) {
            failure = xstrdup("the worker sent a frame out of order: a confinement report (isolation) after its "
                              "first frame; only a new worker's first frame may be one");
        } else if (type == FRAME_ISOLATION) {
            backstop_reported(&bs);
        }
        bs.awaiting_report = false; /* only the first frame counts */
        if (failure) {
            /* nothing of a forged report is printed or kept */
        } else if (type == FRAME_ISOLATION) {
            /* the worker's confinement report: one way, no reply */
            if (banner && !*banner) {
                char *own = isolate_banner(json_object_get(frame, "report"));
                *banner = banner_with_cgroup(own, &w, o);
                free(own);
                fprintf(stderr, "Isolation: %s\n", *banner); /* before anything the agent logs */
            }
        } else if (type == FRAME_CALL && json_object_get(frame, "ahead") &&
                   !(trace = ahead_trace(&aq, json_string_value(json_object_get(frame, "op")))) &&
                   (failure = ahead_expect(&aq, json_string_value(json_object_get(frame, "op"))))) {
            /* an answer the worker was not offered: nothing of the call is performed */
            ahead_failed = true;
        } else if (type == FRAME_CALL || type == FRAME_INTERNAL) {
            const char *op = json_string_value(json_object_get(frame, "op"));
            const json_t *args = json_object_get(frame, "args");
            /* answered ahead by the worker (ahead.h): taken like any call, checked, not answered */
            bool answered = type == FRAME_CALL && json_object_get(frame, "ahead");
            uint64_t seq_before = answered ? host_replay_next_seq(h) : 0;
            const json_t *at = trace ? json_object_get(frame, "at") : NULL;
            if (at) host_stamp_next_call(h, (int64_t)at->u.number); /* a whole number (frame_classify) */
            /* the agent's ops through host_call, which refuses chidori's own; a module load
             * through the internal entry, which performs nothing else */
            json_t *result = NULL;
            char *err = NULL;
            /* the tree budget's meter: what the worker's engine counted (its word, bounded by this
             * backstop anyway), and what its nested runs spent, charged back in the reply */
            const json_t *meter = type == FRAME_CALL ? json_object_get(frame, "meter") : NULL;
            uint64_t charge = 0, m_ticks = 0, m_heap = 0;
            if (meter) {
                m_ticks = (uint64_t)meter->u.array.items[0]->u.number;
                m_heap = (uint64_t)meter->u.array.items[1]->u.number;
                /* ticks held since calls answered ahead (no reply to carry them) are owed again
                 * first, so that the meter counts them with the engine's report and hands them out */
                host_charge_back(h, aq.charge);
                aq.charge = 0;
                charge = host_meter(h, m_ticks, m_heap);
            }
            int rc = type == FRAME_CALL ? host_call(h, op, args, &result, &err)
                                        : host_internal_call(h, op, args, &result, &err);
            if (meter) { /* again after the call: what it took first is owed again, and all is handed out */
                host_charge_back(h, charge);
                charge = host_meter(h, m_ticks, m_heap);
            }
            char *unsettled = !answered ? NULL
                              : trace   ? ahead_trace_settle(h, op, rc, result, err)
                                        : ahead_settle(&aq, h, seq_before, rc);
            json_t *reply = answered ? NULL : isolate_reply_encode(rc, result, err);
            if (answered) { /* held for the next reply (and owed again at the next meter) */
                aq.charge = charge;
                charge = 0;
            } else if (!meter && aq.charge) { /* a module load's reply: it carries what is held */
                charge = aq.charge;
                aq.charge = 0;
            }
            if (charge) {
                json_object_set(reply, "charge", json_number((double)charge));
                backstop_charged(&bs, charge);
            }
            /* an offer rides only on a small answer, so that the reply stays inside a frame's limits */
            json_t *offer = answered ? NULL : ahead_offer(&aq, h, rc == HOST_OK ? result : NULL);
            json_free(result);
            free(err);
            backstop_after_effect(&bs);
            if (offer) json_object_set(reply, "ahead", offer);
            /* a run that keeps waiting for replies: the two take turns on one CPU from now on */
            if (!answered && w.cpu >= 0 && !w.pinned && ++w.replies >= PIN_AFTER_REPLIES) pin_for_run(&w);
            if (!answered) place_for_ahead(&w, aq.next < aq.len); /* while the worker holds answers */
            if (answered) {
                failure = unsettled;
                ahead_failed = failure != NULL;
            } else {
                /* the kill time anew: the effect took its time (the quiet limit counts from now),
                 * and one that ended past the deadline moved the wall limit (backstop_after_effect) */
                int64_t quiet_now = quiet_ms ? clock_monotonic_ms() + quiet_ms : 0;
                kill_at = bs.wall_at && (!quiet_now || bs.wall_at < quiet_now) ? bs.wall_at : quiet_now;
                reply_room room = {.bs = &bs, .w = &w, .cancel_fd = o->watch_cancel ? o->cancel_fd : -1, .kill_at = kill_at};
                frame_room wait = {wait_for_room, &room};
                int wr = frame_write_waiting(w.to_child, reply, &wait, &error);
                if (wr > 0 && room.why == WAIT_POLL_FAILED) {
                    failure = xasprintf("the worker stopped listening: %s", strerror(room.err));
                } else if (wr > 0) { /* it stopped reading its replies, and a limit passed (or a cancel) */
                    failure = wait_failure(room.why, &bs, o, kill_at, quiet_ms, res, &killed_for_quiet, &killed_by_backstop);
                } else if (wr < 0) {
                    failure = xasprintf("the worker stopped listening: %s", error);
                    free(error), error = NULL;
                }
            }
            json_free(reply);
        } else if (type == FRAME_DONE) {
            if (isolate_outcome_decode(json_object_get(frame, "outcome"), res, &error) != 0) {
                failure = xasprintf("the worker sent a bad outcome: %s", error);
                free(error), error = NULL;
            } else {
                done = true;
            }
        } else {
            failure = xasprintf("the worker sent a frame out of order: %s",
                                type == FRAME_INVALID ? (error ? error : "invalid") : "unexpected frame type");
            free(error), error = NULL;
        }
        json_free(frame);
    }
    ahead_end(&aq);
    place_for_ahead(&w, false);
    frame_reader_free(&from_worker);
    /* Was the worker already dead when we stopped serving it? Then its own end (a seccomp kill, a
     * crash, the CPU limit) is the most precise explanation; if we had to kill it, our reason is. */
    /* (Not when a call it answered ahead failed the run: the worker ran on past that call, may
     * have ended by now, and the failure is the precise explanation.) */
    bool died_by_itself = !done && !killed_by_backstop && !killed_for_quiet && !ahead_failed && worker_has_exited(&w);
    /* After its Done a worker exits by itself: its stub reaps the engine's process, so nothing of
     * it is left for init to reap (an orphan counts against its cgroup slot until someone does).
     * One that lingers is killed; any other end is ours to make now. */
    unpin_after_run(&w);
    if (done) {
        end_after_done(&w, o->end_in_background);
    } else {
        kill_worker(&w);
        char *why = reap(&w, false);
        engine_limit_kind limit = killed_by_backstop ? res->limit : killed_for_quiet ? quiet_kind : LIMIT_NONE;
        engine_result_free(res);
        res->status = RUN_FAILED;
        res->limit = limit;
        if (died_by_itself && (w.term_sig == SIGKILL || w.term_sig == SIGXCPU) && bs.cpu_limit_us &&
            w.cpu_used_us >= bs.cpu_base_us + bs.cpu_limit_us && !w.cpu_secs) {
            /* killed by the RLIMIT_CPU backstop_arm_rlimit set (SIGKILL, or SIGXCPU when not pid 1) */
            free(why);
            free(failure);
            res->error = backstop_cpu_message(&bs);
            res->limit = LIMIT_BUDGET;
        } else if (died_by_itself && why) {
            res->error = why;
            free(failure);
        } else {
            res->error = failure ? failure : why ? why : xstrdup("the worker ended without an outcome");
            if (failure) free(why);
        }
        return -1;
    }
    free(failure);
    /* The host decides how the run ended, not the worker's Done: a run the host aborted failed,
     * a run the host paused is paused, whatever a compromised worker claims. */
    if (host_aborted(h) && res->status != RUN_FAILED) {
        engine_result_free(res);
        res->status = RUN_FAILED;
        res->error = xstrdup(host_abort_reason(h) ? host_abort_reason(h) : "the host ended the run");
    } else if (host_pending(h) && res->status != RUN_PAUSED) {
        engine_result_free(res);
        res->status = RUN_PAUSED;
    }
    return 0;
}

/* forkserver_client.c — the parent's handle on a fork server (forkserver.c says what one is).
 *
 * Owns the fork server process and a keeper thread that starts it: the workers it forks are
 * children of that thread (CLONE_PARENT) and die with it (PR_SET_PDEATHSIG), so it lives as long
 * as the handle. The keeper replaces the fork server after its max_forks-th worker (each
 * replacement brings a fresh memory layout) and whenever one died or misbehaved; meanwhile runs
 * start their workers the usual way. Requests from several threads are taken one at a time.
 *
 * Trusts the fork server a little only: an answer must come in time and name a child of this
 * process, or the fork server is replaced and the run whose worker is in doubt fails.
 */
#define _GNU_SOURCE
#include "isolate/forkserver.h"
#include "isolate/protocol.h"
#include "util/buf.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define FORKSERVER_READY_MS 10000
#define FORKSERVER_ANSWER_MS 5000
#define FORKSERVER_START_ATTEMPTS 3

struct forkserver {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    pthread_t keeper;
    isolate_options opts;
    pid_t pid; /* the fork server in use, or 0 */
    int ctl;   /* its socket, or -1 */
    int forks, max_forks;
    bool retire;   /* replace it (it died, misbehaved or forked enough) */
    bool disabled; /* it could not be started: workers are spawned the usual way */
    bool stopping;
    bool tried; /* the first start is over (forkserver_open waits for it) */
};

static int recv_int(int fd, int ms, int32_t *v)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int rc;
    do {
        rc = poll(&p, 1, ms);
    } while (rc < 0 && errno == EINTR);
    if (rc <= 0) return -1;
    ssize_t n = recv(fd, v, sizeof *v, MSG_DONTWAIT);
    return n == (ssize_t)sizeof *v ? 0 : -1;
}

/* Stop it and reap it: its wait status (0 when there was none). */
static int stop_process(pid_t pid, int ctl)
{
    if (ctl >= 0) close(ctl); /* end of file: it exits */
    int status = 0;
    if (pid > 0) {
        kill(pid, SIGKILL);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
    }
    return status;
}

/* Start a fork server (on the keeper thread). 0 with *pid, *ctl; -1 with *error. */
static int start_process(const isolate_options *o, pid_t *pid_out, int *ctl_out, char **error)
{
    int in[2] = {-1, -1}, out[2] = {-1, -1}, ctl[2] = {-1, -1};
    if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ctl)) {
        *error = xasprintf("cannot create its pipes: %s", strerror(errno));
        int fds[] = {in[0], in[1], out[0], out[1], ctl[0], ctl[1]};
        for (size_t i = 0; i < sizeof fds / sizeof fds[0]; i++)
            if (fds[i] >= 0) close(fds[i]);
        return -1;
    }
    spawn_environ se;
    spawn_request req = {.in = in[0], .out = out[1], .err = STDERR_FILENO, .handoff = ctl[0], .env = spawn_worker_env(&se, o->asan_options, o->ubsan_options)};
    int pidfd = -1;
    pid_t pid = spawn_worker_process(&req, &pidfd); /* in the server's pid namespace: it clones its workers into their own */
    int e = errno;
    close(in[0]);
    close(out[1]);
    close(ctl[0]);
    if (pidfd >= 0) close(pidfd);
    if (pid < 0) {
        *error = xasprintf("cannot start it: %s", strerror(e));
        close(in[1]), close(out[0]), close(ctl[1]);
        return -1;
    }
    /* What a worker's handoff carries, minus a cgroup slot (the fork server is no run's). */
    isolate_options first = *o;
    first.handed = 0;
    int netns = -1;
    if (o->has_shared_netns && !name_in_list(o->sandbox.skip, "netns")) netns = o->shared_netns, first.handed = 1;
    int rc = spawn_send_fds(ctl[1], 'h', &netns, first.handed);
    char *io = NULL;
    if (rc == 0) {
        json_t *init = isolate_forkserver_encode(&first);
        rc = frame_write(in[1], init, &io);
        json_free(init);
    }
    close(in[1]);
    int32_t ready = -1;
    if (rc == 0 && recv_int(ctl[1], FORKSERVER_READY_MS, &ready) == 0 && ready == 0) {
        close(out[0]);
        free(io);
        *pid_out = pid;
        *ctl_out = ctl[1];
        return 0;
    }
    /* A worker that cannot even start says why in a Done frame: read what it wrote, once it is
     * surely gone (so the read ends). */
    int status = stop_process(pid, ctl[1]);
    json_t *done = NULL;
    char *why = NULL;
    if (frame_read(out[0], 0, &done, &why) == 0) {
        engine_result res;
        if (isolate_outcome_decode(json_object_get(done, "outcome"), &res, &why) == 0) {
            free(why);
            why = xstrdup(res.error ? res.error : "it ended at once");
            engine_result_free(&res);
        }
    }
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS) {
        free(why);
        why = xstrdup("killed by SIGSYS: its seccomp filter refused a syscall");
    }
    *error = xasprintf("it did not start: %s", why ? why : io ? io : "no answer");
    free(why);
    free(io);
    json_free(done);
    close(out[0]);
    return -1;
}

static void *keep(void *arg)
{
    forkserver *fs = arg;
    int failures = 0;
    pthread_mutex_lock(&fs->lock);
    while (!fs->stopping) {
        if (fs->disabled || (fs->ctl >= 0 && !fs->retire)) {
            pthread_cond_wait(&fs->changed, &fs->lock);
            continue;
        }
        pid_t old_pid = fs->pid;
        int old_ctl = fs->ctl;
        fs->pid = 0, fs->ctl = -1, fs->forks = 0, fs->retire = false;
        pthread_mutex_unlock(&fs->lock);
        stop_process(old_pid, old_ctl);
        pid_t pid = 0;
        int ctl = -1;
        char *error = NULL;
        int rc = start_process(&fs->opts, &pid, &ctl, &error);
        if (rc != 0 && ++failures >= FORKSERVER_START_ATTEMPTS)
            fprintf(stderr, "chidori: fork server: %s (workers start one by one instead)\n", error);
        free(error);
        pthread_mutex_lock(&fs->lock);
        fs->tried = true;
        pthread_cond_broadcast(&fs->changed);
        if (rc == 0) {
            failures = 0;
            fs->pid = pid, fs->ctl = ctl;
        } else if (failures >= FORKSERVER_START_ATTEMPTS) {
            fs->disabled = true;
        }
    }
    pid_t pid = fs->pid;
    int ctl = fs->ctl;
    fs->pid = 0, fs->ctl = -1;
    pthread_mutex_unlock(&fs->lock);
    stop_process(pid, ctl);
    return NULL;
}

forkserver *forkserver_open(const isolate_options *o, int max_forks)
{
    forkserver *fs = xcalloc(1, sizeof *fs);
    fs->max_forks = max_forks > 0 ? max_forks : FORKSERVER_MAX_FORKS;
    pthread_mutex_init(&fs->lock, NULL);
    pthread_cond_init(&fs->changed, NULL);
    fs->opts = *o;
    fs->opts.pool = NULL;
    fs->opts.forkserver = NULL;
    fs->ctl = -1;
    if (pthread_create(&fs->keeper, NULL, keep, fs) != 0) {
        pthread_cond_destroy(&fs->changed);
        pthread_mutex_destroy(&fs->lock);
        free(fs);
        return NULL;
    }
    /* The first runs (the server's banner probe among them) are forked like the rest. */
    pthread_mutex_lock(&fs->lock);
    while (!fs->tried) pthread_cond_wait(&fs->changed, &fs->lock);
    pthread_mutex_unlock(&fs->lock);
    return fs;
}

void forkserver_close(forkserver *fs)
{
    if (!fs) return;
    pthread_mutex_lock(&fs->lock);
    fs->stopping = true;
    pthread_cond_broadcast(&fs->changed);
    pthread_mutex_unlock(&fs->lock);
    pthread_join(fs->keeper, NULL);
    pthread_cond_destroy(&fs->changed);
    pthread_mutex_destroy(&fs->lock);
    free(fs);
}

/* Workers of the fork server share the sandbox it was started for; a run asking for another one
 * (never so in a server, whose runs share their options) is spawned the usual way. */
static bool same_sandbox(const isolate_sandbox *a, const isolate_sandbox *b)
{
    return a->require == b->require && a->cpu_secs == b->cpu_secs && a->fsize_bytes == b->fsize_bytes &&
           !strcmp(a->skip, b->skip);
}

pid_t forkserver_spawn(forkserver *fs, const isolate_options *o, const spawn_request *req, int *pidfd, bool *no_child)
{
    *pidfd = -1;
    *no_child = true;
    if (!same_sandbox(&fs->opts.sandbox, &o->sandbox)) {
        errno = EINVAL;
        return -1;
    }
    pthread_mutex_lock(&fs->lock);
    if (fs->ctl < 0 || fs->retire || fs->stopping || fs->disabled) {
        pthread_mutex_unlock(&fs->lock);
        errno = EAGAIN;
        return -1;
    }
    int fds[4] = {req->in, req->out, req->err, req->handoff};
    int32_t answer = 0;
    int rc = spawn_send_fds(fs->ctl, 'f', fds, 4);
    if (rc == 0) {
        *no_child = false; /* it may have forked one from here on */
        rc = recv_int(fs->ctl, FORKSERVER_ANSWER_MS, &answer);
    }
    pid_t pid = -1;
    int e = EPROTO;
    if (rc == 0 && answer < 0) {
        *no_child = true; /* it says so: the clone failed */
        e = -answer;
        if (e == EPERM || e == ENOSYS) {
            /* refused here for good (a container's filter, say): no point in a fresh one */
            fprintf(stderr, "chidori: fork server: it may not clone (%s); workers start one by one instead\n",
                    strerror(e));
            fs->disabled = true;
        }
    } else if (rc == 0 && answer > 0 && answer != fs->pid) {
        /* A pid we can open and wait for is our own child (and not the fork server): nothing else
         * is accepted. */
        int fd = (int)syscall(SYS_pidfd_open, (pid_t)answer, 0);
        int open_errno = errno;
        siginfo_t si;
        memset(&si, 0, sizeof si);
        if (fd >= 0 && waitid(P_PIDFD, (id_t)fd, &si, WEXITED | WNOHANG | WNOWAIT) == 0) {
            pid = (pid_t)answer;
            *pidfd = fd;
        } else if (fd < 0 && open_errno != ESRCH &&
                   waitid(P_PID, (id_t)answer, &si, WEXITED | WNOHANG | WNOWAIT) == 0) {
            /* our worker, but no descriptor for it (out of descriptors): it must not run */
            kill((pid_t)answer, SIGKILL);
            while (waitpid((pid_t)answer, NULL, 0) < 0 && errno == EINTR) {
            }
            e = open_errno;
        } else {
            if (fd >= 0) close(fd);
            fprintf(stderr, "chidori: fork server: it named pid %d, which is not this server's child; replacing it\n",
                    (int)answer);
        }
    } else if (rc == 0) {
        fprintf(stderr, "chidori: fork server: it named pid %d, which is not this server's child; replacing it\n",
                (int)answer);
    } else if (!*no_child) {
        /* If it forked a worker after all, that one ends at the end of file of its first read,
         * but stays a zombie (a child of the keeper thread nobody waits for) until we exit. */
        fprintf(stderr, "chidori: fork server: no answer; replacing it\n");
    }
    if (pid > 0 && ++fs->forks < fs->max_forks) {
        pthread_mutex_unlock(&fs->lock);
        return pid;
    }
    fs->retire = true; /* forked enough, or it misbehaved: the keeper starts a fresh one */
    pthread_cond_broadcast(&fs->changed);
    pthread_mutex_unlock(&fs->lock);
    if (pid > 0) return pid;
    errno = e;
    return -1;
}

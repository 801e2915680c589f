/* spawn.h — starting a worker process: the one way the parent side makes one (spawn.c). */
#ifndef CHIDORI_ISOLATE_SPAWN_H
#define CHIDORI_ISOLATE_SPAWN_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

typedef struct spawn_request {
    int in, out, err; /* the child's ends of its pipes: they become its 0, 1 and 2 */
    int handoff;      /* the child's end of a socket for descriptors sent after the spawn: its 3 */
    char **env;       /* its whole environment */
    bool new_pidns;   /* clone it into a pid namespace of its own, as its pid 1 (see spawn_worker_process) */
} spawn_request;

/* The environment a worker gets: nothing of ours but what a sanitizer build needs to report (the
 * ASAN_OPTIONS and UBSAN_OPTIONS values the edge read, each NULL when unset). Built per spawn in
 * *se (a server spawns workers from several threads at once). */
typedef struct spawn_environ {
    char *env[3];
    char asan[512], ubsan[512];
} spawn_environ;
char **spawn_worker_env(spawn_environ *se, const char *asan_options, const char *ubsan_options);

/* One byte on a Unix socket with n descriptors (at most SPAWN_SEND_FDS_MAX) attached: the handoff
 * to a new worker, a request to a fork server. 0, or -1 with errno. */
#define SPAWN_SEND_FDS_MAX 4
int spawn_send_fds(int sock, char byte, const int *fds, int n);

/* Start a worker: the child's pid and *pidfd, or -1 with errno. The child runs chidori-worker
 * when it lies next to this binary, else this binary's `__run-worker`. With req->new_pidns it is
 * cloned straight into a new pid namespace (CLONE_NEWPID: it starts as pid 1 there, and no fork
 * of its own is needed for the pid layer); where the kernel refuses that to this process (no
 * CAP_SYS_ADMIN: an unprivileged parent), it is started without, and makes its own (the worker
 * knows which by its pid: 1 only in a namespace of its own). */
pid_t spawn_worker_process(const spawn_request *req, int *pidfd);

/* Block every signal the kernel lets a thread block, glibc's own two (thread cancellation and
 * set*id, which pthread_sigmask leaves open) included, for the clone's window: the child runs on
 * the parent's memory until it execs, so no handler of the parent may run in it. *saved gets the
 * mask to put back with spawn_unblock. */
typedef struct spawn_sigmask {
    unsigned long long bits; /* the kernel's mask, where its set is 64 bits */
    sigset_t libc;           /* else (an architecture with more signals): the C library's */
    bool raw;
} spawn_sigmask;
void spawn_block_all(spawn_sigmask *saved);
void spawn_unblock(const spawn_sigmask *saved);

/* The path of the worker binary in use, or NULL when workers are this binary (for the banner of
 * `chidori sandbox` and for tests). */
const char *spawn_worker_binary(void);

#endif

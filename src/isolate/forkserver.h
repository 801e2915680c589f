/* forkserver.h — a server's workers forked from one confined process instead of exec'd one by one
 * (forkserver.c is the fork server, forkserver_client.c its parent's handle). */
#ifndef CHIDORI_ISOLATE_FORKSERVER_H
#define CHIDORI_ISOLATE_FORKSERVER_H

#include "isolate/isolate.h"
#include "isolate/spawn.h"

#include <stdbool.h>
#include <sys/types.h>

/* ---- the fork server (in the worker binary) ---- */

enum { FORKSERVER_DONE = 0, FORKSERVER_CHILD = 1, FORKSERVER_FAILED = -1 };
#define FORKSERVER_MAX_FORKS 1000 /* then a fresh one, with a fresh memory layout */
#define FORKSERVER_NAME "chidori-forksrv" /* its process name (at most 15 characters) */
/* Enter the shared namespaces, then fork workers on request until the parent goes. Returns
 * FORKSERVER_DONE in the fork server (it then exits), FORKSERVER_FAILED with *error when it may
 * not serve here, and FORKSERVER_CHILD in each new worker, which then runs worker_main as any
 * worker does. selftest: test-only misbehaviour (CHIDORI_ISOLATE_SELFTEST=forkserver_*), or NULL.
 * own_engine: each worker builds its own engine (in a huge page where offered) instead of running
 * on a copy of one the fork server prepared (isolate_options.forkserver_own_engine says when). */
int forkserver_serve(const isolate_sandbox *sandbox, int shared_netns_fd, const char *selftest, bool own_engine,
                     char **error);

/* ---- the parent's handle ---- */

typedef struct forkserver forkserver;
/* A handle whose own thread starts the fork server for workers of options o (and starts a fresh
 * one when it has forked max_forks workers, or died; 0: FORKSERVER_MAX_FORKS). The workers it forks are this process's
 * children and die with that thread: close the handle after the last run. NULL if no thread. */
forkserver *forkserver_open(const isolate_options *o, int max_forks);
void forkserver_close(forkserver *fs);
/* Start a worker from the fork server: its pid and *pidfd, as spawn_worker_process. -1 with errno
 * when it could not; then *no_child says whether surely no worker holds req's descriptors (the
 * caller may then spawn one the usual way) or whether the run must fail. */
pid_t forkserver_spawn(forkserver *fs, const isolate_options *o, const spawn_request *req, int *pidfd, bool *no_child);

#endif

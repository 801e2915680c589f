/* pool.c — a pool of warm workers for a server (see isolate.h).
 *
 * Owns the ready workers and the thread that refills them. A worker is prepared ahead of any run
 * (spawned, put in its cgroup, confined: everything but the agent), handed to exactly one run,
 * and never returns: no state of one agent can reach another. When the pool is empty a run
 * starts a cold worker as usual, so the pool only ever saves time.
 *
 * The workers die with the thread that is their parent (PR_SET_PDEATHSIG follows a thread): the
 * filler for a worker it spawned, the fork server's keeper for one it forked (forkserver.h); both
 * live until the server stops, after its runs.
 */
#define _GNU_SOURCE
#include "isolate/isolate.h"
#include "util/buf.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct worker_pool {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    pthread_t filler;
    warm_worker **ready;
    int size, n;
    bool stopping;
    isolate_options opts;
    engine_limits limits;
};

static void *fill(void *arg)
{
    worker_pool *p = arg;
    bool warned = false;
    pthread_mutex_lock(&p->lock);
    while (!p->stopping) {
        if (p->n >= p->size) {
            pthread_cond_wait(&p->changed, &p->lock);
            continue;
        }
        pthread_mutex_unlock(&p->lock);
        char *error = NULL;
        warm_worker *ww = supervisor_prespawn(&p->opts, &p->limits, &error);
        if (!ww) {
            if (!warned) fprintf(stderr, "chidori: worker pool: %s (runs start cold meanwhile)\n", error);
            warned = true;
            free(error);
            struct timespec pause = {1, 0};
            nanosleep(&pause, NULL);
        }
        pthread_mutex_lock(&p->lock);
        if (ww && p->stopping) {
            warm_worker_discard(ww);
        } else if (ww) {
            p->ready[p->n++] = ww;
            warned = false;
        }
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

worker_pool *worker_pool_start(int size, const isolate_options *o, const engine_limits *limits)
{
    worker_pool *p = xcalloc(1, sizeof *p);
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->changed, NULL);
    p->size = size;
    p->ready = xcalloc((size_t)size, sizeof *p->ready);
    p->opts = *o;
    p->opts.pool = NULL;
    p->opts.watch_cancel = false;
    p->limits = *limits;
    if (pthread_create(&p->filler, NULL, fill, p) != 0) {
        free(p->ready);
        free(p);
        return NULL;
    }
    return p;
}

warm_worker *worker_pool_take(worker_pool *p)
{
    pthread_mutex_lock(&p->lock);
    warm_worker *ww = p->n > 0 ? p->ready[--p->n] : NULL;
    if (ww) pthread_cond_signal(&p->changed);
    pthread_mutex_unlock(&p->lock);
    return ww;
}

void worker_pool_stop(worker_pool *p)
{
    if (!p) return;
    pthread_mutex_lock(&p->lock);
    p->stopping = true;
    pthread_cond_signal(&p->changed);
    pthread_mutex_unlock(&p->lock);
    pthread_join(p->filler, NULL);
    for (int i = 0; i < p->n; i++) warm_worker_discard(p->ready[i]);
    free(p->ready);
    pthread_cond_destroy(&p->changed);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

/* threads.c — functions run on threads kept between uses (see threads.h).
 *
 * A server starts a thread per session run and one per worker (relaying its stderr); making a
 * thread and tearing it down again (its stack mapped and unmapped, a TLB shootdown on each CPU,
 * the kernel's task set up and reaped) was a visible share of the server's CPU per session. A
 * thread whose function has returned waits THREADS_IDLE_MS for the next one before it ends, and
 * at most THREADS_IDLE_MAX wait at once.
 *
 * Owns the idle threads. Trusts its callers (functions of this process).
 */
#define _GNU_SOURCE
#include "util/threads.h"
#include "util/clock.h"
#include "util/buf.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

#define THREADS_IDLE_MS 2000
#define THREADS_IDLE_MAX 64

struct thread_task {
    bool finished;
    pthread_cond_t finished_cv;
};

typedef struct worker_thread {
    pthread_cond_t wake;
    void *(*fn)(void *);
    void *arg;
    thread_task *task; /* told when fn returns, or NULL */
    struct worker_thread *next;
} worker_thread;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static worker_thread *idle;
static int idle_count;

static void unlink_idle(worker_thread *t)
{
    for (worker_thread **p = &idle; *p; p = &(*p)->next) {
        if (*p == t) {
            *p = t->next;
            idle_count--;
            return;
        }
    }
}

static void *thread_main(void *p)
{
    worker_thread *self = p;
    pthread_mutex_lock(&lock);
    for (;;) {
        void *(*fn)(void *) = self->fn;
        void *arg = self->arg;
        thread_task *task = self->task;
        pthread_mutex_unlock(&lock);
        fn(arg);
        pthread_mutex_lock(&lock);
        if (task) {
            task->finished = true;
            pthread_cond_broadcast(&task->finished_cv);
        }
        self->fn = NULL;
        if (idle_count >= THREADS_IDLE_MAX) break;
        self->next = idle;
        idle = self;
        idle_count++;
        struct timespec until = clock_monotonic_after_ms(THREADS_IDLE_MS);
        while (!self->fn) {
            if (pthread_cond_timedwait(&self->wake, &lock, &until) == ETIMEDOUT && !self->fn) break;
        }
        if (!self->fn) { /* nobody came: leave (still on the idle list only if not taken) */
            unlink_idle(self);
            break;
        }
    }
    pthread_mutex_unlock(&lock);
    pthread_cond_destroy(&self->wake);
    free(self);
    return NULL;
}

static int start(void *(*fn)(void *), void *arg, thread_task *task)
{
    pthread_mutex_lock(&lock);
    worker_thread *t = idle;
    if (t) {
        idle = t->next;
        idle_count--;
        t->fn = fn, t->arg = arg, t->task = task;
        pthread_cond_signal(&t->wake);
        pthread_mutex_unlock(&lock);
        return 0;
    }
    pthread_mutex_unlock(&lock);
    t = xcalloc(1, sizeof *t);
    clock_monotonic_cond_init(&t->wake);
    t->fn = fn, t->arg = arg, t->task = task;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_t id;
    int rc = pthread_create(&id, &attr, thread_main, t);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        pthread_cond_destroy(&t->wake);
        free(t);
        return -1;
    }
    return 0;
}

int threads_run_detached(void *(*fn)(void *), void *arg)
{
    return start(fn, arg, NULL);
}

thread_task *threads_run(void *(*fn)(void *), void *arg)
{
    thread_task *task = xcalloc(1, sizeof *task);
    pthread_cond_init(&task->finished_cv, NULL);
    if (start(fn, arg, task) != 0) {
        pthread_cond_destroy(&task->finished_cv);
        free(task);
        return NULL;
    }
    return task;
}

void threads_wait(thread_task *task)
{
    if (!task) return;
    pthread_mutex_lock(&lock);
    while (!task->finished) pthread_cond_wait(&task->finished_cv, &lock);
    pthread_mutex_unlock(&lock);
    pthread_cond_destroy(&task->finished_cv);
    free(task);
}

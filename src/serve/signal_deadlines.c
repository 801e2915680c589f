/* signal_deadlines.c — the timer thread of signal pauses (see signal_deadlines.h).
 *
 * The deadlines are a plain array (one entry per paused session with a timeout; a scan per wake is
 * cheaper than it sounds next to a run) guarded by one mutex; the thread sleeps on a condition
 * variable until the earliest one, measured on CLOCK_REALTIME since deadlines are wall-clock
 * times. Trusts its callers.
 */
#define _GNU_SOURCE
#include "serve/signal_deadlines.h"
#include "util/buf.h"
#include "util/clock.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct deadline {
    char *id;
    uint64_t seq;
    int64_t at_ms;
} deadline;

struct signal_deadlines {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    pthread_t thread;
    deadline *items;
    size_t len, cap;
    bool stopping;
    signal_deadline_fn *fire;
    void *ctx;
};

static void *timer_thread(void *arg)
{
    signal_deadlines *dl = arg;
    pthread_mutex_lock(&dl->lock);
    while (!dl->stopping) {
        size_t next = dl->len;
        for (size_t i = 0; i < dl->len; i++)
            if (next == dl->len || dl->items[i].at_ms < dl->items[next].at_ms) next = i;
        if (next == dl->len) {
            pthread_cond_wait(&dl->changed, &dl->lock);
            continue;
        }
        int64_t now = clock_realtime_ms();
        if (dl->items[next].at_ms > now) {
            int64_t at = dl->items[next].at_ms;
            struct timespec until = {.tv_sec = (time_t)(at / 1000), .tv_nsec = (long)(at % 1000) * 1000000L};
            pthread_cond_timedwait(&dl->changed, &dl->lock, &until);
            continue;
        }
        deadline due = dl->items[next];
        dl->items[next] = dl->items[--dl->len];
        pthread_mutex_unlock(&dl->lock);
        dl->fire(dl->ctx, due.id, due.seq);
        free(due.id);
        pthread_mutex_lock(&dl->lock);
    }
    pthread_mutex_unlock(&dl->lock);
    return NULL;
}

signal_deadlines *signal_deadlines_start(signal_deadline_fn *fire, void *ctx)
{
    signal_deadlines *dl = xcalloc(1, sizeof *dl);
    pthread_mutex_init(&dl->lock, NULL);
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_REALTIME);
    pthread_cond_init(&dl->changed, &attr);
    pthread_condattr_destroy(&attr);
    dl->fire = fire;
    dl->ctx = ctx;
    if (pthread_create(&dl->thread, NULL, timer_thread, dl) != 0) {
        fprintf(stderr, "chidori serve: cannot start the thread of signal deadlines; a signal's timeout will not "
                        "fire until the server is restarted\n");
        pthread_cond_destroy(&dl->changed);
        pthread_mutex_destroy(&dl->lock);
        free(dl);
        return NULL;
    }
    return dl;
}

void signal_deadlines_arm(signal_deadlines *dl, const char *session_id, uint64_t seq, int64_t deadline_ms)
{
    if (!dl) return;
    pthread_mutex_lock(&dl->lock);
    size_t i = 0;
    /* one entry per session: it waits at one pause at a time, so a deadline armed for a later seq
     * replaces the earlier one (kept, a loop of pauses with long timeouts would grow this) */
    while (i < dl->len && strcmp(dl->items[i].id, session_id)) i++;
    if (i == dl->len) {
        if (dl->len == dl->cap) {
            dl->cap = dl->cap ? dl->cap * 2 : 16;
            dl->items = xrealloc(dl->items, dl->cap * sizeof *dl->items);
        }
        dl->items[dl->len++] = (deadline){xstrdup(session_id), seq, deadline_ms};
    } else {
        dl->items[i].seq = seq;
        dl->items[i].at_ms = deadline_ms;
    }
    pthread_cond_signal(&dl->changed);
    pthread_mutex_unlock(&dl->lock);
}

void signal_deadlines_stop(signal_deadlines *dl)
{
    if (!dl) return;
    pthread_mutex_lock(&dl->lock);
    dl->stopping = true;
    pthread_cond_signal(&dl->changed);
    pthread_mutex_unlock(&dl->lock);
    pthread_join(dl->thread, NULL);
    for (size_t i = 0; i < dl->len; i++) free(dl->items[i].id);
    free(dl->items);
    pthread_cond_destroy(&dl->changed);
    pthread_mutex_destroy(&dl->lock);
    free(dl);
}

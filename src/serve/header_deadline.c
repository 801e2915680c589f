/* header_deadline.c — the per-connection deadline for request headers (see header_deadline.h).
 *
 * Owns a fixed table of slots (a socket and a deadline in monotonic milliseconds, 0 for none), a
 * free list through it, and the sweeping thread. Trusts httpd.c to remove a slot before the
 * connection's socket is closed: the sweep shuts sockets down under the table's lock, so a socket
 * it shuts down is still the connection's own, never a number reused by another.
 */
#define _GNU_SOURCE
#include "serve/header_deadline.h"
#include "util/clock.h"
#include "util/buf.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

#define SWEEP_MS 1000

struct hd_slot {
    int64_t deadline_ms; /* atomic; 0: none (headers in, or the slot is free) */
    int fd;              /* -1 when free */
    int next_free;
};

struct header_deadlines {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t thread;
    bool stopping;
    int64_t timeout_ms;
    int capacity, used, free_head; /* used: slots ever handed out (the sweep looks at those) */
    hd_slot *slots;
};


static void *sweeper_main(void *p)
{
    header_deadlines *hd = p;
    pthread_mutex_lock(&hd->lock);
    while (!hd->stopping) {
        struct timespec until = clock_monotonic_after_ms(SWEEP_MS);
        pthread_cond_timedwait(&hd->wake, &hd->lock, &until);
        if (hd->stopping) break;
        int64_t now = clock_monotonic_ms();
        for (int i = 0; i < hd->used; i++) {
            hd_slot *s = &hd->slots[i];
            int64_t due = __atomic_load_n(&s->deadline_ms, __ATOMIC_RELAXED);
            if (s->fd < 0 || due == 0 || now < due) continue;
            /* libmicrohttpd then reads the end of the stream and closes the connection */
            shutdown(s->fd, SHUT_RDWR);
            __atomic_store_n(&s->deadline_ms, 0, __ATOMIC_RELAXED);
        }
    }
    pthread_mutex_unlock(&hd->lock);
    return NULL;
}

header_deadlines *header_deadlines_start(int capacity, int timeout_s)
{
    header_deadlines *hd = xcalloc(1, sizeof *hd);
    hd->timeout_ms = (int64_t)timeout_s * 1000;
    hd->capacity = capacity;
    hd->slots = xcalloc((size_t)capacity, sizeof *hd->slots);
    hd->free_head = -1;
    pthread_mutex_init(&hd->lock, NULL);
    clock_monotonic_cond_init(&hd->wake);
    if (pthread_create(&hd->thread, NULL, sweeper_main, hd) != 0) {
        pthread_cond_destroy(&hd->wake);
        pthread_mutex_destroy(&hd->lock);
        free(hd->slots);
        free(hd);
        return NULL;
    }
    return hd;
}

void header_deadlines_stop(header_deadlines *hd)
{
    if (!hd) return;
    pthread_mutex_lock(&hd->lock);
    hd->stopping = true;
    pthread_cond_signal(&hd->wake);
    pthread_mutex_unlock(&hd->lock);
    pthread_join(hd->thread, NULL);
    pthread_cond_destroy(&hd->wake);
    pthread_mutex_destroy(&hd->lock);
    free(hd->slots);
    free(hd);
}

hd_slot *header_deadlines_add(header_deadlines *hd, int fd)
{
    hd_slot *s = NULL;
    pthread_mutex_lock(&hd->lock);
    if (hd->free_head >= 0) {
        s = &hd->slots[hd->free_head];
        hd->free_head = s->next_free;
    } else if (hd->used < hd->capacity) {
        s = &hd->slots[hd->used++];
    }
    if (s) {
        s->fd = fd;
        __atomic_store_n(&s->deadline_ms, clock_monotonic_ms() + hd->timeout_ms, __ATOMIC_RELAXED);
    }
    pthread_mutex_unlock(&hd->lock);
    return s;
}

void header_deadlines_met(hd_slot *slot)
{
    if (slot) __atomic_store_n(&slot->deadline_ms, 0, __ATOMIC_RELAXED);
}

void header_deadlines_rearm(header_deadlines *hd, hd_slot *slot)
{
    if (slot) __atomic_store_n(&slot->deadline_ms, clock_monotonic_ms() + hd->timeout_ms, __ATOMIC_RELAXED);
}

void header_deadlines_remove(header_deadlines *hd, hd_slot *slot)
{
    if (!slot) return;
    pthread_mutex_lock(&hd->lock);
    __atomic_store_n(&slot->deadline_ms, 0, __ATOMIC_RELAXED);
    slot->fd = -1;
    slot->next_free = hd->free_head;
    hd->free_head = (int)(slot - hd->slots);
    pthread_mutex_unlock(&hd->lock);
}

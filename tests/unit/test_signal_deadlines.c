/* test_signal_deadlines.c — the server's signal deadline timers (src/serve/signal_deadlines.c): a
 * session waits at one pause at a time, so arming a session again replaces its deadline instead of
 * keeping the old one (which a client and an agent pausing in a loop with long timeouts would grow
 * without bound). Bounded generously: the wait is a second for deadlines 20 to 40 ms away. */
#define _GNU_SOURCE
#include "unit.h"
#include "serve/signal_deadlines.h"
#include "util/clock.h"

#include <pthread.h>
#include <string.h>
#include <time.h>

typedef struct {
    pthread_mutex_t mu;
    int n;
    char ids[8][16];
    uint64_t seqs[8];
} fired;

static void on_fire(void *ctx, const char *id, uint64_t seq)
{
    fired *f = ctx;
    pthread_mutex_lock(&f->mu);
    if (f->n < 8) {
        snprintf(f->ids[f->n], sizeof f->ids[f->n], "%s", id);
        f->seqs[f->n] = seq;
    }
    f->n++;
    pthread_mutex_unlock(&f->mu);
}

TEST(signal_deadlines_rearming_a_session_replaces_its_deadline)
{
    fired f = {.mu = PTHREAD_MUTEX_INITIALIZER};
    signal_deadlines *dl = signal_deadlines_start(on_fire, &f);
    CHECK(dl != NULL);
    int64_t now = clock_realtime_ms();
    signal_deadlines_arm(dl, "s1", 3, now + 20); /* its pause at seq 3 ... */
    signal_deadlines_arm(dl, "s1", 5, now + 40); /* ... went on, and it paused again at seq 5 */
    signal_deadlines_arm(dl, "s2", 3, now + 30); /* another session's is its own */
    struct timespec ts = {1, 0};
    nanosleep(&ts, NULL);
    signal_deadlines_stop(dl);
    CHECK(f.n == 2);
    int s1 = !strcmp(f.ids[0], "s1") ? 0 : 1;
    CHECK(!strcmp(f.ids[s1], "s1") && f.seqs[s1] == 5);
    CHECK(!strcmp(f.ids[1 - s1], "s2") && f.seqs[1 - s1] == 3);
}

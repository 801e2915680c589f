/* test_threads.c — functions on kept threads (src/util/threads.c): every function runs exactly
 * once and threads_wait returns only after it has; a thread whose function returned runs the
 * next one (the same kernel thread); many at once each get a thread of their own. */
#define _GNU_SOURCE
#include "unit.h"
#include "util/threads.h"

#include <pthread.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    atomic_int runs;
    pid_t tid;
    int delay_ms;
    pthread_barrier_t *barrier; /* all of them at once, or NULL */
} job;

static void *work(void *p)
{
    job *j = p;
    if (j->barrier) pthread_barrier_wait(j->barrier);
    if (j->delay_ms) {
        struct timespec ts = {0, (long)j->delay_ms * 1000000L};
        nanosleep(&ts, NULL);
    }
    j->tid = (pid_t)syscall(SYS_gettid);
    atomic_fetch_add(&j->runs, 1); /* last: the waiter may look at the job from here */
    return NULL;
}

TEST(threads_wait_returns_after_the_function_and_threads_are_reused)
{
    job a = {.delay_ms = 20};
    thread_task *t = threads_run(work, &a);
    CHECK(t != NULL);
    threads_wait(t);
    CHECK(atomic_load(&a.runs) == 1 && a.tid > 0);
    /* the thread that ran a is idle now: it runs b */
    job b = {0};
    threads_wait(threads_run(work, &b));
    CHECK(atomic_load(&b.runs) == 1);
    CHECK(b.tid == a.tid);
}

TEST(threads_run_many_at_once_each_on_a_thread_of_its_own)
{
    enum { N = 16 };
    pthread_barrier_t barrier; /* none returns until all run: N distinct threads */
    pthread_barrier_init(&barrier, NULL, N);
    job jobs[N] = {0};
    thread_task *tasks[N];
    for (int i = 0; i < N; i++) {
        jobs[i].barrier = &barrier;
        tasks[i] = threads_run(work, &jobs[i]);
        CHECK(tasks[i] != NULL);
    }
    for (int i = 0; i < N; i++) threads_wait(tasks[i]);
    for (int i = 0; i < N; i++) {
        CHECK(atomic_load(&jobs[i].runs) == 1);
        for (int k = 0; k < i; k++) CHECK(jobs[k].tid != jobs[i].tid);
    }
    pthread_barrier_destroy(&barrier);
    /* detached: it runs, once, with nobody waiting */
    job d = {0};
    CHECK(threads_run_detached(work, &d) == 0);
    for (int i = 0; i < 2000 && atomic_load(&d.runs) == 0; i++) usleep(1000);
    CHECK(atomic_load(&d.runs) == 1);
}

/* test_inproc_backstop.c — the backstop of a run with no worker (src/isolate/inproc_backstop.c):
 * a child armed with a one-tick budget spins in C, never polling, and must be ended by the
 * watchdog with the CPU message and status 1, after the budget's CPU time (its 1 s start-up slack)
 * and well before a minute; a child armed with a short deadline blocks in a read that never
 * returns and must be ended with the deadline message. Without the backstop both children run
 * until the parent's own kill at 20 s. */
#define _GNU_SOURCE
#include "unit.h"
#include "isolate/isolate.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    int status;
    double secs;
    char err[1024];
} child_end;

static volatile unsigned long spin_sink;

/* Runs body in a child with stderr captured; kills it at 20 s if nothing else ended it. */
static child_end run_child(void (*body)(void))
{
    child_end e = {0};
    int ep[2];
    if (pipe(ep) != 0) return e;
    fflush(stdout);
    fflush(stderr);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid == 0) {
        close(ep[0]);
        dup2(ep[1], 2);
        close(ep[1]);
        body();
        _exit(99);
    }
    close(ep[1]);
    int done = 0;
    for (int i = 0; i < 2000 && !done; i++) {
        if (waitpid(pid, &e.status, WNOHANG) == pid) done = 1;
        else usleep(10000);
    }
    if (!done) {
        kill(pid, SIGKILL);
        waitpid(pid, &e.status, 0);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    e.secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    size_t got = 0;
    ssize_t n;
    while (got < sizeof e.err - 1 && (n = read(ep[0], e.err + got, sizeof e.err - 1 - got)) > 0) got += (size_t)n;
    e.err[got] = 0;
    close(ep[0]);
    return e;
}

static void spin_with_budget(void)
{
    engine_limits lim = {.op_budget = 1};
    isolate_inproc_backstop_arm(&lim, false, 0);
    for (;;) spin_sink++;
}

static void block_with_deadline(void)
{
    engine_limits lim = {.deadline_ms = 200};
    isolate_inproc_backstop_arm(&lim, true, 0);
    int p[2];
    if (pipe(p) != 0) _exit(98);
    char c;
    (void)!read(p[0], &c, 1); /* nobody writes: blocks for ever */
}

static void block_without_wall(void)
{
    engine_limits lim = {.deadline_ms = 200};
    isolate_inproc_backstop_arm(&lim, false, 0); /* a run with effects: no wall backstop, no budget */
    usleep(1500000);
    _exit(7);
}

TEST(inproc_backstop_ends_a_spin_at_the_cpu_budget)
{
    child_end e = run_child(spin_with_budget);
    CHECK(WIFEXITED(e.status) && WEXITSTATUS(e.status) == 1);
    CHECK(strstr(e.err, "CPU budget exhausted") != NULL);
    CHECK(strstr(e.err, "(CHIDORI_JS_OP_BUDGET)") != NULL);
    CHECK(strstr(e.err, "the backstop ended the process") != NULL);
    CHECK(e.secs >= 0.9 && e.secs < 15);
}

TEST(inproc_backstop_ends_a_blocked_run_at_the_deadline)
{
    child_end e = run_child(block_with_deadline);
    CHECK(WIFEXITED(e.status) && WEXITSTATUS(e.status) == 1);
    CHECK(strstr(e.err, "wall-clock deadline exceeded: the run passed 200 ms (CHIDORI_JS_DEADLINE_MS)") != NULL);
    CHECK(e.secs >= 0.6 && e.secs < 15);
}

TEST(inproc_backstop_without_wall_leaves_the_deadline_to_the_engine)
{
    child_end e = run_child(block_without_wall);
    CHECK(WIFEXITED(e.status) && WEXITSTATUS(e.status) == 7);
    CHECK(e.err[0] == 0);
}

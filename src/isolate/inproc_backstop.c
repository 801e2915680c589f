/* inproc_backstop.c — the backstop of a run with no worker (chidori eval, and the CLI's runs with
 * isolation off).
 *
 * The engine stops a run at its CPU budget and deadline only when it polls. An isolated run has the
 * supervisor behind it (supervisor.c); a run in this process had nothing, so a builtin that never
 * polls, or a write blocked on a full pipe, ran on past every limit. Here one detached watchdog
 * thread does the supervisor's job on the whole process: it sleeps until a limit could first have
 * passed, reads the process's CPU clock, and, once the CPU time the budget allows
 * (isolate_backstop_cpu_ms) or the deadline plus its grace has passed, writes the limit's message
 * to stderr and ends the process with status 1. The process is the run: its call log (if any)
 * ends like a run killed from outside, and `chidori resume` continues it.
 *
 * Owns: the watchdog thread and its figures. Trusts: the limits it is armed with. The thread does
 * nothing async-signal-unsafe after the limit passes (write, _exit). */
#include "isolate/isolate.h"
#include "util/clock.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct watch {
    uint64_t wall_at_ns;       /* CLOCK_MONOTONIC time to end at (0: no wall limit) */
    uint64_t cpu_limit_ns;     /* process CPU time allowed (0: none) */
    char wall_msg[256];
    char cpu_msg[320];
} watch;

static watch the_watch;
static atomic_bool armed;

static void end_process(const char *msg)
{
    size_t n = strlen(msg), off = 0;
    while (off < n) {
        ssize_t w = write(STDERR_FILENO, msg + off, n - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) break;
        off += (size_t)w;
    }
    _exit(1);
}

static void *watch_main(void *arg)
{
    const watch *w = arg;
    for (;;) {
        uint64_t now = clock_monotonic_ns(), next = 0;
        if (w->wall_at_ns) {
            if (now >= w->wall_at_ns) end_process(w->wall_msg);
            next = w->wall_at_ns;
        }
        if (w->cpu_limit_ns) {
            uint64_t used = clock_process_cpu_ns();
            if (used >= w->cpu_limit_ns) end_process(w->cpu_msg);
            /* the earliest the rest could be used (one thread at full speed), and at least 10 ms on */
            uint64_t left = w->cpu_limit_ns - used;
            uint64_t cpu_next = now + (left < 10000000u ? 10000000u : left);
            if (!next || cpu_next < next) next = cpu_next;
        }
        struct timespec at = {.tv_sec = (time_t)(next / 1000000000u), .tv_nsec = (long)(next % 1000000000u)};
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL) == EINTR) {
        }
    }
    return NULL;
}

void isolate_inproc_backstop_arm(const engine_limits *lim, bool wall, uint64_t host_slack_ms)
{
    uint64_t cpu_ms = isolate_backstop_cpu_ms(lim);
    if (cpu_ms) cpu_ms += host_slack_ms;
    bool use_wall = wall && lim->deadline_ms;
    if (!cpu_ms && !use_wall) return;
    if (atomic_exchange(&armed, true)) return;
    watch *w = &the_watch;
    if (use_wall)
        w->wall_at_ns = clock_monotonic_ns() + (lim->deadline_ms + ISOLATE_BACKSTOP_GRACE_MS) * 1000000u;
    /* CPU time already spent (start-up) counts: the slack in isolate_backstop_cpu_ms covers it */
    w->cpu_limit_ns = cpu_ms * 1000000u;
    snprintf(w->wall_msg, sizeof w->wall_msg,
             "chidori: run failed: wall-clock deadline exceeded: the run passed %llu ms "
             "(CHIDORI_JS_DEADLINE_MS) and the engine did not stop; the backstop ended the process\n",
             (unsigned long long)lim->deadline_ms);
    snprintf(w->cpu_msg, sizeof w->cpu_msg,
             "chidori: run failed: CPU budget exhausted: the process used %llu ms of CPU time, what its "
             "%llu ticks (CHIDORI_JS_OP_BUDGET) allow at %d ns a tick plus %llu ms for the host's own work, "
             "and the engine did not stop; the backstop ended the process\n",
             (unsigned long long)cpu_ms, (unsigned long long)lim->op_budget, ISOLATE_BACKSTOP_NS_PER_TICK,
             (unsigned long long)host_slack_ms);
    pthread_attr_t attr;
    pthread_t t;
    if (pthread_attr_init(&attr) != 0) return;
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, 64 * 1024);
    if (pthread_create(&t, &attr, watch_main, w) != 0)
        fputs("chidori: warning: the in-process backstop could not start a thread; the engine's own limit "
              "checks are all there is\n", stderr);
    pthread_attr_destroy(&attr);
}

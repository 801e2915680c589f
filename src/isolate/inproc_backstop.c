/* inproc_backstop.c — the backstop of a run with no worker (chidori eval, and the CLI's runs with
 * isolation off).
 *
 * The engine stops a run at its CPU budget and deadline only when it polls. An isolated run has the
 * supervisor behind it (supervisor.c); a run in this process had nothing, so a builtin that never
 * polls, or a write blocked on a full pipe, ran on past every limit. Here two POSIX timers do the
 * supervisor's job on the whole process: one on the process's CPU clock, set to the CPU time the
 * budget allows (isolate_backstop_cpu_ms), one on the monotonic clock at the deadline plus its
 * grace. Either one's signal writes the limit's message to stderr and ends the process with status
 * 1. The process is the run: its call log (if any) ends like a run killed from outside, and
 * `chidori resume` continues it.
 *
 * Timers, not a watchdog thread: making the thread (its stack mapped, a clone) and tearing it down
 * at exit cost a hello eval 0.25-0.35 ms of its 2.4-2.8 ms in one `perf stat -r 300` sitting (less,
 * within the noise, in another); arming a timer is two system calls.
 * The signal (BACKSTOP_SIGNAL, a real-time one nothing else here uses) is directed at the process,
 * so any thread that does not block it takes it; the handler never returns.
 *
 * Owns: the timers, the signal's handler and their messages. Trusts: the limits it is armed with.
 * The handler does nothing async-signal-unsafe (write, _exit). */
#include "isolate/isolate.h"
#include "util/clock.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BACKSTOP_SIGNAL (SIGRTMIN + 3)
enum { TIMER_WALL = 1, TIMER_CPU = 2 };

static char wall_msg[256];
static char cpu_msg[320];
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

static void on_timer(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    (void)uc;
    end_process(si->si_value.sival_int == TIMER_CPU ? cpu_msg : wall_msg);
}

/* A timer on clock that sends BACKSTOP_SIGNAL tagged `which` at the absolute time at_ns. */
static int arm_timer(clockid_t clock, int which, uint64_t at_ns)
{
    struct sigevent ev;
    memset(&ev, 0, sizeof ev);
    ev.sigev_notify = SIGEV_SIGNAL;
    ev.sigev_signo = BACKSTOP_SIGNAL;
    ev.sigev_value.sival_int = which;
    timer_t t;
    if (timer_create(clock, &ev, &t) != 0) return -1;
    struct itimerspec its = {.it_value = {.tv_sec = (time_t)(at_ns / 1000000000u), .tv_nsec = (long)(at_ns % 1000000000u)}};
    if (its.it_value.tv_sec == 0 && its.it_value.tv_nsec == 0) its.it_value.tv_nsec = 1; /* zero would disarm it */
    if (timer_settime(t, TIMER_ABSTIME, &its, NULL) != 0) {
        timer_delete(t);
        return -1;
    }
    return 0;
}

void isolate_inproc_backstop_arm(const engine_limits *lim, bool wall, uint64_t host_slack_ms)
{
    uint64_t cpu_ms = isolate_backstop_cpu_ms(lim);
    if (cpu_ms) cpu_ms += host_slack_ms;
    bool use_wall = wall && lim->deadline_ms;
    if (!cpu_ms && !use_wall) return;
    if (atomic_exchange(&armed, true)) return;
    snprintf(wall_msg, sizeof wall_msg,
             "chidori: run failed: wall-clock deadline exceeded: the run passed %llu ms "
             "(CHIDORI_JS_DEADLINE_MS) and the engine did not stop; the backstop ended the process\n",
             (unsigned long long)lim->deadline_ms);
    snprintf(cpu_msg, sizeof cpu_msg,
             "chidori: run failed: CPU budget exhausted: the process used %llu ms of CPU time, what its "
             "%llu ticks (CHIDORI_JS_OP_BUDGET) allow at %d ns a tick plus %llu ms for the host's own work, "
             "and the engine did not stop; the backstop ended the process\n",
             (unsigned long long)cpu_ms, (unsigned long long)lim->op_budget, ISOLATE_BACKSTOP_NS_PER_TICK,
             (unsigned long long)host_slack_ms);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_timer;
    sa.sa_flags = SA_SIGINFO;
    sigfillset(&sa.sa_mask); /* one handler at a time: the first limit's message is the one written */
    int bad = sigaction(BACKSTOP_SIGNAL, &sa, NULL) != 0;
    /* CPU time already spent (start-up) counts: the slack in isolate_backstop_cpu_ms covers it */
    if (!bad && cpu_ms) bad = arm_timer(CLOCK_PROCESS_CPUTIME_ID, TIMER_CPU, cpu_ms * 1000000u) != 0;
    if (!bad && use_wall)
        bad = arm_timer(CLOCK_MONOTONIC, TIMER_WALL,
                        clock_monotonic_ns() + (lim->deadline_ms + ISOLATE_BACKSTOP_GRACE_MS) * 1000000u) != 0;
    if (bad)
        fputs("chidori: warning: the in-process backstop could not set its timers; the engine's own limit "
              "checks are all there is\n", stderr);
}

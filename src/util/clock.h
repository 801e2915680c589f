/* clock.h — the one place that reads the system clocks: monotonic time for deadlines and
 * durations, wall-clock time for timestamps that are recorded or shown. Trusts nothing; holds no
 * state. The engine's guest clock is not this: a run's time is captured by the host and replayed. */
#ifndef CHIDORI_CLOCK_H
#define CHIDORI_CLOCK_H

#include <pthread.h>
#include <stdint.h>
#include <time.h>

/* CLOCK_MONOTONIC in nanoseconds and in whole milliseconds. */
uint64_t clock_monotonic_ns(void);
int64_t clock_monotonic_ms(void);
/* CPU time this process has used, all its threads (CLOCK_PROCESS_CPUTIME_ID), in nanoseconds. */
uint64_t clock_process_cpu_ns(void);
/* CLOCK_REALTIME in whole milliseconds since the Unix epoch. */
int64_t clock_realtime_ms(void);
/* CLOCK_MONOTONIC now plus ms, as a timespec: the absolute deadline for pthread_cond_timedwait on a
 * condition variable made by clock_monotonic_cond_init. */
struct timespec clock_monotonic_after_ms(int64_t ms);
/* A condition variable whose timed waits are measured on CLOCK_MONOTONIC (a wall-clock step moves
 * no deadline). */
void clock_monotonic_cond_init(pthread_cond_t *cv);

#endif

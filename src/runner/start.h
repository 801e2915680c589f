/* start.h — what a durable run starts from, decided the same way by the command line and the
 * server: the seed and clock start it captures, whether it is isolated, where its state lives.
 * Reads only the settings it is given (settings.h); trusts them (checked when they were built).
 */
#ifndef CHIDORI_RUNNER_START_H
#define CHIDORI_RUNNER_START_H

#include <stdbool.h>
#include <stdint.h>

struct settings;

/* The seed and clock start a new run's determinism starts from, captured here on the host (a
 * replay reads them back from the run's record instead): random and now, unless CHIDORI_SEED /
 * CHIDORI_CLOCK_START_MS pin them (tests, reproducing a run by hand). */
void run_start_capture(const struct settings *s, uint64_t *seed, int64_t *clock_ms);

/* --isolate / --no-isolate (flag: 1/0, -1 unset) win over CHIDORI_ISOLATE; the default is a
 * confined worker process per run. */
bool run_start_isolated(int flag, const struct settings *s);

/* Durable state (runs, memory, serve's database) lives in CHIDORI_STATE_DIR, or .chidori in the
 * agent's folder. Malloc'd. */
char *run_start_state_dir(const struct settings *s, const char *agent_folder);

#endif

/* start.h — what a durable run starts from, decided the same way by the command line and the
 * server: its set-up from the settings, the seed and clock start it captures, whether it is
 * isolated, where its state lives.
 * Reads only the settings it is given (settings.h); trusts them (checked when they were built).
 */
#ifndef CHIDORI_RUNNER_START_H
#define CHIDORI_RUNNER_START_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"
#include "host/calllog.h"
#include "host/policy.h"
#include "isolate/isolate.h"
#include "runner/surface.h"

struct settings;

/* Everything a surface (the command line's run, replay and resume; the server) sets its runs up
 * with, derived from the settings and the posture flags in one place: the policy, the engine's
 * limits, the call log's caps, the isolation choice and options, the captured surface (the VFS
 * seed file is read; surface_check_seed is the caller's, as a replay checks the recorded one). */
typedef struct run_setup {
    policy_selection policy;
    engine_limits limits;
    calllog_caps log_caps;
    bool isolated;
    isolate_options iso;     /* set when isolated */
    surface_settings surface;
} run_setup;

/* 0, or -1 with *error (a usage error: the policy cannot be used on `run`, the VFS seed file
 * cannot be read). isolate_flag as run_start_isolated's. */
int run_setup_from_settings(run_setup *rs, const struct settings *s, policy_surface surface, bool untrusted,
                            bool trusted, int isolate_flag, char **error);
void run_setup_clear(run_setup *rs);

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

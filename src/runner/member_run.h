/* member_run.h — the runner's implementation of sub-runs ("members", host/member.h): another agent
 * module run on a thread of its own, with a host of its own, beside the run that started it.
 *
 * A run makes one member_env from its own engine and host configuration (runner.c) and hands
 * member_env_ops(env) to its host as host_config.members; effects (branch, actors) then start
 * members through it. The env must outlive every member started from it: the run frees its
 * members (the effects do, or their modules' free at host_free) before member_env_clear.
 *
 * What each member gets and shares is stated in host/member.h. Here, in short:
 * - in-process: the engine runs on a thread of its own (engine_run_on_thread), under the run's
 *   engine limits; isolated: its own confined worker through supervisor_run, with the run's
 *   isolation options (not pinned to the caller's CPU, no pre-spawned worker), killed by a stop;
 * - its Math.random seed is a function of the run's seed, the entry, the input and spec.salt;
 * - call_started and prompt_event (the CLI's progress line, --stream, serve's SSE) are told under
 *   one lock per env, so concurrent members never interleave inside one of them;
 * - a cancelled run (host_config.cancel) ends its members' next calls, and a wait that sees the
 *   run cancelled stops the members it waits for (which kills their workers).
 *
 * BUDGET: members are admitted and charged at the one marked place in member_run.c (member_start),
 * where a tree budget (issue 19 item 3) is to refuse a member and set its share of the limits.
 */
#ifndef CHIDORI_RUNNER_MEMBER_H
#define CHIDORI_RUNNER_MEMBER_H

#include <pthread.h>
#include <stdbool.h>

#include "engine/engine.h"
#include "host/host.h"
#include "host/member.h"
#include "isolate/isolate.h"

typedef struct member_env {
    engine_config base;  /* the run's: limits, seed, clock, surface choices (entry/input/seam unset) */
    host_config hc;      /* the run's, cloned for each member's host (pointers not owned) */
    bool isolated;
    isolate_options iso; /* the run's isolation options, when isolated */
    pthread_mutex_t out_mu; /* orders the calls of hc.call_started and hc.prompt_event */
    host_members ops;    /* what host_config.members points to */
} member_env;

/* base and hc are copied (their pointers must stay valid for the env's life); hc.members is set
 * to the env's own ops, so members may start members. */
void member_env_init(member_env *env, const engine_config *base, const host_config *hc, bool isolated,
                     const isolate_options *iso);
void member_env_clear(member_env *env);

#endif

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
 * - the run's tree budget (runner/tree_budget.h): member_start admits it (depth and live caps)
 *   under its caller's member of the tree and grants it its share of what is left of the tree's
 *   CPU ticks, memory and deadline; its host meters it there (and a sum over members crossing the
 *   tree's limits ends the tree); when it ends its ticks go to its caller; a crossing or a refusal
 *   ends the whole tree (tree_abort stops every live member: member_stop).
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
    /* the run's tree budget, or NULL: none; run_tree_ctx is the run's host_config.tree_ctx, and
     * run_member_at maps (it, a call_agent depth) to the member of the tree running there */
    struct tree_budget *tree;
    void *run_tree_ctx;
    struct tree_member *(*run_member_at)(void *ctx, int depth);
} member_env;

/* base and hc are copied (their pointers must stay valid for the env's life); hc.members is set
 * to the env's own ops, so members may start members. */
void member_env_init(member_env *env, const engine_config *base, const host_config *hc, bool isolated,
                     const isolate_options *iso);
void member_env_clear(member_env *env);
/* Members draw on tree (runner/tree_budget.h): set before any member starts. */
void member_env_set_tree(member_env *env, struct tree_budget *tree, void *run_tree_ctx,
                         struct tree_member *(*run_member_at)(void *ctx, int depth));

#endif

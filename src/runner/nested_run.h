/* nested_run.h — one nested agent run (call_agent) as a member of its run's tree budget: the part
 * the top-level run (runner.c) and a member (member_run.c, a branch or an actor) share.
 *
 * Trusts its callers: they own the chain of tree members their call_agent calls are nested in, and
 * the engine the run goes to (in process or a confined worker). Owns nothing past the call.
 */
#ifndef CHIDORI_NESTED_RUN_H
#define CHIDORI_NESTED_RUN_H

#include <stdint.h>

#include "engine/engine.h"
#include "host/host.h"
#include "runner/tree_budget.h"

/* A 64-bit mixer (splitmix64's finaliser), for seeds that must agree on replay. */
uint64_t nested_mix64(uint64_t x);
/* A nested agent's seed: a function of its caller's seed and what was called. */
uint64_t nested_seed(uint64_t seed, const char *entry, const char *input_json);
/* The first line of a run's error (its message without the stack), malloc'd; "?" for NULL. */
char *nested_first_line(const char *text);

/* Runs cfg (the nested agent `entry`, its seed and seam set) on the engine. */
typedef void nested_engine_fn(void *ctx, engine_config *cfg, host *h, engine_result *res);

/* The run of call_agent: admitted under `parent` (refused past chain_max nested levels, or by the
 * tree's caps), granted what is left of the tree's limits (into cfg->limits), pushed on
 * chain[++*depth] while it runs, then charged to its caller. A refusal, or a limit of its grant
 * crossed, ends the whole tree (end->ends_tree, HOST_ABORT, *error the tree's message); a run
 * below it that ended the tree ends this call the same way. Otherwise host_nested_fn's contract:
 * HOST_OK with *output, HOST_SUSPEND, or HOST_ERROR / HOST_ABORT with *error. */
int nested_run(tree_budget *tb, tree_member *parent, tree_member **chain, int *depth, int chain_max,
               engine_config *cfg, host *h, const char *entry, nested_engine_fn *engine, void *engine_ctx,
               char **output, host_nested_end *end, char **error);

#endif

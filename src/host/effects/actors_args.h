/* actors_args.h — the args of the actor ops: checks before a seq is taken and their one form
 * (effects/actors_args.c), for the actors effect (effects/actors.c).
 */
#ifndef CHIDORI_ACTORS_ARGS_H
#define CHIDORI_ACTORS_ARGS_H

#include "host/ops.h"

#define ACTOR_DEFAULT_IDLE_TIMEOUT_MS 300000ull
#define ACTOR_DEFAULT_MAX_RESTARTS 3

enum restart_strategy { RESTART_NEVER, RESTART_CLEAN, RESTART_RESUME };

/* A spawn's options as the original reads them (serde's as_u64: a bad number is the default). */
typedef struct actor_spawn_opts {
    const char *name; /* borrowed from the args, or NULL */
    int restart;
    uint64_t max_restarts, backoff_ms, idle_timeout_ms;
    /* intercept in its one form {model?, tools?, workspace?} (borrowed), or NULL when it narrows
     * nothing */
    const json_t *intercept;
} actor_spawn_opts;
void actor_read_opts(const json_t *options, actor_spawn_opts *out);
/* intercept's one form {model?, tools?, workspace?} (workspace: the subpath string), or NULL when
 * it narrows nothing. */
json_t *actor_intercept_form(const json_t *intercept);
/* opts.timeoutMs when a positive whole number, else 0 (none). */
uint64_t actor_timeout_of(const json_t *opts);

host_validate_fn actor_spawn_validate, actor_send_validate, actor_receive_validate, actor_join_validate,
    actor_stop_validate, actor_status_validate, actor_whereis_validate;
host_prepare_fn actor_spawn_prepare, actor_receive_prepare, actor_settle_prepare, actor_pid_prepare, actor_name_prepare;
host_prepare_in_fn actor_send_prepare;

/* effects/actors.c: is h a branch's host (actors are refused there)? The pid of the actor whose
 * host h is, or NULL for the run. */
bool actors_in_branch(host *h);
const char *actors_self_pid(host *h);

#endif

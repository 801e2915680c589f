/* ops.h — the effect module descriptor, and the op table made of the list of modules.
 *
 * Each effect family declares, in its own file under effects/ (module loads in effects/module_load.c), one
 * `effect_module`: its ops with their flags, how each gated op names its policy target, the
 * policy targets it can name (the policy validator accepts exactly these), the functions that
 * perform its ops, the state it keeps for a run (made by init, freed by free) and the settings it
 * reads. ops.c lists the modules; host_call (host.c), the gate (gate.c) and the policy validator
 * (policy.c) find everything through that list, so nothing in the host core names an op.
 *
 * Adding an effect: its module file, its line in ops.c's list, its JS surface (prelude.js,
 * agent.d.ts), its tests and docs. See docs/adding-an-effect.md.
 */
#ifndef CHIDORI_OPS_H
#define CHIDORI_OPS_H

#include "host/host.h"

enum {
    OP_RECORDED = 1u << 0, /* written to the call log; replayed from it */
    OP_GATED = 1u << 1,    /* checked by the policy gate before it is performed (needs `target`) */
    OP_INTERNAL = 1u << 2, /* chidori's own plumbing (module loads): only host_internal_call performs it */
    OP_ANSWERABLE = 1u << 3, /* a run paused at a call of it is resumed with an answer, its result (input) */
    OP_NESTS = 1u << 4,      /* it runs a nested agent, whose calls come before its own record (call_agent) */
    OP_TAKEN = 1u << 5,      /* its records may also be consumed by another op (step_begin takes `step`
                              * records): never answered ahead (replay_ahead.c) */
    OP_TRACE = 1u << 6,      /* its record only marks a point of the run: its result is fixed (null), it
                              * acts on nothing outside the run and nothing outside sees it, so the record
                              * may wait to be written with the next one (calllog_append_trace); a crash
                              * can lose it, and a resume then makes it again (mark) */
    OP_WAKEABLE = 1u << 7,   /* a run paused at a call of it goes on when something is handed to the call's
                              * seq from outside (a signal, a timeout): the call is performed again there and
                              * takes it (signal, signal_any) */
};

/* Performs the op: a HOST_* code; HOST_OK with *result, another code with *error. The module's
 * state is host_module_state(h, &its_module). */
typedef int host_perform_fn(host *h, const json_t *args, json_t **result, char **error);
/* The args in the one form that the replay lookup, the gate, the effect and the record all see
 * (for `http`: the URL normalized). A new object; NULL when args are fine as they are; NULL with
 * *error when they cannot be put in that form (the call then fails, and is recorded). */
typedef json_t *host_prepare_fn(const json_t *args, char **error);
/* A gated op's policy target for these args (malloc'd, e.g. "tool:github__search"), and in *match
 * the arguments a rule's match_args see (NULL: none, matched as an empty object). */
typedef char *host_target_fn(const json_t *args, const json_t **match);
/* Checks that run before the replay lookup, so before a seq is taken: NULL when the call may go
 * on, otherwise the error (malloc'd) thrown to the agent, and nothing is recorded (branch: §6.1
 * of the original's spec). On replay too, so a call refused live is refused again. */
typedef char *host_validate_fn(host *h, const json_t *args);
/* The same as host_prepare_fn, for an op whose one form holds what only the host knows (actors:
 * send_actor records the sender's pid as `from`). Used instead of prepare when set. */
typedef json_t *host_prepare_in_fn(host *h, const json_t *args, char **error);
/* A live call of the op (the log did not answer it) is about to pass the gate. */
typedef void host_before_gate_fn(host *h);

typedef struct op_def {
    const char *name;
    unsigned flags;
    host_perform_fn *perform;
    host_prepare_fn *prepare;         /* NULL: args are used as given */
    host_target_fn *target;           /* OP_GATED ops: the policy target of a call */
    host_before_gate_fn *before_gate; /* NULL: nothing to do (call_agent counts its runs here) */
    const struct record_form *record; /* NULL: recorded as performed (record_form.h) */
    host_validate_fn *validate;       /* NULL: no check before the seq is taken */
    host_prepare_in_fn *prepare_in;   /* NULL: prepare (above) as it is */
} op_def;

typedef struct effect_module {
    const char *name;
    const op_def *ops;                    /* ended by an entry whose name is NULL */
    /* The policy targets this module's gated ops can name, as a policy file writes them: exact
     * ("http", "workspace:read") or a family ending in "<...>" ("tool:<name>": the prefix and any
     * non-empty rest). NULL when it has no gated op. */
    const char *const *targets;
    /* Its state for one run: 0 with *state (may stay NULL), or -1 with *error (the host is not
     * made; what *state holds by then is given to free). NULL: the module keeps no state. */
    int (*init)(host *h, const host_config *cfg, void **state, char **error);
    void (*free)(void *state);
    /* A nested run (call_agent) starts or ends at depth: drop what belongs to that depth. */
    void (*nest)(void *state, int depth);
    /* The environment variables the module reads (NULL-terminated list, or NULL). */
    const char *const *settings;
} effect_module;

/* The list of modules (ops.c), ended by NULL. */
extern const effect_module *const effect_modules[];
size_t effect_module_count(void);

/* The op of that name and its module, or NULL. */
const op_def *host_op_find(const char *name, const effect_module **module);

/* Is target one a policy rule may name (a module's target, or "*")? */
bool effect_target_known(const char *target);
/* The targets a policy may name, for an error message: "http, workspace:list|read|…, tool:<name>
 * or *" (malloc'd). */
char *effect_targets_describe(void);

/* The state of a module for this run (what its init made), or NULL. */
void *host_module_state(host *h, const effect_module *m);

/* perform functions the unit tests call directly */
host_perform_fn effect_crypto_digest, effect_random_bytes; /* effects/crypto.c */

#endif

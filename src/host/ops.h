/* ops.h — the table of host operations: one row per op, naming how it is performed and whether
 * it is recorded in the call log and/or passes the policy gate. Adding an effect means adding a
 * perform function in effects/, a row here, and its JS surface — nothing else. */
#ifndef CHIDORI_OPS_H
#define CHIDORI_OPS_H

#include "host/host.h"

enum {
    OP_RECORDED = 1u << 0, /* written to the call log; replayed from it */
    OP_GATED = 1u << 1,    /* checked by the policy gate before it is performed */
    OP_INTERNAL = 1u << 2, /* engine plumbing (module loads); guest JS cannot name it */
};

/* Returns a HOST_* code (host.h). */
typedef int host_perform_fn(host *h, const json_t *args, json_t **result, char **error);
/* The args in the one form that the replay lookup, the gate, the effect and the record all see
 * (for `http`: the URL normalized). A new object; NULL when args are fine as they are; NULL with
 * *error when they cannot be put in that form (the call then fails, and is recorded). */
typedef json_t *host_prepare_fn(const json_t *args, char **error);

typedef struct host_op {
    const char *name;
    unsigned flags;
    host_perform_fn *perform;
    host_prepare_fn *prepare; /* NULL: args are used as given */
} host_op;

const host_op *host_op_find(const char *name);

/* perform functions, one family per file under effects/ */
host_perform_fn effect_log, effect_mark, effect_console;     /* effects/log.c */
host_perform_fn effect_step_begin, effect_step;              /* effects/step.c */
host_perform_fn effect_input;                                /* effects/input.c */
host_perform_fn effect_memory;                               /* effects/memory.c */
host_perform_fn effect_workspace;                            /* effects/workspace.c */
host_perform_fn effect_call_agent;                           /* effects/agent.c */
host_perform_fn effect_exec;                                 /* effects/exec.c */
host_perform_fn effect_prompt;                               /* effects/prompt.c */
host_perform_fn effect_tool, effect_tool_schemas;            /* effects/tools.c */
host_perform_fn effect_template;                             /* effects/template.c */
host_perform_fn effect_http;                                 /* effects/http.c */
host_prepare_fn http_prepare_args;                           /* effects/http.c */
host_perform_fn effect_fs;                                   /* effects/fs.c */
host_perform_fn effect_crypto_digest, effect_random_bytes;   /* effects/crypto.c */
host_perform_fn host_module_load;                            /* modules.c */

#endif

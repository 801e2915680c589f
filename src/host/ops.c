/* ops.c — the op table (see ops.h). */
#include "host/ops.h"

#include <string.h>

static const host_op ops[] = {
    {"log", OP_RECORDED, effect_log, NULL},
    {"mark", OP_RECORDED, effect_mark, NULL},
    {"step_begin", 0, effect_step_begin, NULL},
    {"step", OP_RECORDED, effect_step, NULL},
    {"input", OP_RECORDED, effect_input, NULL},
    {"memory", OP_RECORDED, effect_memory, NULL},
    {"workspace", OP_RECORDED | OP_GATED, effect_workspace, NULL},
    {"call_agent", OP_RECORDED, effect_call_agent, NULL},
    {"exec", OP_RECORDED, effect_exec, NULL},
    {"prompt", OP_RECORDED, effect_prompt, NULL},
    {"tool", OP_RECORDED | OP_GATED, effect_tool, NULL},
    {"tool_schemas", OP_RECORDED, effect_tool_schemas, NULL},
    {"template", OP_RECORDED, effect_template, NULL},
    {"http", OP_RECORDED | OP_GATED, effect_http, http_prepare_args},
    {"fs", 0, effect_fs, NULL},
    {"crypto_digest", 0, effect_crypto_digest, NULL},
    {"random_bytes", OP_RECORDED, effect_random_bytes, NULL},
    {"console", 0, effect_console, NULL},
    {"__module_load", OP_INTERNAL, host_module_load, NULL},
};

const host_op *host_op_find(const char *name)
{
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(ops[i].name, name) == 0) return &ops[i];
    return NULL;
}

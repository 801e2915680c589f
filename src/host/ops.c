/* ops.c — the op table (see ops.h). */
#include "host/ops.h"

#include <string.h>

static const host_op ops[] = {
    {"log", OP_RECORDED, effect_log},
    {"mark", OP_RECORDED, effect_mark},
    {"step_begin", 0, effect_step_begin},
    {"step", OP_RECORDED, effect_step},
    {"input", OP_RECORDED, effect_input},
    {"memory", OP_RECORDED, effect_memory},
    {"workspace", OP_RECORDED | OP_GATED, effect_workspace},
    {"call_agent", OP_RECORDED, effect_call_agent},
    {"exec", OP_RECORDED, effect_exec},
    {"prompt", OP_RECORDED, effect_prompt},
    {"tool", OP_RECORDED | OP_GATED, effect_tool},
    {"tool_schemas", OP_RECORDED, effect_tool_schemas},
    {"template", OP_RECORDED, effect_template},
    {"http", OP_RECORDED | OP_GATED, effect_http},
    {"fs", 0, effect_fs},
    {"crypto_digest", 0, effect_crypto_digest},
    {"random_bytes", OP_RECORDED, effect_random_bytes},
    {"console", 0, effect_console},
    {"__module_load", OP_INTERNAL, host_module_load},
};

const host_op *host_op_find(const char *name)
{
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(ops[i].name, name) == 0) return &ops[i];
    return NULL;
}

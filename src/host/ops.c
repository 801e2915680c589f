/* ops.c — the op table (see ops.h). */
#include "host/ops.h"

#include <string.h>

static const host_op ops[] = {
    {"log", OP_RECORDED, effect_log},
    {"console", 0, effect_console},
    {"__module_load", OP_INTERNAL, host_module_load},
};

const host_op *host_op_find(const char *name)
{
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(ops[i].name, name) == 0) return &ops[i];
    return NULL;
}

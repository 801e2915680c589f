/* effects/exec.c — chidori.execJs / execPython / execWasm: defined so agents written for them
 * get a clear answer, and always refused: chidori runs no nested code sandboxes. */
#include "host/host_internal.h"
#include "host/ops.h"
#include "util/buf.h"

#include <string.h>

static int effect_exec(host *h, const json_t *args, json_t **result, char **error)
{
    const char *lang = json_string_value(json_object_get(args, "language"));
    *error = xasprintf("chidori.exec%s is not supported: chidori does not run nested code sandboxes; "
                       "write the code in the agent itself",
                       lang && !strcmp(lang, "python") ? "Python" : lang && !strcmp(lang, "wasm") ? "Wasm" : "Js");
    return HOST_ERROR;
}

static const op_def exec_ops[] = {
    {.name = "exec", .flags = OP_RECORDED, .perform = effect_exec},
    {0},
};

const effect_module exec_module = {.name = "exec", .ops = exec_ops};

/* effects/step.c — chidori.step(name, fn), the durable value step.
 *
 * `step_begin` {name} (not recorded) asks whether the log's next call is the step record of this
 * name: on replay it is, and its value (or error) answers without running fn. Otherwise fn runs
 * — its own effects are recorded and replayed like any others — and `step` {name, value} or
 * {name, error} records the outcome. Values are JSON, so live and replayed runs see the same
 * value.
 */
#include "host/host_internal.h"
#include "host/ops.h"
#include "util/buf.h"

#include <string.h>

static int effect_step_begin(host *h, const json_t *args, json_t **result, char **error)
{
    const json_t *name = json_object_get(args, "name");
    if (!json_is_string(name)) {
        *error = xstrdup("chidori.step: `name` must be a string");
        return HOST_ERROR;
    }
    fs_note_step_begin(h); /* see fs_step_barrier in effects/fs.c */
    const call_record *next = calllog_take_step(h->log, h->parent_seq, "step", name);
    json_t *out = json_object();
    if (next) {
        json_object_set(out, "cached", json_bool(true));
        if (next->error) json_object_set(out, "error", json_string(next->error));
        else json_object_set(out, "value", json_copy(next->result));
    } else {
        json_object_set(out, "cached", json_bool(false));
    }
    *result = out;
    return HOST_OK;
}

static int effect_step(host *h, const json_t *args, json_t **result, char **error)
{
    if (!host_arg_string(args, "name", error)) return HOST_ERROR;
    const json_t *err = json_object_get(args, "error");
    if (err) {
        *error = json_is_string(err) ? xstrdup(err->u.string.bytes) : xstrdup("step failed");
        return HOST_ERROR;
    }
    const json_t *value = json_object_get(args, "value");
    *result = value ? json_copy(value) : json_null();
    return HOST_OK;
}

static const op_def step_ops[] = {
    {.name = "step_begin", .flags = 0, .perform = effect_step_begin},
    {.name = "step", .flags = OP_RECORDED | OP_TAKEN, .perform = effect_step},
    {0},
};

const effect_module step_module = {.name = "step", .ops = step_ops};

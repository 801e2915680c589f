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

int effect_step_begin(host *h, const json_t *args, json_t **result, char **error)
{
    const json_t *name = json_object_get(args, "name");
    if (!json_is_string(name)) {
        *error = xstrdup("chidori.step: `name` must be a string");
        return HOST_ERROR;
    }
    h->step_since_fs_barrier[h->depth] = true; /* see fs_step_barrier in effects/fs.c */
    call_record *next = calllog_peek(h->log, h->parent_seq);
    json_t *out = json_object();
    if (next && strcmp(next->function, "step") == 0 && json_equal(json_object_get(next->args, "name"), name)) {
        next->consumed = true;
        json_object_set(out, "cached", json_bool(true));
        if (next->error) json_object_set(out, "error", json_string(next->error));
        else json_object_set(out, "value", json_copy(next->result));
    } else {
        json_object_set(out, "cached", json_bool(false));
    }
    *result = out;
    return HOST_OK;
}

int effect_step(host *h, const json_t *args, json_t **result, char **error)
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

/* effects/fs.c — placeholder for the captured-surface work (issue 6). */
#include "host/host_internal.h"
#include "host/ops.h"
#include "util/buf.h"

int effect_fs(host *h, const json_t *args, json_t **result, char **error)
{
    *error = xstrdup("fs: not implemented yet");
    return HOST_ERROR;
}

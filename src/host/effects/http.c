/* effects/http.c — placeholder for the captured-surface work (issue 6). */
#include "host/host_internal.h"
#include "host/ops.h"
#include "util/buf.h"

int effect_http(host *h, const json_t *args, json_t **result, char **error)
{
    *error = xstrdup("http: not implemented yet");
    return HOST_ERROR;
}

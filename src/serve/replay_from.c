/* replay_from.c — a client's call log for POST /sessions, checked (see replay_from.h). */
#define _GNU_SOURCE
#include "serve/replay_from.h"
#include "util/buf.h"

#include <stdlib.h>

int replay_from_check(const json_t *v, const calllog_caps *caps, char **error)
{
    if (!json_is_array(v)) {
        *error = xstrdup("`replay_from` must be an array of call records (the `call_log` of a checkpoint)");
        return -1;
    }
    uint64_t max_records = caps && caps->max_records ? caps->max_records : CALLLOG_DEFAULT_MAX_RECORDS;
    if (v->u.array.len > max_records) {
        *error = xasprintf("`replay_from` holds %zu records; a session's log may hold %llu "
                           "(CHIDORI_LOG_MAX_RECORDS)", v->u.array.len, (unsigned long long)max_records);
        return -1;
    }
    calllog *log = calllog_new();
    if (caps) calllog_set_caps(log, caps);
    char *why = NULL;
    int rc = calllog_load_records(log, v, "replay_from", &why);
    calllog_free(log);
    if (rc < 0) {
        *error = xasprintf("%s; fix the record or leave it out (a record needs seq, function, args, result, "
                           "duration_ms and timestamp)", why);
        free(why);
    }
    return rc;
}

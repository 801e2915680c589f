/* replay_from.c — a client's call log for POST /sessions, checked (see replay_from.h). */
#define _GNU_SOURCE
#include "serve/replay_from.h"
#include "util/buf.h"

#include <stdbool.h>
#include <stdlib.h>

/* The seqs (which the loader has checked one by one, each parent_seq below its own seq) numbered
 * from 1 without a gap: what a run's log is, and what a session resumed from it needs (a gap, or a
 * seq far past the rest, would leave a session that pauses and then cannot be resumed). */
static int numbering_check(const json_t *v, char **error)
{
    size_t n = v->u.array.len;
    bool *seen = xcalloc(n + 1, sizeof *seen);
    uint64_t top = 0;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        double seq = json_number_value(json_object_get(v->u.array.items[i], "seq"));
        if (!(seq >= 1 && seq <= (double)n)) {
            *error = xasprintf("`replay_from` record %zu has seq %.0f, but %zu records are numbered 1 to %zu "
                               "without gaps; send the whole call log", i + 1, seq, n, n);
            rc = -1;
        } else {
            seen[(size_t)seq] = true;
            if ((uint64_t)seq > top) top = (uint64_t)seq;
        }
    }
    for (uint64_t s = 1; s <= top && rc == 0; s++)
        if (!seen[s]) {
            *error = xasprintf("`replay_from` has no record of seq %llu (it holds seqs up to %llu); send the whole "
                               "call log, numbered from 1 without gaps", (unsigned long long)s, (unsigned long long)top);
            rc = -1;
        }
    free(seen);
    return rc;
}

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
        return rc;
    }
    return numbering_check(v, error);
}

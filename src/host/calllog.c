/* calllog.c — in-memory call log of a run (see calllog.h). Trusts: its callers (host.c only). */
#include "host/calllog.h"
#include "util/buf.h"

#include <stdlib.h>

struct calllog {
    call_record *items;
    size_t len, cap;
};

calllog *calllog_new(void)
{
    return xcalloc(1, sizeof(calllog));
}

void calllog_free(calllog *log)
{
    if (!log) return;
    for (size_t i = 0; i < log->len; i++) {
        free(log->items[i].function);
        json_free(log->items[i].args);
        json_free(log->items[i].result);
        free(log->items[i].error);
    }
    free(log->items);
    free(log);
}

size_t calllog_count(const calllog *log) { return log->len; }

const call_record *calllog_get(const calllog *log, size_t index)
{
    return index < log->len ? &log->items[index] : NULL;
}

const call_record *calllog_replay_next(calllog *log, const char *function, const json_t *args, char **divergence)
{
    (void)log, (void)function, (void)args, (void)divergence;
    return NULL; /* no recorded run loaded: every call runs live */
}

void calllog_append(calllog *log, const char *function, const json_t *args, const json_t *result,
                    const char *error, double duration_ms, int64_t timestamp_ms)
{
    if (log->len == log->cap) {
        log->cap = log->cap ? log->cap * 2 : 16;
        log->items = xrealloc(log->items, log->cap * sizeof(call_record));
    }
    call_record *r = &log->items[log->len];
    r->seq = log->len + 1;
    r->function = xstrdup(function);
    r->args = json_copy(args);
    r->result = result ? json_copy(result) : NULL;
    r->error = error ? xstrdup(error) : NULL;
    r->duration_ms = duration_ms;
    r->timestamp_ms = timestamp_ms;
    log->len++;
}

json_t *call_record_to_json(const call_record *r)
{
    json_t *o = json_object();
    json_object_set(o, "seq", json_number((double)r->seq));
    json_object_set(o, "function", json_string(r->function));
    json_object_set(o, "args", json_copy(r->args));
    json_object_set(o, "result", r->result ? json_copy(r->result) : json_null());
    json_object_set(o, "duration_ms", json_number(r->duration_ms));
    json_object_set(o, "timestamp", json_number((double)r->timestamp_ms));
    if (r->error) json_object_set(o, "error", json_string(r->error));
    return o;
}

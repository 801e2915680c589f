/* stream_out.c — the NDJSON lines of `chidori run --stream` (see stream_out.h).
 *
 * Owns: the line format (one compact JSON object per line, every object's keys sorted, recursively)
 * and the lock that keeps lines whole. Trusts the values it is handed (the host's records and
 * events); the agent's text inside them is JSON-escaped, never written raw.
 */
#include "cli/stream_out.h"
#include "util/buf.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct stream_out {
    FILE *out;
    pthread_mutex_t mu;
};

stream_out *stream_out_new(FILE *out)
{
    stream_out *so = xcalloc(1, sizeof *so);
    so->out = out;
    pthread_mutex_init(&so->mu, NULL);
    return so;
}

void stream_out_free(stream_out *so)
{
    if (!so) return;
    pthread_mutex_destroy(&so->mu);
    free(so);
}

static void line(stream_out *so, const json_t *v)
{
    size_t len;
    char *text = json_dump_sorted(v, &len); /* sorted keys, as the original writes its events */
    pthread_mutex_lock(&so->mu);
    fwrite(text, 1, len, so->out);
    fputc('\n', so->out);
    fflush(so->out);
    pthread_mutex_unlock(&so->mu);
    free(text);
}

void stream_out_prompt_event(void *ctx, const json_t *event) { line(ctx, event); }

int stream_out_record(void *ctx, const json_t *record, char **error)
{
    (void)error;
    json_t *o = json_object();
    json_object_set(o, "type", json_string("call"));
    json_object_set(o, "record", json_copy(record));
    line(ctx, o);
    json_free(o);
    return 0;
}

void stream_out_done(stream_out *so, const char *status, const char *run_id, const json_t *output,
                     const json_t *pending, const char *error)
{
    json_t *o = json_object();
    json_object_set(o, "type", json_string("done"));
    json_object_set(o, "status", json_string(status));
    if (!strcmp(status, "failed")) {
        json_object_set(o, "error", json_string(error ? error : ""));
    } else {
        json_object_set(o, "run_id", json_string(run_id ? run_id : ""));
        if (!strcmp(status, "completed")) json_object_set(o, "output", output ? json_copy(output) : json_null());
        else json_object_set(o, "pending", pending ? json_copy(pending) : json_null());
        /* a signal pause: the names it listens to, as the original's `pending_signal` */
        const char *fn = json_string_value(json_object_get(pending, "function"));
        const json_t *args = json_object_get(pending, "args"), *names = json_object_get(args, "names");
        if (fn && (!strcmp(fn, "signal") || !strcmp(fn, "signal_any"))) {
            json_t *list = names ? json_copy(names) : json_array();
            if (!names) json_array_push(list, json_copy(json_object_get(args, "name")));
            json_object_set(o, "pending_signal", list);
        }
    }
    line(so, o);
    json_free(o);
}

/* ahead.c — replay ahead, the parent's side (see ahead.h). */
#include "isolate/ahead.h"
#include "util/buf.h"

#include <stdlib.h>
#include <string.h>

#define AHEAD_FIRST_BATCH 64
#define AHEAD_MAX_BATCH 4096
#define AHEAD_MAX_BYTES ((size_t)4 << 20) /* of one offer's JSON: well inside a frame's 64 MiB */

void ahead_start(ahead *a, bool enabled) { *a = (ahead){.batch = AHEAD_FIRST_BATCH, .enabled = enabled}; }

void ahead_end(ahead *a)
{
    free(a->queue);
    a->queue = NULL;
    a->len = a->next = 0;
}

char *ahead_expect(const ahead *a, const char *op)
{
    if (a->next >= a->len) return xstrdup("the worker sent a frame out of order: a call answered ahead that it was not offered");
    const char *want = a->queue[a->next].op;
    if (strcmp(want, op) != 0)
        return xasprintf("the worker sent a frame out of order: a call of `%.64s` answered ahead where it was offered "
                         "one of `%s`", op, want);
    return NULL;
}

bool ahead_trace(const ahead *a, const char *op)
{
    if (!a->enabled) return false;
    if (a->next < a->len && !strcmp(a->queue[a->next].op, op)) return false; /* the offer answers it */
    return host_op_is_trace(op);
}

char *ahead_trace_settle(host *h, const char *op, int rc, const json_t *result, const char *error)
{
    if (host_aborted(h)) return xstrdup(host_abort_reason(h)); /* a divergence, a full log, a cancel */
    if (rc == HOST_OK && result && result->type == JSON_NULL) return NULL;
    return xasprintf("the worker went on past a call of `%s` without its answer, but the host answered %s%.200s", op,
                     rc == HOST_ERROR ? "with an error: " : "otherwise", rc == HOST_ERROR && error ? error : "");
}

char *ahead_settle(ahead *a, host *h, uint64_t seq_before, int rc)
{
    const host_ahead_entry *e = &a->queue[a->next++];
    if (host_aborted(h)) return xstrdup(host_abort_reason(h)); /* a divergence, say: the run's own error */
    /* the record was consumed by this call (the next one is another), and answered as offered */
    if (seq_before != e->seq || host_replay_next_seq(h) == e->seq || (rc != HOST_OK && rc != HOST_ERROR) ||
        (rc == HOST_ERROR) != e->failed)
        return xasprintf("replay: the worker answered a call of `%s` ahead, but the host did not replay record %llu "
                         "with that answer", e->op, (unsigned long long)e->seq);
    return NULL;
}

/* Whether v is small enough for an offer to ride beside it: at most REPLY_SMALL_VALUES values and
 * about REPLY_SMALL_BYTES of text (an offer itself stays under 1 M values and 4 MiB, and a frame
 * may hold 2 M values and 64 MiB). */
#define REPLY_SMALL_VALUES ((size_t)1 << 18)
#define REPLY_SMALL_BYTES ((size_t)16 << 20)

static bool small(const json_t *v, size_t *values, size_t *bytes)
{
    if (!*values) return false;
    --*values;
    size_t b = v->type == JSON_STRING || v->type == JSON_RAW ? v->u.string.len * 6 + 2 : 32;
    if (b > *bytes) return false;
    *bytes -= b;
    if (v->type == JSON_ARRAY)
        for (size_t i = 0; i < v->u.array.len; i++)
            if (!small(v->u.array.items[i], values, bytes)) return false;
    if (v->type == JSON_OBJECT)
        for (size_t i = 0; i < v->u.object.len; i++) {
            if (v->u.object.items[i].key_len * 6 + 3 > *bytes) return false;
            *bytes -= v->u.object.items[i].key_len * 6 + 3;
            if (!small(v->u.object.items[i].value, values, bytes)) return false;
        }
    return true;
}

static bool reply_small(const json_t *result)
{
    size_t values = REPLY_SMALL_VALUES, bytes = REPLY_SMALL_BYTES;
    return !result || small(result, &values, &bytes);
}

json_t *ahead_offer(ahead *a, host *h, const json_t *answer)
{
    if (!a->enabled) return NULL;
    uint64_t next = host_replay_next_seq(h);
    bool left = a->next < a->len;
    if (left && next == a->queue[a->next].seq) return NULL; /* the worker's queue still holds */
    if (!left && !next) return NULL;                        /* nothing held, nothing to offer: a live call */
    if (!reply_small(answer)) { /* no new offer beside a large answer; a queue no longer right is still cleared */
        a->len = a->next = 0;
        return left ? json_array() : NULL;
    }
    if (left) a->batch = 1; /* dropped unused: one answer at a time until offers are used again
                               (a worker that never uses them costs the parent one record a call) */
    else if (a->len && a->batch < AHEAD_MAX_BATCH) a->batch *= 2; /* used up: offer more */
    a->len = a->next = 0;
    if (!next) return left ? json_array() : NULL; /* past the log: clear what the worker still holds */
    a->queue = xrealloc(a->queue, a->batch * sizeof *a->queue);
    buf text = {0};
    a->len = host_replay_ahead(h, a->batch, AHEAD_MAX_BYTES, &text, a->queue);
    if (!a->len) {
        free(text.data);
        return left ? json_array() : NULL;
    }
    return json_raw(text.data, text.len);
}

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

json_t *ahead_offer(ahead *a, host *h)
{
    if (!a->enabled) return NULL;
    uint64_t next = host_replay_next_seq(h);
    bool left = a->next < a->len;
    if (left && next == a->queue[a->next].seq) return NULL; /* the worker's queue still holds */
    if (left) a->batch = AHEAD_FIRST_BATCH;                  /* dropped unused: start small again */
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

/* replay_ahead.c — which recorded calls of a run may be answered ahead, and with what.
 *
 * An isolated run's replay is one round trip to the parent per recorded call. The parent offers
 * the worker the answers of the next records (isolate/ahead.h); the worker uses one only for a
 * call of the same op and sends the call on without waiting, and the parent then takes it through
 * host_call as always and ends the run unless it replayed the offered record. So this file decides
 * nothing about a call: it lists answers replay would give, from records alone. It stops at the first record
 * whose replay does more than answer (a nested run's op, a record that charges a nested run's ticks
 * or ends the run), at a record another op may consume (OP_TAKEN: step_begin takes `step` records,
 * and each such call would make the parent offer again), at a record of an op whose calls may be
 * refused before the log is read (op_def.validate), and at the end of the log, and keeps an offer
 * well inside a frame's limits.
 *
 * Trusts the loaded log (checked when it was loaded) and the op table.
 */
#include "host/host_internal.h"
#include "host/ops.h"
#include "host/record_form.h"
#include "util/buf.h"

#include <stdlib.h>
#include <string.h>

/* Depth and values left for the frame around the answers (protocol.h: depth 512, 2 M values). */
#define AHEAD_VALUE_MAX_DEPTH 256
#define AHEAD_MAX_VALUES ((size_t)1 << 20)

/* Whether v fits within depth levels and the values left (*values counts down). */
static bool fits(const json_t *v, int depth, size_t *values)
{
    if (depth <= 0 || !*values) return false;
    --*values;
    if (v->type == JSON_ARRAY)
        for (size_t i = 0; i < v->u.array.len; i++)
            if (!fits(v->u.array.items[i], depth - 1, values)) return false;
    if (v->type == JSON_OBJECT)
        for (size_t i = 0; i < v->u.object.len; i++)
            if (!fits(v->u.object.items[i].value, depth - 1, values)) return false;
    return true;
}

/* The record's own keys replay acts on beyond answering (host.c's replayed). */
static bool acts_on_replay(const call_record *rec)
{
    return rec->extra && (json_object_get(rec->extra, "tree_ticks") || json_object_get(rec->extra, "ends_run"));
}

size_t host_replay_ahead(host *h, size_t max_calls, size_t max_bytes, struct buf *out, host_ahead_entry *entries)
{
    if (h->aborted || h->pending || !max_calls || !calllog_peek(h->log, h->parent_seq)) return 0;
    const call_record **next = xmalloc(max_calls * sizeof *next);
    size_t n = calllog_upcoming(h->log, h->parent_seq, next, max_calls), taken = 0, values = AHEAD_MAX_VALUES;
    size_t start = out->len;
    buf_putc(out, '[');
    for (size_t i = 0; i < n; i++) {
        const call_record *rec = next[i];
        const op_def *op = host_op_find(rec->function, NULL);
        /* ops whose calls may be refused before the log is read (validate) are left to wait: a
         * refused call takes no record, so the worker could not tell which call the record answers */
        if (!op || !(op->flags & OP_RECORDED) || (op->flags & (OP_NESTS | OP_INTERNAL | OP_TAKEN)) || op->validate ||
            acts_on_replay(rec))
            break;
        /* the answer host.c's replay gives (host_recorded_outcome), written as its reply frame */
        json_t *made = NULL;
        const json_t *result = NULL;
        if (!rec->error) {
            result = op->record && !rec->legacy ? (made = op->record->decode(rec)) : rec->result;
            if (!fits(result, AHEAD_VALUE_MAX_DEPTH, &values)) {
                json_free(made);
                break;
            }
        }
        size_t at = out->len;
        if (taken) buf_putc(out, ',');
        buf_putc(out, '[');
        json_dump_string_into(out, rec->function, strlen(rec->function));
        buf_puts(out, rec->error ? ",{\"type\":\"reply\",\"err\":" : ",{\"type\":\"reply\",\"ok\":");
        if (rec->error) json_dump_string_into(out, rec->error, strlen(rec->error));
        else if (result) json_dump_into(out, result, JSON_COMPACT);
        else buf_puts(out, "null");
        buf_puts(out, "}]");
        json_free(made);
        if (out->len - start + 1 > max_bytes) {
            out->len = at;
            out->data[at] = 0;
            break;
        }
        entries[taken++] = (host_ahead_entry){.seq = rec->seq, .op = rec->function, .failed = rec->error != NULL};
    }
    free(next);
    if (!taken) {
        out->len = start;
        if (out->data) out->data[start] = 0;
        return 0;
    }
    buf_putc(out, ']');
    return taken;
}

uint64_t host_replay_next_seq(host *h)
{
    const call_record *rec = calllog_peek(h->log, h->parent_seq);
    return rec ? rec->seq : 0;
}

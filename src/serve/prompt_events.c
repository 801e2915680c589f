/* prompt_events.c — a session's prompt events for its streams (see prompt_events.h). Owns the
 * bounded buffer; trusts the host's events (host-side values, built by effects/prompt.c). */
#include "serve/prompt_events.h"
#include "util/buf.h"

#include <stdlib.h>
#include <string.h>

typedef struct pevent {
    const char *name; /* prompt_start, prompt_delta, prompt_end (static) */
    char *data;     /* compact JSON */
    size_t records; /* call records stored when it happened */
} pevent;

struct prompt_events {
    pevent *items;  /* a ring of cap entries; the kept ones are ids base .. next-1 */
    size_t cap;
    uint64_t base, next;
    size_t bytes;
};

prompt_events *prompt_events_new(void) { return xcalloc(1, sizeof(prompt_events)); }

static pevent *at(const prompt_events *pe, uint64_t id) { return &pe->items[id % pe->cap]; }

static void drop_oldest(prompt_events *pe)
{
    pevent *e = at(pe, pe->base++);
    pe->bytes -= strlen(e->data);
    free(e->data);
    memset(e, 0, sizeof *e);
}

void prompt_events_free(prompt_events *pe)
{
    if (!pe) return;
    while (pe->base < pe->next) drop_oldest(pe);
    free(pe->items);
    free(pe);
}

static void put_key(json_t *to, const json_t *from, const char *key)
{
    const json_t *v = json_object_get(from, key);
    if (v) json_object_set(to, key, json_copy(v));
}

void prompt_events_push(prompt_events *pe, const json_t *event, int64_t attempt, size_t records)
{
    static const char *const names[] = {"prompt_start", "prompt_delta", "prompt_end"};
    const char *type = json_string_value(json_object_get(event, "type")), *name = NULL;
    for (size_t i = 0; type && i < 3; i++)
        if (!strcmp(type, names[i])) name = names[i];
    if (!name) return;
    /* keys in byte order: attempt_number, delta | error | model, prompt_type, seq, stream_id */
    json_t *d = json_object();
    if (attempt >= 0) json_object_set(d, "attempt_number", json_number((double)attempt));
    put_key(d, event, "delta");
    put_key(d, event, "error");
    put_key(d, event, "model");
    put_key(d, event, "prompt_type");
    put_key(d, event, "seq");
    put_key(d, event, "stream_id");
    char *data = json_dump(d, JSON_COMPACT, NULL);
    json_free(d);
    size_t size = strlen(data);
    if (!pe->cap) {
        pe->cap = 64;
        pe->items = xcalloc(pe->cap, sizeof *pe->items);
    } else if (pe->next - pe->base == pe->cap && pe->cap < PROMPT_EVENTS_MAX_COUNT) {
        /* grow the ring: re-place the kept entries at their ids modulo the new size */
        size_t cap = pe->cap * 2;
        pevent *items = xcalloc(cap, sizeof *items);
        for (uint64_t id = pe->base; id < pe->next; id++) items[id % cap] = *at(pe, id);
        free(pe->items);
        pe->items = items;
        pe->cap = cap;
    }
    while (pe->base < pe->next && (pe->next - pe->base == pe->cap || pe->bytes + size > PROMPT_EVENTS_MAX_BYTES))
        drop_oldest(pe);
    pevent *e = at(pe, pe->next++);
    e->name = name;
    e->data = data;
    e->records = records;
    pe->bytes += size;
}

bool prompt_events_next(const prompt_events *pe, uint64_t *cursor, size_t records_sent, const char **event,
                        char **data)
{
    if (!pe) return false;
    if (*cursor < pe->base) *cursor = pe->base; /* dropped before this stream sent them */
    /* one placed before a record this stream has sent already came late (relayed by another node):
     * skipped, as an event is never sent after the record that follows it */
    while (*cursor < pe->next && at(pe, *cursor)->records < records_sent) (*cursor)++;
    if (*cursor >= pe->next) return false;
    const pevent *e = at(pe, *cursor);
    if (e->records > records_sent) return false; /* a record it follows is not sent yet */
    *event = e->name;
    *data = xstrdup(e->data);
    (*cursor)++;
    return true;
}

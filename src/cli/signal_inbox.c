/* signal_inbox.c — a CLI run's signal mailbox in its run folder (see signal_inbox.h).
 *
 * The file is a pretty JSON array of {name, payload, from, delivery_seq, enqueued_at, taken_by}
 * (taken_by: the seq of the call that took it, or null while it is queued), replaced atomically
 * and durably on every change. Trusts nothing in it: each entry is checked before it is used.
 */
#define _GNU_SOURCE
#include "cli/signal_inbox.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/files.h"
#include "util/rfc3339.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool seq_of(const json_t *v, uint64_t *seq)
{
    if (!v || v->type != JSON_NUMBER || !(v->u.number >= 1 && v->u.number <= 9007199254740991.0) ||
        v->u.number != (double)(uint64_t)v->u.number)
        return false;
    *seq = (uint64_t)v->u.number;
    return true;
}

/* The entries: an array (empty when there is no file), or NULL with *error. */
static json_t *load(const signal_inbox *in, char **error)
{
    size_t len = 0;
    char *why = NULL;
    if (access(in->path, F_OK) != 0 && errno == ENOENT) return json_array();
    char *text = read_regular_file_capped(in->path, SIGNAL_INBOX_MAX_BYTES, &len, &why);
    if (!text) {
        *error = xasprintf("the run's signal mailbox cannot be read: %s", why);
        free(why);
        return NULL;
    }
    json_error jerr;
    json_t *list = json_parse(text, len, NULL, &jerr);
    free(text);
    bool ok = json_is_array(list);
    for (size_t i = 0; ok && i < list->u.array.len; i++) {
        const json_t *e = list->u.array.items[i], *taken = json_object_get(e, "taken_by");
        uint64_t s;
        ok = json_is_object(e) && json_is_string(json_object_get(e, "name")) &&
             seq_of(json_object_get(e, "delivery_seq"), &s) && (!taken || taken->type == JSON_NULL || seq_of(taken, &s));
    }
    if (!ok) {
        json_free(list);
        *error = xasprintf("the run's signal mailbox %s is not a list of signals (%s); restore it from a backup or "
                           "remove it", in->path, list ? "an entry is malformed" : jerr.message);
        return NULL;
    }
    return list;
}

static int save(const signal_inbox *in, const json_t *list, char **error)
{
    size_t n;
    char *text = json_dump(list, JSON_PRETTY, &n);
    if (n > SIGNAL_INBOX_MAX_BYTES) { /* never a file load() refuses: the run could not go on */
        free(text);
        *error = xasprintf("the run's signal mailbox would grow past %zu bytes; nothing was changed (send a "
                           "smaller payload)", SIGNAL_INBOX_MAX_BYTES);
        return -1;
    }
    char *dir = xstrdup(in->path);
    char *slash = strrchr(dir, '/');
    if (slash) *slash = '\0', mkdir(dir, 0700);
    free(dir);
    char *why = NULL;
    int rc = write_file_atomic(in->path, text, n, true, &why);
    free(text);
    if (rc < 0) {
        *error = xasprintf("the run's signal mailbox cannot be written: %s", why);
        free(why);
    }
    return rc;
}

static json_t *signal_value(const json_t *e)
{
    json_t *v = json_object();
    json_object_set(v, "name", json_copy(json_object_get(e, "name")));
    const json_t *p = json_object_get(e, "payload"), *f = json_object_get(e, "from");
    json_object_set(v, "payload", p ? json_copy(p) : json_null());
    json_object_set(v, "from", f ? json_copy(f) : json_null());
    return v;
}

static bool taken_by(const json_t *e, uint64_t seq)
{
    uint64_t s;
    return seq_of(json_object_get(e, "taken_by"), &s) && s == seq;
}

static int take(void *ctx, uint64_t seq, const char *const *names, size_t n, json_t **signal, char **error)
{
    signal_inbox *in = ctx;
    json_t *list = load(in, error);
    if (!list) return -1;
    const json_t *best = NULL;
    uint64_t best_seq = 0;
    for (size_t i = 0; i < list->u.array.len; i++) {
        const json_t *e = list->u.array.items[i];
        if (taken_by(e, seq)) { /* handed to this call, or taken by it before a crash */
            *signal = signal_value(e);
            json_free(list);
            return 1;
        }
        const json_t *t = json_object_get(e, "taken_by");
        if (t && t->type != JSON_NULL) continue;
        const char *name = json_string_value(json_object_get(e, "name"));
        uint64_t d = 0;
        seq_of(json_object_get(e, "delivery_seq"), &d);
        for (size_t k = 0; k < n; k++)
            if (names[k] && !strcmp(names[k], name) && (!best || d < best_seq)) best = e, best_seq = d;
    }
    int rc = 0;
    if (best) {
        json_object_set((json_t *)best, "taken_by", json_number((double)seq));
        rc = save(in, list, error) < 0 ? -1 : 1;
        if (rc == 1) *signal = signal_value(best);
    }
    json_free(list);
    return rc;
}

void signal_inbox_init(signal_inbox *in, const char *run_dir)
{
    in->path = xasprintf("%s/signals/inbox.json", run_dir);
    in->box.take = take;
    in->box.ctx = in;
}

void signal_inbox_clear(signal_inbox *in)
{
    free(in->path);
    memset(in, 0, sizeof *in);
}

/* Drop the entries handed to seq from list. */
static void drop_handed(json_t *list, uint64_t seq)
{
    size_t w = 0;
    for (size_t i = 0; i < list->u.array.len; i++) {
        json_t *e = list->u.array.items[i];
        if (taken_by(e, seq)) json_free(e);
        else list->u.array.items[w++] = e;
    }
    list->u.array.len = w;
}

int signal_inbox_hand(signal_inbox *in, uint64_t seq, const char *name, const json_t *payload, const json_t *from,
                      char **error)
{
    json_t *list = load(in, error);
    if (!list) return -1;
    drop_handed(list, seq);
    uint64_t next = 1;
    for (size_t i = 0; i < list->u.array.len; i++) {
        uint64_t d = 0;
        if (seq_of(json_object_get(list->u.array.items[i], "delivery_seq"), &d) && d >= next) next = d + 1;
    }
    char when[RFC3339_MAX];
    rfc3339_format_ms(clock_realtime_ms(), when);
    json_t *e = json_object();
    json_object_set(e, "name", json_string(name));
    json_object_set(e, "payload", payload ? json_copy(payload) : json_null());
    json_object_set(e, "from", from ? json_copy(from) : json_null());
    json_object_set(e, "delivery_seq", json_number((double)next));
    json_object_set(e, "enqueued_at", json_string(when));
    json_object_set(e, "taken_by", json_number((double)seq));
    json_array_push(list, e);
    int rc = save(in, list, error);
    json_free(list);
    return rc;
}

void signal_inbox_unhand(signal_inbox *in, uint64_t seq)
{
    char *error = NULL;
    json_t *list = load(in, &error);
    if (list) {
        drop_handed(list, seq);
        if (save(in, list, &error) < 0) list = (json_free(list), NULL);
        else json_free(list);
    }
    if (error) {
        fprintf(stderr, "chidori: %s\n", error);
        free(error);
    }
}

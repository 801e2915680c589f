/* effects/signal.c — chidori.signal, chidori.pollSignal and chidori.alarm: waiting for something
 * the outside world sends to this run by name.
 *
 * Ops (docs/effects.md#signals):
 *   `signal`      {name, timeout_ms?}   → {name, payload, from}, or the timeout sentinel
 *   `signal_any`  {names, timeout_ms?}  → the same, `name` saying which one came
 *   `poll_signal` {name}                → the signal, or null; never waits
 * Each is recorded as the original chidori records it: args {name} or {names} only (the timeout
 * is not part of the match key), the result as the agent saw it. A call first asks the run's
 * mailbox (host_config.signals: the server's database, the CLI's run folder) for a queued signal
 * of a name it listens to; when there is none, `signal` and `signal_any` pause the run
 * (HOST_SUSPEND) and the pending call keeps the listen set and timeout_ms, which is what the
 * server's deadline timers and `chidori resume --signal` read. Whoever resumes the run hands the
 * signal (or the sentinel) to the pending seq in the mailbox first, and the call, performed again
 * at that seq, takes it: so the ops are not OP_ANSWERABLE (a text answer to them is refused) but
 * OP_WAKEABLE (a parked run, host_config.park, performs the call again once it was handed one).
 * Signals are not gated (as in the original). Inside an actor a listen point reads the actor's
 * mailbox instead and blocks in place (effects/actors.c, actors_listen); a branch starts with an
 * empty inbox of its own (its signal pauses the branch); signal_take_queued lets the run's own
 * chidori.receive take what is queued for the run.
 *
 * Trusts nothing in args: names are checked (non-empty strings, capped in length and number).
 */
#include "host/host_internal.h"
#include "host/ops.h"
#include "host/effects/actors_listen.h"
#include "host/member.h"
#include "host/record_form.h"
#include "util/buf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SIGNAL_NAME_MAX 256   /* bytes in one name */
#define SIGNAL_NAMES_MAX 64   /* names one signal_any listens to */
#define SIGNAL_TIMEOUT_MAX_MS 31536000000000.0 /* a thousand years: past it, a deadline means nothing */

/* No NUL: both mailboxes compare names as C strings (`a\0b` would take `a`'s signals, `\0` the
 * timeout sentinels kept under the empty name), and a sender's name may hold none either. */
static bool name_ok(const json_t *v)
{
    return json_is_string(v) && v->u.string.len && v->u.string.len <= SIGNAL_NAME_MAX &&
           strlen(v->u.string.bytes) == v->u.string.len;
}

/* {name} or {names}, and timeout_ms when the agent gave a positive whole number of ms. */
static json_t *signal_prepare(const json_t *args, char **error)
{
    const json_t *name = json_object_get(args, "name"), *names = json_object_get(args, "names");
    json_t *out = json_object();
    if (names) {
        if (!json_is_array(names) || names->u.array.len == 0 || names->u.array.len > SIGNAL_NAMES_MAX) {
            *error = xasprintf("chidori.signal: a list of names must hold 1 to %d names", SIGNAL_NAMES_MAX);
            goto bad;
        }
        for (size_t i = 0; i < names->u.array.len; i++)
            if (!name_ok(names->u.array.items[i])) {
                *error = xasprintf("chidori.signal: every name must be a non-empty string of at most %d bytes, "
                                   "without NUL characters", SIGNAL_NAME_MAX);
                goto bad;
            }
        json_object_set(out, "names", json_copy(names));
    } else {
        if (!name_ok(name)) {
            *error = xasprintf("chidori.signal: the name must be a non-empty string of at most %d bytes, "
                               "without NUL characters", SIGNAL_NAME_MAX);
            goto bad;
        }
        json_object_set(out, "name", json_copy(name));
    }
    const json_t *t = json_object_get(args, "timeout_ms");
    if (t && t->type == JSON_NUMBER && t->u.number >= 1 && t->u.number <= SIGNAL_TIMEOUT_MAX_MS &&
        t->u.number == floor(t->u.number))
        json_object_set(out, "timeout_ms", json_number(t->u.number));
    return out;
bad:
    json_free(out);
    return NULL;
}

/* The names a call listens to, borrowed from its (prepared) args. */
static size_t listen_set(const json_t *args, const char **names)
{
    const json_t *list = json_object_get(args, "names");
    if (!list) {
        names[0] = json_string_value(json_object_get(args, "name"));
        return names[0] ? 1 : 0;
    }
    size_t n = 0;
    for (size_t i = 0; i < list->u.array.len && i < SIGNAL_NAMES_MAX; i++)
        names[n++] = json_string_value(list->u.array.items[i]);
    return n;
}

extern const effect_module signal_module; /* defined at the end of this file */

static int signal_init(host *h, const host_config *cfg, void **state, char **error)
{
    (void)error;
    /* borrowed: the caller keeps it for the run. A member (a branch, an actor) starts with an
     * empty inbox of its own, as in the original: it never takes the run's signals (an actor
     * listens on its mailbox instead, a branch pauses). */
    *state = host_is_member(h) ? NULL : (void *)cfg->signals;
    return 0;
}

static int from_box(host *h, const json_t *args, json_t **result, char **error)
{
    const host_signal_box *box = host_module_state(h, &signal_module);
    if (!box || !box->take) return 0;
    const char *names[SIGNAL_NAMES_MAX];
    size_t n = listen_set(args, names);
    json_t *got = NULL;
    int rc = box->take(box->ctx, h->call_seq, names, n, &got, error);
    if (rc < 0) {
        if (!*error) *error = xstrdup("chidori.signal: the run's mailbox cannot be read");
        return -1;
    }
    if (rc == 0) return 0;
    *result = got;
    return 1;
}

int signal_take_queued(host *h, const json_t *names, json_t **signal, char **error)
{
    const host_signal_box *box = host_module_state(h, &signal_module);
    if (!box || !box->take || !json_is_array(names)) return 0;
    const char *list[SIGNAL_NAMES_MAX];
    size_t n = 0;
    for (size_t i = 0; i < names->u.array.len && n < SIGNAL_NAMES_MAX; i++) list[n++] = json_string_value(names->u.array.items[i]);
    int rc = box->take(box->ctx, h->call_seq, list, n, signal, error);
    if (rc < 0 && !*error) *error = xstrdup("chidori.receive: the run's mailbox cannot be read");
    return rc < 0 ? -1 : rc > 0;
}

/* Inside an actor, a listen point reads the actor's mailbox (effects/actors.c). */
static int in_actor(host *h, const json_t *args, bool poll, json_t **result, char **error)
{
    const json_t *names = json_object_get(args, "names");
    json_t *one = NULL;
    if (!names) {
        one = json_array();
        json_array_push(one, json_copy(json_object_get(args, "name")));
    }
    const json_t *t = json_object_get(args, "timeout_ms");
    uint64_t timeout = t ? (uint64_t)json_number_value(t) : 0;
    int rc = actors_listen(h, names ? names : one, timeout, poll, names != NULL, result, error);
    json_free(one);
    return rc;
}

static int effect_signal(host *h, const json_t *args, json_t **result, char **error)
{
    int rc = in_actor(h, args, false, result, error);
    if (rc != ACTORS_NOT_AN_ACTOR) return rc;
    rc = from_box(h, args, result, error);
    if (rc < 0) return HOST_ERROR;
    return rc ? HOST_OK : HOST_SUSPEND;
}

static int effect_poll_signal(host *h, const json_t *args, json_t **result, char **error)
{
    int rc = in_actor(h, args, true, result, error);
    if (rc != ACTORS_NOT_AN_ACTOR) return rc;
    rc = from_box(h, args, result, error);
    if (rc < 0) return HOST_ERROR;
    if (rc == 0) *result = json_null();
    return HOST_OK;
}

/* ---------- the record: the original's shape ---------- */

static void signal_encode(const json_t *args, const json_t *result, json_t **rec_args, json_t **rec_result,
                          json_t **token_usage, json_t **extra)
{
    (void)token_usage, (void)extra;
    json_t *a = json_object();
    const json_t *names = json_object_get(args, "names");
    if (names) json_object_set(a, "names", json_copy(names));
    else json_object_set(a, "name", json_copy(json_object_get(args, "name")));
    *rec_args = a;
    *rec_result = result ? json_copy(result) : NULL;
}

static bool signal_matches(const call_record *rec, const json_t *args)
{
    const json_t *names = json_object_get(args, "names");
    const json_t *ours = names ? names : json_object_get(args, "name");
    const json_t *theirs = json_object_get(call_record_args(rec), names ? "names" : "name");
    return theirs && json_equal(theirs, ours);
}

static json_t *signal_decode(const call_record *rec) { return json_copy(rec->result); }

static const record_form signal_record_form = {
    .encode = signal_encode,
    .matches = signal_matches,
    .decode = signal_decode,
};

static const op_def signal_ops[] = {
    {.name = "signal", .flags = OP_RECORDED | OP_WAKEABLE, .perform = effect_signal, .prepare = signal_prepare,
     .record = &signal_record_form},
    {.name = "signal_any", .flags = OP_RECORDED | OP_WAKEABLE, .perform = effect_signal, .prepare = signal_prepare,
     .record = &signal_record_form},
    {.name = "poll_signal", .flags = OP_RECORDED, .perform = effect_poll_signal, .prepare = signal_prepare,
     .record = &signal_record_form},
    {0},
};

const effect_module signal_module = {.name = "signal", .ops = signal_ops, .init = signal_init};

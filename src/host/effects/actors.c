/* effects/actors.c — chidori.actors.* and chidori.receive: supervised, long-lived sub-runs of
 * modules of the agent's folder that talk by messages (docs/effects.md#actors).
 *
 * Owns the run's actor hub: every actor of the run's tree (pid `actor-<n>` in spawn order, its
 * reserved seq range, its owner, its registered name, its mailbox, its lifecycle, its outcome),
 * the name registry and the run's own "parent" mailbox. The hub is made by the run's host (module
 * state) and reached by each actor's host through the member's user pointer (host/member.h); it
 * is freed with the run's host, after every actor has been stopped and its threads joined.
 *
 * Each actor has a supervisor thread that runs its iterations as members (one engine each, its own
 * worker when the run is isolated): an iteration that fails is run again under the restart
 * strategy (`clean`: from nothing, its children reaped; `resume`: its records replayed with the
 * crash frontier cut off), up to maxRestarts, after backoffMs doubling. When it settles it stops
 * its own live children, tells its owner `__chidori.down__` when it failed or paused, and goes
 * terminal. Its owner's join (or stop) merges the final iteration's records into the owner's log
 * (top-level records under the join's seq), so a replay answers the join from the log and absorbs
 * the whole subtree: nothing runs again. Records of an actor never joined are discarded.
 *
 * An actor's listen points (chidori.signal / pollSignal / alarm, effects/signal.c through
 * actors_listen) read its mailbox like its receive; the run's own receive reads the run's signal
 * inbox first (signal_take_queued). A spawn's intercept narrows the child (model, registry tools,
 * workspace root), applied to each of its iterations through the member spec.
 *
 * Every actor call is one record in the calling run's log (op names, args and results of the
 * original's spec §7.1, errors of §7.2). Scheduling while live is not deterministic (threads, a
 * wall clock for every timeout); the log is what makes a replay deterministic.
 *
 * Locking: one mutex per hub guards everything in it, one condition variable is broadcast on any
 * change (at most 128 actors); waits are sliced so a stop or a cancelled run is seen within
 * WAIT_SLICE_MS. A member is stopped (host_members.stop) while the lock is held: its on_stop hook
 * only broadcasts, and takes no lock.
 *
 * Each iteration of an actor is a member of the run's tree budget (runner/tree_budget.h), at its
 * depth in the actor tree: admitted or refused, granted what is left, metered. Once the tree has
 * ended every actor call fails with its message and ends the run (tree_gate: `ends_run`).
 *
 * Trusts nothing in args (guest code): they are checked and put in their one form before they
 * reach here (effects/actors_args.c). Records merged at join come from our own hosts, and are
 * checked against the actor's range by host_member_merge anyway.
 */
#define _GNU_SOURCE
#include "host/host_internal.h"
#include "host/member.h"
#include "host/ops.h"
#include "host/effects/actors_args.h"
#include "host/effects/actors_listen.h"
#include "util/buf.h"
#include "util/clock.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_ACTORS 128
#define TOP_RANGE_WIDTH 1000000000000ull /* 10^12: children 10^9, grandchildren 10^6 */
#define RANGE_SUBDIVISION 1000ull
#define MIN_RANGE_WIDTH 1000ull
#define WAIT_SLICE_MS 100
#define BOX_POLL_MS 500 /* how often a waiting run-level receive asks the run's signal inbox again */
#define DOWN_MESSAGE "__chidori.down__"
#define ACTOR_MAGIC 0xAC7042u
/* One mailbox (an actor's, or the run's): a send past either is refused. Host memory the
 * engines' heap limits do not see, filled by other actors' sends. */
#define MAILBOX_MAX_MESSAGES 10000u
#define MAILBOX_MAX_BYTES ((size_t)64 << 20)

enum lifecycle { LIFE_RUNNING, LIFE_WAITING, LIFE_TERMINAL };

typedef struct actor_hub actor_hub;

typedef struct actor {
    uint32_t magic; /* ACTOR_MAGIC: a member's user pointer is an actor (branch members have none) */
    actor_hub *hub;
    char *pid, *name;     /* name: registered, or NULL */
    struct actor *owner;  /* NULL: the run */
    char *source, *input_json;
    int restart;
    uint64_t max_restarts, backoff_ms, idle_timeout_ms;
    uint64_t lo, hi;      /* its seqs: [lo, hi) */
    int tree_depth;       /* its depth in the run's tree budget (the runner admits each iteration there) */
    uint64_t child_width, child_cursor;
    json_t *vfs, *approvals;
    char *model, *ws_root; /* its intercept (inherited, then narrowed), or NULL: the run's */
    json_t *tools;
    const host_members *ops;
    uint64_t salt;
    pthread_t thread;
    bool thread_started, thread_claimed;
    /* under hub->mu */
    json_t *mailbox; /* [{name, payload, from, d}] d = delivery order */
    uint64_t next_delivery;
    int life;
    json_t *waiting_for;
    bool stop_requested;
    uint64_t restarts;
    host_member *member; /* the iteration running now */
    json_t *outcome;     /* once terminal: {pid, status, output?, error?, pendingPrompt?, restarts} */
    json_t *records;     /* once terminal: the final iteration's records */
    size_t live_calls;
    json_t *settled;     /* once joined (or reaped): what a join answers again */
} actor;

struct actor_hub {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    actor **actors; /* every actor of the run, in spawn order */
    size_t n, cap;
    json_t *names;  /* registered name (or a recorded pid re-created) -> live pid */
    json_t *parent_mailbox;
    uint64_t parent_next_delivery;
    uint64_t next_index, range_cursor;
    size_t spawned_total;
};

/* One host's view: the run's host owns the hub; an actor's host points to it and to itself; a
 * branch's host has none (actors are refused there). */
typedef struct actors_state {
    actor_hub *hub;
    bool owns;
    actor *self;
    bool in_branch;
    bool recorded_checked; /* ensure_recorded_live has run */
} actors_state;

const effect_module actors_module;

static actors_state *state_of(host *h) { return host_module_state(h, &actors_module); }

bool actors_in_branch(host *h)
{
    actors_state *st = state_of(h);
    return st && st->in_branch;
}

const char *actors_self_pid(host *h)
{
    actors_state *st = state_of(h);
    return st && st->self ? st->self->pid : NULL;
}

/* ---------- small helpers ---------- */

static bool cancelled(const host *h) { return h->cancel && atomic_load(h->cancel); }
static bool member_told_to_stop(const host *h) { return h->member_stop && atomic_load(h->member_stop); }

static void wait_slice(actor_hub *hub, int64_t left_ms)
{
    int64_t ms = left_ms >= 0 && left_ms < WAIT_SLICE_MS ? left_ms : WAIT_SLICE_MS;
    if (ms < 1) ms = 1;
    struct timespec until = clock_monotonic_after_ms(ms);
    pthread_cond_timedwait(&hub->cv, &hub->mu, &until);
}

/* The bytes a message stands for in its mailbox (its name, payload and from, serialized). */
static size_t message_bytes(const char *name, const json_t *payload, const json_t *from)
{
    size_t n = strlen(name) + 64, k = 0;
    char *t = payload ? json_dump(payload, JSON_COMPACT, &k) : NULL;
    free(t);
    n += k, k = 0;
    t = from ? json_dump(from, JSON_COMPACT, &k) : NULL;
    free(t);
    return n + k;
}

/* A send that would overfill mailbox (under mu): the error, else NULL. */
static char *mailbox_full(const json_t *mailbox, const char *whose, size_t add)
{
    size_t held = 0;
    for (size_t i = 0; i < mailbox->u.array.len; i++)
        held += (size_t)json_number_value(json_object_get(mailbox->u.array.items[i], "b"));
    if (mailbox->u.array.len < MAILBOX_MAX_MESSAGES && held + add <= MAILBOX_MAX_BYTES) return NULL;
    return xasprintf("chidori.actors.send: the mailbox of %s is full (%zu messages, %zu bytes queued; at most %u "
                     "messages and %zu bytes): the receiver is not taking them; receive them, or send less",
                     whose, mailbox->u.array.len, held, MAILBOX_MAX_MESSAGES, MAILBOX_MAX_BYTES);
}

static void deliver(actor_hub *hub, json_t *mailbox, uint64_t *next, const char *name, const json_t *payload,
                    const json_t *from)
{
    json_t *m = json_object();
    json_object_set(m, "b", json_number((double)message_bytes(name, payload, from)));
    json_object_set(m, "name", json_string(name));
    json_object_set(m, "payload", payload ? json_copy(payload) : json_null());
    json_object_set(m, "from", from ? json_copy(from) : json_null());
    json_object_set(m, "d", json_number((double)++*next));
    json_array_push(mailbox, m);
    pthread_cond_broadcast(&hub->cv);
}

static bool names_have(const json_t *names, const char *n)
{
    for (size_t i = 0; i < names->u.array.len; i++)
        if (!strcmp(json_string_value(names->u.array.items[i]), n)) return true;
    return false;
}

/* Take the earliest message whose name is in names ({name, payload, from}), or NULL. */
static json_t *take_message(json_t *mailbox, const json_t *names)
{
    size_t best = (size_t)-1;
    double best_d = 0;
    for (size_t i = 0; i < mailbox->u.array.len; i++) {
        const json_t *m = mailbox->u.array.items[i];
        if (!names_have(names, json_string_value(json_object_get(m, "name")))) continue;
        double d = json_number_value(json_object_get(m, "d"));
        if (best == (size_t)-1 || d < best_d) best = i, best_d = d;
    }
    if (best == (size_t)-1) return NULL;
    json_t *m = mailbox->u.array.items[best];
    memmove(mailbox->u.array.items + best, mailbox->u.array.items + best + 1,
            (mailbox->u.array.len - best - 1) * sizeof(json_t *));
    mailbox->u.array.len--;
    json_t *out = json_object();
    json_object_set(out, "name", json_copy(json_object_get(m, "name")));
    json_object_set(out, "payload", json_copy(json_object_get(m, "payload")));
    json_object_set(out, "from", json_copy(json_object_get(m, "from")));
    json_free(m);
    return out;
}

static json_t *timeout_sentinel(const json_t *names)
{
    json_t *s = json_object();
    json_object_set(s, "name", names->u.array.len == 1 ? json_copy(names->u.array.items[0]) : json_null());
    json_object_set(s, "payload", json_null());
    json_object_set(s, "from", json_null());
    json_object_set(s, "timedOut", json_bool(true));
    return s;
}

static const char *status_word(const actor *a)
{
    if (a->life == LIFE_TERMINAL) return json_string_value(json_object_get(a->outcome, "status"));
    return a->life == LIFE_WAITING ? "waiting" : "running";
}

/* under mu */
static actor *find_pid(actor_hub *hub, const char *pid)
{
    for (size_t i = 0; i < hub->n; i++)
        if (!strcmp(hub->actors[i]->pid, pid)) return hub->actors[i];
    return NULL;
}

/* A pid, a registered name, or a recorded pid re-created under a new one (under mu). */
static actor *resolve(actor_hub *hub, const char *target)
{
    actor *a = find_pid(hub, target);
    if (a) return a;
    const char *pid = json_string_value(json_object_get(hub->names, target));
    return pid ? find_pid(hub, pid) : NULL;
}

/* Ask a to stop (under mu): its mailbox waits see it, its running iteration is stopped. */
static void request_stop(actor *a)
{
    a->stop_requested = true;
    if (a->member) a->ops->stop(a->member);
    pthread_cond_broadcast(&a->hub->cv);
}

/* Wait (under mu) until a is terminal or timeout_ms passed (0: no limit). */
static bool wait_terminal(actor *a, uint64_t timeout_ms)
{
    int64_t end = timeout_ms ? clock_monotonic_ms() + (int64_t)timeout_ms : 0;
    while (a->life != LIFE_TERMINAL) {
        int64_t left = timeout_ms ? end - clock_monotonic_ms() : WAIT_SLICE_MS;
        if (left <= 0) return false;
        wait_slice(a->hub, left);
    }
    return true;
}

/* Join a's supervisor thread once (under mu on entry and exit; a is terminal). */
static void claim_thread(actor *a)
{
    if (!a->thread_started || a->thread_claimed) return;
    a->thread_claimed = true;
    pthread_mutex_unlock(&a->hub->mu);
    pthread_join(a->thread, NULL);
    pthread_mutex_lock(&a->hub->mu);
}

static void release_name(actor_hub *hub, actor *a)
{
    if (!a->name) return;
    const char *pid = json_string_value(json_object_get(hub->names, a->name));
    if (!pid || strcmp(pid, a->pid)) return;
    for (size_t i = 0; i < hub->names->u.object.len; i++) /* remove by rebuilding: names are few */
        if (!strcmp(hub->names->u.object.items[i].key, a->name)) {
            json_t *copy = json_object();
            for (size_t j = 0; j < hub->names->u.object.len; j++)
                if (j != i) json_object_set(copy, hub->names->u.object.items[j].key, json_copy(hub->names->u.object.items[j].value));
            json_free(hub->names);
            hub->names = copy;
            return;
        }
}

/* Stop owner's live children, wait for them, and settle them `stopped` (their records are
 * discarded: never joined). Grandchildren go first, each child's supervisor reaping its own. */
static void reap_children(actor_hub *hub, actor *owner)
{
    pthread_mutex_lock(&hub->mu);
    for (size_t i = 0; i < hub->n; i++) {
        actor *c = hub->actors[i];
        if (c->owner == owner && !c->settled && c->life != LIFE_TERMINAL) request_stop(c);
    }
    for (size_t i = 0; i < hub->n; i++) {
        actor *c = hub->actors[i];
        if (c->owner != owner || c->settled) continue;
        wait_terminal(c, 0);
        claim_thread(c);
        release_name(hub, c);
        json_t *s = json_object();
        json_object_set(s, "pid", json_string(c->pid));
        json_object_set(s, "status", json_string("stopped"));
        json_object_set(s, "restarts", json_number((double)c->restarts));
        c->settled = s;
    }
    pthread_mutex_unlock(&hub->mu);
}

/* ---------- the supervision loop of one actor (its own thread) ---------- */

static void actor_on_stop(void *user)
{
    actor *a = user;
    pthread_cond_broadcast(&a->hub->cv); /* no lock: request_stop calls this holding it */
}

/* The trailing failed records, and transitively their nested records, cut off (resume). */
static json_t *strip_crash_frontier(const json_t *records)
{
    size_t n = records->u.array.len;
    uint64_t *cut = xcalloc(n + 1, sizeof *cut);
    size_t n_cut = 0;
    while (n > 0 && json_object_get(records->u.array.items[n - 1], "error")) {
        cut[n_cut++] = (uint64_t)json_number_value(json_object_get(records->u.array.items[n - 1], "seq"));
        n--;
    }
    bool *drop = xcalloc(n + 1, sizeof *drop);
    for (bool more = n_cut > 0; more;) { /* children settle before their parent: to a fixpoint */
        more = false;
        for (size_t i = 0; i < n; i++) {
            if (drop[i]) continue;
            const json_t *p = json_object_get(records->u.array.items[i], "parent_seq");
            if (!p) continue;
            uint64_t ps = (uint64_t)json_number_value(p);
            for (size_t k = 0; k < n_cut; k++)
                if (cut[k] == ps) {
                    drop[i] = true;
                    cut = xrealloc(cut, (n_cut + 2) * sizeof *cut);
                    cut[n_cut++] = (uint64_t)json_number_value(json_object_get(records->u.array.items[i], "seq"));
                    more = true;
                    break;
                }
        }
    }
    json_t *out = json_array();
    for (size_t i = 0; i < n; i++)
        if (!drop[i]) json_array_push(out, json_copy(records->u.array.items[i]));
    free(cut);
    free(drop);
    return out;
}

/* The words of a paused iteration: its own, or for a receive parked by the idle cap, the names. */
static char *paused_words(const host_member_outcome *o)
{
    const char *fn = json_string_value(json_object_get(o->pending, "function"));
    if (fn && !strcmp(fn, "receive") && !o->pending_approval) {
        const json_t *names = json_object_get(json_object_get(o->pending, "args"), "names");
        buf b = {0};
        buf_puts(&b, "waiting on signal: ");
        for (size_t i = 0; json_is_array(names) && i < names->u.array.len; i++)
            buf_printf(&b, "%s%s", i ? ", " : "", json_string_value(names->u.array.items[i]) ? json_string_value(names->u.array.items[i]) : "?");
        return buf_steal(&b);
    }
    return xstrdup(o->pending_prompt ? o->pending_prompt : "");
}

static void *supervise(void *arg)
{
    actor *a = arg;
    actor_hub *hub = a->hub;
    json_t *history = json_array();
    const char *status = "failed";
    json_t *output = NULL;
    char *error = NULL, *prompt = NULL;
    size_t live = 0;
    for (;;) {
        pthread_mutex_lock(&hub->mu);
        bool stop = a->stop_requested;
        pthread_mutex_unlock(&hub->mu);
        if (stop) {
            status = "stopped";
            break;
        }
        host_member_spec spec = {
            .entry = a->source,
            .input_json = a->input_json,
            .anchor_seq = 0, /* its top-level records have no parent until its join adopts them */
            .seq_base = a->lo - 1,
            .seq_end = a->hi,
            .vfs_seed = a->vfs,
            .records = history->u.array.len ? history : NULL,
            .approvals = a->approvals,
            .default_model = a->model,
            .tool_allow = a->tools,
            .workspace_root = a->ws_root,
            .salt = a->salt * 1024 + a->restarts,
            .user = a,
            .on_stop = actor_on_stop,
            .tree_depth = a->tree_depth,
        };
        char *why = NULL;
        host_member *m = a->ops->start(a->ops->ctx, NULL, &spec, &why);
        if (!m) {
            error = why ? why : xstrdup("the actor could not start");
            break;
        }
        pthread_mutex_lock(&hub->mu);
        a->member = m;
        if (a->stop_requested) a->ops->stop(m);
        pthread_mutex_unlock(&hub->mu);
        a->ops->wait(m, -1);
        const host_member_outcome *o = a->ops->outcome(m);
        pthread_mutex_lock(&hub->mu);
        a->member = NULL;
        stop = a->stop_requested;
        pthread_mutex_unlock(&hub->mu);
        for (size_t i = 0; o->records && i < o->records->u.array.len; i++)
            json_array_push(history, json_copy(o->records->u.array.items[i]));
        live += o->live_calls;
        bool again = false;
        if (o->status == MEMBER_COMPLETED && !stop) {
            json_error jerr;
            output = json_parse(o->output_json, strlen(o->output_json), NULL, &jerr);
            if (output) status = "completed";
            else error = xasprintf("the actor's output is not JSON (%s)", jerr.message);
        } else if (o->status == MEMBER_PAUSED && !stop) {
            status = "paused";
            prompt = paused_words(o);
        } else if (o->status == MEMBER_STOPPED || stop) {
            status = "stopped";
        } else if (a->restart != RESTART_NEVER && a->restarts < a->max_restarts) {
            again = true;
        } else {
            error = xstrdup(o->error ? o->error : "the actor failed");
        }
        a->ops->free(m);
        if (!again) break;
        pthread_mutex_lock(&hub->mu);
        a->restarts++;
        if (a->backoff_ms) { /* backoffMs * 2^(n-1), the exponent capped at 16; a stop cuts it short */
            unsigned shift = a->restarts - 1 < 16 ? (unsigned)(a->restarts - 1) : 16;
            uint64_t ms = a->backoff_ms > (UINT64_MAX >> 17) ? UINT64_MAX >> 17 : a->backoff_ms << shift;
            int64_t end = clock_monotonic_ms() + (int64_t)(ms > (uint64_t)INT64_MAX / 4 ? (uint64_t)INT64_MAX / 4 : ms);
            while (!a->stop_requested) {
                int64_t left = end - clock_monotonic_ms();
                if (left <= 0) break;
                wait_slice(hub, left);
            }
        }
        pthread_mutex_unlock(&hub->mu);
        if (a->restart == RESTART_CLEAN) {
            reap_children(hub, a); /* the discarded attempt's children, and their names */
            json_free(history);
            history = json_array();
        } else {
            json_t *kept = strip_crash_frontier(history);
            json_free(history);
            history = kept;
        }
    }
    reap_children(hub, a); /* no child outlives its supervisor */
    json_t *out = json_object();
    json_object_set(out, "pid", json_string(a->pid));
    json_object_set(out, "status", json_string(status));
    if (output) json_object_set(out, "output", output);
    if (error) json_object_set(out, "error", json_string(error));
    if (prompt) json_object_set(out, "pendingPrompt", json_string(prompt));
    pthread_mutex_lock(&hub->mu);
    json_object_set(out, "restarts", json_number((double)a->restarts));
    if (!strcmp(status, "failed") || !strcmp(status, "paused")) {
        /* the monitor message, before the terminal state: a receive that fails once every actor
         * has settled cannot miss it */
        json_t *payload = json_object(), *from = json_object();
        json_object_set(payload, "pid", json_string(a->pid));
        json_object_set(payload, "name", a->name ? json_string(a->name) : json_null());
        json_object_set(payload, "status", json_string(status));
        json_object_set(payload, "error", error ? json_string(error) : json_null());
        json_object_set(payload, "pendingPrompt", prompt ? json_string(prompt) : json_null());
        json_object_set(payload, "restarts", json_number((double)a->restarts));
        json_object_set(from, "kind", json_string("agent"));
        json_object_set(from, "id", json_string(a->pid));
        if (a->owner) deliver(hub, a->owner->mailbox, &a->owner->next_delivery, DOWN_MESSAGE, payload, from);
        else deliver(hub, hub->parent_mailbox, &hub->parent_next_delivery, DOWN_MESSAGE, payload, from);
        json_free(payload);
        json_free(from);
    }
    a->outcome = out;
    a->records = history;
    a->live_calls = live;
    a->life = LIFE_TERMINAL;
    pthread_cond_broadcast(&hub->cv);
    pthread_mutex_unlock(&hub->mu);
    free(error);
    free(prompt);
    return NULL;
}

/* ---------- starting an actor ---------- */

/* What an intercept narrows, from what the spawner holds (owner: NULL for the run): a child never
 * widens. model: its own, else its spawner's. tools: its list intersected with its spawner's (when
 * the spawner has one). ws_root: the spawner's workspace root joined with the subpath, opened
 * beneath it (no `..`, no symlink out) and named by its real path. 0, or -1 with *error. */
static int narrow(host *h, const actor *owner, const json_t *intercept, char **model, json_t **tools, char **ws_root,
                  char **error)
{
    const char *m = json_string_value(json_object_get(intercept, "model"));
    *model = m ? xstrdup(m) : owner && owner->model ? xstrdup(owner->model) : NULL;
    const json_t *t = json_object_get(intercept, "tools");
    if (json_is_array(t)) {
        json_t *kept = json_array();
        for (size_t i = 0; i < t->u.array.len; i++) {
            const json_t *name = t->u.array.items[i];
            bool held = !owner || !owner->tools;
            for (size_t k = 0; !held && k < owner->tools->u.array.len; k++)
                held = json_equal(owner->tools->u.array.items[k], name);
            if (held) json_array_push(kept, json_copy(name));
        }
        *tools = kept;
    } else {
        *tools = owner && owner->tools ? json_copy(owner->tools) : NULL;
    }
    const char *sub = json_string_value(json_object_get(intercept, "workspace"));
    *ws_root = NULL;
    if (!sub) {
        *ws_root = owner && owner->ws_root ? xstrdup(owner->ws_root) : NULL;
        return 0;
    }
    const char *root = host_workspace_root(h);
    int rfd = root ? open(root, O_PATH | O_DIRECTORY | O_CLOEXEC) : -1;
    int fd = rfd >= 0 ? open_beneath(rfd, root, sub, O_RDONLY | O_DIRECTORY, 0) : -1;
    int e = errno;
    char real[PATH_MAX + 1];
    ssize_t n = -1;
    if (fd >= 0) {
        char link[64];
        snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
        n = readlink(link, real, PATH_MAX);
        e = errno;
        close(fd);
    }
    if (rfd >= 0) close(rfd);
    if (n <= 0) {
        *error = xasprintf("chidori.actors.spawn: intercept.workspace `%s` is not a folder inside the spawner's workspace "
                           "(%s); create the folder first, and keep it inside the workspace (no symlink out of it)",
                           sub, e == EXDEV || e == ELOOP ? "it leads outside the workspace" : strerror(e));
        free(*model);
        json_free(*tools);
        *model = NULL, *tools = NULL;
        return -1;
    }
    real[n] = '\0';
    *ws_root = xstrdup(real);
    return 0;
}

/* Allocate a pid and a range, register the name, start the supervisor (seed: messages to queue
 * first, from recorded sends when a recorded actor is re-created). The new actor, or NULL with
 * *error (recorded: the call failed live). */
static actor *start_actor(host *h, actors_state *st, const char *source, const json_t *input, const actor_spawn_opts *o,
                          const json_t *seed, char **error)
{
    actor_hub *hub = st->hub;
    const host_members *ops = host_members_of(h);
    if (!ops) {
        *error = xstrdup("chidori.actors.spawn is not available here");
        return NULL;
    }
    actor *owner = st->self;
    char *model = NULL, *ws_root = NULL;
    json_t *tools = NULL;
    if (narrow(h, owner, o->intercept, &model, &tools, &ws_root, error) != 0) return NULL;
    pthread_mutex_lock(&hub->mu);
    if (hub->spawned_total >= MAX_ACTORS) {
        pthread_mutex_unlock(&hub->mu);
        free(model), free(ws_root), json_free(tools);
        *error = xasprintf("chidori.actors.spawn: a run may spawn at most %d actors (restarted children count)", MAX_ACTORS);
        return NULL;
    }
    if (o->name && json_object_get(hub->names, o->name)) {
        pthread_mutex_unlock(&hub->mu);
        free(model), free(ws_root), json_free(tools);
        *error = xasprintf("chidori.actors.spawn: actor name `%s` is already registered", o->name);
        return NULL;
    }
    /* the next block above every seq used so far, carved from the spawner's arena */
    uint64_t origin = 0, arena_end = UINT64_MAX, width = TOP_RANGE_WIDTH, cursor = hub->range_cursor;
    if (owner) {
        if (owner->child_width < MIN_RANGE_WIDTH) {
            pthread_mutex_unlock(&hub->mu);
        free(model), free(ws_root), json_free(tools);
            *error = xasprintf("chidori.actors.spawn: supervision tree too deep — actor `%s` has no sequence-range "
                               "headroom left to subdivide for children (each level divides its range by %llu)",
                               owner->pid, (unsigned long long)RANGE_SUBDIVISION);
            return NULL;
        }
        origin = owner->lo - 1;
        arena_end = owner->hi - 1;
        width = owner->child_width;
        cursor = owner->child_cursor;
    }
    uint64_t floor = h->call_seq > origin ? h->call_seq - origin : 0;
    if (cursor > floor) floor = cursor;
    if (floor < 1) floor = 1;
    uint64_t base = (floor + width - 1) / width * width;
    if (origin + base + width > arena_end || origin + base + width > (1ull << 53)) {
        pthread_mutex_unlock(&hub->mu);
        free(model), free(ws_root), json_free(tools);
        *error = xasprintf("chidori.actors.spawn: the spawner's reserved sequence range is exhausted (cannot fit "
                           "another child block of width %llu)", (unsigned long long)width);
        return NULL;
    }
    /* the run's tree budget admits each iteration as a member at this depth (runner/member_run.c):
     * a refusal (depth, live members) ends the tree, and the ops below then end the run */
    int tree_depth = owner ? owner->tree_depth + 1 : host_nesting(h) + 1;
    if (owner) owner->child_cursor = base + width;
    else hub->range_cursor = base + width;
    actor *a = xcalloc(1, sizeof *a);
    a->magic = ACTOR_MAGIC;
    a->hub = hub;
    a->pid = xasprintf("actor-%llu", (unsigned long long)++hub->next_index);
    a->name = o->name ? xstrdup(o->name) : NULL;
    a->owner = owner;
    a->source = xstrdup(source);
    a->input_json = json_dump(input, JSON_COMPACT, NULL);
    a->restart = o->restart;
    a->max_restarts = o->max_restarts;
    a->backoff_ms = o->backoff_ms;
    a->idle_timeout_ms = o->idle_timeout_ms;
    a->lo = origin + base + 1;
    a->hi = a->lo + width;
    a->tree_depth = tree_depth;
    a->child_width = width / RANGE_SUBDIVISION;
    a->vfs = host_vfs_snapshot(h);
    a->approvals = host_approvals_copy(h);
    a->model = model;
    a->tools = tools;
    a->ws_root = ws_root;
    a->ops = ops;
    a->salt = h->call_seq; /* the spawn's seq: its Math.random seed does not depend on scheduling */
    a->mailbox = json_array();
    for (size_t i = 0; json_is_array(seed) && i < seed->u.array.len; i++) {
        const json_t *m = seed->u.array.items[i];
        deliver(hub, a->mailbox, &a->next_delivery, json_string_value(json_object_get(m, "name")),
                json_object_get(m, "payload"), json_object_get(m, "from"));
    }
    hub->spawned_total++;
    if (a->name) json_object_set(hub->names, a->name, json_string(a->pid));
    if (hub->n == hub->cap) {
        hub->cap = hub->cap ? hub->cap * 2 : 8;
        hub->actors = xrealloc(hub->actors, hub->cap * sizeof *hub->actors);
    }
    hub->actors[hub->n++] = a;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, (size_t)1 << 20);
    int e = pthread_create(&a->thread, &attr, supervise, a);
    pthread_attr_destroy(&attr);
    if (e != 0) {
        json_t *out = json_object();
        json_object_set(out, "pid", json_string(a->pid));
        json_object_set(out, "status", json_string("failed"));
        json_object_set(out, "error", json_string("no thread could be started for the actor"));
        json_object_set(out, "restarts", json_number(0));
        a->outcome = out;
        a->records = json_array();
        a->life = LIFE_TERMINAL;
        pthread_mutex_unlock(&hub->mu);
        *error = xasprintf("chidori.actors.spawn: cannot start a thread for the actor: %s", strerror(e));
        return NULL;
    }
    a->thread_started = true;
    pthread_mutex_unlock(&hub->mu);
    return a;
}

/* The largest actor-<n> a loaded log names, so a new pid never takes a recorded one (the
 * original's counter did not see replayed spawns; we do). */
static void note_recorded_pids(host *h, actor_hub *hub)
{
    calllog *log = h->log;
    for (size_t i = 0; i < calllog_held(log); i++) {
        const call_record *r = calllog_get(log, i);
        if (strcmp(r->function, "spawn_actor")) continue;
        const char *pid = json_string_value(json_object_get(r->result, "pid"));
        unsigned long long n;
        char tail;
        if (pid && sscanf(pid, "actor-%llu%c", &n, &tail) == 1 && n > hub->next_index && n < (1ull << 53))
            hub->next_index = n;
    }
}

/* target as a live actor; a recorded spawn this run's log holds but no actor answers (a crash
 * resume: replayed spawns start nothing) is started again, its mailbox refilled from the recorded
 * sends to it, its recorded pid an alias of the new one. NULL with *error. */
static actor *ensure_live(host *h, actors_state *st, const char *target, char **error)
{
    actor_hub *hub = st->hub;
    if (!hub) {
        *error = xasprintf("unknown actor `%s` (no live actor and no recorded spawn)", target);
        return NULL;
    }
    pthread_mutex_lock(&hub->mu);
    actor *a = resolve(hub, target);
    pthread_mutex_unlock(&hub->mu);
    if (a) return a;
    calllog *log = h->log;
    const call_record *spawn = NULL;
    for (size_t i = 0; i < calllog_held(log) && !spawn; i++) {
        const call_record *r = calllog_get(log, i);
        if (strcmp(r->function, "spawn_actor") || r->error || !json_is_object(r->result)) continue;
        const char *pid = json_string_value(json_object_get(r->result, "pid"));
        const char *name = json_string_value(json_object_get(r->result, "name"));
        if ((pid && !strcmp(pid, target)) || (name && !strcmp(name, target))) spawn = r;
    }
    const char *pid = spawn ? json_string_value(json_object_get(spawn->result, "pid")) : NULL;
    const char *source = spawn ? json_string_value(json_object_get(call_record_args(spawn), "source")) : NULL;
    if (!pid || !source) {
        *error = xasprintf("unknown actor `%s` (no live actor and no recorded spawn)", target);
        return NULL;
    }
    const char *name = json_string_value(json_object_get(spawn->result, "name"));
    json_t *seed = json_array();
    for (size_t i = 0; i < calllog_held(log); i++) {
        const call_record *r = calllog_get(log, i);
        if (strcmp(r->function, "send_actor") || r->error) continue;
        const char *to = json_string_value(json_object_get(call_record_args(r), "to"));
        if (!to || (strcmp(to, pid) && (!name || strcmp(to, name)))) continue;
        json_array_push(seed, json_copy(call_record_args(r)));
    }
    pthread_mutex_lock(&hub->mu);
    note_recorded_pids(h, hub);
    pthread_mutex_unlock(&hub->mu);
    actor_spawn_opts o;
    actor_read_opts(json_object_get(call_record_args(spawn), "options"), &o);
    const json_t *input = json_object_get(call_record_args(spawn), "input");
    json_t *empty = json_object();
    a = start_actor(h, st, source, input ? input : empty, &o, seed, error);
    json_free(empty);
    json_free(seed);
    if (a) {
        pthread_mutex_lock(&hub->mu);
        if (strcmp(a->pid, pid)) json_object_set(hub->names, pid, json_string(a->pid));
        pthread_mutex_unlock(&hub->mu);
    }
    return a;
}

/* A live receive addresses the whole fan-out: every recorded spawn not joined or stopped and not
 * live is started again (crash resume). Once per run: after it, every recorded actor is live. */
static void ensure_recorded_live(host *h, actors_state *st)
{
    if (st->recorded_checked) return;
    st->recorded_checked = true;
    calllog *log = h->log;
    json_t *settled = json_object(); /* pids a recorded join or stop settled */
    for (size_t k = 0; k < calllog_held(log); k++) {
        const call_record *s = calllog_get(log, k);
        if ((!strcmp(s->function, "join_actor") || !strcmp(s->function, "stop_actor")) && !s->error) {
            const char *p = json_string_value(json_object_get(call_record_args(s), "pid"));
            if (p) json_object_set(settled, p, json_bool(true));
        }
    }
    for (size_t i = 0; i < calllog_held(log); i++) {
        const call_record *r = calllog_get(log, i);
        if (strcmp(r->function, "spawn_actor") || r->error || !json_is_object(r->result)) continue;
        const char *pid = json_string_value(json_object_get(r->result, "pid"));
        const char *name = json_string_value(json_object_get(r->result, "name"));
        if (!pid || json_object_get(settled, pid) || (name && json_object_get(settled, name))) continue;
        pthread_mutex_lock(&st->hub->mu);
        bool known = resolve(st->hub, pid) != NULL;
        pthread_mutex_unlock(&st->hub->mu);
        if (known) continue;
        char *why = NULL;
        if (!ensure_live(h, st, pid, &why)) {
            fprintf(h->log_out, "chidori: re-creating the recorded actor %s failed: %s\n", pid, why);
            free(why);
        }
    }
    json_free(settled);
}

/* ---------- the ops ---------- */

static int effect_spawn(host *h, const json_t *args, json_t **result, char **error)
{
    actors_state *st = state_of(h);
    if (!st || !st->hub) {
        *error = xstrdup("chidori.actors.spawn is not available here");
        return HOST_ERROR;
    }
    pthread_mutex_lock(&st->hub->mu);
    note_recorded_pids(h, st->hub);
    pthread_mutex_unlock(&st->hub->mu);
    actor_spawn_opts o;
    actor_read_opts(json_object_get(args, "options"), &o);
    actor *a = start_actor(h, st, json_string_value(json_object_get(args, "source")), json_object_get(args, "input"), &o,
                           NULL, error);
    if (!a) return HOST_ERROR;
    json_t *r = json_object();
    json_object_set(r, "pid", json_string(a->pid));
    if (a->name) json_object_set(r, "name", json_string(a->name));
    *result = r;
    return HOST_OK;
}

static int effect_send(host *h, const json_t *args, json_t **result, char **error)
{
    actors_state *st = state_of(h);
    const char *to = json_string_value(json_object_get(args, "to"));
    const char *name = json_string_value(json_object_get(args, "name"));
    const json_t *payload = json_object_get(args, "payload"), *from = json_object_get(args, "from");
    json_t *r = json_object();
    if (!strcmp(to, "parent")) {
        if (st && st->hub) { /* the sender's spawner: its owning actor, or the run (a run's self-send) */
            actor_hub *hub = st->hub;
            pthread_mutex_lock(&hub->mu);
            actor *owner = st->self ? st->self->owner : NULL;
            char *full = mailbox_full(owner ? owner->mailbox : hub->parent_mailbox, owner ? owner->pid : "the run",
                                      message_bytes(name, payload, from));
            if (full) {
                pthread_mutex_unlock(&hub->mu);
                json_free(r);
                *error = full;
                return HOST_ERROR;
            }
            if (owner) deliver(hub, owner->mailbox, &owner->next_delivery, name, payload, from);
            else deliver(hub, hub->parent_mailbox, &hub->parent_next_delivery, name, payload, from);
            pthread_mutex_unlock(&hub->mu);
        }
        json_object_set(r, "delivered", json_bool(true));
        *result = r;
        return HOST_OK;
    }
    actor *a = st ? ensure_live(h, st, to, error) : NULL;
    if (!a) {
        if (!*error) *error = xasprintf("unknown actor `%s` (no live actor and no recorded spawn)", to);
        json_free(r);
        return HOST_ERROR;
    }
    size_t bytes = message_bytes(name, payload, from);
    pthread_mutex_lock(&st->hub->mu);
    bool live = a->life != LIFE_TERMINAL;
    char *full = mailbox_full(a->mailbox, a->pid, bytes);
    if (full) {
        pthread_mutex_unlock(&st->hub->mu);
        json_free(r);
        *error = full;
        return HOST_ERROR;
    }
    deliver(st->hub, a->mailbox, &a->next_delivery, name, payload, from);
    pthread_mutex_unlock(&st->hub->mu);
    json_object_set(r, "delivered", json_bool(live));
    *result = r;
    return HOST_OK;
}

static bool any_live(actor_hub *hub)
{
    for (size_t i = 0; i < hub->n; i++)
        if (hub->actors[i]->life != LIFE_TERMINAL) return true;
    return false;
}

bool actors_any_running(host *h)
{
    actors_state *st = state_of(h);
    if (!st || !st->hub) return false;
    pthread_mutex_lock(&st->hub->mu);
    bool live = any_live(st->hub);
    pthread_mutex_unlock(&st->hub->mu);
    return live;
}

/* An actor's listen point (under mu on entry and exit): take the earliest message of names from
 * its mailbox, else block in place until one comes, timeout_ms passes (the sentinel), a stop is
 * asked (an error: the supervisor settles it `stopped`), or with no timeout the idle cap passes
 * (HOST_SUSPEND: it parks `paused`, waiting on the names). A poll only looks. `what` names the
 * call in the stop's error; `fan_in`: a timeout's sentinel names no name. */
static int actor_wait(host *h, actor *self, const json_t *names, uint64_t timeout, bool poll, bool fan_in,
                      const char *what, json_t **result, char **error)
{
    actor_hub *hub = self->hub;
    int64_t end = timeout ? clock_monotonic_ms() + (int64_t)timeout : 0;
    int64_t idle_end = clock_monotonic_ms() + (int64_t)(self->idle_timeout_ms > (uint64_t)INT64_MAX / 4
                                                            ? (uint64_t)INT64_MAX / 4 : self->idle_timeout_ms);
    int rc = HOST_OK;
    for (;;) {
        if (cancelled(h)) {
            *error = xstrdup("the run was cancelled");
            rc = HOST_ABORT;
            break;
        }
        if (self->stop_requested || member_told_to_stop(h)) {
            *error = xasprintf("%s: actor `%s` was stopped", what, self->pid);
            rc = HOST_ERROR;
            break;
        }
        json_t *m = take_message(self->mailbox, names);
        if (m || poll) {
            *result = m ? m : json_null();
            break;
        }
        int64_t now = clock_monotonic_ms();
        if (timeout && now >= end) {
            *result = timeout_sentinel(names);
            if (fan_in) json_object_set(*result, "name", json_null());
            break;
        }
        if (!timeout && now >= idle_end) {
            rc = HOST_SUSPEND; /* the idle cap: the actor parks as paused, waiting on these names */
            break;
        }
        if (self->life != LIFE_WAITING) {
            self->life = LIFE_WAITING;
            json_free(self->waiting_for);
            self->waiting_for = json_copy(names);
        }
        wait_slice(hub, timeout ? end - now : idle_end - now);
    }
    if (self->life == LIFE_WAITING) {
        self->life = LIFE_RUNNING;
        json_free(self->waiting_for);
        self->waiting_for = NULL;
    }
    return rc;
}

int actors_listen(host *h, const json_t *names, uint64_t timeout_ms, bool poll, bool fan_in, json_t **result,
                  char **error)
{
    actors_state *st = state_of(h);
    if (!st || !st->self) return ACTORS_NOT_AN_ACTOR;
    pthread_mutex_lock(&st->hub->mu);
    int rc = actor_wait(h, st->self, names, timeout_ms, poll, fan_in, poll ? "chidori.pollSignal" : "chidori.signal",
                        result, error);
    pthread_mutex_unlock(&st->hub->mu);
    return rc;
}

static int effect_receive(host *h, const json_t *args, json_t **result, char **error)
{
    actors_state *st = state_of(h);
    const json_t *names = json_object_get(args, "names");
    uint64_t timeout = actor_timeout_of(json_object_get(args, "opts"));
    int64_t end = timeout ? clock_monotonic_ms() + (int64_t)timeout : 0;
    actor *self = st ? st->self : NULL;
    actor_hub *hub = st ? st->hub : NULL;
    if (hub && !self) ensure_recorded_live(h, st);
    if (!hub) { /* a branch: nothing can send to it; a timeout is only a wait */
        if (!timeout) {
            *error = xstrdup("chidori.receive would block forever: no live actors to send a message and no timeoutMs given");
            return HOST_ERROR;
        }
        while (clock_monotonic_ms() < end && !cancelled(h) && !member_told_to_stop(h)) usleep(20000);
        *result = timeout_sentinel(names);
        return HOST_OK;
    }
    if (self) {
        pthread_mutex_lock(&hub->mu);
        int rc = actor_wait(h, self, names, timeout, false, false, "chidori.receive", result, error);
        pthread_mutex_unlock(&hub->mu);
        return rc;
    }
    /* the run: its inbox (signals queued for the run from outside) first, then what actors sent
     * to "parent" */
    int rc = HOST_OK;
    int64_t next_box_ms = 0;
    pthread_mutex_lock(&hub->mu);
    for (;;) {
        if (cancelled(h)) {
            *error = xstrdup("the run was cancelled");
            rc = HOST_ABORT;
            break;
        }
        json_t *queued = NULL;
        int took = 0;
        if (clock_monotonic_ms() >= next_box_ms) { /* the inbox may be a database: asked at most twice a second */
            pthread_mutex_unlock(&hub->mu);
            took = signal_take_queued(h, names, &queued, error);
            pthread_mutex_lock(&hub->mu);
            next_box_ms = clock_monotonic_ms() + BOX_POLL_MS;
        }
        if (took < 0) {
            rc = HOST_ERROR;
            break;
        }
        if (took > 0) {
            *result = queued;
            break;
        }
        json_t *m = take_message(hub->parent_mailbox, names);
        if (m) {
            *result = m;
            break;
        }
        int64_t now = clock_monotonic_ms();
        if (timeout && now >= end) {
            *result = timeout_sentinel(names);
            break;
        }
        if (timeout && hub->spawned_total > 0 && !any_live(hub)) {
            buf b = {0};
            for (size_t i = 0; i < names->u.array.len; i++)
                buf_printf(&b, "%s%s", i ? ", " : "", json_string_value(names->u.array.items[i]));
            char *list = buf_steal(&b);
            *error = xasprintf("chidori.receive([%s]) can no longer be delivered to: every spawned actor has settled "
                               "and no matching message is queued. Listen for \"" DOWN_MESSAGE "\" alongside your "
                               "result names to observe actor failures, or join the actors for their outcomes.",
                               list);
            free(list);
            rc = HOST_ERROR;
            break;
        }
        if (!timeout && !any_live(hub)) {
            *error = xstrdup("chidori.receive would block forever: no live actors to send a message and no timeoutMs given");
            rc = HOST_ERROR;
            break;
        }
        wait_slice(hub, timeout ? end - now : WAIT_SLICE_MS);
    }
    pthread_mutex_unlock(&hub->mu);
    return rc;
}

/* join_actor and stop_actor */
static int settle(host *h, const json_t *args, bool stop, json_t **result, char **error)
{
    const char *display = stop ? "actors.stop" : "actors.join";
    actors_state *st = state_of(h);
    const char *target = json_string_value(json_object_get(args, "pid"));
    uint64_t timeout = actor_timeout_of(json_object_get(args, "opts"));
    actor *a = st ? ensure_live(h, st, target, error) : NULL;
    if (!a) {
        if (!*error) *error = xasprintf("unknown actor `%s` (no live actor and no recorded spawn)", target);
        return HOST_ERROR;
    }
    actor_hub *hub = st->hub;
    if (a->owner != st->self) {
        *error = xasprintf("chidori.%s: `%s` was spawned by %s, not %s — actors are settled by their spawner", display,
                           target, a->owner ? a->owner->pid : "the run", st->self ? st->self->pid : "the run");
        return HOST_ERROR;
    }
    pthread_mutex_lock(&hub->mu);
    if (a->settled) {
        *result = json_copy(a->settled);
        pthread_mutex_unlock(&hub->mu);
        return HOST_OK;
    }
    if (stop && a->life != LIFE_TERMINAL) request_stop(a);
    bool done = false;
    int64_t end = timeout ? clock_monotonic_ms() + (int64_t)timeout : 0;
    for (;;) {
        if (a->life == LIFE_TERMINAL) {
            done = true;
            break;
        }
        if (cancelled(h) || member_told_to_stop(h)) break;
        int64_t left = timeout ? end - clock_monotonic_ms() : WAIT_SLICE_MS;
        if (left <= 0) break;
        wait_slice(hub, left);
    }
    if (!done) {
        if (cancelled(h) || member_told_to_stop(h)) {
            pthread_mutex_unlock(&hub->mu);
            *error = xstrdup(cancelled(h) ? "the run was cancelled" : "stopped while waiting for an actor");
            return HOST_ABORT;
        }
        json_t *r = json_object();
        json_object_set(r, "pid", json_string(a->pid));
        json_object_set(r, "status", json_string("running"));
        json_object_set(r, "restarts", json_number((double)a->restarts));
        pthread_mutex_unlock(&hub->mu);
        *result = r;
        return HOST_OK;
    }
    claim_thread(a);
    json_t *records = a->records;
    a->records = NULL;
    size_t live = a->live_calls;
    json_t *outcome = json_copy(a->outcome);
    pthread_mutex_unlock(&hub->mu);
    /* the actor's top-level records hang off this join: a replay of it absorbs the subtree */
    for (size_t i = 0; records && i < records->u.array.len; i++) {
        json_t *r = records->u.array.items[i];
        const json_t *p = json_object_get(r, "parent_seq");
        if (!p || json_number_value(p) == 0) json_object_set(r, "parent_seq", json_number((double)h->call_seq));
    }
    int rc = HOST_OK;
    if (records && host_member_merge(h, records, a->lo, a->hi, error) != 0) {
        char *e = xasprintf("actor `%s`: %s", a->pid, *error);
        free(*error);
        *error = e;
        rc = HOST_ERROR;
    }
    json_free(records);
    h->live_calls += live;
    pthread_mutex_lock(&hub->mu);
    if (rc == HOST_OK) a->settled = json_copy(outcome);
    pthread_mutex_unlock(&hub->mu);
    if (rc != HOST_OK) {
        json_free(outcome);
        return rc;
    }
    *result = outcome;
    return HOST_OK;
}

static int effect_join(host *h, const json_t *args, json_t **result, char **error) { return settle(h, args, false, result, error); }
static int effect_stop(host *h, const json_t *args, json_t **result, char **error) { return settle(h, args, true, result, error); }

static int effect_status(host *h, const json_t *args, json_t **result, char **error)
{
    (void)error;
    actors_state *st = state_of(h);
    const char *target = json_string_value(json_object_get(args, "pid"));
    json_t *r = json_object();
    actor *a = NULL;
    if (st && st->hub) {
        pthread_mutex_lock(&st->hub->mu);
        bool known = resolve(st->hub, target) != NULL;
        pthread_mutex_unlock(&st->hub->mu);
        /* after a resume, a status naming an actor recorded but never joined starts the recorded
         * ones again, as a send, join or stop does (the original's rule) */
        if (!known && !st->self) ensure_recorded_live(h, st);
        pthread_mutex_lock(&st->hub->mu);
        a = resolve(st->hub, target);
        if (a) {
            json_object_set(r, "pid", json_string(a->pid));
            json_object_set(r, "status", json_string(status_word(a)));
            json_object_set(r, "restarts", json_number((double)a->restarts));
            json_object_set(r, "mailbox", json_number((double)a->mailbox->u.array.len));
            if (a->life == LIFE_WAITING && a->waiting_for) json_object_set(r, "waitingFor", json_copy(a->waiting_for));
        }
        pthread_mutex_unlock(&st->hub->mu);
    }
    if (!a) {
        json_object_set(r, "pid", json_string(target));
        json_object_set(r, "status", json_string("unknown"));
    }
    *result = r;
    return HOST_OK;
}

static int effect_whereis(host *h, const json_t *args, json_t **result, char **error)
{
    (void)error;
    actors_state *st = state_of(h);
    const char *name = json_string_value(json_object_get(args, "name"));
    json_t *r = json_object();
    const char *pid = NULL;
    if (st && st->hub) {
        pthread_mutex_lock(&st->hub->mu);
        pid = json_string_value(json_object_get(st->hub->names, name));
        json_object_set(r, "pid", pid ? json_string(pid) : json_null());
        pthread_mutex_unlock(&st->hub->mu);
    } else {
        json_object_set(r, "pid", json_null());
    }
    *result = r;
    return HOST_OK;
}

/* ---------- the module ---------- */

static int actors_init(host *h, const host_config *cfg, void **state, char **error)
{
    (void)cfg;
    (void)error;
    actors_state *st = xcalloc(1, sizeof *st);
    if (host_is_member(h)) {
        actor *self = host_member_user(h);
        if (self && self->magic == ACTOR_MAGIC) {
            st->self = self;
            st->hub = self->hub;
        } else {
            st->in_branch = true;
        }
    } else {
        actor_hub *hub = xcalloc(1, sizeof *hub);
        pthread_mutex_init(&hub->mu, NULL);
        clock_monotonic_cond_init(&hub->cv);
        hub->names = json_object();
        hub->parent_mailbox = json_array();
        st->hub = hub;
        st->owns = true;
    }
    *state = st;
    return 0;
}

static void actor_free(actor *a)
{
    free(a->pid);
    free(a->name);
    free(a->source);
    free(a->input_json);
    json_free(a->vfs);
    json_free(a->approvals);
    free(a->model);
    free(a->ws_root);
    json_free(a->tools);
    json_free(a->mailbox);
    json_free(a->waiting_for);
    json_free(a->outcome);
    json_free(a->records);
    json_free(a->settled);
    free(a);
}

/* The run ends: every actor still live is stopped (its records discarded), every thread joined. */
static void actors_free(void *state)
{
    actors_state *st = state;
    if (st->owns) {
        actor_hub *hub = st->hub;
        pthread_mutex_lock(&hub->mu);
        for (size_t i = 0; i < hub->n; i++)
            if (hub->actors[i]->life != LIFE_TERMINAL) request_stop(hub->actors[i]);
        for (size_t i = 0; i < hub->n; i++) {
            wait_terminal(hub->actors[i], 0);
            claim_thread(hub->actors[i]);
        }
        pthread_mutex_unlock(&hub->mu);
        for (size_t i = 0; i < hub->n; i++) actor_free(hub->actors[i]);
        free(hub->actors);
        json_free(hub->names);
        json_free(hub->parent_mailbox);
        pthread_cond_destroy(&hub->cv);
        pthread_mutex_destroy(&hub->mu);
        free(hub);
    }
    free(st);
}

/* ---------- the run's tree budget ---------- */

/* Once the run's tree has ended (an actor crossed a limit of the tree budget, or was refused by
 * its depth or live cap: every member was stopped), every actor call fails with the tree's message
 * and is recorded with ends_run, so the run ends there, and a replay ends it there again. */
static int tree_gate(host *h, int rc, json_t **result, char **error)
{
    const host_members *ops = host_members_of(h);
    const char *ended = ops && ops->tree_ended ? ops->tree_ended(ops->ctx) : NULL;
    if (!ended || rc == HOST_SUSPEND || rc == HOST_ABORT) return rc;
    json_free(*result);
    *result = NULL;
    free(*error);
    *error = xasprintf("chidori.actors: %s", ended);
    /* the run ends at its own call; an actor (stopped by the tree's end anyway) only fails its call,
     * so that its records, merged by a join, do not end the run a second time on replay */
    if (!host_is_member(h)) h->end_after_record = true;
    return HOST_ERROR;
}

#define TREE_GATED(name, fn)                                                                  \
    static int name(host *h, const json_t *args, json_t **result, char **error)               \
    {                                                                                         \
        int rc = tree_gate(h, HOST_OK, result, error);                                        \
        if (rc != HOST_OK) return rc;                                                         \
        return tree_gate(h, fn(h, args, result, error), result, error);                       \
    }
TREE_GATED(gated_spawn, effect_spawn)
TREE_GATED(gated_send, effect_send)
TREE_GATED(gated_receive, effect_receive)
TREE_GATED(gated_join, effect_join)
TREE_GATED(gated_stop, effect_stop)
TREE_GATED(gated_status, effect_status)
TREE_GATED(gated_whereis, effect_whereis)

static const op_def actors_ops[] = {
    {.name = "spawn_actor", .flags = OP_RECORDED, .perform = gated_spawn, .prepare = actor_spawn_prepare, .validate = actor_spawn_validate},
    {.name = "send_actor", .flags = OP_RECORDED, .perform = gated_send, .prepare_in = actor_send_prepare, .validate = actor_send_validate},
    {.name = "receive", .flags = OP_RECORDED, .perform = gated_receive, .prepare = actor_receive_prepare, .validate = actor_receive_validate},
    {.name = "join_actor", .flags = OP_RECORDED | OP_NESTS, .perform = gated_join, .prepare = actor_settle_prepare, .validate = actor_join_validate},
    {.name = "stop_actor", .flags = OP_RECORDED | OP_NESTS, .perform = gated_stop, .prepare = actor_settle_prepare, .validate = actor_stop_validate},
    {.name = "actor_status", .flags = OP_RECORDED, .perform = gated_status, .prepare = actor_pid_prepare, .validate = actor_status_validate},
    {.name = "whereis", .flags = OP_RECORDED, .perform = gated_whereis, .prepare = actor_name_prepare, .validate = actor_whereis_validate},
    {0},
};

const effect_module actors_module = {.name = "actors", .ops = actors_ops, .init = actors_init, .free = actors_free};

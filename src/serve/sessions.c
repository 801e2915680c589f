/* sessions.c — session lifecycle, one thread per running session, stream followers (see
 * sessions.h).
 *
 * Owns the resident sessions (those in memory: see sessions.h for when a session is) and their
 * run threads. The store holds every session; a resident one is a cache of its row that is also
 * the truth while it runs (its call count is live). Each resident session counts its references:
 * its run thread, each stream following it, each handler between sessions_find (or create,
 * replay) and sessions_release. When the count drops to 0 and it does not run, its state is
 * already in the store (every change is saved as it happens: save() / save_or_report()), so it is
 * freed; a session whose last change could not be stored stays resident (memory is then the
 * truth) until a save succeeds. While the server stops, nothing is dropped: a run stopped then
 * stays `running` in the store on purpose, and its memory says how it ended.
 *
 * A lookup that misses reads the row without the lock (a read of the store can wait behind a
 * commit); it then checks, under the lock, that no other lookup or creation made the session
 * resident meanwhile (one struct per id) and that no session was dropped meanwhile — a dropped
 * session may have been changed after the read, so then it reads again, under the lock.
 *
 * The order of durable writes is what makes a crash of the server safe at any instant:
 *   - a session is in the store (status running) before its run starts;
 *   - each record is in the store before the agent sees the result (the runner's sink);
 *   - a resume or an approval is stored (status running, the approval remembered) before the
 *     re-run starts, and the answer of a resume is itself a record;
 * so a session found `running` at start-up is re-run by replaying its log: recorded calls answer
 * from the log, the next calls run live. Trusts its callers (api.c validates requests); trusts
 * nothing read from the store (store.c checks it, the call log is checked again when loaded).
 */
#define _GNU_SOURCE
#include "serve/sessions.h"
#include "telemetry/otel.h"
#include "util/rfc3339.h"
#include "util/clock.h"
#include "host/host.h"
#include "host/policy.h"
#include "runner/manifest.h"
#include "runner/runner.h"
#include "runner/start.h"
#include "serve/prompt_events.h"
#include "serve/prompt_notify.h"
#include "serve/session_log.h"
#include "serve/signal_deadlines.h"
#include "serve/store_signals.h"
#include "serve/store_cluster.h"
#include "serve/db.h"
#include "util/buf.h"
#include "util/threads.h"
#include "util/random.h"
#include "util/strmap.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct session {
    session_row row;
    /* Its stored log measured (counted: read from the store, then kept up by the run's sink). The
     * records themselves stay in the store: streams read them a page at a time, a run loads them
     * for its replay, so the server's memory does not grow with a session's log. */
    bool counted;
    store_log_stats log;
    bool running;          /* a run thread owns it */
    bool cancel_requested;
    bool input_invalid;    /* its last run failed on run()'s inputSchema (POST /sessions answers 400) */
    bool unsaved;          /* its last change could not be stored: it stays resident */
    json_t *was_awaiting;  /* an approval's run: the pending_approval it answers, to put back if the
                              replay diverges before the run goes live (see refused_resume) */
    json_t *was_manifest;  /* a run that accepted an edited source: the manifest it replaced, put
                              back the same way */
    char *stored_manifest; /* a new session: the manifest text this node stored it with, which its
                              first run's end reads instead of the store (see record_served) */
    json_t *served_manifest; /* the manifest its run's end stores, in the settle's transaction
                                (record_served, settle) */
    runner_cancel cancel;
    int followers;
    int refs;              /* the run thread, each follower, each handler holding it */
    pthread_cond_t changed; /* broadcast when it changes: its waiters are only its own (a handler
                               waiting for its run, its stream followers), not every session's */
    session_waiter *waiters; /* told when its run settles (sessions_notify_settled) */
    prompt_events *pevents;  /* its runs' streamed prompt events, for its streams; NULL: none yet */
    int64_t epoch;         /* the lease epoch its run on this node holds (store_cluster.h) */
    bool fenced;           /* its run here lost the lease: another node owns the session now */
    char *node;            /* the node that runs it or ran it last (the lease's owner), or NULL */
    struct park *park;     /* its run waits, paused, for its input's answer, its signal or its approval
                              (parked runs, below) */
};

/* RUN_SIGNAL: a signal pause whose signal (or timeout) was handed to its seq in the mailbox; its call
 * is performed again there and takes it (signals section below). */
typedef enum run_kind { RUN_NEW, RUN_RESUME, RUN_APPROVED, RUN_REPLAY, RUN_RECOVER, RUN_SIGNAL } run_kind;

/* A parked run: paused (and stored so) on an input, a signal or an approval, its thread and engine
 * kept waiting for what it waits for. WAITING: a run of its kind (a resume, a signal's run, an
 * approval) may be handed to it (HANDED, then it runs again as the same run);
 * LEAVING: it was asked to go (or gave up: its time ran out, the server stops, the session was
 * settled otherwise) and unwinds as an ordinary pause, changing nothing of the session. */
typedef enum park_state { PARK_WAITING, PARK_HANDED, PARK_LEAVING } park_state;
struct park {
    park_state state;
    run_kind kind;  /* the run it takes: RUN_RESUME (paused on an input), RUN_SIGNAL (paused on a
                       signal), RUN_APPROVED (awaitingapproval) */
    char *response; /* HANDED, an input's: the answer */
    size_t records;   /* the stored log it parked at (store_log_head): a log that differs now was */
    int64_t last_pos; /* changed by another node (which resumed the session): the run cannot go on */
};

struct sessions {
    sessions_config cfg;
    store *st;
    host_memory_store memory; /* chidori.memory in the store */
    pthread_mutex_t lock;
    pthread_cond_t changed; /* a run ended, or the server is stopping (what a drain waits for) */
    strmap resident;     /* id → session: the sessions in memory */
    uint64_t evictions;  /* sessions dropped from memory so far (see sessions_find) */
    int running;
    int parked;          /* runs parked (or leaving their park) now: the drain waits for them too */
    bool stopping;
    signal_deadlines *deadlines; /* the timers of signal pauses (signals section below) */
    cluster_node me;     /* this node (store_cluster.h) */
    char host[256];
    pthread_t ticker;    /* leases, take-overs, the queue, other nodes' changes (cluster section) */
    bool ticker_on, ticker_quit, tick_now;
    pthread_cond_t tick; /* wakes the ticker early: a slot came free, a session was queued */
    pthread_t listener;  /* PostgreSQL: other nodes' NOTIFYs wake the ticker (cluster section) */
    bool listener_on, listening; /* listening: connected and listening now (the poll may slow down) */
    uint64_t sync_sent, sync_heard; /* listener_sync: the last token sent, the last heard back */
    pthread_cond_t synced;          /* sync_heard moved, or the listener stopped listening */
    /* The last new session's manifest, as text (snapshot manifests section): what a new session is
     * stored with while the entry file hashes the same, and what the modules its run was served
     * made of it. Its own lock: it is read and written with or without ss->lock held. */
    pthread_mutex_t memo_lock;
    struct {
        char entry_hash[25]; /* the entry's hash the manifest `before` was built from */
        char *before;        /* the shared part stored with a new session */
        char *served;        /* a run's served lists (host_modules_served, as text) */
        char *after;         /* `before` with those lists (manifest_set_served), as text */
    } memo;
};

typedef struct run_job {
    sessions *ss;
    session *s;
    run_kind kind;
    json_t *pending;  /* RESUME, APPROVED: the call the session waited on */
    char *response;   /* RESUME */
    json_t *records;  /* the stored log, read for the run's replay; freed once the host holds it */
    host_signal_box box; /* the session's signal mailbox (store_signals.h) */
    bool parked_out;  /* it settled as paused at its park and was never handed an answer: its end
                         changes nothing of the session (parked runs, below) */
} run_job;

static bool signal_pause_settled(sessions *ss, session *s);
static int refresh(sessions *ss, session *s, bool stats);
static void kick(sessions *ss);
static void wait_for_slot(sessions *ss);
static void settle(sessions *ss, session *s);
static void signal_stamp_deadline(session *s);
static uint64_t pending_seq(const session_row *r);
static bool as_whole(const json_t *v, uint64_t *out);
static bool signal_waits(const session *s);
static int signal_take(void *ctx, uint64_t seq, const char *const *names, size_t n, json_t **signal, char **error);

static const char *const PROFILES[] = {"permissive", "untrusted", "supervised"};

bool sessions_profile_known(const char *name)
{
    for (size_t i = 0; i < sizeof PROFILES / sizeof *PROFILES; i++)
        if (!strcmp(name, PROFILES[i])) return true;
    return false;
}


static bool is_status(const session *s, const char *status) { return !strcmp(s->row.status, status); }

/* Stored as running (or queued) but not running here: another node runs it (or will). */
static bool remote(const session *s) { return !s->running && (is_status(s, "running") || is_status(s, "queued")); }
/* Its run has not settled, here or elsewhere. */
static bool active(const session *s) { return s->running || remote(s); }

static void set_status(session *s, const char *status)
{
    free(s->row.status);
    s->row.status = xstrdup(status);
}

static void clear_outcome(session *s)
{
    json_free(s->row.output), s->row.output = NULL;
    free(s->row.error), s->row.error = NULL;
    json_free(s->row.pending), s->row.pending = NULL;
    json_free(s->row.pending_approval), s->row.pending_approval = NULL;
    s->input_invalid = false;
}

static size_t call_count(const session *s)
{
    return s->counted ? s->log.records : s->row.call_count;
}

/* Store the session's state (called with the lock held). */
static int save(sessions *ss, session *s, char **error)
{
    s->row.call_count = call_count(s);
    int rc = store_update_session(ss->st, &s->row, error);
    s->unsaved = rc < 0;
    return rc;
}

static void save_or_report(sessions *ss, session *s)
{
    char *error = NULL;
    if (save(ss, s, &error) < 0) {
        fprintf(stderr, "chidori serve: session %s: %s\n", s->row.id, error);
        free(error);
    }
}

static void signal_deadline_fired(void *ctx, const char *id, uint64_t seq);

sessions *sessions_new(const sessions_config *cfg, store *st)
{
    sessions *ss = xcalloc(1, sizeof *ss);
    ss->cfg = *cfg;
    ss->st = st;
    ss->memory = (host_memory_store){store_memory_op, st};
    pthread_mutex_init(&ss->lock, NULL);
    pthread_mutex_init(&ss->memo_lock, NULL);
    clock_monotonic_cond_init(&ss->changed);
    strmap_init(&ss->resident);
    ss->deadlines = signal_deadlines_start(signal_deadline_fired, ss);
    clock_monotonic_cond_init(&ss->tick);
    clock_monotonic_cond_init(&ss->synced);
    if (gethostname(ss->host, sizeof ss->host - 1) != 0) snprintf(ss->host, sizeof ss->host, "localhost");
    ss->me = (cluster_node){cfg->node_id ? cfg->node_id : ss->host, ss->host, (int64_t)getpid()};
    if (ss->cfg.lease_ms <= 0) ss->cfg.lease_ms = 10000;
    return ss;
}

const sessions_config *sessions_config_of(const sessions *ss) { return &ss->cfg; }

/* Make a stored row resident (lock held; no session of that id is): takes the row's contents
 * over. No reference yet. */
static session *add(sessions *ss, session_row *row)
{
    session *s = xcalloc(1, sizeof *s);
    s->row = *row;
    memset(row, 0, sizeof *row);
    s->cancel.fd = -1;
    clock_monotonic_cond_init(&s->changed); /* followers wait with a deadline */
    strmap_put(&ss->resident, s->row.id, s);
    return s;
}

static void free_session(session *s)
{
    json_free(s->was_awaiting);
    json_free(s->was_manifest);
    free(s->stored_manifest);
    json_free(s->served_manifest);
    pthread_cond_destroy(&s->changed);
    prompt_events_free(s->pevents);
    session_row_clear(&s->row);
    free(s->node);
    free(s);
}

/* Drop s from memory if nothing holds it (lock held). Its state is in the store: every change is
 * saved as it happens; one whose save failed is tried again here, and stays if it fails again. */
static void maybe_evict(sessions *ss, session *s)
{
    if (s->refs > 0 || s->running || ss->stopping) return;
    if (s->unsaved) {
        char *error = NULL;
        if (save(ss, s, &error) < 0) {
            free(error);
            return;
        }
    }
    strmap_remove(&ss->resident, s->row.id);
    ss->evictions++;
    free_session(s);
}

session *sessions_find(sessions *ss, const char *id, char **error)
{
    *error = NULL;
    pthread_mutex_lock(&ss->lock);
    session *s = strmap_get(&ss->resident, id);
    if (!s) {
        uint64_t seen = ss->evictions;
        pthread_mutex_unlock(&ss->lock);
        session_row row;
        int rc = store_get_session(ss->st, id, &row, error);
        pthread_mutex_lock(&ss->lock);
        s = strmap_get(&ss->resident, id); /* made resident meanwhile: that one is the session */
        if (!s && rc >= 0 && ss->evictions != seen) {
            /* A session dropped meanwhile may be this one, changed after the read (or created and
             * settled since): read it again, under the lock, where nothing can change it. */
            session_row_clear(&row);
            rc = store_get_session(ss->st, id, &row, error);
        }
        if (!s && rc > 0) {
            s = add(ss, &row);
            s->node = store_lease_owner(ss->st, s->row.id);
            if (remote(s)) refresh(ss, s, true); /* its live count */
        }
        session_row_clear(&row);
        if (s && *error) free(*error), *error = NULL;
    } else {
        refresh(ss, s, remote(s)); /* another node may have changed it */
    }
    if (s) s->refs++;
    pthread_mutex_unlock(&ss->lock);
    return s;
}

static void release_locked(sessions *ss, session *s)
{
    s->refs--;
    maybe_evict(ss, s);
}

void sessions_release(sessions *ss, session *s)
{
    if (!s) return;
    pthread_mutex_lock(&ss->lock);
    release_locked(ss, s);
    pthread_mutex_unlock(&ss->lock);
}

size_t sessions_resident(sessions *ss)
{
    pthread_mutex_lock(&ss->lock);
    size_t n = strmap_len(&ss->resident);
    pthread_mutex_unlock(&ss->lock);
    return n;
}

/* Measure the session's stored log, once while it is resident (lock held): from then on its run's
 * sink keeps the figures, and nothing else appends to a session's log. */
static int count_records(sessions *ss, session *s, char **error)
{
    if (s->counted) return 0;
    if (store_record_stats(ss->st, s->row.id, &s->log, error) < 0) return -1;
    s->counted = true;
    return 0;
}

/* ---------- running ---------- */

/* A session's log is full once it holds the most records, or at least the most bytes, its cap
 * allows (the same rule as the host's cap on one run's log: the record that reaches a cap is kept,
 * the next is refused). The run then ends failed with this error; the log stays as it is, to be
 * read, streamed and replayed. */
static char *log_full(const session *s, const char *what, uint64_t held, uint64_t limit, const char *variable)
{
    return xasprintf("session %s: its call log is full: it holds %llu %s, and %s allows %llu; the run ends here. "
                     "The session can still be read, streamed and replayed; to let it go further, raise %s "
                     "and replay it (POST /sessions/%s/replay)",
                     s->row.id, (unsigned long long)held, what, variable, (unsigned long long)limit, variable,
                     s->row.id);
}

/* The runner's sink: each new record is checked against the caps, goes to the store (durable),
 * and is counted; followers read it from the store. Nothing of it is kept in memory. */
static int record_sink(void *ctx, const json_t *record, char **error)
{
    run_job *job = ctx;
    sessions *ss = job->ss;
    session *s = job->s;
    size_t n;
    char *text = json_dump(record, JSON_COMPACT, &n);
    double seq = json_number_value(json_object_get(record, "seq"));
    pthread_mutex_lock(&ss->lock);
    int64_t pos = 0, epoch = s->epoch;
    if (s->log.records >= ss->cfg.log_caps.max_records)
        *error = log_full(s, "records", s->log.records, ss->cfg.log_caps.max_records, "CHIDORI_LOG_MAX_RECORDS");
    else if (s->log.bytes >= ss->cfg.log_caps.max_bytes)
        *error = log_full(s, "bytes", s->log.bytes, ss->cfg.log_caps.max_bytes, "CHIDORI_LOG_MAX_BYTES");
    else
        pos = ++s->log.last_pos; /* the sink is the session's only writer, one call at a time */
    pthread_mutex_unlock(&ss->lock);
    int rc = pos ? store_append_record_fenced(ss->st, s->row.id, (uint64_t)seq, pos, text, &ss->me, epoch, error) : -1;
    free(text);
    if (rc == -2) {
        /* fenced: another node took the session over (this one was too slow to renew); it runs the
         * session from its log, so this run stops here and its result is not recorded */
        *error = xasprintf("session %s: node %s no longer holds its lease (epoch %lld): another node runs it now; "
                           "this run stops without recording its last call",
                           s->row.id, ss->me.id, (long long)epoch);
        fprintf(stderr, "chidori serve: %s\n", *error);
        pthread_mutex_lock(&ss->lock);
        s->fenced = true;
        pthread_mutex_unlock(&ss->lock);
    }
    if (rc < 0) return -1;
    pthread_mutex_lock(&ss->lock);
    s->log.records++;
    s->log.bytes += n + 1;
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&ss->lock);
    return 0;
}

/* The attempt number a session's prompt events carry: the input's generation.attemptNumber (or
 * attempt_number), a whole number; -1 when it has none. */
static int64_t attempt_number(const json_t *input)
{
    const json_t *g = json_object_get(input, "generation");
    const json_t *a = json_object_get(g, "attemptNumber");
    if (!a || a->type != JSON_NUMBER) a = json_object_get(g, "attempt_number");
    double d = json_number_value(a);
    return a && a->type == JSON_NUMBER && d >= 0 && d <= 9007199254740991.0 && d == (double)(int64_t)d ? (int64_t)d : -1;
}

static void send_prompt_event(void *ctx, const char *payload) { store_notify(ctx, PROMPT_EVENTS_CHANNEL, payload); }

/* runner_request.prompt_event: a live prompt's event, kept for the session's streams. */
static void prompt_event(void *ctx, const json_t *event)
{
    run_job *job = ctx;
    sessions *ss = job->ss;
    session *s = job->s;
    pthread_mutex_lock(&ss->lock);
    if (!s->pevents) s->pevents = prompt_events_new();
    int64_t attempt = attempt_number(s->row.input);
    size_t records = call_count(s);
    prompt_events_push(s->pevents, event, attempt, records);
    pthread_cond_broadcast(&s->changed);
    pthread_mutex_unlock(&ss->lock);
    /* PostgreSQL: the other nodes' streams of this session get it too (the listener below). Sent
     * from this run's thread, in order, before the prompt's record is stored and announced. */
    if (store_is_shared(ss->st))
        prompt_notify_encode(ss->me.id, s->row.id, records, attempt, event, send_prompt_event, ss->st);
}

/* Called by the runner once the log is loaded into the run's host, before the agent starts: the
 * records read from the store for the replay are no longer needed (the request's pointer to them
 * is not used after this point). */
static void replay_loaded(void *ctx)
{
    run_job *job = ctx;
    json_free(job->records);
    job->records = NULL;
}

/* The session's own profile, layered on the server's policy; a name that no longer resolves
 * fails closed to untrusted. */
static struct policy *session_policy(const session *s)
{
    if (!s->row.policy_profile) return NULL;
    struct policy *p = policy_builtin(s->row.policy_profile);
    if (!p) {
        fprintf(stderr, "chidori serve: session %s: policy profile `%s` is unknown; running it under untrusted\n",
                s->row.id, s->row.policy_profile);
        p = policy_builtin("untrusted");
    }
    return p;
}

static void store_manifest(sessions *ss, const session_row *row, json_t *manifest);

/* A resume or an approval whose replay diverged from the session's log at or before the call it
 * waited on (the agent was edited, and allow_source_change let it through): nothing ran live, so
 * the session can be put back as it was. Undoes the answer the resume appended, if any; true when
 * the session is to be restored. Called by the run's thread once the run has ended, without the lock
 * (nothing else appends to the session's log). */
static bool refused_resume(sessions *ss, run_job *job, int64_t pos_before, const runner_outcome *out,
                           uint64_t *dropped)
{
    *dropped = 0;
    if (job->kind != RUN_RESUME && job->kind != RUN_APPROVED && job->kind != RUN_SIGNAL) return false;
    double seq = json_number_value(json_object_get(job->pending, "seq"));
    if (seq < 1 || !manifest_refused_before(out, (uint64_t)seq)) return false;
    char *why = NULL;
    /* a resume appended its answer at the pending seq (dropped again); an approval appends nothing
     * before its call runs, and that call going live counts in live_calls: seq 0 accepts none */
    uint64_t answer_seq = job->kind == RUN_RESUME ? (uint64_t)seq : 0;
    int d = store_drop_unanswered(ss->st, job->s->row.id, pos_before, answer_seq, dropped, &why);
    if (d < 0) {
        fprintf(stderr, "chidori serve: session %s: a resume that diverged cannot be undone: %s\n", job->s->row.id, why);
        free(why);
    }
    if ((d == 0 || d == 1) && job->s->was_manifest) /* the source it was recorded against, again */
        store_manifest(ss, &job->s->row, job->s->was_manifest);
    return d == 0 || d == 1;
}

/* Tell waiters taken off a session (sessions_notify_settled), the lock not held. */
static void notify_waiters(session_waiter *w)
{
    while (w) {
        session_waiter *next = w->next; /* w may be freed by its fn */
        w->fn(w->arg);
        w = next;
    }
}

/* A run has ended (paused, awaiting an approval, settled): the session's stored manifest lists the
 * modules it was served (runner_outcome.modules; manifest_set_served). Lock held.
 *
 * The manifest it was stored with is s->stored_manifest when this is a new session's first run (this
 * node stored it, and no other node could change it since: the run held the session's lease
 * throughout), else read from the store. When that text and the served lists are those of the last
 * new session's run (ss->memo), the result is known without building it: the same bytes. */
static void record_served(sessions *ss, session *s, json_t *served)
{
    char *before = s->stored_manifest;
    s->stored_manifest = NULL;
    if (!served) {
        free(before);
        return;
    }
    size_t n_served;
    char *served_text = json_dump(served, JSON_COMPACT, &n_served), *after = NULL;
    bool from_memo = false;
    if (before) {
        pthread_mutex_lock(&ss->memo_lock);
        if (ss->memo.before && ss->memo.served && !strcmp(before, ss->memo.before) &&
            !strcmp(served_text, ss->memo.served)) {
            after = xstrdup(ss->memo.after);
            from_memo = true;
        }
        pthread_mutex_unlock(&ss->memo_lock);
    }
    if (!from_memo) {
        json_t *m = NULL;
        char *error = NULL;
        int got = 0;
        if (before) { /* this node's own text: parsed, not read back */
            json_error jerr;
            m = json_parse(before, strlen(before), NULL, &jerr);
            got = m ? 1 : 0;
        } else if ((got = store_get_manifest(ss->st, s->row.id, &m, &error)) < 0) {
            fprintf(stderr, "chidori serve: session %s: its snapshot manifest is not updated with the modules the run "
                            "loaded (%s)\n", s->row.id, error);
            free(error);
        }
        if (got == 1) { /* unchanged (a resume that loaded what the last stretch did): nothing written */
            static const char *const keys[] = {"modules", "module_graph", "modules_past_cap"};
            bool same = true;
            for (size_t i = 0; i < 3 && same; i++) {
                const json_t *a = json_object_get(m, keys[i]), *b = json_object_get(served, keys[i]);
                same = (!a && !b) || (a && b && json_equal(a, b));
            }
            if (!same) manifest_set_served(m, served);
            after = same && before ? xstrdup(before) : !same ? json_dump(m, JSON_COMPACT, NULL) : NULL;
        }
        json_free(m);
        if (before && after) { /* the next new session's run that is served the same finds it */
            pthread_mutex_lock(&ss->memo_lock);
            if (ss->memo.before && !strcmp(before, ss->memo.before)) {
                free(ss->memo.served), ss->memo.served = served_text, served_text = NULL;
                free(ss->memo.after), ss->memo.after = xstrdup(after);
            }
            pthread_mutex_unlock(&ss->memo_lock);
        }
    }
    if (after && !(before && !strcmp(after, before))) { /* stored with the run's settle */
        json_free(s->served_manifest);
        s->served_manifest = json_raw(after, strlen(after));
        after = NULL;
    }
    free(after);
    free(before);
    free(served_text);
}

/* ---------- parked runs ----------
 * A run that pauses on an input (nobody can answer it now), on a signal (none queued) or for an
 * approval (a gated call the policy says to ask before) is settled as paused (awaitingapproval),
 * as its end would settle it: stored so, its lease released, its slot freed, its waiters told (a
 * signal pause's deadline armed, or a signal queued meanwhile handed to it at once). Its thread
 * and engine (and isolated worker) are then kept for up to park_ms, waiting for the answer: a
 * resume (a signal's run, an approval) in that time hands it over (start_run claims the lease and
 * stores the session running, as for any run; an approval is stored with the session first, a
 * signal handed to the call's seq in the mailbox, as for a re-run) and the run goes on where it
 * stopped, instead of being run again from the top against its log. The log is the same either way
 * (the answer is the input's record, appended before the agent sees it; an approved call is
 * performed and recorded as a re-run would), so a later replay of it gives the same run. A parked
 * run that is not handed an answer (its time ran out, the server stops, the session was cancelled,
 * denied or changed elsewhere, a resume or approval brought an edited source, another node took
 * it over) unwinds as an ordinary pause and changes nothing: the session is already stored as it
 * should be, and its next resume replays. A run under a wall-clock deadline does not park: the
 * deadline counts from the run's start, and a resume's replay starts a new one. */
static bool parking_on(const sessions *ss)
{
    const sessions_config *c = &ss->cfg;
    return c->park_ms > 0 && c->park_max > 0 && !c->limits.deadline_ms && !(c->iso.deadline_ms_set && c->iso.deadline_ms);
}

const char *sessions_parking(const sessions *ss)
{
    if (parking_on(ss)) return NULL;
    if (ss->cfg.park_ms <= 0 || ss->cfg.park_max <= 0) return "off (CHIDORI_SERVE_PARK_MS or _MAX is 0)";
    return "off (a wall-clock deadline is set: CHIDORI_JS_DEADLINE_MS or CHIDORI_ISOLATE_DEADLINE_MS)";
}

/* host_config.park: called on the run's thread, the lock not held. */
static int park_run(void *ctx, host *h, const json_t *pending, const json_t *approval, char **response)
{
    const char *status = approval ? "awaitingapproval" : "paused";
    run_job *job = ctx;
    sessions *ss = job->ss;
    session *s = job->s;
    *response = NULL;
    json_t *served = host_modules_served(h); /* the manifest a pause stores lists them */
    pthread_mutex_lock(&ss->lock);
    if (ss->stopping || s->cancel_requested || s->fenced || s->park || !s->running || ss->parked >= ss->cfg.park_max) {
        pthread_mutex_unlock(&ss->lock);
        json_free(served);
        return 0;
    }
    record_served(ss, s, served);
    clear_outcome(s);
    set_status(s, status);
    s->row.pending = json_copy(pending);
    s->row.pending_approval = approval ? json_copy(approval) : NULL;
    run_kind kind = approval ? RUN_APPROVED : signal_waits(s) ? RUN_SIGNAL : RUN_RESUME;
    signal_stamp_deadline(s); /* a signal pause's timeout, as its run's end would */
    json_free(s->was_manifest), s->was_manifest = NULL; /* its run went live: nothing to put back */
    json_free(s->was_awaiting), s->was_awaiting = NULL;
    s->running = false;
    ss->running--;
    settle(ss, s); /* stored and the lease released */
    if (s->served_manifest) {
        store_manifest(ss, &s->row, s->served_manifest);
        json_free(s->served_manifest), s->served_manifest = NULL;
    }
    struct park *pk = xcalloc(1, sizeof *pk);
    pk->kind = kind;
    pk->records = s->log.records;
    pk->last_pos = s->log.last_pos;
    s->park = pk;
    ss->parked++;
    /* a signal sent while it ran (queued) is handed to it at once, as to a run that ended here;
     * else the pause's deadline, if any, is armed */
    bool again = kind == RUN_SIGNAL && !s->fenced && signal_pause_settled(ss, s);
    pthread_cond_broadcast(&s->changed);
    pthread_cond_broadcast(&ss->changed);
    kick(ss); /* a slot came free */
    session_waiter *waiters = again ? NULL : s->waiters; /* they wait for the run that goes on */
    if (!again) s->waiters = NULL;
    pthread_mutex_unlock(&ss->lock);
    notify_waiters(waiters);
    json_free(served);

    pthread_mutex_lock(&ss->lock);
    struct timespec until = clock_monotonic_after_ms(ss->cfg.park_ms);
    while (pk->state == PARK_WAITING && !ss->stopping && is_status(s, status) && !s->fenced &&
           pthread_cond_timedwait(&s->changed, &ss->lock, &until) == 0) {
    }
    int got = 0;
    if (pk->state == PARK_HANDED) { /* start_run made it running again: the same run goes on */
        *response = pk->response;
        s->park = NULL;
        free(pk);
        ss->parked--;
        got = 1;
    } else {
        pk->state = PARK_LEAVING; /* its thread clears s->park once the run has unwound */
        job->parked_out = true;
    }
    pthread_cond_broadcast(&s->changed);
    pthread_cond_broadcast(&ss->changed);
    pthread_mutex_unlock(&ss->lock);
    return got;
}

/* Before a run of s starts (lock held, released while it waits): a parked run of it that is leaving
 * has unwound; with ask, a waiting one is asked to leave first. An honest run unwinds at once; a
 * compromised worker may take until its supervisor gives up on it, so the wait is bounded: false
 * (with *error) when the run has not gone within PARK_LEAVE_WAIT_MS. */
#define PARK_LEAVE_WAIT_MS 5000
static bool park_wait_gone(sessions *ss, session *s, bool ask, char **error)
{
    if (ask && s->park && s->park->state == PARK_WAITING) {
        s->park->state = PARK_LEAVING;
        pthread_cond_broadcast(&s->changed);
    }
    struct timespec until = clock_monotonic_after_ms(PARK_LEAVE_WAIT_MS);
    while (s->park && s->park->state == PARK_LEAVING && pthread_cond_timedwait(&s->changed, &ss->lock, &until) == 0) {
    }
    if (s->park && s->park->state == PARK_LEAVING) {
        *error = xasprintf("session %s: its parked run is still ending; try again", s->row.id);
        return false;
    }
    return true;
}

/* Is the session's stored log still the one its parked run stopped at? Another node may have
 * resumed it (replayed it, gone on, appended) meanwhile: then the run cannot take this answer. A
 * store that cannot say counts as changed (the replay way is always right). Lock held. */
static bool park_current(sessions *ss, session *s)
{
    size_t records;
    int64_t last_pos;
    char *why = NULL;
    if (store_log_head(ss->st, s->row.id, &records, &last_pos, &why) < 0) {
        free(why);
        return false;
    }
    return records == s->park->records && last_pos == s->park->last_pos;
}

/* A resume or an approval starts: the lock taken, a slot waited for (slot), and a parked run of s
 * that is leaving unwound. false with *error (the lock not held) when it did not go in time. */
static bool lock_for_answer(sessions *ss, session *s, bool slot, char **error)
{
    pthread_mutex_lock(&ss->lock);
    if (slot) wait_for_slot(ss);
    if (park_wait_gone(ss, s, false, error)) return true;
    pthread_mutex_unlock(&ss->lock);
    return false;
}

/* sessions_resume and sessions_approve, after check_source (changed: an edited source it accepted):
 * may the parked run of s, if any, take this answer? SS_OK: it may, or there is none. An edited
 * source is replayed from the top, and a session another node went on with is no longer where the
 * parked run stopped: then the parked run goes, the session is read again, changed and was are
 * dropped, and SS_RETRY says to check everything again; SS_CONFLICT (with *error) when the run did
 * not go in time. Lock held (released while it waits). */
#define SS_RETRY ((ss_result)-1)
static ss_result park_unfit(sessions *ss, session *s, json_t **changed, json_t **was, char **error)
{
    if (!s->park || (!*changed && park_current(ss, s))) return SS_OK;
    json_free(*changed), *changed = NULL;
    json_free(*was), *was = NULL;
    if (!park_wait_gone(ss, s, true, error)) return SS_CONFLICT;
    refresh(ss, s, true);
    return SS_RETRY;
}

/* The end of a run that settled at its park and was never handed an answer: the session is as its
 * park stored it; only the thread's hold on it goes. Lock held. */
static void park_left(sessions *ss, session *s)
{
    free(s->park->response);
    free(s->park);
    s->park = NULL;
    ss->parked--;
    runner_cancel_clear(&s->cancel);
    pthread_cond_broadcast(&s->changed);
    pthread_cond_broadcast(&ss->changed);
}

static void *run_thread(void *arg)
{
    run_job *job = arg;
    sessions *ss = job->ss;
    session *s = job->s;
    const sessions_config *cfg = &ss->cfg;
    struct policy *profile = session_policy(s);

    /* What the run reads of the session, taken under the lock; its log is read from the store
     * (nothing but this run's sink appends to it meanwhile). */
    pthread_mutex_lock(&ss->lock);
    json_t *input = json_copy(s->row.input);
    json_t *approvals = json_copy(s->row.approvals);
    bool has_records = s->log.records > 0;
    int64_t pos_before = s->log.last_pos; /* what this run appends comes after it */
    pthread_mutex_unlock(&ss->lock);
    char *error = NULL;
    int rc = 0;
    runner_outcome out = {0};
    /* read here, not under the sessions' lock: a long log takes a while */
    if (has_records) job->records = store_load_records(ss->st, s->row.id, &error);
    if (has_records && !job->records) rc = -1;

    runner_request req = {
        .project_root = cfg->project_root,
        .entry = cfg->entry,
        .state_dir = cfg->state_dir,
        .input = input,
        .seed = s->row.seed,
        .clock_start_ms = s->row.clock_start_ms,
        .limits = cfg->limits,
        .settings = cfg->settings,
        .log_caps = cfg->log_caps,
        .surface = &cfg->surface,
        .mode = LOG_REPLAY_THEN_LIVE,
        .records = job->records,
        .sink = record_sink,
        .sink_ctx = job,
        .prompt_event = prompt_event,
        .prompt_event_ctx = job,
        .adopt_open_calls = job->kind == RUN_RECOVER || job->kind == RUN_REPLAY,
        .pending = job->kind == RUN_RESUME ? job->pending : NULL,
        .response = job->response,
        .reopen = job->kind == RUN_APPROVED || job->kind == RUN_SIGNAL ? job->pending : NULL,
        .signals = &job->box,
        .policy = cfg->policy,
        .session_policy = profile,
        .approvals = approvals,
        .approvals_can_suspend = true,
        .isolated = cfg->isolated,
        .iso = cfg->iso,
        .engine_on_thread = true,
        .cancel = &s->cancel,
        .memory = &ss->memory,
        .ready = replay_loaded,
        .ready_ctx = job,
        .run_id = s->row.run_id,
        .traceparent = s->row.traceparent[0] ? s->row.traceparent : NULL,
        .park = parking_on(ss) ? park_run : NULL,
        .park_ctx = job,
    };
    if (rc == 0) {
        FILE *log = session_log_open(s->row.id);
        req.log_out = log;
        rc = runner_run(&req, &out, &error);
        if (log) fclose(log);
    }
    json_free(job->records);
    if (job->parked_out) { /* settled at its park: the session is as that stored it */
        if (rc == 0) runner_outcome_clear(&out);
        pthread_mutex_lock(&ss->lock);
        park_left(ss, s);
        release_locked(ss, s); /* the run's reference: s may be gone after this */
        pthread_mutex_unlock(&ss->lock);
        goto done;
    }
    uint64_t dropped = 0;
    bool refused = rc == 0 && out.status == RUNNER_FAILED && refused_resume(ss, job, pos_before, &out, &dropped);

    pthread_mutex_lock(&ss->lock);
    if (rc == 0 && !refused && !s->fenced) record_served(ss, s, out.modules);
    free(s->stored_manifest), s->stored_manifest = NULL; /* good for this run only */
    clear_outcome(s);
    if (refused && !s->cancel_requested) {
        /* as it was before the resume: waiting, its log unchanged; the error says why */
        if (dropped) s->log.records--, s->log.bytes -= dropped;
        set_status(s, job->kind == RUN_APPROVED ? "awaitingapproval" : "paused");
        if (job->kind == RUN_SIGNAL) { /* the signal it was handed is queued again (a timeout's dropped) */
            char *why = NULL;
            if (store_signal_unhand(ss->st, s->row.id, (uint64_t)json_number_value(json_object_get(job->pending, "seq")),
                                    &why) < 0)
                fprintf(stderr, "chidori serve: session %s: %s\n", s->row.id, why), free(why);
        }
        s->row.pending = json_copy(job->pending);
        if (job->kind == RUN_APPROVED) {
            s->row.pending_approval = s->was_awaiting, s->was_awaiting = NULL;
            if (s->row.approvals->u.array.len) /* the approval it had remembered */
                json_free(s->row.approvals->u.array.items[--s->row.approvals->u.array.len]);
        }
        s->row.error = xasprintf("the %s was refused: %s. Nothing was performed and the session waits as it did: "
                                 "put the recorded agent source back and try again",
                                 job->kind == RUN_RESUME ? "resume" : job->kind == RUN_SIGNAL ? "signal" : "approval",
                                 out.error);
    } else if (s->cancel_requested) {
        set_status(s, "cancelled");
        s->row.error = xstrdup("cancelled");
    } else if (rc < 0) {
        set_status(s, "failed");
        s->row.error = error, error = NULL;
    } else if (out.status == RUNNER_COMPLETED) {
        json_error jerr;
        s->row.output = json_parse(out.output_json, strlen(out.output_json), NULL, &jerr);
        set_status(s, s->row.output ? "completed" : "failed");
        if (!s->row.output) s->row.error = xasprintf("the agent's output cannot be stored: %s", jerr.message);
    } else if (out.status == RUNNER_FAILED) {
        set_status(s, "failed");
        s->row.error = out.error, out.error = NULL;
        s->input_invalid = out.input_invalid;
    } else {
        set_status(s, out.status == RUNNER_PAUSED ? "paused" : "awaitingapproval");
        s->row.pending = out.pending, out.pending = NULL;
        s->row.pending_approval = out.pending_approval, out.pending_approval = NULL;
        signal_stamp_deadline(s);
    }
    if (rc == 0) runner_outcome_clear(&out);
    json_free(s->was_manifest), s->was_manifest = NULL;
    json_free(s->was_awaiting), s->was_awaiting = NULL;
    s->running = false;
    ss->running--;
    runner_cancel_clear(&s->cancel);
    if (!ss->stopping && !s->fenced) settle(ss, s); /* stored and the lease released, while it holds it */
    if (s->served_manifest) { /* not settled here (stopping), or the settle failed: on its own */
        if (!s->fenced) store_manifest(ss, &s->row, s->served_manifest);
        json_free(s->served_manifest), s->served_manifest = NULL;
    }
    if (ss->stopping && !s->fenced) {
        /* it stays running: the next server, or another node at once, re-runs it */
        char *why = NULL;
        if (store_lease_release(ss->st, s->row.id, &ss->me, s->epoch, &why) < 0)
            fprintf(stderr, "chidori serve: session %s: %s\n", s->row.id, why), free(why);
    }
    if (s->fenced) refresh(ss, s, true); /* as the node that owns it now stored it */
    /* a signal pause whose signal is already queued goes on at once: its waiters wait for that run */
    bool again = !refused && !ss->stopping && !s->fenced && signal_pause_settled(ss, s);
    pthread_cond_broadcast(&s->changed);
    pthread_cond_broadcast(&ss->changed); /* ss->running changed */
    kick(ss); /* a slot came free: a queued session may start */
    again = again || (!ss->stopping && remote(s)); /* its waiters wait for the node that runs it now */
    session_waiter *waiters = again ? NULL : s->waiters;
    if (!again) s->waiters = NULL;
    release_locked(ss, s); /* the run's reference: s may be gone after this */
    pthread_mutex_unlock(&ss->lock);
    notify_waiters(waiters);
done:
    free(error);
    json_free(input);
    json_free(approvals);
    policy_free(profile);
    json_free(job->pending);
    free(job->response);
    free(job);
    return NULL;
}

/* Start a run of s (lock held). The session is stored as running first, unless store is false:
 * the caller has just stored it so (a new session, a replay, one found running at start-up).
 * claimed_epoch: the lease's epoch when the caller claimed it already (a new session's, in the
 * transaction that stored it; a queued one's, in the claim that made it running), else 0.
 * When it cannot start, a session stored as running is stored as failed, with the reason; one
 * that was not is left as it was, in memory and in the store. Takes pending and response over. */
static ss_result start_run(sessions *ss, session *s, run_kind kind, json_t *pending, char *response, bool store,
                           int64_t claimed_epoch, char **error)
{
    if (s->park && (s->park->state != PARK_WAITING || kind != s->park->kind)) {
        /* a run it cannot hand over to (a take-over of a session another node went on with and
         * died, a replay): the parked run goes first (the lock is let go meanwhile, so what
         * another request did then is seen: a run it started) */
        bool gone = park_wait_gone(ss, s, true, error);
        if (gone && s->running) *error = xasprintf("session %s is running already", s->row.id);
        if (!gone || s->running) {
            json_free(pending);
            free(response);
            return SS_CONFLICT;
        }
    }
    /* this node owns the run through the session's lease first (store_cluster.h): of two nodes
     * starting it at once, one does */
    int64_t epoch = claimed_epoch;
    int claimed = epoch > 0 ? 1
                            : store_lease_claim(ss->st, s->row.id, &ss->me, clock_realtime_ms(), ss->cfg.lease_ms, -1,
                                                &epoch, error);
    if (claimed > 0 && store) {
        /* it may have changed on another node since it was read: start only what was checked. The
         * call it waits on counts too: another node may have resumed it, and it paused again at a
         * later call meanwhile (a parked run goes on and pauses again within milliseconds) */
        uint64_t stored_seq = 0, checked_seq = 0;
        if (!as_whole(json_object_get(pending, "seq"), &checked_seq)) checked_seq = pending_seq(&s->row);
        char *why = NULL, *now = store_session_status(ss->st, s->row.id, &stored_seq, &why);
        if (!now || strcmp(now, s->row.status) != 0 || stored_seq != checked_seq) {
            *error = now ? xasprintf("session %s changed on another node meanwhile (it is %s now%s); look at it again",
                                     s->row.id, now, strcmp(now, s->row.status) ? "" : ", at another call")
                         : why ? why : xasprintf("session %s is no longer stored", s->row.id);
            if (now) free(why);
            char *ignored = NULL;
            store_lease_release(ss->st, s->row.id, &ss->me, epoch, &ignored);
            free(ignored);
            claimed = -2;
        }
        free(now);
    }
    if (claimed <= 0) {
        if (claimed == 0)
            *error = xasprintf("session %s is running on another node (its lease is held); try again once it has "
                               "settled", s->row.id);
        json_free(pending);
        free(response);
        return claimed == -1 ? SS_ERROR : SS_CONFLICT;
    }
    if (s->park && !park_current(ss, s)) {
        /* changed on another node since the caller looked (its lease is ours now, so it stays as it
         * is): the parked run goes, and the next attempt replays */
        *error = xasprintf("session %s changed on another node meanwhile; look at it again", s->row.id);
        char *ignored = NULL;
        store_lease_release(ss->st, s->row.id, &ss->me, epoch, &ignored);
        free(ignored);
        s->park->state = PARK_LEAVING;
        pthread_cond_broadcast(&s->changed);
        json_free(pending);
        free(response);
        return SS_CONFLICT;
    }
    s->epoch = epoch;
    s->fenced = false;
    free(s->node);
    s->node = xstrdup(ss->me.id);
    bool stored_running = !store, lost = false;
    if (count_records(ss, s, error) < 0) goto fail;
    if (store) {
        /* what the row becomes, stored before the session in memory changes */
        session_row next = s->row;
        next.status = (char *)"running";
        next.output = next.pending = next.pending_approval = NULL;
        next.error = NULL;
        next.call_count = call_count(s);
        /* only from the status checked above: a cancel or a denial another node stored meanwhile
         * (they change the status without the lease) stands, and this run does not start */
        int written = store_update_session_if(ss->st, &next, s->row.status, error);
        if (written < 0) goto fail;
        if (written == 0) {
            *error = xasprintf("session %s changed on another node meanwhile; look at it again", s->row.id);
            if (s->park) s->park->state = PARK_LEAVING, pthread_cond_broadcast(&s->changed);
            lost = true;
            goto fail;
        }
        stored_running = true;
    }
    set_status(s, "running");
    clear_outcome(s);
    s->cancel_requested = false;
    s->unsaved = false;
    if (s->park) { /* its parked run takes the answer and goes on (sessions_resume or _approve checked it may) */
        s->park->state = PARK_HANDED;
        s->park->response = response;
        json_free(pending);
        s->running = true;
        ss->running++;
        pthread_cond_broadcast(&s->changed);
        return SS_OK;
    }
    if (runner_cancel_init(&s->cancel) < 0) {
        /* without an eventfd, a cancel still stops an isolated run at its next effect (and an
         * in-process one at its engine's next interrupt poll, through the flag) */
    }
    run_job *job = xcalloc(1, sizeof *job);
    *job = (run_job){ss, s, kind, pending, response, NULL, {signal_take, NULL}, false};
    job->box.ctx = job;
    s->running = true;
    s->refs++; /* the run's own, released by run_thread when it has settled */
    ss->running++;
    if (threads_run_detached(run_thread, job) == 0) return SS_OK; /* a thread kept between runs */
    s->running = false;
    s->refs--;
    ss->running--;
    free(job);
    runner_cancel_clear(&s->cancel);
    *error = xstrdup("cannot start a thread for the session");
fail:
    json_free(pending);
    free(response);
    if (stored_running) {
        clear_outcome(s);
        set_status(s, "failed");
        s->row.error = kind == RUN_RECOVER
                           ? xasprintf("the server restarted while it was running, and it could not be re-run: %s", *error)
                           : xstrdup(*error);
        save_or_report(ss, s);
        pthread_cond_broadcast(&s->changed);
    }
    /* the lease claimed above goes with the run that did not start, not when it expires */
    char *ignored = NULL;
    store_lease_release(ss->st, s->row.id, &ss->me, epoch, &ignored);
    free(ignored);
    if (lost) refresh(ss, s, false); /* as the node that changed it stored it */
    return lost ? SS_CONFLICT : SS_ERROR;
}

/* With every slot taken, wait (ss->lock released meanwhile) up to CHIDORI_ACQUIRE_TIMEOUT_MS for a
 * run to end, as the original does before its 503. Called first under the lock, before a request's
 * own checks, so those see the state after the wait; check_capacity then decides. */
static void wait_for_slot(sessions *ss)
{
    if (ss->cfg.acquire_timeout_ms <= 0 || ss->stopping || ss->running < ss->cfg.max_running) return;
    struct timespec until = clock_monotonic_after_ms(ss->cfg.acquire_timeout_ms);
    while (!ss->stopping && ss->running >= ss->cfg.max_running &&
           pthread_cond_timedwait(&ss->changed, &ss->lock, &until) == 0) {
    }
}

static ss_result check_capacity(sessions *ss, char **error)
{
    if (ss->stopping) {
        *error = xstrdup("the server is shutting down");
        return SS_STOPPING;
    }
    if (ss->running >= ss->cfg.max_running) {
        *error = xasprintf("server busy: too many running sessions (%d, CHIDORI_MAX_CONCURRENT_SESSIONS); retry later",
                           ss->cfg.max_running);
        return SS_BUSY;
    }
    return SS_OK;
}

/* ---------- loading and stopping ---------- */

/* Every row is read (and checked) once and counted; only the running ones are kept. The walk
 * runs under the store's lock, so they are made resident after it. */
typedef struct load_ctx {
    sessions *ss;
    size_t total;
    session_row *running;
    size_t n_running, cap;
} load_ctx;

static void signal_rearm(sessions *ss, const session_row *r);

static void load_one(void *ctx, session_row *r)
{
    load_ctx *lc = ctx;
    lc->total++;
    if (!strcmp(r->status, "paused")) signal_rearm(lc->ss, r); /* its deadline, if it waits for a signal */
}

static size_t adopt_orphans(sessions *ss, bool at_start);
static void *ticker(void *arg);
static void *listener(void *arg);

int sessions_load(sessions *ss, size_t *total, size_t *rerun, char **error)
{
    load_ctx lc = {.ss = ss};
    *total = *rerun = 0;
    int rc = store_load_sessions(ss->st, load_one, &lc, error);
    free(lc.running);
    if (rc < 0) return -1;
    /* The sessions stored as running that no live node holds (cut off by the end of the previous
     * server, or of another node) run again here; those another node runs stay with it. */
    *rerun = adopt_orphans(ss, true);
    *total = lc.total;
    pthread_mutex_lock(&ss->lock);
    if (!ss->ticker_on && !ss->stopping) ss->ticker_on = pthread_create(&ss->ticker, NULL, ticker, ss) == 0;
    if (!ss->listener_on && !ss->stopping && store_is_shared(ss->st))
        ss->listener_on = pthread_create(&ss->listener, NULL, listener, ss) == 0;
    pthread_mutex_unlock(&ss->lock);
    return 0;
}

void sessions_stop(sessions *ss)
{
    /* the timers first, without the lock (a deadline firing takes it): a stored deadline is
     * re-armed by the next server */
    pthread_mutex_lock(&ss->lock); /* a settling run arms deadlines under it: none sees a freed set */
    signal_deadlines *dl = ss->deadlines;
    ss->deadlines = NULL;
    pthread_mutex_unlock(&ss->lock);
    signal_deadlines_stop(dl);
    pthread_mutex_lock(&ss->lock); /* the ticker next: it starts runs */
    bool ticking = ss->ticker_on, hearing = ss->listener_on;
    ss->ticker_quit = true, ss->ticker_on = false, ss->listener_on = false;
    pthread_cond_broadcast(&ss->tick);
    pthread_mutex_unlock(&ss->lock);
    if (ticking) pthread_join(ss->ticker, NULL);
    if (hearing) pthread_join(ss->listener, NULL);
    pthread_mutex_lock(&ss->lock);
    ss->stopping = true;
    size_t pos = 0;
    const char *id;
    void *v;
    session_waiter *waiters = NULL;
    while (strmap_next(&ss->resident, &pos, &id, &v)) {
        session *s = v;
        if (s->running) runner_cancel_now(&s->cancel);
        pthread_cond_broadcast(&s->changed); /* its waiters see `stopping` */
        while (s->waiters) { /* and so do those that do not wait on a thread */
            session_waiter *w = s->waiters;
            s->waiters = w->next;
            w->next = waiters;
            waiters = w;
        }
    }
    pthread_cond_broadcast(&ss->changed);
    pthread_mutex_unlock(&ss->lock);
    notify_waiters(waiters);
}

bool sessions_drain(sessions *ss, int timeout_ms)
{
    struct timespec until = clock_monotonic_after_ms(timeout_ms);
    pthread_mutex_lock(&ss->lock);
    while ((ss->running > 0 || ss->parked > 0) && pthread_cond_timedwait(&ss->changed, &ss->lock, &until) == 0) {
    }
    bool idle = ss->running == 0 && ss->parked == 0;
    pthread_mutex_unlock(&ss->lock);
    return idle;
}

void sessions_free(sessions *ss)
{
    if (!ss) return;
    size_t pos = 0;
    const char *id;
    void *v;
    signal_deadlines_stop(ss->deadlines);
    if (ss->ticker_on) { /* freed without sessions_stop (a test) */
        pthread_mutex_lock(&ss->lock);
        ss->ticker_quit = true;
        pthread_cond_broadcast(&ss->tick);
        pthread_mutex_unlock(&ss->lock);
        pthread_join(ss->ticker, NULL);
    }
    if (ss->listener_on) {
        pthread_mutex_lock(&ss->lock);
        ss->ticker_quit = true;
        pthread_mutex_unlock(&ss->lock);
        pthread_join(ss->listener, NULL);
    }
    while (strmap_next(&ss->resident, &pos, &id, &v)) free_session(v);
    strmap_free(&ss->resident);
    pthread_cond_destroy(&ss->changed);
    pthread_cond_destroy(&ss->tick);
    pthread_cond_destroy(&ss->synced);
    pthread_mutex_destroy(&ss->lock);
    pthread_mutex_destroy(&ss->memo_lock);
    free(ss->memo.before);
    free(ss->memo.served);
    free(ss->memo.after);
    free(ss);
}

bool sessions_stopping(sessions *ss)
{
    pthread_mutex_lock(&ss->lock);
    bool stopping = ss->stopping;
    pthread_mutex_unlock(&ss->lock);
    return stopping;
}

void sessions_wait(sessions *ss, session *s)
{
    pthread_mutex_lock(&ss->lock);
    while (active(s) && !ss->stopping) pthread_cond_wait(&s->changed, &ss->lock);
    pthread_mutex_unlock(&ss->lock);
}

bool sessions_notify_settled(sessions *ss, session *s, session_waiter *w)
{
    pthread_mutex_lock(&ss->lock);
    bool kept = active(s) && !ss->stopping; /* running elsewhere: the ticker tells it (sessions_wake) */
    if (kept) {
        w->next = s->waiters;
        s->waiters = w;
    }
    pthread_mutex_unlock(&ss->lock);
    return kept;
}

/* ---------- snapshot manifests (runner/manifest.h) ---------- */

/* The manifest of a session's run as the agent's files are now, the part sessions share (what the
 * store keeps: manifest_shared_part). NULL with *error. */
static json_t *build_manifest(const sessions *ss, const session_row *row, const json_t *recheck, char **error)
{
    manifest_inputs in = {
        .run_id = row->run_id,
        .project_root = ss->cfg.project_root,
        .entry = ss->cfg.entry,
        .surface = &ss->cfg.surface,
        .settings = ss->cfg.settings,
        .seed = row->seed,
        .created_at_ms = row->created_at_ms,
        .recheck = recheck,
    };
    json_t *m = manifest_build(&in, error);
    json_t *shared = m ? manifest_shared_part(m) : NULL;
    json_free(m);
    return shared;
}

/* What a client sees of a session's stored manifest (lock held). */
static json_t *full_manifest(const session *s, const json_t *shared, size_t calls)
{
    json_t *m = manifest_from_shared(shared, s->row.run_id, s->row.seed, s->row.created_at_ms);
    json_t *v = manifest_view(m, calls, s->row.pending, !strcmp(s->row.status, "awaitingapproval"));
    json_free(m);
    return v;
}

static void manifest_missing(const session_row *row, char *error)
{
    fprintf(stderr, "chidori serve: session %s: its snapshot manifest is not stored (%s); a resume of it will not "
                    "check the agent's source\n",
            row->id, error ? error : "unknown error");
    free(error);
}

/* The manifest a new session (or a replay's copy) is stored with, as text (json_raw), or NULL (said
 * on stderr: the session then resumes without the check, as one stored by an older chidori). The
 * shared part depends on nothing but the server's settings and the entry file, so while the entry
 * hashes as it did for the last one built, that one's text is used again (ss->memo). */
static json_t *manifest_or_warn(sessions *ss, const session_row *row)
{
    char *error = NULL, hash[25];
    if (manifest_entry_hash(ss->cfg.project_root, ss->cfg.entry, hash, &error) < 0) {
        manifest_missing(row, error);
        return NULL;
    }
    char *text = NULL;
    pthread_mutex_lock(&ss->memo_lock);
    if (ss->memo.before && !strcmp(ss->memo.entry_hash, hash)) text = xstrdup(ss->memo.before);
    pthread_mutex_unlock(&ss->memo_lock);
    if (!text) {
        json_t *m = build_manifest(ss, row, NULL, &error);
        if (!m) {
            manifest_missing(row, error);
            return NULL;
        }
        /* keyed by the hash it was built from (the file may have changed since it was hashed above) */
        const char *built = json_string_value(json_object_get(json_object_get(m, "entry"), "hash"));
        text = json_dump(m, JSON_COMPACT, NULL);
        pthread_mutex_lock(&ss->memo_lock);
        if (built && strlen(built) < sizeof ss->memo.entry_hash) {
            memcpy(ss->memo.entry_hash, built, strlen(built) + 1);
            free(ss->memo.before), ss->memo.before = xstrdup(text);
            free(ss->memo.served), ss->memo.served = NULL;
            free(ss->memo.after), ss->memo.after = NULL;
        }
        pthread_mutex_unlock(&ss->memo_lock);
        json_free(m);
    }
    return json_raw(text, strlen(text));
}

/* Replace a session's manifest: a resume accepted an edited source, or a refused one puts the
 * recorded one back. A failure is reported, not fatal. */
static void store_manifest(sessions *ss, const session_row *row, json_t *manifest)
{
    char *error = NULL;
    if (store_put_manifest(ss->st, row->id, manifest, &error) < 0) manifest_missing(row, error);
}

/* Before a resume or an approval replays the session's recorded calls: is the agent's source the
 * one they were recorded against? SS_OK (with *changed, the manifest to store once the run has
 * started, when allow accepted a change), SS_CONFLICT with the reason (nothing of the session is
 * touched), SS_ERROR when the store failed. Lock held. */
static ss_result check_source(sessions *ss, session *s, bool allow, json_t **changed, json_t **was, char **error)
{
    *changed = *was = NULL;
    json_t *recorded = NULL;
    int got = store_get_manifest(ss->st, s->row.id, &recorded, error);
    if (got == STORE_MANIFEST_UNREADABLE && !allow) {
        char *why = *error;
        *error = xasprintf("%s, so the agent's source cannot be checked against the one the session's calls were "
                           "recorded by; pass \"allow_source_change\": true to resume it without the check (a new "
                           "manifest is stored)", why);
        free(why);
        return SS_CONFLICT;
    }
    if (got == STORE_MANIFEST_UNREADABLE) { /* allowed: a new manifest, stored once the run has started */
        fprintf(stderr, "chidori serve: resuming without checking the agent's source (allow_source_change): %s\n",
                *error);
        free(*error), *error = NULL;
        char *why = NULL;
        *changed = build_manifest(ss, &s->row, NULL, &why);
        if (!*changed) manifest_missing(&s->row, why);
        return SS_OK;
    }
    if (got < 0) return SS_ERROR;
    if (got == 0) {
        fprintf(stderr, "chidori serve: session %s has no snapshot manifest (stored by an older chidori); resuming "
                        "it without checking the agent's source\n", s->row.id);
        return SS_OK;
    }
    char *why = NULL;
    json_t *now = build_manifest(ss, &s->row, recorded, &why);
    if (!now) {
        json_free(recorded);
        *error = xasprintf("session %s cannot be resumed: the agent's source cannot be read (%s)", s->row.id, why);
        free(why);
        return SS_CONFLICT;
    }
    manifest_verdict v = manifest_compare(recorded, now, allow, &why);
    if (v != MANIFEST_SAME) {
        json_free(recorded);
        json_free(now);
        *error = why;
        return SS_CONFLICT;
    }
    if (why) { /* a change, accepted */
        fprintf(stderr, "chidori serve: session %s: resuming against an edited agent (allow_source_change): %s\n",
                s->row.id, why);
        free(why);
        *changed = now;
        *was = recorded;
    } else {
        json_free(now);
        json_free(recorded);
    }
    return SS_OK;
}

/* After check_source let an edited source through and the run started (r): the edited source's
 * manifest is the session's now; the one it replaces is kept until the run is known to have gone
 * past its recorded calls (a refused resume puts it back). Takes changed and was over. Lock held. */
static void accept_source(sessions *ss, session *s, ss_result r, json_t *changed, json_t *was)
{
    if (r == SS_OK && changed) {
        store_manifest(ss, &s->row, changed);
        json_free(s->was_manifest);
        s->was_manifest = was, was = NULL;
    }
    json_free(changed);
    json_free(was);
}

ss_result sessions_snapshot(sessions *ss, session *s, json_t **out, char **error)
{
    *out = NULL;
    json_t *m = NULL;
    pthread_mutex_lock(&ss->lock);
    char *id = xstrdup(s->row.id);
    pthread_mutex_unlock(&ss->lock);
    int got = store_get_manifest(ss->st, id, &m, error);
    free(id);
    if (got < 0) return SS_ERROR;
    if (got == 0) {
        *error = xstrdup("Snapshot manifest not found");
        return SS_NOT_FOUND;
    }
    pthread_mutex_lock(&ss->lock);
    json_t *o = json_object();
    json_object_set(o, "id", json_string(s->row.id));
    json_object_set(o, "run_id", json_string(s->row.run_id));
    json_object_set(o, "snapshot_manifest", full_manifest(s, m, call_count(s)));
    pthread_mutex_unlock(&ss->lock);
    json_free(m);
    *out = o;
    return SS_OK;
}

/* ---------- operations ---------- */

ss_result sessions_create(sessions *ss, const json_t *input, const char *profile, const char *id, const char *traceparent, session **out,
                          char **error)
{
    return sessions_create_replaying(ss, input, profile, id, traceparent, NULL, out, NULL, error);
}

static json_t *view(const session *s);

ss_result sessions_create_replaying(sessions *ss, const json_t *input, const char *profile, const char *id,
                                    const char *traceparent, const json_t *records, session **out,
                                    json_t **view_at_start, char **error)
{
    return sessions_create_queued(ss, input, profile, id, traceparent, records, false, out, view_at_start, error);
}

ss_result sessions_create_queued(sessions *ss, const json_t *input, const char *profile, const char *id,
                                 const char *traceparent, const json_t *records, bool queue, session **out,
                                 json_t **view_at_start, char **error)
{
    if (view_at_start) *view_at_start = NULL;
    session_row row = {0};
    char fresh[37];
    if (!id) uuid_v4(fresh);
    row.id = xstrdup(id ? id : fresh);
    uuid_v4(row.run_id);
    row.status = xstrdup("running");
    row.input = json_copy(input);
    row.policy_profile = profile ? xstrdup(profile) : NULL;
    row.approvals = json_array();
    row.created_at_ms = clock_realtime_ms();
    /* the caller's trace: every run of the session is a child of it (a malformed one is ignored) */
    if (otel_traceparent_valid(traceparent)) memcpy(row.traceparent, traceparent, 55);
    run_start_capture(ss->cfg.settings, &row.seed, &row.clock_start_ms);
    json_t *manifest = manifest_or_warn(ss, &row); /* read before the lock: a file */
    *out = NULL;
    pthread_mutex_lock(&ss->lock);
    wait_for_slot(ss);
    ss_result r = check_capacity(ss, error);
    bool queued = r == SS_BUSY && queue; /* every slot here is taken: the first node with room runs it */
    if (queued) {
        free(*error), *error = NULL;
        free(row.status);
        row.status = xstrdup("queued");
        r = SS_OK;
    }
    /* A resident session is in the store too; the store's primary key sees the others. */
    bool duplicate = r == SS_OK && strmap_get(&ss->resident, row.id);
    /* a session that runs here at once is stored with its lease claimed, in one transaction */
    store_claim claim = {row.id, &ss->me, clock_realtime_ms(), ss->cfg.lease_ms, 0};
    store_tx_step claim_step = {store_claim_step, &claim};
    if (r == SS_OK && !duplicate &&
        store_insert_session_with(ss->st, &row, NULL, records, manifest, queued ? NULL : &claim_step, &duplicate,
                                  error) < 0) {
        r = SS_ERROR;
        if (duplicate) free(*error), *error = NULL;
    }
    if (r == SS_OK && queued) store_announce(ss->st, STORE_QUEUED_EVENT); /* another node with room may claim it now */
    if (duplicate) {
        *error = xasprintf("a session with id `%s` already exists", row.id);
        r = SS_CONFLICT;
    }
    if (r == SS_OK) {
        session *s = add(ss, &row);
        s->counted = !records; /* a new session's log is empty; given records are counted from the store */
        s->refs++; /* the caller's */
        r = queued ? SS_OK : start_run(ss, s, RUN_NEW, NULL, NULL, false, claim.epoch, error);
        /* the text it was stored with, for its run's end (record_served); the lock is held, so the
         * run cannot have ended yet */
        if (r == SS_OK && !queued && json_is_raw(manifest)) s->stored_manifest = xstrdup(manifest->u.string.bytes);
        if (queued) kick(ss);
        if (r == SS_OK) *out = s;
        else release_locked(ss, s);
        /* the lock is still held: the run cannot have settled yet, so this is the view as created */
        if (r == SS_OK && view_at_start) *view_at_start = view(s);
    }
    pthread_mutex_unlock(&ss->lock);
    session_row_clear(&row);
    json_free(manifest);
    return r;
}

ss_result sessions_resume(sessions *ss, session *s, const char *response, bool allow_source_change, char **error)
{
    if (!lock_for_answer(ss, s, true, error)) return SS_CONFLICT;
    ss_result r;
    json_t *changed, *was;
again:
    r = SS_OK;
    changed = was = NULL;
    const char *fn = json_string_value(json_object_get(s->row.pending, "function"));
    if (s->running || !is_status(s, "paused") || !fn || strcmp(fn, "input") != 0) {
        *error = is_status(s, "failed")
                     ? xasprintf("session %s failed; it cannot be resumed (POST /sessions/%s/replay runs it again)",
                                 s->row.id, s->row.id)
                     : xasprintf("session %s is %s, not paused on an input", s->row.id, s->row.status);
        r = SS_CONFLICT;
    }
    if (r == SS_OK) r = check_source(ss, s, allow_source_change, &changed, &was, error);
    if (r == SS_OK && (r = park_unfit(ss, s, &changed, &was, error)) == SS_RETRY) goto again;
    if (r == SS_OK) r = check_capacity(ss, error);
    if (r == SS_OK) r = start_run(ss, s, RUN_RESUME, json_copy(s->row.pending), xstrdup(response), true, 0, error);
    accept_source(ss, s, r, changed, was);
    pthread_mutex_unlock(&ss->lock);
    return r;
}

/* A waiting (paused or awaitingapproval) session settled here without a run (deny, cancel): first
 * a compare-and-set of its stored status, so a resume or approval another node made meanwhile is
 * never overwritten (that node's lease claim checks the status too: one of the two wins). The
 * lock held. */
static ss_result settle_waiting(sessions *ss, session *s, const char *to, const char *error_text, char **error)
{
    char *from = xstrdup(s->row.status);
    int c = store_session_cas(ss->st, s->row.id, from, to, error_text, error);
    free(from);
    if (c < 0) return SS_ERROR;
    if (c == 0) {
        refresh(ss, s, false);
        *error = xasprintf("session %s changed on another node meanwhile (it is %s now); look at it again", s->row.id,
                           s->row.status);
        return SS_CONFLICT;
    }
    return SS_OK;
}

ss_result sessions_approve(sessions *ss, session *s, bool allow, bool allow_source_change, char **error)
{
    if (!lock_for_answer(ss, s, allow, error)) return SS_CONFLICT;
    ss_result r;
    json_t *changed, *was;
again:
    r = SS_OK;
    changed = was = NULL;
    const json_t *pa = s->row.pending_approval;
    const char *target = json_string_value(json_object_get(pa, "target"));
    if (s->running || !is_status(s, "awaitingapproval") || !target) {
        *error = xasprintf("session %s is %s, not awaiting an approval", s->row.id, s->row.status);
        r = SS_CONFLICT;
    } else if (!allow) {
        char *message = xasprintf("policy: `%s` denied by operator", target);
        if ((r = settle_waiting(ss, s, "failed", message, error)) == SS_OK) {
            clear_outcome(s);
            set_status(s, "failed");
            s->row.error = message, message = NULL;
            if (save(ss, s, error) < 0) r = SS_ERROR;
            pthread_cond_broadcast(&s->changed);
        }
        free(message);
    } else if ((r = check_source(ss, s, allow_source_change, &changed, &was, error)) == SS_OK &&
               (r = park_unfit(ss, s, &changed, &was, error)) == SS_RETRY) {
        goto again;
    } else if (r == SS_OK && (r = check_capacity(ss, error)) == SS_OK) {
        json_t *approval = json_object();
        json_object_set(approval, "target", json_string(target));
        json_object_set(approval, "args", json_copy(json_object_get(pa, "args")));
        json_array_push(s->row.approvals, approval);
        json_t *awaiting = json_copy(s->row.pending_approval); /* start_run clears it */
        r = start_run(ss, s, RUN_APPROVED, json_copy(s->row.pending), NULL, true, 0, error);
        if (r == SS_OK) json_free(s->was_awaiting), s->was_awaiting = awaiting;
        else json_free(awaiting);
        if (r != SS_OK && is_status(s, "awaitingapproval")) /* not started, nothing stored: as it was */
            json_free(s->row.approvals->u.array.items[--s->row.approvals->u.array.len]);
    }
    accept_source(ss, s, r, changed, was);
    pthread_mutex_unlock(&ss->lock);
    return r;
}

ss_result sessions_cancel(sessions *ss, session *s, char **error)
{
    pthread_mutex_lock(&ss->lock);
    ss_result r = SS_OK;
    if (remote(s)) {
        /* it runs (or waits to run) on another node: marked in the store, where its node sees it at
         * its next renewal and stops; a queued one never starts */
        char *from = xstrdup(s->row.status);
        int c = store_session_cas(ss->st, s->row.id, from, "cancelled", "cancelled", error);
        if (c > 0) {
            clear_outcome(s);
            set_status(s, "cancelled");
            s->row.error = xstrdup("cancelled");
            pthread_cond_broadcast(&s->changed);
        } else if (c == 0) {
            refresh(ss, s, false);
            *error = xasprintf("session %s changed on another node meanwhile (it is %s now); look at it again",
                               s->row.id, s->row.status);
        }
        free(from);
        pthread_mutex_unlock(&ss->lock);
        return c > 0 ? SS_OK : c == 0 ? SS_CONFLICT : SS_ERROR;
    }
    if (s->running && !s->cancel_requested) {
        s->cancel_requested = true;
        runner_cancel_now(&s->cancel);
    } else if (s->running || !(is_status(s, "paused") || is_status(s, "awaitingapproval"))) {
        *error = xasprintf("session %s is %s; only a running or waiting session can be cancelled", s->row.id,
                           s->row.status);
        r = SS_CONFLICT;
    }
    /* a waiting session: its stored status first, so a resume on another node is not overwritten */
    if (r == SS_OK && !s->running) r = settle_waiting(ss, s, "cancelled", "cancelled", error);
    if (r == SS_OK) {
        /* Stored at once: a crash before the run has stopped must not bring the session back. */
        clear_outcome(s);
        set_status(s, "cancelled");
        s->row.error = xstrdup("cancelled");
        if (save(ss, s, error) < 0) r = SS_ERROR;
        pthread_cond_broadcast(&s->changed);
    }
    pthread_mutex_unlock(&ss->lock);
    return r;
}

ss_result sessions_replay(sessions *ss, session *src, session **out, char **error)
{
    pthread_mutex_lock(&ss->lock);
    wait_for_slot(ss);
    ss_result r = SS_OK;
    if (active(src)) {
        *error = xasprintf("session %s is still running; replay it once it has settled", src->row.id);
        r = SS_CONFLICT;
    }
    if (r == SS_OK) r = check_capacity(ss, error);
    session_row row = {0};
    if (r == SS_OK) {
        char fresh[37];
        uuid_v4(fresh);
        row.id = xstrdup(fresh);
        uuid_v4(row.run_id);
        row.status = xstrdup("running");
        row.input = json_copy(src->row.input);
        row.policy_profile = src->row.policy_profile ? xstrdup(src->row.policy_profile) : NULL;
        row.approvals = json_copy(src->row.approvals);
        row.seed = src->row.seed;
        row.clock_start_ms = src->row.clock_start_ms;
        row.created_at_ms = clock_realtime_ms();
        row.replayed_from = xstrdup(src->row.id);
        row.call_count = call_count(src);
        bool duplicate;
        json_t *manifest = manifest_or_warn(ss, &row);
        if (store_insert_session_with(ss->st, &row, src->row.id, NULL, manifest, NULL, &duplicate, error) < 0) r = SS_ERROR;
        json_free(manifest);
    }
    *out = NULL;
    if (r == SS_OK) {
        session *s = add(ss, &row);
        s->refs++; /* the caller's */
        r = start_run(ss, s, RUN_REPLAY, NULL, NULL, false, 0, error);
        if (r == SS_OK) *out = s;
        else release_locked(ss, s);
    }
    pthread_mutex_unlock(&ss->lock);
    session_row_clear(&row);
    return r;
}

/* ---------- views ---------- */

static json_t *or_null(json_t *v) { return v ? v : json_null(); }

static json_t *iso_time(int64_t ms)
{
    char text[RFC3339_MAX];
    rfc3339_format_ms(ms, text);
    return json_string(text);
}

static void signal_view(const session_row *r, json_t *v);

/* The view of a row whose log holds calls records; node: the node that runs it or ran it last. */
static json_t *view_row(const session_row *r, size_t calls, const char *node)
{
    json_t *v = json_object();
    json_object_set(v, "id", json_string(r->id));
    json_object_set(v, "run_id", json_string(r->run_id));
    json_object_set(v, "status", json_string(r->status));
    json_object_set(v, "input", json_copy(r->input));
    json_object_set(v, "output", or_null(json_copy(r->output)));
    json_object_set(v, "error", r->error ? json_string(r->error) : json_null());
    json_object_set(v, "call_count", json_number((double)calls));
    const json_t *prompt = NULL;
    if (!strcmp(r->status, "paused") && !strcmp(json_string_value(json_object_get(r->pending, "function")) ?: "", "input"))
        prompt = json_object_get(json_object_get(r->pending, "args"), "prompt");
    json_object_set(v, "pending_prompt", or_null(json_copy(prompt)));
    signal_view(r, v);
    json_object_set(v, "pending_approval", or_null(json_copy(r->pending_approval)));
    json_object_set(v, "policy_profile", r->policy_profile ? json_string(r->policy_profile) : json_null());
    json_object_set(v, "created_at", iso_time(r->created_at_ms));
    json_object_set(v, "node", node ? json_string(node) : json_null());
    if (r->replayed_from) json_object_set(v, "replayed_from", json_string(r->replayed_from));
    return v;
}

/* With the lock held. */
static json_t *view(const session *s) { return view_row(&s->row, call_count(s), s->node); }

bool sessions_input_invalid(sessions *ss, session *s)
{
    pthread_mutex_lock(&ss->lock);
    bool invalid = s->input_invalid && !strcmp(s->row.status, "failed");
    pthread_mutex_unlock(&ss->lock);
    return invalid;
}

json_t *sessions_view(sessions *ss, session *s)
{
    pthread_mutex_lock(&ss->lock);
    json_t *v = view(s);
    pthread_mutex_unlock(&ss->lock);
    return v;
}

static void list_one(void *ctx, session_row *r) { json_array_push(ctx, view_row(r, r->call_count, NULL)); }

json_t *sessions_list(sessions *ss, char **error)
{
    /* The rows, in the store's order, read without the sessions' lock (the walk holds the store's);
     * then the resident sessions' views replace theirs: memory is ahead of the store while a
     * session runs (its call count), or when a save failed. Like any list of things that change,
     * it is not one instant: a session that settled and left memory during the walk shows the
     * state the walk read, one it was in during the request. */
    json_t *list = json_array();
    if (store_load_sessions(ss->st, list_one, list, error) < 0) {
        json_free(list);
        return NULL;
    }
    for (size_t i = 0; i < list->u.array.len; i++) { /* the node of each (a lease's owner) */
        json_t *item = list->u.array.items[i];
        char *node = store_lease_owner(ss->st, json_string_value(json_object_get(item, "id")));
        if (node) json_object_set(item, "node", json_string(node));
        free(node);
    }
    pthread_mutex_lock(&ss->lock);
    for (size_t i = 0; strmap_len(&ss->resident) && i < list->u.array.len; i++) {
        json_t **item = &list->u.array.items[i];
        session *s = strmap_get(&ss->resident, json_string_value(json_object_get(*item, "id")));
        if (!s || remote(s)) continue; /* a remote one's row is as fresh as the walk */
        json_free(*item);
        *item = view(s);
    }
    pthread_mutex_unlock(&ss->lock);
    json_t *o = json_object();
    json_object_set(o, "sessions", list);
    return o;
}

json_t *sessions_checkpoint(sessions *ss, session *s, char **error)
{
    /* the view first, the log after, read without the sessions' lock (a long log takes a while):
     * a running session's log may then hold records the view does not count yet */
    pthread_mutex_lock(&ss->lock);
    json_t *o = json_object();
    json_object_set(o, "id", json_string(s->row.id));
    json_object_set(o, "run_id", json_string(s->row.run_id));
    json_object_set(o, "status", json_string(s->row.status));
    json_object_set(o, "input", json_copy(s->row.input));
    pthread_mutex_unlock(&ss->lock);
    json_t *log = store_load_records(ss->st, json_string_value(json_object_get(o, "id")), error);
    if (!log) {
        json_free(o);
        return NULL;
    }
    json_object_set(o, "call_log", log);
    json_t *m = NULL;
    char *why = NULL;
    if (store_get_manifest(ss->st, json_string_value(json_object_get(o, "id")), &m, &why) < 0) {
        fprintf(stderr, "chidori serve: %s\n", why); /* the checkpoint is still whole without it */
        free(why);
    }
    pthread_mutex_lock(&ss->lock);
    json_object_set(o, "snapshot_manifest", m ? full_manifest(s, m, call_count(s)) : json_null());
    pthread_mutex_unlock(&ss->lock);
    json_free(m);
    return o;
}

/* ---------- following ---------- */

int sessions_follow(sessions *ss, session *s, session_follower *f, char **error)
{
    memset(f, 0, sizeof *f);
    f->s = s;
    pthread_mutex_lock(&ss->lock);
    int rc = count_records(ss, s, error);
    if (rc == 0) {
        s->followers++;
        s->refs++; /* the follower's own: a stream outlives the handler that started it */
    }
    pthread_mutex_unlock(&ss->lock);
    return rc;
}

void sessions_unfollow(sessions *ss, session_follower *f)
{
    pthread_mutex_lock(&ss->lock);
    f->s->followers--;
    release_locked(ss, f->s);
    pthread_mutex_unlock(&ss->lock);
    json_free(f->page);
    f->page = NULL;
    f->s = NULL;
}

#define FOLLOW_PAGE 64 /* records a stream reads from the store at a time */

static char *dump(json_t *v)
{
    char *text = json_dump(v, JSON_COMPACT, NULL);
    json_free(v);
    return text;
}

static void listener_sync(sessions *ss);

int sessions_follow_next(sessions *ss, session_follower *f, int timeout_ms, const char **event, char **data)
{
    session *s = f->s;
    struct timespec until = clock_monotonic_after_ms(timeout_ms);
    int rc = -1;
    pthread_mutex_lock(&ss->lock);
    for (;;) {
        if (f->done || ss->stopping) break;
        if (prompt_events_next(s->pevents, &f->prompt_next, f->next, event, data)) {
            rc = 1;
            break;
        }
        if (f->page && f->page_next < f->page->u.array.len) {
            *event = "call";
            *data = json_dump(f->page->u.array.items[f->page_next++], JSON_COMPACT, NULL);
            f->next++;
            f->waiting_sent = false; /* a record: the run went on past the pause it sent */
            rc = 1;
            break;
        }
        if (f->next < call_count(s)) {
            /* the next page from the store, read without the sessions' lock */
            json_free(f->page);
            f->page = NULL;
            f->page_next = 0;
            pthread_mutex_unlock(&ss->lock);
            char *error = NULL;
            json_t *page = store_load_records_page(ss->st, s->row.id, f->last_pos, FOLLOW_PAGE, &f->last_pos, &error);
            /* records another node stored: the prompt events it relayed before them (prompt_heard)
             * are handled here first, so they are sent before those records */
            if (page && page->u.array.len) listener_sync(ss);
            pthread_mutex_lock(&ss->lock);
            if (!page) {
                fprintf(stderr, "chidori serve: a stream of session %s ends: %s\n", s->row.id, error);
                free(error);
                break;
            }
            if (!page->u.array.len) f->next = call_count(s); /* a stored count ahead of its log: nothing to send */
            f->page = page;
            continue;
        }
        if (active(s)) f->waiting_sent = false; /* a signal pause went on: its `paused` was sent */
        if (!active(s) && !(f->waiting_sent && signal_waits(s))) {
            bool waits = is_status(s, "paused") || is_status(s, "awaitingapproval");
            if (waits && !f->waiting_sent) {
                *event = is_status(s, "paused") ? "paused" : "awaitingapproval";
                f->waiting_sent = true;
            } else {
                *event = "done";
                f->done = true;
            }
            *data = dump(view(s));
            rc = 1;
            break;
        }
        if (pthread_cond_timedwait(&s->changed, &ss->lock, &until) != 0) {
            rc = 0;
            break;
        }
    }
    pthread_mutex_unlock(&ss->lock);
    return rc;
}

/* ---------- signals (docs/http-api.md#signals) ----------
 *
 * A session paused on chidori.signal keeps {seq, function: signal | signal_any, args: {name |
 * names, timeout_ms?}} as its pending call, and deadline_ms (wall clock) when it has a timeout,
 * stamped when the pause is stored. A signal for it is handed to that seq in the session's mailbox
 * (store_signals.h) and the session runs again (RUN_SIGNAL): its replay reaches the call, which
 * takes what was handed. Every other signal is queued, and taken by the first call that listens to
 * its name. A deadline hands the timeout's sentinel the same way, so of a signal and a timeout
 * racing for one pause, exactly one is taken, and a server killed at any point takes it again
 * after its restart, never a second one. */

static bool row_signal_pause(const session_row *r)
{
    const char *fn = json_string_value(json_object_get(r->pending, "function"));
    return !strcmp(r->status, "paused") && fn && (!strcmp(fn, "signal") || !strcmp(fn, "signal_any"));
}

static bool signal_waits(const session *s) { return row_signal_pause(&s->row); }

/* The names the pause listens to (borrowed from its pending call). */
static size_t signal_names(const json_t *pending, const char **names, size_t max)
{
    const json_t *args = json_object_get(pending, "args"), *list = json_object_get(args, "names");
    if (!list) {
        names[0] = json_string_value(json_object_get(args, "name"));
        return names[0] ? 1 : 0;
    }
    size_t n = 0;
    for (size_t i = 0; json_is_array(list) && i < list->u.array.len && n < max; i++)
        if ((names[n] = json_string_value(list->u.array.items[i]))) n++;
    return n;
}

static bool as_whole(const json_t *v, uint64_t *out)
{
    if (!v || v->type != JSON_NUMBER || !(v->u.number >= 1 && v->u.number <= 9007199254740991.0) ||
        v->u.number != (double)(uint64_t)v->u.number)
        return false;
    *out = (uint64_t)v->u.number;
    return true;
}

static uint64_t pending_seq(const session_row *r)
{
    uint64_t seq = 0;
    as_whole(json_object_get(r->pending, "seq"), &seq);
    return seq;
}

static void signal_stamp_deadline(session *s)
{
    uint64_t timeout;
    if (!row_signal_pause(&s->row) || json_object_get(s->row.pending, "deadline_ms") ||
        !as_whole(json_object_get(json_object_get(s->row.pending, "args"), "timeout_ms"), &timeout))
        return;
    json_object_set(s->row.pending, "deadline_ms", json_number((double)(clock_realtime_ms() + (int64_t)timeout)));
}

static void signal_rearm(sessions *ss, const session_row *r)
{
    uint64_t at, seq = pending_seq(r);
    if (row_signal_pause(r) && seq && as_whole(json_object_get(r->pending, "deadline_ms"), &at))
        signal_deadlines_arm(ss->deadlines, r->id, seq, (int64_t)at);
}

static void signal_view(const session_row *r, json_t *v)
{
    bool waits = !strcmp(r->status, "paused") || !strcmp(r->status, "awaitingapproval");
    uint64_t seq = waits ? pending_seq(r) : 0;
    json_object_set(v, "pending_seq", seq ? json_number((double)seq) : json_null());
    json_t *name = json_null(), *names = json_null(), *deadline = json_null();
    if (row_signal_pause(r)) {
        const char *list[64];
        size_t n = signal_names(r->pending, list, 64);
        json_free(names), names = json_array();
        for (size_t i = 0; i < n; i++) json_array_push(names, json_string(list[i]));
        if (n) json_free(name), name = json_string(list[0]);
        uint64_t at;
        if (as_whole(json_object_get(r->pending, "deadline_ms"), &at)) json_free(deadline), deadline = iso_time((int64_t)at);
    }
    json_object_set(v, "pending_signal_name", name);
    json_object_set(v, "pending_signal_names", names);
    json_object_set(v, "pending_signal_deadline", deadline);
}

/* host_signal_box.take of a session's runs. */
static int signal_take(void *ctx, uint64_t seq, const char *const *names, size_t n, json_t **signal, char **error)
{
    run_job *job = ctx;
    return store_signal_take(job->ss->st, job->s->row.id, seq, names, n, signal, error);
}

/* A signal (or a timeout's sentinel) waits for a pause whose run could not start now: its lease is
 * held elsewhere (a node that died holding it, or one that is between its claim and its release),
 * the server is full, the store failed. The deadline timer tries again in a while: it starts the
 * run when something waits for the call, before it looks at the pause's own deadline
 * (signal_deadline_fired), so this never loses that deadline either. */
#define SIGNAL_RETRY_MS 1000
static void signal_retry_later(sessions *ss, const session *s)
{
    uint64_t seq = pending_seq(&s->row);
    if (seq) signal_deadlines_arm(ss->deadlines, s->row.id, seq, clock_realtime_ms() + SIGNAL_RETRY_MS);
}

/* A run has just settled (lock held, saved): paused on a signal already queued, it goes on at once
 * (true); else its deadline, if any, is armed. */
static bool signal_pause_settled(sessions *ss, session *s)
{
    if (!signal_waits(s)) return false;
    const char *names[64];
    size_t n = signal_names(s->row.pending, names, 64);
    char *error = NULL;
    int queued = store_signal_waiting(ss->st, s->row.id, pending_seq(&s->row), names, n, &error);
    if (queued < 0) {
        fprintf(stderr, "chidori serve: session %s: %s\n", s->row.id, error);
        free(error), error = NULL;
    }
    if (queued == 1) {
        ss_result r = start_run(ss, s, RUN_SIGNAL, json_copy(s->row.pending), NULL, true, 0, &error);
        if (r == SS_OK) return true;
        if (r != SS_CONFLICT) fprintf(stderr, "chidori serve: session %s: %s\n", s->row.id, error);
        free(error);
        signal_retry_later(ss, s); /* its lease held elsewhere, say: the signal waits, and is tried again */
        return false;
    }
    if (queued < 0) signal_retry_later(ss, s);
    else signal_rearm(ss, &s->row);
    return false;
}

/* The timer of a session's signal pause: its deadline, or a retry (signal_retry_later). A signal
 * (or a sentinel) waiting for the call starts the run; else, once the pause's deadline has passed,
 * the timeout's sentinel is handed to the call and the run starts; a retry before the deadline
 * arms the deadline again (the timer keeps one entry a session). */
static void signal_deadline_fired(void *ctx, const char *id, uint64_t seq)
{
    sessions *ss = ctx;
    char *error = NULL;
    session *s = sessions_find(ss, id, &error);
    if (!s) {
        if (error) fprintf(stderr, "chidori serve: session %s: its signal deadline: %s\n", id, error);
        free(error);
        return;
    }
    pthread_mutex_lock(&ss->lock);
    json_t *changed = NULL, *was = NULL;
    if (!ss->stopping && !s->running) refresh(ss, s, true); /* another node may have gone on with it */
    if (!ss->stopping && !s->running && signal_waits(s) && pending_seq(&s->row) == seq) {
        uint64_t at = 0;
        bool due = as_whole(json_object_get(s->row.pending, "deadline_ms"), &at) && clock_realtime_ms() >= (int64_t)at;
        const char *names[64];
        size_t n = signal_names(s->row.pending, names, 64);
        int waiting = store_signal_waiting(ss->st, id, seq, names, n, &error);
        if (waiting < 0) {
            fprintf(stderr, "chidori serve: session %s: its signal timer: %s\n", id, error);
            free(error), error = NULL;
            signal_retry_later(ss, s);
        } else if (!waiting && !due) {
            if (at) signal_deadlines_arm(ss->deadlines, id, seq, (int64_t)at); /* a retry found nothing */
        } else if (check_capacity(ss, &error) != SS_OK) { /* try again in a second */
            free(error), error = NULL;
            signal_retry_later(ss, s);
        } else if (check_source(ss, s, false, &changed, &was, &error) != SS_OK) {
            /* an edited agent never runs on by itself: the session waits for a signal sent with
             * allow_source_change (or for its source back and a restart of the server) */
            fprintf(stderr, "chidori serve: session %s: its signal %s, but it is not resumed: %s\n", id,
                    waiting ? "is waiting" : "deadline passed", error);
            free(error), error = NULL;
        } else if (s->park && (s->park->state == PARK_LEAVING || !park_current(ss, s))) {
            /* its parked run is unwinding, or stale (the session went on on another node): it is
             * asked to go, and the timer tries again in a second rather than waiting here, on the
             * one thread of every session's deadline */
            if (s->park->state == PARK_WAITING) {
                s->park->state = PARK_LEAVING;
                pthread_cond_broadcast(&s->changed);
            }
            signal_retry_later(ss, s);
        } else {
            int put = 0;
            if (!waiting) { /* due: the timeout's sentinel is handed to the call */
                const char *fn = json_string_value(json_object_get(s->row.pending, "function"));
                json_t *sentinel = json_object();
                json_object_set(sentinel, "name", strcmp(fn, "signal") == 0 && n ? json_string(names[0]) : json_null());
                json_object_set(sentinel, "payload", json_null());
                json_object_set(sentinel, "from", json_null());
                json_object_set(sentinel, "timedOut", json_bool(true));
                uint64_t dseq;
                bool before;
                /* the empty name: no call listens to it, so a sentinel never leaves its pause */
                put = store_signal_put(ss->st, id, "", sentinel, seq, &dseq, &before, &error);
                json_free(sentinel);
            }
            ss_result r = put < 0 ? SS_ERROR : start_run(ss, s, RUN_SIGNAL, json_copy(s->row.pending), NULL, true, 0,
                                                         &error);
            if (r != SS_OK) {
                if (r != SS_CONFLICT) fprintf(stderr, "chidori serve: session %s: its signal timer: %s\n", id, error);
                free(error), error = NULL;
                signal_retry_later(ss, s); /* its lease held elsewhere, say */
            }
        }
    }
    json_free(changed);
    json_free(was);
    release_locked(ss, s);
    pthread_mutex_unlock(&ss->lock);
}

/* A signal was put in the mailbox of a session that this node did not see waiting for it (its
 * row here was stale, or its run on another node had not paused yet), or whose run it could not
 * start (always): the session is read again, and paused now on a call for which a signal waits, it
 * goes on (a run parked here at an earlier call goes first; one parked where the session is takes
 * it), or is tried again by the timer when it cannot start now. A run that settles checks the
 * mailbox after its pause is stored and a signal is stored before this reads the session, so one of
 * the two sees the other. Without always, nothing more is done when the session is stored as this
 * node saw it (one small read). An edited agent is not run on by this (as by a timer). Lock held
 * (let go while a parked run goes). */
static void signal_catch_up(sessions *ss, session *s, bool always)
{
    if (ss->stopping || s->running) return;
    if (!always) {
        uint64_t seq = 0;
        char *why = NULL, *now = store_session_status(ss->st, s->row.id, &seq, &why);
        bool same = now && !strcmp(now, s->row.status) && seq == pending_seq(&s->row);
        free(now);
        free(why);
        if (same) return;
    }
    refresh(ss, s, true);
    char *late = NULL;
    if (s->park && (s->park->state != PARK_WAITING || !park_current(ss, s)) && !park_wait_gone(ss, s, true, &late))
        fprintf(stderr, "chidori serve: %s\n", late);
    free(late);
    if (s->running || ss->stopping || (s->park && s->park->state != PARK_WAITING) || !signal_waits(s)) return;
    const char *names[64];
    size_t n = signal_names(s->row.pending, names, 64);
    char *error = NULL;
    json_t *changed = NULL, *was = NULL;
    int waiting = store_signal_waiting(ss->st, s->row.id, pending_seq(&s->row), names, n, &error);
    if (waiting < 0 || (waiting && check_capacity(ss, &error) != SS_OK)) {
        signal_retry_later(ss, s);
    } else if (waiting && check_source(ss, s, false, &changed, &was, &error) != SS_OK) {
        fprintf(stderr, "chidori serve: session %s: a signal waits for it, but it is not resumed: %s\n", s->row.id,
                error);
    } else if (waiting) {
        ss_result r = start_run(ss, s, RUN_SIGNAL, json_copy(s->row.pending), NULL, true, 0, &error);
        if (r != SS_OK && r != SS_CONFLICT) fprintf(stderr, "chidori serve: session %s: %s\n", s->row.id, error);
        if (r != SS_OK) signal_retry_later(ss, s);
    }
    free(error);
    json_free(changed);
    json_free(was);
}

/* The status as the original spells it in its refusal ("Completed"). */
static const char *status_word(const char *status)
{
    return !strcmp(status, "completed") ? "Completed" : !strcmp(status, "failed") ? "Failed" : "Cancelled";
}

ss_result sessions_signal(sessions *ss, session *s, const char *name, const json_t *payload, const json_t *from,
                          bool allow_source_change, bool *resumed, uint64_t *delivery_seq, char **error)
{
    json_t *body = json_object();
    json_object_set(body, "name", json_string(name));
    json_object_set(body, "payload", payload ? json_copy(payload) : json_null());
    json_object_set(body, "from", from ? json_copy(from) : json_null());
    *resumed = false;
    pthread_mutex_lock(&ss->lock);
    ss_result r;
    bool handed_before = false;
    json_t *changed, *was;
again:
    r = SS_OK;
    changed = was = NULL;
    const char *names[64];
    size_t n = !s->running && signal_waits(s) ? signal_names(s->row.pending, names, 64) : 0;
    bool listens = false;
    for (size_t i = 0; i < n; i++) listens = listens || !strcmp(names[i], name);
    if (!s->running && (is_status(s, "completed") || is_status(s, "failed") || is_status(s, "cancelled"))) {
        *error = xasprintf("session is %s; cannot accept signals", status_word(s->row.status));
        r = SS_CONFLICT;
    } else if (listens && s->park && s->park->state == PARK_LEAVING) {
        /* its parked run is unwinding: the signal's run starts once it has gone (the lock is let go
         * meanwhile, so everything is looked at again) */
        if (!park_wait_gone(ss, s, false, error)) r = SS_CONFLICT;
        else goto again;
    } else if (listens) {
        r = check_source(ss, s, allow_source_change, &changed, &was, error);
        /* a parked run takes it where it stopped, unless the source was edited or the session went
         * on elsewhere: then it goes, and the signal's run replays */
        if (r == SS_OK && (r = park_unfit(ss, s, &changed, &was, error)) == SS_RETRY) goto again;
        if (r == SS_OK) r = check_capacity(ss, error);
        int put = r == SS_OK ? store_signal_put(ss->st, s->row.id, name, body, pending_seq(&s->row), delivery_seq,
                                                &handed_before, error) : 0;
        if (put < 0) r = put == -2 ? SS_CONFLICT : SS_ERROR;
        bool stored = r == SS_OK;
        /* handed_before: a timeout was handed to the pause first (its run is due): this one is queued */
        if (r == SS_OK) r = start_run(ss, s, RUN_SIGNAL, json_copy(s->row.pending), NULL, true, 0, error);
        if (r == SS_OK) *resumed = !handed_before;
        accept_source(ss, s, r, changed, was);
        if (stored && r != SS_OK) {
            /* another node went on with the session meanwhile (it holds the lease, or stored it
             * running, or paused at a later call): the signal is in the mailbox, and that run or the
             * next call listening takes it. So the sender is told it is queued: a 409 would have it
             * sent again, and taken twice. The session is read again: paused already at a later call
             * that listens to it (its run here or there may have looked at the mailbox before the
             * signal was in it), it goes on now; a run parked here at the earlier call goes first. */
            free(*error), *error = NULL;
            r = SS_OK;
            signal_catch_up(ss, s, true);
            if (!s->running && (is_status(s, "completed") || is_status(s, "failed") || is_status(s, "cancelled")) &&
                store_signal_taken(ss->st, s->row.id, *delivery_seq, error) != 1) {
                /* it ended elsewhere meanwhile without taking it: nothing will, and a retry is
                 * refused too (one it took first, ending because of it, was accepted) */
                free(*error);
                *error = xasprintf("session is %s; cannot accept signals", status_word(s->row.status));
                r = SS_CONFLICT;
            }
        }
    } else {
        int put = store_signal_put(ss->st, s->row.id, name, body, 0, delivery_seq, &handed_before, error);
        if (put < 0) r = put == -2 ? SS_CONFLICT : SS_ERROR; /* a full mailbox is the sender's to wait for */
        /* not running here: it may have paused on another node on a call that listens to it after
         * that node looked at the mailbox, and before the signal was in it */
        else if (!s->running) signal_catch_up(ss, s, false);
    }
    pthread_mutex_unlock(&ss->lock);
    json_free(body);
    return r;
}

/* ---------- nodes sharing the store (docs/scaling.md) ----------
 *
 * One ticker thread a node: every CLUSTER_POLL_MS it reads again the resident sessions that run on
 * another node (sessions_wake: their streams and waiters follow the store) and starts queued
 * sessions while this node has room; every lease/3 it renews the leases of the sessions running
 * here (a lease found taken over stops its run: fenced; a session found cancelled by another node
 * is cancelled here) and takes over the running sessions whose lease ended. */

#define CLUSTER_POLL_MS 100
/* PostgreSQL, while the listener hears the other nodes' NOTIFYs: the poll is only the safety net
 * (a notification lost with a dropped connection), and the queue's claims (a node queues a
 * session when all its own slots are taken; it announces it too). */
#define CLUSTER_POLL_NOTIFIED_MS 500 /* unless CHIDORI_CLUSTER_POLL_MS says otherwise */
#define LISTEN_WAIT_MS 250      /* how often the listener looks at ticker_quit */
#define LISTEN_RETRY_MS 1000    /* between two attempts to connect again */

/* Read a resident session that does not run here again from the store (lock held): another node
 * may have changed it. row.id is kept (other threads read it without the lock). stats: measure its
 * log too (it runs elsewhere: its count is live). 1 when something a stream sees changed. */
static int refresh(sessions *ss, session *s, bool stats)
{
    if (s->running || s->unsaved || ss->stopping) return 0;
    session_row row;
    char *error = NULL;
    int rc = store_get_session(ss->st, s->row.id, &row, &error);
    if (rc <= 0) {
        free(error);
        return 0;
    }
    bool changed = strcmp(row.status, s->row.status) != 0;
    if (changed) pthread_cond_broadcast(&s->changed); /* a parked run of it sees it changed elsewhere */
    free(row.id);
    row.id = s->row.id;
    s->row.id = NULL;
    session_row_clear(&s->row);
    s->row = row;
    free(s->node);
    s->node = store_lease_owner(ss->st, s->row.id);
    size_t before = call_count(s);
    s->counted = false;
    if (stats && count_records(ss, s, &error) < 0) free(error);
    return changed || call_count(s) != before;
}

/* A run of this node has ended (lock held, not stopping): its outcome and the manifest its run's
 * end made (s->served_manifest, record_served) are stored and its lease released, in one
 * transaction, while the lease is still its own. Settled, the manifest is let go; fenced (the
 * lease moved on), it is dropped with the rest; a failed settle leaves it to be stored alone. */
static void settle(sessions *ss, session *s)
{
    s->row.call_count = call_count(s);
    char *error = NULL;
    int rc = store_settle_fenced(ss->st, &s->row, &ss->me, s->epoch, true, s->served_manifest, &error);
    if (rc == -3) { /* cancelled on another node meanwhile: cancelled it is */
        clear_outcome(s);
        set_status(s, "cancelled");
        s->row.error = xstrdup("cancelled");
        rc = store_settle_fenced(ss->st, &s->row, &ss->me, s->epoch, true, s->served_manifest, &error);
    }
    if (rc == -1 && s->served_manifest) { /* the outcome first: the manifest is then stored alone */
        free(error), error = NULL;
        rc = store_settle_fenced(ss->st, &s->row, &ss->me, s->epoch, true, NULL, &error);
        if (rc == 0) { /* its manifest stays in s->served_manifest: run_thread stores it alone */
            s->unsaved = false;
            return;
        }
    }
    if (rc == 0 || rc == -2) json_free(s->served_manifest), s->served_manifest = NULL;
    if (rc == -2) {
        fprintf(stderr, "chidori serve: session %s: node %s no longer holds its lease (epoch %lld); the node that "
                        "took it over settles it\n", s->row.id, ss->me.id, (long long)s->epoch);
        s->fenced = true;
        s->unsaved = false;
        return;
    }
    s->unsaved = rc < 0;
    if (rc < 0) {
        fprintf(stderr, "chidori serve: session %s: %s\n", s->row.id, error);
        free(error);
    }
}

/* Wake the ticker now (lock held). */
static void kick(sessions *ss)
{
    ss->tick_now = true;
    pthread_cond_signal(&ss->tick);
}

/* Followed while it waits for a signal, which another node may take: read again like a remote one. */
static bool watched(const session *s) { return remote(s) || (!s->running && s->followers > 0 && signal_waits(s)); }

void sessions_wake(sessions *ss, session *s)
{
    pthread_mutex_lock(&ss->lock);
    session_waiter *waiters = NULL;
    if (watched(s)) {
        if (refresh(ss, s, true)) pthread_cond_broadcast(&s->changed);
        if (!active(s)) { /* settled on the other node: what waited for it is told */
            pthread_cond_broadcast(&s->changed);
            waiters = s->waiters, s->waiters = NULL;
        }
    }
    pthread_mutex_unlock(&ss->lock);
    notify_waiters(waiters);
}

/* The resident sessions that pass keep, each with a reference (the caller releases them). */
static session **resident_where(sessions *ss, bool (*keep)(const session *), size_t *n)
{
    pthread_mutex_lock(&ss->lock);
    session **list = xcalloc(strmap_len(&ss->resident) + 1, sizeof *list);
    *n = 0;
    size_t pos = 0;
    const char *id;
    void *v;
    while (strmap_next(&ss->resident, &pos, &id, &v))
        if (keep(v)) list[(*n)++] = v, ((session *)v)->refs++;
    pthread_mutex_unlock(&ss->lock);
    return list;
}

static bool runs_here(const session *s) { return s->running; }

static void release_all(sessions *ss, session **list, size_t n)
{
    for (size_t i = 0; i < n; i++) sessions_release(ss, list[i]);
    free(list);
}

static void renew_leases(sessions *ss)
{
    size_t n;
    session **list = resident_where(ss, runs_here, &n);
    for (size_t i = 0; i < n; i++) {
        session *s = list[i];
        pthread_mutex_lock(&ss->lock);
        int64_t epoch = s->epoch;
        pthread_mutex_unlock(&ss->lock);
        char *error = NULL;
        int held = store_lease_renew(ss->st, s->row.id, &ss->me, epoch, clock_realtime_ms() + ss->cfg.lease_ms, &error);
        char *status = held > 0 ? store_session_status(ss->st, s->row.id, NULL, &error) : NULL;
        if (held < 0 || error) fprintf(stderr, "chidori serve: session %s: %s\n", s->row.id, error);
        free(error);
        pthread_mutex_lock(&ss->lock);
        if (s->running && s->epoch == epoch && held == 0 && !s->fenced) {
            fprintf(stderr, "chidori serve: session %s: node %s lost its lease (epoch %lld) to another node; its run "
                            "here stops\n", s->row.id, ss->me.id, (long long)epoch);
            s->fenced = true;
            runner_cancel_now(&s->cancel);
        }
        if (s->running && status && !strcmp(status, "cancelled") && !s->cancel_requested) {
            s->cancel_requested = true; /* cancelled on another node */
            clear_outcome(s);
            set_status(s, "cancelled");
            s->row.error = xstrdup("cancelled");
            runner_cancel_now(&s->cancel);
            pthread_cond_broadcast(&s->changed);
        }
        pthread_mutex_unlock(&ss->lock);
        free(status);
    }
    release_all(ss, list, n);
}

static void poll_remote(sessions *ss)
{
    size_t n;
    session **list = resident_where(ss, watched, &n);
    for (size_t i = 0; i < n; i++) sessions_wake(ss, list[i]);
    release_all(ss, list, n);
}

typedef struct adopt_ctx {
    sessions *ss;
    bool at_start; /* sessions_load: every orphan runs again, as the single server always did */
    size_t started;
} adopt_ctx;

/* A running session whose node is gone: its lease is claimed, and it runs here from its log. */
static void adopt_one(void *ctx, const char *id, int64_t dead_epoch)
{
    adopt_ctx *ac = ctx;
    sessions *ss = ac->ss;
    pthread_mutex_lock(&ss->lock);
    session *r = strmap_get(&ss->resident, id);
    bool skip = ss->stopping || (r && r->running) || (!ac->at_start && ss->running >= ss->cfg.max_running);
    pthread_mutex_unlock(&ss->lock);
    if (skip) return;
    int64_t epoch;
    char *error = NULL;
    if (store_lease_claim(ss->st, id, &ss->me, clock_realtime_ms(), ss->cfg.lease_ms, dead_epoch, &epoch, &error) != 1) {
        free(error);
        return;
    }
    session *s = sessions_find(ss, id, &error);
    if (!s) {
        free(error);
        return;
    }
    pthread_mutex_lock(&ss->lock);
    if (!s->running && is_status(s, "running") && !ss->stopping) {
        if (!ac->at_start)
            fprintf(stderr, "chidori serve: session %s: taken over by node %s (its lease ended); it runs on from its log\n",
                    id, ss->me.id);
        if (start_run(ss, s, RUN_RECOVER, NULL, NULL, false, 0, &error) == SS_OK) ac->started++;
        else fprintf(stderr, "chidori serve: session %s cannot be re-run: %s\n", id, error), free(error);
    } else {
        store_lease_release(ss->st, id, &ss->me, epoch, &error);
        free(error);
    }
    release_locked(ss, s);
    pthread_mutex_unlock(&ss->lock);
}

static size_t adopt_orphans(sessions *ss, bool at_start)
{
    adopt_ctx ac = {ss, at_start, 0};
    char *error = NULL;
    /* A running session with no lease row yet was stored by a node that had not claimed it: during
     * operation it is left alone for a lease (that node is claiming it now), but at start-up it is
     * taken at once: a node cut off between storing and claiming (kill -9) must not leave it
     * waiting a whole lease after the restart. Should its node be alive after all, the claim is
     * atomic: one of the two runs it, the other's request is told it runs elsewhere. */
    int64_t unleased_grace = at_start ? 0 : ss->cfg.lease_ms;
    if (store_lease_orphans(ss->st, &ss->me, clock_realtime_ms(), unleased_grace, at_start ? SIZE_MAX : 256,
                            adopt_one, &ac, &error) < 0) {
        fprintf(stderr, "chidori serve: %s\n", error);
        free(error);
    }
    return ac.started;
}

/* Queued sessions, oldest first, while this node has room: claimed in one transaction of the
 * store (each made running with this node's lease; on PostgreSQL the rows are taken FOR UPDATE
 * SKIP LOCKED, so nodes claiming at once take different ones) and started here. */
static void claim_queued(sessions *ss)
{
    pthread_mutex_lock(&ss->lock);
    int room = ss->stopping ? 0 : ss->cfg.max_running - ss->running;
    pthread_mutex_unlock(&ss->lock);
    if (room <= 0) return;
    char **ids;
    int64_t *epochs;
    size_t n;
    char *error = NULL;
    if (store_queued_claim(ss->st, &ss->me, clock_realtime_ms(), ss->cfg.lease_ms, (size_t)room, &ids, &epochs, &n,
                           &error) < 0) {
        fprintf(stderr, "chidori serve: %s\n", error);
        free(error);
        free(ids);
        free(epochs);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        int64_t epoch = epochs[i];
        const char *id = ids[i];
        session *s = sessions_find(ss, id, &error);
        pthread_mutex_lock(&ss->lock);
        ss_result r = s && !s->running && is_status(s, "running") ? check_capacity(ss, &error) : SS_CONFLICT;
        if (r == SS_OK) r = start_run(ss, s, RUN_NEW, NULL, NULL, false, epoch, &error); /* the claim's lease */
        else if (s && !s->running && is_status(s, "running")) { /* no room after all: queued again */
            char *ignored = NULL;
            if (store_session_cas(ss->st, id, "running", "queued", NULL, &ignored) > 0) set_status(s, "queued");
            store_lease_release(ss->st, id, &ss->me, epoch, &ignored);
            free(ignored);
        }
        if (r != SS_OK && error) fprintf(stderr, "chidori serve: session %s: %s\n", id, error);
        free(error), error = NULL;
        if (s) release_locked(ss, s);
        pthread_mutex_unlock(&ss->lock);
    }
    for (size_t i = 0; i < n; i++) free(ids[i]);
    free(ids);
    free(epochs);
}

static void *ticker(void *arg)
{
    sessions *ss = arg;
    int64_t next_lease = 0;
    pthread_mutex_lock(&ss->lock);
    while (!ss->ticker_quit) {
        int64_t now = clock_monotonic_ms();
        bool lease_due = now >= next_lease;
        if (lease_due) next_lease = now + (ss->cfg.lease_ms / 3 > 0 ? ss->cfg.lease_ms / 3 : 1);
        ss->tick_now = false;
        pthread_mutex_unlock(&ss->lock);
        poll_remote(ss);
        if (lease_due) {
            renew_leases(ss);
            adopt_orphans(ss, false);
        }
        claim_queued(ss);
        pthread_mutex_lock(&ss->lock);
        if (ss->ticker_quit || ss->tick_now) continue;
        int64_t wait = ss->listening ? (ss->cfg.notified_poll_ms > 0 ? ss->cfg.notified_poll_ms : CLUSTER_POLL_NOTIFIED_MS)
                                     : CLUSTER_POLL_MS;
        int64_t to_lease = next_lease - clock_monotonic_ms(); /* a slow poll never delays a renewal */
        if (to_lease < wait) wait = to_lease > 0 ? to_lease : 1;
        struct timespec until = clock_monotonic_after_ms(wait);
        pthread_cond_timedwait(&ss->tick, &ss->lock, &until);
    }
    pthread_mutex_unlock(&ss->lock);
    return NULL;
}

/* A prompt event another node sent (PROMPT_EVENTS_CHANNEL; untrusted: anyone with access to the
 * database can NOTIFY): kept for the streams of a resident session that does not run here, then
 * its followers are woken. Its own, malformed ones, and those of sessions not in memory here are
 * ignored. One placed before a record this node has already read is kept too: a stream that has
 * not sent that record yet sends it in its place (one that has skips it: prompt_events_next). */
static void prompt_heard(sessions *ss, const char *payload)
{
    prompt_notice n;
    if (!payload || !prompt_notify_decode(payload, strlen(payload), &n)) return;
    if (strcmp(n.node, ss->me.id) != 0) {
        pthread_mutex_lock(&ss->lock);
        session *s = strmap_get(&ss->resident, n.session);
        if (s && !s->running && !ss->stopping) {
            if (!s->pevents) s->pevents = prompt_events_new();
            prompt_events_push(s->pevents, n.event, n.attempt, n.records);
            pthread_cond_broadcast(&s->changed);
        }
        pthread_mutex_unlock(&ss->lock);
    }
    prompt_notice_clear(&n);
}

/* The listener's barrier (PostgreSQL). PostgreSQL delivers the notifications of different
 * transactions to a listener in the order they committed. A NOTIFY on SYNC_CHANNEL sent after a read
 * of the store, once heard back by this node's listener, means that listener has handled every
 * notification committed before that read: the prompt events relayed before a record that the read
 * returned (the owner NOTIFYs them before it stores the record). Payload "<node id> <token>"; other
 * nodes' tokens are ignored. Without a listener (SQLite, or its connection lost) there is nothing to
 * wait for; a token not heard within LISTENER_SYNC_WAIT_MS is given up on (the events are then
 * late, as without the barrier). */
#define SYNC_CHANNEL "chidori_sync"
#define LISTENER_SYNC_WAIT_MS 10000

static void listener_sync(sessions *ss)
{
    pthread_mutex_lock(&ss->lock);
    if (!ss->listening || ss->stopping) {
        pthread_mutex_unlock(&ss->lock);
        return;
    }
    uint64_t token = ++ss->sync_sent;
    pthread_mutex_unlock(&ss->lock);
    char *payload = xasprintf("%s %llu", ss->me.id, (unsigned long long)token);
    int sent = store_notify(ss->st, SYNC_CHANNEL, payload);
    free(payload);
    if (sent < 0) return;
    struct timespec until = clock_monotonic_after_ms(LISTENER_SYNC_WAIT_MS);
    pthread_mutex_lock(&ss->lock);
    while (ss->sync_heard < token && ss->listening && !ss->stopping && !ss->ticker_quit &&
           pthread_cond_timedwait(&ss->synced, &ss->lock, &until) == 0) {
    }
    pthread_mutex_unlock(&ss->lock);
}

/* A token on SYNC_CHANNEL (untrusted, like every notification): this node's own moves sync_heard. */
static void sync_heard(sessions *ss, const char *payload)
{
    const char *space = payload ? strrchr(payload, ' ') : NULL;
    size_t id_len = strlen(ss->me.id);
    if (!space || (size_t)(space - payload) != id_len || strncmp(payload, ss->me.id, id_len) != 0) return;
    char *end = NULL;
    errno = 0;
    unsigned long long token = strtoull(space + 1, &end, 10);
    if (errno || end == space + 1 || *end || space[1] < '0' || space[1] > '9') return;
    pthread_mutex_lock(&ss->lock);
    if (token > ss->sync_heard && token <= ss->sync_sent) ss->sync_heard = token;
    pthread_cond_broadcast(&ss->synced);
    pthread_mutex_unlock(&ss->lock);
}

static bool listener_quit(sessions *ss)
{
    pthread_mutex_lock(&ss->lock);
    bool quit = ss->ticker_quit;
    pthread_mutex_unlock(&ss->lock);
    return quit;
}

/* PostgreSQL: one connection of its own LISTENs to STORE_EVENTS_CHANNEL (and PROMPT_EVENTS_CHANNEL:
 * live prompt events of other nodes' runs, prompt_heard above); each notification (a
 * record appended, a session settled or queued by any node) wakes the ticker, which reads again the
 * sessions followed here (poll_remote) and claims queued ones. A stream reads the stored records
 * by position, so a wake-up that comes late or twice loses nothing. A dropped connection is opened
 * again; until then the ticker polls at CLUSTER_POLL_MS. */
static void *listener(void *arg)
{
    sessions *ss = arg;
    db *d = NULL;
    bool told = false; /* a failure to listen is printed once until it works again */
    while (!listener_quit(ss)) {
        char *error = NULL;
        if (!d) {
            d = db_open(store_target(ss->st), &error);
            if (d && (db_listen(d, STORE_EVENTS_CHANNEL, &error) < 0 || db_listen(d, PROMPT_EVENTS_CHANNEL, &error) < 0 ||
                      db_listen(d, SYNC_CHANNEL, &error) < 0))
                db_close(d), d = NULL;
            if (!d) {
                if (!told) fprintf(stderr, "chidori serve: cannot listen for other nodes' changes (polling every %d ms "
                                           "instead; retrying): %s\n", CLUSTER_POLL_MS, error);
                told = true;
                free(error);
                for (int waited = 0; waited < LISTEN_RETRY_MS && !listener_quit(ss); waited += LISTEN_WAIT_MS)
                    nanosleep(&(struct timespec){0, LISTEN_WAIT_MS * 1000000L}, NULL);
                continue;
            }
            told = false;
            pthread_mutex_lock(&ss->lock);
            ss->listening = true;
            kick(ss); /* what changed while nobody listened */
            pthread_mutex_unlock(&ss->lock);
        }
        char *channel = NULL, *payload = NULL;
        int rc = db_wait_notification(d, LISTEN_WAIT_MS, &channel, &payload, &error);
        if (rc == 1 && channel && !strcmp(channel, PROMPT_EVENTS_CHANNEL)) {
            prompt_heard(ss, payload);
        } else if (rc == 1 && channel && !strcmp(channel, SYNC_CHANNEL)) {
            sync_heard(ss, payload);
        } else if (rc == 1) { /* only what this node follows or could claim: not its own runs' records */
            pthread_mutex_lock(&ss->lock);
            session *s = payload && strcmp(payload, STORE_QUEUED_EVENT) != 0 ? strmap_get(&ss->resident, payload) : NULL;
            if ((payload && strcmp(payload, STORE_QUEUED_EVENT) == 0) || (s && watched(s))) kick(ss);
            pthread_mutex_unlock(&ss->lock);
        } else if (rc < 0) {
            fprintf(stderr, "chidori serve: the listening connection was lost (%s); polling every %d ms until it is "
                            "back\n", error ? error : "no detail", CLUSTER_POLL_MS);
            free(error);
            db_close(d), d = NULL;
            pthread_mutex_lock(&ss->lock);
            ss->listening = false;
            pthread_cond_broadcast(&ss->synced); /* nobody waits for a token this connection lost */
            pthread_mutex_unlock(&ss->lock);
        }
        free(channel);
        free(payload);
    }
    db_close(d);
    pthread_mutex_lock(&ss->lock);
    ss->listening = false;
    pthread_cond_broadcast(&ss->synced);
    pthread_mutex_unlock(&ss->lock);
    return NULL;
}

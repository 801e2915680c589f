/* sessions.h — the server's sessions: their lifecycle, their runs, and the events a stream sees.
 *
 * A session is one durable run of the served agent, possibly spread over several runs of the
 * engine: it pauses on input(), on a signal or on an ask_before approval, and each resume / signal /
 * approval runs the agent again from the top against its stored call log (replay, then live) —
 * unless the run that paused is still parked, waiting for that answer: then the same run goes on (sessions.c, parked
 * runs; docs/http-api.md#parked-runs). Every running
 * session has a thread of its own that calls the runner; its records go to the store (durable
 * before the agent sees the result), where streams read them. A session's stored log is capped
 * (log_caps, across all its runs): the record that would pass a cap is
 * refused and the run ends failed, saying which limit and which variable.
 *
 * Statuses: running, completed, failed, cancelled, paused (an input), awaitingapproval, queued (waiting
 * for a node with room: store_cluster.h).
 *
 * Memory: every session is in the store; a session is in memory (resident) only while something
 * uses it — its run, a stream following it, or a handler between sessions_find (or
 * sessions_create, sessions_replay) and sessions_release — so the server's memory follows the
 * sessions in use, not the sessions stored. A resident session's records stay in the store: it
 * keeps only their count and size, so its memory does not grow with its log either. A `session *` is valid only while its holder's
 * reference is: every one handed out must be given back with sessions_release (a follower gives
 * its own back in sessions_unfollow).
 *
 * Nodes (docs/scaling.md): several servers may share one store. A running session is owned by
 * one node through a lease (store_cluster.h) that its node renews; each record and the run's end
 * are written only while the lease is still the run's (fencing). A node serves any session: a
 * resident session that does not run here is read again from the store when it is looked up, and
 * while something uses it (a stream, a request waiting for it to settle) a ticker reads it again
 * every CLUSTER_POLL_MS (sessions_wake). The same ticker renews this node's leases, takes over
 * running sessions whose lease ended (their node died), and starts queued sessions while this node
 * has room.
 *
 * Concurrency: one lock guards every session's state and one condition variable announces every
 * change (a record, a settled run); the store has its own lock and is called with or without
 * this one held, never the other way round.
 */
#ifndef CHIDORI_SERVE_SESSIONS_H
#define CHIDORI_SERVE_SESSIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "host/calllog.h"
#include "isolate/isolate.h"
#include "runner/surface.h"
#include "serve/store.h"
#include "util/json.h"

struct policy;
typedef struct sessions sessions;
typedef struct session session;

typedef struct sessions_config {
    const char *project_root; /* the agent's folder */
    const char *entry;        /* the agent's key in it */
    const char *state_dir;
    const struct policy *policy; /* the server's policy */
    engine_limits limits;
    const struct settings *settings; /* read once when the server starts (settings.h; not owned) */
    calllog_caps log_caps;    /* CHIDORI_LOG_MAX_RECORDS / _BYTES: caps on each run's records; in a
                               * session, its whole stored log across all its runs */
    surface_settings surface; /* CHIDORI_TS_* and the VFS, read once when the server starts */
    bool isolated;
    isolate_options iso;
    int max_running;          /* CHIDORI_MAX_CONCURRENT_SESSIONS */
    int acquire_timeout_ms;   /* CHIDORI_ACQUIRE_TIMEOUT_MS: how long a request waits for a free slot */
    const char *node_id;      /* CHIDORI_NODE_ID (serve.c gives the default: host name and pid) */
    int64_t lease_ms;         /* CHIDORI_LEASE_MS: how long a running session's lease lasts unrenewed */
    int notified_poll_ms;     /* CHIDORI_CLUSTER_POLL_MS: the poll while NOTIFYs are heard (0: 500) */
    /* Parked runs (docs/http-api.md#parked-runs): a run that pauses on an input, a signal or an
     * approval keeps waiting for its answer this long (CHIDORI_SERVE_PARK_MS), at most park_max of
     * them at once (CHIDORI_SERVE_PARK_MAX); a resume (signal, approval) in time goes on without
     * replaying. 0: off. */
    int64_t park_ms;
    int park_max;
} sessions_config;

typedef enum ss_result {
    SS_OK = 0,
    SS_NOT_FOUND,   /* 404 */
    SS_CONFLICT,    /* 409: the session is not in a state that allows this */
    SS_BUSY,        /* 503: too many running sessions */
    SS_STOPPING,    /* 503: the server is shutting down */
    SS_ERROR,       /* 500: the store failed */
} ss_result;

sessions *sessions_new(const sessions_config *cfg, store *st);
/* The configuration it was made with (the agent, the caps). */
const sessions_config *sessions_config_of(const sessions *ss);
/* Whether runs that pause park (docs/http-api.md#parked-runs): NULL when they do, else why not. */
const char *sessions_parking(const sessions *ss);
/* Read (and check) every stored session; *total says how many there are. Sessions stored as
 * running that no live node holds (their lease released, expired, or held by a dead process of
 * this host) were cut off by the end of their server: they are made resident and run again (a
 * replay of their log, then live); *rerun says how many. The others stay in the store (those
 * another node runs stay with it). Then starts the node's ticker (see Nodes above). */
int sessions_load(sessions *ss, size_t *total, size_t *rerun, char **error);
/* Stop: no more runs start; waiters and streams return; running runs are stopped at their next
 * effect (an isolated worker at once). They stay `running` in the store, to be re-run (replayed,
 * then live) by the next server: stopping is, for the sessions, the same as a crash. */
void sessions_stop(sessions *ss);
/* Wait up to timeout_ms for every run thread to end; true when none is left (then free). */
bool sessions_drain(sessions *ss, int timeout_ms);
void sessions_free(sessions *ss);
bool sessions_stopping(sessions *ss);
/* Its last run failed because the input did not match the agent's run(handler, {inputSchema})
 * (nothing ran, nothing was recorded): the runner's finding, never read from the error text. */
bool sessions_input_invalid(sessions *ss, session *s);

/* Start a new session (status running). id may be NULL (a fresh one). *out is the session, with a
 * reference for the caller (sessions_release); NULL unless SS_OK. traceparent: the W3C trace context
 * of the request (its runs continue that trace), or NULL; a malformed one is ignored. */
ss_result sessions_create(sessions *ss, const json_t *input, const char *profile, const char *id, const char *traceparent, session **out,
                          char **error);
/* The session of that id, resident (loaded from the store if it was not), with a reference for
 * the caller (sessions_release). NULL when there is none, or with *error when the store failed
 * or its row does not hold up. */
session *sessions_find(sessions *ss, const char *id, char **error);
/* Give back a reference (NULL: nothing); the session may be dropped from memory. */
void sessions_release(sessions *ss, session *s);
/* How many sessions are in memory now. */
size_t sessions_resident(sessions *ss);
/* Block until the session's run has settled (or the server stops). */
void sessions_wait(sessions *ss, session *s);
/* The same without a thread that waits (an HTTP request suspended meanwhile, httpd.h): w->fn(w->arg)
 * is called once, when the run has settled or the server stops, from the thread that did it and
 * without the lock held. true when w is kept so; false, w not kept, when the run has settled
 * already (or the server is stopping). The caller keeps its reference to s until then. */
typedef struct session_waiter {
    void (*fn)(void *arg);
    void *arg;
    struct session_waiter *next;
} session_waiter;
bool sessions_notify_settled(sessions *ss, session *s, session_waiter *w);

/* The same, with the session's call log given (records checked by the call-log loader; stored with
 * the session, in one transaction): its run answers those calls from them, then goes on live.
 * view_at_start (or NULL) gets the view as created, taken before the run can settle (a reply that
 * does not wait says `running` even for a run that ends at once). */
ss_result sessions_create_replaying(sessions *ss, const json_t *input, const char *profile, const char *id,
                                    const char *traceparent, const json_t *records, session **out,
                                    json_t **view_at_start, char **error);
/* The same; queue: with every slot of this node taken, the session is stored `queued` (SS_OK, no
 * run) and the first node with room starts it, rather than SS_BUSY. */
ss_result sessions_create_queued(sessions *ss, const json_t *input, const char *profile, const char *id,
                                 const char *traceparent, const json_t *records, bool queue, session **out,
                                 json_t **view_at_start, char **error);
/* Another node may have changed s (a record, a new status): read it again from the store and wake
 * what waits on it. The ticker calls it for every resident session that runs elsewhere; a store
 * with change notifications (PostgreSQL's LISTEN) calls it at once. */
void sessions_wake(sessions *ss, session *s);
/* resume and approve(allow) first check the agent's source against the session's snapshot
 * manifest: a changed source is a 409 (SS_CONFLICT, nothing of the session touched) unless
 * allow_source_change; a changed ABI or surface always is. */
ss_result sessions_resume(sessions *ss, session *s, const char *response, bool allow_source_change, char **error);
ss_result sessions_approve(sessions *ss, session *s, bool allow, bool allow_source_change, char **error);
ss_result sessions_cancel(sessions *ss, session *s, char **error);
/* POST /sessions/{id}/signal: {name, payload, from} for the session. Paused on a signal listening to
 * name: handed to the pause and the session runs on (*resumed; the source is checked as resume
 * checks it, 409 unless allow_source_change). Completed, failed or cancelled: SS_CONFLICT. Any
 * other state: queued in its mailbox for the first call that listens to name. *delivery_seq: the
 * signal's number in the mailbox. */
ss_result sessions_signal(sessions *ss, session *s, const char *name, const json_t *payload, const json_t *from,
                          bool allow_source_change, bool *resumed, uint64_t *delivery_seq, char **error);
/* *out: the new session, with a reference for the caller; NULL unless SS_OK. */
ss_result sessions_replay(sessions *ss, session *s, session **out, char **error);

/* {id, run_id, status, input, output, error, call_count, pending_prompt, pending_approval,
 * policy_profile, created_at, node} (+ replayed_from for a replay); node: the node that runs it, or
 * ran it last (null: none yet). */
json_t *sessions_view(sessions *ss, session *s);
/* {"sessions": [view, ...]}, oldest first: every stored session, a resident one as it is in memory.
 * NULL with *error when the store fails. */
json_t *sessions_list(sessions *ss, char **error);
/* {id, run_id, status, input, call_log: [records], snapshot_manifest (or null)} or NULL with *error. */
json_t *sessions_checkpoint(sessions *ss, session *s, char **error);
/* {id, run_id, snapshot_manifest}: SS_OK with *out; SS_NOT_FOUND ("Snapshot manifest not found")
 * for a session stored without one; SS_ERROR when the store failed. */
ss_result sessions_snapshot(sessions *ss, session *s, json_t **out, char **error);

/* A stream's position in a session's events: every record as `call` (a live prompt's
 * prompt_start, prompt_delta… and prompt_end just before its record), then, once the run has
 * settled, `paused` / `awaitingapproval` when it waits, and `done` with the session view. A
 * follower holds a reference of its own from sessions_follow to sessions_unfollow. */
typedef struct session_follower {
    session *s;
    size_t next;           /* records sent */
    int64_t last_pos;      /* the append position of the last record read from the store */
    json_t *page;          /* records read, not all sent yet (at most a page: see sessions.c) */
    size_t page_next;
    uint64_t prompt_next;  /* the next prompt event to send (serve/prompt_events.h) */
    bool waiting_sent, done;
} session_follower;

int sessions_follow(sessions *ss, session *s, session_follower *f, char **error);
/* 1 with *event and *data (malloc'd JSON text), 0 when nothing happened for timeout_ms (time for
 * a keep-alive), -1 at the end of the stream. */
int sessions_follow_next(sessions *ss, session_follower *f, int timeout_ms, const char **event, char **data);
void sessions_unfollow(sessions *ss, session_follower *f);

/* The built-in profile names a session may ask for. */
bool sessions_profile_known(const char *name);

#endif

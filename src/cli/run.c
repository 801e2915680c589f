/* run.c — `chidori run`, `chidori replay` and `chidori resume`: a durable run of an agent.
 *
 * run:    capture the seed and clock, record every effect to <runs>/<id>/records.jsonl, write
 *         the outcome to run.json. A run that waits for an input nobody can give ends paused.
 * replay: the same agent, input, seed and clock against the recorded log with zero live effects;
 *         it must print what the run printed, or fail naming the divergence.
 * resume: answer the paused input, replay up to it, continue live, recording as run does; or
 *         continue an interrupted run (status `running`, its lock free: the process was killed)
 *         from its log, replay then live, as serve recovers a session.
 *
 * run and resume hold the run folder's lock (run.lock) until they end, so a run is driven by one
 * process at a time, and a `running` run whose lock is free is known to be interrupted. A resume
 * marks run.json `running`, keeping the pending call and the answer, before it appends anything:
 * wherever it is killed, the next resume finds either no answer in the log (it appends the kept
 * one) or the answer (which then replays; nothing is appended twice). replay writes nothing and
 * takes no lock.
 *
 * Exit codes: 0 completed, 1 failed, 2 command line, 3 paused.
 */
#define _GNU_SOURCE
#include "cli/cli.h"
#include "util/clock.h"
#include "cli/input_items.h"
#include "cli/progress.h"
#include "cli/runstore.h"
#include "cli/orig_run.h"
#include "cli/park.h"
#include "cli/stream_out.h"
#include "cli/signal_inbox.h"
#include "engine/arena.h"
#include "util/heap_pages.h"
#include "runner/surface.h"
#include "engine/engine.h"
#include "host/policy.h"
#include "isolate/isolate.h"
#include "runner/manifest.h"
#include "runner/runner.h"
#include "runner/start.h"
#include "settings/settings.h"
#include "util/buf.h"
#include "util/files.h"
#include "util/random.h"
#include "util/termtext.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_ANSWERS 256

typedef struct run_options {
    const char *file;
    const char *run_id;   /* replay / resume */
    const char *runs_dir; /* --runs-dir */
    const char *response; /* resume --response */
    const char *signal;   /* resume --signal NAME (with --payload JSON, --from JSON) */
    json_t *payload, *from;
    const char *answers[MAX_ANSWERS];
    size_t n_answers;
    int isolate; /* -1 unset, 0/1 */
    bool untrusted, trusted;
    bool quiet; /* --quiet: no progress line */
    bool stream; /* --stream: NDJSON events on stdout (cli/stream_out.h) */
    bool allow_source_change; /* resume --allow-source-change */
    bool parked; /* resume --parked: the process a pause leaves behind (cli/park.h; not for people) */
    bool park_left; /* resume: a parked process of the run was asked to let it go (it may still be ending) */
    json_t *input;
} run_options;


/* ---------- options ---------- */

static int parse_options(int argc, char **argv, int positionals, bool allow_input, run_options *o)
{
    char *error = NULL;
    int seen = 0;
    o->isolate = -1;
    o->input = json_object();
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *value = NULL;
        bool takes = !strcmp(a, "-i") || !strcmp(a, "--input") || !strcmp(a, "--answer") ||
                     !strcmp(a, "--runs-dir") || !strcmp(a, "--response") || !strcmp(a, "--signal") ||
                     !strcmp(a, "--payload") || !strcmp(a, "--from");
        if (takes) {
            if (++i >= argc) return cli_usage_error("%s needs a value", a);
            value = argv[i];
        } else if (!strncmp(a, "--input=", 8)) {
            a = "--input", value = argv[i] + 8;
        }
        if (value && (!strcmp(a, "-i") || !strcmp(a, "--input"))) {
            if (!allow_input) return cli_usage_error("%s is not accepted here", a);
            if (input_merge_item(o->input, value, &error) < 0) {
                fprintf(stderr, "chidori: %s\n", error);
                free(error);
                return 2;
            }
        } else if (value && !strcmp(a, "--answer")) {
            if (o->n_answers == MAX_ANSWERS) return cli_usage_error("%s", "too many --answer values");
            o->answers[o->n_answers++] = value;
        } else if (value && !strcmp(a, "--runs-dir")) {
            o->runs_dir = value;
        } else if (value && !strcmp(a, "--response")) {
            o->response = value;
        } else if (value && !strcmp(a, "--signal")) {
            if (!*value) return cli_usage_error("%s", "--signal needs a non-empty name");
            o->signal = value;
        } else if (value && (!strcmp(a, "--payload") || !strcmp(a, "--from"))) {
            json_error jerr;
            json_limits lim = {SIGNAL_INBOX_MAX_BYTES, JSON_DEFAULT_MAX_DEPTH, 0};
            json_t *v = json_parse(value, strlen(value), &lim, &jerr);
            if (!v) {
                fprintf(stderr, "chidori: %s is not JSON (%s): quote a string as '\"text\"'\n", a, jerr.message);
                return 2;
            }
            json_t **slot = !strcmp(a, "--payload") ? &o->payload : &o->from;
            json_free(*slot);
            *slot = v;
        } else if (cli_posture_flag(a, &o->untrusted, &o->trusted, &o->isolate)) {
            continue;
        } else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
            o->quiet = true;
        } else if (!strcmp(a, "--stream")) {
            o->stream = true;
        } else if (!strcmp(a, "--allow-source-change")) {
            o->allow_source_change = true;
        } else if (!strcmp(a, "--parked")) {
            o->parked = true;
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("unknown option %s", a);
        } else if (seen < positionals) {
            if (seen == 0) o->file = a;
            else o->run_id = a;
            seen++;
        } else {
            return cli_usage_error("unexpected argument %s", a);
        }
    }
    if (o->untrusted && o->trusted) return cli_usage_error("%s", "--untrusted and --trusted cannot be used together");
    if (seen < positionals)
        return cli_usage_error("%s", positionals == 1 ? "an agent file is needed" : "an agent file and a run id are needed");
    return 0;
}

/* ---------- shared pieces ---------- */

/* s as one shell word: as it is when it is plain, else in single quotes. */
static void shell_word(buf *b, const char *s)
{
    if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:=@%+,-") == strlen(s)) {
        buf_puts(b, s);
        return;
    }
    buf_putc(b, '\'');
    for (; *s; s++) {
        if (*s == '\'') buf_puts(b, "'\\''");
        else buf_putc(b, *s);
    }
    buf_putc(b, '\'');
}

/* The names a signal pause listens to, for people: 'a' or any of 'a', 'b' (malloc'd). */
static char *signal_listen_text(const json_t *args)
{
    buf b = {0};
    const json_t *names = json_object_get(args, "names");
    if (!names) {
        const char *n = json_string_value(json_object_get(args, "name"));
        buf_printf(&b, "'%s'", n ? n : "?");
        return buf_steal(&b);
    }
    buf_puts(&b, "any of ");
    for (size_t i = 0; json_is_array(names) && i < names->u.array.len; i++) {
        const char *n = json_string_value(names->u.array.items[i]);
        buf_printf(&b, "%s'%s'", i ? ", " : "", n ? n : "?");
    }
    return buf_steal(&b);
}

/* Does a signal pause with these args listen to name? */
static bool signal_listened(const json_t *args, const char *name)
{
    const json_t *names = json_object_get(args, "names");
    if (!names) return !strcmp(json_string_value(json_object_get(args, "name")) ?: "", name);
    for (size_t i = 0; json_is_array(names) && i < names->u.array.len; i++)
        if (!strcmp(json_string_value(names->u.array.items[i]) ?: "", name)) return true;
    return false;
}

/* A paused run: the question and how to resume on stderr (for people); with json_out, also a JSON
 * object on stdout (for scripts): {"status": "paused", "run_id", "prompt", "resume"}. The resume
 * command names the binary as it was invoked (argv[0]). */
static void print_paused(const run_meta *m, const char *file, const json_t *pending, const char *runs_dir,
                         bool json_out)
{
    const json_t *args = json_object_get(pending, "args");
    const char *prompt = json_string_value(json_object_get(args, "prompt"));
    const char *fn = json_string_value(json_object_get(pending, "function"));
    bool on_signal = fn && (!strcmp(fn, "signal") || !strcmp(fn, "signal_any"));
    buf cmd = {0};
    shell_word(&cmd, cli_program);
    buf_puts(&cmd, " resume ");
    shell_word(&cmd, file);
    buf_printf(&cmd, " %s", m->run_id);
    if (runs_dir) {
        buf_puts(&cmd, " --runs-dir ");
        shell_word(&cmd, runs_dir);
    }
    char *listening = on_signal ? signal_listen_text(args) : NULL;
    if (on_signal) {
        buf_puts(&cmd, " --signal '<name>' --payload '<json>'");
        fprintf(stderr, "Run %s paused, awaiting signal ", m->run_id);
        write_for_terminal(stderr, listening, strlen(listening)); /* the agent's names */
        fputs(".\n", stderr);
    } else {
        buf_puts(&cmd, " --response '<answer>'");
        fprintf(stderr, "Run %s paused, waiting for input: ", m->run_id);
        const char *shown = prompt ? prompt : "(no prompt)";
        write_for_terminal(stderr, shown, strlen(shown)); /* the agent's text */
        fputc('\n', stderr);
    }
    fputs("Resume with: ", stderr);
    write_for_terminal(stderr, cmd.data, cmd.len); /* the path may hold anything */
    fputc('\n', stderr);
    if (json_out) {
        json_t *o = json_object();
        json_object_set(o, "status", json_string("paused"));
        json_object_set(o, "run_id", json_string(m->run_id));
        json_object_set(o, "prompt", prompt ? json_string(prompt) : json_null());
        if (on_signal) {
            const json_t *names = json_object_get(args, "names");
            json_t *list = names ? json_copy(names) : json_array();
            if (!names) json_array_push(list, json_copy(json_object_get(args, "name")));
            json_object_set(o, "pending_signal", list);
        }
        json_object_set(o, "resume", json_string(cmd.data));
        cli_print_json(o, true);
        json_free(o);
    }
    free(listening);
    buf_free(&cmd);
}

/* Parse and pretty-print a run's compact JSON output. */
static int print_output(const char *compact)
{
    json_limits lim = {ENGINE_OUTPUT_MAX_BYTES, JSON_DEFAULT_MAX_DEPTH, 0};
    json_error jerr;
    json_t *out = json_parse(compact, strlen(compact), &lim, &jerr);
    if (!out) {
        fprintf(stderr, "chidori: run failed: the agent's output cannot be printed: %s\n", jerr.message);
        return 1;
    }
    cli_print_json(out, true);
    json_free(out);
    return 0;
}

/* The run's error (its text may come from the agent) on stderr. */
static void print_failure(const char *error)
{
    fputs("chidori: run failed: ", stderr);
    write_for_terminal(stderr, error, strlen(error));
    fputc('\n', stderr);
}

typedef enum { MODE_RUN, MODE_REPLAY, MODE_RESUME } durable_mode;

/* The banner, printed once the run is set up and just before the agent starts. */
typedef struct banner_ctx {
    bool isolated;
    const policy_selection *sel;
    const run_meta *meta;
    progress *progress; /* the live status line starts after the banner (or NULL) */
} banner_ctx;

static void print_banner(void *ctx)
{
    banner_ctx *b = ctx;
    if (!b->isolated) fprintf(stderr, "Isolation: off (in-process run; --isolate runs it in a worker process)\n");
    fprintf(stderr, "Policy: %s\n", b->sel->description);
    fprintf(stderr, "Run id: %s\n", b->meta->run_id);
    progress_start(b->progress);
}

static const char *status_name(runner_status s)
{
    return s == RUNNER_COMPLETED ? "completed" : s == RUNNER_FAILED ? "failed" : "paused";
}

/* A file as it was when a parked run started (cli/park.h): a resume is handed over only while it is
 * the same (the same inode, size and times; or still missing). */
typedef struct file_stamp {
    bool there;
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime, ctime;
} file_stamp;
enum { PARK_FILES = 5 };

/* One durable run in any of the three modes, as the steps below see it. */
typedef struct durable {
    durable_mode mode;
    const run_options *o;
    const settings *set;
    run_setup setup;             /* policy, limits, caps, isolation, surface (runner/start.h) */
    warm_worker *early;          /* the worker begun before the set-up (setup.iso.early points here) */
    char *folder, *key;          /* the agent's folder (real path) and its key in it */
    char *state_dir, *runs_dir;
    char *dir, *records, *meta_path; /* the run folder, its records.jsonl and run.json */
    run_meta meta;
    int lock_fd;                 /* run.lock, held by run and resume */
    bool was_paused;             /* resume of a paused run (not of an interrupted one) */
    bool signal_resume;          /* ... paused on a signal, which --signal delivers */
    signal_inbox inbox;          /* the run folder's signal mailbox (cli/signal_inbox.h) */
    json_t *orig_records;        /* replay of a run the original chidori wrote: its call log (orig_run.h) */
    json_t *manifest;            /* run: the run's snapshot manifest; resume: the edited source's, when
                                    --allow-source-change accepted one (written once the run starts) */
    json_t *was_manifest;        /* resume: the manifest that one replaces (put back if it is refused) */
    json_t *recorded_manifest;   /* resume of an unchanged source: the manifest as recorded (its modules
                                    are replaced by what the run is served, manifest_after_run) */
    int64_t ended_before;        /* resume: run.json's ended_at before it (put back with the pause) */
    char *error;
    /* resume --parked (cli/park.h): the process a pause leaves behind */
    park_listener *park;         /* where a resume comes */
    json_t *park_who;            /* who may take the run: the same as who started this process */
    file_stamp park_files[PARK_FILES]; /* what must be as it was when a resume takes the run */
    bool handed;                 /* a resume took the run, which went on here */
    int live_before_park;        /* live calls started before that (park_guard) */
} durable;

static void stamp_files(const durable *d, file_stamp out[PARK_FILES]); /* parked runs, below */

/* What a step returns: go on, or the exit code of a run that failed (1) or of a usage error (2). */
enum { STEP_OK = 0, STEP_FAILED = 1, STEP_USAGE = 2 };

/* The set-up from the settings; then the worker is begun: it execs and confines itself while this
 * process prepares the run (the run folder, run.json, the host), so the two overlap. This process's
 * heap and engine arena are asked for in huge pages only then (heap_pages.h, arena.h: main.c does
 * it first thing for the other commands that run one agent): that takes about 0.25 ms here, which
 * no longer delays an isolated run's worker, and a resume handed to a parked process
 * (resume_parked) never gets here. */
static int step_setup(durable *d, const settings *set)
{
    if (run_setup_from_settings(&d->setup, set, POLICY_SURFACE_RUN, d->o->untrusted, d->o->trusted, d->o->isolate,
                                &d->error) < 0)
        return STEP_USAGE;
    if (d->setup.isolated) {
        d->setup.iso.pin_cpu = true; /* one run at a time here: once it keeps waiting, the worker and this process take turns on one CPU (supervisor.c) */
        char *ignored = NULL;
        d->early = supervisor_prespawn_begin(&d->setup.iso, &d->setup.limits, &ignored);
        free(ignored); /* the run starts a cold worker, which reports the problem itself */
        d->setup.iso.early = &d->early;
    }
    heap_prefer_huge_pages();
    arena_prefer_huge_pages();
    return STEP_OK;
}

/* The agent's folder and key, where the runs are. */
static int step_locate(durable *d, const settings *set)
{
    struct stat st;
    int found = stat(d->o->file, &st) == 0 ? 0 : errno;
    if (found || !S_ISREG(st.st_mode)) { /* nothing to run: a usage error, and no run recorded */
        d->error = found == ENOENT || found == ENOTDIR
                       ? xasprintf("no agent file %s: give the path of an agent (.js or .ts)", d->o->file)
                   : found ? xasprintf("cannot use the agent file %s: %s", d->o->file, strerror(found))
                   : S_ISDIR(st.st_mode)
                       ? xasprintf("%s is a folder: give the path of an agent file in it (.js or .ts)", d->o->file)
                       : xasprintf("%s is not a regular file: give the path of an agent (.js or .ts)", d->o->file);
        return STEP_USAGE;
    }
    if (runner_split_agent(d->o->file, &d->folder, &d->key, &d->error) < 0) return STEP_FAILED;
    d->state_dir = run_start_state_dir(set, d->folder);
    d->runs_dir = d->o->runs_dir ? xstrdup(d->o->runs_dir) : xasprintf("%s/runs", d->state_dir);
    return STEP_OK;
}

/* run: a new record, its determinism captured now. */
static int step_new_run(durable *d, const settings *set)
{
    run_meta *m = &d->meta;
    uuid_v4(m->run_id);
    run_start_capture(set, &m->seed, &m->clock_start_ms);
    m->agent = xstrdup(d->key);
    m->input = json_copy(d->o->input);
    m->created_at_ms = clock_realtime_ms();
    m->status = xstrdup("running");
    if (surface_check_seed(&d->setup.surface, &d->error) < 0) return STEP_USAGE;
    m->surface = surface_record(&d->setup.surface);
    m->vfs = surface_vfs_record(&d->setup.surface);
    return STEP_OK;
}

/* resume of a run paused on a signal: --signal names one it listens for (no --response). */
static int check_signal_resume(durable *d)
{
    run_meta *m = &d->meta;
    const json_t *args = json_object_get(m->pending, "args");
    char *listening = signal_listen_text(args);
    int rc = STEP_OK;
    if (!d->signal_resume)
        d->error = xasprintf("run %s is paused, waiting for an input, not a signal: resume it with --response TEXT",
                             m->run_id), rc = STEP_USAGE;
    else if (d->o->response || !d->o->signal)
        d->error = xasprintf("run %s is paused, waiting for a signal (%s): resume it with --signal NAME "
                             "[--payload JSON] [--from JSON]", m->run_id, listening), rc = STEP_USAGE;
    else if (!signal_listened(args, d->o->signal))
        d->error = xasprintf("run %s waits for a signal named %s, not `%s`: nothing was delivered", m->run_id,
                             listening, d->o->signal), rc = STEP_USAGE;
    free(listening);
    return rc;
}

/* resume: the recorded run must be paused (then a --response answers it) or interrupted while
 * running (then it continues from its log, without --response). */
static int check_resumable(durable *d)
{
    run_meta *m = &d->meta;
    d->was_paused = !strcmp(m->status, "paused") && m->pending;
    bool interrupted = !strcmp(m->status, "running"); /* and nobody holds its lock */
    if (!d->was_paused && !interrupted) {
        d->error = xasprintf("run %s is %s: only a paused run, or one interrupted while running, can be resumed",
                             m->run_id, m->status);
        return STEP_FAILED;
    }
    const char *fn = d->was_paused ? json_string_value(json_object_get(m->pending, "function")) : NULL;
    d->signal_resume = fn && (!strcmp(fn, "signal") || !strcmp(fn, "signal_any"));
    if (d->signal_resume || (d->o->signal && d->was_paused)) return check_signal_resume(d);
    if (d->o->parked) { /* the process a pause left: it waits for the answer at the pending input */
        const char *fn_p = d->was_paused ? json_string_value(json_object_get(m->pending, "function")) : NULL;
        if (!fn_p || strcmp(fn_p, "input") || d->o->response) {
            d->error = xasprintf("run %s is not paused on an input: nothing to wait for", m->run_id);
            return STEP_FAILED;
        }
        return STEP_OK;
    }
    if (d->was_paused && !d->o->response) {
        d->error = xasprintf("run %s is paused, waiting for an input: resume it with --response TEXT", m->run_id);
        return STEP_USAGE;
    }
    if (d->o->signal) {
        d->error = xasprintf("run %s is not paused on a signal: --signal resumes a run that waits for one", m->run_id);
        return STEP_USAGE;
    }
    if (interrupted && d->o->response) {
        d->error = xasprintf("run %s is not paused: it was interrupted while running (no process holds its "
                             "lock); resume it without --response, and it continues from its call log",
                             m->run_id);
        return STEP_USAGE;
    }
    if (interrupted) {
        fprintf(stderr, "chidori: run %s was interrupted while running; continuing it from its call log\n", m->run_id);
        if (!m->response) json_free(m->pending), m->pending = NULL; /* no answer kept: a recovery */
    } else {
        m->response = xstrdup(d->o->response);
    }
    return STEP_OK;
}

/* The run's snapshot manifest as the agent's files are now (runner/manifest.h). NULL with d->error. */
static json_t *manifest_now(durable *d, const settings *set, const json_t *recheck)
{
    manifest_inputs in = {
        .run_id = d->meta.run_id,
        .project_root = d->folder,
        .entry = d->key,
        .surface = &d->setup.surface,
        .settings = set,
        .seed = d->meta.seed,
        .created_at_ms = clock_realtime_ms(),
        .recheck = recheck,
    };
    return manifest_build(&in, &d->error);
}

/* <run folder>/runtime.snapshot.json: the manifest, replaced atomically. A failure is a warning: the
 * run then resumes later without the source check. */
static void write_manifest(durable *d)
{
    char *path = xasprintf("%s/runtime.snapshot.json", d->dir);
    char *text = json_dump(d->manifest, JSON_COMPACT, NULL);
    char *error = NULL;
    if (write_file_atomic(path, text, strlen(text), false, &error) < 0) {
        fprintf(stderr, "chidori: the run's snapshot manifest is not written (%s); a resume of it will not check "
                        "the agent's source\n", error);
        free(error);
    }
    free(text);
    free(path);
}

/* resume: is the agent's source the one the recorded calls were made by? Checked before anything
 * of the run is touched: a refusal leaves it as it was (paused, its log and run.json unchanged). */
static int check_source(durable *d)
{
    char *path = xasprintf("%s/runtime.snapshot.json", d->dir);
    char *why = NULL;
    size_t len = 0;
    bool absent = access(path, F_OK) != 0 && errno == ENOENT;
    char *text = absent ? NULL : read_regular_file_capped(path, MANIFEST_MAX_BYTES, &len, &why);
    free(path);
    if (absent) {
        fprintf(stderr, "chidori: run %s has no snapshot manifest (runtime.snapshot.json: written by an older "
                        "chidori, or removed); resuming it without checking the agent's source\n", d->meta.run_id);
        return STEP_OK;
    }
    json_error jerr;
    json_t *recorded = text ? json_parse(text, len, NULL, &jerr) : NULL;
    free(text);
    if (!json_is_object(recorded)) { /* there, but unreadable or not a manifest: the check cannot be made */
        char *problem = !why ? xasprintf("is not a snapshot manifest (%s)", recorded ? "not a JSON object" : jerr.message)
                             : xasprintf("cannot be read (%s)", why);
        free(why);
        json_free(recorded);
        if (!d->o->allow_source_change) {
            d->error = xasprintf("run %s cannot be resumed: its runtime.snapshot.json %s, so the agent's source cannot "
                                 "be checked against the one its calls were recorded by; pass --allow-source-change "
                                 "to resume it without the check (a new manifest is written)", d->meta.run_id, problem);
            free(problem);
            return STEP_FAILED;
        }
        fprintf(stderr, "chidori: resuming run %s without checking the agent's source (--allow-source-change): its "
                        "runtime.snapshot.json %s; a new one is written\n", d->meta.run_id, problem);
        free(problem);
        d->manifest = manifest_now(d, d->set, NULL);
        return d->manifest ? STEP_OK : STEP_FAILED;
    }
    json_t *now = manifest_now(d, d->set, recorded);
    if (!now) {
        json_free(recorded);
        return STEP_FAILED;
    }
    manifest_verdict v = manifest_compare(recorded, now, d->o->allow_source_change, &why);
    if (v != MANIFEST_SAME) {
        json_free(recorded);
        json_free(now);
        d->error = xasprintf("run %s cannot be resumed: %s", d->meta.run_id, why);
        free(why);
        return STEP_FAILED;
    }
    if (why) {
        fprintf(stderr, "chidori: resuming run %s against an edited agent (--allow-source-change): %s\n",
                d->meta.run_id, why);
        free(why);
        d->manifest = now;
        d->was_manifest = recorded;
    } else {
        json_free(now);
        d->recorded_manifest = recorded;
    }
    return STEP_OK;
}

/* After a run or resume (not refused): its manifest lists the modules the run was served, as they
 * were read (runner_outcome.modules), and is written again. */
static void manifest_after_run(durable *d, runner_outcome *res)
{
    json_t *m = d->manifest ? d->manifest : d->recorded_manifest;
    if (!m || !res->modules) return;
    manifest_set_served(m, res->modules);
    if (m != d->manifest) d->manifest = m, d->recorded_manifest = NULL;
    write_manifest(d);
}

/* The run's lock. A parked process that was just asked to let the run go (it refused the resume, or
 * was sent away) may still hold it as it ends: that is waited for, a little. */
static int lock_run(durable *d)
{
    int64_t until = clock_monotonic_ms() + (d->o->park_left ? 3000 : 0);
    for (;;) {
        char *error = NULL;
        int fd = run_lock(d->dir, d->meta.run_id, &error);
        if (fd >= 0 || clock_monotonic_ms() >= until) {
            if (fd < 0) d->error = error;
            else free(error);
            return fd;
        }
        free(error);
        usleep(5000);
    }
}

/* replay and resume: the recorded run, read (resume: under its lock) and checked. */
static int step_open_recorded(durable *d)
{
    const char *id = d->o->run_id;
    if (strlen(id) != 36 || strspn(id, "0123456789abcdef-") != 36) {
        d->error = xasprintf("`%s` is not a run id", id);
        return STEP_USAGE;
    }
    d->dir = run_dir_path(d->runs_dir, id);
    if (d->mode == MODE_REPLAY && orig_run_is(d->dir)) /* a run of the original chidori (orig_run.h) */
        return orig_run_read(d->dir, id, d->key, &d->meta, &d->orig_records, &d->error) < 0 ? STEP_FAILED : STEP_OK;
    if (run_meta_read(d->dir, &d->meta, &d->error) < 0) return STEP_FAILED;
    if (d->mode == MODE_RESUME) { /* lock, then read again: the state cannot change under the lock */
        if ((d->lock_fd = lock_run(d)) < 0) return STEP_FAILED;
        /* a parked process holds it while it replays, and lets it go as it waits (park_here): what
         * it read must be as it is when a resume takes the run (park_take) */
        if (d->o->parked) stamp_files(d, d->park_files);
        run_meta_clear(&d->meta);
        if (run_meta_read(d->dir, &d->meta, &d->error) < 0) return STEP_FAILED;
    }
    if (strcmp(d->meta.agent, d->key) != 0) {
        d->error = xasprintf("run %s is a run of %s, not of %s", d->meta.run_id, d->meta.agent, d->key);
        return STEP_FAILED;
    }
    if (d->mode == MODE_RESUME) {
        int rc = check_resumable(d);
        if (rc) return rc;
    }
    if (d->mode == MODE_RESUME) {
        int rc = check_source(d);
        if (rc) return rc;
    }
    /* the recorded surface settings, and the seed the run started from */
    if (surface_adopt_recorded(&d->setup.surface, d->meta.run_id, d->meta.surface, d->meta.vfs, &d->error) < 0)
        return STEP_USAGE;
    /* a replay runs under the caps the run ran under, so it stops where the run stopped */
    if (d->mode == MODE_REPLAY && d->meta.log_max_records && d->meta.log_max_bytes) {
        d->setup.log_caps.max_records = d->meta.log_max_records;
        d->setup.log_caps.max_bytes = d->meta.log_max_bytes;
    }
    return STEP_OK;
}

/* Before the agent starts: run creates the run folder, takes its lock and writes run.json; resume
 * marks it running, with the pending call and its answer kept, before anything is appended (the
 * log flushes run.json to disk before its first record). replay writes nothing. */
static int step_write_start(durable *d)
{
    if (d->mode != MODE_REPLAY) {
        d->meta.log_max_records = d->setup.log_caps.max_records;
        d->meta.log_max_bytes = d->setup.log_caps.max_bytes;
    }
    if (!d->dir) d->dir = run_dir_path(d->runs_dir, d->meta.run_id);
    d->records = xasprintf("%s/records.jsonl", d->dir);
    d->meta_path = xasprintf("%s/run.json", d->dir);
    if (d->mode == MODE_RUN &&
        (run_dir_create(d->dir, &d->error) < 0 || (d->lock_fd = run_lock(d->dir, d->meta.run_id, &d->error)) < 0 ||
         run_meta_write(d->dir, &d->meta, false, &d->error) < 0))
        return STEP_FAILED;
    if (d->mode == MODE_RUN) {
        d->manifest = manifest_now(d, d->set, NULL);
        if (!d->manifest) return STEP_FAILED;
    }
    if (d->manifest) write_manifest(d); /* a run's, or the edit a resume accepted */
    if (d->mode != MODE_REPLAY) signal_inbox_init(&d->inbox, d->dir);
    if (d->mode == MODE_RESUME && d->signal_resume &&
        signal_inbox_hand(&d->inbox, (uint64_t)json_number_value(json_object_get(d->meta.pending, "seq")),
                          d->o->signal, d->o->payload, d->o->from, &d->error) < 0)
        return STEP_FAILED;
    if (d->mode == MODE_RESUME && !d->o->parked) { /* a parked run: once a resume takes it (park_take) */
        free(d->meta.status);
        d->meta.status = xstrdup("running");
        d->ended_before = d->meta.ended_at_ms;
        d->meta.ended_at_ms = 0;
        if (run_meta_write(d->dir, &d->meta, false, &d->error) < 0) return STEP_FAILED;
    }
    return STEP_OK;
}

/* The runner's request for this run. */
static void fill_request(const durable *d, const settings *set, banner_ctx *banner, progress *pg,
                         stream_out *so, runner_request *req)
{
    durable_mode mode = d->mode;
    const run_meta *m = &d->meta;
    req->isolated = d->setup.isolated;
    req->exit_after = true; /* one run per process */
    req->iso = d->setup.iso;
    req->limits = d->setup.limits;
    req->log_caps = d->setup.log_caps;
    req->settings = set;
    req->project_root = d->folder;
    req->entry = d->key;
    req->run_id = m->run_id;
    req->run_dir = mode == MODE_REPLAY ? NULL : d->dir; /* chidori.branch's store (a replay writes nothing) */
    req->state_dir = d->state_dir;
    req->input = m->input;
    req->seed = m->seed;
    req->clock_start_ms = m->clock_start_ms;
    req->mode = mode == MODE_RUN ? LOG_LIVE : mode == MODE_REPLAY ? LOG_REPLAY_ONLY : LOG_REPLAY_THEN_LIVE;
    /* a run killed before its log was opened has no records.jsonl */
    req->records_file = mode == MODE_RUN || (access(d->records, F_OK) != 0 && errno == ENOENT)
                            ? NULL : d->records;
    if (d->orig_records) req->records_file = NULL, req->records = d->orig_records;
    req->persist_file = mode == MODE_REPLAY ? NULL : d->records;
    req->persist_companion = d->meta_path;
    req->pending = mode == MODE_RESUME && !d->signal_resume && !d->o->parked ? m->pending : NULL;
    /* a signal pause: the call is performed again at its seq, and takes what --signal handed it */
    if (d->signal_resume) req->reopen = m->pending;
    if (d->inbox.path) req->signals = &d->inbox.box;
    req->adopt_open_calls = mode == MODE_RESUME && !m->pending && !d->o->parked; /* a recovery: no pending call */
    req->recorded_pause = mode == MODE_REPLAY && m->status && !strcmp(m->status, "paused") ? m->pending : NULL;
    req->response = mode == MODE_RESUME ? m->response : NULL;
    req->answers = d->o->answers;
    req->n_answers = d->o->n_answers;
    req->interactive = mode != MODE_REPLAY && !d->o->parked && isatty(STDIN_FILENO) && isatty(STDERR_FILENO);
    req->policy = d->setup.policy.policy;
    req->surface = &d->setup.surface;
    req->banner = true;
    *banner = (banner_ctx){d->setup.isolated, &d->setup.policy, m, pg};
    req->ready = print_banner;
    req->ready_ctx = banner;
    if (pg) { /* on a terminal: the progress line hears of each call, and clears itself for log lines */
        req->log_out = progress_stream(pg);
        req->call_started = progress_call_started;
        req->call_started_ctx = pg;
        req->sink = progress_record;
        req->sink_ctx = pg;
    }
    if (so) { /* --stream: every call and prompt event as a line on stdout */
        req->sink = stream_out_record;
        req->sink_ctx = so;
        req->prompt_event = stream_out_prompt_event;
        req->prompt_event_ctx = so;
    }
}

/* replay: it must end as the recording did, to the byte. The exit code. */
static int report_replay(durable *d, const runner_outcome *res)
{
    const run_meta *m = &d->meta;
    char *want = m->output ? json_dump(m->output, JSON_COMPACT, NULL) : NULL;
    const char *status = status_name(res->status);
    /* the original wrote output.json with its keys sorted: its output is compared as a value */
    json_error jerr;
    json_t *got = d->orig_records && res->output_json ? json_parse(res->output_json, strlen(res->output_json), NULL, &jerr) : NULL;
    bool same_output = want && res->output_json &&
                       (d->orig_records ? got && json_equal(got, m->output) : !strcmp(want, res->output_json));
    json_free(got);
    bool same = !strcmp(status, m->status) &&
                (res->status != RUNNER_COMPLETED || same_output) &&
                (res->status != RUNNER_FAILED || (m->error && !strcmp(m->error, res->error)));
    int exit_code;
    if (same) /* said before the outcome, so a script reading stderr sees it whatever follows */
        fprintf(stderr, "chidori: replay matched %zu record%s of run %s\n", res->call_count,
                res->call_count == 1 ? "" : "s", m->run_id);
    if (!same) {
        fprintf(stderr, "chidori: replay of run %s differs from the recording (which %s): the replay %s%s",
                m->run_id, !strcmp(m->status, "running") ? "was cut off while running" : m->status, status,
                res->status == RUNNER_FAILED ? ": " : "");
        if (res->status == RUNNER_FAILED) write_for_terminal(stderr, res->error, strlen(res->error));
        fputc('\n', stderr);
        exit_code = 1;
    } else if (res->status == RUNNER_COMPLETED) {
        exit_code = print_output(res->output_json);
    } else if (res->status == RUNNER_FAILED) {
        print_failure(res->error);
        exit_code = 1;
    } else {
        print_paused(m, d->o->file, m->pending, d->o->runs_dir, false); /* a replay prints no outcome of its own */
        exit_code = 3;
    }
    free(want);
    return exit_code;
}

/* run and resume: the outcome into run.json, then printed (with --stream: the `done` line). The
 * exit code. */
static int record_outcome(durable *d, runner_outcome *res, stream_out *so)
{
    run_meta *m = &d->meta;
    free(m->status);
    json_free(m->output), m->output = NULL;
    free(m->error), m->error = NULL;
    json_free(m->pending), m->pending = NULL;
    free(m->response), m->response = NULL;
    m->ended_at_ms = clock_realtime_ms(); /* for `chidori runs` */
    if (res->status == RUNNER_COMPLETED) {
        json_error jerr;
        m->output = json_parse(res->output_json, strlen(res->output_json), NULL, &jerr);
        m->status = xstrdup(m->output ? "completed" : "failed");
        if (!m->output) m->error = xasprintf("the agent's output cannot be stored: %s", jerr.message);
    } else if (res->status == RUNNER_FAILED) {
        m->status = xstrdup("failed");
        m->error = xstrdup(res->error);
    } else {
        m->status = xstrdup("paused");
        m->pending = res->pending, res->pending = NULL;
    }
    /* The flushed call log is the durable truth of a run (an outcome can be recomputed from
     * it by replay), so only a paused run, whose pending call exists nowhere else, pays for a
     * flush of run.json here. */
    char *error = NULL;
    if (run_meta_write(d->dir, m, !strcmp(m->status, "paused"), &error) < 0) {
        fprintf(stderr, "chidori: %s\n", error);
        free(error);
    }
    if (so) { /* completed and paused exit 0, as the original's --stream does; a failure is on stderr too */
        stream_out_done(so, m->status, m->run_id, m->output, m->pending, m->error);
        if (!strcmp(m->status, "paused")) print_paused(m, d->o->file, m->pending, d->o->runs_dir, false);
        if (strcmp(m->status, "failed")) return 0;
        print_failure(m->error);
        return 1;
    }
    if (!strcmp(m->status, "completed")) return print_output(res->output_json);
    if (!strcmp(m->status, "paused")) {
        print_paused(m, d->o->file, m->pending, d->o->runs_dir, true);
        return 3;
    }
    print_failure(m->error);
    /* an input that does not match the agent's inputSchema is the caller's mistake, like a bad
     * command line: nothing ran (the run is recorded as failed, with every issue listed) */
    return res->status == RUNNER_FAILED && res->input_invalid ? 2 : 1;
}

/* A resume that could not be set up appended nothing: the run is paused as it was. */
static void restore_paused(durable *d)
{
    if (d->signal_resume && d->inbox.path)
        signal_inbox_unhand(&d->inbox, (uint64_t)json_number_value(json_object_get(d->meta.pending, "seq")));
    free(d->meta.status);
    d->meta.status = xstrdup("paused");
    d->meta.ended_at_ms = d->ended_before;
    free(d->meta.response), d->meta.response = NULL;
    char *ignored = NULL;
    if (run_meta_write(d->dir, &d->meta, true, &ignored) < 0) free(ignored);
}

/* The size of a file, 0 when it does not exist. */
static off_t file_size(const char *path)
{
    struct stat st;
    return path && stat(path, &st) == 0 ? st.st_size : 0;
}

/* resume: a replay that diverged from the log at or before the call the run paused on (the agent
 * was edited, and --allow-source-change let it through) performed nothing live. The run is put back
 * as it was: the answer it appended (at most that one line, at the pending seq) cut off, run.json
 * paused again, the manifest it replaced back. true when it was; false when more than the answer
 * was appended (something ran: the failure stands). */
static bool undo_refused_resume(durable *d, const runner_outcome *res, off_t size_before)
{
    if (!d->was_paused || res->status != RUNNER_FAILED) return false;
    double seq = json_number_value(json_object_get(d->meta.pending, "seq"));
    if (seq < 1 || !manifest_refused_before(res, (uint64_t)seq)) return false;
    off_t size_after = file_size(d->records);
    if (size_after < size_before) return false;
    if (size_after > size_before) {
        size_t n = (size_t)(size_after - size_before);
        if (n > CALLLOG_RECORD_MAX_BYTES + 1) return false;
        char *error = NULL;
        int fd = open_regular_file(d->records, O_RDWR, 0, &error);
        if (fd < 0) {
            free(error);
            return false;
        }
        char *tail = xmalloc(n); /* what the resume appended: one line, the answer, or it stands */
        bool read_all = pread(fd, tail, n, size_before) == (ssize_t)n;
        const char *nl = read_all ? memchr(tail, '\n', n) : NULL;
        json_error jerr;
        json_t *rec = nl && nl == tail + n - 1 ? json_parse(tail, n - 1, NULL, &jerr) : NULL;
        bool only_answer = rec && json_number_value(json_object_get(rec, "seq")) == seq;
        json_free(rec);
        free(tail);
        if (!only_answer) {
            close(fd);
            return false;
        }
        if (ftruncate(fd, size_before) < 0 || fdatasync(fd) < 0) {
            fprintf(stderr, "chidori: the answer the refused resume appended cannot be cut off: %s\n", strerror(errno));
            close(fd);
            return false;
        }
        close(fd);
    }
    if (d->was_manifest) {
        json_free(d->manifest);
        d->manifest = d->was_manifest, d->was_manifest = NULL;
        write_manifest(d);
    }
    restore_paused(d);
    return true;
}

static void durable_clear(durable *d)
{
    if (d->setup.iso.early) warm_worker_discard(d->early); /* the run never started */
    free(d->error);
    run_setup_clear(&d->setup);
    run_meta_clear(&d->meta);
    free(d->folder);
    free(d->key);
    free(d->runs_dir);
    free(d->state_dir);
    free(d->dir);
    free(d->records);
    free(d->meta_path);
    json_free(d->orig_records);
    json_free(d->manifest);
    json_free(d->was_manifest);
    json_free(d->recorded_manifest);
    signal_inbox_clear(&d->inbox);
    if (d->lock_fd >= 0) close(d->lock_fd); /* the run folder's lock */
}

/* ---------- parked runs (cli/park.h, docs/durable-runs.md#parked-runs-on-the-command-line) ---------- */

extern char **environ;

static int cmp_text(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The process's own standing, as the kernel keeps it: its umask, user and groups, capabilities, no-
 * new-privileges and seccomp state (/proc/self/status), resource limits, cgroup, namespaces and
 * root. A run inherits all of them, so a parked run goes on for a resume only when they match. */
static void add_process_standing(json_t *who)
{
    static const char *const keys[] = {"Umask:", "Uid:", "Gid:", "Groups:", "CapInh:", "CapPrm:", "CapEff:",
                                       "CapBnd:", "CapAmb:", "NoNewPrivs:", "Seccomp:"};
    json_t *status = json_array();
    FILE *f = fopen("/proc/self/status", "re");
    char line[512];
    while (f && fgets(line, sizeof line, f))
        for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
            if (!strncmp(line, keys[i], strlen(keys[i]))) json_array_push(status, json_string(line));
    if (f) fclose(f);
    json_object_set(who, "status", status);
    json_t *limits = json_array();
    for (int r = 0; r < RLIM_NLIMITS; r++) {
        struct rlimit rl;
        char *text = park_getrlimit(r, &rl) == 0
                         ? xasprintf("%d %ju %ju", r, (uintmax_t)rl.rlim_cur, (uintmax_t)rl.rlim_max)
                         : xasprintf("%d ?", r);
        json_array_push(limits, json_string(text));
        free(text);
    }
    json_object_set(who, "rlimits", limits);
    size_t len = 0;
    char *why = NULL;
    char *cgroup = read_file_capped("/proc/self/cgroup", 65536, &len, &why);
    json_object_set(who, "cgroup", cgroup ? json_stringn(cgroup, len) : json_null());
    free(cgroup);
    free(why);
    static const char *const ns[] = {"cgroup", "ipc", "mnt", "net", "pid", "time", "user", "uts"};
    json_t *spaces = json_array();
    for (size_t i = 0; i < sizeof ns / sizeof *ns; i++) {
        char path[64], target[128];
        snprintf(path, sizeof path, "/proc/self/ns/%s", ns[i]);
        ssize_t n = readlink(path, target, sizeof target - 1);
        target[n > 0 ? n : 0] = '\0';
        json_array_push(spaces, json_string(target));
    }
    json_object_set(who, "namespaces", spaces);
    struct stat root;
    char *r = stat("/", &root) == 0 ? xasprintf("%ju:%ju", (uintmax_t)root.st_dev, (uintmax_t)root.st_ino) : xstrdup("?");
    json_object_set(who, "root", json_string(r));
    free(r);
}

/* Who resumes, as a parked run compares it: what a resume's run is set up from that this process
 * holds: its environment (all of it but `_`, which a shell sets to the command), working folder,
 * the agent and the runs folder as real paths, the posture, the binary, and the process's own
 * standing (add_process_standing). NULL when a part cannot be said (the run then neither parks
 * nor is handed over). */
static json_t *resume_who(const run_options *o, const settings *set, const char *runs_dir)
{
    char *cwd = getcwd(NULL, 0), *agent = realpath(o->file, NULL), *runs = realpath(runs_dir, NULL);
    json_t *who = NULL;
    if (cwd && agent && runs) {
        size_t n = 0;
        while (environ[n]) n++;
        char **env = xmalloc((n + 1) * sizeof *env);
        memcpy(env, environ, n * sizeof *env);
        qsort(env, n, sizeof *env, cmp_text);
        json_t *list = json_array();
        for (size_t i = 0; i < n; i++)
            if (strncmp(env[i], "_=", 2)) json_array_push(list, json_string(env[i]));
        free(env);
        who = json_object();
        json_object_set(who, "env", list);
        json_object_set(who, "cwd", json_string(cwd));
        json_object_set(who, "agent", json_string(agent));
        json_object_set(who, "runs_dir", json_string(runs));
        json_object_set(who, "isolated", json_bool(run_start_isolated(o->isolate, set)));
        json_object_set(who, "untrusted", json_bool(o->untrusted));
        json_object_set(who, "trusted", json_bool(o->trusted));
        /* the same build of chidori: the parked process runs the binary its run ran */
        struct stat st;
        char *exe = realpath("/proc/self/exe", NULL);
        char *stamp = exe && stat(exe, &st) == 0
                          ? xasprintf("%s %ju:%ju:%jd.%09ld", exe, (uintmax_t)st.st_dev, (uintmax_t)st.st_ino,
                                      (intmax_t)st.st_mtim.tv_sec, st.st_mtim.tv_nsec)
                          : xstrdup("?");
        json_object_set(who, "exe", json_string(stamp));
        free(stamp);
        free(exe);
        add_process_standing(who);
    }
    free(cwd);
    free(agent);
    free(runs);
    return who;
}

static bool parking_set(const settings *set)
{
    return settings_u64(set, "CHIDORI_PARK_MS") > 0 && settings_u64(set, "CHIDORI_PARK_MAX") > 0;
}

/* A run under a wall-clock deadline never parks: the deadline counts from the run's start, and the
 * parked process's run started when it did, not when the resume came. */
static bool deadline_set(const run_setup *rs)
{
    return rs->limits.deadline_ms || (rs->isolated && rs->iso.deadline_ms_set && rs->iso.deadline_ms);
}

/* The files a resume reads that the parked process read already: the run's own, the policy file,
 * the saved OpenRouter key. */
static void park_file_paths(const durable *d, char *paths[PARK_FILES])
{
    const char *policy = settings_text(d->set, "CHIDORI_POLICY_FILE");
    const char *home = NULL;
    for (size_t i = 0; environ[i] && !home; i++)
        if (!strncmp(environ[i], "HOME=", 5)) home = environ[i] + 5;
    paths[0] = xasprintf("%s/records.jsonl", d->dir);
    paths[1] = xasprintf("%s/run.json", d->dir);
    paths[2] = xasprintf("%s/runtime.snapshot.json", d->dir);
    paths[3] = policy && *policy ? xstrdup(policy) : NULL;
    paths[4] = home ? xasprintf("%s/.chidori/credentials.json", home) : NULL;
}

static void stamp_files(const durable *d, file_stamp out[PARK_FILES])
{
    char *paths[PARK_FILES];
    park_file_paths(d, paths);
    for (int i = 0; i < PARK_FILES; i++) {
        struct stat st;
        memset(&out[i], 0, sizeof out[i]);
        if (paths[i] && stat(paths[i], &st) == 0)
            out[i] = (file_stamp){true, st.st_dev, st.st_ino, st.st_size, st.st_mtim, st.st_ctim};
        free(paths[i]);
    }
}

static bool same_stamps(const file_stamp *a, const file_stamp *b)
{
    for (int i = 0; i < PARK_FILES; i++)
        if (a[i].there != b[i].there || a[i].dev != b[i].dev || a[i].ino != b[i].ino || a[i].size != b[i].size ||
            a[i].mtime.tv_sec != b[i].mtime.tv_sec || a[i].mtime.tv_nsec != b[i].mtime.tv_nsec ||
            a[i].ctime.tv_sec != b[i].ctime.tv_sec || a[i].ctime.tv_nsec != b[i].ctime.tv_nsec)
            return false;
    return true;
}

/* park_take_fn: a resume may take the run when it is who started this process and nothing the
 * resume would read has changed since; then the run is marked running with the answer, as a resume
 * marks it before it appends anything (step_write_start). */
static int park_take(void *ctx, const json_t *who, const char *response, const json_t *hint, char **why)
{
    durable *d = ctx;
    const char *program = json_string_value(json_object_get(hint, "program"));
    const json_t *runs_arg = json_object_get(hint, "runs_dir");
    if (!program || (runs_arg && runs_arg->type != JSON_NULL && !json_is_string(runs_arg))) {
        *why = xstrdup("the resume did not say how it was invoked");
        return -1;
    }
    if (!json_equal(who, d->park_who)) {
        *why = xstrdup("the resume has another environment, working folder, agent path or posture");
        return -1;
    }
    if ((d->lock_fd = run_lock(d->dir, d->meta.run_id, why)) < 0) return -1;
    file_stamp now[PARK_FILES];
    stamp_files(d, now);
    json_free(d->recorded_manifest), d->recorded_manifest = NULL;
    int source = same_stamps(now, d->park_files) ? check_source(d) : STEP_FAILED;
    free(d->error), d->error = NULL;
    if (source != STEP_OK || !d->recorded_manifest || d->manifest) {
        *why = xstrdup("the run's files or the agent's source changed since the run paused");
    } else {
        run_meta *m = &d->meta;
        m->response = xstrdup(response);
        free(m->status);
        m->status = xstrdup("running");
        d->ended_before = m->ended_at_ms;
        m->ended_at_ms = 0;
        if (run_meta_write(d->dir, m, false, why) == 0) {
            /* what the run prints names the resume's command, as its own run would */
            cli_program = xstrdup(program);
            ((run_options *)d->o)->runs_dir = json_is_string(runs_arg) ? xstrdup(json_string_value(runs_arg)) : NULL;
            return 0;
        }
        free(m->response), m->response = NULL;
    }
    close(d->lock_fd), d->lock_fd = -1;
    return -1;
}

/* The resume that took the run could not be told: the run is paused again, as it was. */
static void park_untake(void *ctx)
{
    durable *d = ctx;
    restore_paused(d);
    if (d->lock_fd >= 0) close(d->lock_fd), d->lock_fd = -1;
}

/* host_config.call_started in the parked process: before a resume takes the run, the only live call
 * it may reach is the input it paused on (where it parks). Any other means the log holds more than
 * the pause (an answer a killed resume appended): this process ends at once, before the call is
 * gated or performed, having written nothing; the resume replays as always. */
static void park_guard(void *ctx, const char *op, const json_t *args)
{
    (void)args;
    durable *d = ctx;
    if (!d->handed && (d->live_before_park++ || strcmp(op, "input"))) {
        park_listener_close(d->park); /* its place goes with it */
        _exit(0);
    }
}

/* host_config.park in the parked process: the run reached the input it paused on; it waits here
 * for a resume (the run's lock let go meanwhile, so the run is anybody's). */
static int park_here(void *ctx, struct host *h, const json_t *pending, const json_t *approval, char **response)
{
    (void)h;
    durable *d = ctx;
    *response = NULL;
    if (approval || !d->park ||
        json_number_value(json_object_get(pending, "seq")) != json_number_value(json_object_get(d->meta.pending, "seq")))
        return 0;
    if (d->lock_fd >= 0) close(d->lock_fd), d->lock_fd = -1;
    /* `ps` and `top` show it as what it is now: a run waiting for its resume (the process's name is
     * its main thread's; this may be another) */
    char comm[64];
    snprintf(comm, sizeof comm, "/proc/self/task/%d/comm", (int)getpid());
    int cfd = open(comm, O_WRONLY | O_CLOEXEC);
    if (cfd < 0 || write(cfd, "chidori-parked", 14) != 14) prctl(PR_SET_NAME, "chidori-parked", 0, 0, 0);
    if (cfd >= 0) close(cfd);
    int64_t until = clock_monotonic_ms() + (int64_t)settings_u64(d->set, "CHIDORI_PARK_MS");
    if (park_wait(d->park, until, park_take, park_untake, d, response) != 1) return 0;
    d->handed = true;
    return 1;
}

/* Could this resume be handed the run (as far as who it is goes)? Called on the early watch's
 * thread: park_who does not change once the run starts. */
static bool park_fits(void *ctx, const json_t *who)
{
    const durable *d = ctx;
    return json_equal(who, d->park_who);
}

/* --parked, before the run: listen, and note what must not change. -1: this process goes (quietly:
 * nobody reads its output). */
static int park_begin(durable *d)
{
    if (!parking_set(d->set) || deadline_set(&d->setup) || !d->recorded_manifest) return -1;
    park_place pl;
    if (park_place_of(d->state_dir, d->dir, &pl) < 0) return -1;
    char *error = NULL;
    int rc = -1;
    /* the place the pausing process took for it (park_spawn); else (started by hand) one of its own */
    d->park = park_adopt(&pl);
    if (!d->park && park_count(&pl) < (int)settings_u64(d->set, "CHIDORI_PARK_MAX"))
        d->park = park_listen(&pl, &error);
    if (d->park) {
        d->park_who = resume_who(d->o, d->set, d->runs_dir);
        if (d->park_who) rc = 0;
        /* while it replays, a resume that cannot be handed the run need not wait for the replay */
        if (d->park_who) park_watch_early(d->park, park_fits, d);
    }
    free(error);
    park_place_clear(&pl);
    return rc;
}

/* After a run or resume ended paused on an input: the argv of the process that parks it (NULL
 * when it does not park). */
static char **park_argv(const durable *d, int rc)
{
    const run_options *o = d->o;
    const char *fn = json_string_value(json_object_get(d->meta.pending, "function"));
    if (rc != 3 || d->mode == MODE_REPLAY || o->stream || o->n_answers || !parking_set(d->set) ||
        deadline_set(&d->setup) || !d->meta.status || strcmp(d->meta.status, "paused") || !fn || strcmp(fn, "input"))
        return NULL;
    park_place pl;
    if (park_place_of(d->state_dir, d->dir, &pl) < 0) return NULL;
    /* a parked process that went on with the run and paused again counts itself: it hands its
     * place on */
    bool room = park_count(&pl) - (d->park ? 1 : 0) < (int)settings_u64(d->set, "CHIDORI_PARK_MAX");
    park_place_clear(&pl);
    if (!room) return NULL;
    char **argv = xcalloc(12, sizeof *argv);
    int n = 0;
    argv[n++] = xstrdup("chidori");
    argv[n++] = xstrdup("resume");
    argv[n++] = xstrdup(o->file);
    argv[n++] = xstrdup(d->meta.run_id);
    argv[n++] = xstrdup("--runs-dir");
    argv[n++] = xstrdup(d->runs_dir);
    if (o->isolate >= 0) argv[n++] = xstrdup(o->isolate ? "--isolate" : "--no-isolate");
    if (o->untrusted) argv[n++] = xstrdup("--untrusted");
    if (o->trusted) argv[n++] = xstrdup("--trusted");
    argv[n++] = xstrdup("--parked");
    return argv;
}

/* The place for the process that parks the run, taken before the run's lock is let go: a
 * resume that comes before that process has started waits for it there. A parked process that
 * went on with the run hands its own place on (listening again). NULL: no place, no parking. */
static park_listener *park_seat(durable *d)
{
    if (d->park) {
        if (park_relisten(d->park) < 0) return NULL;
        park_listener *seat = d->park;
        d->park = NULL;
        return seat;
    }
    park_place pl;
    if (park_place_of(d->state_dir, d->dir, &pl) < 0) return NULL;
    char *error = NULL;
    park_listener *seat = park_listen(&pl, &error);
    free(error);
    park_place_clear(&pl);
    return seat;
}

static void park_start(char **argv, park_listener *seat)
{
    if (seat && park_spawn(argv, seat) == 0) park_listener_release(seat);
    else park_listener_close(seat);
    for (char **a = argv; a && *a; a++) free(*a);
    free(argv);
}

/* resume: a parked process of the run takes the answer (and this process's streams) when it can:
 * the run's exit code, or -1 (then this process resumes it by replay, as always). A resume that
 * cannot hand it over (on a terminal, a signal, --stream, ...; parking off for it) asks it to let
 * the run go first, rather than find the run's lock held while it replays. */
static int resume_parked(run_options *o, const settings *set)
{
    /* a resume without an answer continues an interrupted run (nothing is parked for it) or is
     * refused: it leaves a parked process alone */
    if (o->parked || (!o->response && !o->signal) || strlen(o->run_id) != 36 ||
        strspn(o->run_id, "0123456789abcdef-") != 36)
        return -1;
    bool can_hand = parking_set(set) && o->response && !o->signal && !o->allow_source_change && !o->stream &&
                    !o->n_answers && !isatty(STDIN_FILENO) && !isatty(STDERR_FILENO);
    char *folder = NULL, *key = NULL, *error = NULL;
    if (runner_split_agent(o->file, &folder, &key, &error) < 0) {
        free(error);
        return -1;
    }
    char *state_dir = run_start_state_dir(set, folder);
    char *runs_dir = o->runs_dir ? xstrdup(o->runs_dir) : xasprintf("%s/runs", state_dir);
    char *dir = run_dir_path(runs_dir, o->run_id);
    park_place pl;
    int rc = -1;
    if (park_place_of(state_dir, dir, &pl) == 0) {
        json_t *who = can_hand ? resume_who(o, set, runs_dir) : NULL;
        if (who) {
            json_t *hint = json_object();
            json_object_set(hint, "program", json_string(cli_program));
            json_object_set(hint, "runs_dir", o->runs_dir ? json_string(o->runs_dir) : json_null());
            rc = park_hand(&pl, who, o->response, hint);
            o->park_left = rc == -2;
            json_free(hint);
            json_free(who);
        } else {
            o->park_left = park_send_away(&pl);
        }
        if (rc < 0) rc = -1;
        park_place_clear(&pl);
    }
    free(dir);
    free(runs_dir);
    free(state_dir);
    free(folder);
    free(key);
    return rc;
}

/* One durable run in any of the three modes: the steps above, in order. */
static int durable_run(durable_mode mode, const run_options *o, const settings *set)
{
    durable d = {.mode = mode, .o = o, .set = set, .lock_fd = -1};
    runner_request req = {0};
    runner_outcome res = {0};
    banner_ctx banner;
    progress *pg = NULL;
    stream_out *so = o->stream ? stream_out_new(stdout) : NULL;
    int rc = step_setup(&d, set);
    if (!rc) rc = step_locate(&d, set);
    if (!rc) rc = mode == MODE_RUN ? step_new_run(&d, set) : step_open_recorded(&d);
    if (!rc) rc = step_write_start(&d);
    if (!rc && o->parked && park_begin(&d) < 0) rc = -1; /* not parked: goes, writing nothing */
    if (!rc) {
        /* the live status line: run and resume, on a terminal, without --quiet (a replay performs nothing) */
        pg = mode == MODE_REPLAY || so ? NULL : progress_new(o->quiet);
        fill_request(&d, set, &banner, pg, so, &req);
        if (o->parked) {
            req.park = park_here, req.park_ctx = &d;
            req.call_started = park_guard, req.call_started_ctx = &d;
        }
        off_t size_before = mode == MODE_RESUME ? file_size(d.records) : 0;
        /* in this process, the CPU backstop (its effects may outlast the deadline legitimately) */
        if (!req.isolated) isolate_inproc_backstop_arm(&req.limits, false, ISOLATE_INPROC_HOST_SLACK_MS);
        int ran = runner_run(&req, &res, &d.error);
        progress_stop(pg); /* cleared before the outcome, the paused prompt or an error is printed */
        if (o->parked && !d.handed) { /* no resume came: nothing was performed, nothing is written */
            rc = -1;
        } else if (ran == 0 && mode == MODE_RESUME && undo_refused_resume(&d, &res, size_before)) {
            d.error = xasprintf("the resume of run %s was refused: %s. Nothing was performed and the run is paused "
                                "as it was: put the recorded agent source back and resume it again",
                                d.meta.run_id, res.error);
            rc = STEP_FAILED;
        } else if (ran == 0) {
            if (mode != MODE_REPLAY) manifest_after_run(&d, &res);
            rc = mode == MODE_REPLAY ? report_replay(&d, &res) : record_outcome(&d, &res, so);
        }
        else {
            if (d.was_paused) restore_paused(&d);
            rc = STEP_FAILED;
        }
    }
    if (rc < 0) { /* a parked process that goes: quietly */
        rc = 0;
        free(d.error), d.error = NULL;
    }
    if (d.error) fprintf(stderr, "chidori: %s\n", d.error);
    if (so && rc != 0 && d.error) stream_out_done(so, "failed", NULL, NULL, NULL, d.error);
    stream_out_free(so);
    progress_free(pg);
    runner_outcome_clear(&res);
    char **parker = park_argv(&d, rc);
    park_listener *handed_to = d.handed ? d.park : NULL; /* the connection of the resume it serves */
    park_listener *seat = parker ? park_seat(&d) : NULL; /* before the resume is told, and the lock goes */
    if (handed_to) park_report_exit(handed_to, rc); /* the resume exits with it; its streams are let go */
    park_listener_close(d.park); /* (NULL when it became the seat) */
    json_free(d.park_who);
    durable_clear(&d); /* the run's lock is let go: the process that parks it takes it */
    if (parker) park_start(parker, seat);
    return rc;
}

static int command(durable_mode mode, int argc, char **argv, const settings *set)
{
    run_options o = {0};
    int rc = parse_options(argc, argv, mode == MODE_RUN ? 1 : 2, mode == MODE_RUN, &o);
    if (rc == 0 && mode != MODE_RESUME && o.response) rc = cli_usage_error("%s", "--response goes with resume");
    if (rc == 0 && mode != MODE_RESUME && o.signal) rc = cli_usage_error("%s", "--signal goes with resume");
    if (rc == 0 && !o.signal && (o.payload || o.from))
        rc = cli_usage_error("%s", "--payload and --from go with --signal");
    if (rc == 0 && o.signal && o.response) rc = cli_usage_error("%s", "--signal and --response cannot be used together");
    if (rc == 0 && mode == MODE_REPLAY && o.stream)
        rc = cli_usage_error("%s", "--stream goes with run and resume (a replay performs nothing live)");
    if (rc == 0 && o.parked && (mode != MODE_RESUME || o.response || o.signal || o.stream || o.n_answers ||
                                o.allow_source_change))
        rc = cli_usage_error("%s", "--parked is the process a paused run leaves (CHIDORI_PARK_MS): it goes with "
                                   "resume alone");
    if (rc == 0 && mode != MODE_RESUME && o.allow_source_change)
        rc = cli_usage_error("%s", "--allow-source-change goes with resume");
    if (rc == 0 && mode == MODE_RESUME && o.parked && park_capture_streams() < 0) rc = 1;
    int parked = rc == 0 && mode == MODE_RESUME ? resume_parked(&o, set) : -1; /* the run went on there */
    if (parked >= 0) rc = parked;
    else if (rc == 0) rc = durable_run(mode, &o, set);
    json_free(o.input);
    json_free(o.payload);
    json_free(o.from);
    return rc;
}

int cmd_run(int argc, char **argv, const settings *s) { return command(MODE_RUN, argc, argv, s); }
int cmd_replay(int argc, char **argv, const settings *s) { return command(MODE_REPLAY, argc, argv, s); }
int cmd_resume(int argc, char **argv, const settings *s) { return command(MODE_RESUME, argc, argv, s); }

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
#include "cli/input.h"
#include "cli/runstore.h"
#include "runner/surface.h"
#include "engine/engine.h"
#include "host/policy.h"
#include "isolate/isolate.h"
#include "runner/runner.h"
#include "runner/start.h"
#include "settings/settings.h"
#include "util/buf.h"
#include "util/random.h"
#include "util/termtext.h"

#include <errno.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_ANSWERS 256

typedef struct run_options {
    const char *file;
    const char *run_id;   /* replay / resume */
    const char *runs_dir; /* --runs-dir */
    const char *response; /* resume --response */
    const char *answers[MAX_ANSWERS];
    size_t n_answers;
    int isolate; /* -1 unset, 0/1 */
    bool untrusted, trusted;
    json_t *input;
} run_options;

static int64_t realtime_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

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
                     !strcmp(a, "--runs-dir") || !strcmp(a, "--response");
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
        } else if (cli_posture_flag(a, &o->untrusted, &o->trusted, &o->isolate)) {
            continue;
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

static void print_paused(const run_meta *m, const char *file, const json_t *pending, const char *runs_flag)
{
    const json_t *args = json_object_get(pending, "args");
    const char *prompt = json_string_value(json_object_get(args, "prompt"));
    fprintf(stderr, "Run %s paused, waiting for input: ", m->run_id);
    if (!prompt) prompt = "(no prompt)";
    write_for_terminal(stderr, prompt, strlen(prompt)); /* the agent's text */
    fputc('\n', stderr);
    fprintf(stderr, "Resume with: chidori resume %s %s%s --response '<answer>'\n", file, m->run_id,
            runs_flag ? runs_flag : "");
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
    size_t len;
    char *pretty = json_dump(out, JSON_PRETTY, &len);
    buf shown = {0}; /* the same JSON, with C1 and bidi controls as \u escapes (util/termtext.h) */
    term_json_escape(&shown, pretty, len);
    buf_putc(&shown, '\n');
    fwrite(shown.data, 1, shown.len, stdout);
    fflush(stdout);
    buf_free(&shown);
    free(pretty);
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
} banner_ctx;

static void print_banner(void *ctx)
{
    banner_ctx *b = ctx;
    if (!b->isolated) fprintf(stderr, "Isolation: off (in-process run; --isolate runs it in a worker process)\n");
    fprintf(stderr, "Policy: %s\n", b->sel->description);
    fprintf(stderr, "Run id: %s\n", b->meta->run_id);
}

static const char *status_name(runner_status s)
{
    return s == RUNNER_COMPLETED ? "completed" : s == RUNNER_FAILED ? "failed" : "paused";
}

/* One durable run in any of the three modes. */
static int durable_run(durable_mode mode, run_options *o, const settings *set)
{
    char *error = NULL, *folder = NULL, *key = NULL, *runs_dir = NULL, *dir = NULL, *records = NULL;
    char *state_dir = NULL, *meta_path = NULL;
    char *runs_flag = NULL;
    run_meta meta = {0};
    int lock_fd = -1;
    bool was_paused = false;
    int exit_code = 1;
    policy_selection sel = {0};
    surface_settings surf = {0};
    runner_request req = {0};
    runner_outcome res = {0};

    req.isolated = run_start_isolated(o->isolate, set);
    req.settings = set;
    if (policy_select(POLICY_SURFACE_RUN, o->untrusted, o->trusted, set, &sel, &error) < 0) goto fail_usage;
    engine_limits_from_settings(&req.limits, set);
    calllog_caps_from_settings(&req.log_caps, set);
    if (req.isolated) isolate_options_from_settings(&req.iso, set);
    if (surface_from_settings(&surf, set, &error) < 0) goto fail_usage;
    /* The worker execs and confines itself while this process prepares the run (the run folder,
     * run.json, the host): the two set-ups overlap instead of adding up. */
    warm_worker *early = NULL;
    if (req.isolated) {
        req.iso.pin_cpu = true; /* one run at a time here: the worker and this process take turns */
        char *ignored = NULL;
        early = supervisor_prespawn_begin(&req.iso, &req.limits, &ignored);
        free(ignored); /* the run starts a cold worker, which reports the problem itself */
        req.iso.early = &early;
    }

    if (runner_split_agent(o->file, &folder, &key, &error) < 0) goto fail;
    state_dir = run_start_state_dir(set, folder);
    runs_dir = o->runs_dir ? xstrdup(o->runs_dir) : xasprintf("%s/runs", state_dir);
    if (o->runs_dir) runs_flag = xasprintf(" --runs-dir %s", o->runs_dir);

    if (mode == MODE_RUN) {
        uuid_v4(meta.run_id);
        run_start_capture(set, &meta.seed, &meta.clock_start_ms);
        meta.agent = xstrdup(key);
        meta.input = json_copy(o->input);
        meta.created_at_ms = realtime_ms();
        meta.status = xstrdup("running");
        if (surface_check_seed(&surf, &error) < 0) goto fail_usage;
        meta.surface = surface_record(&surf);
        meta.vfs = surface_vfs_record(&surf);
    } else {
        if (strlen(o->run_id) != 36 || strspn(o->run_id, "0123456789abcdef-") != 36) {
            error = xasprintf("`%s` is not a run id", o->run_id);
            goto fail_usage;
        }
        dir = run_dir_path(runs_dir, o->run_id);
        if (run_meta_read(dir, &meta, &error) < 0) goto fail;
        if (mode == MODE_RESUME) { /* lock, then read again: the state cannot change under the lock */
            if ((lock_fd = run_lock(dir, meta.run_id, &error)) < 0) goto fail;
            run_meta_clear(&meta);
            if (run_meta_read(dir, &meta, &error) < 0) goto fail;
        }
        if (strcmp(meta.agent, key) != 0) {
            error = xasprintf("run %s is a run of %s, not of %s", meta.run_id, meta.agent, key);
            goto fail;
        }
        if (mode == MODE_RESUME) {
            was_paused = !strcmp(meta.status, "paused") && meta.pending;
            bool interrupted = !strcmp(meta.status, "running"); /* and nobody holds its lock */
            if (!was_paused && !interrupted) {
                error = xasprintf("run %s is %s: only a paused run, or one interrupted while running, can be resumed",
                                  meta.run_id, meta.status);
                goto fail;
            }
            if (was_paused && !o->response) {
                error = xasprintf("run %s is paused, waiting for an input: resume it with --response TEXT", meta.run_id);
                goto fail_usage;
            }
            if (interrupted && o->response) {
                error = xasprintf("run %s is not paused: it was interrupted while running (no process holds its "
                                  "lock); resume it without --response, and it continues from its call log",
                                  meta.run_id);
                goto fail_usage;
            }
            if (interrupted) {
                fprintf(stderr, "chidori: run %s was interrupted while running; continuing it from its call log\n",
                        meta.run_id);
                if (!meta.response) json_free(meta.pending), meta.pending = NULL; /* no answer kept: a recovery */
            } else {
                meta.response = xstrdup(o->response);
            }
        }
        /* the recorded surface settings, and the seed the run started from */
        if (surface_adopt_recorded(&surf, meta.run_id, meta.surface, meta.vfs, &error) < 0) goto fail_usage;
        /* a replay runs under the caps the run ran under, so it stops where the run stopped */
        if (mode == MODE_REPLAY && meta.log_max_records && meta.log_max_bytes) {
            req.log_caps.max_records = meta.log_max_records;
            req.log_caps.max_bytes = meta.log_max_bytes;
        }
    }
    if (mode != MODE_REPLAY) {
        meta.log_max_records = req.log_caps.max_records;
        meta.log_max_bytes = req.log_caps.max_bytes;
    }
    if (!dir) dir = run_dir_path(runs_dir, meta.run_id);
    records = xasprintf("%s/records.jsonl", dir);
    meta_path = xasprintf("%s/run.json", dir);
    if (mode == MODE_RUN && (run_dir_create(dir, &error) < 0 || (lock_fd = run_lock(dir, meta.run_id, &error)) < 0 ||
                             run_meta_write(dir, &meta, false, &error) < 0))
        goto fail;
    if (mode == MODE_RESUME) {
        /* running, with the pending call and its answer kept, before anything is appended (the log
         * flushes run.json to disk before its first record) */
        free(meta.status);
        meta.status = xstrdup("running");
        if (run_meta_write(dir, &meta, false, &error) < 0) goto fail;
    }

    banner_ctx banner = {req.isolated, &sel, &meta};
    req.project_root = folder;
    req.entry = key;
    req.state_dir = state_dir;
    req.input = meta.input;
    req.seed = meta.seed;
    req.clock_start_ms = meta.clock_start_ms;
    req.mode = mode == MODE_RUN ? LOG_LIVE : mode == MODE_REPLAY ? LOG_REPLAY_ONLY : LOG_REPLAY_THEN_LIVE;
    /* a run killed before its log was opened has no records.jsonl */
    req.records_file = mode == MODE_RUN || (mode == MODE_RESUME && access(records, F_OK) != 0 && errno == ENOENT)
                           ? NULL : records;
    req.persist_file = mode == MODE_REPLAY ? NULL : records;
    req.persist_companion = meta_path;
    req.pending = mode == MODE_RESUME ? meta.pending : NULL;
    req.adopt_open_calls = mode == MODE_RESUME && !meta.pending; /* a recovery: no pending call */
    req.recorded_pause = mode == MODE_REPLAY && meta.status && !strcmp(meta.status, "paused") ? meta.pending : NULL;
    req.response = mode == MODE_RESUME ? meta.response : NULL;
    req.answers = o->answers;
    req.n_answers = o->n_answers;
    req.interactive = mode != MODE_REPLAY && isatty(STDIN_FILENO) && isatty(STDERR_FILENO);
    req.policy = sel.policy;
    req.surface = &surf;
    req.banner = true;
    req.ready = print_banner;
    req.ready_ctx = &banner;
    if (runner_run(&req, &res, &error) < 0) {
        if (was_paused) { /* nothing was appended: the run is paused as it was */
            free(meta.status);
            meta.status = xstrdup("paused");
            free(meta.response), meta.response = NULL;
            char *ignored = NULL;
            if (run_meta_write(dir, &meta, true, &ignored) < 0) free(ignored);
        }
        goto fail;
    }

    if (mode == MODE_REPLAY) {
        /* The replay must end as the recording did, to the byte. */
        char *want = meta.output ? json_dump(meta.output, JSON_COMPACT, NULL) : NULL;
        const char *status = status_name(res.status);
        bool same = !strcmp(status, meta.status) &&
                    (res.status != RUNNER_COMPLETED || (want && !strcmp(want, res.output_json))) &&
                    (res.status != RUNNER_FAILED || (meta.error && !strcmp(meta.error, res.error)));
        if (!same) {
            fprintf(stderr, "chidori: replay of run %s differs from the recording (which %s): the replay %s%s",
                    meta.run_id, meta.status, status, res.status == RUNNER_FAILED ? ": " : "");
            if (res.status == RUNNER_FAILED) write_for_terminal(stderr, res.error, strlen(res.error));
            fputc('\n', stderr);
            exit_code = 1;
        } else if (res.status == RUNNER_COMPLETED) {
            exit_code = print_output(res.output_json);
        } else if (res.status == RUNNER_FAILED) {
            print_failure(res.error);
            exit_code = 1;
        } else {
            print_paused(&meta, o->file, meta.pending, runs_flag);
            exit_code = 3;
        }
        free(want);
    } else {
        free(meta.status);
        json_free(meta.output), meta.output = NULL;
        free(meta.error), meta.error = NULL;
        json_free(meta.pending), meta.pending = NULL;
        free(meta.response), meta.response = NULL;
        if (res.status == RUNNER_COMPLETED) {
            json_error jerr;
            meta.output = json_parse(res.output_json, strlen(res.output_json), NULL, &jerr);
            meta.status = xstrdup(meta.output ? "completed" : "failed");
            if (!meta.output) meta.error = xasprintf("the agent's output cannot be stored: %s", jerr.message);
        } else if (res.status == RUNNER_FAILED) {
            meta.status = xstrdup("failed");
            meta.error = xstrdup(res.error);
        } else {
            meta.status = xstrdup("paused");
            meta.pending = res.pending, res.pending = NULL;
        }
        /* The flushed call log is the durable truth of a run (an outcome can be recomputed from
         * it by replay), so only a paused run, whose pending call exists nowhere else, pays for a
         * flush of run.json here. */
        if (run_meta_write(dir, &meta, !strcmp(meta.status, "paused"), &error) < 0) {
            fprintf(stderr, "chidori: %s\n", error);
            free(error), error = NULL;
        }
        if (!strcmp(meta.status, "completed")) {
            exit_code = print_output(res.output_json);
        } else if (!strcmp(meta.status, "paused")) {
            print_paused(&meta, o->file, meta.pending, runs_flag);
            exit_code = 3;
        } else {
            print_failure(meta.error);
            exit_code = 1;
        }
    }
    goto done;

fail_usage:
    exit_code = 2;
    fprintf(stderr, "chidori: %s\n", error);
    goto done;
fail:
    exit_code = 1;
    fprintf(stderr, "chidori: %s\n", error);
done:
    if (req.iso.early) warm_worker_discard(*req.iso.early); /* the run never started */
    free(error);
    runner_outcome_clear(&res);
    policy_selection_clear(&sel);
    surface_settings_clear(&surf);
    run_meta_clear(&meta);
    free(folder);
    free(key);
    free(runs_dir);
    free(state_dir);
    free(dir);
    free(records);
    free(meta_path);
    free(runs_flag);
    if (lock_fd >= 0) close(lock_fd); /* the run folder's lock */
    return exit_code;
}

static int command(durable_mode mode, int argc, char **argv, const settings *set)
{
    run_options o = {0};
    int rc = parse_options(argc, argv, mode == MODE_RUN ? 1 : 2, mode == MODE_RUN, &o);
    if (rc == 0 && mode != MODE_RESUME && o.response) rc = cli_usage_error("%s", "--response goes with resume");
    if (rc == 0) rc = durable_run(mode, &o, set);
    json_free(o.input);
    return rc;
}

int cmd_run(int argc, char **argv, const settings *s) { return command(MODE_RUN, argc, argv, s); }
int cmd_replay(int argc, char **argv, const settings *s) { return command(MODE_REPLAY, argc, argv, s); }
int cmd_resume(int argc, char **argv, const settings *s) { return command(MODE_RESUME, argc, argv, s); }

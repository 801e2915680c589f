/* branch_cmd.c — `chidori branches RUN_ID`, `chidori branch-resume RUN_ID BRANCH_ID -v ANSWER` and
 * `chidori branch-rerun RUN_ID BRANCH_ID`: the branch store a run's chidori.branch calls left in
 * its folder (host/effects/branch_store.h, docs/cli.md).
 *
 * branches lists every branch of the run. branch-resume answers a branch that paused on an input:
 * it runs the variant again from its records plus the answer as the input's record (replayed, then
 * live), in the branch's own seq range under the branch call's seq, as the branch ran. branch-rerun
 * runs the variant again from the anchor (the VFS the branch started from, its input) with an
 * empty log. Both run the variant's source as it is now in the agent's folder (recorded in
 * anchor.json), confined, under the policy and isolation of `run`, and update only the branch
 * store (checkpoint.json and branch.json): the parent's recorded outcome never changes.
 *
 * Trusts nothing in the store (files anyone could edit): JSON is parsed with limits, ids and paths
 * are checked, the records go through the one record parser, and the new records must lie in the
 * branch's range. Holds the run folder's lock while it runs.
 */
#define _GNU_SOURCE
#include "isolate/isolate.h"
#include "cli/branch_doc.h"
#include "cli/cli.h"
#include "cli/runstore.h"
#include "host/effects/branch_store.h"
#include "runner/runner.h"
#include "runner/start.h"
#include "settings/settings.h"
#include "util/buf.h"
#include "util/files.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_BRANCH_CALLS 4096

typedef struct branch_options {
    const char *run_id, *branch_id, *answer, *runs_dir;
    int isolate;
    bool untrusted, trusted, json;
} branch_options;

static json_t *read_json(const char *path, char **error)
{
    size_t n;
    char *text = read_regular_file_capped(path, BRANCH_DOC_MAX_BYTES, &n, error);
    if (!text) return NULL;
    json_t *v = branch_doc_parse(text, n, path, error);
    free(text);
    return v;
}

static bool id_ok(const char *id)
{
    return *id && strlen(id) <= 36 && strspn(id, "0123456789abcdef-") == strlen(id);
}

/* The run's folder: --runs-dir, or the one `chidori run` here would use (as `runs` finds it). */
static char *run_folder(const branch_options *o, const settings *set, char **error)
{
    if (!id_ok(o->run_id)) {
        *error = xasprintf("`%s` is not a run id (`chidori runs list` shows them)", o->run_id);
        return NULL;
    }
    char *state = NULL, *runs = o->runs_dir ? xstrdup(o->runs_dir) : NULL;
    if (!runs) {
        state = run_start_state_dir(set, ".");
        runs = xasprintf("%s/runs", state);
    }
    char *dir = run_dir_path(runs, o->run_id);
    if (access(dir, F_OK) != 0) {
        *error = xasprintf("no run %s in %s (`chidori runs list` shows them; --runs-dir names another folder)",
                           o->run_id, runs);
        free(dir);
        dir = NULL;
    }
    free(state);
    free(runs);
    return dir;
}

/* The op-<S> folders of the run, in seq order (names only; NULL-terminated). */
static char **call_folders(const char *run_dir, size_t *n)
{
    char *root = xasprintf("%s/branches", run_dir);
    DIR *d = opendir(root);
    free(root);
    char **names = xcalloc(MAX_BRANCH_CALLS + 1, sizeof *names);
    *n = 0;
    if (!d) return names;
    struct dirent *e;
    while ((e = readdir(d)) && *n < MAX_BRANCH_CALLS)
        if (!strncmp(e->d_name, "op-", 3) && strlen(e->d_name) == 23 && strspn(e->d_name + 3, "0123456789") == 20)
            names[(*n)++] = xstrdup(e->d_name);
    closedir(d);
    for (size_t i = 1; i < *n; i++) /* 20 digits: the names sort as the seqs do */
        for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            char *t = names[j];
            names[j] = names[j - 1];
            names[j - 1] = t;
        }
    return names;
}

static void free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
}

/* ---------- branches ---------- */

/* Every branch.json of the run, as rows; or the one of branch_id with its folder (*found_dir). */
static json_t *scan(const char *run_dir, const char *branch_id, char **found_dir, json_t **found, char **error)
{
    size_t n;
    char **calls = call_folders(run_dir, &n);
    json_t *rows = json_array();
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < 16; k++) {
            char *dir = xasprintf("%s/branches/%s/branch-%03d", run_dir, calls[i], k);
            char *path = xasprintf("%s/branch.json", dir);
            if (access(path, F_OK) != 0) {
                free(dir);
                free(path);
                continue;
            }
            char *why = NULL;
            json_t *b = read_json(path, &why);
            if (!b) {
                fprintf(stderr, "chidori: %s: skipped\n", why);
                free(why);
            } else if (branch_id) {
                const char *id = json_string_value(json_object_get(b, "branch_id"));
                if (id && !strcmp(id, branch_id) && !*found) {
                    *found = b;
                    *found_dir = xstrdup(dir);
                    b = NULL;
                }
            } else {
                json_array_push(rows, branch_doc_row(b));
            }
            json_free(b);
            free(path);
            free(dir);
        }
    }
    free_names(calls, n);
    if (branch_id && !*found) {
        *error = xasprintf("no branch %s in run %s (`chidori branches %s` lists them)", branch_id,
                           strrchr(run_dir, '/') ? strrchr(run_dir, '/') + 1 : run_dir,
                           strrchr(run_dir, '/') ? strrchr(run_dir, '/') + 1 : run_dir);
    }
    return rows;
}

/* ---------- branch-resume, branch-rerun ---------- */

typedef struct collected {
    json_t *records;
} collected;

static int collect(void *ctx, const json_t *record, char **error)
{
    (void)error;
    json_array_push(((collected *)ctx)->records, json_copy(record));
    return 0;
}

static char *outcome_prompt(const runner_outcome *res)
{
    if (res->pending_approval) {
        const char *t = json_string_value(json_object_get(res->pending_approval, "target"));
        return xasprintf("approval required: %s", t ? t : "?");
    }
    const char *fn = json_string_value(json_object_get(res->pending, "function"));
    if (fn && !strcmp(fn, "input"))
        return xstrdup(json_string_value(json_object_get(json_object_get(res->pending, "args"), "prompt")) ?: "");
    return xasprintf("waiting on `%s`", fn ? fn : "?");
}

static int run_branch(const branch_options *o, const settings *set, bool resume)
{
    char *error = NULL, *bdir = NULL, *run_dir = NULL;
    json_t *b = NULL, *anchor = NULL, *records = NULL, *input = NULL;
    int code = 1, lock = -1;
    run_setup setup = {0};
    bool setup_made = false;
    if (!(run_dir = run_folder(o, set, &error))) goto out;
    if ((lock = run_lock(run_dir, o->run_id, &error)) < 0) goto out;
    json_free(scan(run_dir, o->branch_id, &bdir, &b, &error));
    if (!b) goto out;
    char *call_dir = xstrdup(bdir);
    *strrchr(call_dir, '/') = '\0';
    char *apath = xasprintf("%s/anchor.json", call_dir);
    anchor = read_json(apath, &error);
    free(apath);
    free(call_dir);
    if (!anchor) goto out;
    branch_plan plan;
    if (branch_plan_read(b, anchor, resume, o->branch_id, bdir, &plan, &error) < 0) goto out;
    uint64_t lo = plan.lo, hi = plan.hi;
    collected got = {json_array()};
    if (resume) {
        char *cpath = xasprintf("%s/checkpoint.json", bdir);
        records = read_json(cpath, &error);
        free(cpath);
        if (!records || branch_plan_answer(&plan, records, o->answer, bdir, &error) < 0) {
            json_free(got.records);
            goto out;
        }
    }
    if (run_setup_from_settings(&setup, set, POLICY_SURFACE_RUN, o->untrusted, o->trusted, o->isolate, &error) < 0) {
        json_free(got.records);
        code = 2;
        goto out;
    }
    setup_made = true;
    json_free(setup.surface.vfs_seed); /* the branch starts from its anchor's VFS */
    setup.surface.vfs_seed = plan.vfs ? json_copy(plan.vfs) : NULL;
    input = json_copy(plan.input);
    runner_request req = {
        .project_root = plan.root,
        .entry = plan.source,
        .input = input,
        .seed = plan.seed,
        .clock_start_ms = plan.clock_start_ms,
        .limits = setup.limits,
        .settings = set,
        .surface = &setup.surface,
        .mode = resume ? LOG_REPLAY_THEN_LIVE : LOG_LIVE,
        .records = resume ? records : NULL,
        .log_caps = setup.log_caps,
        .sink = collect,
        .sink_ctx = &got,
        .policy = setup.policy.policy,
        .isolated = setup.isolated,
        .iso = setup.iso,
        .run_id = o->run_id,
        .anchor_seq = plan.seq,
        .seq_after = lo - 1,
        .queue_seqs = plan.queued,
        .n_queue_seqs = plan.n_queued,
    };
    runner_outcome res;
    if (!req.isolated) isolate_inproc_backstop_arm(&req.limits, false, ISOLATE_INPROC_HOST_SLACK_MS); /* the CPU backstop in this process */
    if (runner_run(&req, &res, &error) < 0) {
        json_free(got.records);
        goto out;
    }
    /* the new records must lie in the branch's range */
    for (size_t i = 0; i < got.records->u.array.len; i++) {
        uint64_t s = 0;
        if (!branch_doc_seq(json_object_get(got.records->u.array.items[i], "seq"), &s) || s < lo || s >= hi) {
            error = xasprintf("the branch recorded seq %llu, outside its range %llu..%llu: the store is not updated",
                              (unsigned long long)s, (unsigned long long)lo, (unsigned long long)hi);
            runner_outcome_clear(&res);
            json_free(got.records);
            goto out;
        }
    }
    json_t *all = resume ? json_copy(records) : json_array();
    for (size_t i = 0; i < got.records->u.array.len; i++) json_array_push(all, json_copy(got.records->u.array.items[i]));
    json_free(got.records);
    json_t *oc = json_object();
    if (res.status == RUNNER_COMPLETED) {
        json_error jerr;
        json_t *out = json_parse(res.output_json, strlen(res.output_json), NULL, &jerr);
        json_object_set(oc, "output", out ? out : json_null());
        json_object_set(oc, "status", json_string("completed"));
    } else if (res.status == RUNNER_FAILED) {
        json_object_set(oc, "error", json_string(res.error ? res.error : "the branch failed"));
        json_object_set(oc, "status", json_string("failed"));
    } else {
        char *p = outcome_prompt(&res);
        json_object_set(oc, "pendingPrompt", json_string(p));
        json_object_set(oc, "status", json_string("paused"));
        free(p);
    }
    branch_store_set_status(b, oc, res.status == RUNNER_COMPLETED || res.status == RUNNER_FAILED ? NULL : res.pending);
    char *cpath = xasprintf("%s/checkpoint.json", bdir), *bpath = xasprintf("%s/branch.json", bdir);
    if (branch_store_write_json(cpath, all, &error) == 0 && branch_store_write_json(bpath, b, &error) == 0) {
        json_object_set(oc, "branchId", json_string(o->branch_id));
        json_object_set(oc, "label", json_copy(json_object_get(b, "label")));
        cli_print_json(oc, true);
        code = res.status == RUNNER_COMPLETED ? 0 : res.status == RUNNER_FAILED ? 1 : 3;
    }
    free(cpath);
    free(bpath);
    json_free(all);
    json_free(oc);
    runner_outcome_clear(&res);
out:
    if (error) {
        fprintf(stderr, "chidori: %s\n", error);
        free(error);
    }
    if (setup_made) run_setup_clear(&setup);
    if (lock >= 0) close(lock);
    json_free(b);
    json_free(anchor);
    json_free(records);
    json_free(input);
    free(bdir);
    free(run_dir);
    return code;
}

/* ---------- the commands ---------- */

static int parse(int argc, char **argv, int positionals, bool wants_answer, branch_options *o)
{
    o->isolate = -1;
    int seen = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--runs-dir") || !strcmp(a, "-v") || !strcmp(a, "--value")) {
            if (++i >= argc) return cli_usage_error("%s needs a value", a);
            if (!strcmp(a, "--runs-dir")) o->runs_dir = argv[i];
            else if (wants_answer) o->answer = argv[i];
            else return cli_usage_error("%s is not accepted here", a);
        } else if (!strcmp(a, "--json")) {
            o->json = true;
        } else if (cli_posture_flag(a, &o->untrusted, &o->trusted, &o->isolate)) {
            continue;
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("unknown option %s", a);
        } else if (seen < positionals) {
            if (seen++ == 0) o->run_id = a;
            else o->branch_id = a;
        } else {
            return cli_usage_error("unexpected argument %s", a);
        }
    }
    if (seen < positionals)
        return cli_usage_error("%s", positionals == 1 ? "branches needs a run id" : "give a run id and a branch id "
                                                                                    "(`chidori branches RUN_ID` lists them)");
    if (wants_answer && !o->answer) return cli_usage_error("%s", "branch-resume needs the answer: -v TEXT");
    return 0;
}

int cmd_branches(int argc, char **argv, const settings *s)
{
    branch_options o = {0};
    int rc = parse(argc, argv, 1, false, &o);
    if (rc) return rc;
    char *error = NULL, *dir = run_folder(&o, s, &error);
    if (!dir) {
        fprintf(stderr, "chidori: %s\n", error);
        free(error);
        return 1;
    }
    json_t *rows = scan(dir, NULL, NULL, NULL, &error);
    cli_print_json(rows, !o.json);
    json_free(rows);
    free(dir);
    return 0;
}

int cmd_branch_resume(int argc, char **argv, const settings *s)
{
    branch_options o = {0};
    int rc = parse(argc, argv, 2, true, &o);
    return rc ? rc : run_branch(&o, s, true);
}

int cmd_branch_rerun(int argc, char **argv, const settings *s)
{
    branch_options o = {0};
    int rc = parse(argc, argv, 2, false, &o);
    return rc ? rc : run_branch(&o, s, false);
}

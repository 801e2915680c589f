/* effects/branch.c — chidori.branch(variants, options): fork into sub-runs ("branches") of other
 * modules of the agent's folder, each from a copy of this run's VFS and its own input, in waves of
 * `concurrency`; the whole fan-out is one recorded call (docs/effects.md#branch).
 *
 * `branch` {variants: [{label?, source, input?}], options: {concurrency?}}. Before a seq is taken
 * (op validate: refused, nothing recorded) the call is checked as the original checks it: not
 * inside a branch, an array of 1 to 16 variants, each with a `source` that can be read beneath the
 * project root (stricter than the original, which reads it relative to the working directory).
 * The args are recorded in their normalized form {options: {concurrency}, variants: [{input,
 * label, source}]}. Branch k of the call at seq S over N variants owns the seqs
 * [base + k*W + 1, base + (k+1)*W + 1) with W = 10000 and base = (S / (W*N) + 1) * W*N (the
 * original's layout, so its logs replay here). Each branch is a member (host/member.h): its own
 * host, its top-level records under parent_seq S, its own worker when the run is isolated. Once
 * every wave has ended, in variant order, its records are checked against its range and merged
 * into this run's log (the seq counter then lies past them), the branch store is written (when the
 * run has a folder: effects/branch_store.c), and its outcome is made: completed with its output,
 * paused with its pending prompt (an input() or an approval in a branch pauses only the branch),
 * failed with its error. The branch record itself is appended after the merged records, so on
 * replay it answers the call and its branches' records are absorbed: nothing runs again.
 *
 * Each branch draws on the run's tree budget (runner/tree_budget.h): a wave shares what is left of
 * it; the record says what they spent (`tree_ticks`, charged again on replay); a branch that
 * crossed a limit of the tree (or was refused by its caps) ends the whole tree, and this call is
 * recorded as failed with `ends_run`, so a replay ends the run here too.
 *
 * Trusts nothing in args (guest code): every field is checked and capped; a source path goes
 * through open_beneath like a module load.
 */
#define _GNU_SOURCE
#include "host/host_internal.h"
#include "host/member.h"
#include "host/ops.h"
#include "host/effects/branch_store.h"
#include "util/buf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BRANCH_W 10000u
#define BRANCH_MAX_VARIANTS 16
#define BRANCH_LABEL_MAX 256

/* The label of variant i as given, or branch-<i> (into out). */
static const char *label_of(const json_t *variant, size_t i, char out[32])
{
    const char *l = json_string_value(json_object_get(variant, "label"));
    if (l) return l;
    snprintf(out, 32, "branch-%zu", i);
    return out;
}

static bool source_readable(host *h, const char *src, char **why)
{
    if (!path_is_confined(src, strlen(src))) {
        *why = xstrdup("the path must be relative and stay inside the agent's folder (sources resolve against the "
                       "project root, the entry file's folder)");
        return false;
    }
    int fd = open_beneath(h->root_fd, h->project_root, src, O_RDONLY | O_CLOEXEC, 0);
    if (fd < 0) {
        *why = xstrdup(errno == EXDEV ? "it leads outside the agent's folder" : strerror(errno));
        return false;
    }
    char c;
    ssize_t n = read(fd, &c, 1); /* a folder opens but does not read */
    int e = errno;
    close(fd);
    if (n < 0) {
        *why = xstrdup(strerror(e));
        return false;
    }
    return true;
}

static char *branch_validate(host *h, const json_t *args)
{
    if (host_is_member(h))
        return xstrdup("nested chidori.branch is not supported: a branch cannot fork again (fork from the run "
                       "itself, and hand what a branch needs to it as its input)");
    const json_t *variants = json_object_get(args, "variants");
    if (!json_is_array(variants)) return xstrdup("chidori.branch requires an array of variants");
    size_t n = variants->u.array.len;
    if (n == 0) return xstrdup("chidori.branch requires at least one variant");
    if (n > BRANCH_MAX_VARIANTS)
        return xasprintf("chidori.branch supports at most %d variants, got %zu", BRANCH_MAX_VARIANTS, n);
    for (size_t i = 0; i < n; i++) {
        const json_t *v = variants->u.array.items[i];
        char def[32];
        if (!json_is_object(v)) return xasprintf("chidori.branch variant %zu must be an object {label?, source, input?}", i);
        const json_t *label = json_object_get(v, "label");
        if (label && label->type != JSON_NULL &&
            (!json_is_string(label) || label->u.string.len > BRANCH_LABEL_MAX ||
             strlen(label->u.string.bytes) != label->u.string.len))
            return xasprintf("chidori.branch variant %zu: `label` must be a string of at most %d bytes", i,
                             BRANCH_LABEL_MAX);
        const char *l = label_of(v, i, def);
        const json_t *src = json_object_get(v, "source");
        if (!json_is_string(src) || !src->u.string.len || strlen(src->u.string.bytes) != src->u.string.len)
            return xasprintf("chidori.branch variant `%s` requires a `source` module path (a file of the agent's "
                             "folder, relative to it, e.g. strategies/a.ts)", l);
        char *why = NULL;
        if (!source_readable(h, src->u.string.bytes, &why)) {
            char *e = xasprintf("chidori.branch variant `%s`: reading source %s: %s", l, src->u.string.bytes, why);
            free(why);
            return e;
        }
    }
    const json_t *opts = json_object_get(args, "options");
    if (opts && opts->type != JSON_NULL && !json_is_object(opts))
        return xstrdup("chidori.branch: `options` must be an object {concurrency?}");
    const json_t *c = json_object_get(opts, "concurrency");
    if (c && c->type != JSON_NULL &&
        (c->type != JSON_NUMBER || !(c->u.number >= 0 && c->u.number <= 1e9) || c->u.number != (double)(int64_t)c->u.number))
        return xstrdup("chidori.branch: `options.concurrency` must be a whole number (1 to the number of variants)");
    return NULL;
}

/* The args in their one form (validate has passed): keys in the original's order. */
static json_t *branch_prepare(const json_t *args, char **error)
{
    (void)error;
    const json_t *variants = json_object_get(args, "variants");
    size_t n = json_is_array(variants) ? variants->u.array.len : 0;
    json_t *out = json_object(), *opts = json_object(), *list = json_array();
    const json_t *c = json_object_get(json_object_get(args, "options"), "concurrency");
    double conc = c && c->type == JSON_NUMBER ? c->u.number : 1;
    if (conc < 1) conc = 1;
    if (n && conc > (double)n) conc = (double)n;
    json_object_set(opts, "concurrency", json_number(conc));
    for (size_t i = 0; i < n; i++) {
        const json_t *v = variants->u.array.items[i];
        char def[32];
        const json_t *input = json_object_get(v, "input");
        json_t *nv = json_object();
        json_object_set(nv, "input", input && input->type != JSON_NULL ? json_copy(input) : json_object());
        json_object_set(nv, "label", json_string(label_of(v, i, def)));
        const json_t *src = json_object_get(v, "source");
        json_object_set(nv, "source", json_is_string(src) ? json_copy(src) : json_null());
        json_array_push(list, nv);
    }
    json_object_set(out, "options", opts);
    json_object_set(out, "variants", list);
    return out;
}

/* One branch while the call performs. */
typedef struct branch_run {
    host_member *member;
    char *start_error; /* it could not start */
    uint64_t lo, hi;   /* its seqs: [lo, hi) */
    char *id;          /* branchId */
} branch_run;

static bool cancelled(const host *h) { return h->cancel && atomic_load(h->cancel); }

static json_t *outcome_json(const char *label, const char *id, const host_member_outcome *o, const char *start_error,
                            char **why)
{
    json_t *r = json_object();
    json_object_set(r, "branchId", json_string(id));
    if (!o || start_error || o->status == MEMBER_FAILED || o->status == MEMBER_STOPPED) {
        json_object_set(r, "error", json_string(start_error ? start_error : o && o->error ? o->error : "the branch failed"));
        json_object_set(r, "label", json_string(label));
        json_object_set(r, "status", json_string("failed"));
        return r;
    }
    json_object_set(r, "label", json_string(label));
    if (o->status == MEMBER_COMPLETED) {
        json_error jerr;
        json_t *out = json_parse(o->output_json, strlen(o->output_json), NULL, &jerr);
        if (!out) {
            *why = xasprintf("a branch's output is not JSON (%s)", jerr.message);
            json_free(r);
            return NULL;
        }
        json_object_set(r, "output", out);
        json_object_set(r, "status", json_string("completed"));
    } else {
        json_object_set(r, "pendingPrompt", json_string(o->pending_prompt ? o->pending_prompt : ""));
        json_object_set(r, "status", json_string("paused"));
    }
    return r;
}

static int effect_branch(host *h, const json_t *args, json_t **result, char **error)
{
    const host_members *ops = host_members_of(h);
    if (!ops) {
        *error = xstrdup("chidori.branch is not available here");
        return HOST_ERROR;
    }
    const json_t *variants = json_object_get(args, "variants");
    size_t n = json_is_array(variants) ? variants->u.array.len : 0;
    if (n == 0 || n > BRANCH_MAX_VARIANTS) { /* validate refused these; never divide by zero */
        *error = xstrdup("chidori.branch requires 1 to 16 variants");
        return HOST_ERROR;
    }
    size_t conc = (size_t)json_number_value(json_object_get(json_object_get(args, "options"), "concurrency"));
    if (conc < 1) conc = 1;
    uint64_t S = h->call_seq, span = (uint64_t)BRANCH_W * n;
    uint64_t base = (S / span + 1) * span;
    json_t *vfs = host_vfs_snapshot(h);
    json_t *approvals = host_approvals_copy(h);
    const char *run_id = h->run_id ? h->run_id : "run";
    branch_store *store = h->run_dir ? branch_store_open(h->run_dir, h->run_id, h->project_root, S, vfs, args, h->root_fd,
                                                         h->log_out)
                                     : NULL;
    branch_run *runs = xcalloc(n, sizeof *runs);
    for (size_t k = 0; k < n; k++) {
        runs[k].lo = base + k * BRANCH_W + 1;
        runs[k].hi = runs[k].lo + BRANCH_W;
        runs[k].id = xasprintf("%s-op%llu-branch-%zu", run_id, (unsigned long long)S, k);
    }
    int rc = HOST_OK;
    for (size_t first = 0; first < n && rc == HOST_OK; first += conc) {
        size_t last = first + conc < n ? first + conc : n;
        for (size_t k = first; k < last; k++) {
            const json_t *v = variants->u.array.items[k];
            char *input = json_dump(json_object_get(v, "input"), JSON_COMPACT, NULL);
            host_member_spec spec = {
                .entry = json_string_value(json_object_get(v, "source")),
                .input_json = input,
                .anchor_seq = S,
                .seq_base = runs[k].lo - 1,
                .seq_end = runs[k].hi,
                .vfs_seed = vfs,
                .approvals = approvals,
                .salt = S * 64 + k,
                .share = (unsigned)(last - first), /* the wave shares what is left of the tree's budget */
            };
            char *why = NULL;
            runs[k].member = ops->start(ops->ctx, h, &spec, &why);
            if (!runs[k].member) runs[k].start_error = why ? why : xstrdup("the branch could not start");
            free(input);
        }
        for (size_t k = first; k < last; k++)
            if (runs[k].member) ops->wait(runs[k].member, -1);
        if (cancelled(h)) {
            *error = xstrdup("the run was cancelled");
            rc = HOST_ABORT;
        } else if (ops->tree_ended && ops->tree_ended(ops->ctx)) {
            /* a branch crossed a limit of the run's tree budget, or was refused by its caps: every
             * member was stopped; the call is recorded as failed with ends_run, so a replay ends
             * the run here again (host.c) */
            *error = xasprintf("chidori.branch: %s", ops->tree_ended(ops->ctx));
            h->end_after_record = true;
            rc = HOST_ERROR;
        }
    }
    uint64_t ticks = 0; /* what the branches spent, charged to this run again when the record replays */
    /* settle, in variant order: merge, store, outcome */
    json_t *outcomes = json_array();
    for (size_t k = 0; k < n && rc == HOST_OK; k++) {
        const json_t *v = variants->u.array.items[k];
        const char *label = json_string_value(json_object_get(v, "label"));
        const host_member_outcome *o = runs[k].member ? ops->outcome(runs[k].member) : NULL;
        if (o && o->records && host_member_merge(h, o->records, runs[k].lo, runs[k].hi, error) != 0) {
            char *e = xasprintf("chidori.branch: branch `%s`: %s", label, *error);
            free(*error);
            *error = e;
            rc = HOST_ERROR;
            break;
        }
        if (o) h->live_calls += o->live_calls;
        if (o) ticks += o->ticks;
        char *why = NULL;
        json_t *one = outcome_json(label, runs[k].id, o, runs[k].start_error, &why);
        if (!one) {
            *error = why;
            rc = HOST_ERROR;
            break;
        }
        if (store) branch_store_settle(store, k, runs[k].id, v, runs[k].lo, runs[k].hi, o, one);
        json_array_push(outcomes, one);
    }
    for (size_t k = 0; k < n; k++) {
        if (runs[k].member) ops->free(runs[k].member);
        free(runs[k].start_error);
        free(runs[k].id);
    }
    free(runs);
    branch_store_close(store);
    json_free(vfs);
    json_free(approvals);
    if (rc != HOST_OK) {
        json_free(outcomes);
        return rc;
    }
    json_free(h->record_extra);
    h->record_extra = json_object();
    json_object_set(h->record_extra, "tree_ticks", json_number((double)ticks));
    *result = outcomes;
    return HOST_OK;
}

static const op_def branch_ops[] = {
    {.name = "branch",
     .flags = OP_RECORDED | OP_NESTS,
     .perform = effect_branch,
     .prepare = branch_prepare,
     .validate = branch_validate},
    {0},
};

const effect_module branch_module = {.name = "branch", .ops = branch_ops};

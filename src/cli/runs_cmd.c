/* runs_cmd.c — `chidori runs list|show`: the runs of a state directory, read back for people
 * (tables) and machines (--json), and `show --follow` over a run that is still going.
 *
 * Where: --runs-dir DIR, else the runs folder a `chidori run` in the current folder would use
 * (CHIDORI_STATE_DIR/runs, else ./.chidori/runs; runner/start.h).
 * Trusts nothing it reads: run.json goes through run_meta_read (capped, checked), records.jsonl
 * through runlog (capped per line and per file, garbage skipped with a warning), and every string
 * from either is printed through util/termtext.h (terminal) or escaped JSON (--json).
 * Writes nothing and takes no lock: a run's liveness is read from the pid in its run.lock.
 *
 * Cost: with CHIDORI_PRICES or CHIDORI_PRICING (telemetry/prices.h) each prompt's tokens are priced
 * by the model that answered it; a prompt whose model has no price is
 * counted apart (the cost then reads `$X+`).
 *
 * Exit codes: 0 listed/shown (show --follow: 0 completed or paused, 1 failed or interrupted),
 * 1 a run that cannot be found or read, 2 a wrong command line.
 */
#define _GNU_SOURCE
#include "cli/cli.h"
#include "telemetry/prices.h"
#include "cli/runlog.h"
#include "cli/runstore.h"
#include "host/calllog.h"
#include "runner/start.h"
#include "settings/settings.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/files.h"
#include "util/json.h"
#include "util/termtext.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define RUNS_LIST_MAX 100000          /* run folders looked at by `runs list` */
#define FOLLOW_POLL_MS 200
#define FOLLOW_DEFAULT_TIMEOUT_S 3600 /* show --follow gives up after this (--timeout) */
#define FOLLOW_MAX_TIMEOUT_S 604800


typedef struct runs_options {
    const price_table *prices;
    const char *runs_dir;
    const char *id;
    bool json, follow;
    uint64_t timeout_s;
} runs_options;

/* One run as the list and the header of show see it. */
typedef struct run_view {
    run_meta meta;
    bool meta_ok;
    char *meta_error;
    char *status; /* run.json's status, or `interrupted` for a `running` run nobody drives */
    runlog log;
    int64_t duration_ms; /* -1 unknown */
    size_t effects;      /* call records (log.rows may have been dropped: runs list keeps totals only) */
    double cost;         /* of the priced prompts (CHIDORI_PRICES) */
    size_t unpriced;     /* prompts with tokens whose model has no price */
    size_t priced;       /* prompts with tokens whose model has one */
} run_view;

/* ---------- cost ---------- */

static void view_cost(run_view *v, const price_table *t)
{
    for (size_t i = 0; t && t->given && i < v->log.len; i++) {
        const runlog_row *r = &v->log.rows[i];
        if (!r->has_tokens) continue;
        const price *p = price_of(t, r->model);
        if (!p) v->unpriced++;
        else v->priced++, v->cost += price_cost(p, r->tokens_in, r->tokens_out, r->cache_creation, r->cache_read);
    }
}

/* "$0.0123", "$0.0123+" (some prompts unpriced), "?" (none priced), or "" without a price table. */
static void format_cost(char *out, size_t n, const run_view *v, const price_table *t)
{
    if (!t || !t->given) snprintf(out, n, "%s", "");
    else if (v->unpriced && !v->priced) snprintf(out, n, "?");
    else snprintf(out, n, "$%.4f%s", v->cost, v->unpriced ? "+" : "");
}

/* ---------- small pieces ---------- */

static void put_text(FILE *f, const char *s)
{
    if (s) write_for_terminal(f, s, strlen(s));
}

static void format_time(char *out, size_t n, int64_t ms)
{
    if (ms <= 0) {
        snprintf(out, n, "-");
        return;
    }
    time_t t = (time_t)(ms / 1000);
    struct tm tm;
    localtime_r(&t, &tm);
    strftime(out, n, "%Y-%m-%d %H:%M:%S", &tm);
}

static void format_duration(char *out, size_t n, double ms)
{
    if (ms < 0) snprintf(out, n, "-");
    else if (ms < 1) snprintf(out, n, "%.2fms", ms);
    else if (ms < 1000) snprintf(out, n, "%.0fms", ms);
    else if (ms < 60000) snprintf(out, n, "%.1fs", ms / 1000);
    else if (ms < 3600000) snprintf(out, n, "%dm%02ds", (int)(ms / 60000), (int)(ms / 1000) % 60);
    else snprintf(out, n, "%dh%02dm", (int)(ms / 3600000), (int)(ms / 60000) % 60);
}

/* Is the process whose pid run.lock holds alive? (run and resume write it when they lock.) */
static bool lock_holder_alive(const char *dir)
{
    char *path = xasprintf("%s/run.lock", dir), *error = NULL;
    size_t len;
    char *text = read_regular_file_capped(path, 64, &len, &error);
    free(path);
    free(error);
    if (!text) return false;
    long pid = strtol(text, NULL, 10);
    free(text);
    return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

static bool looks_like_id(const char *s)
{
    return strlen(s) == 36 && strspn(s, "0123456789abcdef-") == 36;
}

static void view_load(run_view *v, const char *dir, const price_table *prices)
{
    memset(v, 0, sizeof *v);
    v->duration_ms = -1;
    v->meta_ok = run_meta_read(dir, &v->meta, &v->meta_error) == 0;
    char *records = xasprintf("%s/records.jsonl", dir), *error = NULL;
    if (runlog_read(records, &v->log, &error) < 0) {
        buf_printf(&v->log.warnings, "%s\n", error);
        free(error);
    }
    free(records);
    v->effects = v->log.len;
    if (!v->meta_ok) {
        v->status = xstrdup("unreadable");
        view_cost(v, prices);
        return;
    }
    bool running = !strcmp(v->meta.status, "running");
    v->status = xstrdup(running && !lock_holder_alive(dir) ? "interrupted" : v->meta.status);
    int64_t start = v->meta.created_at_ms;
    int64_t end = v->meta.ended_at_ms ? v->meta.ended_at_ms : running ? clock_realtime_ms() : v->log.last_end_ms;
    if (!strcmp(v->status, "interrupted")) end = v->log.last_end_ms;
    if (start > 0 && end >= start) v->duration_ms = end - start;
    view_cost(v, prices);
}

static void view_clear(run_view *v)
{
    run_meta_clear(&v->meta);
    free(v->meta_error);
    free(v->status);
    runlog_clear(&v->log);
}

static void print_warnings(const char *id, const run_view *v)
{
    if (v->meta_error) {
        fputs("chidori: ", stderr);
        put_text(stderr, v->meta_error);
        fputc('\n', stderr);
    }
    if (!v->log.warnings.len) return;
    const char *p = v->log.warnings.data;
    while (*p) {
        const char *nl = strchr(p, '\n');
        fprintf(stderr, "chidori: run %s: ", id);
        write_for_terminal(stderr, p, (size_t)(nl - p));
        fputc('\n', stderr);
        p = nl + 1;
    }
}

/* {input, output} */
static json_t *tokens_json(uint64_t in, uint64_t out)
{
    json_t *t = json_object();
    json_object_set(t, "input", json_number((double)in));
    json_object_set(t, "output", json_number((double)out));
    return t;
}

static json_t *view_json(const char *id, const run_view *v, const price_table *prices)
{
    json_t *o = json_object();
    json_object_set(o, "id", json_string(id));
    json_object_set(o, "agent", v->meta_ok ? json_string(v->meta.agent) : json_null());
    json_object_set(o, "status", json_string(v->status));
    json_object_set(o, "started_at_ms", v->meta_ok && v->meta.created_at_ms ? json_number((double)v->meta.created_at_ms) : json_null());
    json_object_set(o, "ended_at_ms", v->meta_ok && v->meta.ended_at_ms ? json_number((double)v->meta.ended_at_ms) : json_null());
    json_object_set(o, "duration_ms", v->duration_ms >= 0 ? json_number((double)v->duration_ms) : json_null());
    json_object_set(o, "effects", json_number((double)v->effects));
    json_object_set(o, "tokens", tokens_json(v->log.tokens_in, v->log.tokens_out));
    if (prices && prices->given) {
        json_t *c = json_object();
        json_object_set(c, "usd", json_number(v->cost));
        json_object_set(c, "unpriced_prompts", json_number((double)v->unpriced));
        json_object_set(o, "cost", c);
    } else {
        json_object_set(o, "cost", json_null());
    }
    json_object_set(o, "error", v->meta_ok && v->meta.error ? json_string(v->meta.error) : v->meta_error ? json_string(v->meta_error) : json_null());
    json_t *w = json_array();
    if (v->meta_error) json_array_push(w, json_string(v->meta_error));
    for (const char *p = v->log.warnings.data; p && *p;) {
        const char *nl = strchr(p, '\n');
        json_array_push(w, json_stringn(p, (size_t)(nl - p)));
        p = nl + 1;
    }
    json_object_set(o, "warnings", w);
    return o;
}

static void print_json(json_t *v) { cli_print_json(v, true); }

/* ---------- list ---------- */

typedef struct listed {
    char id[37];
    int64_t start;
} listed;

static int by_start(const void *a, const void *b, void *ctx)
{
    const listed *ids = ctx, *x = &ids[*(const size_t *)a], *y = &ids[*(const size_t *)b];
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    return strcmp(x->id, y->id);
}

/* The run folders of runs_dir (names that are run ids), oldest first. NULL with *error when the
 * folder cannot be read; an absent folder is no runs. */
static listed *list_runs(const char *runs_dir, size_t *n, char **error)
{
    *n = 0;
    DIR *d = opendir(runs_dir);
    if (!d) {
        if (errno == ENOENT) return xcalloc(1, sizeof(listed));
        *error = xasprintf("cannot read the runs folder %s: %s", runs_dir, strerror(errno));
        return NULL;
    }
    listed *out = NULL;
    size_t cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) && *n < RUNS_LIST_MAX) {
        if (!looks_like_id(e->d_name)) continue;
        if (*n == cap) out = xrealloc(out, (cap = cap ? cap * 2 : 64) * sizeof *out);
        memcpy(out[*n].id, e->d_name, 37);
        out[*n].start = 0;
        (*n)++;
    }
    if (e) fprintf(stderr, "chidori: more than %d runs in %s: only the first %d read\n", RUNS_LIST_MAX, runs_dir, RUNS_LIST_MAX);
    closedir(d);
    return out ? out : xcalloc(1, sizeof(listed));
}

static int runs_list(const runs_options *o)
{
    size_t n;
    char *error = NULL;
    listed *ids = list_runs(o->runs_dir, &n, &error);
    if (!ids) {
        fprintf(stderr, "chidori: %s\n", error);
        free(error);
        return 1;
    }
    run_view *views = xcalloc(n ? n : 1, sizeof *views);
    for (size_t i = 0; i < n; i++) {
        char *dir = run_dir_path(o->runs_dir, ids[i].id);
        view_load(&views[i], dir, o->prices);
        free(dir);
        runlog *log = &views[i].log; /* the totals are kept; the rows are not needed */
        for (size_t k = 0; k < log->len; k++) runlog_row_clear(&log->rows[k]);
        free(log->rows);
        log->rows = NULL, log->len = log->cap = 0;
    }
    /* the order: by start, then id */
    for (size_t i = 0; i < n; i++) ids[i].start = views[i].meta_ok ? views[i].meta.created_at_ms : 0;
    size_t *order = xcalloc(n ? n : 1, sizeof *order);
    for (size_t i = 0; i < n; i++) order[i] = i;
    qsort_r(order, n, sizeof *order, by_start, ids);
    if (o->json) {
        json_t *arr = json_array();
        for (size_t i = 0; i < n; i++) json_array_push(arr, view_json(ids[order[i]].id, &views[order[i]], o->prices));
        json_t *top = json_object();
        json_object_set(top, "runs_dir", json_string(o->runs_dir));
        json_object_set(top, "runs", arr);
        print_json(top);
        json_free(top);
    } else if (n == 0) {
        printf("No runs in %s\n", o->runs_dir);
    } else {
        bool costs = o->prices && o->prices->given;
        printf("%-36s  %-20s  %-11s  %-19s  %9s  %7s  %-15s%s\n", "RUN ID", "AGENT", "STATUS", "STARTED", "DURATION",
               "EFFECTS", "TOKENS (IN/OUT)", costs ? "  COST" : "");
        for (size_t i = 0; i < n; i++) {
            const run_view *v = &views[order[i]];
            char started[32], took[24];
            format_time(started, sizeof started, v->meta_ok ? v->meta.created_at_ms : 0);
            format_duration(took, sizeof took, (double)v->duration_ms);
            printf("%-36s  ", ids[order[i]].id);
            buf agent = {0};
            term_sanitize(&agent, v->meta_ok ? v->meta.agent : "?", strlen(v->meta_ok ? v->meta.agent : "?"), false);
            char tokens[48], cost[32];
            snprintf(tokens, sizeof tokens, "%llu/%llu", (unsigned long long)v->log.tokens_in,
                     (unsigned long long)v->log.tokens_out);
            format_cost(cost, sizeof cost, v, o->prices);
            printf("%-20s  %-11s  %-19s  %9s  %7zu  %-15s%s%s\n", agent.data ? agent.data : "", v->status, started, took,
                   v->effects, tokens, costs ? "  " : "", cost);
            buf_free(&agent);
        }
        fflush(stdout);
        for (size_t i = 0; i < n; i++) print_warnings(ids[order[i]].id, &views[order[i]]);
    }
    for (size_t i = 0; i < n; i++) view_clear(&views[i]);
    free(views);
    free(order);
    free(ids);
    return 0;
}

/* ---------- show ---------- */

/* The run folder of an id or a unique prefix of one. NULL with a message printed. */
static char *find_run(const char *runs_dir, const char *id, char *full)
{
    if (!*id || strlen(id) > 36 || strspn(id, "0123456789abcdef-") != strlen(id)) {
        fprintf(stderr, "chidori: `");
        put_text(stderr, id);
        fprintf(stderr, "` is not a run id (`chidori runs list` shows them)\n");
        return NULL;
    }
    size_t n;
    char *error = NULL;
    listed *ids = list_runs(runs_dir, &n, &error);
    if (!ids) {
        fprintf(stderr, "chidori: %s\n", error);
        free(error);
        return NULL;
    }
    size_t found = 0;
    for (size_t i = 0; i < n; i++)
        if (!strncmp(ids[i].id, id, strlen(id))) {
            if (!found) memcpy(full, ids[i].id, 37);
            found++;
        }
    free(ids);
    if (found == 1) return run_dir_path(runs_dir, full);
    if (found == 0) fprintf(stderr, "chidori: no run %s in %s (`chidori runs list` shows them)\n", id, runs_dir);
    else fprintf(stderr, "chidori: %s names %zu runs in %s: give more of the id\n", id, found, runs_dir);
    return NULL;
}

static int by_seq(const void *a, const void *b)
{
    const runlog_row *x = a, *y = b;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Nesting depth of a row: its chain of parent_seq, bounded. */
static int depth_of(const runlog *log, const runlog_row *r)
{
    int depth = 0;
    while (r && r->parent_seq && depth < 16) {
        depth++;
        runlog_row key = {.seq = r->parent_seq};
        r = bsearch(&key, log->rows, log->len, sizeof *log->rows, by_seq);
    }
    return depth;
}

static void print_header(const char *id, const run_view *v, const price_table *prices)
{
    char cost[32];
    format_cost(cost, sizeof cost, v, prices);
    char started[32], took[24];
    format_time(started, sizeof started, v->meta_ok ? v->meta.created_at_ms : 0);
    format_duration(took, sizeof took, (double)v->duration_ms);
    printf("Run %s: ", id);
    put_text(stdout, v->meta_ok ? v->meta.agent : "?");
    printf(", %s\nStarted %s, took %s, %zu effects, tokens %llu in / %llu out%s%s\n", v->status, started, took,
           v->effects, (unsigned long long)v->log.tokens_in, (unsigned long long)v->log.tokens_out,
           *cost ? ", cost " : "", cost);
    if (v->meta_ok && v->meta.error) {
        fputs("Error: ", stdout);
        put_text(stdout, v->meta.error);
        fputc('\n', stdout);
    }
}

static void print_row_header(void) { printf("\n%6s  %-22s  %9s  %-13s  %s\n", "SEQ", "FUNCTION", "DURATION", "TOKENS", "TARGET"); }

static void print_row(const runlog_row *r, int depth)
{
    char took[24], tokens[48] = "";
    format_duration(took, sizeof took, r->duration_ms);
    if (r->has_tokens) snprintf(tokens, sizeof tokens, "%llu/%llu", (unsigned long long)r->tokens_in, (unsigned long long)r->tokens_out);
    char fn[40];
    if (depth > 8) depth = 8;
    snprintf(fn, sizeof fn, "%*s%s", depth * 2, "", r->function);
    printf("%6llu  ", (unsigned long long)r->seq);
    buf f = {0};
    term_sanitize(&f, fn, strlen(fn), false);
    printf("%-22s  %9s  %-13s  ", f.data ? f.data : "", took, tokens);
    buf_free(&f);
    put_text(stdout, r->target ? r->target : "");
    fputc('\n', stdout);
    if (r->error) {
        printf("%6s  %*serror: ", "", depth * 2, "");
        put_text(stdout, r->error);
        fputc('\n', stdout);
    }
}

static json_t *row_json(const runlog_row *r)
{
    json_t *o = json_object();
    json_object_set(o, "seq", json_number((double)r->seq));
    json_object_set(o, "parent_seq", r->parent_seq ? json_number((double)r->parent_seq) : json_null());
    json_object_set(o, "function", json_string(r->function));
    json_object_set(o, "target", r->target ? json_string(r->target) : json_null());
    json_object_set(o, "duration_ms", r->duration_ms >= 0 ? json_number(r->duration_ms) : json_null());
    json_object_set(o, "timestamp_ms", r->timestamp_ms ? json_number((double)r->timestamp_ms) : json_null());
    json_object_set(o, "tokens", r->has_tokens ? tokens_json(r->tokens_in, r->tokens_out) : json_null());
    json_object_set(o, "model", r->model ? json_string(r->model) : json_null());
    json_object_set(o, "error", r->error ? json_string(r->error) : json_null());
    return o;
}

/* One compact JSON line (--follow --json), and v is freed. */
static void print_json_line(json_t *v)
{
    cli_print_json(v, false);
    json_free(v);
}

/* The run's view for show; false (its warnings printed, nothing kept) when its run.json is unreadable. */
static bool view_open(run_view *v, const char *id, const char *dir, const price_table *prices)
{
    view_load(v, dir, prices);
    if (v->meta_ok) return true;
    print_warnings(id, v);
    view_clear(v);
    return false;
}

static int show_once(const runs_options *o, const char *id, const char *dir)
{
    run_view v;
    if (!view_open(&v, id, dir, o->prices)) return 1;
    qsort(v.log.rows, v.log.len, sizeof *v.log.rows, by_seq);
    if (o->json) {
        json_t *top = json_object();
        json_object_set(top, "run", view_json(id, &v, o->prices));
        json_t *calls = json_array();
        for (size_t i = 0; i < v.log.len; i++) {
            json_t *row = row_json(&v.log.rows[i]);
            json_object_set(row, "depth", json_number(depth_of(&v.log, &v.log.rows[i])));
            json_array_push(calls, row);
        }
        json_object_set(top, "calls", calls);
        print_json(top);
        json_free(top);
    } else {
        print_header(id, &v, o->prices);
        if (v.log.len) print_row_header();
        for (size_t i = 0; i < v.log.len; i++) print_row(&v.log.rows[i], depth_of(&v.log, &v.log.rows[i]));
        fflush(stdout);
        print_warnings(id, &v);
    }
    view_clear(&v);
    return 0;
}

/* ---------- show --follow ---------- */

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/* Reads what was appended to records.jsonl since *offset and prints its complete lines. */
static void follow_step(const runs_options *o, const char *records, off_t *offset, buf *partial, runlog *log,
                        size_t *line_no)
{
    char *why = NULL;
    int fd = open_regular_file(records, O_RDONLY, 0, &why);
    if (fd < 0) {
        free(why); /* not there yet: the run has made no effect */
        return;
    }
    struct stat st;
    if (fstat(fd, &st) == 0 && st.st_size < *offset) { /* cut back (a resume drops a torn line) */
        *offset = st.st_size;
        partial->len = 0;
    }
    char chunk[65536];
    ssize_t got;
    while ((got = pread(fd, chunk, sizeof chunk, *offset)) > 0) {
        *offset += got;
        buf_append(partial, chunk, (size_t)got);
        if (partial->len > CALLLOG_RECORD_MAX_BYTES) { /* a line longer than any record */
            buf_printf(&log->warnings, "records.jsonl line %zu is longer than a call record can be: skipped\n", *line_no + 1);
            partial->len = 0;
        }
    }
    close(fd);
    size_t before = log->len;
    size_t used = runlog_feed(log, partial->data ? partial->data : "", partial->len, line_no);
    if (used) {
        memmove(partial->data, partial->data + used, partial->len - used);
        partial->len -= used;
        partial->data[partial->len] = '\0';
    }
    for (size_t i = before; i < log->len; i++) {
        const runlog_row *r = &log->rows[i];
        if (o->json) print_json_line(row_json(r));
        else print_row(r, r->parent_seq ? 1 : 0); /* its parent's record comes later: one level shown */
    }
    if (log->warnings.len) {
        fputs("chidori: ", stderr);
        write_for_terminal(stderr, log->warnings.data, log->warnings.len);
        log->warnings.len = 0;
        log->warnings.data[0] = '\0';
    }
    fflush(stdout);
}

static int show_follow(const runs_options *o, const char *id, const char *dir)
{
    run_view v;
    if (!view_open(&v, id, dir, o->prices)) return 1;
    if (!o->json) {
        print_header(id, &v, o->prices);
        print_row_header();
    }
    view_clear(&v);
    char *records = xasprintf("%s/records.jsonl", dir);
    off_t offset = 0;
    buf partial = {0};
    runlog log = {0};
    size_t line_no = 0;
    int64_t deadline = clock_monotonic_ms() + (int64_t)o->timeout_s * 1000;
    char *status = NULL;
    for (;;) {
        follow_step(o, records, &offset, &partial, &log, &line_no);
        run_meta m;
        char *error = NULL;
        bool ended = false;
        if (run_meta_read(dir, &m, &error) == 0) { /* replaced atomically: whole or the previous one */
            free(status);
            status = xstrdup(m.status);
            if (!strcmp(m.status, "running") && !lock_holder_alive(dir)) {
                free(status);
                status = xstrdup("interrupted");
            }
            ended = strcmp(status, "running") != 0;
            run_meta_clear(&m);
        } else {
            free(error); /* a torn read cannot happen (atomic rename); an edited file: try again */
        }
        if (ended) {
            follow_step(o, records, &offset, &partial, &log, &line_no); /* the last records */
            break;
        }
        if (clock_monotonic_ms() >= deadline) {
            fprintf(stderr, "chidori: run %s is still running after %llu s: stopped following it (--timeout)\n", id,
                    (unsigned long long)o->timeout_s);
            free(status);
            status = NULL;
            break;
        }
        sleep_ms(FOLLOW_POLL_MS);
    }
    int rc = 1;
    if (status) {
        run_view end;
        view_load(&end, dir, o->prices);
        if (o->json) {
            json_t *top = json_object();
            json_object_set(top, "run", view_json(id, &end, o->prices));
            print_json_line(top);
        } else {
            char took[24];
            format_duration(took, sizeof took, (double)end.duration_ms);
            char cost[32];
            format_cost(cost, sizeof cost, &end, o->prices);
            printf("Run %s %s after %s: %zu effects, tokens %llu in / %llu out%s%s\n", id, end.status, took,
                   end.effects, (unsigned long long)end.log.tokens_in, (unsigned long long)end.log.tokens_out,
                   *cost ? ", cost " : "", cost);
            if (end.meta_ok && end.meta.error) {
                fputs("Error: ", stdout);
                put_text(stdout, end.meta.error);
                fputc('\n', stdout);
            }
        }
        rc = !strcmp(status, "completed") || !strcmp(status, "paused") ? 0 : 1;
        view_clear(&end);
    }
    if (partial.len)
        fprintf(stderr, "chidori: run %s: records.jsonl ends with a line cut short (%zu bytes): ignored\n", id, partial.len);
    fflush(stdout);
    free(status);
    free(records);
    buf_free(&partial);
    runlog_clear(&log);
    return rc;
}

/* ---------- the command ---------- */

int cmd_runs(int argc, char **argv, const settings *set)
{
    if (argc < 1) return cli_usage_error("%s", "runs needs a subcommand: list or show RUN_ID");
    const char *sub = argv[0];
    bool show = !strcmp(sub, "show");
    if (!show && strcmp(sub, "list") != 0) return cli_usage_error("unknown runs subcommand `%s` (list, show)", sub);
    runs_options o = {.timeout_s = FOLLOW_DEFAULT_TIMEOUT_S};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--runs-dir") || !strcmp(a, "--timeout")) {
            if (++i >= argc) return cli_usage_error("%s needs a value", a);
            if (!strcmp(a, "--runs-dir")) {
                o.runs_dir = argv[i];
                continue;
            }
            char *end = NULL;
            errno = 0;
            unsigned long long t = strtoull(argv[i], &end, 10);
            if (errno || !*argv[i] || *end || t < 1 || t > FOLLOW_MAX_TIMEOUT_S)
                return cli_usage_error("--timeout takes whole seconds, 1 to 604800, not `%s`", argv[i]);
            o.timeout_s = t;
        } else if (!strcmp(a, "--json")) {
            o.json = true;
        } else if (show && (!strcmp(a, "--follow") || !strcmp(a, "-f"))) {
            o.follow = true;
        } else if (a[0] == '-' && a[1]) {
            return cli_usage_error("unknown option %s", a);
        } else if (show && !o.id) {
            o.id = a;
        } else {
            return cli_usage_error("unexpected argument %s", a);
        }
    }
    if (show && !o.id) return cli_usage_error("%s", "runs show needs a run id (`chidori runs list` shows them)");
    price_table prices;
    char *perror_ = NULL;
    if (prices_load(set, &prices, &perror_) < 0) {
        fprintf(stderr, "chidori: %s (docs/cli.md#cost)\n", perror_);
        free(perror_);
        prices_clear(&prices);
        return 2;
    }
    o.prices = &prices;
    char *state = NULL, *runs_dir = NULL;
    if (!o.runs_dir) {
        state = run_start_state_dir(set, ".");
        runs_dir = xasprintf("%s/runs", state);
        o.runs_dir = runs_dir;
    }
    int rc;
    if (!show) {
        rc = runs_list(&o);
    } else {
        char full[37];
        char *dir = find_run(o.runs_dir, o.id, full);
        rc = !dir ? 1 : o.follow ? show_follow(&o, full, dir) : show_once(&o, full, dir);
        free(dir);
    }
    free(state);
    free(runs_dir);
    prices_clear(&prices);
    return rc;
}

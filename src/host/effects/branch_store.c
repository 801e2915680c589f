/* branch_store.c — writing the branch store (see branch_store.h).
 *
 * Owns the files under <run dir>/branches/. Trusts the run's folder (the CLI made it and holds its
 * lock); reads variant sources only beneath the project root, capped in size. Every write replaces
 * a whole file atomically, so a reader sees an old or a new branch.json, never half of one.
 */
#define _GNU_SOURCE
#include "host/effects/branch_store.h"
#include "host/host_internal.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/files.h"
#include "util/rfc3339.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SOURCE_MAX_BYTES ((size_t)8 << 20)

struct branch_store {
    char *dir;     /* <run dir>/branches/op-<S> */
    char *run_id;
    uint64_t seq;
    FILE *log_out;
};

char *branch_store_call_dir(const char *run_dir, uint64_t seq)
{
    return xasprintf("%s/branches/op-%020llu", run_dir, (unsigned long long)seq);
}

static int mkdir_p(const char *path)
{
    char *p = xstrdup(path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/') continue;
        *s = '\0';
        if (mkdir(p, 0755) != 0 && errno != EEXIST) {
            free(p);
            return -1;
        }
        *s = '/';
    }
    int rc = mkdir(p, 0755) != 0 && errno != EEXIST ? -1 : 0;
    free(p);
    return rc;
}

int branch_store_write_json(const char *path, const json_t *v, char **error)
{
    size_t n;
    char *text = json_dump(v, JSON_PRETTY, &n);
    int rc = write_file_atomic(path, text, n, false, error);
    free(text);
    return rc;
}

static void now_text(char out[RFC3339_MAX]) { rfc3339_format_ms(clock_realtime_ms(), out); }

/* A variant's source, read beneath the project root (NULL when it cannot be). */
static char *read_source(int root_fd, const char *root, const char *src, size_t *len)
{
    int fd = open_beneath(root_fd, root, src, O_RDONLY | O_CLOEXEC, 0);
    if (fd < 0) return NULL;
    buf b = {0};
    char chunk[65536];
    ssize_t r;
    while ((r = read(fd, chunk, sizeof chunk)) > 0 && b.len <= SOURCE_MAX_BYTES) buf_append(&b, chunk, (size_t)r);
    close(fd);
    if (r < 0 || b.len > SOURCE_MAX_BYTES) {
        buf_free(&b);
        return NULL;
    }
    *len = b.len;
    return b.data ? buf_steal(&b) : xstrdup("");
}

static void warn(branch_store *s, const char *what, const char *why)
{
    fprintf(s->log_out, "chidori: the branch store of call %llu: %s: %s (the call log still holds every record)\n",
            (unsigned long long)s->seq, what, why);
}

branch_store *branch_store_open(const char *run_dir, const char *run_id, const char *project_root, uint64_t seq,
                                const json_t *vfs, const json_t *args, int root_fd, FILE *log_out)
{
    branch_store *s = xcalloc(1, sizeof *s);
    s->dir = branch_store_call_dir(run_dir, seq);
    s->run_id = xstrdup(run_id ? run_id : "run");
    s->seq = seq;
    s->log_out = log_out;
    if (mkdir_p(s->dir) != 0) {
        warn(s, "cannot make its folder", strerror(errno));
        branch_store_close(s);
        return NULL;
    }
    char when[RFC3339_MAX];
    now_text(when);
    json_t *a = json_object();
    json_object_set(a, "version", json_number(1));
    json_object_set(a, "parent_run_id", json_string(s->run_id));
    json_object_set(a, "branch_seq", json_number((double)seq));
    json_object_set(a, "vfs", vfs ? json_copy(vfs) : json_object());
    json_object_set(a, "created_at", json_string(when));
    json_object_set(a, "project_root", json_string(project_root));
    char *path = xasprintf("%s/anchor.json", s->dir), *error = NULL;
    if (branch_store_write_json(path, a, &error) != 0) warn(s, "anchor.json", error);
    free(error);
    free(path);
    json_free(a);
    const json_t *variants = json_object_get(args, "variants");
    for (size_t k = 0; json_is_array(variants) && k < variants->u.array.len; k++) {
        char *dir = xasprintf("%s/branch-%03zu", s->dir, k);
        const char *src = json_string_value(json_object_get(variants->u.array.items[k], "source"));
        size_t len = 0;
        char *text = src ? read_source(root_fd, project_root, src, &len) : NULL;
        if (mkdir_p(dir) != 0) {
            warn(s, "cannot make a branch's folder", strerror(errno));
        } else if (text) {
            char *p = xasprintf("%s/source.ts", dir);
            error = NULL;
            if (write_file_atomic(p, text, len, false, &error) != 0) warn(s, "source.ts", error);
            free(error);
            free(p);
        }
        free(text);
        free(dir);
    }
    return s;
}

void branch_store_set_status(json_t *b, const json_t *outcome, const json_t *pending)
{
    const char *status = json_string_value(json_object_get(outcome, "status"));
    const json_t *output = json_object_get(outcome, "output");
    const json_t *error = json_object_get(outcome, "error");
    const json_t *prompt = json_object_get(outcome, "pendingPrompt");
    bool input = pending && !strcmp(json_string_value(json_object_get(pending, "function")) ?: "", "input");
    json_object_set(b, "status", json_string(status ? status : "failed"));
    json_object_set(b, "pending_input", input ? json_copy(json_object_get(json_object_get(pending, "args"), "prompt"))
                                              : json_null());
    json_object_set(b, "pending_prompt", prompt ? json_copy(prompt) : json_null());
    json_object_set(b, "output", output ? json_copy(output) : json_null());
    json_object_set(b, "error", error ? json_copy(error) : json_null());
    char when[RFC3339_MAX];
    now_text(when);
    json_object_set(b, "updated_at", json_string(when));
    json_object_set(b, "pending", pending ? json_copy(pending) : json_null());
}

void branch_store_settle(branch_store *s, size_t k, const char *branch_id, const json_t *variant, uint64_t lo,
                         uint64_t hi, const host_member_outcome *o, const json_t *outcome)
{
    if (!s) return;
    char *dir = xasprintf("%s/branch-%03zu", s->dir, k), *error = NULL;
    char *cp = xasprintf("%s/checkpoint.json", dir);
    json_t *records = o && o->records ? json_copy(o->records) : json_array();
    if (branch_store_write_json(cp, records, &error) != 0) warn(s, "checkpoint.json", error);
    free(error);
    error = NULL;
    json_free(records);
    json_t *b = json_object();
    json_object_set(b, "version", json_number(1));
    json_object_set(b, "branch_id", json_string(branch_id));
    json_object_set(b, "label", json_copy(json_object_get(variant, "label")));
    json_object_set(b, "branch_index", json_number((double)k));
    json_object_set(b, "branch_seq", json_number((double)s->seq));
    json_object_set(b, "parent_run_id", json_string(s->run_id));
    json_object_set(b, "original_source", json_copy(json_object_get(variant, "source")));
    json_object_set(b, "input", json_copy(json_object_get(variant, "input")));
    json_t *range = json_object();
    json_object_set(range, "start", json_number((double)lo));
    json_object_set(range, "end_exclusive", json_number((double)hi));
    json_object_set(b, "sequence_range", range);
    branch_store_set_status(b, outcome, o && o->status == MEMBER_PAUSED ? o->pending : NULL);
    if (o) { /* ours: what it ran with, so branch-resume replays it alike (Math.random, the clock) */
        char seed[24];
        snprintf(seed, sizeof seed, "%llu", (unsigned long long)o->seed);
        json_object_set(b, "seed", json_string(seed));
        json_object_set(b, "clock_start_ms", json_number((double)o->clock_start_ms));
    }
    char *bp = xasprintf("%s/branch.json", dir);
    if (branch_store_write_json(bp, b, &error) != 0) warn(s, "branch.json", error);
    free(error);
    json_free(b);
    free(bp);
    free(cp);
    free(dir);
}

void branch_store_close(branch_store *s)
{
    if (!s) return;
    free(s->dir);
    free(s->run_id);
    free(s);
}

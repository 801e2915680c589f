/* runstore.c — see runstore.h. run.json is opened as a regular file only (util/files.c): a FIFO,
 * symbolic link or directory in its place is an error, never a hang. */
#define _GNU_SOURCE
#include "cli/runstore.h"
#include "host/calllog.h"
#include "util/buf.h"
#include "util/files.h"

#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define META_MAX_BYTES ((size_t)128 << 20)

char *run_dir_path(const char *runs_dir, const char *run_id) { return xasprintf("%s/%s", runs_dir, run_id); }

int run_dir_create(const char *dir, char **error)
{
    char *p = xstrdup(dir);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/') continue;
        *s = '\0';
        if (mkdir(p, 0700) != 0 && errno != EEXIST) break;
        *s = '/';
    }
    int rc = mkdir(p, 0700);
    if (rc != 0 && errno == EEXIST) rc = 0;
    if (rc != 0) *error = xasprintf("cannot create the run folder %s: %s", dir, strerror(errno));
    free(p);
    return rc;
}

int run_meta_write(const char *dir, const run_meta *m, bool durable, char **error)
{
    json_t *o = json_object();
    json_object_set(o, "run_id", json_string(m->run_id));
    json_object_set(o, "agent", json_string(m->agent));
    json_object_set(o, "input", m->input ? json_copy(m->input) : json_object());
    char seed[24];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)m->seed);
    json_object_set(o, "seed", json_string(seed)); /* a string: 64 bits do not fit a JSON number */
    json_object_set(o, "clock_start_ms", json_number((double)m->clock_start_ms));
    json_object_set(o, "created_at", json_number((double)m->created_at_ms));
    if (m->ended_at_ms) json_object_set(o, "ended_at", json_number((double)m->ended_at_ms));
    if (m->surface) json_object_set(o, "surface", json_copy(m->surface));
    if (m->vfs) json_object_set(o, "vfs", json_copy(m->vfs));
    if (m->log_max_records && m->log_max_bytes) {
        json_t *caps = json_object();
        json_object_set(caps, "max_records", json_number((double)m->log_max_records));
        json_object_set(caps, "max_bytes", json_number((double)m->log_max_bytes));
        json_object_set(o, "log_caps", caps);
    }
    json_object_set(o, "status", json_string(m->status));
    if (m->output) json_object_set(o, "output", json_copy(m->output));
    if (m->error) json_object_set(o, "error", json_string(m->error));
    if (m->pending) json_object_set(o, "pending", json_copy(m->pending));
    if (m->response) json_object_set(o, "response", json_string(m->response));
    size_t len;
    char *text = json_dump(o, JSON_PRETTY, &len);
    json_free(o);
    text = xrealloc(text, len + 2);
    text[len++] = '\n';
    text[len] = '\0';
    char *path = xasprintf("%s/run.json", dir);
    int rc = write_file_atomic(path, text, len, durable, error);
    free(text);
    free(path);
    return rc;
}

void run_meta_clear(run_meta *m)
{
    free(m->agent);
    json_free(m->input);
    free(m->status);
    json_free(m->output);
    free(m->error);
    json_free(m->pending);
    free(m->response);
    json_free(m->surface);
    json_free(m->vfs);
    memset(m, 0, sizeof *m);
}

static bool whole_in(const json_t *v, double min, double max)
{
    return v && v->type == JSON_NUMBER && v->u.number >= min && v->u.number <= max && floor(v->u.number) == v->u.number;
}

/* {max_records, max_bytes} within the ranges the settings accept (CHIDORI_LOG_MAX_*) */
static bool log_caps_ok(const json_t *caps)
{
    return json_is_object(caps) && whole_in(json_object_get(caps, "max_records"), 1, CALLLOG_MAX_RECORDS_LIMIT) &&
           whole_in(json_object_get(caps, "max_bytes"), 1024, (double)CALLLOG_MAX_BYTES_LIMIT);
}

int run_meta_read(const char *dir, run_meta *m, char **error)
{
    memset(m, 0, sizeof *m);
    char *path = xasprintf("%s/run.json", dir);
    size_t len;
    char *text = read_regular_file_capped(path, META_MAX_BYTES, &len, error);
    if (!text) {
        free(path);
        return -1;
    }
    json_error jerr;
    json_limits lim = {META_MAX_BYTES, JSON_DEFAULT_MAX_DEPTH, 0};
    json_t *o = json_parse(text, len, &lim, &jerr);
    free(text);
    const char *why = NULL;
    const json_t *id = json_object_get(o, "run_id"), *agent = json_object_get(o, "agent");
    const json_t *seed = json_object_get(o, "seed"), *clock = json_object_get(o, "clock_start_ms");
    const json_t *status = json_object_get(o, "status"), *input = json_object_get(o, "input");
    char *end = NULL;
    if (!o) why = jerr.message;
    else if (!json_is_string(id) || id->u.string.len != 36) why = "`run_id` is not a run id";
    else if (!json_is_string(agent) || !agent->u.string.len) why = "`agent` is missing";
    else if (!json_is_object(input)) why = "`input` must be an object";
    else if (!json_is_string(seed) || (strtoull(seed->u.string.bytes, &end, 10), *end)) why = "`seed` is not a number";
    else if (!clock || clock->type != JSON_NUMBER || !(clock->u.number >= 0 && clock->u.number <= 8.64e15))
        why = "`clock_start_ms` is missing or out of range";
    else if (!json_is_string(status)) why = "`status` is missing";
    else if (json_object_get(o, "surface") && !json_is_object(json_object_get(o, "surface"))) why = "`surface` must be an object";
    else if (json_object_get(o, "vfs") && !json_is_object(json_object_get(o, "vfs"))) why = "`vfs` must be an object";
    else if (json_object_get(o, "log_caps") && !log_caps_ok(json_object_get(o, "log_caps")))
        why = "`log_caps` must be {max_records, max_bytes}, whole numbers within the settings' ranges";
    if (why) {
        *error = xasprintf("%s is not a chidori run record: %s", path, why);
        json_free(o);
        free(path);
        return -1;
    }
    memcpy(m->run_id, id->u.string.bytes, 36);
    m->agent = xstrdup(agent->u.string.bytes);
    m->input = json_copy(input);
    m->seed = strtoull(seed->u.string.bytes, NULL, 10);
    m->clock_start_ms = (int64_t)clock->u.number;
    const json_t *created = json_object_get(o, "created_at");
    m->created_at_ms = created && created->type == JSON_NUMBER && fabs(created->u.number) < 9e15 ? (int64_t)created->u.number : 0;
    const json_t *ended = json_object_get(o, "ended_at");
    m->ended_at_ms = ended && ended->type == JSON_NUMBER && ended->u.number > 0 && ended->u.number < 9e15 ? (int64_t)ended->u.number : 0;
    m->status = xstrdup(status->u.string.bytes);
    if (json_object_get(o, "output")) m->output = json_copy(json_object_get(o, "output"));
    if (json_is_string(json_object_get(o, "error"))) m->error = xstrdup(json_string_value(json_object_get(o, "error")));
    if (json_is_object(json_object_get(o, "pending"))) m->pending = json_copy(json_object_get(o, "pending"));
    if (json_is_string(json_object_get(o, "response"))) m->response = xstrdup(json_string_value(json_object_get(o, "response")));
    if (json_object_get(o, "surface")) m->surface = json_copy(json_object_get(o, "surface"));
    if (json_object_get(o, "vfs")) m->vfs = json_copy(json_object_get(o, "vfs"));
    if (json_object_get(o, "log_caps")) {
        m->log_max_records = (uint64_t)json_number_value(json_object_get(json_object_get(o, "log_caps"), "max_records"));
        m->log_max_bytes = (uint64_t)json_number_value(json_object_get(json_object_get(o, "log_caps"), "max_bytes"));
    }
    json_free(o);
    free(path);
    return 0;
}

int run_lock(const char *dir, const char *run_id, char **error)
{
    char *path = xasprintf("%s/run.lock", dir), *why = NULL;
    int fd = open_regular_file(path, O_RDWR | O_CREAT, 0600, &why);
    if (fd < 0) {
        *error = xasprintf("cannot lock run %s: %s", run_id, why);
        free(why);
        free(path);
        return -1;
    }
    int rc;
    while ((rc = flock(fd, LOCK_EX | LOCK_NB)) != 0 && errno == EINTR) {
    }
    if (rc != 0) {
        int err = errno;
        char held[24] = {0};
        ssize_t n = err == EWOULDBLOCK ? pread(fd, held, sizeof held - 1, 0) : -1;
        long pid = n > 0 ? strtol(held, NULL, 10) : 0;
        if (err != EWOULDBLOCK)
            *error = xasprintf("cannot lock run %s (%s): %s", run_id, path, strerror(err));
        else if (pid > 0)
            *error = xasprintf("run %s is in progress: process %ld holds its lock (%s); wait for it to end, "
                               "or stop that process first", run_id, pid, path);
        else
            *error = xasprintf("run %s is in progress: another process holds its lock (%s); wait for it to end, "
                               "or stop that process first", run_id, path);
        close(fd);
        free(path);
        return -1;
    }
    char pid[24];
    int len = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)len, 0) != len) {
        /* the lock holds without the pid; only the refusal's text is poorer */
    }
    free(path);
    return fd;
}

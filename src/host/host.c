/* host.c — the seam (see host.h): replay lookup → policy gate → perform → append.
 *
 * Owns the run context (project root, call log). Trusts nothing in op names or args: both come
 * from guest code (or, under isolation, from a worker that may be compromised). Unknown ops and
 * non-object args are errors, never crashes.
 */
#define _GNU_SOURCE
#include "host/host_internal.h"
#include "host/ops.h"
#include "util/buf.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

host *host_new(const host_config *cfg, char **error)
{
    char *root = realpath(cfg->project_root ? cfg->project_root : ".", NULL);
    if (!root) {
        *error = xasprintf("cannot use project folder %s: %s", cfg->project_root, strerror(errno));
        return NULL;
    }
    int fd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        *error = xasprintf("cannot open project folder %s: %s", root, strerror(errno));
        free(root);
        return NULL;
    }
    host *h = xcalloc(1, sizeof *h);
    h->project_root = root;
    h->root_fd = fd;
    h->log_out = cfg->log_out ? cfg->log_out : stderr;
    h->console_out = cfg->console_out ? cfg->console_out : stderr;
    h->log = calllog_new();
    return h;
}

void host_free(host *h)
{
    if (!h) return;
    calllog_free(h->log);
    if (h->root_fd >= 0) close(h->root_fd);
    free(h->project_root);
    free(h);
}

size_t host_record_count(const host *h) { return calllog_count(h->log); }
const char *host_project_root(const host *h) { return h->project_root; }

const char *host_arg_string(const json_t *args, const char *name, char **error)
{
    const char *s = json_string_value(json_object_get(args, name));
    if (!s) *error = xasprintf("missing string argument `%s`", name);
    return s;
}

static double monotonic_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int64_t realtime_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int host_call(host *h, const char *name, const json_t *args, json_t **result, char **error)
{
    *result = NULL;
    *error = NULL;
    const host_op *op = host_op_find(name);
    if (!op) {
        *error = xasprintf("unknown host operation `%s`", name);
        return 1;
    }
    if (!json_is_object(args)) {
        *error = xasprintf("host operation `%s` takes an object of arguments", name);
        return 1;
    }

    /* 1. replay lookup */
    if (op->flags & OP_RECORDED) {
        char *divergence = NULL;
        const call_record *rec = calllog_replay_next(h->log, name, args, &divergence);
        if (divergence) {
            *error = divergence;
            return 1;
        }
        if (rec) {
            if (rec->error) {
                *error = xstrdup(rec->error);
                return 1;
            }
            *result = json_copy(rec->result);
            return 0;
        }
    }

    /* 2. policy gate: every op passes until the policy engine lands (OP_GATED marks the ops it
     *    will see). */

    /* 3. perform */
    int64_t started_at = realtime_ms();
    double t0 = monotonic_ms();
    int rc = op->perform(h, args, result, error);
    double duration = monotonic_ms() - t0;
    if (rc == 0 && !*result) *result = json_null();
    if (rc != 0 && !*error) *error = xasprintf("host operation `%s` failed", name);

    /* 4. append */
    if (op->flags & OP_RECORDED)
        calllog_append(h->log, name, args, rc == 0 ? *result : NULL, rc == 0 ? NULL : *error, duration, started_at);
    if (rc != 0) {
        json_free(*result);
        *result = NULL;
    }
    return rc;
}

/* confine.c — what the worker does to itself before agent code runs, and how it is reported.
 *
 * Today: no new privileges, and the rlimit floor (core 0, nofile 256, CPU seconds and file size
 * when configured). The namespace, Landlock and seccomp layers of sandbox_linux.c plug in here.
 * Each layer is reported applied or skipped-with-why, for the `Isolation:` banner; with `require`
 * set, a core layer that cannot be applied fails the run instead of degrading.
 */
#define _GNU_SOURCE
#include "isolate/isolate.h"
#include "util/buf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

static void layer(json_t *layers, const char *name, bool applied, const char *detail)
{
    json_t *l = json_object();
    json_object_set(l, "name", json_string(name));
    json_object_set(l, "applied", json_bool(applied));
    json_object_set(l, "detail", json_string(detail ? detail : ""));
    json_array_push(layers, l);
}

static bool set_limit(int resource, rlim_t value)
{
    struct rlimit r = {value, value};
    return setrlimit(resource, &r) == 0;
}

int isolate_confine(const isolate_sandbox *cfg, json_t **report, char **error)
{
    json_t *layers = json_array();
    bool nnp = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0;
    layer(layers, "no_new_privs", nnp, nnp ? NULL : strerror(errno));
    bool rl = set_limit(RLIMIT_CORE, 0) && set_limit(RLIMIT_NOFILE, 256);
    if (rl && cfg->cpu_secs) { /* SIGXCPU at the soft limit; the hard one (a second later) is SIGKILL */
        struct rlimit cpu = {(rlim_t)cfg->cpu_secs, (rlim_t)cfg->cpu_secs + 1};
        rl = setrlimit(RLIMIT_CPU, &cpu) == 0;
    }
    if (rl && cfg->fsize_bytes) rl = set_limit(RLIMIT_FSIZE, (rlim_t)cfg->fsize_bytes);
    char detail[96];
    snprintf(detail, sizeof detail, "core 0, nofile 256%s%s", cfg->cpu_secs ? ", cpu" : "", cfg->fsize_bytes ? ", fsize" : "");
    layer(layers, "rlimits", rl, rl ? detail : strerror(errno));
    layer(layers, "namespaces", false, "not built yet");
    layer(layers, "landlock", false, "not built yet");
    layer(layers, "seccomp", false, "not built yet");
    json_t *r = json_object();
    json_object_set(r, "layers", layers);
    *report = r;
    if (cfg->require) {
        *error = xstrdup("seccomp, landlock and the namespaces are not built yet (CHIDORI_ISOLATE_REQUIRE_SANDBOX=1)");
        return -1;
    }
    return 0;
}

char *isolate_banner(const json_t *report)
{
    buf applied = {0}, skipped = {0};
    const json_t *layers = json_object_get(report, "layers");
    for (size_t i = 0; json_is_array(layers) && i < layers->u.array.len && i < 32; i++) {
        const json_t *l = layers->u.array.items[i];
        const char *name = json_string_value(json_object_get(l, "name"));
        const char *detail = json_string_value(json_object_get(l, "detail"));
        if (!name) continue;
        bool on = json_object_get(l, "applied") && json_object_get(l, "applied")->type == JSON_TRUE;
        buf *b = on ? &applied : &skipped;
        if (b->len) buf_puts(b, ", ");
        /* names and details come from the worker: print them bounded */
        buf_printf(b, "%.40s", name);
        if (detail && *detail) buf_printf(b, " (%.80s)", detail);
    }
    char *s = xasprintf("process (worker per run; applied: %s; skipped: %s)", applied.len ? applied.data : "none",
                        skipped.len ? skipped.data : "none");
    buf_free(&applied);
    buf_free(&skipped);
    return s;
}

/* Test-only probes: one forbidden act, reported as JSON text {"probe", "outcome"}. A probe that the
 * sandbox kills never returns; the parent sees the signal. */
char *isolate_selftest(const char *probe)
{
    const char *outcome;
    char buf_[160];
    if (!strcmp(probe, "open_passwd")) {
        int fd = open("/etc/passwd", O_RDONLY | O_CLOEXEC);
        snprintf(buf_, sizeof buf_, "%s", fd >= 0 ? "opened" : strerror(errno));
        if (fd >= 0) close(fd);
        outcome = buf_;
    } else if (!strcmp(probe, "socket")) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        snprintf(buf_, sizeof buf_, "%s", fd >= 0 ? "created" : strerror(errno));
        if (fd >= 0) close(fd);
        outcome = buf_;
    } else {
        outcome = "unknown probe";
    }
    json_t *o = json_object();
    json_object_set(o, "probe", json_string(probe));
    json_object_set(o, "outcome", json_string(outcome));
    char *text = json_dump(o, JSON_COMPACT, NULL);
    json_free(o);
    return text;
}

static int env_u64(const char *name, uint64_t *out, char **error)
{
    const char *v = getenv(name);
    *out = 0;
    if (!v || !*v) return 0;
    char *end;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    if (*end || errno || *v == '-') {
        *error = xasprintf("%s must be a non-negative integer, got `%s`", name, v);
        return -1;
    }
    *out = n;
    return 0;
}

int isolate_options_from_env(isolate_options *o, const engine_limits *limits, char **error)
{
    (void)limits;
    memset(o, 0, sizeof *o);
    const char *req = getenv("CHIDORI_ISOLATE_REQUIRE_SANDBOX");
    o->sandbox.require = req && !strcmp(req, "1");
    const char *st = getenv("CHIDORI_ISOLATE_SELFTEST");
    o->selftest = st && *st ? st : NULL;
    return env_u64("CHIDORI_ISOLATE_DEADLINE_MS", &o->deadline_ms, error) ||
                   env_u64("CHIDORI_ISOLATE_CPU_SECS", &o->sandbox.cpu_secs, error) ||
                   env_u64("CHIDORI_ISOLATE_FSIZE_BYTES", &o->sandbox.fsize_bytes, error)
               ? -1
               : 0;
}

/* confine.c — what the worker does to itself before agent code runs, and how it is reported.
 *
 * The layers are the sandbox_*.c files' (identity, user/net/mount/ipc/uts/pid namespaces,
 * capabilities, rlimits, descriptors, Landlock, the seccomp allowlist), applied by sandbox_apply_all
 * in the order of apply_layers (sandbox_linux.c).
 * Each is reported applied or skipped-with-why, for the `Isolation:` banner; with `require` set, a
 * core layer that cannot be applied fails the run instead of degrading.
 */
#define _GNU_SOURCE
#include "isolate/isolate.h"
#include "isolate/sandbox_linux.h"
#include "settings/settings.h"
#include "util/buf.h"

#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

static void layer(json_t *layers, const char *name, const sandbox_status *st)
{
    json_t *l = json_object();
    json_object_set(l, "name", json_string(name));
    json_object_set(l, "applied", json_bool(st->applied));
    json_object_set(l, "detail", json_string(st->detail));
    json_array_push(layers, l);
}

/* name appears in the comma-separated list */
bool name_in_list(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; p && *p;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (len == n && !strncmp(p, name, n)) return true;
        p = comma ? comma + 1 : NULL;
    }
    return false;
}

bool isolate_sandbox_wants(const isolate_sandbox *cfg, const char *layer) { return !name_in_list(cfg->skip, layer); }

static void config_from(const isolate_sandbox *cfg, int shared_netns_fd, int parent_mntns_fd, sandbox_config *sc)
{
    sandbox_config_default(sc);
    sc->shared_netns_fd = shared_netns_fd;
    sc->parent_mntns_fd = parent_mntns_fd;
    sc->require = cfg->require;
    sc->cpu_secs = cfg->cpu_secs;
    sc->fsize_bytes = cfg->fsize_bytes;
    /* CHIDORI_ISOLATE_SKIP (bench/isolation measures each layer's cost this way): a weaker
     * sandbox on request, reported as skipped; under require, a skipped core layer still fails. */
    static const struct { const char *name; size_t offset; } optional[] = {
        {"userns", offsetof(sandbox_config, userns)},   {"netns", offsetof(sandbox_config, netns)},
        {"mountns", offsetof(sandbox_config, mountns)}, {"ipc_uts", offsetof(sandbox_config, ipc_uts_ns)},
        {"pidns", offsetof(sandbox_config, pid_ns)},    {"landlock", offsetof(sandbox_config, landlock)},
        {"seccomp", offsetof(sandbox_config, seccomp)}, {"rlimits", offsetof(sandbox_config, rlimits)},
    };
    for (size_t i = 0; i < sizeof optional / sizeof optional[0]; i++)
        if (name_in_list(cfg->skip, optional[i].name)) *(bool *)((char *)sc + optional[i].offset) = false;
}

/* In a fork server and, by inheritance, in every worker it forks: the namespaces it entered once
 * for all of them, and for which sandbox (a worker of another sandbox is never forked from it). */
static bool shared_applied;
static sandbox_report shared_report;

int isolate_confine_shared(const isolate_sandbox *cfg, int shared_netns_fd, char **error)
{
    sandbox_config sc;
    config_from(cfg, shared_netns_fd, -1, &sc);
    sandbox_apply_shared(&sc, &shared_report);
    if (shared_report.late_identity || (geteuid() == 0 && !shared_report.identity.applied)) {
        /* it would stay host root for as long as it serves: workers are exec'd one by one */
        *error = xasprintf("a fork server would keep root's identity here (%s)",
                           shared_report.late_identity ? "no unprivileged user namespaces" : shared_report.identity.detail);
        return -1;
    }
    shared_applied = true;
    return 0;
}

int isolate_confine(const isolate_sandbox *cfg, int shared_netns_fd, int parent_mntns_fd, json_t **report, char **error)
{
    sandbox_config sc;
    config_from(cfg, shared_netns_fd, parent_mntns_fd, &sc);
    sandbox_report rep;
    memset(&rep, 0, sizeof rep);
    int rc;
    if (shared_applied) {
        /* forked by a fork server: in its namespaces already, and pid 1 of a pid namespace of
         * its own (it was cloned into one) */
        if (shared_netns_fd >= 0) close(shared_netns_fd);
        if (parent_mntns_fd >= 0) close(parent_mntns_fd);
        rep = shared_report;
        sc.pid1_given = true;
        rc = sandbox_apply_own(&sc, &rep);
    } else {
        /* pid 1 already: its parent cloned it into a pid namespace of its own (spawn.c), so the
         * pid layer needs no fork (getpid is 1 in no other case: a parent cannot fake it) */
        sc.pid1_given = getpid() == 1;
        rc = sandbox_apply_all(&sc, &rep);
    }
    json_t *layers = json_array();
    layer(layers, "identity", &rep.identity);
    layer(layers, "userns", &rep.userns);
    layer(layers, "netns", &rep.netns);
    layer(layers, "mountns", &rep.mountns);
    layer(layers, "ipc/uts", &rep.ipc_uts_ns);
    layer(layers, "pidns", &rep.pid_ns);
    layer(layers, "caps", &rep.caps);
    layer(layers, "rlimits", &rep.rlimits);
    layer(layers, "fds", &rep.fds);
    layer(layers, "landlock", &rep.landlock);
    layer(layers, "seccomp", &rep.seccomp);
    json_t *r = json_object();
    json_object_set(r, "layers", layers);
    char *summary = sandbox_report_summary(&rep);
    json_object_set(r, "summary", json_string(summary));
    free(summary);
    *report = r;
    if (rc != 0) {
        *error = xstrdup(rep.error[0] ? rep.error : "the sandbox could not be applied");
        return -1;
    }
    return 0;
}

char *isolate_banner(const json_t *report)
{
    /* The summary comes from the worker: print it bounded and only if it is plain text. */
    const json_t *s = json_object_get(report, "summary");
    if (!json_is_string(s) || s->u.string.len > 1024) return xstrdup(ISOLATE_NO_SUMMARY);
    buf b = {0};
    for (size_t i = 0; i < s->u.string.len; i++) {
        unsigned char c = (unsigned char)s->u.string.bytes[i];
        buf_putc(&b, c >= 0x20 && c != 0x7f ? (char)c : '?');
    }
    return buf_steal(&b);
}

/* Test-only probes: one forbidden act by the confined worker, reported as JSON text {"probe",
 * "outcome"}. A probe that seccomp kills never returns; the parent names the blocked syscall. */
char *isolate_selftest(const char *probe)
{
    int rc = sandbox_selftest(probe);
    char outcome[64];
    if (rc > 0) snprintf(outcome, sizeof outcome, "blocked (%s)", strerrorname_np(rc) ? strerrorname_np(rc) : "error");
    else snprintf(outcome, sizeof outcome, "%s", rc == 0 ? "NOT BLOCKED" : "unknown probe");
    json_t *o = json_object();
    json_object_set(o, "probe", json_string(probe));
    json_object_set(o, "outcome", json_string(outcome));
    char *text = json_dump(o, JSON_COMPACT, NULL);
    json_free(o);
    return text;
}

void isolate_options_from_settings(isolate_options *o, const settings *s)
{
    memset(o, 0, sizeof *o);
    o->sandbox.require = settings_flag(s, "CHIDORI_ISOLATE_REQUIRE_SANDBOX");
    const char *skip = settings_text(s, "CHIDORI_ISOLATE_SKIP"); /* its length was checked */
    snprintf(o->sandbox.skip, sizeof o->sandbox.skip, "%s", skip ? skip : "");
    o->selftest = settings_nonempty(s, "CHIDORI_ISOLATE_SELFTEST");
    o->no_ahead = !settings_flag(s, "CHIDORI_ISOLATE_AHEAD");
    o->deadline_ms = settings_u64(s, "CHIDORI_ISOLATE_DEADLINE_MS");
    o->sandbox.cpu_secs = settings_u64(s, "CHIDORI_ISOLATE_CPU_SECS");
    o->sandbox.fsize_bytes = settings_u64(s, "CHIDORI_ISOLATE_FSIZE_BYTES");
    /* Given (even as 0, which turns them off), they replace the supervisor's backstop derived from
     * the run's own limits (supervisor.c, docs/limits.md). */
    o->deadline_ms_set = settings_given(s, "CHIDORI_ISOLATE_DEADLINE_MS");
    o->cpu_secs_set = settings_given(s, "CHIDORI_ISOLATE_CPU_SECS");
    o->cgroup_root = settings_nonempty(s, "CHIDORI_ISOLATE_CGROUP");
    o->asan_options = settings_env(s, "ASAN_OPTIONS");
    o->ubsan_options = settings_env(s, "UBSAN_OPTIONS");
}

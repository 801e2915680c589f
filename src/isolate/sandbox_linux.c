/* sandbox_linux.c — confinement of the calling process (the `chidori __run-worker` child): the
 * ORDER in which the layers are applied, in one function (apply_layers), and the report it fills.
 * The layers live one concern to a file: sandbox_ns.c (namespaces), sandbox_caps.c (identity and
 * capabilities), sandbox_rlimits.c (rlimits, descriptors, CPU), sandbox_landlock.c,
 * sandbox_seccomp.c; the parent-side cgroup is sandbox_cgroup.c.
 *
 * Trusts: the config (confine.c builds it from validated settings). Must never: return success
 * from sandbox_apply_own for a process that is still host root, or that lacks a core layer under
 * require. */
#define _GNU_SOURCE
#include "isolate/sandbox_layers.h"

#include "util/buf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

/* ---- statuses and kernel files ---- */

sandbox_status sandbox_status_of(bool applied, const char *fmt, ...)
{
    sandbox_status s = {.applied = applied};
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s.detail, sizeof s.detail, fmt, ap);
    va_end(ap);
    return s;
}

int sandbox_write_file(const char *path, const char *text)
{
    return sandbox_write_fd(open(path, O_WRONLY | O_CLOEXEC), text);
}

int sandbox_write_fd(int fd, const char *text)
{
    if (fd < 0) return -1;
    size_t n = strlen(text);
    ssize_t w = write(fd, text, n);
    int e = errno;
    close(fd);
    if (w != (ssize_t)n) {
        errno = w < 0 ? e : EIO;
        return -1;
    }
    return 0;
}

int sandbox_read_file(const char *path, char *out, size_t cap)
{
    return sandbox_read_fd(open(path, O_RDONLY | O_CLOEXEC), out, cap);
}

int sandbox_read_fd(int fd, char *out, size_t cap)
{
    if (fd < 0) return -1;
    ssize_t n = read(fd, out, cap - 1);
    close(fd);
    if (n < 0) return -1;
    out[n] = 0;
    return (int)n;
}

/* ---- config ---- */

void sandbox_config_default(sandbox_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->userns = cfg->netns = cfg->mountns = cfg->ipc_uts_ns = cfg->pid_ns = true;
    cfg->landlock = cfg->seccomp = cfg->rlimits = true;
    cfg->seccomp_name_blocked = true;
    cfg->close_fds = true;
    cfg->nofile = 256;
    cfg->unprivileged_uid = 65534;
    cfg->unprivileged_gid = 65534;
    cfg->shared_netns_fd = -1;
    cfg->parent_mntns_fd = -1;
}

/* ---- the steps apply_layers takes in more than one line ---- */

static void report_disabled(sandbox_report *r)
{
    memset(r, 0, sizeof *r);
    sandbox_status off = sandbox_skip("disabled");
    r->identity = r->userns = r->netns = r->mountns = r->ipc_uts_ns = r->pid_ns = off;
    r->caps = r->rlimits = r->fds = r->landlock = r->seccomp = off;
}

static void join_parent_netns(const sandbox_config *cfg, sandbox_report *r)
{
    if (cfg->netns) r->netns = sandbox_netns_join(cfg->shared_netns_fd);
    else close(cfg->shared_netns_fd);
}

/* The empty mount namespace the parent made (parent_mntns.c). Joining it hides /proc, which the
 * user namespace's maps are written through: a descriptor of it is held until they are
 * (sandbox_proc_release), or, where none can be, the namespace is not joined and the worker makes
 * its own later. */
static void join_parent_mntns(const sandbox_config *cfg, sandbox_report *r)
{
    if (cfg->mountns && sandbox_proc_hold() == 0) r->mountns = sandbox_mountns_join(cfg->parent_mntns_fd);
    else close(cfg->parent_mntns_fd);
}

/* Root drops its identity before it makes the user namespace, so that it is root in neither; where
 * unprivileged user namespaces are disabled it cannot, and r->late_identity says root drops it in
 * its own part instead, after making the namespaces with its own capabilities. */
static void identity_then_userns(const sandbox_config *cfg, sandbox_report *r)
{
    bool root = geteuid() == 0;
    char why[96] = "";
    if (cfg->userns) {
        if (root) {
            if (sandbox_userns_allowed(why, sizeof why)) {
                r->identity = sandbox_drop_identity(cfg, true);
            } else {
                r->late_identity = true;
            }
        }
        if (r->late_identity) {
            r->userns = sandbox_skip("unprivileged user namespaces disabled (%s); root creates the namespaces, then drops to uid %u", why,
                                     (unsigned)cfg->unprivileged_uid);
        } else {
            r->userns = sandbox_userns();
        }
    } else if (root) {
        r->late_identity = true;
    }
}

/* The bounding set, once and for every worker of a fork server (64 calls; a new user namespace
 * would fill it again, but a worker can make none). Not dumpable from here (the maps are written):
 * no process of our uid may read or write this one's memory through /proc, nor that of any worker
 * a fork server forks. */
static void seal_shared(sandbox_report *r)
{
    sandbox_drop_bounding_set();
    r->bounding_dropped = true;
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

/* Root that made the namespaces: the bounding set while it still has CAP_SETPCAP, then nobody. */
static void late_identity(const sandbox_config *cfg, sandbox_report *r)
{
    sandbox_drop_bounding_set();
    r->bounding_dropped = true;
    r->identity = sandbox_drop_identity(cfg, false);
}

static bool set_error(sandbox_report *r, const char *layer, const sandbox_status *s)
{
    snprintf(r->error, sizeof r->error, "required sandbox layer %s could not be applied: %.160s", layer, s->detail);
    return true;
}

/* -1 with r->error when a core layer is missing under require, or when root could not drop its
 * identity (still host root with capabilities: never run agent code like that). */
static int refuse_if_unsafe(const sandbox_config *cfg, sandbox_report *r, bool was_root)
{
    if (cfg->require) {
        if (!r->seccomp.applied && set_error(r, "seccomp", &r->seccomp)) return -1;
        if (!r->landlock.applied && !r->mountns.applied) {
            sandbox_status both = sandbox_skip("landlock: %.70s; mountns: %.70s", r->landlock.detail, r->mountns.detail);
            set_error(r, "landlock-or-mountns", &both);
            return -1;
        }
        if (!r->netns.applied && set_error(r, "netns", &r->netns)) return -1;
    }
    if (was_root && !r->identity.applied && cfg->userns) {
        snprintf(r->error, sizeof r->error, "could not drop root: %s", r->identity.detail);
        return -1;
    }
    return 0;
}

/* ---- the order ---- */

enum { SHARED = 1, OWN = 2 };

/* Every layer, in the order it is applied. The SHARED part is what a fork server applies once, for
 * every worker it forks (forkserver.c); the OWN part is what each worker applies to itself; a
 * worker started on its own applies both. */
static int apply_layers(const sandbox_config *cfg, sandbox_report *r, unsigned part)
{
    if (part & SHARED) {
        report_disabled(r);
        /* The parent's empty network namespace first: it belongs to the initial user namespace, so
         * joining it takes a capability a root worker has only before the steps below. */
        if (cfg->shared_netns_fd >= 0) join_parent_netns(cfg, r);
        /* The parent's empty mount namespace, for the same reason (a run of its own, as root). */
        if (cfg->parent_mntns_fd >= 0) join_parent_mntns(cfg, r);
        /* Identity, then the user namespace: root becomes nobody before making it, so it is root in
         * neither; the user namespace gives the capabilities the next namespaces need. */
        identity_then_userns(cfg, r);
        sandbox_proc_release();
        /* Network, mount (the empty read-only root), ipc/uts: with those capabilities. */
        if (cfg->netns && !r->netns.applied) r->netns = sandbox_netns();
        if (cfg->mountns && !r->mountns.applied) r->mountns = sandbox_mountns();
        if (cfg->ipc_uts_ns) r->ipc_uts_ns = sandbox_ipc_uts_ns();
        /* Once the uid/gid maps are written: bounding set emptied, not dumpable. */
        if (!r->late_identity) seal_shared(r);
    }
    if (!(part & OWN)) return 0;
    bool was_root = geteuid() == 0;
    /* The cgroup namespace: the worker is in its own cgroup already (sandbox_cgroup_enter, first
     * thing), so its slot becomes the root it sees; never made by a fork server, which is in the
     * server's cgroup. */
    if (cfg->ipc_uts_ns) sandbox_cgroup_ns(&r->ipc_uts_ns);
    /* rlimits before the pid namespace's fork: the child inherits them, and the stub needs the CPU
     * limit to report a CPU kill as SIGXCPU. */
    uint64_t cpu_secs = 0;
    if (cfg->rlimits) r->rlimits = sandbox_rlimits(cfg, &cpu_secs);
    /* The pid namespace, while the capability to make one is still there: the caller that goes on
     * is pid 1 of a new one (a fork server's child was cloned into it already). */
    if (cfg->pid_ns && cfg->pid1_given)
        r->pid_ns = sandbox_ok("worker is pid 1 of a new pid namespace (cloned into it by its parent: no fork of its own)");
    else if (cfg->pid_ns)
        r->pid_ns = sandbox_pidns_fork(cpu_secs);
    /* Root that had to make the namespaces as root drops its identity now that they exist. */
    if (r->late_identity) late_identity(cfg, r);
    /* Capabilities: after every step that needed one. */
    r->caps = sandbox_drop_caps(r->bounding_dropped);
    /* Descriptors before Landlock: its rights are checked at open, so a stray inherited descriptor
     * would keep its rights. */
    if (cfg->close_fds) r->fds = sandbox_close_fds(cfg);
    /* Landlock before seccomp: its syscalls are not on the worker's allowlist. */
    if (cfg->landlock) r->landlock = sandbox_landlock(&r->landlock_abi);
    /* seccomp last: the allowlist is what the engine needs from here on, nothing the steps above
     * do. */
    if (cfg->seccomp) r->seccomp = sandbox_seccomp(cfg->seccomp_name_blocked);
    return refuse_if_unsafe(cfg, r, was_root);
}

void sandbox_apply_shared(const sandbox_config *cfg, sandbox_report *r)
{
    apply_layers(cfg, r, SHARED);
}

int sandbox_apply_own(const sandbox_config *cfg, sandbox_report *r)
{
    return apply_layers(cfg, r, OWN);
}

int sandbox_apply_all(const sandbox_config *cfg, sandbox_report *r)
{
    return apply_layers(cfg, r, SHARED | OWN);
}

/* ---- the report ---- */

char *sandbox_report_summary(const sandbox_report *r)
{
    buf b = {0};
    buf_puts(&b, "process (");
    int n = 0;
#define ADD(cond, ...)                          \
    do {                                        \
        if (cond) {                             \
            if (n++) buf_puts(&b, ", ");        \
            buf_printf(&b, __VA_ARGS__);        \
        }                                       \
    } while (0)
    ADD(r->userns.applied, "userns");
    ADD(r->netns.applied, "netns");
    ADD(r->mountns.applied, "mountns");
    ADD(r->pid_ns.applied || r->ipc_uts_ns.applied, "%s%s", r->pid_ns.applied ? "pid/" : "",
        r->ipc_uts_ns.applied ? "ipc/uts" : "");
    ADD(r->landlock.applied, "landlock abi %d", r->landlock_abi);
    ADD(r->seccomp.applied, "seccomp allowlist");
    ADD(r->rlimits.applied, "rlimits");
    buf_putc(&b, ')');
    const struct {
        const char *name;
        const sandbox_status *s;
    } all[] = {{"userns", &r->userns}, {"netns", &r->netns}, {"mountns", &r->mountns}, {"ipc/uts", &r->ipc_uts_ns},
               {"pidns", &r->pid_ns}, {"landlock", &r->landlock}, {"seccomp", &r->seccomp}, {"rlimits", &r->rlimits}};
    int skipped = 0;
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        if (all[i].s->applied) continue;
        buf_puts(&b, skipped++ ? "; " : "; skipped: ");
        buf_printf(&b, "%s (%s)", all[i].name, all[i].s->detail);
    }
#undef ADD
    return buf_steal(&b);
}

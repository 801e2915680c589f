/* sandbox_ns.c — the namespaces a worker is confined in: user, network, mount, ipc/uts, cgroup
 * and pid. Each is one unshare (or a setns into the empty network or mount namespace the parent
 * made), applied to the calling, single-threaded process; sandbox_linux.c decides the order.
 *
 *   user      unshare(CLONE_NEWUSER); setgroups "deny"; uid_map/gid_map map our own ids (identity,
 *             one id). Works rootless; gives the capabilities the next steps need inside the
 *             namespace only.
 *   network   unshare(CLONE_NEWNET): no interfaces except `lo`, which stays down.
 *   mount     unshare(CLONE_NEWNS); everything made private; a 4 KiB read-only tmpfs is mounted
 *             and pivot_root'ed into; the old root is detached (MNT_DETACH). What remains: an
 *             empty read-only `/` (no /proc, /dev, /tmp, no host file); already-open fds (the
 *             broker pipes, stderr) and the mapped executable and libraries (already in memory).
 *             dlopen, getpwnam, locale/iconv loading and ASan symbolization therefore cannot work
 *             after this point. A parent running as root makes this namespace on a thread while
 *             the worker execs (parent_mntns.c: the same steps after the unshare); the worker
 *             joins it first, while still root, and reaches /proc through a held descriptor until
 *             its user namespace's maps are written.
 *   ipc, uts  unshare(CLONE_NEWIPC|CLONE_NEWUTS); the cgroup namespace is made later, by the
 *             worker once it is in its own cgroup.
 *   pid       Where the parent could clone the worker straight into a new pid namespace (spawn.c,
 *             root) the worker is pid 1 from its exec and nothing here runs. Otherwise:
 *             CLONE_NEWPID only affects children, so sandbox_pidns_fork unshares it and FORKS: the
 *             child becomes pid 1 of the new pid namespace and is the process that returns; the
 *             original process becomes a small stub (own seccomp filter: wait4/exit/kill-self
 *             only) that waits for it and mirrors its end exactly (same exit code, or re-raises
 *             the same signal, so the parent still sees WTERMSIG == SIGSYS / SIGKILL / SIGXCPU) and
 *             never returns. The child has PR_SET_PDEATHSIG(SIGKILL), so the parent's deadline
 *             SIGKILL to the pid it spawned takes both down.
 *
 * Trusts: nothing but the kernel; reads /proc/sys only to learn whether user namespaces are
 * allowed. Must never: leave the calling process in a half-made namespace without saying so in
 * the returned status. */
#define _GNU_SOURCE
#include "isolate/sandbox_layers.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <linux/magic.h>
#include <sys/mount.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef CLONE_NEWCGROUP
#define CLONE_NEWCGROUP 0x02000000
#endif

/* ---- /proc, through a held descriptor while a joined mount namespace hides it ---- */

static int proc_dir = -1;

int sandbox_proc_hold(void)
{
    if (proc_dir < 0) proc_dir = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
    return proc_dir >= 0 ? 0 : -1;
}

void sandbox_proc_release(void)
{
    if (proc_dir >= 0) close(proc_dir);
    proc_dir = -1;
}

/* name under /proc ("self/uid_map"), opened with flags: through the held descriptor if any */
static int proc_open(const char *name, int flags)
{
    if (proc_dir >= 0) return openat(proc_dir, name, flags | O_CLOEXEC);
    char path[128];
    snprintf(path, sizeof path, "/proc/%s", name);
    return open(path, flags | O_CLOEXEC);
}

/* ---- user namespace ---- */

bool sandbox_userns_allowed(char *why, size_t whylen)
{
    static const struct {
        const char *sysctl;
        int forbids; /* the value that forbids them */
    } knobs[] = {
        {"kernel.unprivileged_userns_clone", 0},
        {"user.max_user_namespaces", 0},
        {"kernel.apparmor_restrict_unprivileged_userns", 1},
    };
    for (size_t i = 0; i < sizeof knobs / sizeof knobs[0]; i++) {
        char name[96], b[32];
        snprintf(name, sizeof name, "sys/%s", knobs[i].sysctl);
        for (char *c = name + 4; *c; c++)
            if (*c == '.') *c = '/';
        if (sandbox_read_fd(proc_open(name, O_RDONLY), b, sizeof b) > 0 && atoi(b) == knobs[i].forbids) {
            snprintf(why, whylen, "%s=%d", knobs[i].sysctl, knobs[i].forbids);
            return false;
        }
    }
    return true;
}

sandbox_status sandbox_userns(void)
{
    uid_t uid = geteuid();
    gid_t gid = getegid();
    if (unshare(CLONE_NEWUSER) < 0) return sandbox_skip("unshare(CLONE_NEWUSER): %s", strerror(errno));
    char map[64];
    if (sandbox_write_fd(proc_open("self/setgroups", O_WRONLY), "deny") < 0 && errno != ENOENT)
        return sandbox_ok("in a new user namespace, but setgroups deny failed: %s", strerror(errno));
    snprintf(map, sizeof map, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
    if (sandbox_write_fd(proc_open("self/uid_map", O_WRONLY), map) < 0)
        return sandbox_ok("in a new user namespace, but uid_map failed: %s", strerror(errno));
    snprintf(map, sizeof map, "%u %u 1\n", (unsigned)gid, (unsigned)gid);
    if (sandbox_write_fd(proc_open("self/gid_map", O_WRONLY), map) < 0)
        return sandbox_ok("in a new user namespace, but gid_map failed: %s", strerror(errno));
    return sandbox_ok("uid %u mapped to itself, setgroups denied", (unsigned)uid);
}

/* ---- network, mount, ipc/uts, cgroup namespaces ---- */

/* Join the empty namespace the parent made (shared_netns.c); done first, while a root worker
 * still has the capability to (the namespace belongs to the initial user namespace). */
sandbox_status sandbox_netns_join(int fd)
{
    int rc = setns(fd, CLONE_NEWNET);
    int e = errno;
    close(fd);
    if (rc < 0) return sandbox_skip("setns(the parent's empty network namespace): %s", strerror(e));
    return sandbox_ok("empty, made by the parent, lo down");
}

sandbox_status sandbox_netns(void)
{
    if (unshare(CLONE_NEWNET) < 0) return sandbox_skip("unshare(CLONE_NEWNET): %s", strerror(errno));
    return sandbox_ok("empty, lo down");
}

sandbox_status sandbox_mountns(void)
{
    if (unshare(CLONE_NEWNS) < 0) return sandbox_skip("unshare(CLONE_NEWNS): %s", strerror(errno));
    return sandbox_empty_root();
}

sandbox_status sandbox_mountns_join(int fd)
{
    int rc = setns(fd, CLONE_NEWNS); /* root and working folder: the namespace's own root */
    int e = errno;
    close(fd);
    if (rc < 0) return sandbox_skip("setns(the parent's empty mount namespace): %s", strerror(e));
    /* what the parent checked, checked again: whatever it did, this process is where it says */
    if (!sandbox_root_is_empty())
        return sandbox_skip("the parent's mount namespace does not have an empty read-only root");
    return sandbox_ok("empty read-only root, made by the parent, host tree detached");
}

bool sandbox_root_is_empty(void)
{
    struct statfs sf;
    if (statfs("/", &sf) != 0 || (unsigned long)sf.f_type != TMPFS_MAGIC || !(sf.f_flags & ST_RDONLY)) return false;
    DIR *d = opendir("/");
    if (!d) return false;
    int entries = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) entries++;
    closedir(d);
    return entries == 0;
}

sandbox_status sandbox_empty_root(void)
{
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
        return sandbox_skip("in a new mount namespace, but making / private failed: %s", strerror(errno));
    /* Any existing directory serves as the mount point of the new, empty root. */
    const char *mp = access("/tmp", F_OK) == 0 ? "/tmp" : "/mnt";
    if (mount("chidori-empty", mp, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,nr_inodes=4,mode=0555") < 0)
        return sandbox_skip("in a new mount namespace, but mounting an empty tmpfs failed: %s", strerror(errno));
    if (chdir(mp) < 0) return sandbox_skip("chdir(%s): %s", mp, strerror(errno));
    /* pivot_root(".", ".") stacks the old root on the new one; detaching "." then removes it. */
    if (syscall(SYS_pivot_root, ".", ".") < 0) {
        int e = errno;
        chdir("/");
        return sandbox_skip("in a new mount namespace, but pivot_root failed: %s", strerror(e));
    }
    if (umount2(".", MNT_DETACH) < 0) return sandbox_skip("umount of the old root failed: %s", strerror(errno));
    if (chdir("/") < 0) return sandbox_skip("chdir(/): %s", strerror(errno));
    if (mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
        return sandbox_ok("empty tmpfs root (remount read-only failed: %s)", strerror(errno));
    return sandbox_ok("empty read-only root, host tree detached");
}

sandbox_status sandbox_ipc_uts_ns(void)
{
    const char *failed[2];
    int nf = 0;
    if (unshare(CLONE_NEWIPC) < 0) failed[nf++] = "ipc";
    if (unshare(CLONE_NEWUTS) < 0) failed[nf++] = "uts";
    else sethostname("chidori", 7);
    if (nf == 2) return sandbox_skip("unshare(ipc, uts): %s", strerror(errno));
    if (nf) return sandbox_ok("ipc/uts (%s failed)", failed[0]);
    return sandbox_ok("ipc, uts");
}

/* The cgroup namespace: made by each worker once it is in its own cgroup (its slot becomes the
 * root it sees), so never by a fork server, which is in the server's. Added to the ipc/uts line. */
void sandbox_cgroup_ns(sandbox_status *ipc_uts)
{
    bool made = unshare(CLONE_NEWCGROUP) == 0;
    size_t n = strlen(ipc_uts->detail);
    if (made && !ipc_uts->applied) *ipc_uts = sandbox_ok("cgroup (%.120s)", ipc_uts->detail);
    else snprintf(ipc_uts->detail + n, sizeof ipc_uts->detail - n, made ? ", cgroup" : ", cgroup failed");
}

/* ---- pid namespace: unshare + fork; the original process becomes a mirroring stub ---- */

/* Raw exit: no libc/sanitizer exit hooks may run under the stub's tiny filter. */
static void __attribute__((noreturn)) stub_exit(int code)
{
    for (;;) syscall(SYS_exit_group, code);
}

static void __attribute__((noreturn)) pid_stub(pid_t child, int alive_fd, uint64_t cpu_secs)
{
    /* Hold nothing but the liveness pipe: the parent must see EOF on the broker pipes when the
     * worker exits. */
    if (alive_fd > 0) syscall(SYS_close_range, 0, (unsigned)alive_fd - 1, 0);
    syscall(SYS_close_range, (unsigned)alive_fd + 1, ~0U, 0);
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    sandbox_seccomp_stub();
    int status = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    for (;;) {
        pid_t r = wait4(child, &status, 0, &ru);
        if (r == child) break;
        if (r < 0 && errno != EINTR) stub_exit(125);
    }
    if (WIFEXITED(status)) stub_exit(WEXITSTATUS(status));
    int sig = WIFSIGNALED(status) ? WTERMSIG(status) : SIGKILL;
    /* pid 1 of a namespace ignores SIGXCPU (the kernel does not force it on an init), so a CPU
     * limit shows up as the hard-limit SIGKILL: report it as SIGXCPU, as without a pid ns. */
    if (sig == SIGKILL && cpu_secs > 0 && (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) >= cpu_secs)
        sig = SIGXCPU;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigaction(sig, &sa, NULL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    kill(getpid(), sig);
    stub_exit(128 + sig);
}

sandbox_status sandbox_pidns_fork(uint64_t cpu_secs)
{
    if (unshare(CLONE_NEWPID) < 0) return sandbox_skip("unshare(CLONE_NEWPID): %s", strerror(errno));
    int alive[2];
    if (pipe2(alive, O_CLOEXEC) < 0) return sandbox_skip("pipe2: %s", strerror(errno));
    pid_t parent_pid = getpid();
    fflush(NULL);
    pid_t child = fork();
    if (child < 0) {
        int e = errno;
        close(alive[0]);
        close(alive[1]);
        return sandbox_skip("fork into the pid namespace: %s", strerror(e));
    }
    if (child > 0) {
        close(alive[0]);
        pid_stub(child, alive[1], cpu_secs); /* holds alive[1] until it dies */
    }
    close(alive[1]);
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    /* The stub may have died before PDEATHSIG was armed: then its end of the pipe is closed. */
    struct pollfd pfd = {.fd = alive[0], .events = POLLIN};
    if (poll(&pfd, 1, 0) != 0) _exit(125);
    close(alive[0]);
    return sandbox_ok("worker is pid %d of a new pid namespace (stub %d mirrors its exit)", (int)getpid(), (int)parent_pid);
}

/* sandbox_linux.c — the worker's confinement layers (see sandbox_linux.h for the order, what
 * remains visible, and how the seccomp allowlist was derived). Raw syscalls and hand-written
 * classic BPF: no libseccomp, no extra shared library at start-up. */
#define _GNU_SOURCE
#include "isolate/sandbox_linux.h"

#include "util/buf.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#ifndef __x86_64__
#error "sandbox_linux.c: the seccomp filter and syscall table are written for x86_64"
#endif

/* ---- Landlock UAPI (the system header may predate ABI 4+) ---- */
#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#define __NR_landlock_add_rule 445
#define __NR_landlock_restrict_self 446
#endif
#define LL_CREATE_RULESET_VERSION (1U << 0)
#define LL_FS_ABI1 ((1ULL << 13) - 1) /* EXECUTE .. MAKE_SYM */
#define LL_FS_REFER (1ULL << 13)       /* ABI 2 */
#define LL_FS_TRUNCATE (1ULL << 14)    /* ABI 3 */
#define LL_FS_IOCTL_DEV (1ULL << 15)   /* ABI 5 */
#define LL_FS_RESOLVE_UNIX (1ULL << 16) /* ABI 9 */
#define LL_NET_BIND_TCP (1ULL << 0)    /* ABI 4 */
#define LL_NET_CONNECT_TCP (1ULL << 1)
#define LL_SCOPE_ABSTRACT_UNIX (1ULL << 0) /* ABI 6 */
#define LL_SCOPE_SIGNAL (1ULL << 1)
struct ll_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

#ifndef CLONE_NEWCGROUP
#define CLONE_NEWCGROUP 0x02000000
#endif
#ifndef PR_CAP_AMBIENT
#define PR_CAP_AMBIENT 47
#define PR_CAP_AMBIENT_CLEAR_ALL 4
#endif

static sandbox_status st_ok(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static sandbox_status st_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static sandbox_status st_ok(const char *fmt, ...)
{
    sandbox_status s = {.applied = true};
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s.detail, sizeof s.detail, fmt, ap);
    va_end(ap);
    return s;
}

static sandbox_status st_skip(const char *fmt, ...)
{
    sandbox_status s = {.applied = false};
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s.detail, sizeof s.detail, fmt, ap);
    va_end(ap);
    return s;
}

/* One write of text to an existing kernel file (/proc, cgroupfs); shared with sandbox_cgroup.c. */
int sandbox_write_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
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

static int read_small_file(const char *path, char *out, size_t cap)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
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
    cfg->join_cpu = -1;
    cfg->shared_netns_fd = -1;
}


/* ---- identity / user namespace ---- */

/* Whether an unprivileged process may create a user namespace here. */
static bool unprivileged_userns_allowed(char *why, size_t whylen)
{
    char b[32];
    if (read_small_file("/proc/sys/kernel/unprivileged_userns_clone", b, sizeof b) > 0 && atoi(b) == 0) {
        snprintf(why, whylen, "kernel.unprivileged_userns_clone=0");
        return false;
    }
    if (read_small_file("/proc/sys/user/max_user_namespaces", b, sizeof b) > 0 && atoi(b) == 0) {
        snprintf(why, whylen, "user.max_user_namespaces=0");
        return false;
    }
    if (read_small_file("/proc/sys/kernel/apparmor_restrict_unprivileged_userns", b, sizeof b) > 0 && atoi(b) == 1) {
        snprintf(why, whylen, "kernel.apparmor_restrict_unprivileged_userns=1");
        return false;
    }
    return true;
}

sandbox_status sandbox_drop_identity(const sandbox_config *cfg, bool before_userns)
{
    if (geteuid() != 0) return st_skip("not root (uid %u)", (unsigned)geteuid());
    uid_t u = cfg->unprivileged_uid;
    gid_t g = cfg->unprivileged_gid;
    pid_t parent = getppid();
    if (setgroups(0, NULL) < 0) return st_skip("setgroups: %s", strerror(errno));
    if (setresgid(g, g, g) < 0) return st_skip("setresgid(%u): %s", (unsigned)g, strerror(errno));
    if (setresuid(u, u, u) < 0) return st_skip("setresuid(%u): %s", (unsigned)u, strerror(errno));
    /* chidori: a credential change clears the parent-death signal the supervisor set; set it
     * again, and leave at once if the parent already died in between. */
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (getppid() != parent) _exit(127);
    /* A uid change clears "dumpable", which makes /proc/self/{uid,gid}_map root-owned and so
     * unwritable for us; restore it until the maps are written (caps step sets it to 0). */
    if (before_userns) prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
    return st_ok("uid/gid %u/%u", (unsigned)u, (unsigned)g);
}

sandbox_status sandbox_userns(void)
{
    uid_t uid = geteuid();
    gid_t gid = getegid();
    if (unshare(CLONE_NEWUSER) < 0) return st_skip("unshare(CLONE_NEWUSER): %s", strerror(errno));
    char map[64];
    if (sandbox_write_file("/proc/self/setgroups", "deny") < 0 && errno != ENOENT)
        return st_ok("in a new user namespace, but setgroups deny failed: %s", strerror(errno));
    snprintf(map, sizeof map, "%u %u 1\n", (unsigned)uid, (unsigned)uid);
    if (sandbox_write_file("/proc/self/uid_map", map) < 0)
        return st_ok("in a new user namespace, but uid_map failed: %s", strerror(errno));
    snprintf(map, sizeof map, "%u %u 1\n", (unsigned)gid, (unsigned)gid);
    if (sandbox_write_file("/proc/self/gid_map", map) < 0)
        return st_ok("in a new user namespace, but gid_map failed: %s", strerror(errno));
    return st_ok("uid %u mapped to itself, setgroups denied", (unsigned)uid);
}

/* ---- other namespaces ---- */

/* Join the empty namespace the parent made (shared_netns.c); done first, while a root worker
 * still has the capability to (the namespace belongs to the initial user namespace). */
static sandbox_status join_shared_netns(int fd)
{
    int rc = setns(fd, CLONE_NEWNET);
    int e = errno;
    close(fd);
    if (rc < 0) return st_skip("setns(the parent's empty network namespace): %s", strerror(e));
    return st_ok("empty, made by the parent, lo down");
}

sandbox_status sandbox_netns(void)
{
    if (unshare(CLONE_NEWNET) < 0) return st_skip("unshare(CLONE_NEWNET): %s", strerror(errno));
    return st_ok("empty, lo down");
}

sandbox_status sandbox_mountns(void)
{
    if (unshare(CLONE_NEWNS) < 0) return st_skip("unshare(CLONE_NEWNS): %s", strerror(errno));
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
        return st_skip("in a new mount namespace, but making / private failed: %s", strerror(errno));
    /* Any existing directory serves as the mount point of the new, empty root. */
    const char *mp = access("/tmp", F_OK) == 0 ? "/tmp" : "/mnt";
    if (mount("chidori-empty", mp, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,nr_inodes=4,mode=0555") < 0)
        return st_skip("in a new mount namespace, but mounting an empty tmpfs failed: %s", strerror(errno));
    if (chdir(mp) < 0) return st_skip("chdir(%s): %s", mp, strerror(errno));
    /* pivot_root(".", ".") stacks the old root on the new one; detaching "." then removes it. */
    if (syscall(SYS_pivot_root, ".", ".") < 0) {
        int e = errno;
        chdir("/");
        return st_skip("in a new mount namespace, but pivot_root failed: %s", strerror(e));
    }
    if (umount2(".", MNT_DETACH) < 0) return st_skip("umount of the old root failed: %s", strerror(errno));
    if (chdir("/") < 0) return st_skip("chdir(/): %s", strerror(errno));
    if (mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
        return st_ok("empty tmpfs root (remount read-only failed: %s)", strerror(errno));
    return st_ok("empty read-only root, host tree detached");
}

sandbox_status sandbox_ipc_uts_ns(void)
{
    const char *failed[2];
    int nf = 0;
    if (unshare(CLONE_NEWIPC) < 0) failed[nf++] = "ipc";
    if (unshare(CLONE_NEWUTS) < 0) failed[nf++] = "uts";
    else sethostname("chidori", 7);
    if (nf == 2) return st_skip("unshare(ipc, uts): %s", strerror(errno));
    if (nf) return st_ok("ipc/uts (%s failed)", failed[0]);
    return st_ok("ipc, uts");
}

/* The cgroup namespace: made by each worker once it is in its own cgroup (its slot becomes the
 * root it sees), so never by a fork server, which is in the server's. Added to the ipc/uts line. */
static void cgroup_ns(sandbox_status *ipc_uts)
{
    bool made = unshare(CLONE_NEWCGROUP) == 0;
    size_t n = strlen(ipc_uts->detail);
    if (made && !ipc_uts->applied) *ipc_uts = st_ok("cgroup (%.120s)", ipc_uts->detail);
    else snprintf(ipc_uts->detail + n, sizeof ipc_uts->detail - n, made ? ", cgroup" : ", cgroup failed");
}

/* ---- pid namespace: unshare + fork; the original process becomes a mirroring stub ---- */

static void install_stub_filter(void);

static uint64_t stub_cpu_secs; /* RLIMIT_CPU soft limit, for SIGKILL → SIGXCPU mapping */

/* Raw exit: no libc/sanitizer exit hooks may run under the stub's tiny filter. */
static void __attribute__((noreturn)) stub_exit(int code)
{
    for (;;) syscall(SYS_exit_group, code);
}

static void __attribute__((noreturn)) pid_stub(pid_t child, int alive_fd)
{
    /* Hold nothing but the liveness pipe: the parent must see EOF on the broker pipes when the
     * worker exits. */
    if (alive_fd > 0) syscall(SYS_close_range, 0, (unsigned)alive_fd - 1, 0);
    syscall(SYS_close_range, (unsigned)alive_fd + 1, ~0U, 0);
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    install_stub_filter();
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
    if (sig == SIGKILL && stub_cpu_secs > 0 &&
        (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) >= stub_cpu_secs)
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

sandbox_status sandbox_pidns_fork(void)
{
    if (unshare(CLONE_NEWPID) < 0) return st_skip("unshare(CLONE_NEWPID): %s", strerror(errno));
    int alive[2];
    if (pipe2(alive, O_CLOEXEC) < 0) return st_skip("pipe2: %s", strerror(errno));
    pid_t parent_pid = getpid();
    fflush(NULL);
    pid_t child = fork();
    if (child < 0) {
        int e = errno;
        close(alive[0]);
        close(alive[1]);
        return st_skip("fork into the pid namespace: %s", strerror(e));
    }
    if (child > 0) {
        close(alive[0]);
        pid_stub(child, alive[1]); /* holds alive[1] until it dies */
    }
    close(alive[1]);
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    /* The stub may have died before PDEATHSIG was armed: then its end of the pipe is closed. */
    struct pollfd pfd = {.fd = alive[0], .events = POLLIN};
    if (poll(&pfd, 1, 0) != 0) _exit(125);
    close(alive[0]);
    return st_ok("worker is pid %d of a new pid namespace (stub %d mirrors its exit)", (int)getpid(), (int)parent_pid);
}

/* ---- capabilities ---- */

static void drop_bounding_set(void)
{
    for (int cap = 0; cap < 64; cap++) {
        if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 && errno == EINVAL) break;
    }
}

sandbox_status sandbox_drop_caps(bool bounding_dropped)
{
    if (!bounding_dropped) drop_bounding_set();
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
    struct __user_cap_header_struct hdr = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct data[2];
    memset(data, 0, sizeof data);
    if (syscall(SYS_capset, &hdr, data) < 0) return st_skip("capset: %s", strerror(errno));
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    return st_ok("all capabilities dropped, not dumpable");
}

/* ---- rlimits ---- */

sandbox_status sandbox_rlimits(const sandbox_config *cfg)
{
    char what[160] = "core 0";
    size_t n = strlen(what);
    struct rlimit zero = {0, 0};
    if (setrlimit(RLIMIT_CORE, &zero) < 0) return st_skip("RLIMIT_CORE: %s", strerror(errno));
    rlim_t nofile = cfg->nofile ? cfg->nofile : 256;
    struct rlimit nf = {nofile, nofile};
    if (setrlimit(RLIMIT_NOFILE, &nf) < 0) return st_skip("RLIMIT_NOFILE: %s", strerror(errno));
    n += snprintf(what + n, sizeof what - n, ", nofile %llu", (unsigned long long)nofile);
    setrlimit(RLIMIT_MEMLOCK, &zero);
    setrlimit(RLIMIT_MSGQUEUE, &zero);
    if (cfg->cpu_secs) {
        /* soft → SIGXCPU; hard one second later → SIGKILL (what a pid-ns init gets, see stub). */
        struct rlimit cpu = {cfg->cpu_secs, cfg->cpu_secs + 1};
        if (setrlimit(RLIMIT_CPU, &cpu) < 0) return st_skip("RLIMIT_CPU: %s", strerror(errno));
        stub_cpu_secs = cfg->cpu_secs;
        n += snprintf(what + n, sizeof what - n, ", cpu %llus", (unsigned long long)cfg->cpu_secs);
    }
    if (cfg->fsize_bytes) {
        struct rlimit fs = {cfg->fsize_bytes, cfg->fsize_bytes};
        if (setrlimit(RLIMIT_FSIZE, &fs) < 0) return st_skip("RLIMIT_FSIZE: %s", strerror(errno));
        n += snprintf(what + n, sizeof what - n, ", fsize %llu", (unsigned long long)cfg->fsize_bytes);
    }
    return st_ok("%s", what);
}

/* ---- fds ---- */

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

sandbox_status sandbox_close_fds(const sandbox_config *cfg)
{
    int keep[11];
    int nk = 0;
    for (int i = 0; i < 3; i++) keep[nk++] = i;
    for (int i = 0; i < cfg->n_keep_fds && i < 8; i++)
        if (cfg->keep_fds[i] > 2) keep[nk++] = cfg->keep_fds[i];
    qsort(keep, nk, sizeof keep[0], cmp_int);
    unsigned lo = 0;
    for (int i = 0; i < nk; i++) {
        if ((unsigned)keep[i] > lo && syscall(SYS_close_range, lo, (unsigned)keep[i] - 1, 0) < 0)
            return st_skip("close_range: %s", strerror(errno));
        lo = (unsigned)keep[i] + 1;
    }
    if (syscall(SYS_close_range, lo, ~0U, 0) < 0) return st_skip("close_range: %s", strerror(errno));
    return st_ok("%d kept", nk);
}

/* ---- Landlock ---- */

int sandbox_landlock_abi(void)
{
    long abi = syscall(__NR_landlock_create_ruleset, NULL, 0, LL_CREATE_RULESET_VERSION);
    return abi < 0 ? 0 : (int)abi;
}

sandbox_status sandbox_landlock(int *abi_out)
{
    int abi = sandbox_landlock_abi();
    if (abi_out) *abi_out = abi;
    if (abi <= 0) return st_skip("Landlock unavailable (%s)", strerror(errno));
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) return st_skip("PR_SET_NO_NEW_PRIVS: %s", strerror(errno));
    struct ll_ruleset_attr attr = {0};
    attr.handled_access_fs = LL_FS_ABI1;
    if (abi >= 2) attr.handled_access_fs |= LL_FS_REFER;
    if (abi >= 3) attr.handled_access_fs |= LL_FS_TRUNCATE;
    if (abi >= 5) attr.handled_access_fs |= LL_FS_IOCTL_DEV;
    if (abi >= 9) attr.handled_access_fs |= LL_FS_RESOLVE_UNIX;
    size_t size = sizeof attr.handled_access_fs;
    if (abi >= 4) {
        attr.handled_access_net = LL_NET_BIND_TCP | LL_NET_CONNECT_TCP;
        size = 2 * sizeof(uint64_t);
    }
    if (abi >= 6) {
        attr.scoped = LL_SCOPE_ABSTRACT_UNIX | LL_SCOPE_SIGNAL;
        size = sizeof attr;
    }
    int fd = (int)syscall(__NR_landlock_create_ruleset, &attr, size, 0);
    if (fd < 0) return st_skip("landlock_create_ruleset (abi %d): %s", abi, strerror(errno));
    /* No rule is added: every handled access is denied everywhere. */
    long rc = syscall(__NR_landlock_restrict_self, fd, 0);
    int e = errno;
    close(fd);
    if (rc < 0) return st_skip("landlock_restrict_self: %s", strerror(e));
    return st_ok("abi %d: all fs rights denied%s%s", abi, abi >= 4 ? ", tcp bind/connect denied" : "",
                 abi >= 6 ? ", signals and abstract unix sockets scoped" : "");
}

/* ---- seccomp ---- */

#define R(nr, flags, why) {nr, &(#nr)[4] /* the name without "SYS_" */, flags, why}
const sandbox_syscall_rule sandbox_seccomp_allow[] = {
    R(SYS_read, 0, "broker pipe"),
    R(SYS_write, 0, "broker pipe, stderr"),
    R(SYS_poll, 0, "frame_read deadline"),
    R(SYS_ppoll, 0, "frame_read deadline (libc variants)"),
    R(SYS_close, 0, "fd hygiene"),
    R(SYS_lseek, 0, "stdio on inherited fds"),
    R(SYS_ioctl, SANDBOX_ARG_TCGETS, "isatty() on stdio's first use (TCGETS only)"),
    R(SYS_fstat, 0, "stdio's first use of a stream"),
    R(SYS_newfstatat, 0, "glibc fstat() is newfstatat(fd, \"\", AT_EMPTY_PATH)"),
    R(SYS_brk, 0, "malloc (main arena)"),
    R(SYS_mmap, SANDBOX_ARG_NO_EXEC, "malloc, GC (never PROT_EXEC)"),
    R(SYS_munmap, 0, "malloc, GC"),
    R(SYS_mremap, 0, "realloc of large blocks"),
    R(SYS_mprotect, SANDBOX_ARG_NO_EXEC, "malloc heaps (never PROT_EXEC)"),
    R(SYS_madvise, 0, "free() trimming"),
    R(SYS_getrandom, 0, "per-runtime seeds"),
    R(SYS_clock_gettime, 0, "vDSO fallback"),
    R(SYS_gettimeofday, 0, "vDSO fallback"),
    R(SYS_rt_sigprocmask, 0, "frame_write blocks SIGPIPE"),
    R(SYS_rt_sigpending, 0, "frame_write: was SIGPIPE pending"),
    R(SYS_rt_sigtimedwait, 0, "frame_write consumes its SIGPIPE"),
    R(SYS_rt_sigreturn, 0, "return from the SIGSYS handler"),
    R(SYS_getpid, 0, "abort()"),
    R(SYS_gettid, 0, "abort()"),
    R(SYS_tgkill, SANDBOX_ARG_SELF_PID, "abort() raises on itself only"),
    R(SYS_exit, 0, "exit"),
    R(SYS_exit_group, 0, "exit"),
#if defined(__SANITIZE_ADDRESS__)
    /* ASan/UBSan runtime on the report and exit paths (instrumented builds only). */
    R(SYS_sigaltstack, 0, "ASan"),
    R(SYS_sched_yield, 0, "ASan spin locks"),
    R(SYS_futex, 0, "ASan"),
    R(SYS_prctl, 0, "ASan"),
    R(SYS_getrlimit, 0, "ASan"),
    R(SYS_prlimit64, 0, "ASan"),
    R(SYS_rt_sigaction, 0, "ASan installs handlers on error"),
#endif
};
const size_t sandbox_seccomp_allow_count = sizeof sandbox_seccomp_allow / sizeof sandbox_seccomp_allow[0];

const sandbox_syscall_rule sandbox_seccomp_enosys[] = {
    R(SYS_clone3, 0, "flags behind a pointer; libc falls back on ENOSYS"),
    R(SYS_openat2, 0, "open_how behind a pointer"),
    R(SYS_io_uring_setup, 0, "ring ops bypass seccomp"),
    R(SYS_io_uring_enter, 0, "ring ops bypass seccomp"),
    R(SYS_io_uring_register, 0, "ring ops bypass seccomp"),
};
const size_t sandbox_seccomp_enosys_count = sizeof sandbox_seccomp_enosys / sizeof sandbox_seccomp_enosys[0];
#undef R

#define OFF_NR offsetof(struct seccomp_data, nr)
#define OFF_ARCH offsetof(struct seccomp_data, arch)
#define OFF_ARG_LO(i) (offsetof(struct seccomp_data, args) + 8 * (i))
#define OFF_ARG_HI(i) (offsetof(struct seccomp_data, args) + 8 * (i) + 4)

typedef struct {
    struct sock_filter *ins;
    size_t n, cap;
} bpf_prog;

static void emit(bpf_prog *p, struct sock_filter f)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? p->cap * 2 : 128;
        p->ins = xrealloc(p->ins, p->cap * sizeof *p->ins);
    }
    p->ins[p->n++] = f;
}

/* Build the worker filter. deflt is SECCOMP_RET_TRAP or SECCOMP_RET_KILL_PROCESS. */
static void build_worker_filter(bpf_prog *p, uint32_t deflt, pid_t self)
{
    emit(p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, OFF_ARCH));
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0));
    emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
    emit(p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, OFF_NR));
    /* x32 (nr | 0x40000000) and anything above the native range. */
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, 0x40000000, 0, 1));
    emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SANDBOX_SECCOMP_DIE_NR, 0, 1));
    emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
    for (size_t i = 0; i < sandbox_seccomp_enosys_count; i++) {
        emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)sandbox_seccomp_enosys[i].nr, 0, 1));
        emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA)));
    }
    for (size_t i = 0; i < sandbox_seccomp_allow_count; i++) {
        const sandbox_syscall_rule *r = &sandbox_seccomp_allow[i];
        if (r->flags & SANDBOX_ARG_NO_EXEC) {
            /* nr? then: A = low half of prot; PROT_EXEC set → default, else allow. The kernel
             * reads prot as unsigned long but PROT_EXEC is in the low half either way. */
            emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)r->nr, 0, 4));
            emit(p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, OFF_ARG_LO(2)));
            emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, PROT_EXEC, 0, 1));
            emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, deflt));
            emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
        } else if (r->flags & SANDBOX_ARG_SELF_PID) {
            /* nr? then: args[0] must be exactly our pid (upper half 0). */
            emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)r->nr, 0, 6));
            emit(p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, OFF_ARG_HI(0)));
            emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 3));
            emit(p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, OFF_ARG_LO(0)));
            emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)self, 1, 0));
            emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, deflt));
            emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
        } else if (r->flags & SANDBOX_ARG_TCGETS) {
            /* nr? then: args[1] must be exactly TCGETS (the kernel reads the full 32-bit cmd;
             * the upper half must be 0 so no high-bit variant slips through). */
            emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)r->nr, 0, 6));
            emit(p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, OFF_ARG_HI(1)));
            emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 3));
            emit(p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, OFF_ARG_LO(1)));
            emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TCGETS, 1, 0));
            emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, deflt));
            emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
        } else {
            emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)r->nr, 0, 1));
            emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
        }
    }
    emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, deflt));
}

/* ---- the fork server's filter ---- */

/* A syscall the fork server's filter lets through only when argument `arg` is one of `values`
 * (the upper half 0); nvalues 0: any arguments. */
typedef struct forkserver_rule {
    int nr;
    int arg;
    uint32_t values[6];
    int nvalues;
    const char *why;
} forkserver_rule;

#ifndef NS_GET_NSTYPE
#define NS_GET_NSTYPE 0xb703 /* _IO(0xb7, 0x3) */
#endif

static const forkserver_rule forkserver_rules[] = {
    /* the fork server itself (forkserver.c) */
    {SYS_recvmsg, 0, {0}, 0, "its requests; a worker's handoff"},
    {SYS_sendto, 0, {0}, 0, "its answers (send)"},
    {SYS_clone, 0, {CLONE_PARENT | CLONE_NEWPID, CLONE_PARENT}, 2, "one worker per request, these flags only"},
    {SYS_getppid, 0, {0}, 0, "test-only forkserver_foreign_pid"},
    /* each worker it forks, before its own filter (become_worker, worker_main, sandbox_apply_own) */
    {SYS_prctl, 0, {PR_SET_PDEATHSIG, PR_SET_NAME, PR_CAP_AMBIENT, PR_SET_DUMPABLE, PR_SET_NO_NEW_PRIVS}, 5,
     "death signal, name, capabilities, no_new_privs"},
    {SYS_setsid, 0, {0}, 0, "a session of its own"},
    {SYS_fcntl, 1, {F_DUPFD_CLOEXEC}, 1, "its descriptors moved above 3"},
    {SYS_dup2, 0, {0}, 0, "its descriptors put in place as 0-3"},
    {SYS_close_range, 0, {0}, 0, "nothing else stays open"},
    {SYS_ioctl, 1, {TCGETS, NS_GET_NSTYPE}, 2, "isatty; is a handed descriptor a network namespace"},
    {SYS_fstatfs, 0, {0}, 0, "is a handed descriptor a cgroup file"},
    {SYS_geteuid, 0, {0}, 0, "root checks"},
    {SYS_unshare, 0, {CLONE_NEWCGROUP}, 1, "its cgroup namespace"},
    {SYS_prlimit64, 0, {0}, 1, "its rlimits (setrlimit: pid 0, itself)"},
    {SYS_capset, 0, {0}, 0, "drop every capability"},
    {SYS_sched_setaffinity, 0, {0}, 1, "join its parent's CPU (pid 0, itself)"},
    {SYS_landlock_create_ruleset, 0, {0}, 0, "its Landlock domain"},
    {SYS_landlock_add_rule, 0, {0}, 0, "its Landlock domain"},
    {SYS_landlock_restrict_self, 0, {0}, 0, "its Landlock domain"},
    {SYS_rt_sigaction, 0, {SIGSYS}, 1, "its SIGSYS handler (sandbox_seccomp)"},
    {SYS_seccomp, 0, {SECCOMP_SET_MODE_FILTER}, 1, "its own filter"},
};

static void emit_arg_in(bpf_prog *p, int nr, int arg, const uint32_t *values, int n, uint32_t deflt)
{
    /* nr? then: upper half of args[arg] 0 and lower half one of values, else deflt */
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, (uint8_t)(n + 5)));
    emit(p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, OFF_ARG_HI(arg)));
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, (uint8_t)(n + 1)));
    emit(p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, OFF_ARG_LO(arg)));
    for (int i = 0; i < n; i++)
        emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, values[i], (uint8_t)(n - i), 0));
    emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, deflt));
    emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
}

static void build_forkserver_filter(bpf_prog *p, uint32_t deflt)
{
    emit(p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, OFF_ARCH));
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0));
    emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
    emit(p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, OFF_NR));
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, 0x40000000, 0, 1));
    emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SANDBOX_SECCOMP_DIE_NR, 0, 1));
    emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
    /* clone3 too: its flags are behind a pointer; the fork server falls back to clone */
    for (size_t i = 0; i < sandbox_seccomp_enosys_count; i++) {
        emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)sandbox_seccomp_enosys[i].nr, 0, 1));
        emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA)));
    }
    for (size_t i = 0; i < sizeof forkserver_rules / sizeof forkserver_rules[0]; i++) {
        const forkserver_rule *r = &forkserver_rules[i];
        bool open_in_worker = false; /* the worker's allowlist has it with no argument check (ASan's) */
        for (size_t j = 0; j < sandbox_seccomp_allow_count; j++)
            if (sandbox_seccomp_allow[j].nr == r->nr && !sandbox_seccomp_allow[j].flags) open_in_worker = true;
        if (r->nvalues && !open_in_worker) {
            emit_arg_in(p, r->nr, r->arg, r->values, r->nvalues, deflt);
        } else {
            emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)r->nr, 0, 1));
            emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
        }
    }
    /* Everything a worker's own filter allows (ioctl is above, with the worker's TCGETS), with
     * the same argument checks but for tgkill: a worker's pid is not known yet (its own filter
     * narrows tgkill to itself). */
    for (size_t i = 0; i < sandbox_seccomp_allow_count; i++) {
        const sandbox_syscall_rule *r = &sandbox_seccomp_allow[i];
        if (r->flags & SANDBOX_ARG_TCGETS) continue;
        if (r->flags & SANDBOX_ARG_NO_EXEC) {
            emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)r->nr, 0, 4));
            emit(p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, OFF_ARG_LO(2)));
            emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, PROT_EXEC, 0, 1));
            emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, deflt));
            emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
            /* the rules that follow compare the syscall number again */
            emit(p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, OFF_NR));
            continue;
        }
        emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)r->nr, 0, 1));
        emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    }
    emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, deflt));
}

static int install_filter(bpf_prog *p)
{
    struct sock_fprog prog = {.len = (unsigned short)p->n, .filter = p->ins};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) return -1;
    return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

static void install_stub_filter(void)
{
    static const int allow[] = {SYS_wait4, SYS_exit, SYS_exit_group, SYS_rt_sigreturn, SYS_rt_sigaction,
                                SYS_rt_sigprocmask, SYS_kill, SYS_getpid, SYS_tgkill, SYS_gettid,
                                SYS_restart_syscall, SYS_close,
#if defined(__SANITIZE_ADDRESS__)
                                SYS_sigaltstack, SYS_munmap, SYS_mmap, SYS_madvise, SYS_write, SYS_getrlimit, SYS_prlimit64,
#endif
                                };
    bpf_prog p = {0};
    emit(&p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, OFF_ARCH));
    emit(&p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0));
    emit(&p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
    emit(&p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, OFF_NR));
    for (size_t i = 0; i < sizeof allow / sizeof allow[0]; i++) {
        emit(&p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)allow[i], 0, 1));
        emit(&p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    }
    emit(&p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
    install_filter(&p);
    free(p.ins);
}

/* SIGSYS handler: name the trapped syscall on fd 2, then die by the reserved syscall the filter
 * kills on. Async-signal-safe: static table, write(2), no stdio. */
static void sigsys_handler(int sig, siginfo_t *si, void *uctx)
{
    (void)sig;
    (void)uctx;
    char msg[128];
    size_t n = 0;
    const char *prefix = SANDBOX_SIGSYS_MARKER;
    for (const char *s = prefix; *s && n < sizeof msg - 40; s++) msg[n++] = *s;
    long nr = si->si_syscall;
    const char *name = syscall_name(nr);
    for (const char *s = name; *s && n < sizeof msg - 30; s++) msg[n++] = *s;
    const char *mid = " (nr ";
    for (const char *s = mid; *s; s++) msg[n++] = *s;
    char digits[24];
    int nd = 0;
    unsigned long v = nr < 0 ? 0 : (unsigned long)nr;
    do {
        digits[nd++] = (char)('0' + v % 10);
        v /= 10;
    } while (v && nd < (int)sizeof digits);
    while (nd) msg[n++] = digits[--nd];
    msg[n++] = ')';
    msg[n++] = '\n';
    syscall(SYS_write, 2, msg, n);
    syscall(SANDBOX_SECCOMP_DIE_NR);
    /* not reached: the filter kills on SANDBOX_SECCOMP_DIE_NR */
    syscall(SYS_exit_group, 159);
}

sandbox_status sandbox_seccomp(bool name_blocked)
{
    uint32_t deflt = SECCOMP_RET_KILL_PROCESS;
    if (name_blocked) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = sigsys_handler;
        sa.sa_flags = SA_SIGINFO;
        sigemptyset(&sa.sa_mask);
        if (sigaction(SIGSYS, &sa, NULL) == 0) {
            sigset_t set;
            sigemptyset(&set);
            sigaddset(&set, SIGSYS);
            sigprocmask(SIG_UNBLOCK, &set, NULL);
            deflt = SECCOMP_RET_TRAP;
        }
    }
    bpf_prog p = {0};
    build_worker_filter(&p, deflt, getpid());
    int rc = install_filter(&p);
    int e = errno;
    size_t ninsn = p.n;
    free(p.ins);
    if (rc < 0) return st_skip("seccomp(SET_MODE_FILTER): %s", strerror(e));
    return st_ok("allowlist of %zu syscalls, %zu ENOSYS, %zu BPF insns, default %s", sandbox_seccomp_allow_count,
                 sandbox_seccomp_enosys_count, ninsn, deflt == SECCOMP_RET_TRAP ? "trap→kill (named)" : "kill");
}

sandbox_status sandbox_seccomp_forkserver(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = sigsys_handler;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    uint32_t deflt = SECCOMP_RET_KILL_PROCESS;
    if (sigaction(SIGSYS, &sa, NULL) == 0) {
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, SIGSYS);
        sigprocmask(SIG_UNBLOCK, &set, NULL);
        deflt = SECCOMP_RET_TRAP;
    }
    bpf_prog p = {0};
    build_forkserver_filter(&p, deflt);
    int rc = install_filter(&p);
    int e = errno;
    size_t ninsn = p.n;
    free(p.ins);
    if (rc < 0) return st_skip("seccomp(SET_MODE_FILTER): %s", strerror(e));
    return st_ok("fork server allowlist, %zu BPF insns", ninsn);
}

bool sandbox_blocked_syscall_from_stderr(const char *text, size_t len, char *out, size_t outlen)
{
    const char *marker = SANDBOX_SIGSYS_MARKER;
    size_t ml = strlen(marker);
    bool found = false;
    for (size_t i = 0; i + ml <= len; i++) {
        if ((i == 0 || text[i - 1] == '\n') && memcmp(text + i, marker, ml) == 0) {
            size_t j = i + ml, k = 0;
            char name[40];
            while (j < len && k < sizeof name - 1 && ((text[j] >= 'a' && text[j] <= 'z') || (text[j] >= '0' && text[j] <= '9') || text[j] == '_'))
                name[k++] = text[j++];
            name[k] = 0;
            if (k == 0) continue;
            bool known = false;
            for (long nr = 0; nr < 1024 && !known; nr++)
                if (strcmp(syscall_name(nr), name) == 0) known = true;
            if (!known) continue;
            if (outlen) {
                snprintf(out, outlen, "%s", name);
            }
            found = true;
        }
    }
    return found;
}

/* ---- driver ---- */

static bool set_error(sandbox_report *r, const char *layer, const sandbox_status *s)
{
    snprintf(r->error, sizeof r->error, "required sandbox layer %s could not be applied: %.160s", layer, s->detail);
    return true;
}

/* The layers a fork server applies once for all the workers it forks (forkserver.c): identity,
 * the user, network, mount, ipc/uts namespaces. r->late_identity says whether root still has to
 * drop its identity (unprivileged user namespaces disabled here): sandbox_apply_own does it. */
void sandbox_apply_shared(const sandbox_config *cfg, sandbox_report *r)
{
    memset(r, 0, sizeof *r);
    sandbox_status off = st_skip("disabled");
    r->identity = r->userns = r->netns = r->mountns = r->ipc_uts_ns = r->pid_ns = off;
    r->caps = r->rlimits = r->fds = r->landlock = r->seccomp = off;

    bool root = geteuid() == 0;
    if (cfg->shared_netns_fd >= 0) {
        if (cfg->netns) r->netns = join_shared_netns(cfg->shared_netns_fd);
        else close(cfg->shared_netns_fd);
    }
    char why[96] = "";
    if (cfg->userns) {
        if (root) {
            if (unprivileged_userns_allowed(why, sizeof why)) {
                r->identity = sandbox_drop_identity(cfg, true);
            } else {
                r->late_identity = true;
            }
        }
        if (r->late_identity) {
            r->userns = st_skip("unprivileged user namespaces disabled (%s); root creates the namespaces, then drops to uid %u", why,
                                (unsigned)cfg->unprivileged_uid);
        } else {
            r->userns = sandbox_userns();
        }
    } else if (root) {
        r->late_identity = true;
    }
    if (cfg->netns && !r->netns.applied) r->netns = sandbox_netns();
    if (cfg->mountns) r->mountns = sandbox_mountns();
    if (cfg->ipc_uts_ns) r->ipc_uts_ns = sandbox_ipc_uts_ns();
    if (!r->late_identity) {
        /* The bounding set, once and for every worker of a fork server (64 calls; a new user
         * namespace would fill it again, but a worker can make none). */
        drop_bounding_set();
        r->bounding_dropped = true;
        /* Not dumpable from here (the maps are written): no process of our uid may read or write
         * this one's memory through /proc, nor that of any worker a fork server forks. */
        prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    }
}

/* The layers each worker applies to itself, after the shared ones (r holds their statuses). */
int sandbox_apply_own(const sandbox_config *cfg, sandbox_report *r)
{
    bool root = geteuid() == 0;
    if (cfg->ipc_uts_ns) cgroup_ns(&r->ipc_uts_ns);
    if (cfg->rlimits) r->rlimits = sandbox_rlimits(cfg); /* before the fork: the stub needs cpu_secs */
    if (cfg->pid_ns && cfg->pid1_given)
        r->pid_ns = st_ok("worker is pid 1 of a new pid namespace (cloned into it by the fork server)");
    else if (cfg->pid_ns)
        r->pid_ns = sandbox_pidns_fork();
    if (r->late_identity) {
        drop_bounding_set(); /* still root: CAP_SETPCAP */
        r->bounding_dropped = true;
        r->identity = sandbox_drop_identity(cfg, false);
    }
    r->caps = sandbox_drop_caps(r->bounding_dropped);
    if (cfg->join_cpu >= 0 && cfg->join_cpu < CPU_SETSIZE) {
        /* The worker set itself up on whichever CPU was free while its parent prepared the run;
         * from here the two take turns, which is cheapest on one CPU (see supervisor.c). */
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cfg->join_cpu, &set);
        sched_setaffinity(0, sizeof set, &set);
    }
    if (cfg->close_fds) r->fds = sandbox_close_fds(cfg);
    if (cfg->landlock) r->landlock = sandbox_landlock(&r->landlock_abi);
    if (cfg->seccomp) r->seccomp = sandbox_seccomp(cfg->seccomp_name_blocked);

    if (cfg->require) {
        if (!r->seccomp.applied && set_error(r, "seccomp", &r->seccomp)) return -1;
        if (!r->landlock.applied && !r->mountns.applied) {
            sandbox_status both = st_skip("landlock: %.70s; mountns: %.70s", r->landlock.detail, r->mountns.detail);
            set_error(r, "landlock-or-mountns", &both);
            return -1;
        }
        if (!r->netns.applied && set_error(r, "netns", &r->netns)) return -1;
    }
    if (root && !r->identity.applied && cfg->userns) {
        /* still host root with capabilities: never run agent code like that */
        snprintf(r->error, sizeof r->error, "could not drop root: %s", r->identity.detail);
        return -1;
    }
    return 0;
}

int sandbox_apply_all(const sandbox_config *cfg, sandbox_report *r)
{
    sandbox_apply_shared(cfg, r);
    return sandbox_apply_own(cfg, r);
}

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

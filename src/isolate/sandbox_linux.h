/* sandbox_linux.h — confine the calling process (the `chidori __run-worker` child) on Linux, one
 * layer at a time, and the parent-side per-run cgroup.
 *
 * Every layer returns a sandbox_status {applied, detail}: applied, or skipped and why, so
 * the banner can print `Isolation: process (userns, netns, mountns, pid/ipc/uts, landlock abi 7,
 * seccomp allowlist, rlimits, cgroup memory=…)` and `chidori sandbox` can print a matrix.
 *
 * The layers, one file each (declared in sandbox_layers.h), applied to the CALLING process, which
 * must be single-threaded, in the order written out in apply_layers (sandbox_linux.c), each step
 * with the reason it stands where it does:
 *   shared  (a fork server applies these once for all its workers; sandbox_apply_shared)
 *     netns join  the parent's empty network namespace, when it made one (shared_netns.c)
 *     identity    root only: drop supplementary groups and switch to uid/gid 65534 (nobody) so the
 *                 worker is not host root inside or outside any namespace (sandbox_caps.c).
 *                 Skipped when unprivileged user namespaces are disabled: then the namespaces
 *                 below are created with root's own capabilities and the switch happens later.
 *     userns, netns, mountns, ipc/uts   (sandbox_ns.c; mountns leaves an empty read-only `/`:
 *                 dlopen, getpwnam, locale/iconv loading and ASan symbolization cannot work after)
 *     bounding set emptied, not dumpable
 *   own     (each worker; sandbox_apply_own)
 *     cgroup ns, rlimits (sandbox_rlimits.c: core 0, nofile 256, memlock 0, msgqueue 0, RLIMIT_CPU
 *                 = the supervisor's CPU backstop + 2 s or CHIDORI_ISOLATE_CPU_SECS, optional
 *                 RLIMIT_FSIZE), pid namespace, late identity, capabilities, CPU, descriptors,
 *                 Landlock (sandbox_landlock.c), seccomp (sandbox_seccomp.c: how its allowlist was
 *                 derived and how a refused syscall gets its name).
 *
 * The pid namespace FORKS: the child becomes pid 1 of the new pid namespace and is the process
 * that returns from sandbox_apply_all; the original process becomes a small stub that mirrors the
 * child's end exactly (same exit code, or the same signal, so the parent still sees WTERMSIG ==
 * SIGSYS / SIGKILL / SIGXCPU) and never returns. The child has PR_SET_PDEATHSIG(SIGKILL), so the
 * parent's deadline SIGKILL to the pid it spawned takes both down. Consequences: (a) the worker
 * enters its cgroup BEFORE it calls sandbox_apply_all (children inherit the cgroup at fork): it
 * does so first thing (sandbox_cgroup_enter); (b) kill the spawned pid (or its process group) —
 * the stub's death kills the real worker. Set cfg.pid_ns = false to keep one process (and report
 * pid ns as skipped).
 *
 * cgroups (parent side): see sandbox_cgroup_claim. The one operator step to delegate a cgroup v2
 * subtree without systemd (as root, once):
 *     mkdir /sys/fs/cgroup/chidori && echo '+memory +pids' > /sys/fs/cgroup/cgroup.subtree_control
 *     && chown -R USER /sys/fs/cgroup/chidori
 * and start the supervisor inside it (its own leaf, e.g. chidori/supervisor, because a cgroup that
 * distributes controllers cannot hold processes); with systemd: `systemd-run --user --scope -p
 * Delegate=yes chidori …`. Point CHIDORI_ISOLATE_CGROUP at the delegated directory if it is not
 * <cgroup2 mount>/chidori.
 */
#ifndef CHIDORI_ISOLATE_SANDBOX_LINUX_H
#define CHIDORI_ISOLATE_SANDBOX_LINUX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct sandbox_status {
    bool applied;
    char detail[160]; /* "abi 7", "memory=256 MiB", or why it was skipped */
} sandbox_status;

typedef struct sandbox_config {
    bool userns, netns, mountns, ipc_uts_ns, pid_ns, landlock, seccomp, rlimits;
    bool require;               /* CHIDORI_ISOLATE_REQUIRE_SANDBOX=1: a core layer failing fails */
    bool seccomp_name_blocked;  /* TRAP + naming handler (default) instead of plain KILL_PROCESS */
    bool close_fds;             /* close every fd except 0,1,2 and keep_fds */
    int keep_fds[8];
    int n_keep_fds;
    uint64_t cpu_secs;    /* RLIMIT_CPU, 0 = not set */
    uint64_t fsize_bytes; /* RLIMIT_FSIZE, 0 = not set */
    uint64_t nofile;      /* RLIMIT_NOFILE, default 256 */
    uid_t unprivileged_uid; /* identity for a root caller, default 65534 */
    gid_t unprivileged_gid;
    int shared_netns_fd; /* >= 0: join this network namespace (the parent's, see shared_netns.c)
                            and close it, instead of making one; -1: make one */
    int parent_mntns_fd; /* >= 0: join this mount namespace, whose root is empty and read-only (the
                            parent made it, see parent_mntns.c) and close it; -1: make one */
    bool pid1_given; /* already pid 1 of a pid namespace of its own (cloned into it by a fork server or by spawn.c): no fork */
} sandbox_config;

typedef struct sandbox_report {
    sandbox_status identity, userns, netns, mountns, ipc_uts_ns, pid_ns, caps, rlimits, fds,
        landlock, seccomp;
    int landlock_abi; /* 0 when unavailable */
    bool late_identity; /* root makes the namespaces, then drops its identity in sandbox_apply_own */
    bool bounding_dropped; /* the capability bounding set is empty already */
    char error[256];  /* set when sandbox_apply_all fails */
} sandbox_report;

/* Every layer on, require off, seccomp naming on, nofile 256. The CHIDORI_ISOLATE_* variables are
 * settings reach it through isolate_options_from_settings (confine.c). */
void sandbox_config_default(sandbox_config *cfg);

/* Apply every enabled layer in order to the calling process. 0 on success (skips allowed unless
 * cfg->require), -1 with report->error when a core layer (seccomp; landlock or mountns; netns)
 * failed under require, or when a step failed in a way that leaves the process unusable. With
 * pid_ns, the caller that returns is the new pid-1 child (see the header comment). */
int sandbox_apply_all(const sandbox_config *cfg, sandbox_report *report);
/* sandbox_apply_all in two halves: the namespaces a fork server shares with every worker it forks
 * (identity, user, network, mount, ipc/uts), then what each worker applies to itself (rlimits, pid
 * namespace, capabilities, descriptors, Landlock, seccomp) and the require checks. */
void sandbox_apply_shared(const sandbox_config *cfg, sandbox_report *report);
int sandbox_apply_own(const sandbox_config *cfg, sandbox_report *report);

/* The fork server's own filter (forkserver.c), installed once it has entered the shared namespaces
 * and prepared the engine: what it does from then on (take requests, clone a worker with exactly
 * CLONE_PARENT[|CLONE_NEWPID], answer) and what each worker it forks does before its own filter
 * (its descriptors, its cgroup, its layers), with every syscall of the worker's allowlist, so that
 * the two filters stacked in a worker leave the worker's as it is. Default: trap, named like the
 * worker's (sandbox_seccomp); x32, other architectures and SANDBOX_SECCOMP_DIE_NR kill. */
sandbox_status sandbox_seccomp_forkserver(void);

/* Landlock ABI of the running kernel (0 = unavailable). */
int sandbox_landlock_abi(void);

/* Banner text from a report: "process (userns, netns, mountns, pid/ipc/uts, landlock abi 7,
 * seccomp allowlist, rlimits)" plus "; skipped: …" reasons. Returns a malloc'd string. */
char *sandbox_report_summary(const sandbox_report *r);

/* x86_64 syscall name for nr ("?" for unknown). Async-signal-safe. */
const char *syscall_name(long nr);

/* Find the last "chidori-sandbox: blocked syscall NAME (nr N)" line in a child's stderr and copy
 * NAME (checked against the syscall table) into out. Returns true when found. */
bool sandbox_blocked_syscall_from_stderr(const char *text, size_t len, char *out, size_t outlen);

/* Write text to an existing kernel file (/proc, cgroupfs) in one write. 0, or -1 with errno. */
int sandbox_write_file(const char *path, const char *text);
/* Read a small kernel file into out (at most cap - 1 bytes, NUL-terminated): bytes read, or -1. */
int sandbox_read_file(const char *path, char *out, size_t cap);
/* The same on an open descriptor, which they close (fd < 0: -1). */
int sandbox_write_fd(int fd, const char *text);
int sandbox_read_fd(int fd, char *out, size_t cap);

/* ---- cgroups (parent side) ---- */
typedef struct sandbox_cgroup {
    int version; /* 0 none, 1 v1, 2 v2 */
    char dir[256];      /* v2 slot, or v1 memory slot */
    char pids_dir[256]; /* v1 pids slot ("" if none) */
    int lock, pids_lock; /* the slots' directories, flocked while the run holds them (-1: none) */
    int join[2];         /* the slots' membership files for the worker to enter by (-1: none) */
    int count_fd;        /* its pids.current, read again and again (-1: none yet) */
    int oom_fd;          /* its memory.events (v2) or memory.oom_control (v1) (-1: none yet) */
    long long oom_base;  /* the OOM killer's count in the slot when it was claimed (-1: unknown) */
    bool limits_set;     /* memory_set and pids_set are what this process last wrote into the slot */
    int busy_claims;     /* kept between runs: claims that found it still occupied, in a row */
    uint64_t memory_set;
    int pids_set;
    sandbox_status status;
} sandbox_cgroup;
/* A sandbox_cgroup that holds nothing (every descriptor -1). */
#define SANDBOX_CGROUP_NONE {.lock = -1, .pids_lock = -1, .join = {-1, -1}, .count_fd = -1, .oom_fd = -1}

/* Claim a cgroup slot for a run (see sandbox_cgroup.c) with memory.max = memory_bytes (and swap 0)
 * and pids.max = pids_max (0 = no limit), and open its membership files (cg->join, open as long as
 * the slot is held) for the worker to enter by. v2 when a delegated cgroup2 directory with
 * the memory and pids controllers is available (delegated: CHIDORI_ISOLATE_CGROUP; NULL: <cgroup2 mount>/chidori,
 * created when we may), else the v1 memory/pids hierarchies (/sys/fs/cgroup/memory/chidori/<id>,
 * /sys/fs/cgroup/pids/chidori/<id>), else skipped with the reason in cg->status. Returns 0 when
 * applied, -1 when skipped. */
int sandbox_cgroup_claim(const char *delegated, uint64_t memory_bytes, int pids_max, sandbox_cgroup *cg);
/* The calling thread enters the cgroup of a membership file (cg->join, handed to it): 0 or -1
 * with errno. */
int sandbox_cgroup_enter(int membership_fd);
/* True when the memory controller's OOM killer fired in this cgroup (memory.events oom_kill,
 * memory.oom_control oom_kill, else memory.failcnt > 0 on v1), so a SIGKILL means "memory ceiling". */
bool sandbox_cgroup_oom_killed(const sandbox_cgroup *cg);
/* Kill what is left (cgroup.kill on v2), and let go of the slots. */
void sandbox_cgroup_destroy(sandbox_cgroup *cg);
/* After the run (its worker reaped): keep the slots, membership files open, for this process's
 * next claim, or let go of them when it keeps enough. */
void sandbox_cgroup_release(sandbox_cgroup *cg);
/* Let go of the slots for good. */
void sandbox_cgroup_forget(sandbox_cgroup *cg);

/* ---- test-only self-test ---- */
/* Performed by an already-confined process: attempt ONE forbidden act and return what happened:
 * the errno when it was refused (printing "probe P: blocked (ENAME)"), 0 when it SUCCEEDED (a
 * sandbox failure, "probe P: NOT BLOCKED"), -1 for an unknown probe. A probe that seccomp kills
 * does not return (the parent sees SIGSYS). Probes: socket, connect_unix, open_passwd,
 * write_file, execve, ptrace, fork_bomb, mount, unshare, io_uring, keyctl, bpf, x32, int80,
 * kill_parent, getcwd. */
int sandbox_selftest(const char *probe);
extern const char *const sandbox_selftest_probes[];

#endif

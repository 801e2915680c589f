/* sandbox_layers.h — the confinement layers, one file each, and the little they share. Only the
 * sandbox_*.c files include this; the rest of the tree uses sandbox_linux.h, whose
 * sandbox_apply_shared / sandbox_apply_own apply these layers in the order written out in one
 * function, apply_layers (sandbox_linux.c).
 *
 * Every layer acts on the CALLING process, which must be single-threaded, and returns a
 * sandbox_status: applied, or skipped and why (the banner and `chidori sandbox` print it). */
#ifndef CHIDORI_ISOLATE_SANDBOX_LAYERS_H
#define CHIDORI_ISOLATE_SANDBOX_LAYERS_H

#include "isolate/sandbox_linux.h"

/* ---- statuses (sandbox_linux.c) ---- */
sandbox_status sandbox_status_of(bool applied, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define sandbox_ok(...) sandbox_status_of(true, __VA_ARGS__)
#define sandbox_skip(...) sandbox_status_of(false, __VA_ARGS__)

/* ---- namespaces (sandbox_ns.c) ---- */
/* Whether an unprivileged process may create a user namespace here; false with the sysctl that
 * forbids it in why. */
bool sandbox_userns_allowed(char *why, size_t whylen);
sandbox_status sandbox_userns(void);
/* Join the empty network namespace the parent made (shared_netns.c) and close fd. */
sandbox_status sandbox_netns_join(int fd);
sandbox_status sandbox_netns(void);
sandbox_status sandbox_mountns(void);
/* In a mount namespace of the caller's own (the worker's, or a parent thread's): everything made
 * private, an empty 4 KiB tmpfs pivot_root'ed into, the old root detached, the new one remounted
 * read-only. */
sandbox_status sandbox_empty_root(void);
/* Join the empty mount namespace the parent made (parent_mntns.c) and close fd: skipped (and
 * the caller makes its own) unless the root it lands in is an empty read-only tmpfs. */
sandbox_status sandbox_mountns_join(int fd);
/* The calling thread's root is an empty read-only tmpfs: nothing of the host in sight. */
bool sandbox_root_is_empty(void);
/* /proc, held open while a joined mount namespace hides it: the user namespace's maps and the
 * sysctls that say whether one may be made are reached through it until it is let go. 0, or -1
 * (nothing held). */
int sandbox_proc_hold(void);
void sandbox_proc_release(void);
sandbox_status sandbox_ipc_uts_ns(void);
/* The cgroup namespace, reported on the ipc/uts line. */
void sandbox_cgroup_ns(sandbox_status *ipc_uts);
/* Returns in the child only (or skipped); cpu_secs: the RLIMIT_CPU soft limit in force (0: none),
 * for the stub's SIGKILL → SIGXCPU mapping. */
sandbox_status sandbox_pidns_fork(uint64_t cpu_secs);

/* ---- identity and capabilities (sandbox_caps.c) ---- */
sandbox_status sandbox_drop_identity(const sandbox_config *cfg, bool before_userns);
void sandbox_drop_bounding_set(void);
sandbox_status sandbox_drop_caps(bool bounding_dropped);

/* ---- resources (sandbox_rlimits.c) ---- */
/* *cpu_secs_set: the RLIMIT_CPU soft limit it set (0: none). */
sandbox_status sandbox_rlimits(const sandbox_config *cfg, uint64_t *cpu_secs_set);
sandbox_status sandbox_close_fds(const sandbox_config *cfg);

/* ---- Landlock (sandbox_landlock.c) ---- */
sandbox_status sandbox_landlock(int *abi_out);

/* ---- seccomp (sandbox_seccomp.c) ---- */
sandbox_status sandbox_seccomp(bool name_blocked);
/* The pid-namespace stub's filter: wait4, exit, kill itself; everything else kills. */
void sandbox_seccomp_stub(void);

enum {
    SANDBOX_ARG_NO_EXEC = 1,  /* args[2] (prot) must not contain PROT_EXEC */
    SANDBOX_ARG_SELF_PID = 2, /* args[0] must be our own pid */
    SANDBOX_ARG_TCGETS = 4,   /* args[1] must be TCGETS */
};
typedef struct sandbox_syscall_rule {
    int nr;
    const char *name;
    unsigned flags;
    const char *why;
} sandbox_syscall_rule;
extern const sandbox_syscall_rule sandbox_seccomp_allow[];
extern const size_t sandbox_seccomp_allow_count;
extern const sandbox_syscall_rule sandbox_seccomp_enosys[];
extern const size_t sandbox_seccomp_enosys_count;
#define SANDBOX_SECCOMP_DIE_NR 1023 /* nonexistent; the filter kills the process on it */
#define SANDBOX_SIGSYS_MARKER "chidori-sandbox: blocked syscall "

#endif

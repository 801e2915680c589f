/* sandbox_seccomp.c — the worker's seccomp filter (an allowlist), the fork server's, and the
 * pid-namespace stub's; the SIGSYS handler that names a refused syscall; and the parent-side
 * reading of that name. Raw syscalls and hand-written classic BPF: no libseccomp, no extra shared
 * library at start-up. Installed last in a worker (sandbox_linux.c): nothing the other layers do
 * needs to be on the allowlist.
 *
 * How the allowlist was derived. `strace -f` of `build/chidori eval --file F` for each of the 37
 * fixtures in tests/limits/NAME.js and tests/cli/NAME.js (incl. the memory-ceiling, CPU-budget,
 * stack-overflow and OOM failure paths) shows 22 distinct syscalls over the whole process life:
 * access arch_prctl brk close execve exit_group getrandom ioctl mmap mprotect mremap munmap
 * newfstatat openat pread64 prlimit64 read readlink rseq set_robust_list set_tid_address write.
 * Start-up (loader, libc init, reading the script, resolving its directory: everything up to the
 * O_PATH open of the script's directory) accounts for execve, access, openat, pread64, read,
 * readlink, close, arch_prctl, set_tid_address, set_robust_list, rseq, prlimit64, mprotect
 * (RELRO) and getrandom. After it, over all 37 runs, the engine does only: brk (105,088 calls),
 * mremap (30,042), mmap (494), munmap (486), write (38, fd 1/2), exit_group, and
 * newfstatat(1, "") + ioctl(1, TCGETS) once, from stdio's first printf on stdout. No threads (no
 * clone, no futex). The worker adds its pipe I/O (read, write, poll/ppoll) and (only where SIGPIPE is
 * not ignored, which worker_main sees to before confinement) frame_write's
 * SIGPIPE handling (rt_sigprocmask, rt_sigpending, rt_sigtimedwait); the C library's unavoidable
 * paths add clock_gettime/gettimeofday (vDSO fallback on clocksources without a vDSO, e.g. some
 * VMs), madvise (free), fstat/newfstatat, lseek, close, rt_sigreturn, exit, getpid/gettid and
 * tgkill-to-self (abort()). Argument checks: mmap and mprotect never with PROT_EXEC (the engine
 * has no JIT); tgkill only to our own pid; ioctl only TCGETS (isatty); an argument compared
 * exactly is compared whole, both 32-bit halves. getrandom stays for engine instances created
 * after confinement. Everything else: the default action. Explicitly returning ENOSYS (so libc
 * falls back and nothing dies): clone3, openat2, io_uring_setup/enter/register. The ASan build
 * adds a few (see sandbox_seccomp_allow[]).
 *
 * How a blocked syscall gets its name. With SECCOMP_RET_KILL_PROCESS the kernel kills the process
 * before any user code runs and the parent sees only WTERMSIG == SIGSYS (a zombie's
 * /proc/PID/syscall is empty — checked). So, when cfg.seccomp_name_blocked is set (the default),
 * the default action is SECCOMP_RET_TRAP: the kernel still refuses the syscall (it is never
 * executed), raises SIGSYS, and an async-signal-safe handler installed here writes
 *   "chidori-sandbox: blocked syscall NAME (nr N)\n"
 * to fd 2 and then issues a reserved, nonexistent syscall number (SANDBOX_SECCOMP_DIE_NR) that the
 * filter maps to SECCOMP_RET_KILL_PROCESS — so the process still dies by SIGSYS and the parent
 * reads the name from the child's stderr (sandbox_blocked_syscall_from_stderr). The architecture
 * check and the x32 check stay KILL_PROCESS. Trapping is no weaker: the syscall is refused either
 * way; a compromised child that replaced the handler (rt_sigaction is not allowed, so it cannot)
 * would only survive without the syscall having happened. If SIGSYS is blocked when the trap
 * fires, the kernel resets it to the default action: death by SIGSYS, unnamed. Treat the name as
 * a diagnostic from an untrusted process, not as evidence.
 *
 * Trusts: nothing; the stderr it parses comes from an untrusted worker (names are checked against
 * the syscall table). Must never: allow a syscall the tables below do not list. */
#define _GNU_SOURCE
#include "isolate/sandbox_layers.h"

#include "util/buf.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#ifndef __x86_64__
#error "sandbox_seccomp.c: the seccomp filter and syscall table are written for x86_64"
#endif

#ifndef CLONE_NEWCGROUP
#define CLONE_NEWCGROUP 0x02000000
#endif
#ifndef PR_CAP_AMBIENT
#define PR_CAP_AMBIENT 47
#endif

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

static void emit_ret(bpf_prog *p, uint32_t action)
{
    emit(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, action));
}

/* nr? allow. (A holds the syscall number, before and after.) */
static void emit_allow(bpf_prog *p, int nr)
{
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, 1));
    emit_ret(p, SECCOMP_RET_ALLOW);
}

/* Any other architecture is killed; A = the syscall number. */
static void emit_arch_check(bpf_prog *p)
{
    emit(p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, OFF_ARCH));
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0));
    emit_ret(p, SECCOMP_RET_KILL_PROCESS);
    emit(p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, OFF_NR));
}

/* What the worker's and the fork server's filters start with: the architecture; x32
 * (nr | 0x40000000) and anything above the native range, and SANDBOX_SECCOMP_DIE_NR, killed; the
 * ENOSYS list. */
static void emit_prologue(bpf_prog *p)
{
    emit_arch_check(p);
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, 0x40000000, 0, 1));
    emit_ret(p, SECCOMP_RET_KILL_PROCESS);
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SANDBOX_SECCOMP_DIE_NR, 0, 1));
    emit_ret(p, SECCOMP_RET_KILL_PROCESS);
    for (size_t i = 0; i < sandbox_seccomp_enosys_count; i++) {
        emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)sandbox_seccomp_enosys[i].nr, 0, 1));
        emit_ret(p, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA));
    }
}

/* nr? then: A = low half of prot; PROT_EXEC set → default, else allow. The kernel reads prot as
 * unsigned long but PROT_EXEC is in the low half either way. */
static void emit_no_exec(bpf_prog *p, int nr, uint32_t deflt)
{
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, 4));
    emit(p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, OFF_ARG_LO(2)));
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, PROT_EXEC, 0, 1));
    emit_ret(p, deflt);
    emit_ret(p, SECCOMP_RET_ALLOW);
}

/* nr? then: upper half of args[arg] 0 and lower half one of values, else deflt. Both halves: the
 * kernel reads an int argument (ioctl's cmd, tgkill's tgid) from the low half only, so an upper
 * half left unchecked would let any low half through. */
static void emit_arg_in(bpf_prog *p, int nr, int arg, const uint32_t *values, int n, uint32_t deflt)
{
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, (uint8_t)(n + 5)));
    emit(p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, OFF_ARG_HI(arg)));
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, (uint8_t)(n + 1)));
    emit(p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, OFF_ARG_LO(arg)));
    for (int i = 0; i < n; i++)
        emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, values[i], (uint8_t)(n - i), 0));
    emit_ret(p, deflt);
    emit_ret(p, SECCOMP_RET_ALLOW);
}

/* futex(_, FUTEX_WAKE_PRIVATE, ...) is refused with EINVAL (never executed); any other futex op
 * gets deflt. Why: ICU (Intl, linked into the worker) makes each of its mutexes on first use
 * through pthread_once, and glibc's pthread_once ends with an unconditional futex wake, which
 * glibc ignores when it fails with EINVAL. The worker has one thread, so there is never anyone to
 * wake: refusing the call changes nothing but keeps the worker alive (docs/sandbox-model.md). */
static void emit_futex_wake_refused(bpf_prog *p, uint32_t deflt)
{
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)SYS_futex, 0, 6));
    emit(p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, OFF_ARG_HI(1)));
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 2));
    emit(p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, OFF_ARG_LO(1)));
    emit(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 129 /* FUTEX_WAKE_PRIVATE */, 1, 0));
    emit_ret(p, deflt);
    emit_ret(p, SECCOMP_RET_ERRNO | (EINVAL & SECCOMP_RET_DATA));
}

/* Build the worker filter. deflt is SECCOMP_RET_TRAP or SECCOMP_RET_KILL_PROCESS. */
static void build_worker_filter(bpf_prog *p, uint32_t deflt, pid_t self)
{
    emit_prologue(p);
    for (size_t i = 0; i < sandbox_seccomp_allow_count; i++) {
        const sandbox_syscall_rule *r = &sandbox_seccomp_allow[i];
        if (r->flags & SANDBOX_ARG_NO_EXEC) {
            emit_no_exec(p, r->nr, deflt);
        } else if (r->flags & SANDBOX_ARG_SELF_PID) {
            const uint32_t pid = (uint32_t)self; /* args[0] exactly our pid */
            emit_arg_in(p, r->nr, 0, &pid, 1, deflt);
        } else if (r->flags & SANDBOX_ARG_TCGETS) {
            const uint32_t cmd = TCGETS; /* args[1] exactly TCGETS */
            emit_arg_in(p, r->nr, 1, &cmd, 1, deflt);
        } else {
            emit_allow(p, r->nr);
        }
    }
    emit_futex_wake_refused(p, deflt);
    emit_ret(p, deflt);
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
    {SYS_landlock_create_ruleset, 0, {0}, 0, "its Landlock domain"},
    {SYS_landlock_add_rule, 0, {0}, 0, "its Landlock domain"},
    {SYS_landlock_restrict_self, 0, {0}, 0, "its Landlock domain"},
    {SYS_rt_sigaction, 0, {SIGSYS}, 1, "its SIGSYS handler (sandbox_seccomp)"},
    {SYS_seccomp, 0, {SECCOMP_SET_MODE_FILTER}, 1, "its own filter"},
};

static void build_forkserver_filter(bpf_prog *p, uint32_t deflt)
{
    /* clone3 is in the ENOSYS list too: its flags are behind a pointer; the fork server falls
     * back to clone */
    emit_prologue(p);
    for (size_t i = 0; i < sizeof forkserver_rules / sizeof forkserver_rules[0]; i++) {
        const forkserver_rule *r = &forkserver_rules[i];
        bool open_in_worker = false; /* the worker's allowlist has it with no argument check (ASan's) */
        for (size_t j = 0; j < sandbox_seccomp_allow_count; j++)
            if (sandbox_seccomp_allow[j].nr == r->nr && !sandbox_seccomp_allow[j].flags) open_in_worker = true;
        if (r->nvalues && !open_in_worker) emit_arg_in(p, r->nr, r->arg, r->values, r->nvalues, deflt);
        else emit_allow(p, r->nr);
    }
    /* Everything a worker's own filter allows (ioctl is above, with the worker's TCGETS), with
     * the same argument checks but for tgkill: a worker's pid is not known yet (its own filter
     * narrows tgkill to itself). */
    for (size_t i = 0; i < sandbox_seccomp_allow_count; i++) {
        const sandbox_syscall_rule *r = &sandbox_seccomp_allow[i];
        if (r->flags & SANDBOX_ARG_TCGETS) continue;
        if (r->flags & SANDBOX_ARG_NO_EXEC) emit_no_exec(p, r->nr, deflt);
        else emit_allow(p, r->nr);
    }
    /* and the worker's refusal of a futex wake with EINVAL: a forked worker runs under both
     * filters and the stricter answer wins, so without it here the first pthread_once in a forked
     * worker (Intl's ICU) was a kill */
    emit_futex_wake_refused(p, deflt);
    emit_ret(p, deflt);
}

/* Install p and free it: 0 with *ninsn, or -1 with errno. */
static int install_filter(bpf_prog *p, size_t *ninsn)
{
    struct sock_fprog prog = {.len = (unsigned short)p->n, .filter = p->ins};
    int rc = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ? -1 : (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
    int e = errno;
    *ninsn = p->n;
    free(p->ins);
    errno = e;
    return rc;
}

void sandbox_seccomp_stub(void)
{
    static const int allow[] = {SYS_wait4, SYS_exit, SYS_exit_group, SYS_rt_sigreturn, SYS_rt_sigaction,
                                SYS_rt_sigprocmask, SYS_kill, SYS_getpid, SYS_tgkill, SYS_gettid,
                                SYS_restart_syscall, SYS_close,
#if defined(__SANITIZE_ADDRESS__)
                                SYS_sigaltstack, SYS_munmap, SYS_mmap, SYS_madvise, SYS_write, SYS_getrlimit, SYS_prlimit64,
#endif
                                };
    bpf_prog p = {0};
    emit_arch_check(&p);
    for (size_t i = 0; i < sizeof allow / sizeof allow[0]; i++) emit_allow(&p, allow[i]);
    emit_ret(&p, SECCOMP_RET_KILL_PROCESS);
    size_t ninsn;
    install_filter(&p, &ninsn);
}

/* ---- naming a refused syscall ---- */

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


/* Install sigsys_handler and unblock SIGSYS: the filter's default is then TRAP (named, then
 * killed), or KILL_PROCESS when the handler could not be installed. */
static uint32_t trap_if_named(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = sigsys_handler;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGSYS, &sa, NULL) != 0) return SECCOMP_RET_KILL_PROCESS;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGSYS);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    return SECCOMP_RET_TRAP;
}

sandbox_status sandbox_seccomp(bool name_blocked)
{
    uint32_t deflt = name_blocked ? trap_if_named() : SECCOMP_RET_KILL_PROCESS;
    bpf_prog p = {0};
    build_worker_filter(&p, deflt, getpid());
    size_t ninsn;
    if (install_filter(&p, &ninsn) < 0) return sandbox_skip("seccomp(SET_MODE_FILTER): %s", strerror(errno));
    return sandbox_ok("allowlist of %zu syscalls, %zu ENOSYS, %zu BPF insns, default %s", sandbox_seccomp_allow_count,
                      sandbox_seccomp_enosys_count, ninsn, deflt == SECCOMP_RET_TRAP ? "trap→kill (named)" : "kill");
}

sandbox_status sandbox_seccomp_forkserver(void)
{
    uint32_t deflt = trap_if_named();
    bpf_prog p = {0};
    build_forkserver_filter(&p, deflt);
    size_t ninsn;
    if (install_filter(&p, &ninsn) < 0) return sandbox_skip("seccomp(SET_MODE_FILTER): %s", strerror(errno));
    return sandbox_ok("fork server allowlist, %zu BPF insns", ninsn);
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

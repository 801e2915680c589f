/* sandbox_selftest.c — one forbidden act per probe, attempted by an already-confined process
 * (tests and `chidori sandbox`). Raw syscalls, so libc cannot substitute another call. */
#define _GNU_SOURCE
#include "isolate/sandbox_linux.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

const char *const sandbox_selftest_probes[] = {
    "socket", "connect_unix", "open_passwd", "write_file", "execve", "ptrace", "fork_bomb", "mount",
    "unshare", "io_uring", "keyctl", "bpf", "x32", "int80", "getcwd", NULL,
};

static void say(const char *probe, int err)
{
    char msg[160];
    int n;
    if (err == 0) {
        n = snprintf(msg, sizeof msg, "probe %s: NOT BLOCKED\n", probe);
    } else {
        const char *name = strerrorname_np(err);
        n = snprintf(msg, sizeof msg, "probe %s: blocked (%s)\n", probe, name ? name : "?");
    }
    if (n > 0) {
        ssize_t w = write(2, msg, (size_t)n);
        (void)w;
    }
}

/* errno of a failed call, or 0 when it succeeded. */
#define RESULT(rc) ((rc) < 0 ? errno : 0)

static int probe_socket(void)
{
    long fd = syscall(SYS_socket, AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return errno;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(80)};
    a.sin_addr.s_addr = htonl(0x5db8d822); /* 93.184.216.34 */
    long rc = syscall(SYS_connect, fd, &a, sizeof a);
    int e = RESULT(rc);
    close((int)fd);
    return e;
}

static int probe_connect_unix(void)
{
    long fd = syscall(SYS_socket, AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0) return errno;
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    static const char name[] = "\0chidori-selftest"; /* abstract */
    memcpy(a.sun_path, name, sizeof name - 1);
    long rc = syscall(SYS_connect, fd, &a, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + sizeof name - 1));
    int e = RESULT(rc);
    close((int)fd);
    return e;
}

static int probe_write_file(void)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/chidori-selftest-%d", (int)getpid());
    long fd = syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return errno;
    ssize_t w = write((int)fd, "x", 1);
    (void)w;
    close((int)fd);
    unlink(path);
    return 0;
}

static int probe_fork_bomb(void)
{
    for (int i = 0; i < 64; i++) {
        long pid = syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
        if (pid < 0) return errno;
        if (pid == 0) syscall(SYS_exit_group, 0);
        waitpid((pid_t)pid, NULL, 0);
    }
    return 0;
}

static int probe_int80(void)
{
    long ret;
#if defined(__SANITIZE_ADDRESS__) /* as sandbox_seccomp.c's allowance of rt_sigaction */
    /* A kernel without the 32-bit entry (ia32 emulation off; some paravirtualized guests) faults
     * on `int $0x80` before any filter sees it: SIGSEGV. A release worker dies of it ("engine
     * crashed: SIGSEGV", the act stopped all the same); under ASan its handler would print a
     * report and then be killed for the files it opens. The default action makes both builds end
     * alike (rt_sigaction is allowed only in sanitizer builds). */
    signal(SIGSEGV, SIG_DFL);
#endif
    /* i386 getpid (20) through the 32-bit entry: a different AUDIT_ARCH. */
    __asm__ volatile("int $0x80" : "=a"(ret) : "a"(20L) : "memory");
    if (ret < 0 && ret > -4096) return (int)-ret;
    return 0;
}

int sandbox_selftest(const char *probe)
{
    int e;
    if (strcmp(probe, "socket") == 0) {
        e = probe_socket();
    } else if (strcmp(probe, "connect_unix") == 0) {
        e = probe_connect_unix();
    } else if (strcmp(probe, "open_passwd") == 0) {
        long fd = syscall(SYS_openat, AT_FDCWD, "/etc/passwd", O_RDONLY | O_CLOEXEC);
        e = RESULT(fd);
        if (fd >= 0) close((int)fd);
    } else if (strcmp(probe, "write_file") == 0) {
        e = probe_write_file();
    } else if (strcmp(probe, "execve") == 0) {
        char *argv[] = {(char *)"/bin/true", NULL};
        char *envp[] = {NULL};
        syscall(SYS_execve, "/bin/true", argv, envp);
        e = errno; /* only reached on failure */
    } else if (strcmp(probe, "ptrace") == 0) {
        e = RESULT(syscall(SYS_ptrace, PTRACE_TRACEME, 0, 0, 0));
    } else if (strcmp(probe, "fork_bomb") == 0) {
        e = probe_fork_bomb();
    } else if (strcmp(probe, "mount") == 0) {
        e = RESULT(syscall(SYS_mount, "none", "/", "tmpfs", 0UL, NULL));
    } else if (strcmp(probe, "unshare") == 0) {
        e = RESULT(syscall(SYS_unshare, CLONE_NEWUSER));
    } else if (strcmp(probe, "io_uring") == 0) {
        unsigned char params[120];
        memset(params, 0, sizeof params);
        long fd = syscall(SYS_io_uring_setup, 1, params);
        e = RESULT(fd);
        if (fd >= 0) close((int)fd);
    } else if (strcmp(probe, "keyctl") == 0) {
        e = RESULT(syscall(SYS_keyctl, 0 /* KEYCTL_GET_KEYRING_ID */, -3 /* session */, 0));
    } else if (strcmp(probe, "bpf") == 0) {
        unsigned char attr[128];
        memset(attr, 0, sizeof attr);
        e = RESULT(syscall(SYS_bpf, 5 /* BPF_PROG_LOAD */, attr, sizeof attr));
    } else if (strcmp(probe, "x32") == 0) {
        e = RESULT(syscall(0x40000000L | SYS_getpid));
    } else if (strcmp(probe, "int80") == 0) {
        e = probe_int80();
    } else if (strcmp(probe, "getcwd") == 0) {
        char b[256];
        e = RESULT(syscall(SYS_getcwd, b, sizeof b));
    } else {
        return -1;
    }
    say(probe, e);
    return e;
}

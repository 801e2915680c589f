/* test_seccomp_args.c — the worker filter's argument checks look at the whole 64-bit argument:
 * ioctl is allowed with TCGETS only and tgkill on the worker's own pid only, so a value that
 * carries the allowed low half but a non-zero upper half must still be refused (the kernel reads
 * ioctl's cmd and tgkill's tgid as 32-bit, so such a call would reach it as the allowed-looking
 * low half: TIOCGWINSZ or any pid). Each test confines a child with every layer, makes the call,
 * and expects death by SIGSYS with the syscall named. */
#define _GNU_SOURCE
#include "unit.h"
#include "isolate/sandbox_linux.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#define ALLOWED 200
#define APPLY_FAILED 254

typedef struct {
    int status;
    char err[1024];
} child_end;

/* Fork, confine the child fully, run call(), report how it ended and what it wrote to stderr. */
static child_end confined(long (*call)(void))
{
    child_end e = {0};
    int ep[2];
    if (pipe(ep) != 0) return e;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        close(ep[0]);
        dup2(ep[1], 2);
        close(ep[1]);
        sandbox_config cfg;
        sandbox_config_default(&cfg);
        sandbox_report r;
        if (sandbox_apply_all(&cfg, &r) < 0) _exit(APPLY_FAILED);
        call();
        _exit(ALLOWED);
    }
    close(ep[1]);
    size_t got = 0;
    ssize_t n;
    while (got < sizeof e.err - 1 && (n = read(ep[0], e.err + got, sizeof e.err - 1 - got)) > 0) got += (size_t)n;
    e.err[got] = 0;
    close(ep[0]);
    waitpid(pid, &e.status, 0);
    return e;
}

static long ioctl_high_half(void)
{
    struct winsize ws;
    return syscall(SYS_ioctl, 2, (1UL << 32) | TIOCGWINSZ, &ws);
}

static long ioctl_tcgets(void)
{
    struct termios t;
    return syscall(SYS_ioctl, 2, (unsigned long)TCGETS, &t);
}

static long tgkill_high_half(void)
{
    return syscall(SYS_tgkill, (1UL << 32) | (unsigned long)getpid(), (long)gettid(), 0L);
}

static long tgkill_self(void)
{
    return syscall(SYS_tgkill, (long)getpid(), (long)gettid(), 0L);
}

static void expect_named_sigsys(const child_end *e, const char *name)
{
    char m[1200];
    snprintf(m, sizeof m, "expected SIGSYS naming %s; got status 0x%x, stderr: %.900s", name, e->status, e->err);
    char got[64] = "";
    if (!WIFSIGNALED(e->status) || WTERMSIG(e->status) != SIGSYS ||
        !sandbox_blocked_syscall_from_stderr(e->err, strlen(e->err), got, sizeof got) || strcmp(got, name) != 0)
        unit_fail(__FILE__, __LINE__, m);
}

TEST(seccomp_ioctl_allows_tcgets_and_refuses_a_high_half)
{
    child_end e = confined(ioctl_tcgets);
    CHECK(WIFEXITED(e.status) && WEXITSTATUS(e.status) == ALLOWED);
    e = confined(ioctl_high_half);
    expect_named_sigsys(&e, "ioctl");
}

TEST(seccomp_tgkill_allows_itself_and_refuses_a_high_half)
{
    child_end e = confined(tgkill_self);
    CHECK(WIFEXITED(e.status) && WEXITSTATUS(e.status) == ALLOWED);
    e = confined(tgkill_high_half);
    expect_named_sigsys(&e, "tgkill");
}

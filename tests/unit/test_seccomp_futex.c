/* test_seccomp_futex.c — the worker filter's one futex rule: futex(_, FUTEX_WAKE_PRIVATE) is
 * refused with EINVAL and the worker lives on (glibc's pthread_once ends with that call, and ICU
 * makes its mutexes through pthread_once, so Intl in a confined worker needs it), while every
 * other futex op, and the wake op with a non-zero upper half, still kills the worker with the
 * syscall named. Each test confines a child with every layer and makes the call. Not in the
 * sanitizer build, whose runtime needs futex and has it allowed outright. */
#define _GNU_SOURCE
#include "unit.h"
#include "isolate/sandbox_linux.h"

#include <errno.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#if !defined(__SANITIZE_ADDRESS__)

#define REFUSED_EINVAL 201
#define OTHER_RESULT 202
#define APPLY_FAILED 254

static uint32_t word;

typedef struct {
    int status;
    char err[1024];
} futex_end;

static futex_end confined_futex(unsigned long op)
{
    futex_end e = {0};
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
        long rc = syscall(SYS_futex, &word, op, 1L, NULL, NULL, 0L);
        _exit(rc == -1 && errno == EINVAL ? REFUSED_EINVAL : OTHER_RESULT);
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

static int killed_naming_futex(const futex_end *e)
{
    char got[64] = "";
    return WIFSIGNALED(e->status) && WTERMSIG(e->status) == SIGSYS &&
           sandbox_blocked_syscall_from_stderr(e->err, strlen(e->err), got, sizeof got) && strcmp(got, "futex") == 0;
}

TEST(seccomp_futex_private_wake_is_refused_with_einval)
{
    futex_end e = confined_futex(FUTEX_WAKE_PRIVATE);
    CHECK(WIFEXITED(e.status) && WEXITSTATUS(e.status) == REFUSED_EINVAL);
}

TEST(seccomp_futex_other_ops_still_kill)
{
    futex_end e = confined_futex(FUTEX_WAIT_PRIVATE);
    CHECK(killed_naming_futex(&e));
    e = confined_futex(FUTEX_WAKE); /* the shared (not private) wake */
    CHECK(killed_naming_futex(&e));
    e = confined_futex((1UL << 32) | FUTEX_WAKE_PRIVATE); /* the allowed low half, a non-zero upper half */
    CHECK(killed_naming_futex(&e));
}

#endif

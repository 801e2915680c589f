/* test_spawn_sigmask.c — the window in which a new worker shares its parent's memory (a
 * CLONE_VM | CLONE_VFORK child, until it execs: src/isolate/spawn.c) has every blockable signal
 * blocked, glibc's two internal ones (32 and 33: thread cancellation and set*id) included, which
 * pthread_sigmask would have left open; and the mask before is put back after. */
#define _GNU_SOURCE
#include "unit.h"
#include "isolate/spawn.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* This thread's blocked set as the kernel reports it (SigBlk in /proc/thread-self/status). */
static unsigned long long blocked_now(void)
{
    FILE *f = fopen("/proc/thread-self/status", "r");
    if (!f) return 0;
    char line[256];
    unsigned long long bits = 0;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "SigBlk:", 7)) bits = strtoull(line + 7, NULL, 16);
    fclose(f);
    return bits;
}

#define BIT(sig) (1ULL << ((sig) - 1))

TEST(spawn_blocks_glibcs_internal_signals_too)
{
    sigset_t one, before;
    sigemptyset(&one);
    sigaddset(&one, SIGUSR2);
    pthread_sigmask(SIG_BLOCK, &one, &before); /* something blocked already, to be put back */
    unsigned long long was = blocked_now();
    CHECK(was & BIT(SIGUSR2));
    spawn_sigmask saved;
    spawn_block_all(&saved);
    unsigned long long during = blocked_now();
    spawn_unblock(&saved);
    unsigned long long after = blocked_now();
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    CHECK(during & BIT(32));
    CHECK(during & BIT(33));
    CHECK(during & BIT(SIGTERM));
    CHECK(during & BIT(SIGRTMAX));
    /* all but the two the kernel never lets a thread block */
    CHECK((during | BIT(SIGKILL) | BIT(SIGSTOP)) == ~0ULL);
    CHECK(after == was);
}

/* sandbox_rlimits.c — what the worker may hold: resource limits (no core, 256 descriptors, no
 * locked memory, no message queues, the CPU backstop, an optional file size cap), which descriptors
 * stay open (0, 1, 2 and the ones the config names: Landlock checks rights at open, so a stray
 * inherited descriptor would keep its rights). (The CPU it runs on is its parent's choice:
 * supervisor.c moves it when a run keeps waiting for replies.)
 *
 * Trusts: the config (built by confine.c from validated settings). Must never: leave a descriptor
 * open that the config did not name. */
#define _GNU_SOURCE
#include "isolate/sandbox_layers.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

sandbox_status sandbox_rlimits(const sandbox_config *cfg, uint64_t *cpu_secs_set)
{
    *cpu_secs_set = 0;
    char what[160] = "core 0";
    size_t n = strlen(what);
    struct rlimit zero = {0, 0};
    if (setrlimit(RLIMIT_CORE, &zero) < 0) return sandbox_skip("RLIMIT_CORE: %s", strerror(errno));
    rlim_t nofile = cfg->nofile ? cfg->nofile : 256;
    struct rlimit nf = {nofile, nofile};
    if (setrlimit(RLIMIT_NOFILE, &nf) < 0) return sandbox_skip("RLIMIT_NOFILE: %s", strerror(errno));
    n += snprintf(what + n, sizeof what - n, ", nofile %llu", (unsigned long long)nofile);
    setrlimit(RLIMIT_MEMLOCK, &zero);
    setrlimit(RLIMIT_MSGQUEUE, &zero);
    if (cfg->cpu_secs) {
        /* soft → SIGXCPU; hard one second later → SIGKILL (what a pid-ns init gets, see stub). */
        struct rlimit cpu = {cfg->cpu_secs, cfg->cpu_secs + 1};
        if (setrlimit(RLIMIT_CPU, &cpu) < 0) return sandbox_skip("RLIMIT_CPU: %s", strerror(errno));
        *cpu_secs_set = cfg->cpu_secs;
        n += snprintf(what + n, sizeof what - n, ", cpu %llus", (unsigned long long)cfg->cpu_secs);
    }
    if (cfg->fsize_bytes) {
        struct rlimit fs = {cfg->fsize_bytes, cfg->fsize_bytes};
        if (setrlimit(RLIMIT_FSIZE, &fs) < 0) return sandbox_skip("RLIMIT_FSIZE: %s", strerror(errno));
        n += snprintf(what + n, sizeof what - n, ", fsize %llu", (unsigned long long)cfg->fsize_bytes);
    }
    return sandbox_ok("%s", what);
}

/* ---- descriptors ---- */

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
            return sandbox_skip("close_range: %s", strerror(errno));
        lo = (unsigned)keep[i] + 1;
    }
    if (syscall(SYS_close_range, lo, ~0U, 0) < 0) return sandbox_skip("close_range: %s", strerror(errno));
    return sandbox_ok("%d kept", nk);
}

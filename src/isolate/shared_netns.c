/* shared_netns.c — empty network namespaces made by the parent for its workers to join.
 *
 * Creating a network namespace is the most expensive layer a worker applies to itself (the
 * loopback device and the per-namespace sysctl tables; tearing it down costs a kernel worker as
 * much again). A parent running as root makes it instead, held only by a descriptor, and hands it
 * to the worker, which joins it (setns, while still root, before it drops its identity):
 *   - a server makes one at start-up for all its workers, so a session costs no namespace at all;
 *   - a single run makes its worker's own while the worker execs, off the run's critical path.
 * The namespace has no interface but a loopback that is down, the workers cannot create sockets
 * (seccomp) and have no capability over it (it belongs to the initial user namespace), so joining
 * it gives them exactly what a private one would: no network. Without root (a user namespace
 * would have to be made alongside) every worker makes its own.
 *
 * Trusts nothing; owns the descriptor.
 */
#define _GNU_SOURCE
#include "isolate/isolate.h"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

int isolate_netns_open_here(void)
{
    if (geteuid() != 0 || unshare(CLONE_NEWNET) != 0) return -1;
    return open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
}

/* A thread that moves itself to a new network namespace and opens it: only that thread leaves
 * the caller's namespace, and it ends at once. */
static void *make_netns(void *arg)
{
    *(int *)arg = isolate_netns_open_here();
    return NULL;
}

int isolate_netns_open(void)
{
    if (geteuid() != 0) return -1;
    int fd = -1;
    pthread_t t;
    if (pthread_create(&t, NULL, make_netns, &fd) != 0) return -1;
    pthread_join(t, NULL);
    return fd;
}

/* shared_netns.c — one empty network namespace for all the workers of a server.
 *
 * Creating a network namespace is the most expensive layer a worker applies to itself (the
 * loopback device and the per-namespace sysctl tables; tearing it down costs a kernel worker as
 * much again), and a server starts a worker per session. So a server running as root makes one
 * empty namespace at start-up, held only by a descriptor, and each of its workers joins it
 * (setns, while still root, before it drops its identity) instead of making its own. The
 * namespace has no interface but a loopback that is down, the workers cannot create sockets
 * (seccomp) and have no capability over it (it belongs to the initial user namespace), so joining
 * it gives them exactly what a private one would: no network. Without root (a user namespace
 * would have to be shared too) every worker keeps making its own.
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

/* A thread that moves itself to a new network namespace and opens it: only that thread leaves
 * the server's namespace, and it ends at once. */
static void *make_netns(void *arg)
{
    int *fd = arg;
    if (unshare(CLONE_NEWNET) == 0) *fd = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
    return NULL;
}

int isolate_shared_netns_open(void)
{
    if (geteuid() != 0) return -1;
    int fd = -1;
    pthread_t t;
    if (pthread_create(&t, NULL, make_netns, &fd) != 0) return -1;
    pthread_join(t, NULL);
    return fd;
}

/* parent_mntns.c — the empty mount namespace a run's worker joins, made by its parent.
 *
 * A worker's mount layer is a new mount namespace whose root is an empty read-only tmpfs, the
 * host's tree detached (sandbox_ns.c). Making it copies and then drops every mount of the host,
 * on the run's critical path. A parent running as root makes it instead, on the thread that
 * prepares the worker's hand-over while the worker execs (supervisor.c), with the very steps
 * the worker would take (sandbox_empty_root), and hands it over as a descriptor; the worker
 * joins it first, while still root (sandbox_linux.c). The namespace then belongs to the initial
 * user namespace, over which the worker has no capability: it cannot mount or unmount anything
 * in it, where in one of its own it could. Only a namespace whose root, as a process joining it
 * lands in it, is an empty read-only tmpfs is handed over (in a chroot the thread's steps act on
 * the chroot's mount and leave the host's tree at the namespace's root: not handed over); anything
 * short of that, and the worker makes its own and reports what it got. The worker checks the root
 * it lands in again.
 *
 * Trusts nothing; owns the descriptor it returns.
 */
#define _GNU_SOURCE
#include "isolate/isolate.h"
#include "isolate/sandbox_layers.h"

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

int isolate_mntns_open_here(void)
{
    if (geteuid() != 0 || unshare(CLONE_NEWNS) != 0) return -1;
    /* opened while /proc is still in sight; it names the namespace, whatever is mounted in it later */
    int fd = open("/proc/thread-self/ns/mnt", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    (void)sandbox_empty_root();
    /* A joiner lands in the namespace's own root, which is the empty one only if this thread's
     * root was that root: in a chroot, the steps above acted on the chroot's mount and left the
     * host's tree at the namespace's root (as does a step that failed). So this thread joins it as
     * the worker will, and hands it over only if what it then sees is empty and read-only. */
    if (setns(fd, CLONE_NEWNS) != 0 || !sandbox_root_is_empty()) close(fd), fd = -1;
    return fd;
}

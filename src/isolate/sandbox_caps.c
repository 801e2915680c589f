/* sandbox_caps.c — what the worker may still do as itself: its identity (root becomes nobody,
 * 65534, so the worker is never host root inside or outside a namespace) and its capabilities
 * (effective, permitted, inheritable, bounding and ambient sets all emptied; not dumpable, so no
 * ptrace attach, no /proc/PID peeking, no core). sandbox_linux.c decides when: root drops its
 * identity before it makes the user namespace, or, where unprivileged user namespaces are
 * disabled, after root has made every namespace; capabilities go once nothing needs them.
 *
 * Trusts: nothing but the kernel. Must never: report an identity dropped that was not (the caller
 * refuses to run agent code as root on that report). */
#define _GNU_SOURCE
#include "isolate/sandbox_layers.h"

#include <errno.h>
#include <grp.h>
#include <linux/capability.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef PR_CAP_AMBIENT
#define PR_CAP_AMBIENT 47
#define PR_CAP_AMBIENT_CLEAR_ALL 4
#endif

sandbox_status sandbox_drop_identity(const sandbox_config *cfg, bool before_userns)
{
    if (geteuid() != 0) return sandbox_skip("not root (uid %u)", (unsigned)geteuid());
    uid_t u = cfg->unprivileged_uid;
    gid_t g = cfg->unprivileged_gid;
    pid_t parent = getppid();
    if (setgroups(0, NULL) < 0) return sandbox_skip("setgroups: %s", strerror(errno));
    if (setresgid(g, g, g) < 0) return sandbox_skip("setresgid(%u): %s", (unsigned)g, strerror(errno));
    if (setresuid(u, u, u) < 0) return sandbox_skip("setresuid(%u): %s", (unsigned)u, strerror(errno));
    /* chidori: a credential change clears the parent-death signal the supervisor set; set it
     * again, and leave at once if the parent already died in between. */
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (getppid() != parent) _exit(127);
    /* A uid change clears "dumpable", which makes /proc/self/{uid,gid}_map root-owned and so
     * unwritable for us; restore it until the maps are written (caps step sets it to 0). */
    if (before_userns) prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
    return sandbox_ok("uid/gid %u/%u", (unsigned)u, (unsigned)g);
}

void sandbox_drop_bounding_set(void)
{
    for (int cap = 0; cap < 64; cap++) {
        if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 && errno == EINVAL) break;
    }
}

sandbox_status sandbox_drop_caps(bool bounding_dropped)
{
    if (!bounding_dropped) sandbox_drop_bounding_set();
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
    struct __user_cap_header_struct hdr = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct data[2];
    memset(data, 0, sizeof data);
    if (syscall(SYS_capset, &hdr, data) < 0) return sandbox_skip("capset: %s", strerror(errno));
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    return sandbox_ok("all capabilities dropped, not dumpable");
}

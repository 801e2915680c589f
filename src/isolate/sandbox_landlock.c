/* sandbox_landlock.c — the worker's Landlock domain: PR_SET_NO_NEW_PRIVS, then a ruleset that
 * handles every filesystem right of the running ABI with NO rule (so every path access is
 * denied), TCP bind/connect (ABI >= 4) with no port rule, and scoping of signals and abstract unix
 * sockets (ABI >= 6). Applied after the descriptors are closed (rights are checked at open) and
 * before seccomp (whose allowlist has no Landlock syscall).
 *
 * Trusts: nothing but the kernel; the UAPI numbers are spelled out below because the system
 * header may predate ABI 4. */
#define _GNU_SOURCE
#include "isolate/sandbox_layers.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* ---- Landlock UAPI (the system header may predate ABI 4+) ---- */
#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#define __NR_landlock_add_rule 445
#define __NR_landlock_restrict_self 446
#endif
#define LL_CREATE_RULESET_VERSION (1U << 0)
#define LL_FS_ABI1 ((1ULL << 13) - 1) /* EXECUTE .. MAKE_SYM */
#define LL_FS_REFER (1ULL << 13)       /* ABI 2 */
#define LL_FS_TRUNCATE (1ULL << 14)    /* ABI 3 */
#define LL_FS_IOCTL_DEV (1ULL << 15)   /* ABI 5 */
#define LL_FS_RESOLVE_UNIX (1ULL << 16) /* ABI 9 */
#define LL_NET_BIND_TCP (1ULL << 0)    /* ABI 4 */
#define LL_NET_CONNECT_TCP (1ULL << 1)
#define LL_SCOPE_ABSTRACT_UNIX (1ULL << 0) /* ABI 6 */
#define LL_SCOPE_SIGNAL (1ULL << 1)
struct ll_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

int sandbox_landlock_abi(void)
{
    long abi = syscall(__NR_landlock_create_ruleset, NULL, 0, LL_CREATE_RULESET_VERSION);
    return abi < 0 ? 0 : (int)abi;
}

sandbox_status sandbox_landlock(int *abi_out)
{
    int abi = sandbox_landlock_abi();
    if (abi_out) *abi_out = abi;
    if (abi <= 0) return sandbox_skip("Landlock unavailable (%s)", strerror(errno));
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) return sandbox_skip("PR_SET_NO_NEW_PRIVS: %s", strerror(errno));
    struct ll_ruleset_attr attr = {0};
    attr.handled_access_fs = LL_FS_ABI1;
    if (abi >= 2) attr.handled_access_fs |= LL_FS_REFER;
    if (abi >= 3) attr.handled_access_fs |= LL_FS_TRUNCATE;
    if (abi >= 5) attr.handled_access_fs |= LL_FS_IOCTL_DEV;
    if (abi >= 9) attr.handled_access_fs |= LL_FS_RESOLVE_UNIX;
    size_t size = sizeof attr.handled_access_fs;
    if (abi >= 4) {
        attr.handled_access_net = LL_NET_BIND_TCP | LL_NET_CONNECT_TCP;
        size = 2 * sizeof(uint64_t);
    }
    if (abi >= 6) {
        attr.scoped = LL_SCOPE_ABSTRACT_UNIX | LL_SCOPE_SIGNAL;
        size = sizeof attr;
    }
    int fd = (int)syscall(__NR_landlock_create_ruleset, &attr, size, 0);
    if (fd < 0) return sandbox_skip("landlock_create_ruleset (abi %d): %s", abi, strerror(errno));
    /* No rule is added: every handled access is denied everywhere. */
    long rc = syscall(__NR_landlock_restrict_self, fd, 0);
    int e = errno;
    close(fd);
    if (rc < 0) return sandbox_skip("landlock_restrict_self: %s", strerror(e));
    return sandbox_ok("abi %d: all fs rights denied%s%s", abi, abi >= 4 ? ", tcp bind/connect denied" : "",
                 abi >= 6 ? ", signals and abstract unix sockets scoped" : "");
}

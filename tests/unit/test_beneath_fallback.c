/* test_beneath_fallback.c — open_beneath (src/host/beneath.c) where openat2 is missing (kernels
 * before 5.6): the fallback that resolves the path and checks its prefix must refuse what the
 * openat2 path refuses, a symlink of the folder that leads into its `.chidori` state folder
 * included. The child makes openat2 fail with ENOSYS through a seccomp filter of its own, as such a
 * kernel would, and reports what each open gave. */
#define _GNU_SOURCE
#include "unit.h"
#include "host/host_internal.h"
#include "util/buf.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* openat2 → ENOSYS; everything else allowed. */
static int no_openat2(void)
{
    struct sock_filter f[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat2, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {.len = sizeof f / sizeof f[0], .filter = f};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
    return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

static void put(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd >= 0) {
        ssize_t w = write(fd, text, strlen(text));
        (void)w;
        close(fd);
    }
}

/* In a child with openat2 gone: 0 when open_beneath(rel) opened, else its errno (255: no filter). */
static int fallback_open(const char *root, const char *rel)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (no_openat2() != 0) _exit(255);
        int dfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
        int fd = open_beneath(dfd, root, rel, O_RDONLY, 0);
        _exit(fd >= 0 ? 0 : errno & 0x7f);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 254;
}

TEST(open_beneath_fallback_refuses_a_symlink_into_the_state_folder)
{
    char top[] = "/tmp/chidori-beneath-XXXXXX";
    CHECK(mkdtemp(top) != NULL);
    char *root = NULL, *p;
    int rc;
    p = xasprintf("%s/proj", top), mkdir(p, 0700), free(p);
    p = xasprintf("%s/proj/.chidori", top), mkdir(p, 0700), free(p);
    p = xasprintf("%s/proj/.chidori/secret.js", top), put(p, "secret"), free(p);
    p = xasprintf("%s/proj/ok.js", top), put(p, "ok"), free(p);
    p = xasprintf("%s/outside.js", top), put(p, "outside"), free(p);
    p = xasprintf("%s/proj/state_link", top), rc = symlink(".chidori", p), free(p);
    char *out = xasprintf("%s/outside.js", top);
    p = xasprintf("%s/proj/link_out.js", top), rc = symlink(out, p), free(p);
    free(out);
    root = xasprintf("%s/proj", top);
    int ok = fallback_open(root, "ok.js");
    int state = fallback_open(root, "state_link/secret.js");
    int named = fallback_open(root, ".chidori/secret.js");
    int outside = fallback_open(root, "link_out.js");
    char *rm = xasprintf("rm -rf '%s'", top);
    rc = system(rm);
    (void)rc;
    free(rm);
    free(root);
    CHECK(ok == 0);                   /* the fallback itself works (255 would mean no filter) */
    CHECK(state == EACCES);           /* a symlink of the folder into .chidori */
    CHECK(named == EACCES);           /* .chidori by name */
    CHECK(outside == EXDEV);          /* a symlink out of the folder */
}

/* beneath.c — opening paths that must stay inside a folder (modules, nested agents, templates,
 * the workspace). One mechanism for all of them.
 *
 * Trusts nothing in the relative path. Uses openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS)
 * relative to the folder's descriptor, so the kernel refuses `..` escapes and symlinks that
 * lead outside at the moment of the open (no window between a check and the use). Where openat2
 * is missing (ENOSYS) it falls back to resolving the path and checking the prefix, which has that
 * window; docs/sandbox-model.md says so.
 */
#define _GNU_SOURCE
#include "host/host_internal.h"
#include "util/buf.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

bool path_is_confined(const char *rel, size_t len)
{
    if (len == 0 || len > PATH_MAX || strlen(rel) != len || rel[0] == '/') return false;
    const char *p = rel;
    while (*p) {
        const char *slash = strchr(p, '/');
        size_t n = slash ? (size_t)(slash - p) : strlen(p);
        if (n == 2 && p[0] == '.' && p[1] == '.') return false;
        p += n;
        if (*p == '/') p++;
    }
    return true;
}

bool path_names_state_dir(const char *rel)
{
    /* Any part, not only the first: a folder holding another agent's folder (a workspace root
     * above the agent, a project with sub-agents) holds its state folder as `sub/.chidori`, and
     * the bytecode cache's key, the call logs and the memory are in it. */
    size_t n = strlen(STATE_DIR_NAME);
    for (const char *p = rel; *p;) {
        while (*p == '/') p++;
        if (strncmp(p, STATE_DIR_NAME, n) == 0 && (p[n] == '\0' || p[n] == '/')) return true;
        p += strcspn(p, "/");
    }
    return false;
}

/* Did the open of fd, beneath dirfd, end in the folder's state folder? A symlink of the folder
 * (`s -> .chidori`, shipped with the agent) stays beneath it, so the kernel follows it, and the
 * name check above sees only `s/...`: the paths the two descriptors stand for say where it led.
 * When /proc cannot say, the file is refused (the state folder is the one thing to protect). */
static bool opened_in_state_dir(int dirfd, int fd)
{
    char link[64], dir[PATH_MAX], file[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", dirfd);
    ssize_t dn = readlink(link, dir, sizeof dir - 1);
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t fn = readlink(link, file, sizeof file - 1);
    if (dn <= 0 || fn <= 0 || (size_t)dn >= sizeof dir - 1 || (size_t)fn >= sizeof file - 1) return true;
    dir[dn] = file[fn] = '\0';
    size_t n = (size_t)dn;
    if (n == 1 && dir[0] == '/') n = 0; /* the folder is / itself */
    if (strncmp(file, dir, n) != 0 || file[n] != '/') return false; /* not beneath it (RESOLVE_BENEATH says it is) */
    return path_names_state_dir(file + n + 1);
}

/* No openat2 (ENOSYS): resolve the path and check the prefix ourselves, which has a window
 * between the check and the open (docs/sandbox-model.md). flags already hold O_NONBLOCK. */
static int open_unchecked_fallback(const char *dir_path, const char *rel, int flags, int mode)
{
    /* the parent must exist for creation */
    char *full = xasprintf("%s/%s", dir_path, rel);
    char *real = realpath(full, NULL);
    if (!real && (flags & O_CREAT)) {
        char *slash = strrchr(full, '/');
        *slash = '\0';
        char *parent = realpath(full, NULL);
        if (parent) real = xasprintf("%s/%s", parent, slash + 1);
        free(parent);
        *slash = '/';
    }
    free(full);
    if (!real) return -1;
    size_t rl = strlen(dir_path);
    bool inside = strncmp(real, dir_path, rl) == 0 && real[rl] == '/';
    /* where a symlink of the folder led, as the openat2 path checks it (opened_in_state_dir) */
    if (inside && path_names_state_dir(real + rl + 1)) {
        free(real);
        errno = EACCES;
        return -1;
    }
    int fd = inside ? open(real, flags | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW, mode) : (errno = EXDEV, -1);
    free(real);
    return fd;
}

int open_beneath(int dirfd, const char *dir_path, const char *rel, int flags, int mode)
{
    if (!path_is_confined(rel, strlen(rel))) {
        errno = EXDEV;
        return -1;
    }
    if (path_names_state_dir(rel)) { /* the call log and memory are not the agent's to read */
        errno = EACCES;
        return -1;
    }
    flags |= O_NONBLOCK; /* a FIFO planted in the folder must not hang the host in open() */
    struct open_how how = {
        .flags = (uint64_t)(flags | O_CLOEXEC | O_NOCTTY),
        .mode = (flags & O_CREAT) ? (uint64_t)mode : 0,
        .resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
    };
    /* First with no symlinks at all: then the file is the folder's `rel`, part for part, and the
     * name check above already said it is not in the state folder, so /proc need not be asked (two
     * readlinks per open: most of a package import's syscalls). A path through a symlink fails with
     * ELOOP and is opened again following it, and checked. */
    how.resolve |= RESOLVE_NO_SYMLINKS;
    int fd = (int)syscall(SYS_openat2, dirfd, rel, &how, sizeof how);
    if (fd < 0 && errno == ENOSYS) return open_unchecked_fallback(dir_path, rel, flags, mode);
    if (fd >= 0 || errno != ELOOP) return fd;
    how.resolve &= ~(uint64_t)RESOLVE_NO_SYMLINKS;
    fd = (int)syscall(SYS_openat2, dirfd, rel, &how, sizeof how);
    if (fd >= 0 && opened_in_state_dir(dirfd, fd)) {
        close(fd);
        errno = EACCES;
        return -1;
    }
    if (fd >= 0 || errno != ENOSYS) return fd;
    return open_unchecked_fallback(dir_path, rel, flags, mode);
}

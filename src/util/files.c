/* files.c — whole-file reads with a size cap, regular-file opens, atomic replacement (see
 * files.h). Trusts nothing about what sits at a path. */
#include "util/files.h"
#include "util/buf.h"

#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_of(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISLNK(m) ? "a symbolic link" : S_ISSOCK(m) ? "a socket"
         : S_ISCHR(m) || S_ISBLK(m) ? "a device" : "not a regular file";
}

int open_regular_file(const char *path, int flags, unsigned mode, char **error)
{
    int fd = open(path, flags | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK, (mode_t)mode);
    struct stat st;
    if (fd < 0) {
        int e = errno;
        if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
            *error = xasprintf("%s is %s, not a regular file: a run's files must be plain files (move it away "
                               "and restore the file from a backup)", path, kind_of(st.st_mode));
        else
            *error = xasprintf("cannot open %s: %s", path, strerror(e));
        return -1;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        int e = errno;
        *error = fstat(fd, &st) == 0
                     ? xasprintf("%s is %s, not a regular file: a run's files must be plain files (move it away "
                                 "and restore the file from a backup)", path, kind_of(st.st_mode))
                     : xasprintf("cannot open %s: %s", path, strerror(e));
        close(fd);
        return -1;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    return fd;
}

static char *read_fd_capped(int fd, const char *path, size_t max_bytes, size_t *len, char **error);

char *read_regular_file_capped(const char *path, size_t max_bytes, size_t *len, char **error)
{
    *error = NULL;
    int fd = open_regular_file(path, O_RDONLY, 0, error);
    if (fd < 0) return NULL;
    return read_fd_capped(fd, path, max_bytes, len, error);
}

char *read_file_capped(const char *path, size_t max_bytes, size_t *len, char **error)
{
    *error = NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        *error = xasprintf("cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        close(fd);
        *error = xasprintf("cannot read %s: it is a directory", path);
        return NULL;
    }
    return read_fd_capped(fd, path, max_bytes, len, error);
}

/* Reads fd to its end and closes it. */
static char *read_fd_capped(int fd, const char *path, size_t max_bytes, size_t *len, char **error)
{
    buf b = {0};
    char chunk[65536];
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            *error = xasprintf("cannot read %s: %s", path, strerror(errno));
            break;
        }
        if (n == 0) break;
        if (b.len + (size_t)n > max_bytes) {
            *error = xasprintf("%s is larger than the %zu-byte limit", path, max_bytes);
            break;
        }
        buf_append(&b, chunk, (size_t)n);
    }
    close(fd);
    if (*error) {
        buf_free(&b);
        return NULL;
    }
    if (len) *len = b.len;
    return buf_steal(&b);
}

int write_all(int fd, const void *data, size_t n)
{
    const char *p = data;
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w < 0) return -1;
        if (w == 0) return errno = EIO, -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int write_file_atomic(const char *path, const void *data, size_t len, bool durable, char **error)
{
    char *tmp = xasprintf("%s.tmp", path);
    if (unlink(tmp) != 0 && errno != ENOENT) { /* a directory, or a folder we cannot write */
        *error = xasprintf("cannot write %s: %s is in the way (%s)", path, tmp, strerror(errno));
        free(tmp);
        return -1;
    }
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0600);
    int rc = -1;
    if (fd >= 0) {
        if (write_all(fd, data, len) == 0 && (!durable || fsync(fd) == 0)) rc = 0;
        if (close(fd) != 0) rc = -1;
        if (rc == 0) rc = rename(tmp, path);
    }
    if (rc != 0) {
        *error = xasprintf("cannot write %s: %s", path, strerror(errno));
        unlink(tmp);
    }
    free(tmp);
    return rc;
}

/* files.c — whole-file reads with a size cap (see files.h). */
#include "util/files.h"
#include "util/buf.h"

#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

int write_file_atomic(const char *path, const void *data, size_t len, bool durable, char **error)
{
    char *tmp = xasprintf("%s.tmp", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    int rc = -1;
    if (fd >= 0) {
        const char *p = data;
        size_t left = len;
        while (left) {
            ssize_t w = write(fd, p, left);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) break;
            p += w;
            left -= (size_t)w;
        }
        if (left == 0 && (!durable || fsync(fd) == 0)) rc = 0;
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

/* files.c — whole-file reads with a size cap (see files.h). */
#include "util/files.h"
#include "util/buf.h"

#include <errno.h>
#include <fcntl.h>
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

/* files.h — reading whole files on the trusted side, with a size cap; opening the files of a run
 * folder (records.jsonl, run.json) so that whatever an operator or an intruder left in their place
 * (a FIFO, a symbolic link, a directory, a device) is refused with a clear error instead of
 * blocking the process or being followed. */
#ifndef CHIDORI_FILES_H
#define CHIDORI_FILES_H

#include <stdbool.h>
#include <stddef.h>

/* Reads path into a malloc'd NUL-terminated buffer. Returns NULL with *error set when it cannot
 * be read or is larger than max_bytes. */
char *read_file_capped(const char *path, size_t max_bytes, size_t *len, char **error);

/* Open a file that must be a regular file: with O_NOFOLLOW (a symbolic link is refused) and
 * O_NONBLOCK (a FIFO cannot block the open; the flag is cleared again once the file is known to be
 * regular), then checked with fstat. flags are open(2)'s (O_CLOEXEC is added). The descriptor, or
 * -1 with *error naming the path and what is there instead. */
int open_regular_file(const char *path, int flags, unsigned mode, char **error);

/* read_file_capped for a file that must be regular (see open_regular_file). */
char *read_regular_file_capped(const char *path, size_t max_bytes, size_t *len, char **error);

/* Replace path with data atomically: write path.tmp, flush it to disk when durable, rename it over
 * path. Readers see the old file or the new one, never half of one. A leftover path.tmp (of any
 * kind but a directory) is removed first and the new one is created exclusively, so nothing in
 * its place can block or redirect the write. 0, or -1 with *error. */
/* Writes all n bytes to fd, retrying short writes and EINTR. 0, or -1 with errno. */
int write_all(int fd, const void *data, size_t n);
int write_file_atomic(const char *path, const void *data, size_t len, bool durable, char **error);

#endif

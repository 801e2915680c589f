/* files.h — reading whole files on the trusted side, with a size cap. */
#ifndef CHIDORI_FILES_H
#define CHIDORI_FILES_H

#include <stdbool.h>
#include <stddef.h>

/* Reads path into a malloc'd NUL-terminated buffer. Returns NULL with *error set when it cannot
 * be read or is larger than max_bytes. */
char *read_file_capped(const char *path, size_t max_bytes, size_t *len, char **error);

/* Replace path with data atomically: write path.tmp, flush it to disk when durable, rename it over
 * path. Readers see the old file or the new one, never half of one. 0, or -1 with *error. */
int write_file_atomic(const char *path, const void *data, size_t len, bool durable, char **error);

#endif

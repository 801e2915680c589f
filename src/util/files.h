/* files.h — reading whole files on the trusted side, with a size cap. */
#ifndef CHIDORI_FILES_H
#define CHIDORI_FILES_H

#include <stddef.h>

/* Reads path into a malloc'd NUL-terminated buffer. Returns NULL with *error set when it cannot
 * be read or is larger than max_bytes. */
char *read_file_capped(const char *path, size_t max_bytes, size_t *len, char **error);

#endif

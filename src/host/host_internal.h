/* host_internal.h — the host's run context, shared by host.c and the effect files only. */
#ifndef CHIDORI_HOST_INTERNAL_H
#define CHIDORI_HOST_INTERNAL_H

#include "host/host.h"
#include "host/calllog.h"

struct host {
    char *project_root; /* real path, no trailing slash */
    int root_fd;        /* O_PATH descriptor of project_root: modules resolve beneath it */
    FILE *log_out;
    FILE *console_out;
    calllog *log;
};

/* Helpers for perform functions: fetch a required string argument or set *error. */
const char *host_arg_string(const json_t *args, const char *name, char **error);

#endif

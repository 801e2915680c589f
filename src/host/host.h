/* host.h — the one door out of the engine.
 *
 * Everything guest code can cause outside its own heap crosses host_call(): each chidori.*
 * effect, console output, module loads. The engine cannot tell an in-process host from the
 * broker client of an isolated worker, which is what keeps the two modes byte-identical.
 *
 * For every op host_call does, in this order and in this one place:
 *   replay lookup → policy gate → perform → append to the call log.
 * Ops are declared in ops.c with flags saying whether they are recorded and gated.
 */
#ifndef CHIDORI_HOST_H
#define CHIDORI_HOST_H

#include <stdio.h>
#include <stdint.h>
#include "util/json.h"

typedef struct host host;

typedef struct host_config {
    const char *project_root; /* folder the agent's modules are confined to */
    FILE *log_out;            /* chidori.log lines and console.* (stderr for `run`) */
    FILE *console_out;        /* console.log/info/debug (stdout for `eval`, stderr for `run`) */
} host_config;

/* Returns NULL with *error set (malloc'd) when the configuration cannot be used. */
host *host_new(const host_config *cfg, char **error);
void host_free(host *h);

/* The seam. Returns 0 with *result (caller frees; never NULL on success) or 1 with *error
 * (malloc'd message, caller frees). args must be an object. */
int host_call(host *h, const char *op, const json_t *args, json_t **result, char **error);

/* Introspection for the CLI and tests. */
size_t host_record_count(const host *h);
const char *host_project_root(const host *h);

#endif

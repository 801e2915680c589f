/* seam.h — the one seam between the agent and everything outside it, in a header neither side
 * owns: the engine (untrusted side) calls through it, the host (trusted side) answers it, and
 * neither includes the other's headers to do so.
 *
 * A call names an op and passes an object of arguments; it returns one of the result codes
 * below. In process, the seam's functions are the host's own (host_seam in host/host.h); in an
 * isolated run they are the worker's broker client, which turns each call into a frame to the
 * parent (isolate/protocol.h). The engine cannot tell the two apart.
 *
 * Two entries, never mixed: `call` carries what the agent asks for (every chidori.* effect and
 * console output); `internal` carries chidori's own plumbing (module loads), which no agent code
 * can name. The host refuses an internal op that arrives through `call`.
 */
#ifndef CHIDORI_SEAM_H
#define CHIDORI_SEAM_H

#include <stdint.h>

#include "util/json.h"

/* Result codes of a seam call. */
enum {
    HOST_OK = 0,      /* *result holds the answer */
    HOST_ERROR = 1,   /* *error: the effect failed; the agent sees a thrown Error it may catch */
    HOST_SUSPEND = 2, /* the run must pause here (an input nobody can answer now) */
    HOST_ABORT = 3,   /* *error: the run must end now, uncatchably (divergence, a log that cannot be written) */
};

/* One call through the seam: a HOST_* code; HOST_OK with *result (caller frees), any other code
 * with *error (malloc'd, caller frees; NULL for HOST_SUSPEND). args must be an object. */
typedef int seam_call_fn(void *ctx, const char *op, const json_t *args, json_t **result, char **error);

/* The tree budget's meter (runner/tree_budget.h): the engine says what it has counted so far (the
 * ticks of its CPU budget, the bytes of its heap), just before and just after each `call`; the
 * answer is the ticks spent on its behalf meanwhile (nested runs that ended), which it adds to its
 * own count, so one budget covers a run and the runs it starts. */
typedef uint64_t seam_meter_fn(void *ctx, uint64_t ticks, uint64_t heap_bytes);

typedef struct seam {
    seam_call_fn *call;     /* the agent's ops */
    void *ctx;
    seam_call_fn *internal; /* chidori's own ops (module loads); NULL: none can be made */
    seam_meter_fn *meter;   /* NULL: no tree budget (ctx is the same) */
} seam;

#endif

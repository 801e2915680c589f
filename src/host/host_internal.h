/* host_internal.h — the host's run context, shared by host.c and the effect files only. */
#ifndef CHIDORI_HOST_INTERNAL_H
#define CHIDORI_HOST_INTERNAL_H

#include "host/host.h"
#include "host/calllog.h"
#include "host/llm.h"
#include "host/vfs.h"

typedef struct mcp_hub mcp_hub;
typedef struct policy policy;
typedef struct http_settings http_settings;

#define HOST_MAX_NESTING 8 /* call_agent depth */

struct host {
    char *project_root; /* real path, no trailing slash */
    int root_fd;        /* O_PATH descriptor of project_root: modules resolve beneath it */
    char *state_dir;
    char *workspace_root;
    FILE *log_out;
    FILE *console_out;
    calllog *log;
    uint64_t parent_seq; /* seq of the call_agent whose nested run is calling now; 0 at top level */
    uint64_t call_seq;   /* seq reserved for the call being performed */
    int depth;           /* nesting of call_agent */
    int max_nested_runs; /* CHIDORI_MAX_NESTED_RUNS: call_agent runs per root run, all depths */
    uint64_t nested_runs; /* call_agent calls this root run made, the logged ones included */
    bool nested_runs_counted; /* the logged ones were counted (at the first live call_agent) */
    char **answers;
    size_t n_answers, next_answer;
    bool interactive;
    json_t *pending;
    bool aborted; /* some call returned HOST_ABORT: the run is over */
    char *abort_reason;
    uint64_t open_calls[HOST_MAX_NESTING + 1]; /* seqs of call_agent calls in progress, outermost first */
    size_t n_open_calls;
    host_nested_fn *run_nested;
    void *nested_ctx;
    const struct settings *settings; /* the edge's settings (not owned; NULL: defaults) */
    llm_config llm;   /* providers for `prompt`, from the settings */
    mcp_hub *mcp;     /* tools of CHIDORI_MCP_CONFIG, started on first use */
    bool mcp_loaded;
    const policy *policy;         /* the gate's policy (not owned); NULL lets everything through */
    const policy *session_policy; /* layered stricter-wins on policy (serve sessions) */
    bool auto_approve;            /* CHIDORI_POLICY_AUTO_APPROVE=1 */
    bool approvals_can_suspend;   /* serve: ask_before suspends the run for an approval */
    json_t *approvals;            /* [{target, args}] approved for the rest of the session */
    json_t *pending_approval;     /* {target, args, reason} after an ask_before suspended the run */
    http_settings *http;          /* CHIDORI_HTTP_* (caps, SSRF allowlist), read when the host starts */
    /* node:fs. One VFS per nesting depth: vfs[0] is the run's, vfs[d] belongs to the nested run
     * at depth d while it runs (a completed nested run replays as one record, so its fs calls
     * must not have touched a tree that outlives it). Each starts from vfs_seed. */
    vfs *vfs[HOST_MAX_NESTING + 1];
    json_t *vfs_seed;       /* owned copy of the seed document, or NULL */
    vfs_limits vfs_limits;  /* shared by all the VFSes alive at once (host_vfs) */
    int64_t vfs_clock_ms;   /* the time stamped on "/" and on seeded entries */
    bool fs_disabled;       /* CHIDORI_TS_FS=none */
    /* A chidori.step began (at this depth) since the last fs step barrier (effects/fs.c). */
    bool step_since_fs_barrier[HOST_MAX_NESTING + 1];
    const atomic_int *cancel;     /* the run was cancelled (serve) when it reads non-zero */
    const host_memory_store *memory; /* chidori.memory elsewhere than memory.json, or NULL */
};

/* effects/fs.c: the VFS of the current depth (made and seeded on first use), or NULL + *error;
 * host_vfs_release drops the one of a depth (a nested run's, when it ends). */
vfs *host_vfs(host *h, char **error);
void host_vfs_release(host *h, int depth);
/* effects/agent.c: count a live call_agent call, before its gate (the nested-run cap). */
void host_count_call_agent(host *h);

/* gate.c: HOST_OK to perform, HOST_ERROR (*error) when denied, HOST_SUSPEND to ask. */
int host_gate(host *h, const char *op, const json_t *args, char **error);
/* gate.c: may any call of target be made (allowed or after asking), whatever its args? false with
 * *why (malloc'd, "policy: `tool:x` denied: reason") when every such call would be denied. */
bool host_gate_may_offer(host *h, const char *target, char **why);

/* effects/http.c: the `http` effect's settings from CHIDORI_HTTP_MAX_BYTES, _MAX_REQUEST_BYTES,
 * _MAX_REDIRECTS, _TIMEOUT_MS and _ALLOW_HOSTS (checked when s was built); NULL with *error if not. */
http_settings *http_settings_new(const struct settings *s, char **error);
void http_settings_free(http_settings *s);

/* Helpers for perform functions: fetch a required string argument or set *error. */
const char *host_arg_string(const json_t *args, const char *name, char **error);

/* Open a path relative to a folder without ever leaving it: no absolute paths, no `..`, no NUL,
 * symlinks only while they stay beneath (openat2 RESOLVE_BENEATH, or a checked fallback).
 * Returns an fd or -1 with errno (EXDEV for an escape). */
int open_beneath(int dirfd, const char *dir_path, const char *rel, int flags, int mode);
/* A relative path is acceptable to open_beneath (and names no `..` part). */
bool path_is_confined(const char *rel, size_t len);
/* The path's first real part (past empty and `.` parts) is the state folder, `.chidori`. */
#define STATE_DIR_NAME ".chidori"
bool path_names_state_dir(const char *rel);

#endif

/* mcp.h — chidori's Model Context Protocol client (stdio transport).
 *
 * Owns: reading CHIDORI_MCP_CONFIG, starting each configured MCP server as a child process (lazily,
 * on first use), the JSON-RPC 2.0 conversation with it over newline-delimited stdin/stdout, and
 * stopping it. The host's tool effect uses this to run `chidori.tool("<server>__<tool>", args)`.
 *
 * Trusts: the configuration (it is the operator's) — and NOTHING a server writes. Every byte on a
 * server's stdout/stderr is hostile: messages are size-capped, bytes per call are capped, JSON is
 * parsed with limits, ids are matched, requests from the server are answered (ping) or refused
 * (-32601), every wait has a deadline, and a server that misbehaves is killed and restarted on its
 * next use. Tool names, descriptions and schemas a server lists are passed on as data only.
 *
 * Decisions (see also mcp.c):
 *  - Environment: a server sees PATH, HOME and LANG from ours (when set) plus its configured
 *    "env", which overrides them. Nothing else leaks (no API keys from the host's environment).
 *  - stderr: a server's stderr goes through a pipe to our stderr, one line at a time, prefixed
 *    "mcp[<server>]: ", control characters escaped, long lines cut, at most 64 KiB per call
 *    forwarded (the rest is read and dropped). "stderr": "discard" in the config drops it all.
 *  - SIGPIPE: never changed process-wide; writes to a server run with SIGPIPE blocked in the
 *    calling thread and a pending SIGPIPE they caused is consumed.
 *  - Timeouts: every request (initialize, each tools/list page, tools/call) has an absolute
 *    deadline, `timeoutMs` (default 30000); progress notifications do not extend it. On timeout a
 *    notifications/cancelled is sent and the server is stopped (restarted on next use).
 *  - A hub is not thread-safe: one caller at a time.
 */
#ifndef CHIDORI_MCP_H
#define CHIDORI_MCP_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#include "util/json.h"

typedef struct mcp_hub mcp_hub;

/* Parse a CHIDORI_MCP_CONFIG document:
 *   {"mcpServers": {"<name>": {"command": "...", "args": [...], "env": {...}, "cwd": "...",
 *                              "timeoutMs": N, "stderr": "forward"|"discard"}}}
 * Strict: unknown keys, wrong types, server names that are not [A-Za-z0-9_-]+, contain "__" or
 * end in "_" are errors naming line:col. Servers start lazily on first use. NULL with *error. */
struct settings;
/* Servers inherit PATH, HOME and LANG from s (settings_env; NULL: none). */
mcp_hub *mcp_hub_new(const char *config_text, size_t len, const struct settings *s, char **error);

/* CHIDORI_MCP_CONFIG (from s) may be inline JSON (first non-blank character '{') or a path to a
 * JSON file, read now. NULL with *error == NULL when the setting is unset or empty. */
mcp_hub *mcp_hub_from_settings(const struct settings *s, char **error);

/* All tools as [{name: "<server>__<tool>", description, inputSchema}] (starts every server).
 * Tools whose names are not 1..128 of [A-Za-z0-9_.-] are skipped with a note on stderr. */
int mcp_hub_list_tools(mcp_hub *hub, json_t **tools, char **error);
/* The same for one server (server[0..len)), starting only that one; its tools are appended to
 * `tools` (an array). -1 with *error, also for a server that is not configured. */
int mcp_hub_list_server_tools(mcp_hub *hub, const char *server, size_t len, json_t *tools, char **error);

/* Call "<server>__<tool>" with arguments (an object; NULL means {}). On success *result is a new
 * object {content: [...], isError: bool, structuredContent?: object} built from the server's
 * result (other fields dropped); a tool-level failure is isError:true, not an error.
 * -1 with *error naming the server and the cause when: the name is unknown, the server cannot
 * start, it died, wrote something that is not a JSON-RPC message, exceeded a size cap, timed out
 * (the server is stopped and restarted on next use), or answered with a JSON-RPC error (the server
 * stays up). */
int mcp_hub_call_tool(mcp_hub *hub, const char *qualified_name, const json_t *arguments, json_t **result,
                      char **error);

/* Clean shutdown of every started server: close its pipes (stdin EOF), wait up to 500 ms, SIGTERM
 * its process group, wait up to 500 ms, SIGKILL; every child is reaped. NULL is fine. */
void mcp_hub_free(mcp_hub *hub);

/* ---- Tuning (tests use it; the defaults are what production uses) ---- */
typedef struct mcp_limits {
    size_t max_message_bytes;   /* one JSON-RPC line from a server; default 16 MiB */
    size_t max_bytes_per_call;  /* all stdout bytes read while waiting for one response; default 64 MiB */
    size_t max_pending_write;   /* bytes queued to a server that does not read them; default 4 MiB */
    int max_list_pages;         /* tools/list pages per server; default 100 */
    size_t max_tools;           /* tools per server; default 10000 */
    int shutdown_grace_ms;      /* each of the two waits in a clean shutdown; default 500 */
} mcp_limits;
void mcp_hub_set_limits(mcp_hub *hub, const mcp_limits *limits);
void mcp_limits_default(mcp_limits *limits);
/* pid of a server's process (0 when not running); tests use it to check reaping and restarts. */
int mcp_hub_server_pid(mcp_hub *hub, const char *server);

/* ---- The protocol engine without I/O (mcp_proto.c), exposed for tests and fuzzing ----
 * A session holds the framing state of one server connection. The I/O loop feeds it whatever
 * bytes arrived on the server's stdout; it splits lines, parses them, answers the server's
 * requests into `out` (bytes to write to the server's stdin) and reports the response to the
 * request it is waiting for. */
typedef struct mcp_session {
    char *name;              /* server name, for messages */
    char *in;                /* bytes after the last complete line */
    size_t in_len, in_cap;
    size_t in_scanned;       /* bytes of `in` known to hold no newline */
    char *out;               /* bytes to send to the server */
    size_t out_len, out_cap;
    size_t max_message_bytes;
    int64_t next_id;
    int64_t waiting_id;      /* id of the request in flight, -1 when none */
    size_t bytes_this_call;
    size_t max_bytes_per_call;
    size_t max_pending_write;
    json_t *response;        /* the matched response: its "result" (owned) */
    json_t *rpc_error;       /* or its "error" object (owned) */
    char *error;             /* transport/protocol failure (owned) */
    unsigned long ignored;   /* notifications and unmatched responses seen */
    unsigned long answered;  /* server requests answered */
} mcp_session;

enum mcp_feed_status { MCP_FEED_MORE = 0, MCP_FEED_DONE = 1, MCP_FEED_FAIL = -1 };

void mcp_session_init(mcp_session *s, const char *name, const mcp_limits *limits);
void mcp_session_reset(mcp_session *s); /* forget all buffered bytes and state (new process) */
void mcp_session_free(mcp_session *s);
/* Queue a request (method + params, params owned and freed) and start waiting for its response.
 * Returns its id. */
int64_t mcp_session_request(mcp_session *s, const char *method, json_t *params);
/* Queue a notification (params owned, may be NULL). */
void mcp_session_notify(mcp_session *s, const char *method, json_t *params);
/* Feed bytes read from the server. DONE: s->response or s->rpc_error is set (take them).
 * FAIL: s->error says why; the connection is unusable. MORE: keep reading. Bytes after the
 * response stay buffered for the next call. */
int mcp_session_feed(mcp_session *s, const char *data, size_t len);
/* The stream ended (EOF): FAIL with a message, mentioning a partial line if there was one. */
void mcp_session_eof(mcp_session *s, const char *why);
/* Drop the first n bytes of s->out (they were written). */
void mcp_session_consumed(mcp_session *s, size_t n);

/* Result shaping (mcp_proto.c): check a tools/call result and build {content, isError,
 * structuredContent?}; check one tools/list page and append its valid tools, qualified, to
 * `tools` (a line per skipped tool goes to `notes` when given). NULL / -1 with *error (a message
 * without the server name) on a malformed result. */
struct buf;
json_t *mcp_shape_call_result(const json_t *result, char **error);
int mcp_collect_tools(const char *server, const json_t *result, json_t *tools, size_t max_tools, char **next_cursor,
                      struct buf *notes, char **error);

/* Config validation only (mcp_config.c), exposed for the fuzzer. */
typedef struct mcp_server_config {
    char *name;
    char *command;
    char **args;   /* NULL-terminated, args[0] is the command */
    char **env;    /* NULL-terminated "K=V" */
    char *cwd;     /* NULL: inherit */
    int timeout_ms;
    bool discard_stderr;
} mcp_server_config;
int mcp_config_parse(const char *text, size_t len, const struct settings *s, mcp_server_config **servers,
                     size_t *count, char **error);
void mcp_config_free(mcp_server_config *servers, size_t count);

#endif

/* settings.c — the table of every CHIDORI_* setting, its one parser, and the accessors (see
 * settings.h). docs/settings.md holds the same table for people; `chidori settings` prints this one
 * and tests/cases_settings.py checks that the two agree.
 *
 * Owns: the table, the copies of the values it was given. Trusts nothing in the values.
 */
#define _GNU_SOURCE
#include "settings/settings.h"
#include "settings/saved_keys.h"
#include "engine/engine.h"
#include "host/calllog.h"
#include "host/ssrf.h"
#include "host/vfs.h"
#include "util/buf.h"
#include "util/fnv.h"
#include "util/json.h"
#include "util/termtext.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define U64_MAX_ UINT64_MAX
#define MiB(n) ((uint64_t)(n) << 20)

/* The commands that read a setting, as the table says them. */
#define RUNS "run, replay, resume, eval, serve"     /* wherever an agent's host runs */
#define ENGINE "run, replay, resume, eval, sandbox, serve"
#define ISOLATED "run, replay, resume, sandbox, serve" /* wherever a worker is started */
#define DURABLE "run, replay, resume, serve"
#define SERVE "serve"

static const char *const ISOLATE_WORDS[] = {"process", "off", NULL};
static const char *const FS_ENGINE_WORDS[] = {"auto", "prepared", "own", NULL};
static const char *const DATE_WORDS[] = {"virtual", "frozen", NULL};
static const char *const RANDOM_WORDS[] = {"seeded", "fixed", NULL};
static const char *const TIMERS_WORDS[] = {"virtual", NULL};
static const char *const CRYPTO_WORDS[] = {"captured", NULL};
static const char *const FS_WORDS[] = {"vfs", "none", NULL};
static const char *const IMPORTS_WORDS[] = {"node", "project", "relative", "none", NULL};

static int check_allow_hosts(const char *value, char **why)
{
    ssrf_allow *a = ssrf_allow_parse(value, why);
    if (!a) return -1;
    ssrf_allow_free(a);
    return 0;
}

/* CHIDORI_DB_URL: a PostgreSQL URL (src/serve/db.h); the server checks that it connects */
static int check_db_url(const char *value, char **why)
{
    if (!strncmp(value, "postgresql://", 13) || !strncmp(value, "postgres://", 11)) return 0;
    *why = xstrdup("is not a postgresql:// or postgres:// URL (a SQLite file is CHIDORI_DB_PATH)");
    return -1;
}

/* CHIDORI_TEST_LLM_TOOL_CALL: what the test provider's first reply calls (src/host/llm.c) */
static int check_tool_call(const char *value, char **why)
{
    json_limits lim = {64 << 10, 32, 0};
    json_t *v = json_parse(value, strlen(value), &lim, NULL);
    const json_t *id = json_object_get(v, "id"), *name = json_object_get(v, "name");
    int ok = json_is_object(v) && (!id || json_is_string(id)) && (!name || json_is_string(name));
    json_free(v);
    if (ok) return 0;
    *why = xstrdup("must be a JSON object {\"id\"?: text, \"name\"?: text, \"input\"?: any JSON} of at most 64 KiB");
    return -1;
}

/* CHIDORI_WORKSPACE_ATTEMPT: a whole number a JSON number holds exactly */
static int check_attempt(const char *value, char **why)
{
    size_t n = strlen(value);
    bool ok = n >= 1 && n <= 15;
    for (size_t i = 0; ok && i < n; i++) ok = value[i] >= '0' && value[i] <= '9';
    if (ok) return 0;
    *why = xstrdup("must be a whole number of at most 15 digits");
    return -1;
}

#define ISOLATE_SKIP_MAX 127 /* isolate_sandbox.skip holds it with its NUL */

static int check_skip(const char *value, char **why)
{
    if (strlen(value) <= ISOLATE_SKIP_MAX) return 0;
    *why = xasprintf("is too long (at most %d bytes)", ISOLATE_SKIP_MAX);
    return -1;
}

/* CHIDORI_NODE_ID: a name that goes into logs and views as it is */
static int check_node_id(const char *value, char **why)
{
    size_t n = strlen(value);
    bool ok = n >= 1 && n <= 128;
    for (size_t i = 0; ok && i < n; i++) {
        char c = value[i];
        ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
             c == ':' || c == '-';
    }
    if (ok) return 0;
    *why = xstrdup("must be 1 to 128 letters, digits, `.`, `_`, `:` or `-`");
    return -1;
}

#define NUM(n, lo, hi, d, dt, cmds, what) \
    {.name = n, .kind = SETTING_NUMBER, .min = lo, .max = hi, .def = d, .default_text = dt, .commands = cmds, .meaning = what}
/* serve's own numbers refuse an empty value (they always have; the others take it as unset) */
#define SERVE_NUM(n, lo, hi, d, dt, what) \
    {.name = n, .kind = SETTING_NUMBER, .min = lo, .max = hi, .def = d, .default_text = dt, .commands = SERVE, \
     .meaning = what, .empty_refused = true}
#define TEXT(n, dt, acc, cmds, what) \
    {.name = n, .kind = SETTING_TEXT, .default_text = dt, .accepted = acc, .commands = cmds, .meaning = what}
#define FLAG(n, d, cmds, what) \
    {.name = n, .kind = SETTING_FLAG, .def = d, .default_text = d ? "1" : "0", .commands = cmds, .meaning = what}
#define WORD(n, w, note, cmds, what) \
    {.name = n, .kind = SETTING_WORD, .words = w, .host_note = note, .default_text = NULL, .commands = cmds, .meaning = what}

static const setting_def TABLE[] = {
    /* the engine's limits (docs/limits.md) */
    NUM("CHIDORI_JS_OP_BUDGET", 0, U64_MAX_, ENGINE_DEFAULT_OP_BUDGET, "5000000000", ENGINE,
        "CPU budget of a run in ticks (function calls, backward jumps, poll points); 0 turns it off"),
    NUM("CHIDORI_JS_MEM_CAP_MB", 0, (uint64_t)1 << 40, ENGINE_DEFAULT_MEM_CAP_MB, "4096", ENGINE,
        "ceiling of the engine's live heap, in MiB; 0 turns it off"),
    NUM("CHIDORI_JS_DEADLINE_MS", 0, U64_MAX_, 0, "0", ENGINE,
        "wall-clock deadline of a run from its start, in ms (time in effects included); 0: none"),
    NUM("CHIDORI_JS_MAX_ALLOC_MB", 0, (uint64_t)1 << 40, ENGINE_DEFAULT_MAX_ALLOC_MB, "1024", ENGINE,
        "largest single engine allocation, in MiB; 0 turns it off"),
    /* the call log (docs/durable-runs.md) */
    NUM("CHIDORI_LOG_MAX_RECORDS", 1, CALLLOG_MAX_RECORDS_LIMIT, CALLLOG_DEFAULT_MAX_RECORDS, "100000", DURABLE,
        "most records a run's call log (a session's whole log under serve) may hold"),
    NUM("CHIDORI_LOG_MAX_BYTES", 1024, CALLLOG_MAX_BYTES_LIMIT, CALLLOG_DEFAULT_MAX_BYTES, "268435456", DURABLE,
        "most bytes a run's call log (a session's whole log under serve) may hold"),
    /* the determinism a run starts from (docs/durable-runs.md) */
    {.name = "CHIDORI_SEED", .kind = SETTING_NUMBER, .min = 0, .max = U64_MAX_, .def = 0,
     .default_text = "random", .commands = "run, eval, serve",
     .meaning = "pins the seed a new run (a new session) starts from; replay and resume use the recorded one"},
    {.name = "CHIDORI_CLOCK_START_MS", .kind = SETTING_NUMBER, .min = 0, .max = 8640000000000000ull, .def = 0,
     .noun = "a number of milliseconds since 1970", .default_text = "now", .commands = "run, eval, serve",
     .meaning = "pins the virtual clock's start of a new run (a new session); replay and resume use the recorded one"},
    /* the captured surface (docs/captured-surface.md, docs/vfs.md) */
    WORD("CHIDORI_TS_DATE", DATE_WORDS,
         "a host clock does not exist; Date reads a virtual clock that starts at the run's recorded start, so "
         "replays see the same times", RUNS,
         "`Date`: a virtual clock that moves with virtual time, or frozen at the run's start"),
    WORD("CHIDORI_TS_RANDOM", RANDOM_WORDS,
         "host randomness for Math.random does not exist; Math.random is seeded from the run's recorded seed; "
         "node:crypto's randomBytes is captured in the call log", RUNS,
         "`Math.random`: seeded from the run's seed, or a fixed seed"),
    WORD("CHIDORI_TS_TIMERS", TIMERS_WORDS,
         "a host timer mode does not exist; timers run on virtual time, so a run never sleeps and replays fire "
         "them in the same order", RUNS, "timers run on virtual time"),
    WORD("CHIDORI_TS_CRYPTO", CRYPTO_WORDS,
         "an uncaptured crypto mode does not exist; random bytes are drawn by the host and recorded, so replays "
         "get the same bytes", RUNS, "random bytes are drawn by the host and recorded"),
    WORD("CHIDORI_TS_FS", FS_WORDS,
         "a host filesystem mode does not exist; chidori.workspace is the audited way to real files", RUNS,
         "`node:fs`: the in-memory VFS, or none (every call fails)"),
    WORD("CHIDORI_TS_IMPORTS", IMPORTS_WORDS, NULL, RUNS,
         "what an agent may import: `node` files, npm packages and Node built-ins; `project` files and npm "
         "packages; `relative` its own files only; `none` nothing but chidori:agent"),
    {.name = "CHIDORI_VFS_MAX_BYTES", .kind = SETTING_NUMBER, .min = 1, .max = VFS_MAX_MAX_BYTES,
     .def = VFS_DEFAULT_MAX_BYTES, .noun = "a number of bytes", .default_text = "67108864", .commands = RUNS,
     .meaning = "size cap of the VFS (file contents and names)"},
    TEXT("CHIDORI_VFS_SEED", "unset", "a path to a JSON file", RUNS,
         "files the VFS starts with; a replay or resume needs the same file"),
    /* isolation (docs/sandbox-model.md, docs/limits.md) */
    WORD("CHIDORI_ISOLATE", ISOLATE_WORDS, NULL, "run, replay, resume, serve",
         "run agents in a confined worker process, or in-process (--isolate / --no-isolate win)"),
    FLAG("CHIDORI_ISOLATE_REQUIRE_SANDBOX", 0, ISOLATED,
         "1: a core confinement layer that cannot be applied fails the run instead of being reported skipped"),
    {.name = "CHIDORI_ISOLATE_SKIP", .kind = SETTING_TEXT, .check = check_skip, .default_text = "unset",
     .accepted = "layer names, comma-separated (at most 127 bytes)", .commands = ISOLATED,
     .meaning = "confinement layers left out (userns, netns, mountns, ipc_uts, pidns, landlock, seccomp, rlimits, "
                "cgroup): benchmarks and debugging only"},
    NUM("CHIDORI_ISOLATE_DEADLINE_MS", 0, U64_MAX_, 0, "derived", ISOLATED,
        "the supervisor kills the worker after this many ms (0: never); unset: derived from the run's limits"),
    NUM("CHIDORI_ISOLATE_CPU_SECS", 0, U64_MAX_, 0, "derived", ISOLATED,
        "the worker's RLIMIT_CPU in seconds (0: none); unset: derived from the run's limits"),
    NUM("CHIDORI_ISOLATE_FSIZE_BYTES", 0, U64_MAX_, 0, "0", ISOLATED, "the worker's RLIMIT_FSIZE in bytes; 0: none"),
    TEXT("CHIDORI_ISOLATE_CGROUP", "<cgroup2 mount>/chidori", "a path", ISOLATED,
         "the delegated cgroup v2 directory whose slots workers run in"),
    FLAG("CHIDORI_ISOLATE_AHEAD", 1, ISOLATED,
         "0: a replayed call waits for the parent's answer instead of using the answers of the log offered "
         "ahead, and a trace call (`mark`) waits for its answer too (benchmarks and debugging)"),
    TEXT("CHIDORI_ISOLATE_SELFTEST", "unset", "a probe name", ISOLATED,
         "tests only: the worker tries this one forbidden act and reports what stopped it"),
    /* where things live */
    TEXT("CHIDORI_STATE_DIR", "<agent folder>/.chidori", "a path", DURABLE ", runs",
         "durable state: runs/, memory.json, serve's database"),
    NUM("CHIDORI_PARK_MS", 0, 86400000, 0, "0", "run, resume",
        "how long a run that paused on an input leaves a process waiting, live, for its resume (which then goes on without replaying); 0: off"),
    NUM("CHIDORI_PARK_MAX", 0, 100000, 16, "16", "run, resume",
        "parked runs (see CHIDORI_PARK_MS) of one state folder at once; a pause past it leaves none"),
    TEXT("CHIDORI_PRICES", "unset", "a path to a JSON file", "runs, serve",
         "prices per million tokens by model, {\"model\": {\"input\": 2.5, \"output\": 10}}: `chidori runs` and the dashboard add a cost"),
    TEXT("CHIDORI_PRICING", "unset", "JSON", DURABLE ", runs",
         "prices as the original chidori takes them, model prefix → {\"input_per_mtok\", \"output_per_mtok\", \"cache_read_multiplier\"?}; an exact CHIDORI_PRICES entry wins; kept as is in a run's snapshot manifest (`pricing`)"),
    TEXT("CHIDORI_WORKSPACE_ROOT", "the agent's folder", "a path", RUNS, "the folder chidori.workspace works in"),
    {.name = "CHIDORI_WORKSPACE_ATTEMPT", .kind = SETTING_TEXT, .check = check_attempt, .default_text = "unset",
     .accepted = "a whole number", .commands = RUNS,
     .meaning = "the attempt number chidori.workspace notes in .generation/manifest.json (each write's and delete's "
                "`attempt`, and `activeAttempt`); unset: null"},
    /* policy (docs/policy.md) */
    TEXT("CHIDORI_POLICY_FILE", "unset", "a path to a policy file", DURABLE,
         "the policy, from a file (first of the three policy settings that is set)"),
    TEXT("CHIDORI_POLICY", "unset", "a policy as JSON", DURABLE, "the policy, inline"),
    TEXT("CHIDORI_POLICY_PROFILE", "unset", "`permissive`, `untrusted` or `supervised`", DURABLE,
         "a built-in policy profile"),
    FLAG("CHIDORI_POLICY_AUTO_APPROVE", 0, "run, replay, resume",
         "1: `ask_before` calls are approved without asking (the command line only; serve ignores it)"),
    /* traces (docs/observability.md) */
    FLAG("CHIDORI_OTEL_REPLAY", 0, "replay, resume, serve",
         "1: a replay exports its traces too (replayed calls included); 0: replays export nothing"),
    /* effects (docs/effects.md, docs/network.md) */
    NUM("CHIDORI_MAX_NESTED_RUNS", 0, 1000000, 64, "64", RUNS,
        "most nested runs (chidori.callAgent, all depths) one root run may start"),
    NUM("CHIDORI_TREE_MAX_DEPTH", 0, 8, 8, "8", RUNS,
        "deepest a run of an agent tree may be below its root (nested agents); deeper ends the tree"),
    NUM("CHIDORI_TREE_MAX_LIVE", 1, 1000000, 64, "64", RUNS,
        "most runs of one agent tree alive at once, the root included; more ends the tree"),
    {.name = "CHIDORI_HTTP_ALLOW_HOSTS", .kind = SETTING_TEXT, .check = check_allow_hosts, .default_text = "unset",
     .accepted = "host names, addresses and CIDR blocks, comma-separated", .commands = RUNS,
     .meaning = "non-public hosts and addresses fetch may reach"},
    /* 32 MiB at most: its base64 still fits a 64 MiB worker frame */
    NUM("CHIDORI_HTTP_MAX_BYTES", 1, MiB(32), MiB(16), "16777216", RUNS, "cap on one HTTP response body, in bytes"),
    NUM("CHIDORI_HTTP_MAX_REQUEST_BYTES", 0, MiB(32), MiB(16), "16777216", RUNS,
        "cap on one HTTP request body, in bytes"),
    NUM("CHIDORI_HTTP_MAX_REDIRECTS", 0, 100, 10, "10", RUNS, "redirects one fetch follows"),
    NUM("CHIDORI_HTTP_TIMEOUT_MS", 1, 86400000, 30000, "30000", RUNS, "time for one fetch, all its hops together, in ms"),
    /* the LLM providers (docs/effects.md) */
    TEXT("CHIDORI_MODEL", "ANTHROPIC_MODEL, else the provider's default", "a model name", RUNS,
         "the model chidori.prompt uses when the call names none"),
    TEXT("CHIDORI_OPENAI_COMPAT_URL", "LITELLM_API_URL", "an http(s) URL", RUNS,
         "an OpenAI-compatible endpoint that serves every model (`/chat/completions` is added unless the URL ends in it)"),
    TEXT("CHIDORI_OPENAI_COMPAT_KEY", "LITELLM_API_KEY, else none", "a key", RUNS,
         "the key sent to that endpoint as `Authorization: Bearer <key>`"),
    TEXT("CHIDORI_OPENROUTER_URL", "https://openrouter.ai/api/v1", "an http(s) URL", RUNS ", model-login",
         "where the OpenRouter provider (OPENROUTER_API_KEY) sends its requests, and model-login its key exchange"),
    TEXT("CHIDORI_OPENROUTER_AUTH_URL", "https://openrouter.ai/auth", "an http(s) URL", "model-login",
         "the OpenRouter sign-in page model-login sends the browser to"),
    NUM("CHIDORI_MODEL_LOGIN_TIMEOUT_MS", 1, 3600000, 300000, "300000", "model-login",
        "how long model-login waits for the browser's answer, in ms"),
    NUM("CHIDORI_LLM_TIMEOUT_MS", 1, 86400000, 120000, "120000", RUNS,
        "time for one provider call, in ms: its waits for a request slot and its retries included"),
    NUM("CHIDORI_ANTHROPIC_RPM", 0, 1000000, 0, "0", RUNS,
        "requests a minute this process sends to Anthropic (a burst of that many, then one every 60/N s); 0: no limit"),
    NUM("CHIDORI_OPENAI_RPM", 0, 1000000, 0, "0", RUNS, "the same for the OpenAI provider (OPENAI_API_KEY)"),
    NUM("CHIDORI_OPENAI_COMPAT_RPM", 0, 1000000, 0, "CHIDORI_LITELLM_RPM", RUNS,
        "the same for the OpenAI-compatible endpoint (CHIDORI_OPENAI_COMPAT_URL)"),
    NUM("CHIDORI_LITELLM_RPM", 0, 1000000, 0, "0", RUNS, "CHIDORI_OPENAI_COMPAT_RPM's other name (used when that is 0 or unset)"),
    NUM("CHIDORI_OPENROUTER_RPM", 0, 1000000, 0, "0", RUNS, "the same for OpenRouter"),
    TEXT("CHIDORI_PROMPT_CACHE_DIR", "unset", "a path", RUNS,
         "a folder of answered prompts: a live prompt whose exact request was answered before is answered from it "
         "instead of the provider (replays never read it)"),
    NUM("CHIDORI_PROMPT_CACHE_MAX_MB", 1, 1000000, 1024, "1024", RUNS,
        "the prompt cache's folder holds at most this many MiB: when full, the answers used least recently are removed"),
    TEXT("CHIDORI_TEST_LLM_RESPONSE", "unset", "any text (empty too)", RUNS,
         "tests only: chidori.prompt answers this text without calling a provider"),
    {.name = "CHIDORI_TEST_LLM_TOOL_CALL", .kind = SETTING_TEXT, .check = check_tool_call, .default_text = "unset",
     .accepted = "a JSON object {id?, name?, input?}", .commands = RUNS,
     .meaning = "tests only: with CHIDORI_TEST_LLM_RESPONSE, the process's first prompt answers this tool call "
                "(unless its messages already hold a tool result)"},
    TEXT("CHIDORI_MCP_CONFIG", "unset", "a path to a JSON file, or the JSON itself", RUNS,
         "the MCP servers whose tools chidori.tool calls (read at the first tool call)"),
    /* serve (docs/http-api.md) */
    TEXT("CHIDORI_HOST", "127.0.0.1", "a host name or address", SERVE, "the address serve listens on (--host wins)"),
    TEXT("CHIDORI_DB_PATH", "<state dir>/sessions.sqlite3", "a path", SERVE, "serve's session database"),
    {.name = "CHIDORI_DB_URL", .kind = SETTING_TEXT, .check = check_db_url, .default_text = "unset",
     .accepted = "a postgresql:// URL", .commands = SERVE,
     .meaning = "serve's session database in PostgreSQL instead of SQLite (--db wins; docs/storage.md)"},
    {.name = "CHIDORI_NODE_ID", .kind = SETTING_TEXT, .check = check_node_id, .default_text = "<host name>-<pid>",
     .accepted = "1 to 128 letters, digits, `.`, `_`, `:` or `-`", .commands = SERVE,
     .meaning = "this server's name among the nodes sharing its database (session views show it; docs/scaling.md)"},
    SERVE_NUM("CHIDORI_LEASE_MS", 300, 600000, 10000, "10000",
              "how long a node owns a running session without renewing its lease; another node takes the session over after it (docs/scaling.md)"),
    SERVE_NUM("CHIDORI_CLUSTER_POLL_MS", 20, 600000, 500, "500",
              "on PostgreSQL, while a node hears the other nodes' NOTIFYs: how often it still reads the store for their changes (the safety net; on SQLite, or while not listening, every 100 ms; docs/scaling.md)"),
    TEXT("CHIDORI_API_KEY", "unset", "keys, comma-separated (not empty)", SERVE,
         "keys a client must send as `Authorization: Bearer <key>`; without one, serve listens on loopback only"),
    TEXT("CHIDORI_CORS_ORIGINS", "unset", "origins, comma-separated, or `*` (with a key)", SERVE,
         "web origins allowed to call the API"),
    TEXT("CHIDORI_ALLOWED_HOSTS", "unset", "host names or addresses, comma-separated, or `*` (with a key)", SERVE,
         "Host header names serve answers to besides loopback ones and --host"),
    SERVE_NUM("CHIDORI_MAX_CONCURRENT_SESSIONS", 1, 100000, 8, "8", "sessions running at once"),
    SERVE_NUM("CHIDORI_ACQUIRE_TIMEOUT_MS", 0, 60000, 0, "0",
              "how long a request that would start a run waits for a free slot before its 503 (the original waits 30000; waiting holds an HTTP thread)"),
    SERVE_NUM("CHIDORI_SERVE_WARM_WORKERS", 0, 256, 2, "2", "confined workers kept ready for new runs"),
    SERVE_NUM("CHIDORI_SERVE_PARK_MS", 0, 86400000, 60000, "60000",
              "how long a run paused on an input, a signal or an approval keeps waiting, live, for its answer (a resume then goes on without replaying); 0: off"),
    SERVE_NUM("CHIDORI_SERVE_PARK_MAX", 0, 100000, 16, "16", "parked runs (see CHIDORI_SERVE_PARK_MS) at once; the others pause the replay way"),
    FLAG("CHIDORI_SERVE_FORKSERVER", 1, SERVE, "0: exec each worker instead of forking it from a fork server"),
    SERVE_NUM("CHIDORI_SERVE_FORKSERVER_FORKS", 0, 1000000, 0, "0",
        "workers one fork server forks before a fresh one replaces it; 0: the built-in number"),
    WORD("CHIDORI_SERVE_FORKSERVER_ENGINE", FS_ENGINE_WORDS, NULL, SERVE,
         "fork server's workers: copy its prepared engine, or build their own; auto: by what a page costs here"),
    SERVE_NUM("CHIDORI_SERVE_HTTP_THREADS", 1, 64, 2, "2", "threads of the HTTP event loop"),
    SERVE_NUM("CHIDORI_SERVE_MAX_CONNECTIONS", 64, 1000000, 1024, "1024", "HTTP connections at once"),
    SERVE_NUM("CHIDORI_SERVE_MAX_CONNECTIONS_PER_CLIENT", 1, 1000000, 128, "128", "HTTP connections from one address"),
    SERVE_NUM("CHIDORI_SERVE_IDLE_TIMEOUT", 1, 3600, 15, "15", "seconds a silent connection is kept"),
    SERVE_NUM("CHIDORI_SERVE_HEADER_TIMEOUT", 1, 3600, 10, "10", "seconds a request's headers may take"),
};
#define N_TABLE (sizeof TABLE / sizeof TABLE[0])

static const setting_passthrough PASSTHROUGH[] = {
    {"OPENAI_API_KEY", "chidori.prompt: the OpenAI-compatible provider's key"},
    {"OPENAI_BASE_URL", "chidori.prompt: that provider's address"},
    {"ANTHROPIC_API_KEY", "chidori.prompt: the Anthropic provider's key"},
    {"ANTHROPIC_BASE_URL", "chidori.prompt: that provider's address"},
    {"ANTHROPIC_MODEL", "chidori.prompt: the default model when CHIDORI_MODEL is unset"},
    {"LITELLM_API_URL", "chidori.prompt: the OpenAI-compatible endpoint when CHIDORI_OPENAI_COMPAT_URL is unset"},
    {"LITELLM_API_KEY", "chidori.prompt: its key when CHIDORI_OPENAI_COMPAT_KEY is unset"},
    {"OPENROUTER_API_KEY", "chidori.prompt: the OpenRouter provider's key (unset: the one model-login saved, for what no other provider serves)"},
    {"PATH", "inherited by MCP servers"},
    {"HOME", "inherited by MCP servers; where ~/.chidori/credentials.json is (the OpenRouter key model-login saves)"},
    {"BROWSER", "model-login: the program that opens the sign-in page, given its address (default xdg-open)"},
    {"LANG", "inherited by MCP servers"},
    {"ASAN_OPTIONS", "given to workers of a sanitizer build"},
    {"UBSAN_OPTIONS", "given to workers of a sanitizer build"},
    {"OTEL_EXPORTER_OTLP_ENDPOINT", "traces: the OTLP/HTTP collector (`/v1/traces` is added); unset: no tracing"},
    {"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "traces: the collector's full traces address (wins over the above)"},
    {"OTEL_EXPORTER_OTLP_HEADERS", "traces: headers sent with each export, `k=v,k2=v2`, percent-decoded"},
    {"OTEL_SERVICE_NAME", "traces: the `service.name` of the export (default `chidori`)"},
    {"OTEL_RESOURCE_ATTRIBUTES", "traces: more resource attributes, `k=v,k2=v2`"},
    {"OTEL_TRACES_EXPORTER", "traces: `none` turns tracing off"},
};
#define N_PASSTHROUGH (sizeof PASSTHROUGH / sizeof PASSTHROUGH[0])

typedef struct value {
    char *raw;        /* as given, or NULL */
    uint64_t number;  /* NUMBER, FLAG */
    const char *word; /* WORD */
    bool given;       /* set and not empty */
} value;

struct settings {
    value values[N_TABLE];
    char *env[N_PASSTHROUGH];
    char *saved_openrouter_key; /* ~/.chidori/credentials.json's, when OPENROUTER_API_KEY is blank */
};

const setting_def *settings_table(size_t *count)
{
    *count = N_TABLE;
    return TABLE;
}

const setting_passthrough *settings_passthrough(size_t *count)
{
    *count = N_PASSTHROUGH;
    return PASSTHROUGH;
}


/* The table's rows by name, hashed (open addressing, built once): every host a server makes for a
 * session reads two dozen settings, and a walk of the table with strcmp took about 1,000
 * instructions a name. */
#define BY_NAME_SLOTS 512 /* a power of two, over twice the rows (checked where it is built) */
static uint16_t by_name[BY_NAME_SLOTS]; /* row + 1; 0: empty */
static pthread_once_t by_name_once = PTHREAD_ONCE_INIT;

static size_t name_hash(const char *name)
{
    return (size_t)(fnv1a64_update(FNV1A64_INIT, name, strlen(name)) & (BY_NAME_SLOTS - 1));
}

static void by_name_build(void)
{
    _Static_assert(N_TABLE * 2 < BY_NAME_SLOTS, "settings: BY_NAME_SLOTS must be over twice the table's rows");
    for (size_t i = 0; i < N_TABLE; i++) {
        size_t k = name_hash(TABLE[i].name);
        while (by_name[k]) k = (k + 1) & (BY_NAME_SLOTS - 1);
        by_name[k] = (uint16_t)(i + 1);
    }
}

/* The table's row named name, or NULL. */
const setting_def *settings_find(const char *name)
{
    pthread_once(&by_name_once, by_name_build);
    for (size_t k = name_hash(name); by_name[k]; k = (k + 1) & (BY_NAME_SLOTS - 1))
        if (!strcmp(TABLE[by_name[k] - 1u].name, name)) return &TABLE[by_name[k] - 1u];
    return NULL;
}

static size_t index_of(const char *name, setting_kind want, bool any_kind)
{
    const setting_def *d = settings_find(name);
    if (d && (any_kind || d->kind == want)) return (size_t)(d - TABLE);
    fprintf(stderr, "chidori: internal error: %s is not a setting of that kind in src/settings/settings.c\n", name);
    abort();
}

static const char *lookup(char *const *envp, const char *name)
{
    size_t n = strlen(name);
    /* every start-up runs this once per table row over the whole environment: the first byte
     * rules out most entries before strncmp is called */
    for (size_t i = 0; envp && envp[i]; i++)
        if (envp[i][0] == name[0] && !strncmp(envp[i], name, n) && envp[i][n] == '=') return envp[i] + n + 1;
    return NULL;
}

char *settings_describe_accepted(const setting_def *d)
{
    buf b = {0};
    switch (d->kind) {
    case SETTING_NUMBER:
        if (d->max == UINT64_MAX) buf_printf(&b, "%llu or more", (unsigned long long)d->min);
        else buf_printf(&b, "%llu to %llu", (unsigned long long)d->min, (unsigned long long)d->max);
        if (d->empty_refused) buf_puts(&b, " (not empty)");
        break;
    case SETTING_WORD:
        for (size_t i = 0; d->words[i]; i++)
            buf_printf(&b, "%s`%s`", i == 0 ? "" : d->words[i + 1] ? ", " : " or ", d->words[i]);
        break;
    case SETTING_FLAG:
        buf_puts(&b, "`0` or `1`");
        break;
    case SETTING_TEXT:
        buf_puts(&b, d->accepted ? d->accepted : "any text");
        break;
    }
    return buf_steal(&b);
}

/* The one parser of a number from the environment: decimal digits only, within [min, max]. */
static int parse_number(const char *text, uint64_t min, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;
    if (!*text) return -1;
    for (const char *p = text; *p; p++) {
        if (*p < '0' || *p > '9') return -1;
        unsigned d = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - d) / 10) return -1;
        v = v * 10 + d;
    }
    if (v < min || v > max) return -1;
    *out = v;
    return 0;
}

/* The value as an error shows it: its first 100 bytes, sanitized (an escape sequence in a variable
 * must not drive the terminal the error is printed on). */
static char *shown_value(const char *raw)
{
    size_t n = strnlen(raw, 100);
    buf b = {0};
    term_sanitize(&b, raw, n, false);
    return buf_steal(&b);
}

static char *bad_value(const setting_def *d, const char *given)
{
    char *accepted = settings_describe_accepted(d);
    char *raw = shown_value(given);
    char *e;
    if (d->kind == SETTING_NUMBER)
        e = d->max == UINT64_MAX
                ? xasprintf("%s must be %s (%s), got `%s`", d->name, d->noun ? d->noun : "a whole number", accepted, raw)
                : xasprintf("%s must be %s from %llu to %llu, got `%s`", d->name, d->noun ? d->noun : "a whole number",
                            (unsigned long long)d->min, (unsigned long long)d->max, raw);
    else if (d->kind == SETTING_WORD) {
        buf words = {0};
        for (size_t i = 0; d->words[i]; i++) buf_printf(&words, "%s`%s`", i ? ", " : "", d->words[i]);
        e = xasprintf("%s must be one of %s, got `%s`", d->name, words.data, raw);
        buf_free(&words);
    } else e = xasprintf("%s must be %s, got `%s`", d->name, accepted, raw);
    free(accepted);
    free(raw);
    return e;
}

static int parse_one(const setting_def *d, const char *raw, value *v, char **error)
{
    v->raw = raw ? xstrdup(raw) : NULL;
    v->given = raw && *raw;
    v->number = d->def;
    v->word = d->kind == SETTING_WORD ? d->words[0] : NULL;
    if (raw && !*raw && d->empty_refused) {
        *error = xasprintf("%s must be a whole number from %llu to %llu, got ``", d->name, (unsigned long long)d->min,
                           (unsigned long long)d->max);
        return -1;
    }
    if (!v->given) return 0; /* unset, or empty: the default (a TEXT setting keeps "" in raw) */
    switch (d->kind) {
    case SETTING_TEXT:
        if (d->check) {
            char *why = NULL;
            if (d->check(raw, &why) < 0) {
                *error = xasprintf("%s: %s", d->name, why ? why : "not accepted");
                free(why);
                return -1;
            }
        }
        return 0;
    case SETTING_NUMBER:
        if (parse_number(raw, d->min, d->max, &v->number) == 0) return 0;
        break;
    case SETTING_FLAG:
        if (!strcmp(raw, "0") || !strcmp(raw, "1")) {
            v->number = raw[0] == '1';
            return 0;
        }
        break;
    case SETTING_WORD:
        for (size_t i = 0; d->words[i]; i++)
            if (!strcmp(raw, d->words[i])) {
                v->word = d->words[i];
                return 0;
            }
        if (d->host_note && !strcmp(raw, "host")) {
            *error = xasprintf("%s=host: %s", d->name, d->host_note);
            return -1;
        }
        break;
    }
    *error = bad_value(d, raw);
    return -1;
}

/* The environment split once into its CHIDORI_ entries and the rest, each list NULL-terminated:
 * most rows are CHIDORI_ names and most entries are not, so a row looks only at its own kind
 * (the whole environment once per row was about 45 k instructions of every start). */
#define OUR_PREFIX "CHIDORI_"

static char *const *rows_env(char *const *split[2], const char *name)
{
    return split[strncmp(name, OUR_PREFIX, sizeof OUR_PREFIX - 1) == 0 ? 0 : 1];
}

settings *settings_from_environ(char *const *envp, char **error)
{
    size_t n = 0;
    while (envp && envp[n]) n++;
    char **ours = xcalloc(n + 1, sizeof *ours), **rest = xcalloc(n + 1, sizeof *rest);
    size_t n_ours = 0, n_rest = 0;
    for (size_t i = 0; i < n; i++) {
        if (strncmp(envp[i], OUR_PREFIX, sizeof OUR_PREFIX - 1) == 0) ours[n_ours++] = envp[i];
        else rest[n_rest++] = envp[i];
    }
    char *const *split[2] = {ours, rest};
    settings *s = xcalloc(1, sizeof *s);
    for (size_t i = 0; i < N_TABLE; i++)
        if (parse_one(&TABLE[i], lookup(rows_env(split, TABLE[i].name), TABLE[i].name), &s->values[i], error) < 0) {
            settings_free(s);
            s = NULL;
            break;
        }
    for (size_t i = 0; s && i < N_PASSTHROUGH; i++) {
        const char *v = lookup(rows_env(split, PASSTHROUGH[i].name), PASSTHROUGH[i].name);
        s->env[i] = v ? xstrdup(v) : NULL;
    }
    /* the key the original's `chidori model-login` saved, read here once (saved_keys.c) */
    if (s && text_blank(settings_env(s, "OPENROUTER_API_KEY"))) s->saved_openrouter_key = saved_openrouter_key(settings_env(s, "HOME"));
    free(ours);
    free(rest);
    return s;
}

void settings_free(settings *s)
{
    if (!s) return;
    for (size_t i = 0; i < N_TABLE; i++) free(s->values[i].raw);
    for (size_t i = 0; i < N_PASSTHROUGH; i++) free(s->env[i]);
    if (s->saved_openrouter_key) explicit_bzero(s->saved_openrouter_key, strlen(s->saved_openrouter_key));
    free(s->saved_openrouter_key);
    free(s);
}

const char *settings_saved_openrouter_key(const settings *s) { return s ? s->saved_openrouter_key : NULL; }

const char *settings_text(const settings *s, const char *name)
{
    size_t i = index_of(name, SETTING_TEXT, true);
    return s ? s->values[i].raw : NULL;
}

const char *settings_nonempty(const settings *s, const char *name)
{
    size_t i = index_of(name, SETTING_TEXT, true);
    return s && s->values[i].given ? s->values[i].raw : NULL;
}

bool settings_given(const settings *s, const char *name)
{
    size_t i = index_of(name, SETTING_TEXT, true);
    return s && s->values[i].given;
}

uint64_t settings_u64(const settings *s, const char *name)
{
    size_t i = index_of(name, SETTING_NUMBER, false);
    return s ? s->values[i].number : TABLE[i].def;
}

const char *settings_word(const settings *s, const char *name)
{
    size_t i = index_of(name, SETTING_WORD, false);
    return s ? s->values[i].word : TABLE[i].words[0];
}

bool settings_flag(const settings *s, const char *name)
{
    size_t i = index_of(name, SETTING_FLAG, false);
    return (s ? s->values[i].number : TABLE[i].def) != 0;
}

const char *settings_env(const settings *s, const char *name)
{
    for (size_t i = 0; i < N_PASSTHROUGH; i++)
        if (!strcmp(PASSTHROUGH[i].name, name)) return s ? s->env[i] : NULL;
    fprintf(stderr, "chidori: internal error: %s is not a variable src/settings/settings.c keeps\n", name);
    abort();
}

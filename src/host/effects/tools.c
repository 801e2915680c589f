/* effects/tools.c — chidori.tool(name, args): tools of the MCP servers in CHIDORI_MCP_CONFIG,
 * named <server>__<tool> (mcp.c does the protocol and trusts nothing a server writes).
 *
 * `tool` {name, args} → the MCP result {content, isError, structuredContent?}; a tool that fails
 *   reports isError: true, a server that fails is an error. Gated: the policy sees `tool:<name>`.
 * `tool_schemas` {names, for?} → [{name, description, parameters}] for the named tools, which the
 *   prompt tool loop hands to the model. Recorded, so replay needs no server. Filtered by the
 *   policy: a tool no call of which could pass the gate is withheld (a line on the log stream
 *   says so), and only the servers of offered tools are started. With `for` ("context tools"), a
 *   tool nobody offers is an `Unknown tool: X … (referenced in context tools)` error.
 * Servers start on first use and are shut down cleanly when the run's host is freed.
 *
 * Bare names (no `__`) are the legacy `tools/` folder's (host/tool_dir.h, a compatibility
 * extension): `<agent dir>/tools/NAME.ts` files declaring `export const tool = {name, …}`, scanned at the
 * first call that names one. Such a call runs the file's `run(kwargs, chidori)` as a nested run of
 * this run, exactly as call_agent runs an agent (run_nested: its calls are this call's children, it
 * draws on the tree budget, and its record answers on replay as one unit); its value is the result,
 * recorded as it is with the file in the record's `tool_file` key.
 *
 * A `tool` record is written as the original chidori writes it: args {name, kwargs}, result the
 * text of a reply that is one text block, else its content array; the rest of the MCP result
 * (isError, structuredContent) in the additional key `mcp`, so replay returns it unchanged. A
 * record without `mcp` (written by the original) answers with its result as it is.
 */
#include "host/host_internal.h"
#include "host/mcp.h"
#include "host/ops.h"
#include "host/record_form.h"
#include "host/tool_dir.h"
#include "util/buf.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

extern const effect_module tools_module; /* defined at the end of this file */

/* The MCP servers of CHIDORI_MCP_CONFIG, read and started on first use. */
typedef struct tools_state {
    mcp_hub *mcp;
    bool mcp_loaded;
    json_t *allow; /* an actor's intercept.tools: the only names it may use, or NULL: any */
    tool_dir *dir; /* the tools/ folder, scanned at the first bare name (NULL until then) */
    host_nested_fn *run_nested;
    void *nested_ctx;
} tools_state;

static int tools_init(host *h, const host_config *cfg, void **state, char **error)
{
    (void)h, (void)error;
    tools_state *s = xcalloc(1, sizeof(tools_state));
    s->allow = json_is_array(cfg->tool_allow) ? json_copy(cfg->tool_allow) : NULL;
    s->run_nested = cfg->run_nested;
    s->nested_ctx = cfg->nested_ctx;
    *state = s;
    return 0;
}

/* A name an actor's intercept left out of its registry: for it, that tool does not exist. */
static bool narrowed_out(host *h, const char *name)
{
    const tools_state *s = host_module_state(h, &tools_module);
    if (!s->allow) return false;
    for (size_t i = 0; i < s->allow->u.array.len; i++)
        if (!strcmp(json_string_value(s->allow->u.array.items[i]) ?: "", name)) return false;
    return true;
}

static char *narrowed_error(const char *name)
{
    return xasprintf("Unknown tool: %s (this actor's intercept.tools does not include it; its spawner narrowed "
                     "the tools it may use)", name);
}

static bool is_bare(const char *name) { return !strstr(name, "__"); }

/* The tools/ folder's registry, scanned once per run, at the first bare name. */
static const tool_dir *dir_of(host *h)
{
    tools_state *s = host_module_state(h, &tools_module);
    if (!s->dir) s->dir = tool_dir_scan(h->root_fd, h->project_root, h->log_out);
    return s->dir;
}

static void tools_free(void *state)
{
    tools_state *s = state;
    mcp_hub_free(s->mcp); /* clean shutdown of every MCP server this run started */
    json_free(s->allow);
    tool_dir_free(s->dir);
    free(s);
}

static mcp_hub *hub(host *h, char **error)
{
    tools_state *s = host_module_state(h, &tools_module);
    if (!s->mcp_loaded) {
        char *err = NULL;
        s->mcp = mcp_hub_from_settings(h->settings, &err);
        if (err) {
            *error = xstrdup(err); /* mcp_hub_from_settings names CHIDORI_MCP_CONFIG already */
            free(err);
            return NULL; /* stays unloaded: the next call reports the same configuration error */
        }
        s->mcp_loaded = true;
    }
    if (!s->mcp) *error = xstrdup("no tools are configured: set CHIDORI_MCP_CONFIG to a file or JSON naming MCP servers");
    return s->mcp;
}

/* A tools/ file's run(kwargs, chidori), as a nested run of this run (as effects/agent.c runs one). */
static int run_dir_tool(host *h, const char *name, const char *file, const json_t *targs, json_t **result,
                        char **error)
{
    tools_state *s = host_module_state(h, &tools_module);
    if (!s->run_nested) {
        *error = xasprintf("chidori.tool(%s): tools of the tools/ folder cannot run here", name);
        return HOST_ERROR;
    }
    if (h->depth >= HOST_MAX_NESTING) {
        *error = xasprintf("chidori.tool(%s): agents and tools nested more than %d deep", name, HOST_MAX_NESTING);
        return HOST_ERROR;
    }
    char *input_json = targs && targs->type != JSON_NULL ? json_dump(targs, JSON_COMPACT, NULL) : xstrdup("{}");
    host_nest_enter(h); /* the tool's calls are this call's children */
    char *output = NULL;
    host_nested_end end = {0};
    int rc = s->run_nested(s->nested_ctx, h, file, input_json, &output, &end, error);
    host_nest_leave(h);
    free(input_json);
    if (end.ends_tree && rc != HOST_SUSPEND) { /* a limit of the run's tree: recorded, then the run ends */
        free(output);
        h->end_after_record = true;
        return HOST_ERROR;
    }
    if (rc == HOST_OK || rc == HOST_ERROR) {
        json_free(h->record_extra);
        h->record_extra = json_object();
        json_object_set(h->record_extra, "tree_ticks", json_number((double)end.ticks));
    }
    if (rc == HOST_ERROR && *error) { /* "agent tools/x.ts failed: E" reads as the tool's failure */
        char *prefix = xasprintf("agent %s failed: ", file);
        if (!strncmp(*error, prefix, strlen(prefix))) {
            const char *rest = *error + strlen(prefix), *nl = strchr(rest, '\n'); /* its message, not its stack */
            char *why = xasprintf("tool %s (%s) failed: %.*s", name, file, (int)(nl ? nl - rest : (ptrdiff_t)strlen(rest)), rest);
            free(*error);
            *error = why;
        }
        free(prefix);
    }
    if (rc != HOST_OK) {
        free(output);
        return rc;
    }
    json_error jerr;
    *result = json_parse(output, strlen(output), NULL, &jerr);
    free(output);
    if (!*result) {
        *error = xasprintf("chidori.tool(%s): the tool's value is not JSON (%s)", name, jerr.message);
        return HOST_ERROR;
    }
    return HOST_OK;
}

/* The args in one fresh form {name, args} plus, for a tool of the tools/ folder, `dir` (its file),
 * which only the record's form reads (a `dir` the guest passed is never kept). */
static json_t *tool_prepare_in(host *h, const json_t *args, char **error)
{
    (void)error;
    json_t *o = json_object();
    const json_t *name = json_object_get(args, "name"), *targs = json_object_get(args, "args");
    if (name) json_object_set(o, "name", json_copy(name));
    if (targs) json_object_set(o, "args", json_copy(targs));
    const char *file = NULL;
    if (json_is_string(name) && strlen(name->u.string.bytes) == name->u.string.len && is_bare(name->u.string.bytes) &&
        tool_dir_find(dir_of(h), name->u.string.bytes, &file))
        json_object_set(o, "dir", json_string(file));
    return o;
}

static int effect_tool(host *h, const json_t *args, json_t **result, char **error)
{
    const char *name = host_arg_string(args, "name", error);
    if (!name) return HOST_ERROR;
    const json_t *targs = json_object_get(args, "args");
    if (targs && targs->type != JSON_NULL && !json_is_object(targs)) {
        *error = xasprintf("chidori.tool(%s): arguments must be an object", name);
        return HOST_ERROR;
    }
    if (narrowed_out(h, name)) {
        *error = narrowed_error(name);
        return HOST_ERROR;
    }
    if (is_bare(name)) {
        const char *file = NULL;
        if (!tool_dir_find(dir_of(h), name, &file)) {
            *error = tool_dir_unknown(dir_of(h), name);
            return HOST_ERROR;
        }
        return run_dir_tool(h, name, file, targs, result, error);
    }
    mcp_hub *m = hub(h, error);
    if (!m) return HOST_ERROR;
    json_t *empty = NULL;
    if (!targs || targs->type == JSON_NULL) targs = empty = json_object();
    int rc = mcp_hub_call_tool(m, name, targs, result, error);
    json_free(empty);
    return rc == 0 ? HOST_OK : HOST_ERROR;
}

/* The named tools' schemas, for the tools the policy lets some call of through (tool:<name>
 * allowed or ask_before for some args); the others are withheld with a line on the log stream,
 * and a server none of whose named tools is offered is not started. */
static int effect_tool_schemas(host *h, const json_t *args, json_t **result, char **error)
{
    const json_t *names = json_object_get(args, "names");
    if (!json_is_array(names)) {
        *error = xstrdup("tool_schemas: `names` must be an array");
        return HOST_ERROR;
    }
    for (size_t i = 0; i < names->u.array.len; i++) {
        const json_t *n = names->u.array.items[i];
        if (!json_is_string(n) || strlen(n->u.string.bytes) != n->u.string.len) {
            *error = xasprintf("tool_schemas: name %zu is not a string (tools are named <server>__<tool>)", i);
            return HOST_ERROR;
        }
        if (narrowed_out(h, n->u.string.bytes)) {
            *error = narrowed_error(n->u.string.bytes);
            return HOST_ERROR;
        }
    }
    bool *offered = xcalloc(names->u.array.len + 1, sizeof *offered);
    size_t n_offered = 0;
    for (size_t i = 0; i < names->u.array.len; i++) {
        const char *want = names->u.array.items[i]->u.string.bytes;
        char *target = xasprintf("tool:%s", want), *why = NULL;
        offered[i] = host_gate_may_offer(h, target, &why);
        if (offered[i]) {
            n_offered++;
        } else {
            fputs("chidori: ", h->log_out);
            write_for_terminal(h->log_out, why, strlen(why));
            fputs("; the tool is not offered to the model\n", h->log_out);
            fflush(h->log_out);
        }
        free(target);
        free(why);
    }
    json_t *out = json_array();
    /* only MCP names (with `__`) need a server; bare names are the tools/ folder's */
    size_t n_mcp = 0;
    for (size_t i = 0; i < names->u.array.len; i++)
        if (offered[i] && !is_bare(names->u.array.items[i]->u.string.bytes)) n_mcp++;
    if (n_offered == 0) { /* nothing to ask any server: none is started (nor needs configuring) */
        free(offered);
        *result = out;
        return HOST_OK;
    }
    const char *referenced_in = json_string_value(json_object_get(args, "for")); /* "context tools" */
    mcp_hub *m = n_mcp ? hub(h, error) : NULL;
    if (n_mcp && !m && referenced_in) { /* name the tool, as the original does for a context's tools */
        const char *first = NULL;
        for (size_t i = 0; !first && i < names->u.array.len; i++)
            if (offered[i] && !is_bare(names->u.array.items[i]->u.string.bytes))
                first = names->u.array.items[i]->u.string.bytes;
        char *cause = *error;
        *error = xasprintf("Unknown tool: %s — %s (referenced in %.40s)", first, cause, referenced_in);
        free(cause);
    }
    json_t *all = json_array();
    int rc = m || !n_mcp ? HOST_OK : HOST_ERROR;
    /* list each server that an offered tool names, once */
    for (size_t i = 0; rc == HOST_OK && m && i < names->u.array.len; i++) {
        if (!offered[i]) continue;
        const char *want = names->u.array.items[i]->u.string.bytes;
        const char *sep = strstr(want, "__");
        bool listed = false;
        for (size_t k = 0; sep && k < i && !listed; k++) {
            const char *other = names->u.array.items[k]->u.string.bytes;
            const char *osep = strstr(other, "__");
            listed = offered[k] && osep && osep - other == sep - want && !memcmp(other, want, (size_t)(sep - want));
        }
        if (sep && sep != want && !listed && mcp_hub_list_server_tools(m, want, (size_t)(sep - want), all, error) != 0)
            rc = HOST_ERROR;
    }
    for (size_t i = 0; rc == HOST_OK && i < names->u.array.len; i++) {
        if (!offered[i]) continue;
        const char *want = names->u.array.items[i]->u.string.bytes;
        if (is_bare(want)) { /* a tool of the tools/ folder */
            const json_t *decl = tool_dir_find(dir_of(h), want, NULL);
            if (!decl) {
                char *why = tool_dir_unknown(dir_of(h), want);
                *error = referenced_in ? xasprintf("%s (referenced in %.40s)", why, referenced_in) : xstrdup(why);
                free(why);
                rc = HOST_ERROR;
                break;
            }
            json_array_push(out, json_copy(decl));
            continue;
        }
        const json_t *found = NULL;
        for (size_t j = 0; j < all->u.array.len; j++)
            if (!strcmp(json_string_value(json_object_get(all->u.array.items[j], "name")) ?: "", want))
                found = all->u.array.items[j];
        if (!found) {
            *error = referenced_in
                         ? xasprintf("Unknown tool: %s (no MCP server offers it; tools are named <server>__<tool>, and "
                                     "a defineTool handle is given as the handle, not by name) (referenced in %.40s)",
                                     want, referenced_in)
                         : xasprintf("no tool named `%s` (tools are named <server>__<tool>)", want);
            rc = HOST_ERROR;
            break;
        }
        json_t *t = json_object();
        json_object_set(t, "name", json_string(want));
        const json_t *d = json_object_get(found, "description");
        json_object_set(t, "description", json_is_string(d) ? json_copy(d) : json_string(""));
        const json_t *schema = json_object_get(found, "inputSchema");
        json_object_set(t, "parameters", json_is_object(schema) ? json_copy(schema) : json_object());
        json_array_push(out, t);
    }
    free(offered);
    json_free(all);
    if (rc != HOST_OK) {
        json_free(out);
        return rc;
    }
    *result = out;
    return HOST_OK;
}

/* The policy sees tool:<name> and the tool's own arguments. */
static char *tool_target(const json_t *args, const json_t **match)
{
    const char *name = json_string_value(json_object_get(args, "name"));
    const json_t *targs = json_object_get(args, "args");
    *match = json_is_object(targs) ? targs : NULL;
    return name ? xasprintf("tool:%s", name) : xstrdup("tool:");
}

/* ---- the record's form (record_form.h) ---- */

static json_t *tool_kwargs_form(const json_t *args)
{
    json_t *o = json_object();
    const json_t *name = json_object_get(args, "name"), *targs = json_object_get(args, "args");
    json_object_set(o, "name", name ? json_copy(name) : json_null());
    json_object_set(o, "kwargs", targs && targs->type != JSON_NULL ? json_copy(targs) : json_object());
    return o;
}

/* The original's value of an MCP result: one text block → its text; else the content array (or null). */
static json_t *tool_value(const json_t *result)
{
    const json_t *content = json_object_get(result, "content");
    if (!json_is_array(content)) return json_null();
    if (content->u.array.len == 1) {
        const json_t *text = json_object_get(content->u.array.items[0], "text");
        if (json_is_string(text)) return json_copy(text);
    }
    return json_copy(content);
}

static json_t *tool_rebuild(const json_t *value, const json_t *mcp)
{
    json_t *o = json_object();
    if (!json_object_get(mcp, "content")) {
        if (json_is_string(value)) {
            json_t *block = json_object(), *content = json_array();
            json_object_set(block, "type", json_string("text"));
            json_object_set(block, "text", json_copy(value));
            json_array_push(content, block);
            json_object_set(o, "content", content);
        } else {
            json_object_set(o, "content", json_is_array(value) ? json_copy(value) : json_array());
        }
    }
    for (size_t i = 0; json_is_object(mcp) && i < mcp->u.object.len; i++)
        json_object_set(o, mcp->u.object.items[i].key, json_copy(mcp->u.object.items[i].value));
    return o;
}

static bool same_in_order(const json_t *a, const json_t *b)
{
    if (!json_equal(a, b)) return false;
    for (size_t i = 0; json_is_object(a) && i < a->u.object.len; i++)
        if (strcmp(a->u.object.items[i].key, b->u.object.items[i].key)) return false;
    return true;
}

static void tool_encode(const json_t *args, const json_t *result, json_t **rec_args, json_t **rec_result,
                        json_t **token_usage, json_t **extra)
{
    *rec_args = tool_kwargs_form(args);
    *rec_result = NULL;
    *token_usage = NULL;
    *extra = NULL;
    const json_t *dir = json_object_get(args, "dir");
    if (json_is_string(dir)) { /* a tools/ file's tool: its value as it is, and which file it was */
        *rec_result = result ? json_copy(result) : NULL;
        *extra = json_object();
        json_object_set(*extra, "tool_file", json_copy(dir));
        return;
    }
    if (!result) return;
    *rec_result = tool_value(result);
    /* keep the MCP result less its content; with its content too when the value does not give it back */
    json_t *mcp = json_object();
    for (size_t i = 0; json_is_object(result) && i < result->u.object.len; i++)
        if (strcmp(result->u.object.items[i].key, "content"))
            json_object_set(mcp, result->u.object.items[i].key, json_copy(result->u.object.items[i].value));
    json_t *rebuilt = tool_rebuild(*rec_result, mcp);
    if (!json_is_object(result) || !same_in_order(rebuilt, result)) {
        json_free(mcp);
        mcp = json_object();
        json_object_set(mcp, "result", json_copy(result)); /* not an MCP result we can split: kept whole */
    }
    json_free(rebuilt);
    *extra = json_object();
    json_object_set(*extra, "mcp", mcp);
}

static bool tool_matches(const call_record *rec, const json_t *args)
{
    json_t *mine = tool_kwargs_form(args);
    bool ok = json_equal(call_record_args(rec), mine);
    json_free(mine);
    return ok;
}

static json_t *tool_decode(const call_record *rec)
{
    if (json_is_string(json_object_get(rec->extra, "tool_file"))) return json_copy(rec->result);
    const json_t *mcp = json_object_get(rec->extra, "mcp");
    if (!json_is_object(mcp)) return json_copy(rec->result); /* the original's record: the tool's value */
    const json_t *whole = json_object_get(mcp, "result");
    if (whole) return json_copy(whole);
    return tool_rebuild(rec->result, mcp);
}

const record_form tool_record_form = {
    .encode = tool_encode,
    .matches = tool_matches,
    .decode = tool_decode,
};

static const op_def tools_ops[] = {
    {.name = "tool", .flags = OP_RECORDED | OP_GATED, .perform = effect_tool, .target = tool_target,
     .record = &tool_record_form, .prepare_in = tool_prepare_in},
    {.name = "tool_schemas", .flags = OP_RECORDED, .perform = effect_tool_schemas},
    {0},
};

static const char *const tools_targets[] = {"tool:<name>", NULL};
/* CHIDORI_MCP_CONFIG is read at the first tool call (mcp.c); each server it starts inherits
 * PATH, HOME and LANG (mcp_config.c) */
static const char *const tools_settings[] = {"CHIDORI_MCP_CONFIG", "PATH", "HOME", "LANG", NULL};

const effect_module tools_module = {
    .name = "tools",
    .ops = tools_ops,
    .targets = tools_targets,
    .init = tools_init,
    .free = tools_free,
    .settings = tools_settings,
};

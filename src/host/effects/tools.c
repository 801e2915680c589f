/* effects/tools.c — chidori.tool(name, args): tools of the MCP servers in CHIDORI_MCP_CONFIG,
 * named <server>__<tool> (mcp.c does the protocol and trusts nothing a server writes).
 *
 * `tool` {name, args} → the MCP result {content, isError, structuredContent?}; a tool that fails
 *   reports isError: true, a server that fails is an error. Gated: the policy sees `tool:<name>`.
 * `tool_schemas` {names} → [{name, description, parameters}] for the named tools, which the
 *   prompt tool loop hands to the model. Recorded, so replay needs no server. Filtered by the
 *   policy: a tool no call of which could pass the gate is withheld (a line on the log stream
 *   says so), and only the servers of offered tools are started.
 * Servers start on first use and are shut down cleanly when the run's host is freed.
 */
#include "host/host_internal.h"
#include "host/mcp.h"
#include "host/ops.h"
#include "util/buf.h"

#include <stdlib.h>
#include <string.h>

extern const effect_module tools_module; /* defined at the end of this file */

/* The MCP servers of CHIDORI_MCP_CONFIG, read and started on first use. */
typedef struct tools_state {
    mcp_hub *mcp;
    bool mcp_loaded;
} tools_state;

static int tools_init(host *h, const host_config *cfg, void **state, char **error)
{
    *state = xcalloc(1, sizeof(tools_state));
    return 0;
}

static void tools_free(void *state)
{
    tools_state *s = state;
    mcp_hub_free(s->mcp); /* clean shutdown of every MCP server this run started */
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

static int effect_tool(host *h, const json_t *args, json_t **result, char **error)
{
    const char *name = host_arg_string(args, "name", error);
    if (!name) return HOST_ERROR;
    const json_t *targs = json_object_get(args, "args");
    if (targs && targs->type != JSON_NULL && !json_is_object(targs)) {
        *error = xasprintf("chidori.tool(%s): arguments must be an object", name);
        return HOST_ERROR;
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
    if (n_offered == 0) { /* nothing to ask any server: none is started (nor needs configuring) */
        free(offered);
        *result = out;
        return HOST_OK;
    }
    mcp_hub *m = hub(h, error);
    json_t *all = json_array();
    int rc = m ? HOST_OK : HOST_ERROR;
    /* list each server that an offered tool names, once */
    for (size_t i = 0; rc == HOST_OK && i < names->u.array.len; i++) {
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
        const json_t *found = NULL;
        for (size_t j = 0; j < all->u.array.len; j++)
            if (!strcmp(json_string_value(json_object_get(all->u.array.items[j], "name")) ?: "", want))
                found = all->u.array.items[j];
        if (!found) {
            *error = xasprintf("no tool named `%s` (tools are named <server>__<tool>)", want);
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

static const op_def tools_ops[] = {
    {.name = "tool", .flags = OP_RECORDED | OP_GATED, .perform = effect_tool, .target = tool_target},
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

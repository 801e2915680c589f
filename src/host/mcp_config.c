/* mcp_config.c — validation of CHIDORI_MCP_CONFIG into mcp_server_config records.
 *
 * Two spellings of the same file: {"mcpServers": {...}} (Claude's) and {"servers": {...}} (the
 * original chidori's), or both at once (a name may appear once). A server may also say
 * "enabled": false (left out) and "transport": "stdio" (the only transport here: "http" is refused
 * with a message, never silently dropped).
 *
 * Owns: the config schema (mcp.h) and its error messages, each naming line:col of the bad value.
 * Trusts: nothing about the text's shape — it is parsed with limits and every key is checked — but
 * the configuration's intent is the operator's: the commands it names are run as given.
 */
#include "host/mcp.h"
#include "settings/settings.h"
#include "util/buf.h"

#include <stdlib.h>
#include <string.h>

#define MCP_CONFIG_MAX_BYTES ((size_t)1 << 20)
#define MCP_DEFAULT_TIMEOUT_MS 30000
#define MCP_MAX_TIMEOUT_MS (24 * 3600 * 1000)
#define MCP_MAX_SERVERS 256
#define MCP_MAX_ARGS 1024

static int fail_at(char **error, const json_t *v, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail_at(char **error, const json_t *v, const char *fmt, ...)
{
    buf b = {0};
    if (v && v->line > 0) buf_printf(&b, "line %d:%d: ", v->line, v->col);
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(&b, fmt, ap);
    va_end(ap);
    *error = buf_steal(&b);
    return -1;
}

static const char *type_name(const json_t *v)
{
    switch (v->type) {
    case JSON_NULL: return "null";
    case JSON_FALSE: case JSON_TRUE: return "a boolean";
    case JSON_NUMBER: return "a number";
    case JSON_STRING: return "a string";
    case JSON_ARRAY: return "an array";
    case JSON_OBJECT: return "an object";
    case JSON_RAW: break; /* never parsed */
    }
    return "a value";
}

/* A string usable as a C string: no NUL inside. */
static bool plain_string(const json_t *v)
{
    return v->type == JSON_STRING && memchr(v->u.string.bytes, 0, v->u.string.len) == NULL;
}

static bool valid_server_name(const char *s, size_t n)
{
    if (n == 0 || n > 64) return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
            return false;
        if (c == '_' && i + 1 < n && s[i + 1] == '_') return false;
    }
    return s[n - 1] != '_';
}

static bool valid_env_name(const char *s, size_t n)
{
    if (n == 0) return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        if (!alpha && !(i > 0 && c >= '0' && c <= '9')) return false;
    }
    return true;
}

static void free_strv(char **v)
{
    if (!v) return;
    for (char **p = v; *p; p++) free(*p);
    free(v);
}

static int parse_server(const char *sec, const char *name, const json_t *obj, const settings *set,
                        mcp_server_config *sc, bool *enabled, char **error)
{
    *enabled = true;
    memset(sc, 0, sizeof *sc);
    sc->name = xstrdup(name);
    sc->timeout_ms = MCP_DEFAULT_TIMEOUT_MS;
    if (obj->type != JSON_OBJECT)
        return fail_at(error, obj, "%s.%s: must be an object, not %s", sec, name, type_name(obj));
    const json_t *args = NULL, *env = NULL;
    for (size_t i = 0; i < obj->u.object.len; i++) {
        const json_member *m = &obj->u.object.items[i];
        const json_t *v = m->value;
        if (strcmp(m->key, "command") == 0 && strlen(m->key) == m->key_len) {
            if (!plain_string(v) || v->u.string.len == 0)
                return fail_at(error, v, "%s.%s.command: must be a non-empty string", sec, name);
            sc->command = xstrdup(v->u.string.bytes);
        } else if (strcmp(m->key, "args") == 0 && strlen(m->key) == m->key_len) {
            if (v->type != JSON_ARRAY)
                return fail_at(error, v, "%s.%s.args: must be an array of strings, not %s", sec, name, type_name(v));
            if (v->u.array.len > MCP_MAX_ARGS)
                return fail_at(error, v, "%s.%s.args: more than %d arguments", sec, name, MCP_MAX_ARGS);
            for (size_t j = 0; j < v->u.array.len; j++)
                if (!plain_string(v->u.array.items[j]))
                    return fail_at(error, v->u.array.items[j], "%s.%s.args[%zu]: must be a string without NUL", sec, name, j);
            args = v;
        } else if (strcmp(m->key, "env") == 0 && strlen(m->key) == m->key_len) {
            if (v->type != JSON_OBJECT)
                return fail_at(error, v, "%s.%s.env: must be an object of strings, not %s", sec, name, type_name(v));
            for (size_t j = 0; j < v->u.object.len; j++) {
                const json_member *e = &v->u.object.items[j];
                if (!valid_env_name(e->key, e->key_len))
                    return fail_at(error, e->value, "%s.%s.env: '%.*s' is not a valid variable name", sec, name,
                                   (int)(e->key_len > 64 ? 64 : e->key_len), e->key);
                if (!plain_string(e->value))
                    return fail_at(error, e->value, "%s.%s.env.%s: must be a string without NUL", sec, name, e->key);
            }
            env = v;
        } else if (strcmp(m->key, "cwd") == 0 && strlen(m->key) == m->key_len) {
            if (!plain_string(v) || v->u.string.len == 0)
                return fail_at(error, v, "%s.%s.cwd: must be a non-empty string", sec, name);
            sc->cwd = xstrdup(v->u.string.bytes);
        } else if (strcmp(m->key, "timeoutMs") == 0 && strlen(m->key) == m->key_len) {
            double d = v->type == JSON_NUMBER ? v->u.number : -1;
            if (v->type != JSON_NUMBER || d != (double)(long long)d || d < 1 || d > MCP_MAX_TIMEOUT_MS)
                return fail_at(error, v, "%s.%s.timeoutMs: must be an integer from 1 to %d", sec, name,
                               MCP_MAX_TIMEOUT_MS);
            sc->timeout_ms = (int)d;
        } else if (strcmp(m->key, "stderr") == 0 && strlen(m->key) == m->key_len) {
            const char *s = json_string_value(v);
            if (s && strcmp(s, "forward") == 0 && v->u.string.len == 7) sc->discard_stderr = false;
            else if (s && strcmp(s, "discard") == 0 && v->u.string.len == 7) sc->discard_stderr = true;
            else return fail_at(error, v, "%s.%s.stderr: must be \"forward\" or \"discard\"", sec, name);
        } else if (strcmp(m->key, "enabled") == 0 && strlen(m->key) == m->key_len) {
            if (v->type != JSON_TRUE && v->type != JSON_FALSE)
                return fail_at(error, v, "%s.%s.enabled: must be true or false", sec, name);
            *enabled = v->type == JSON_TRUE;
        } else if (strcmp(m->key, "transport") == 0 && strlen(m->key) == m->key_len) {
            const char *t = json_string_value(v);
            if (t && strcmp(t, "http") == 0)
                return fail_at(error, v, "%s.%s.transport: \"http\" (Streamable HTTP) is not supported by this chidori; run the "
                                         "server over stdio (\"command\") or leave it out with \"enabled\": false", sec, name);
            if (!t || strcmp(t, "stdio") != 0 || v->u.string.len != 5)
                return fail_at(error, v, "%s.%s.transport: must be \"stdio\"", sec, name);
        } else if ((strcmp(m->key, "url") == 0 || strcmp(m->key, "authToken") == 0) && strlen(m->key) == m->key_len) {
            return fail_at(error, v, "%s.%s.%s: only for the \"http\" transport, which this chidori does not support; "
                                     "run the server over stdio (\"command\")", sec, name, m->key);
        } else {
            return fail_at(error, v, "%s.%s: unknown key '%.*s' (known: command, args, env, cwd, timeoutMs, stderr, enabled, transport)",
                           sec, name, (int)(m->key_len > 64 ? 64 : m->key_len), m->key);
        }
    }
    if (!sc->command) return fail_at(error, obj, "%s.%s: missing \"command\"", sec, name);

    size_t nargs = args ? args->u.array.len : 0;
    sc->args = xcalloc(nargs + 2, sizeof(char *));
    sc->args[0] = xstrdup(sc->command);
    for (size_t j = 0; j < nargs; j++) sc->args[j + 1] = xstrdup(args->u.array.items[j]->u.string.bytes);

    /* The inherited minimum, then the configured variables (which win). */
    static const char *const inherit[] = {"PATH", "HOME", "LANG"};
    size_t nenv = env ? env->u.object.len : 0;
    sc->env = xcalloc(nenv + 4, sizeof(char *));
    size_t k = 0;
    for (size_t j = 0; j < 3; j++) {
        const char *val = settings_env(set, inherit[j]);
        if (!val || (env && json_object_get(env, inherit[j]))) continue;
        sc->env[k++] = xasprintf("%s=%s", inherit[j], val);
    }
    for (size_t j = 0; j < nenv; j++) {
        const json_member *e = &env->u.object.items[j];
        sc->env[k++] = xasprintf("%s=%s", e->key, e->value->u.string.bytes);
    }
    return 0;
}

static void mcp_config_free_one(mcp_server_config *sc)
{
    free(sc->name);
    free(sc->command);
    free_strv(sc->args);
    free_strv(sc->env);
    free(sc->cwd);
    memset(sc, 0, sizeof *sc);
}

void mcp_config_free(mcp_server_config *servers, size_t count)
{
    if (!servers) return;
    for (size_t i = 0; i < count; i++) mcp_config_free_one(&servers[i]);
    free(servers);
}

int mcp_config_parse(const char *text, size_t len, const settings *set, mcp_server_config **servers_out, size_t *count_out,
                     char **error)
{
    *servers_out = NULL;
    *count_out = 0;
    *error = NULL;
    json_limits lim = {MCP_CONFIG_MAX_BYTES, 64, 0};
    json_error jerr;
    json_t *root = json_parse(text, len, &lim, &jerr);
    if (!root) {
        *error = xasprintf("line %d:%d: %s", jerr.line, jerr.col, jerr.message);
        return -1;
    }
    int rc = -1;
    mcp_server_config *servers = NULL;
    size_t count = 0;
    if (root->type != JSON_OBJECT) {
        fail_at(error, root, "must be an object {\"mcpServers\": {...}} or {\"servers\": {...}}, not %s", type_name(root));
        goto out;
    }
    const json_t *lists[2] = {NULL, NULL}; /* mcpServers, servers */
    static const char *const sections[2] = {"mcpServers", "servers"};
    for (size_t i = 0; i < root->u.object.len; i++) {
        const json_member *m = &root->u.object.items[i];
        if (strcmp(m->key, "mcpServers") == 0 && m->key_len == 10) {
            lists[0] = m->value;
        } else if (strcmp(m->key, "servers") == 0 && m->key_len == 7) {
            lists[1] = m->value;
        } else {
            fail_at(error, m->value, "unknown key '%.*s' (known: mcpServers, servers)",
                    (int)(m->key_len > 64 ? 64 : m->key_len), m->key);
            goto out;
        }
    }
    if (!lists[0] && !lists[1]) {
        fail_at(error, root, "missing \"mcpServers\" (or the original chidori's \"servers\")");
        goto out;
    }
    size_t total = 0;
    for (int k = 0; k < 2; k++) {
        const json_t *list = lists[k];
        if (!list) continue;
        if (list->type != JSON_OBJECT) {
            fail_at(error, list, "%s: must be an object of servers, not %s", sections[k], type_name(list));
            goto out;
        }
        total += list->u.object.len;
    }
    if (total > MCP_MAX_SERVERS) {
        fail_at(error, root, "more than %d servers", MCP_MAX_SERVERS);
        goto out;
    }
    servers = xcalloc(total + 1, sizeof *servers);
    for (int k = 0; k < 2; k++) {
        const json_t *list = lists[k];
        for (size_t i = 0; list && i < list->u.object.len; i++) {
            const json_member *m = &list->u.object.items[i];
            if (!valid_server_name(m->key, m->key_len)) {
                fail_at(error, m->value,
                        "%s: server name '%.*s' must be 1-64 of [A-Za-z0-9_-], without \"__\" and not ending in '_'",
                        sections[k], (int)(m->key_len > 64 ? 64 : m->key_len), m->key);
                goto out;
            }
            for (size_t j = 0; j < count; j++)
                if (!strcmp(servers[j].name, m->key)) {
                    fail_at(error, m->value, "%s: server '%s' is named twice (in mcpServers and servers); name it once",
                            sections[k], m->key);
                    goto out;
                }
            bool enabled = true;
            count++;
            if (parse_server(sections[k], m->key, m->value, set, &servers[count - 1], &enabled, error) < 0) goto out;
            if (!enabled) mcp_config_free_one(&servers[--count]); /* "enabled": false: left out */
        }
    }
    *servers_out = servers;
    *count_out = count;
    servers = NULL;
    count = 0;
    rc = 0;
out:
    mcp_config_free(servers, count);
    json_free(root);
    return rc;
}

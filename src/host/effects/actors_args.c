/* effects/actors_args.c — the args of the actor ops (effects/actors.c): the checks made before a
 * seq is taken (refused: nothing recorded, the original's texts) and the one form each op's args
 * are looked up, gated, performed and recorded in (the original's normalized shapes, keys sorted
 * as its serde writes them).
 *
 * Trusts nothing in args (guest code): every field is checked and capped; a source path goes
 * through open_beneath like a module load. Knows nothing of the actor hub beyond what
 * actors_in_branch and actors_self_pid tell.
 */
#define _GNU_SOURCE
#include "host/host_internal.h"
#include "host/effects/actors_args.h"
#include "util/buf.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NAME_MAX_BYTES 256
#define MAX_NAMES 64 /* names one receive listens for */

static bool plain_string(const json_t *v, size_t max)
{
    return json_is_string(v) && v->u.string.len && v->u.string.len <= max && strlen(v->u.string.bytes) == v->u.string.len;
}

/* serde's as_u64: a whole non-negative number, else absent. */
static bool as_u64(const json_t *v, uint64_t *out)
{
    if (!v || v->type != JSON_NUMBER) return false;
    double d = v->u.number;
    if (!(d >= 0 && d <= 18446744073709549568.0) || d != (double)(uint64_t)d) return false;
    *out = (uint64_t)d;
    return true;
}

/* opts.timeoutMs when a positive whole number, else 0 (none). */
uint64_t actor_timeout_of(const json_t *opts)
{
    uint64_t t = 0;
    return as_u64(json_object_get(opts, "timeoutMs"), &t) ? t : 0;
}

static json_t *timeout_json(uint64_t t) { return t ? json_number((double)t) : json_null(); }

void actor_read_opts(const json_t *o, actor_spawn_opts *out)
{
    out->name = json_string_value(json_object_get(o, "name"));
    const char *r = json_string_value(json_object_get(o, "restart"));
    out->restart = r && !strcmp(r, "clean") ? RESTART_CLEAN : r && !strcmp(r, "resume") ? RESTART_RESUME : RESTART_NEVER;
    if (!as_u64(json_object_get(o, "maxRestarts"), &out->max_restarts) || out->max_restarts > UINT32_MAX)
        out->max_restarts = ACTOR_DEFAULT_MAX_RESTARTS;
    if (!as_u64(json_object_get(o, "backoffMs"), &out->backoff_ms)) out->backoff_ms = 0;
    if (!as_u64(json_object_get(o, "idleTimeoutMs"), &out->idle_timeout_ms) || out->idle_timeout_ms == 0)
        out->idle_timeout_ms = ACTOR_DEFAULT_IDLE_TIMEOUT_MS;
    const json_t *i = json_object_get(o, "intercept");
    out->intercept = json_is_object(i) && i->u.object.len ? i : NULL;
}

#define INTERCEPT_TOOLS_MAX 256

/* intercept's workspace subpath: a string, or {root: string}; NULL when absent or empty. */
static const json_t *intercept_workspace(const json_t *v)
{
    if (json_is_object(v)) v = json_object_get(v, "root");
    return json_is_string(v) && v->u.string.len ? v : NULL;
}

/* The checks of `intercept` (a spawn's narrowing of the child): NULL when good. */
static char *intercept_check(const json_t *i)
{
    if (!json_is_object(i))
        return xstrdup("chidori.actors.spawn: `intercept` must be an object {model?, tools?: string[], workspace?: "
                       "string | {root}}");
    const json_t *model = json_object_get(i, "model");
    if (model && model->type != JSON_NULL && !plain_string(model, NAME_MAX_BYTES))
        return xasprintf("chidori.actors.spawn: intercept.model must be a model name (a non-empty string of at most %d "
                         "bytes)", NAME_MAX_BYTES);
    const json_t *tools = json_object_get(i, "tools");
    if (tools && tools->type != JSON_NULL) {
        bool ok = json_is_array(tools) && tools->u.array.len <= INTERCEPT_TOOLS_MAX;
        for (size_t k = 0; ok && k < tools->u.array.len; k++) ok = plain_string(tools->u.array.items[k], 4096);
        if (!ok)
            return xasprintf("chidori.actors.spawn: intercept.tools must be an array of at most %d tool names "
                             "(<server>__<tool>)", INTERCEPT_TOOLS_MAX);
    }
    const json_t *ws = json_object_get(i, "workspace");
    if (ws && ws->type != JSON_NULL) {
        const json_t *sub = intercept_workspace(ws);
        if (!sub || strlen(sub->u.string.bytes) != sub->u.string.len)
            return xstrdup("chidori.actors.spawn: intercept.workspace must be a subpath string (or { root: \"subpath\" })");
        if (!path_is_confined(sub->u.string.bytes, sub->u.string.len))
            return xasprintf("chidori.actors.spawn: intercept.workspace `%.200s` must be a relative subpath without `..` "
                             "— a child can only narrow its spawner's workspace, never escape it", sub->u.string.bytes);
    }
    return NULL;
}

json_t *actor_intercept_form(const json_t *i)
{
    if (!json_is_object(i)) return NULL;
    json_t *out = json_object();
    const json_t *model = json_object_get(i, "model"), *tools = json_object_get(i, "tools");
    const json_t *ws = intercept_workspace(json_object_get(i, "workspace"));
    if (json_is_string(model) && model->u.string.len) json_object_set(out, "model", json_copy(model));
    if (json_is_array(tools)) json_object_set(out, "tools", json_copy(tools));
    if (ws) json_object_set(out, "workspace", json_copy(ws));
    if (!out->u.object.len) {
        json_free(out);
        return NULL;
    }
    return out;
}

static bool source_exists(host *h, const char *src)
{
    if (!path_is_confined(src, strlen(src))) return false;
    int fd = open_beneath(h->root_fd, h->project_root, src, O_RDONLY | O_CLOEXEC, 0);
    if (fd < 0) return false;
    char c;
    ssize_t n = read(fd, &c, 1); /* a folder opens but does not read */
    close(fd);
    return n >= 0;
}

char *actor_spawn_validate(host *h, const json_t *args)
{
    if (actors_in_branch(h))
        return xstrdup("chidori.actors.spawn is not supported inside a chidori.branch sub-run (a branch's records must "
                       "stay inside its reserved sequence range)");
    const json_t *src = json_object_get(args, "source");
    if (!plain_string(src, 4096)) return xstrdup("chidori.actors.spawn requires a source module path");
    const json_t *opts = json_object_get(args, "options");
    if (opts && opts->type != JSON_NULL && !json_is_object(opts))
        return xstrdup("chidori.actors.spawn: `options` must be an object {name?, restart?, maxRestarts?, backoffMs?, "
                       "idleTimeoutMs?, intercept?}");
    const json_t *name = json_object_get(opts, "name");
    if (name && name->type != JSON_NULL) {
        if (!json_is_string(name) || name->u.string.len > NAME_MAX_BYTES || strlen(name->u.string.bytes) != name->u.string.len)
            return xasprintf("chidori.actors.spawn: `name` must be a string of at most %d bytes", NAME_MAX_BYTES);
        const char *n = name->u.string.bytes;
        if (!*n || !strcmp(n, "parent") || !strncmp(n, "actor-", 6))
            return xasprintf("chidori.actors.spawn: `%s` is not a registrable actor name (reserved)", n);
    }
    const json_t *restart = json_object_get(opts, "restart");
    if (restart && restart->type != JSON_NULL) {
        const char *r = json_string_value(restart);
        if (!r || (strcmp(r, "never") && strcmp(r, "clean") && strcmp(r, "resume"))) {
            char *shown = r ? xstrdup(r) : json_dump(restart, JSON_COMPACT, NULL);
            char *e = xasprintf("chidori.actors.spawn: unknown restart strategy `%.64s` (expected \"never\", \"clean\", "
                                "or \"resume\")", shown);
            free(shown);
            return e;
        }
    }
    const json_t *intercept = json_object_get(opts, "intercept");
    if (intercept && intercept->type != JSON_NULL) {
        char *bad = intercept_check(intercept);
        if (bad) return bad;
    }
    if (!source_exists(h, src->u.string.bytes))
        return xasprintf("chidori.actors.spawn: source module not found: %s", src->u.string.bytes);
    return NULL;
}

json_t *actor_spawn_prepare(const json_t *args, char **error)
{
    (void)error;
    actor_spawn_opts o;
    const json_t *opts = json_object_get(args, "options");
    actor_read_opts(opts, &o);
    json_t *out = json_object(), *no = json_object();
    const json_t *input = json_object_get(args, "input");
    json_object_set(out, "input", input && input->type != JSON_NULL ? json_copy(input) : json_object());
    json_object_set(no, "backoffMs", json_number((double)o.backoff_ms));
    json_object_set(no, "idleTimeoutMs", json_number((double)o.idle_timeout_ms));
    json_t *intercept = actor_intercept_form(json_object_get(opts, "intercept")); /* kept only when it narrows */
    if (intercept) json_object_set(no, "intercept", intercept);
    json_object_set(no, "maxRestarts", json_number((double)o.max_restarts));
    json_object_set(no, "name", o.name ? json_string(o.name) : json_null());
    json_object_set(no, "restart", json_string(o.restart == RESTART_CLEAN ? "clean" : o.restart == RESTART_RESUME ? "resume" : "never"));
    json_object_set(out, "options", no);
    json_object_set(out, "source", json_copy(json_object_get(args, "source")));
    return out;
}

char *actor_send_validate(host *h, const json_t *args)
{
    (void)h;
    if (!plain_string(json_object_get(args, "to"), 4096))
        return xstrdup("chidori.actors.send requires a target (a pid, a registered name, or \"parent\")");
    if (!plain_string(json_object_get(args, "name"), 4096)) return xstrdup("chidori.actors.send requires a string message name");
    return NULL;
}

/* {from, name, payload, to}: from is the sender as the host knows it, never what the agent says */
json_t *actor_send_prepare(host *h, const json_t *args, char **error)
{
    (void)error;
    const char *self = actors_self_pid(h);
    json_t *out = json_object(), *from = json_object();
    json_object_set(from, "kind", json_string("agent"));
    json_object_set(from, "id", json_string(self ? self : "run"));
    json_object_set(out, "from", from);
    json_object_set(out, "name", json_copy(json_object_get(args, "name")));
    const json_t *payload = json_object_get(args, "payload");
    json_object_set(out, "payload", payload ? json_copy(payload) : json_null());
    json_object_set(out, "to", json_copy(json_object_get(args, "to")));
    return out;
}

char *actor_receive_validate(host *h, const json_t *args)
{
    (void)h;
    const json_t *names = json_object_get(args, "names");
    const char *bad = "chidori.receive requires a name or an array of names";
    if (json_is_string(names)) return plain_string(names, NAME_MAX_BYTES) ? NULL : xstrdup(bad);
    if (!json_is_array(names) || names->u.array.len == 0 || names->u.array.len > MAX_NAMES) return xstrdup(bad);
    for (size_t i = 0; i < names->u.array.len; i++)
        if (!json_is_string(names->u.array.items[i]) ||
            strlen(names->u.array.items[i]->u.string.bytes) != names->u.array.items[i]->u.string.len)
            return xstrdup(bad);
    const json_t *opts = json_object_get(args, "opts");
    if (opts && opts->type != JSON_NULL && !json_is_object(opts))
        return xstrdup("chidori.receive: `opts` must be an object {timeoutMs?}");
    return NULL;
}

json_t *actor_receive_prepare(const json_t *args, char **error)
{
    (void)error;
    const json_t *names = json_object_get(args, "names");
    json_t *out = json_object(), *list = json_array(), *opts = json_object();
    if (json_is_string(names)) json_array_push(list, json_copy(names));
    else
        for (size_t i = 0; json_is_array(names) && i < names->u.array.len; i++) json_array_push(list, json_copy(names->u.array.items[i]));
    json_object_set(out, "names", list);
    json_object_set(opts, "timeoutMs", timeout_json(actor_timeout_of(json_object_get(args, "opts"))));
    json_object_set(out, "opts", opts);
    return out;
}

static char *settle_validate_named(const json_t *args, const char *display)
{
    if (!plain_string(json_object_get(args, "pid"), 4096))
        return xasprintf("chidori.%s requires an actor pid or registered name", display);
    const json_t *opts = json_object_get(args, "opts");
    if (opts && opts->type != JSON_NULL && !json_is_object(opts)) return xasprintf("chidori.%s: `opts` must be an object {timeoutMs?}", display);
    return NULL;
}
char *actor_join_validate(host *h, const json_t *args) { (void)h; return settle_validate_named(args, "actors.join"); }
char *actor_stop_validate(host *h, const json_t *args) { (void)h; return settle_validate_named(args, "actors.stop"); }
char *actor_status_validate(host *h, const json_t *args)
{
    (void)h;
    return plain_string(json_object_get(args, "pid"), 4096) ? NULL
                                                            : xstrdup("chidori.actors.status requires an actor pid or registered name");
}
char *actor_whereis_validate(host *h, const json_t *args)
{
    (void)h;
    return plain_string(json_object_get(args, "name"), 4096) ? NULL : xstrdup("chidori.actors.lookup requires a registered actor name");
}

json_t *actor_settle_prepare(const json_t *args, char **error)
{
    (void)error;
    json_t *out = json_object(), *opts = json_object();
    json_object_set(opts, "timeoutMs", timeout_json(actor_timeout_of(json_object_get(args, "opts"))));
    json_object_set(out, "opts", opts);
    json_object_set(out, "pid", json_copy(json_object_get(args, "pid")));
    return out;
}

json_t *actor_pid_prepare(const json_t *args, char **error)
{
    (void)error;
    json_t *out = json_object();
    json_object_set(out, "pid", json_copy(json_object_get(args, "pid")));
    return out;
}

json_t *actor_name_prepare(const json_t *args, char **error)
{
    (void)error;
    json_t *out = json_object();
    json_object_set(out, "name", json_copy(json_object_get(args, "name")));
    return out;
}


/* effects/memory.c — chidori.memory: a durable key-value store with namespaces.
 *
 * `memory` {action: get|set|delete|list|clear, key?, value?, namespace?, prefix?}. The store is
 * one JSON file, <state dir>/memory.json ({namespace: {key: value}}), replaced atomically
 * (write, fsync, rename) on every change, so a crash leaves the old or the new store, never half
 * of one. Keys, namespaces and the whole store are size-capped; the file is parsed with limits.
 * Recorded like every effect, so replay answers reads from the log and performs no writes.
 * A host configured with another store (host_config.memory: the server's database) uses it
 * instead, with the same arguments checked here first.
 */
#define _GNU_SOURCE
#include "host/host_internal.h"
#include "host/ops.h"
#include "util/buf.h"
#include "util/files.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern const effect_module memory_module; /* defined at the end of this file */

#define MEMORY_MAX_BYTES ((size_t)64 << 20)
#define MEMORY_KEY_MAX 1024
#define MEMORY_NAMESPACE_MAX 256

/* Where the store is: <state dir>/memory.json, or another store (host_config.memory). */
typedef struct memory_state {
    char *state_dir;
    const host_memory_store *store; /* NULL: the file */
} memory_state;

static int memory_init(host *h, const host_config *cfg, void **state, char **error)
{
    memory_state *s = xcalloc(1, sizeof *s);
    s->state_dir = cfg->state_dir ? xstrdup(cfg->state_dir) : xasprintf("%s/.chidori", h->project_root);
    s->store = cfg->memory;
    *state = s;
    return 0;
}

static void memory_free(void *state)
{
    memory_state *s = state;
    free(s->state_dir);
    free(s);
}

static char *store_path(host *h)
{
    return xasprintf("%s/memory.json", ((memory_state *)host_module_state(h, &memory_module))->state_dir);
}

static json_t *load_store(host *h, char **error)
{
    char *path = store_path(h);
    struct stat st;
    if (stat(path, &st) != 0 && errno == ENOENT) {
        free(path);
        return json_object();
    }
    size_t len;
    char *text = read_regular_file_capped(path, MEMORY_MAX_BYTES, &len, error);
    if (!text) {
        free(path);
        return NULL;
    }
    json_error jerr;
    json_t *v = json_parse(text, len, NULL, &jerr);
    free(text);
    if (!v || !json_is_object(v)) {
        *error = xasprintf("memory store %s is damaged (%s); move it aside to start empty", path,
                           v ? "not an object" : jerr.message);
        json_free(v);
        free(path);
        return NULL;
    }
    free(path);
    return v;
}

static int save_store(host *h, const json_t *store, char **error)
{
    size_t len;
    char *text = json_dump(store, JSON_COMPACT, &len);
    if (len > MEMORY_MAX_BYTES) {
        free(text);
        *error = xasprintf("memory is full: the store would exceed %zu MiB", MEMORY_MAX_BYTES >> 20);
        return -1;
    }
    mkdir(((memory_state *)host_module_state(h, &memory_module))->state_dir, 0700);
    char *path = store_path(h);
    int rc = write_file_atomic(path, text, len, true, error);
    free(path);
    free(text);
    return rc;
}

static const char *checked_string(const json_t *args, const char *name, size_t max, const char *def,
                                  char **error)
{
    const json_t *v = json_object_get(args, name);
    if (!v || v->type == JSON_NULL) {
        if (def) return def;
        *error = xasprintf("chidori.memory: `%s` is required", name);
        return NULL;
    }
    if (!json_is_string(v) || v->u.string.len == 0 || v->u.string.len > max ||
        strlen(v->u.string.bytes) != v->u.string.len) {
        *error = xasprintf("chidori.memory: `%s` must be a non-empty string of at most %zu bytes", name, max);
        return NULL;
    }
    return v->u.string.bytes;
}

static pthread_mutex_t file_store_lock = PTHREAD_MUTEX_INITIALIZER;
static int file_store_op(host *h, const char *action, const char *ns, const char *key, const json_t *args,
                         json_t **result, char **error);

static int effect_memory(host *h, const json_t *args, json_t **result, char **error)
{
    const host_memory_store *other = ((memory_state *)host_module_state(h, &memory_module))->store;
    const char *action = host_arg_string(args, "action", error);
    if (!action) return HOST_ERROR;
    const char *ns = checked_string(args, "namespace", MEMORY_NAMESPACE_MAX, "default", error);
    if (!ns) return HOST_ERROR;
    bool wants_key = !strcmp(action, "get") || !strcmp(action, "set") || !strcmp(action, "delete");
    const char *key = wants_key ? checked_string(args, "key", MEMORY_KEY_MAX, NULL, error) : NULL;
    if (wants_key && !key) return HOST_ERROR;
    if (!wants_key && strcmp(action, "list") && strcmp(action, "clear")) {
        *error = xasprintf("chidori.memory: unknown action `%s`", action);
        return HOST_ERROR;
    }
    if (other) { /* another store (the server's database) */
        const json_t *value = json_object_get(args, "value");
        if (!strcmp(action, "set") && !value) {
            *error = xstrdup("chidori.memory.set: `value` is required (undefined cannot be stored)");
            return HOST_ERROR;
        }
        return other->op(other->ctx, action, ns, key, value,
                             json_string_value(json_object_get(args, "prefix")), result, error);
    }
    /* the file is read, changed and replaced whole: one host at a time (a run's members are hosts
     * on threads of one process, host/member.h) */
    pthread_mutex_lock(&file_store_lock);
    int rc = file_store_op(h, action, ns, key, args, result, error);
    pthread_mutex_unlock(&file_store_lock);
    return rc;
}

static int file_store_op(host *h, const char *action, const char *ns, const char *key, const json_t *args,
                         json_t **result, char **error)
{
    json_t *store = load_store(h, error);
    if (!store) return HOST_ERROR;
    json_t *space = json_object_get(store, ns);
    if (space && !json_is_object(space)) space = NULL;
    int rc = HOST_OK;
    if (!strcmp(action, "get")) {
        json_t *v = json_object_get(space, key);
        *result = v ? json_copy(v) : json_null();
    } else if (!strcmp(action, "set")) {
        const json_t *value = json_object_get(args, "value");
        if (!value) {
            *error = xstrdup("chidori.memory.set: `value` is required (undefined cannot be stored)");
            rc = HOST_ERROR;
        } else {
            if (!space) {
                space = json_object();
                json_object_set(store, ns, space);
            }
            json_object_set(space, key, json_copy(value));
            rc = save_store(h, store, error) == 0 ? HOST_OK : HOST_ERROR;
            *result = json_null();
        }
    } else if (!strcmp(action, "delete")) {
        bool found = false;
        if (space) {
            json_t *rebuilt = json_object();
            for (size_t i = 0; i < space->u.object.len; i++) {
                json_member *m = &space->u.object.items[i];
                if (strcmp(m->key, key) == 0) found = true;
                else json_object_set(rebuilt, m->key, json_copy(m->value));
            }
            json_object_set(store, ns, rebuilt);
            if (found && save_store(h, store, error) != 0) rc = HOST_ERROR;
        }
        *result = json_bool(found);
    } else if (!strcmp(action, "list")) {
        const char *prefix = json_string_value(json_object_get(args, "prefix"));
        json_t *out = json_array();
        for (size_t i = 0; space && i < space->u.object.len; i++) {
            json_member *m = &space->u.object.items[i];
            if (prefix && strncmp(m->key, prefix, strlen(prefix)) != 0) continue;
            json_t *e = json_object();
            json_object_set(e, "key", json_string(m->key));
            json_object_set(e, "value", json_copy(m->value));
            json_array_push(out, e);
        }
        *result = out;
    } else { /* clear */
        if (space) {
            json_object_set(store, ns, json_object());
            if (save_store(h, store, error) != 0) rc = HOST_ERROR;
        }
        *result = json_null();
    }
    json_free(store);
    return rc;
}

static const op_def memory_ops[] = {
    {.name = "memory", .flags = OP_RECORDED, .perform = effect_memory},
    {0},
};

const effect_module memory_module = {.name = "memory", .ops = memory_ops, .init = memory_init, .free = memory_free};

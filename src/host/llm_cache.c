/* llm_cache.c — the local prompt cache's key and files (see llm_cache.h).
 *
 * Owns: the process's measure of the folder's size (static, behind one mutex). Trusts the folder's
 * path; nothing in its files.
 */
#define _GNU_SOURCE
#include "host/llm_cache.h"
#include "util/buf.h"
#include "util/files.h"
#include "util/sha256.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CACHE_JSON_MAX_DEPTH 128 /* as a provider's body (llm_internal.h) */

void llm_cache_key(const char *provider, const char *endpoint, const char *model, const json_t *request, char key[65])
{
    json_t *req = json_object();
    for (size_t i = 0; json_is_object(request) && i < request->u.object.len; i++) {
        const json_member *m = &request->u.object.items[i];
        if (strcmp(m->key, "model") && strcmp(m->key, "type")) json_object_set(req, m->key, json_copy(m->value));
    }
    json_t *d = json_object();
    json_object_set(d, "v", json_number(1));
    json_object_set(d, "provider", json_string(provider ? provider : ""));
    json_object_set(d, "endpoint", json_string(endpoint ? endpoint : ""));
    json_object_set(d, "model", json_string(model ? model : ""));
    json_object_set(d, "request", req);
    size_t n;
    char *text = json_dump_sorted(d, &n);
    sha256_hex(text, n, key);
    free(text);
    json_free(d);
}

static bool count_ok(const json_t *v) { return v && v->type == JSON_NUMBER && v->u.number >= 0; }

/* The shape llm.h promises of a response. */
static bool is_response(const json_t *v)
{
    const json_t *calls = json_object_get(v, "toolCalls"), *usage = json_object_get(v, "usage");
    const json_t *stop = json_object_get(v, "stopReason"), *id = json_object_get(v, "id");
    if (!json_is_object(v) || !json_is_string(json_object_get(v, "content")) || !json_is_array(calls) ||
        !json_is_object(usage) || !json_is_string(json_object_get(v, "model")) ||
        !json_is_string(json_object_get(v, "provider")) || (stop && stop->type != JSON_NULL && !json_is_string(stop)) ||
        (id && !json_is_string(id)))
        return false;
    if (!count_ok(json_object_get(usage, "inputTokens")) || !count_ok(json_object_get(usage, "outputTokens"))) return false;
    for (size_t i = 0; i < calls->u.array.len; i++) {
        const json_t *c = calls->u.array.items[i];
        if (!json_is_string(json_object_get(c, "id")) || !json_is_string(json_object_get(c, "name")) ||
            !json_object_get(c, "input"))
            return false;
    }
    return true;
}

static char *entry_path(const char *dir, const char *key) { return xasprintf("%s/%s.json", dir, key); }

json_t *llm_cache_entry(const char *text, size_t len, size_t max_bytes)
{
    if (len > max_bytes) return NULL;
    json_limits lim = {max_bytes, CACHE_JSON_MAX_DEPTH, 0};
    json_t *v = json_parse(text, len, &lim, NULL);
    if (is_response(v)) return v;
    json_free(v);
    return NULL;
}

json_t *llm_cache_lookup(const char *dir, const char *key, size_t max_bytes)
{
    char *path = entry_path(dir, key), *error = NULL;
    size_t len = 0;
    char *text = read_regular_file_capped(path, max_bytes, &len, &error);
    free(path);
    free(error);
    if (!text) return NULL;
    json_t *v = llm_cache_entry(text, len, max_bytes);
    free(text);
    return v;
}

/* ---------- storing, within the folder's cap ---------- */

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static bool measured;
static uint64_t folder_bytes; /* the entries' bytes: measured at the first store, then counted */

static void make_dirs(const char *dir)
{
    char *p = xstrdup(dir);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/') continue;
        *s = '\0';
        mkdir(p, 0700);
        *s = '/';
    }
    mkdir(p, 0700);
    free(p);
}

static uint64_t measure(const char *dir)
{
    uint64_t total = 0;
    DIR *d = opendir(dir);
    if (!d) return 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        struct stat st;
        if (e->d_name[0] != '.' && fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
            total += (uint64_t)st.st_size;
    }
    closedir(d);
    return total;
}

void llm_cache_store(const char *dir, const char *key, const json_t *response, size_t max_bytes, uint64_t max_total)
{
    size_t n;
    char *text = json_dump(response, JSON_COMPACT, &n);
    if (n > max_bytes) {
        free(text);
        return;
    }
    pthread_mutex_lock(&cache_lock);
    if (!measured) {
        make_dirs(dir);
        folder_bytes = measure(dir);
        measured = true;
    }
    bool room = folder_bytes + n <= max_total;
    if (room) folder_bytes += n; /* counted before the write: two stores at once cannot both pass the cap */
    pthread_mutex_unlock(&cache_lock);
    if (!room) {
        free(text);
        return;
    }
    /* a name of this writer's own, then renamed into place: readers and other writers see the old
     * entry or the new one, never half of one */
    static atomic_uint serial;
    char *tmp = xasprintf("%s/.%s.%ld.%u.tmp", dir, key, (long)getpid(), atomic_fetch_add(&serial, 1));
    char *path = entry_path(dir, key);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0600);
    bool ok = fd >= 0 && write_all(fd, text, n) == 0;
    if (fd >= 0 && close(fd) != 0) ok = false;
    if (!ok || rename(tmp, path) != 0) unlink(tmp);
    free(tmp);
    free(path);
    free(text);
}

void llm_cache_reset(void)
{
    pthread_mutex_lock(&cache_lock);
    measured = false;
    folder_bytes = 0;
    pthread_mutex_unlock(&cache_lock);
}

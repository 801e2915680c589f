/* llm_cache.c — the local prompt cache's key and files (see llm_cache.h).
 *
 * Owns: the process's measure of the folder's size (static, behind one mutex). Trusts the folder's
 * path; nothing in its files.
 */
#define _GNU_SOURCE
#include "host/llm_cache.h"
#include "host/llm_internal.h"
#include "util/buf.h"
#include "util/files.h"
#include "util/sha256.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CACHE_JSON_MAX_DEPTH 128 /* as a provider's body (llm_internal.h) */

void llm_cache_key(const char *provider, const char *endpoint, const char *body, size_t len, char key[65])
{
    /* the names length-prefixed, then the body as it goes out (its keys in the guest's order,
     * which the model sees too) */
    buf b = {0};
    buf_printf(&b, "chidori prompt cache 1\n%zu:%s\n%zu:%s\n", strlen(provider), provider, strlen(endpoint), endpoint);
    buf_append(&b, body, len);
    sha256_hex(b.data, b.len, key);
    buf_free(&b);
}

static bool count_ok(const json_t *v) { return !v || (v->type == JSON_NUMBER && isfinite(v->u.number) && v->u.number >= 0); }

static bool nonempty_string(const json_t *v) { return json_is_string(v) && v->u.string.len > 0; }

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
    if (!json_object_get(usage, "inputTokens") || !json_object_get(usage, "outputTokens")) return false;
    static const char *const counts[] = {"inputTokens", "outputTokens", "cacheReadTokens", "cacheCreationTokens"};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        if (!count_ok(json_object_get(usage, counts[i]))) return false;
    for (size_t i = 0; i < calls->u.array.len; i++) {
        const json_t *c = calls->u.array.items[i];
        if (!nonempty_string(json_object_get(c, "id")) || !nonempty_string(json_object_get(c, "name")) ||
            !json_object_get(c, "input"))
            return false;
    }
    return true;
}

/* A checked entry made again the way a provider's answer is made (llm_make_response): only the
 * response's own keys, the counts as a provider's are read. */
static json_t *remade(const json_t *v)
{
    const json_t *calls = json_object_get(v, "toolCalls"), *usage = json_object_get(v, "usage");
    const json_t *content = json_object_get(v, "content");
    json_t *out_calls = json_array();
    for (size_t i = 0; i < calls->u.array.len; i++) {
        const json_t *c = calls->u.array.items[i];
        json_t *call = json_object();
        json_object_set(call, "id", json_copy(json_object_get(c, "id")));
        json_object_set(call, "name", json_copy(json_object_get(c, "name")));
        json_object_set(call, "input", json_copy(json_object_get(c, "input")));
        json_array_push(out_calls, call);
    }
    json_t *r = llm_make_response(content->u.string.bytes, content->u.string.len, out_calls, json_object_get(v, "stopReason"),
                                  usage, "inputTokens", "outputTokens", json_object_get(v, "model"), "");
    llm_response_extras(r, json_object_get(v, "id"), json_object_get(usage, "cacheReadTokens"),
                        json_object_get(usage, "cacheCreationTokens"));
    const json_t *reasoning = json_object_get(v, "reasoning");
    if (json_is_string(reasoning) && reasoning->u.string.len) json_object_set(r, "reasoning", json_copy(reasoning));
    json_object_set(r, "provider", json_copy(json_object_get(v, "provider")));
    return r;
}

/* An answer worth keeping: one the model finished normally, with text or a tool call (a provider
 * that reports an error or a filtered reply inside a 2xx is not asked again otherwise). */
static bool worth_keeping(const json_t *v)
{
    static const char *const normal[] = {"stop", "length", "tool_calls", "end_turn", "max_tokens", "stop_sequence", "tool_use"};
    const char *stop = json_string_value(json_object_get(v, "stopReason"));
    bool ok = stop == NULL;
    for (size_t i = 0; stop && i < sizeof normal / sizeof normal[0]; i++) ok |= !strcmp(stop, normal[i]);
    const json_t *content = json_object_get(v, "content"), *calls = json_object_get(v, "toolCalls");
    return ok && ((json_is_string(content) && content->u.string.len) || (json_is_array(calls) && calls->u.array.len));
}

static char *entry_path(const char *dir, const char *key) { return xasprintf("%s/%s.json", dir, key); }

json_t *llm_cache_entry(const char *text, size_t len, size_t max_bytes)
{
    if (len > max_bytes) return NULL;
    json_limits lim = {max_bytes, CACHE_JSON_MAX_DEPTH, 0};
    json_t *v = json_parse(text, len, &lim, NULL);
    json_t *r = is_response(v) ? remade(v) : NULL;
    json_free(v);
    return r;
}

json_t *llm_cache_lookup(const char *dir, const char *key, size_t max_bytes)
{
    char *path = entry_path(dir, key), *error = NULL;
    size_t len = 0;
    char *text = read_regular_file_capped(path, max_bytes, &len, &error);
    free(error);
    json_t *v = text ? llm_cache_entry(text, len, max_bytes) : NULL;
    /* a hit is a use: its time moves, and eviction takes the entries unused the longest */
    if (v) utimensat(AT_FDCWD, path, NULL, AT_SYMLINK_NOFOLLOW);
    free(path);
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

#define BLOCK 4096 /* an entry's bytes are counted as the whole blocks it takes on disk */
#define STALE_TMP_SECS 600 /* a temporary file this old was left by a writer that died */

static uint64_t blocks_of(uint64_t n) { return (n + BLOCK - 1) / BLOCK * BLOCK; }

/* The entries' disk use; temporary files writers left behind long ago are removed. */
static uint64_t measure(const char *dir)
{
    uint64_t total = 0;
    DIR *d = opendir(dir);
    if (!d) return 0;
    time_t now = time(NULL);
    struct dirent *e;
    while ((e = readdir(d))) {
        struct stat st;
        if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)) continue;
        size_t nl = strlen(e->d_name);
        if (e->d_name[0] == '.' && nl > 4 && !strcmp(e->d_name + nl - 4, ".tmp") && now - st.st_mtime > STALE_TMP_SECS) {
            unlinkat(dirfd(d), e->d_name, 0);
            continue;
        }
        total += (uint64_t)st.st_blocks * 512;
    }
    closedir(d);
    return total;
}

/* ---------- eviction: the least recently used first ---------- */

#define EVICT_BATCH 256 /* the oldest entries one pass over the folder finds */

typedef struct old_entry {
    struct timespec used; /* its mtime: written, or last answered from */
    uint64_t bytes;
    char name[72];
} old_entry;

/* A name this cache writes: 64 lowercase hex digits, ".json". Nothing else in the folder is ever
 * removed. */
static bool entry_name(const char *n)
{
    for (int i = 0; i < 64; i++)
        if (!((n[i] >= '0' && n[i] <= '9') || (n[i] >= 'a' && n[i] <= 'f'))) return false;
    return !strcmp(n + 64, ".json");
}

static bool newer(const struct timespec *a, const struct timespec *b)
{
    return a->tv_sec != b->tv_sec ? a->tv_sec > b->tv_sec : a->tv_nsec > b->tv_nsec;
}

/* Keep heap[0..*n) the EVICT_BATCH oldest seen so far: a max-heap by time (the newest on top). */
static void keep_oldest(old_entry *heap, size_t *n, const old_entry *e)
{
    size_t i;
    if (*n < EVICT_BATCH) {
        i = (*n)++;
        while (i && newer(&e->used, &heap[(i - 1) / 2].used)) heap[i] = heap[(i - 1) / 2], i = (i - 1) / 2;
        heap[i] = *e;
        return;
    }
    if (!newer(&heap[0].used, &e->used)) return;
    for (i = 0;;) { /* replace the newest kept, sift down */
        size_t c = 2 * i + 1;
        if (c >= *n) break;
        if (c + 1 < *n && newer(&heap[c + 1].used, &heap[c].used)) c++;
        if (!newer(&heap[c].used, &e->used)) break;
        heap[i] = heap[c];
        i = c;
    }
    heap[i] = *e;
}

static int by_use(const void *a, const void *b)
{
    const old_entry *x = a, *y = b;
    return newer(&x->used, &y->used) ? 1 : newer(&y->used, &x->used) ? -1 : 0;
}

/* Remove entries, the least recently used first, until the folder takes at most target bytes (or
 * no entry is left to remove); what it takes then. Other processes may store or remove meanwhile:
 * a file already gone is skipped, and the folder is measured again at the end. */
static uint64_t evict_to(const char *dir, uint64_t target)
{
    old_entry *heap = xmalloc(EVICT_BATCH * sizeof *heap);
    uint64_t total = measure(dir);
    while (total > target) {
        DIR *d = opendir(dir);
        if (!d) break;
        size_t n = 0;
        struct dirent *de;
        while ((de = readdir(d))) {
            struct stat st;
            if (strlen(de->d_name) != 69 || !entry_name(de->d_name) ||
                fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
                continue;
            old_entry e = {.used = st.st_mtim, .bytes = (uint64_t)st.st_blocks * 512};
            memcpy(e.name, de->d_name, 70);
            keep_oldest(heap, &n, &e);
        }
        qsort(heap, n, sizeof *heap, by_use);
        size_t removed = 0;
        for (size_t i = 0; i < n && total > target; i++) {
            if (unlinkat(dirfd(d), heap[i].name, 0) == 0) {
                total = total > heap[i].bytes ? total - heap[i].bytes : 0;
                removed++;
            }
        }
        closedir(d);
        if (!removed) break; /* nothing of ours left to remove */
    }
    free(heap);
    return measure(dir);
}

/* Write text as dir/key.json: a name of this writer's own, then renamed into place (readers and
 * other writers see the old entry or the new one, never half of one). 0, or -1 with errno. */
static int write_entry(const char *dir, const char *key, const char *text, size_t n)
{
    static atomic_uint serial;
    char *tmp = xasprintf("%s/.%s.%ld.%u.tmp", dir, key, (long)getpid(), atomic_fetch_add(&serial, 1));
    char *path = entry_path(dir, key);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0600);
    int rc = fd >= 0 && write_all(fd, text, n) == 0 ? 0 : -1;
    if (fd >= 0 && close(fd) != 0) rc = -1;
    if (rc == 0) rc = rename(tmp, path);
    int err = errno;
    if (rc != 0 && fd >= 0) unlink(tmp);
    free(tmp);
    free(path);
    errno = err;
    return rc;
}

void llm_cache_store(const char *dir, const char *key, const json_t *response, size_t max_bytes, uint64_t max_total)
{
    if (!worth_keeping(response)) return;
    size_t n;
    char *text = json_dump(response, JSON_COMPACT, &n);
    if (n > max_bytes) {
        free(text);
        return;
    }
    uint64_t cost = blocks_of(n);
    pthread_mutex_lock(&cache_lock);
    if (!measured) {
        make_dirs(dir);
        folder_bytes = measure(dir);
        measured = true;
    }
    bool room = folder_bytes + cost <= max_total;
    if (!room && cost <= max_total / 2) {
        /* full: the entries unused the longest go, down to nine tenths of the cap with this one,
         * so that the next stores do not each scan the folder */
        uint64_t low = max_total / 10 * 9;
        folder_bytes = evict_to(dir, low > cost ? low - cost : 0);
        room = folder_bytes + cost <= max_total;
    }
    if (room) folder_bytes += cost; /* counted before the write: two stores at once cannot both pass the cap */
    pthread_mutex_unlock(&cache_lock);
    if (!room) {
        free(text);
        return;
    }
    int rc = write_entry(dir, key, text, n);
    if (rc != 0 && errno == ENOENT) { /* the folder was deleted while we ran: made again, counted again */
        pthread_mutex_lock(&cache_lock);
        make_dirs(dir);
        folder_bytes = measure(dir) + cost;
        pthread_mutex_unlock(&cache_lock);
        rc = write_entry(dir, key, text, n);
    }
    if (rc != 0) {
        pthread_mutex_lock(&cache_lock);
        folder_bytes = folder_bytes > cost ? folder_bytes - cost : 0;
        pthread_mutex_unlock(&cache_lock);
    }
    free(text);
}

void llm_cache_reset(void)
{
    pthread_mutex_lock(&cache_lock);
    measured = false;
    folder_bytes = 0;
    pthread_mutex_unlock(&cache_lock);
}

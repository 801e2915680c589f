/* effects/workspace_manifest.c — the generation manifest of the workspace (workspace_manifest.h).
 * Reached beneath the root descriptor with O_NOFOLLOW at every step; the manifest's own bytes are
 * untrusted (capped, parsed with limits, type-checked).
 */
#define _GNU_SOURCE
#include "host/effects/workspace_manifest.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/files.h"
#include "util/random.h"
#include "util/rfc3339.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define WSM_FILE "manifest.json"

bool wsm_names_generation(const char *rel)
{
    char *key = wsm_key(rel);
    size_t n = strlen(WSM_DIR);
    bool hit = strncmp(key, WSM_DIR, n) == 0 && (key[n] == '\0' || key[n] == '/');
    free(key);
    return hit;
}

char *wsm_key(const char *rel)
{
    buf b = {0};
    const char *p = rel;
    while (*p) {
        const char *slash = strchr(p, '/');
        size_t len = slash ? (size_t)(slash - p) : strlen(p);
        if (len && !(len == 1 && p[0] == '.')) {
            if (b.len) buf_putc(&b, '/');
            buf_append(&b, p, len);
        }
        if (!slash) break;
        p = slash + 1;
    }
    return b.data ? buf_steal(&b) : xstrdup("");
}

const char *wsm_language(const char *path, const char *given)
{
    static const char *const map[][2] = {
        {"ts", "typescript"}, {"tsx", "typescript"}, {"js", "javascript"}, {"jsx", "javascript"},
        {"json", "json"},     {"md", "markdown"},    {"mdx", "markdown"},  {"py", "python"},
        {"rs", "rust"},       {"toml", "toml"},      {"yaml", "yaml"},     {"yml", "yaml"},
        {"css", "css"},       {"html", "html"},
    };
    if (given && *given) return given;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    if (!dot || dot == base) return "text";
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (!strcasecmp(dot + 1, map[i][0])) return map[i][1];
    return "text";
}

/* A sub-folder of dir, created when missing, never through a symlink. */
static int subdir(int dir, const char *name, char **error)
{
    if (mkdirat(dir, name, 0755) != 0 && errno != EEXIST) {
        *error = xasprintf("chidori.workspace: cannot create %s: %s", name, strerror(errno));
        return -1;
    }
    int fd = openat(dir, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) *error = xasprintf("chidori.workspace: cannot open %s: %s (it must be a folder, not a link)", name, strerror(errno));
    return fd;
}

static int generation_dir(int root, char **error) { return subdir(root, WSM_DIR, error); }

int wsm_tmp_dir(int root, char **error)
{
    int gen = generation_dir(root, error);
    if (gen < 0) return -1;
    int tmp = subdir(gen, "tmp", error);
    close(gen);
    return tmp;
}

/* An attempt number as the manifest holds it: the number, or null when there is none. */
static json_t *attempt_of(int64_t attempt) { return attempt >= 0 ? json_number((double)attempt) : json_null(); }

static json_t *empty_manifest(int64_t attempt)
{
    json_t *m = json_object();
    json_object_set(m, "version", json_number(1));
    json_object_set(m, "manifestVersion", json_number(0));
    json_object_set(m, "activeAttempt", json_number(attempt >= 0 ? (double)attempt : 0));
    json_object_set(m, "files", json_object());
    json_object_set(m, "deleted", json_object());
    return m;
}

static char *bad(const char *why)
{
    return xasprintf("chidori.workspace: %s/%s %s; fix it or delete it (chidori writes a new one)", WSM_DIR, WSM_FILE, why);
}

json_t *wsm_load(int root, bool create, int64_t attempt, char **error)
{
    int fd;
    if (create) {
        int tmp = wsm_tmp_dir(root, error);
        if (tmp < 0) return NULL;
        close(tmp);
        int gen = generation_dir(root, error);
        if (gen < 0) return NULL;
        fd = openat(gen, WSM_FILE, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
        close(gen);
    } else {
        int gen = openat(root, WSM_DIR, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        fd = gen < 0 ? -1 : openat(gen, WSM_FILE, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
        if (gen < 0 && errno == ENOTDIR) errno = ENOENT; /* not a folder: no manifest of ours */
        if (gen >= 0) {
            int e = errno;
            close(gen);
            errno = e;
        }
    }
    if (fd < 0 && errno == ENOENT) {
        json_t *m = empty_manifest(attempt);
        if (create && wsm_save(root, m, error) != 0) {
            json_free(m);
            return NULL;
        }
        return m;
    }
    if (fd < 0) {
        *error = xasprintf("chidori.workspace: cannot open %s/%s: %s", WSM_DIR, WSM_FILE, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        *error = bad("is not a regular file");
        return NULL;
    }
    buf b = {0};
    char chunk[65536];
    ssize_t n;
    while ((n = read(fd, chunk, sizeof chunk)) > 0) {
        if (b.len + (size_t)n > WSM_MAX_BYTES) {
            close(fd);
            buf_free(&b);
            *error = bad("is larger than 16 MiB");
            return NULL;
        }
        buf_append(&b, chunk, (size_t)n);
    }
    close(fd);
    json_limits lim = {.max_bytes = WSM_MAX_BYTES, .max_depth = 16};
    json_error jerr;
    json_t *m = json_parse(b.data ? b.data : "", b.len, &lim, &jerr);
    buf_free(&b);
    if (!m || !json_is_object(m)) {
        json_free(m);
        *error = bad("is not a JSON object");
        return NULL;
    }
    const json_t *v = json_object_get(m, "version");
    if (!v || v->type != JSON_NUMBER || v->u.number != 1) {
        char num[40];
        if (v && v->type == JSON_NUMBER) json_format_number(v->u.number, num);
        else snprintf(num, sizeof num, "(missing)");
        *error = xasprintf("chidori.workspace: unsupported workspace manifest version %s (%s/%s)", num, WSM_DIR, WSM_FILE);
        json_free(m);
        return NULL;
    }
    if (!json_is_object(json_object_get(m, "files"))) json_object_set(m, "files", json_object());
    if (!json_is_object(json_object_get(m, "deleted"))) json_object_set(m, "deleted", json_object());
    return m;
}

int wsm_save(int root, const json_t *manifest, char **error)
{
    int tmp = wsm_tmp_dir(root, error);
    if (tmp < 0) return -1;
    int gen = generation_dir(root, error);
    if (gen < 0) {
        close(tmp);
        return -1;
    }
    char id[37], name[64];
    uuid_v4(id);
    snprintf(name, sizeof name, "manifest-%s", id);
    size_t len;
    char *text = json_dump(manifest, JSON_PRETTY, &len);
    int rc = -1;
    int fd = openat(tmp, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd >= 0) {
        int w = write_all(fd, text, len);
        close(fd);
        if (w == 0 && renameat(tmp, name, gen, WSM_FILE) == 0) rc = 0;
        else unlinkat(tmp, name, 0);
    }
    if (rc != 0) *error = xasprintf("chidori.workspace: cannot write %s/%s: %s", WSM_DIR, WSM_FILE, strerror(errno));
    free(text);
    close(tmp);
    close(gen);
    return rc;
}

static json_t *entry_result(const char *key, const json_t *e)
{
    json_t *o = json_object();
    json_object_set(o, "path", json_string(key));
    static const char *const fields[] = {"status", "sha256", "bytes", "language", "attempt", "updatedAt"};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        const json_t *v = json_object_get(e, fields[i]);
        json_object_set(o, fields[i], v ? json_copy(v) : json_null());
    }
    return o;
}

/* obj without key (a copy; json_t objects have no removal) */
static json_t *without(const json_t *obj, const char *key)
{
    json_t *o = json_object();
    for (size_t i = 0; json_is_object(obj) && i < obj->u.object.len; i++)
        if (strcmp(obj->u.object.items[i].key, key))
            json_object_set(o, obj->u.object.items[i].key, json_copy(obj->u.object.items[i].value));
    return o;
}

/* obj with key set to value, keys kept in byte order (the manifest's maps are sorted) */
static json_t *with_sorted(const json_t *obj, const char *key, json_t *value)
{
    json_t *o = without(obj, key);
    json_object_set(o, key, value);
    json_t *s = json_object();
    for (size_t i = 0; i < o->u.object.len; i++) {
        size_t best = SIZE_MAX;
        for (size_t j = 0; j < o->u.object.len; j++) {
            if (!o->u.object.items[j].value) continue;
            if (best == SIZE_MAX || strcmp(o->u.object.items[j].key, o->u.object.items[best].key) < 0) best = j;
        }
        json_object_set(s, o->u.object.items[best].key, o->u.object.items[best].value);
        o->u.object.items[best].value = NULL;
    }
    for (size_t i = 0; i < o->u.object.len; i++) o->u.object.items[i].value = json_null(); /* moved out */
    json_free(o);
    return s;
}

json_t *wsm_note_write(json_t *manifest, const char *key, const char *sha256, size_t bytes, const char *language,
                       int64_t attempt)
{
    char when[RFC3339_MAX];
    rfc3339_format_ms(clock_realtime_ms(), when);
    json_t *e = json_object();
    json_object_set(e, "status", json_string("complete"));
    json_object_set(e, "sha256", json_string(sha256));
    json_object_set(e, "bytes", json_number((double)bytes));
    json_object_set(e, "language", json_string(language));
    json_object_set(e, "attempt", attempt_of(attempt));
    json_object_set(e, "updatedAt", json_string(when));
    json_t *result = entry_result(key, e);
    if (attempt >= 0) json_object_set(manifest, "activeAttempt", json_number((double)attempt));
    json_object_set(manifest, "files", with_sorted(json_object_get(manifest, "files"), key, e));
    json_object_set(manifest, "deleted", without(json_object_get(manifest, "deleted"), key));
    return result;
}

void wsm_note_delete(json_t *manifest, const char *key, const json_t *reason, int64_t attempt)
{
    json_t *d = json_object();
    json_object_set(d, "attempt", attempt_of(attempt));
    json_object_set(d, "reason", json_is_string(reason) ? json_copy(reason) : json_null());
    json_object_set(manifest, "files", without(json_object_get(manifest, "files"), key));
    json_object_set(manifest, "deleted", with_sorted(json_object_get(manifest, "deleted"), key, d));
}

static int by_path(const void *a, const void *b)
{
    const char *x = json_string_value(json_object_get(*(json_t *const *)a, "path"));
    const char *y = json_string_value(json_object_get(*(json_t *const *)b, "path"));
    return strcmp(x ? x : "", y ? y : "");
}

json_t *wsm_listing(const json_t *manifest, const json_t *disk, bool complete_only)
{
    json_t *out = json_array();
    const json_t *files = json_object_get(manifest, "files");
    for (size_t i = 0; json_is_object(files) && i < files->u.object.len; i++) {
        const json_t *e = files->u.object.items[i].value;
        if (!json_is_object(e)) continue;
        if (complete_only && strcmp(json_string_value(json_object_get(e, "status")) ?: "", "complete")) continue;
        json_array_push(out, entry_result(files->u.object.items[i].key, e));
    }
    for (size_t i = 0; json_is_array(disk) && i < disk->u.array.len; i++) {
        const json_t *d = disk->u.array.items[i];
        const char *path = json_string_value(json_object_get(d, "path"));
        if (!path || json_object_get(files, path)) continue;
        json_t *o = json_object();
        json_object_set(o, "path", json_string(path));
        json_object_set(o, "status", json_string("complete"));
        json_object_set(o, "sha256", json_null());
        json_object_set(o, "bytes", json_copy(json_object_get(d, "bytes")));
        json_object_set(o, "language", json_string(wsm_language(path, NULL)));
        json_object_set(o, "attempt", json_null());
        json_object_set(o, "updatedAt", json_null());
        json_array_push(out, o);
    }
    if (out->u.array.len > 1) qsort(out->u.array.items, out->u.array.len, sizeof(json_t *), by_path);
    return out;
}

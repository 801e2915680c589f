/* effects/workspace.c — chidori.workspace: real files under a sanitized root, and the generation
 * manifest that records what the agent wrote (effects/workspace_manifest.c).
 *
 * `workspace` {action: list|read|write|delete|manifest, path?, content?, options?, reason?}. The
 * root is CHIDORI_WORKSPACE_ROOT or the agent's folder. Trusts nothing in the path:
 *   - absolute paths, `..` parts, NUL, the `.chidori` state folder and the `.generation` manifest
 *     folder are refused up front;
 *   - reads go through open_beneath (openat2 RESOLVE_BENEATH): symlinks may be followed only
 *     while they stay inside the root, checked by the kernel at the moment of the open;
 *   - writes and deletes walk the parent folders one at a time from a descriptor of the root with
 *     O_NOFOLLOW, so no symlink — swapped in or not — can redirect them outside; a write lands in
 *     .generation/tmp first and is renamed into place.
 * list, write, delete and manifest load `.generation/manifest.json`; write and delete create and
 * update it, list and manifest only read it (an absent one reads as empty). list is the union of the manifest and the files on disk (dot-names skipped).
 * Contents are capped (WORKSPACE_MAX_FILE); listings are capped in entries and depth.
 * The record is the original's {action, args}: a write records its path, byte count, options and
 * the content's SHA-256, never the content.
 */
#define _GNU_SOURCE
#include "host/effects/workspace_manifest.h"
#include "host/host_internal.h"
#include "host/ops.h"
#include "host/record_form.h"
#include "util/random.h"
#include "util/buf.h"
#include "util/files.h"
#include "util/sha256.h"
#include "settings/settings.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern const effect_module workspace_module; /* defined at the end of this file */

#define WORKSPACE_MAX_FILE ((size_t)16 << 20)
#define WORKSPACE_MAX_ENTRIES 10000
#define WORKSPACE_MAX_DEPTH 32

/* The path argument, checked: relative, no `..`, not inside the state folder. */
static const char *checked_path(const json_t *args, char **error)
{
    const json_t *v = json_object_get(args, "path");
    if (!json_is_string(v)) {
        *error = xstrdup("chidori.workspace: `path` must be a string");
        return NULL;
    }
    const char *p = v->u.string.bytes;
    if (!path_is_confined(p, v->u.string.len)) {
        *error = xasprintf("chidori.workspace: `%s` is not a path inside the workspace (absolute paths and `..` "
                           "are refused)",
                           strlen(p) == v->u.string.len ? p : "(path with NUL)");
        return NULL;
    }
    while (p[0] == '.' && p[1] == '/') p += 2;
    while (*p == '/') p++;
    if (!*p || path_names_state_dir(p) || wsm_names_generation(p)) {
        *error = xasprintf("chidori.workspace: `%s` is not a file of the workspace", v->u.string.bytes);
        return NULL;
    }
    return p;
}

/* The module's state: the root, a real path (or, when it cannot be resolved, the path as
 * configured, reported when first used), and the attempt number the manifest notes. */
typedef struct workspace_state {
    char *root;
    int64_t attempt; /* CHIDORI_WORKSPACE_ATTEMPT, or -1 */
} workspace_state;

static int workspace_init(host *h, const host_config *cfg, void **state, char **error)
{
    const char *ws = cfg->workspace_root ? cfg->workspace_root : settings_text(cfg->settings, "CHIDORI_WORKSPACE_ROOT");
    workspace_state *st = xcalloc(1, sizeof *st);
    st->root = ws && *ws ? realpath(ws, NULL) : xstrdup(h->project_root);
    if (!st->root) st->root = xstrdup(ws); /* reported when first used */
    const char *attempt = settings_nonempty(cfg->settings, "CHIDORI_WORKSPACE_ATTEMPT"); /* checked: digits */
    st->attempt = attempt ? (int64_t)strtoll(attempt, NULL, 10) : -1;
    *state = st;
    return 0;
}

static void workspace_free(void *state)
{
    workspace_state *st = state;
    if (st) free(st->root);
    free(st);
}

static workspace_state *ws_state(host *h) { return host_module_state(h, &workspace_module); }

static const char *workspace_root(host *h) { return ws_state(h)->root; }

const char *host_workspace_root(host *h) { return workspace_root(h); }

static int open_root(host *h, char **error)
{
    int fd = open(workspace_root(h), O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) *error = xasprintf("chidori.workspace: cannot open the workspace root: %s", strerror(errno));
    return fd;
}

static char *describe_errno(const char *what, const char *path)
{
    if (errno == EXDEV || errno == ELOOP)
        return xasprintf("chidori.workspace: %s `%s`: it leads outside the workspace", what, path);
    return xasprintf("chidori.workspace: %s `%s`: %s", what, path, strerror(errno));
}

/* Walk to the folder holding the last part of rel, creating folders when asked, never following
 * a symlink. Returns a descriptor of that folder and sets *leaf, or -1 with errno. */
static int walk_parent(int root, const char *rel, bool create, const char **leaf)
{
    int dir = dup(root);
    const char *p = rel;
    for (;;) {
        const char *slash = strchr(p, '/');
        if (!slash) break;
        char *part = xstrndup(p, (size_t)(slash - p));
        p = slash + 1;
        if (!*part || strcmp(part, ".") == 0) {
            free(part);
            continue;
        }
        if (create && mkdirat(dir, part, 0755) != 0 && errno != EEXIST) {
            int e = errno;
            free(part);
            close(dir);
            errno = e;
            return -1;
        }
        int next = openat(dir, part, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        int e = errno;
        free(part);
        close(dir);
        if (next < 0) {
            errno = e == ENOTDIR || e == ELOOP ? EXDEV : e;
            return -1;
        }
        dir = next;
    }
    *leaf = p;
    return dir;
}

static int do_read(host *h, int root, const char *path, json_t **result, char **error)
{
    int fd = open_beneath(root, workspace_root(h), path, O_RDONLY, 0);
    if (fd < 0) {
        *error = describe_errno("cannot read", path);
        return HOST_ERROR;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        *error = xasprintf("chidori.workspace: `%s` is not a regular file", path);
        return HOST_ERROR;
    }
    buf b = {0};
    char chunk[65536];
    ssize_t n;
    while ((n = read(fd, chunk, sizeof chunk)) > 0) {
        if (b.len + (size_t)n > WORKSPACE_MAX_FILE) {
            close(fd);
            buf_free(&b);
            *error = xasprintf("chidori.workspace: `%s` is larger than %zu MiB", path, WORKSPACE_MAX_FILE >> 20);
            return HOST_ERROR;
        }
        buf_append(&b, chunk, (size_t)n);
    }
    close(fd);
    *result = json_stringn(b.data ? b.data : "", b.len);
    buf_free(&b);
    return HOST_OK;
}

/* The content goes to .generation/tmp/write-<uuid>, then is renamed over the target (a reader never
 * sees half a file); the manifest then notes the file. */
static int do_write(int root, const char *path, const json_t *args, int64_t attempt, json_t **result, char **error)
{
    const json_t *content = json_object_get(args, "content");
    if (!json_is_string(content)) {
        *error = xstrdup("chidori.workspace.write: `content` must be a string");
        return HOST_ERROR;
    }
    if (content->u.string.len > WORKSPACE_MAX_FILE) {
        *error = xasprintf("chidori.workspace.write: content is larger than %zu MiB", WORKSPACE_MAX_FILE >> 20);
        return HOST_ERROR;
    }
    const json_t *options = json_object_get(args, "options");
    const char *language = json_string_value(json_object_get(options, "language"));
    json_t *manifest = wsm_load(root, true, attempt, error);
    if (!manifest) return HOST_ERROR;
    int tmp = wsm_tmp_dir(root, error);
    if (tmp < 0) {
        json_free(manifest);
        return HOST_ERROR;
    }
    char id[37], name[64];
    uuid_v4(id);
    snprintf(name, sizeof name, "write-%s", id);
    int fd = openat(tmp, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    int written = fd >= 0 ? write_all(fd, content->u.string.bytes, content->u.string.len) : -1;
    if (fd >= 0) close(fd);
    const char *leaf = NULL;
    int dir = written == 0 ? walk_parent(root, path, true, &leaf) : -1;
    int rc = dir >= 0 ? renameat(tmp, name, dir, leaf) : -1;
    int e = errno;
    if (dir >= 0) close(dir);
    if (rc != 0) {
        if (fd >= 0) unlinkat(tmp, name, 0);
        close(tmp);
        json_free(manifest);
        errno = e == ENOTDIR || e == ELOOP ? EXDEV : e;
        *error = describe_errno("cannot write", path);
        return HOST_ERROR;
    }
    close(tmp);
    char hex[65];
    sha256_hex(content->u.string.bytes, content->u.string.len, hex);
    char *key = wsm_key(path);
    *result = wsm_note_write(manifest, key, hex, content->u.string.len, wsm_language(key, language), attempt);
    free(key);
    int saved = wsm_save(root, manifest, error);
    json_free(manifest);
    if (saved != 0) {
        json_free(*result);
        *result = NULL;
        return HOST_ERROR;
    }
    return HOST_OK;
}

static int do_delete(int root, const char *path, const json_t *args, int64_t attempt, json_t **result, char **error)
{
    json_t *manifest = wsm_load(root, true, attempt, error);
    if (!manifest) return HOST_ERROR;
    char *key = wsm_key(path);
    wsm_note_delete(manifest, key, json_object_get(args, "reason"), attempt);
    free(key);
    int saved = wsm_save(root, manifest, error);
    json_free(manifest);
    if (saved != 0) return HOST_ERROR;
    const char *leaf;
    int dir = walk_parent(root, path, false, &leaf);
    if (dir < 0) {
        if (errno == ENOENT) {
            *result = json_null(); /* as the original: delete answers null, removed or not */
            return HOST_OK;
        }
        *error = describe_errno("cannot delete", path);
        return HOST_ERROR;
    }
    int rc = unlinkat(dir, leaf, 0);
    int e = errno;
    close(dir);
    if (rc != 0 && e != ENOENT) {
        errno = e;
        *error = describe_errno("cannot delete", path);
        return HOST_ERROR;
    }
    *result = json_null();
    return HOST_OK;
}

typedef struct lister {
    json_t *entries;
    size_t count;
    bool truncated;
} lister;

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void list_dir(lister *l, int dir, const char *prefix, int depth)
{
    if (depth > WORKSPACE_MAX_DEPTH) return;
    int fd = openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return;
    }
    /* sorted, so listings are stable */
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
        if (de->d_name[0] == '.') continue; /* dot-names (.chidori, .generation, .git …) at every level */
        if (n == cap) names = xrealloc(names, (cap = cap ? cap * 2 : 32) * sizeof *names);
        names[n++] = xstrdup(de->d_name);
        if (n > WORKSPACE_MAX_ENTRIES) break; /* more than a listing may hold: reported below */
    }
    qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        const char *name = names[i];
        if (l->count >= WORKSPACE_MAX_ENTRIES) {
            l->truncated = true;
            break;
        }
        struct stat st;
        if (fstatat(dirfd(d), name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
        char *rel = *prefix ? xasprintf("%s/%s", prefix, name) : xstrdup(name);
        if (S_ISDIR(st.st_mode)) {
            int sub = openat(dirfd(d), name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub >= 0) {
                list_dir(l, sub, rel, depth + 1);
                close(sub);
            }
        } else if (S_ISREG(st.st_mode)) {
            json_t *e = json_object();
            json_object_set(e, "path", json_string(rel));
            json_object_set(e, "bytes", json_number((double)st.st_size));
            json_array_push(l->entries, e);
            l->count++;
        }
        free(rel);
    }
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
    closedir(d);
}

static int effect_workspace(host *h, const json_t *args, json_t **result, char **error)
{
    const char *action = host_arg_string(args, "action", error);
    if (!action) return HOST_ERROR;
    int root = open_root(h, error);
    if (root < 0) return HOST_ERROR;
    int rc;
    if (!strcmp(action, "manifest")) {
        *result = wsm_load(root, false, ws_state(h)->attempt, error);
        rc = *result ? HOST_OK : HOST_ERROR;
    } else if (!strcmp(action, "list")) {
        json_t *manifest = wsm_load(root, false, ws_state(h)->attempt, error);
        lister l = {.entries = json_array()};
        if (manifest) list_dir(&l, root, "", 0);
        if (!manifest) {
            rc = HOST_ERROR;
        } else if (l.truncated) {
            *error = xasprintf("chidori.workspace.%s: more than %d files", action, WORKSPACE_MAX_ENTRIES);
            rc = HOST_ERROR;
        } else {
            const json_t *co = json_object_get(json_object_get(args, "options"), "completeOnly");
            *result = wsm_listing(manifest, l.entries, co && co->type == JSON_TRUE);
            rc = HOST_OK;
        }
        json_free(l.entries);
        json_free(manifest);
    } else {
        const char *path = checked_path(args, error);
        if (!path) rc = HOST_ERROR;
        else if (!strcmp(action, "read")) rc = do_read(h, root, path, result, error);
        else if (!strcmp(action, "write")) rc = do_write(root, path, args, ws_state(h)->attempt, result, error);
        else if (!strcmp(action, "delete")) rc = do_delete(root, path, args, ws_state(h)->attempt, result, error);
        else {
            *error = xasprintf("chidori.workspace: unknown action `%s`", action);
            rc = HOST_ERROR;
        }
    }
    close(root);
    return rc;
}

/* The policy sees workspace:<action> and the call's own args. */
static char *workspace_target(const json_t *args, const json_t **match)
{
    const char *action = json_string_value(json_object_get(args, "action"));
    *match = args;
    return xasprintf("workspace:%s", action ? action : "");
}

/* ---- the record (record_form.h): the original's {action, args}, never a file's content ---- */

static json_t *workspace_record_args(const json_t *args)
{
    const char *action = json_string_value(json_object_get(args, "action"));
    json_t *o = json_object(), *a = json_object();
    json_object_set(o, "action", action ? json_string(action) : json_null());
    const json_t *path = json_object_get(args, "path"), *options = json_object_get(args, "options");
    if (action && !strcmp(action, "list")) {
        json_free(a);
        a = options ? json_copy(options) : json_object();
    } else if (action && !strcmp(action, "write")) {
        const json_t *content = json_object_get(args, "content");
        json_object_set(a, "path", path ? json_copy(path) : json_null());
        json_object_set(a, "bytes", json_number(json_is_string(content) ? (double)content->u.string.len : 0));
        json_object_set(a, "options", options ? json_copy(options) : json_object());
        if (json_is_string(content)) { /* tells a changed content apart on replay, without keeping it */
            char hex[65];
            sha256_hex(content->u.string.bytes, content->u.string.len, hex);
            json_object_set(a, "sha256", json_string(hex));
        }
    } else if (action && !strcmp(action, "delete")) {
        const json_t *reason = json_object_get(args, "reason");
        json_object_set(a, "path", path ? json_copy(path) : json_null());
        json_object_set(a, "reason", reason ? json_copy(reason) : json_null());
    } else if (path) {
        json_object_set(a, "path", json_copy(path));
    }
    json_object_set(o, "args", a);
    return o;
}

static void workspace_encode(const json_t *args, const json_t *result, json_t **rec_args, json_t **rec_result,
                             json_t **token_usage, json_t **extra)
{
    *rec_args = workspace_record_args(args);
    *rec_result = result ? json_copy(result) : NULL;
    *token_usage = NULL;
    *extra = NULL;
}

static bool workspace_matches(const call_record *rec, const json_t *args)
{
    if (!json_object_get(call_record_args(rec), "args")) return json_equal(call_record_args(rec), args); /* written before the manifest */
    json_t *mine = workspace_record_args(args);
    bool ok = json_equal(json_object_get(call_record_args(rec), "action"), json_object_get(mine, "action")) &&
              record_args_agree(json_object_get(call_record_args(rec), "args"), json_object_get(mine, "args"), false);
    json_free(mine);
    return ok;
}

static json_t *workspace_decode(const call_record *rec) { return json_copy(rec->result); }

static const record_form workspace_record_form = {
    .encode = workspace_encode,
    .matches = workspace_matches,
    .decode = workspace_decode,
};

static const op_def workspace_ops[] = {
    {.name = "workspace", .flags = OP_RECORDED | OP_GATED, .perform = effect_workspace, .target = workspace_target,
     .record = &workspace_record_form},
    {0},
};

static const char *const workspace_targets[] = {"workspace:list",   "workspace:read",     "workspace:write",
                                                "workspace:delete", "workspace:manifest", NULL};
static const char *const workspace_settings[] = {"CHIDORI_WORKSPACE_ROOT", "CHIDORI_WORKSPACE_ATTEMPT", NULL};

const effect_module workspace_module = {
    .name = "workspace",
    .ops = workspace_ops,
    .targets = workspace_targets,
    .init = workspace_init,
    .free = workspace_free,
    .settings = workspace_settings,
};

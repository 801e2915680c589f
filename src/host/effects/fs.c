/* effects/fs.c — the `fs` op: node:fs and node:fs/promises against the run's VFS (host/vfs.h).
 *
 * `fs` {action, path | from+to, now?, ...} → a result object; see the table in docs/vfs.md.
 * `now` is the engine's virtual clock, stamped on what a call changes (a missing or absurd value
 * stamps 0). Errors use Node's message format, "<CODE>: <description>, <syscall> '<path>'", so
 * the JS side can give them Node's code, errno, syscall and path; the path in the message is the
 * one the agent passed.
 *
 * The op is not recorded: it is performed again on replay and resume, and since the VFS starts
 * from the same seed and sees the same calls, it is rebuilt to the same state (docs/durable-runs.md).
 * Each nesting depth has its own VFS (host_vfs), made on first use and dropped when the nested run
 * starts and ends (the module's nest hook), because a completed nested run replays as one record
 * without re-running its calls. The byte and node caps are shared by the VFSes alive at once, so
 * nesting does not multiply them. The VFSes, the seed and the step-barrier flags are this module's
 * state (fs_state), made by fs_init from host_config.
 *
 * Trusts nothing in args: every path goes through the VFS's normalizer, numbers are range-checked,
 * and one read or write moves at most FS_IO_MAX bytes (fs.js splits larger ones), so no reply
 * outgrows a frame.
 */
#define _GNU_SOURCE
#include "host/host_internal.h"
#include "host/ops.h"
#include "host/vfs.h"
#include "util/base64.h"
#include "util/buf.h"

#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

extern const effect_module fs_module; /* defined at the end of this file */

#define FS_IO_MAX ((size_t)16 << 20)
#define FS_UMASK 022

/* One VFS per nesting depth: vfs[0] is the run's, vfs[d] belongs to the nested run at depth d
 * while it runs (a completed nested run replays as one record, so its fs calls must not have
 * touched a tree that outlives it). Each starts from the seed. */
typedef struct fs_state {
    vfs *vfs[HOST_MAX_NESTING + 1];
    json_t *vfs_seed;      /* owned copy of the seed document, or NULL */
    vfs_limits vfs_limits; /* shared by all the VFSes alive at once */
    int64_t vfs_clock_ms;  /* the time stamped on "/" and on seeded entries */
    bool fs_disabled;      /* CHIDORI_TS_FS=none */
    /* A chidori.step began (at this depth) since the last fs step barrier (fs_step_barrier). */
    bool step_since_fs_barrier[HOST_MAX_NESTING + 1];
} fs_state;

static fs_state *state_of(host *h) { return host_module_state(h, &fs_module); }

/* The VFS of depth d, made and seeded on first use. */
static vfs *vfs_at(fs_state *s, int d, char **error)
{
    if (s->vfs[d]) return s->vfs[d];
    /* The caps cover every VFS alive at once: a nested run's gets what its callers leave (their
     * trees cannot change while it runs, so this is the same on replay). Each has its own "/". */
    vfs_limits lim = s->vfs_limits;
    for (int i = 0; i < d; i++) {
        if (!s->vfs[i]) continue;
        uint64_t bytes = vfs_bytes_used(s->vfs[i]);
        size_t nodes = vfs_node_count(s->vfs[i]) - 1;
        lim.max_bytes = lim.max_bytes > bytes ? lim.max_bytes - bytes : 0;
        lim.max_nodes = lim.max_nodes > nodes ? lim.max_nodes - nodes : 1;
    }
    vfs *v = vfs_new(&lim, s->vfs_clock_ms);
    char *why = NULL;
    if (s->vfs_seed && vfs_seed_from_json(v, s->vfs_seed, s->vfs_clock_ms, &why) < 0) {
        *error = xasprintf("the VFS seed cannot be applied: %s", why);
        free(why);
        vfs_free(v);
        return NULL;
    }
    s->vfs[d] = v;
    return v;
}

/* The VFS of the current depth. */
static vfs *host_vfs(host *h, char **error) { return vfs_at(state_of(h), h->depth, error); }

void fs_note_step_begin(host *h) { state_of(h)->step_since_fs_barrier[h->depth] = true; }

/* A nested run starts or ends at depth: it starts from the seed (docs/vfs.md), and its files end
 * with it. */
static void fs_nest(void *state, int depth)
{
    fs_state *s = state;
    vfs_free(s->vfs[depth]);
    s->vfs[depth] = NULL;
    s->step_since_fs_barrier[depth] = false;
}

/* One folder of the tree into seed (depth-first; the names as the VFS lists them). */
static void snapshot_dir(vfs *v, const char *dir, json_t *seed)
{
    vfs_dirent *ents = NULL;
    size_t n = 0;
    if (vfs_readdir(v, dir, &ents, &n) != 0) return;
    for (size_t i = 0; i < n; i++) {
        char *path = xasprintf("%s%s%s", dir, strcmp(dir, "/") ? "/" : "", ents[i].name);
        if (ents[i].type == VFS_DIR) {
            char *key = xasprintf("%s/", path);
            json_object_set(seed, key, json_null());
            free(key);
            snapshot_dir(v, path, seed);
        } else {
            vfs_stats st;
            unsigned char *data = NULL;
            size_t len = 0;
            uint64_t size = 0;
            if (vfs_stat(v, path, &st) == 0 && vfs_read(v, path, 0, (size_t)st.size, &data, &len, &size) == 0) {
                size_t b64n;
                char *b64 = base64_encode(data ? data : (unsigned char *)"", len, &b64n);
                json_t *o = json_object();
                json_object_set(o, "base64", json_string(b64));
                json_object_set(o, "mode", json_number((double)(st.mode & 07777)));
                json_object_set(seed, path, o);
                free(b64);
            }
            free(data);
        }
        free(path);
    }
    vfs_dirents_free(ents, n);
}

json_t *fs_vfs_snapshot(host *h)
{
    fs_state *s = state_of(h);
    if (!s || s->fs_disabled) return NULL;
    vfs *v = s->vfs[h->depth];
    if (!v) return s->vfs_seed ? json_copy(s->vfs_seed) : NULL;
    json_t *seed = json_object();
    snapshot_dir(v, "/", seed);
    if (!seed->u.object.len) {
        json_free(seed);
        return NULL;
    }
    return seed;
}

static int fs_init(host *h, const host_config *cfg, void **state, char **error)
{
    fs_state *s = xcalloc(1, sizeof *s);
    *state = s;
    s->vfs_limits.max_bytes = cfg->vfs_max_bytes ? cfg->vfs_max_bytes : VFS_DEFAULT_MAX_BYTES;
    s->vfs_limits.max_nodes = VFS_DEFAULT_MAX_NODES;
    s->vfs_clock_ms = cfg->vfs_clock_ms;
    s->fs_disabled = cfg->fs_disabled;
    if (cfg->vfs_seed) s->vfs_seed = json_copy(cfg->vfs_seed);
    if (!s->fs_disabled && s->vfs_seed && !vfs_at(s, 0, error)) return -1; /* a bad seed fails before the run */
    return 0;
}

static void fs_free(void *state)
{
    fs_state *s = state;
    for (int d = 0; d <= HOST_MAX_NESTING; d++) vfs_free(s->vfs[d]);
    json_free(s->vfs_seed);
    free(s);
}

/* An optional number argument: def when absent; false when present but not an integer in range. */
static bool arg_int(const json_t *args, const char *name, double lo, double hi, double def, double *out)
{
    const json_t *v = json_object_get(args, name);
    if (!v || v->type == JSON_NULL) {
        *out = def;
        return true;
    }
    if (v->type != JSON_NUMBER || !(v->u.number >= lo && v->u.number <= hi) || v->u.number != floor(v->u.number))
        return false;
    *out = v->u.number;
    return true;
}

static bool arg_bool(const json_t *args, const char *name)
{
    const json_t *v = json_object_get(args, name);
    return v && v->type == JSON_TRUE;
}

static int fs_error(char **error, int e, const char *syscall, const char *path, const char *dest)
{
    if (dest)
        *error = xasprintf("%s: %s, %s '%s' -> '%s'", vfs_err_code(e), vfs_err_text(e), syscall, path, dest);
    else if (path)
        *error = xasprintf("%s: %s, %s '%s'", vfs_err_code(e), vfs_err_text(e), syscall, path);
    else
        *error = xasprintf("%s: %s, %s", vfs_err_code(e), vfs_err_text(e), syscall);
    return HOST_ERROR;
}

/* A step whose fn changes the VFS must not be answered from the log on replay: its fn would not
 * run, and the change (not recorded) would be lost. chidori.step answers from the log only when
 * the step's record is the next one, so the first VFS change after any step began records a
 * `mark`: inside a step it sits before the step's record and makes the replay run fn again (whose
 * calls replay as usual); after one it costs a record. step_begin, which sets the flag, runs in
 * replays too, so a replay meets each mark where the run made it. */
#define FS_STEP_MARK "chidori: node:fs changed the VFS after a chidori.step began"
static int fs_step_barrier(host *h, char **error)
{
    fs_state *s = state_of(h);
    if (!s->step_since_fs_barrier[h->depth]) return HOST_OK;
    s->step_since_fs_barrier[h->depth] = false;
    json_t *args = json_object(), *result = NULL;
    json_object_set(args, "label", json_string(FS_STEP_MARK));
    int rc = host_call(h, "mark", args, &result, error);
    json_free(args);
    json_free(result);
    return rc;
}

static bool mutates(const char *action)
{
    static const char *const reads[] = {"read", "readdir", "stat", "lstat", "exists", "access", "realpath"};
    for (size_t i = 0; i < sizeof reads / sizeof reads[0]; i++)
        if (!strcmp(action, reads[i])) return false;
    return true;
}

static const char *type_name(vfs_type t) { return t == VFS_DIR ? "directory" : "file"; }

static json_t *stat_json(const vfs_stats *st)
{
    json_t *o = json_object();
    json_object_set(o, "type", json_string(type_name(st->type)));
    json_object_set(o, "size", json_number((double)st->size));
    json_object_set(o, "mode", json_number(st->mode));
    json_object_set(o, "ino", json_number((double)st->ino));
    json_object_set(o, "nlink", json_number(st->nlink));
    json_object_set(o, "atimeMs", json_number((double)st->atime_ms));
    json_object_set(o, "mtimeMs", json_number((double)st->mtime_ms));
    json_object_set(o, "ctimeMs", json_number((double)st->ctime_ms));
    json_object_set(o, "birthtimeMs", json_number((double)st->birthtime_ms));
    return o;
}

static int do_read(vfs *v, const json_t *args, const char *path, json_t **result, char **error)
{
    double offset, length;
    if (!arg_int(args, "offset", 0, 9007199254740991.0, 0, &offset) ||
        !arg_int(args, "length", 0, 9007199254740991.0, (double)FS_IO_MAX, &length)) {
        *error = xstrdup("fs: `offset` and `length` must be non-negative integers");
        return HOST_ERROR;
    }
    unsigned char *data;
    size_t n;
    uint64_t size = 0;
    int e = vfs_read(v, path, (uint64_t)offset, length < (double)FS_IO_MAX ? (size_t)length : FS_IO_MAX, &data, &n, &size);
    if (e == VFS_EISDIR) return fs_error(error, e, "read", NULL, NULL);
    if (e) return fs_error(error, e, "open", path, NULL);
    char *b64 = base64_encode(data, n, NULL);
    free(data);
    *result = json_object();
    json_object_set(*result, "data", json_string(b64));
    json_object_set(*result, "size", json_number((double)size));
    free(b64);
    return HOST_OK;
}

static int do_write(vfs *v, const json_t *args, const char *path, int64_t now, json_t **result, char **error)
{
    const json_t *data = json_object_get(args, "data");
    const char *flag = json_string_value(json_object_get(args, "flag"));
    double mode;
    if (!json_is_string(data) || !arg_int(args, "mode", 0, 07777, 0666, &mode)) {
        *error = xstrdup("fs: write needs `data` (base64) and an optional integer `mode`");
        return HOST_ERROR;
    }
    unsigned flags;
    if (!flag || !strcmp(flag, "w") || !strcmp(flag, "w+")) flags = 0;
    else if (!strcmp(flag, "a") || !strcmp(flag, "a+")) flags = VFS_WRITE_APPEND;
    else if (!strcmp(flag, "wx") || !strcmp(flag, "xw") || !strcmp(flag, "wx+") || !strcmp(flag, "xw+")) flags = VFS_WRITE_EXCL;
    else if (!strcmp(flag, "ax") || !strcmp(flag, "xa") || !strcmp(flag, "ax+") || !strcmp(flag, "xa+"))
        flags = VFS_WRITE_APPEND | VFS_WRITE_EXCL;
    else {
        *error = xasprintf("fs: the flag `%.40s` is not supported (w, a, wx, ax and their + forms are)", flag);
        return HOST_ERROR;
    }
    if (data->u.string.len > base64_encoded_len(FS_IO_MAX)) {
        *error = xasprintf("fs: one write carries at most %zu bytes", FS_IO_MAX);
        return HOST_ERROR;
    }
    size_t n;
    unsigned char *bytes = base64_decode(data->u.string.bytes, data->u.string.len, SIZE_MAX, &n, NULL);
    if (!bytes) {
        *error = xstrdup("fs: `data` is not valid base64");
        return HOST_ERROR;
    }
    int e = vfs_write(v, path, bytes, n, flags, (uint32_t)mode & ~FS_UMASK, now);
    free(bytes);
    if (e) return fs_error(error, e, "open", path, NULL);
    *result = json_null();
    return HOST_OK;
}

static int do_readdir(vfs *v, const char *path, json_t **result, char **error)
{
    vfs_dirent *list;
    size_t n;
    int e = vfs_readdir(v, path, &list, &n);
    if (e) return fs_error(error, e, "scandir", path, NULL);
    json_t *entries = json_array();
    for (size_t i = 0; i < n; i++) {
        json_t *o = json_object();
        json_object_set(o, "name", json_string(list[i].name));
        json_object_set(o, "type", json_string(type_name(list[i].type)));
        json_array_push(entries, o);
    }
    vfs_dirents_free(list, n);
    *result = json_object();
    json_object_set(*result, "entries", entries);
    return HOST_OK;
}

static int effect_fs(host *h, const json_t *args, json_t **result, char **error)
{
    if (state_of(h)->fs_disabled) {
        *error = xstrdup("fs is disabled by CHIDORI_TS_FS=none");
        return HOST_ERROR;
    }
    const char *action = host_arg_string(args, "action", error);
    if (!action) return HOST_ERROR;
    double now_d;
    if (!arg_int(args, "now", 0, 8.64e15, 0, &now_d)) now_d = 0;
    int64_t now = (int64_t)now_d;
    bool two = !strcmp(action, "rename") || !strcmp(action, "copyFile");
    const char *path = NULL, *from = NULL, *to = NULL;
    if (two) {
        if (!(from = host_arg_string(args, "from", error)) || !(to = host_arg_string(args, "to", error))) return HOST_ERROR;
    } else if (strcmp(action, "mkdtemp") != 0 && !(path = host_arg_string(args, "path", error))) {
        return HOST_ERROR;
    }
    vfs *v = host_vfs(h, error);
    if (!v) return HOST_ERROR;
    int e = mutates(action) ? fs_step_barrier(h, error) : HOST_OK;
    if (e != HOST_OK) return e;

    if (!strcmp(action, "read")) return do_read(v, args, path, result, error);
    if (!strcmp(action, "write")) return do_write(v, args, path, now, result, error);
    if (!strcmp(action, "readdir")) return do_readdir(v, path, result, error);
    if (!strcmp(action, "stat") || !strcmp(action, "lstat")) {
        vfs_stats st;
        if ((e = vfs_stat(v, path, &st))) return fs_error(error, e, action, path, NULL);
        *result = stat_json(&st);
        return HOST_OK;
    }
    if (!strcmp(action, "exists") || !strcmp(action, "access")) {
        vfs_stats st;
        e = vfs_stat(v, path, &st);
        if (action[0] == 'a' && e) return fs_error(error, e, "access", path, NULL);
        *result = action[0] == 'a' ? json_null() : json_bool(e == 0);
        return HOST_OK;
    }
    if (!strcmp(action, "mkdir")) {
        double mode;
        if (!arg_int(args, "mode", 0, 07777, 0777, &mode)) {
            *error = xstrdup("fs: `mode` must be an integer up to 0o7777");
            return HOST_ERROR;
        }
        char *first = NULL;
        if ((e = vfs_mkdir(v, path, arg_bool(args, "recursive"), (uint32_t)mode & ~FS_UMASK, now, &first)))
            return fs_error(error, e, "mkdir", path, NULL);
        *result = json_object();
        json_object_set(*result, "first", first ? json_string(first) : json_null());
        free(first);
        return HOST_OK;
    }
    if (!strcmp(action, "mkdtemp")) {
        const char *prefix = host_arg_string(args, "prefix", error);
        if (!prefix) return HOST_ERROR;
        char *made = NULL;
        if ((e = vfs_mkdtemp(v, prefix, 0700, now, &made))) {
            char *shown = xasprintf("%sXXXXXX", prefix);
            fs_error(error, e, "mkdtemp", shown, NULL);
            free(shown);
            return HOST_ERROR;
        }
        *result = json_object();
        json_object_set(*result, "path", json_string(made));
        free(made);
        return HOST_OK;
    }
    if (!strcmp(action, "unlink")) {
        if ((e = vfs_unlink(v, path, now))) return fs_error(error, e, "unlink", path, NULL);
    } else if (!strcmp(action, "rmdir")) {
        bool recursive = arg_bool(args, "recursive");
        e = recursive ? vfs_rm(v, path, true, false, now) : vfs_rmdir(v, path, now);
        if (e) return fs_error(error, e, recursive && e == VFS_ENOENT ? "lstat" : "rmdir", path, NULL);
    } else if (!strcmp(action, "rm")) {
        if ((e = vfs_rm(v, path, arg_bool(args, "recursive"), arg_bool(args, "force"), now)))
            return fs_error(error, e, e == VFS_ENOENT ? "lstat" : "rm", path, NULL);
    } else if (!strcmp(action, "rename")) {
        if ((e = vfs_rename(v, from, to, now))) return fs_error(error, e, "rename", from, to);
    } else if (!strcmp(action, "copyFile")) {
        if ((e = vfs_copy_file(v, from, to, arg_bool(args, "exclusive"), now))) return fs_error(error, e, "copyfile", from, to);
    } else if (!strcmp(action, "truncate")) {
        double length;
        if (!arg_int(args, "length", 0, 9007199254740991.0, 0, &length)) {
            *error = xstrdup("fs: `length` must be a non-negative integer");
            return HOST_ERROR;
        }
        if ((e = vfs_truncate(v, path, (uint64_t)length, now))) return fs_error(error, e, "open", path, NULL);
    } else if (!strcmp(action, "chmod")) {
        double mode;
        if (!arg_int(args, "mode", 0, 07777, 0, &mode) || !json_object_get(args, "mode")) {
            *error = xstrdup("fs: `mode` must be an integer up to 0o7777");
            return HOST_ERROR;
        }
        if ((e = vfs_chmod(v, path, (uint32_t)mode, now))) return fs_error(error, e, "chmod", path, NULL);
    } else if (!strcmp(action, "utimes")) {
        double atime, mtime;
        if (!arg_int(args, "atime", -8.64e15, 8.64e15, 0, &atime) || !arg_int(args, "mtime", -8.64e15, 8.64e15, 0, &mtime)) {
            *error = xstrdup("fs: `atime` and `mtime` must be integer milliseconds");
            return HOST_ERROR;
        }
        if ((e = vfs_utimes(v, path, (int64_t)atime, (int64_t)mtime, now))) return fs_error(error, e, "utime", path, NULL);
    } else if (!strcmp(action, "realpath")) {
        char *real;
        if ((e = vfs_realpath(v, path, &real))) return fs_error(error, e, "lstat", path, NULL);
        *result = json_object();
        json_object_set(*result, "path", json_string(real));
        free(real);
        return HOST_OK;
    } else {
        *error = xasprintf("fs: unknown action `%.40s`", action);
        return HOST_ERROR;
    }
    *result = json_null();
    return HOST_OK;
}

static const op_def fs_ops[] = {
    /* not recorded: the VFS is rebuilt by performing the calls again */
    {.name = "fs", .flags = 0, .perform = effect_fs},
    {0},
};

const effect_module fs_module = {
    .name = "fs",
    .ops = fs_ops,
    .init = fs_init,
    .free = fs_free,
    .nest = fs_nest,
};

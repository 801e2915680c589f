/* effects/module_resolve.c — Node's resolution rules, confined to the project folder: relative
 * files with extension and index probing, npm packages found in node_modules folders walking up
 * from the importer, self-reference, `exports` (string, array, object shorthand, subpath keys,
 * single-`*` patterns by longest prefix, conditions), and `module`/`main`/`index` without it.
 *
 * Conditions: `chidori` first, then in the object's own order `node`, `import` (for an ES
 * importer) or `require` (for a CommonJS one), `default`. Every open goes through open_beneath
 * (openat2 RESOLVE_BENEATH), so a symlinked package that leads out of the folder, a `..` above
 * it, or the state folder are refused by the kernel; package.json files are read with a size cap
 * and parsed by our JSON parser (once per folder and run: module_cache); targets with `..` or
 * `node_modules` parts are refused.
 */
#define _GNU_SOURCE
#include "host/effects/module_resolve.h"
#include "util/buf.h"
#include "util/json.h"

#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
    host *h;
    module_cache *mc;
    bool require;
    bool escaped; /* an open was refused because it led outside the folder */
    bool denied;  /* an open was refused (the state folder) */
    bool too_long; /* an `exports` pattern's target would pass MODULE_MAX_PATH */
} rctx;

char *module_join(const char *dir, const char *rel)
{
    buf in = {0};
    if (dir && dir[0]) {
        buf_puts(&in, dir);
        buf_putc(&in, '/');
    }
    buf_puts(&in, rel);
    char **parts = xcalloc(in.len + 1, sizeof(char *));
    size_t n = 0;
    bool ok = true;
    for (char *save = NULL, *seg = strtok_r(in.data, "/", &save); seg; seg = strtok_r(NULL, "/", &save)) {
        if (strcmp(seg, ".") == 0) continue;
        if (strcmp(seg, "..") == 0) {
            if (n == 0) {
                ok = false;
                break;
            }
            n--;
            continue;
        }
        parts[n++] = seg;
    }
    char *out = NULL;
    if (ok) {
        buf b = {0};
        for (size_t i = 0; i < n; i++) {
            if (i) buf_putc(&b, '/');
            buf_puts(&b, parts[i]);
        }
        out = b.data ? buf_steal(&b) : xstrdup("");
    }
    free(parts);
    buf_free(&in);
    return out;
}

static char *dir_of(const char *key)
{
    const char *slash = key ? strrchr(key, '/') : NULL;
    return slash ? xstrndup(key, (size_t)(slash - key)) : xstrdup("");
}

static void note_errno(rctx *c, int err)
{
    if (err == EXDEV || err == ELOOP) c->escaped = true;
    else if (err == EACCES) c->denied = true;
}

/* An open regular file at key, or -1. */
static int open_file(rctx *c, const char *key)
{
    if (!key[0] || strlen(key) > MODULE_MAX_PATH) return -1;
    int fd = open_beneath(c->h->root_fd, c->h->project_root, key, O_RDONLY, 0);
    if (fd < 0) {
        note_errno(c, errno);
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return -1;
    }
    return fd;
}

static bool is_dir(rctx *c, const char *key)
{
    if (strlen(key) > MODULE_MAX_PATH) return false;
    int fd = open_beneath(c->h->root_fd, c->h->project_root, key[0] ? key : ".", O_RDONLY | O_DIRECTORY, 0);
    if (fd < 0) {
        note_errno(c, errno);
        return false;
    }
    close(fd);
    return true;
}

typedef struct package_file {
    char *id;     /* "dev:ino" */
    json_t *pj;   /* the kept fields */
    size_t bytes; /* their size as JSON text */
    struct package_file *next; /* in the scratch list */
} package_file;

typedef struct {
    char *dir;
    package_file *file; /* NULL: none, or broken */
    bool broken;
} package_entry;

static void file_free(package_file *f)
{
    if (!f) return;
    json_free(f->pj);
    free(f->id);
    free(f);
}

/* The fields resolution reads, copied out of a parsed package.json. */
static json_t *kept_fields(const json_t *full)
{
    static const char *const fields[] = {"name", "type", "main", "module", "exports", "sideEffects", NULL};
    json_t *o = json_object();
    for (int i = 0; fields[i]; i++) {
        const json_t *v = json_object_get(full, fields[i]);
        if (v) json_object_set(o, fields[i], json_copy(v));
    }
    return o;
}

/* package.json of dir: its record (cached, shared by every folder that reaches the same file, or
 * on the scratch list past the budget), or NULL (absent, too large, too deep, too many values or
 * not a JSON object: a broken one is skipped as Node would fail on it; *broken says so). */
static package_file *read_package_json_file(rctx *c, const char *dir, bool *broken)
{
    char *key = dir[0] ? xasprintf("%s/package.json", dir) : xstrdup("package.json");
    int fd = open_file(c, key);
    free(key);
    if (broken) *broken = false;
    if (fd < 0) return NULL;
    struct stat st;
    char *id = fstat(fd, &st) == 0 ? xasprintf("%ju:%ju", (uintmax_t)st.st_dev, (uintmax_t)st.st_ino) : NULL;
    package_file *f = id ? strmap_get(&c->mc->files, id) : NULL;
    if (f) {
        close(fd);
        free(id);
        return f;
    }
    buf b = {0};
    char chunk[16384];
    bool too_big = false;
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        if (b.len + (size_t)n > PACKAGE_JSON_MAX_BYTES) {
            too_big = true;
            break;
        }
        buf_append(&b, chunk, (size_t)n);
    }
    close(fd);
    json_t *j = NULL;
    if (!too_big) {
        json_error jerr;
        json_limits lim = {.max_bytes = PACKAGE_JSON_MAX_BYTES, .max_depth = PACKAGE_JSON_MAX_DEPTH,
                           .max_values = PACKAGE_JSON_MAX_VALUES};
        j = json_parse(b.data ? b.data : "", b.len, &lim, &jerr);
    }
    buf_free(&b);
    if (!j || !json_is_object(j)) {
        json_free(j);
        free(id);
        if (broken) *broken = true;
        return NULL;
    }
    f = xcalloc(1, sizeof *f);
    f->pj = kept_fields(j);
    json_free(j);
    size_t n = 0;
    free(json_dump(f->pj, 0, &n));
    f->bytes = n;
    f->id = id ? id : xstrdup("?");
    if (id && c->mc->kept_bytes + f->bytes <= MODULE_CACHE_MAX_BYTES) {
        c->mc->kept_bytes += f->bytes;
        strmap_put(&c->mc->files, f->id, f);
    } else {
        f->next = c->mc->scratch;
        c->mc->scratch = f;
    }
    return f;
}

void module_cache_init(module_cache *mc)
{
    strmap_init(&mc->dirs);
    strmap_init(&mc->files);
    mc->kept_bytes = 0;
    mc->scratch = NULL;
}

/* Frees what was parsed past the budget (nothing borrowed from it is alive between requests). */
static void scratch_clear(module_cache *mc)
{
    while (mc->scratch) {
        package_file *f = mc->scratch;
        mc->scratch = f->next;
        file_free(f);
    }
}

static void cache_clear(module_cache *mc)
{
    size_t pos = 0;
    const char *k;
    void *v;
    while (strmap_next(&mc->dirs, &pos, &k, &v)) {
        package_entry *e = v;
        free(e->dir);
        free(e);
    }
    pos = 0;
    while (strmap_next(&mc->files, &pos, &k, &v)) file_free(v);
    strmap_free(&mc->dirs);
    strmap_free(&mc->files);
    scratch_clear(mc);
    module_cache_init(mc);
}

void module_cache_free(module_cache *mc)
{
    cache_clear(mc);
    strmap_free(&mc->dirs);
    strmap_free(&mc->files);
}

/* The folder's package.json, parsed (borrowed from the run's cache: never freed by the caller). */
static const json_t *read_package_json(rctx *c, const char *dir, bool *broken)
{
    package_entry *e = strmap_get(&c->mc->dirs, dir);
    if (!e) {
        bool br = false;
        package_file *f = read_package_json_file(c, dir, &br);
        if (broken) *broken = br;
        if (f && strmap_get(&c->mc->files, f->id) != f) return f->pj; /* scratch: not cached */
        e = xcalloc(1, sizeof *e);
        e->dir = xstrdup(dir);
        e->file = f;
        e->broken = br;
        strmap_put(&c->mc->dirs, e->dir, e);
    }
    if (broken) *broken = e->broken;
    return e->file ? e->file->pj : NULL;
}

static const char *json_str(const json_t *o, const char *k)
{
    const json_t *v = o ? json_object_get(o, k) : NULL;
    return json_is_string(v) && strlen(v->u.string.bytes) == v->u.string.len ? v->u.string.bytes : NULL;
}

static bool has_suffix(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

static const char *const EXTS[] = {".ts", ".js", ".mjs", ".cjs", ".json", ".tsx", ".mts", ".cts", NULL};

/* The file itself, a `.js` name standing for a `.ts` file, or the name with an extension. */
static int load_as_file(rctx *c, const char *p, char **key)
{
    if (!p[0]) return -1;
    int fd = open_file(c, p);
    if (fd >= 0) {
        *key = xstrdup(p);
        return fd;
    }
    if (has_suffix(p, ".js")) {
        char *ts = xasprintf("%.*s.ts", (int)(strlen(p) - 3), p);
        if ((fd = open_file(c, ts)) >= 0) {
            *key = ts;
            return fd;
        }
        free(ts);
    }
    for (int i = 0; EXTS[i]; i++) {
        char *k = xasprintf("%s%s", p, EXTS[i]);
        if ((fd = open_file(c, k)) >= 0) {
            *key = k;
            return fd;
        }
        free(k);
    }
    return -1;
}

static int load_index(rctx *c, const char *dir, char **key)
{
    char *base = dir[0] ? xasprintf("%s/index", dir) : xstrdup("index");
    int fd = -1;
    for (int i = 0; EXTS[i] && fd < 0; i++) {
        char *k = xasprintf("%s%s", base, EXTS[i]);
        if ((fd = open_file(c, k)) >= 0) *key = k;
        else free(k);
    }
    free(base);
    return fd;
}

/* A folder: its package.json's `module` (ES importers) or `main`, else index.*. */
static int load_as_directory(rctx *c, const char *dir, char **key, bool *esm_hint)
{
    if (!is_dir(c, dir)) return -1;
    const json_t *pj = read_package_json(c, dir, NULL);
    int fd = -1;
    const char *fields[2] = {c->require ? NULL : "module", "main"};
    for (int i = 0; i < 2 && fd < 0; i++) {
        const char *v = fields[i] ? json_str(pj, fields[i]) : NULL;
        if (!v || !v[0]) continue;
        char *p = module_join(dir, v);
        size_t dl = strlen(dir);
        /* inside the folder: the folder itself or below it (`../foobar` is not below `foo`) */
        if (p && (dl == 0 || (strncmp(p, dir, dl) == 0 && (p[dl] == '\0' || p[dl] == '/')))) {
            fd = load_as_file(c, p, key);
            if (fd < 0 && strcmp(p, dir) != 0) fd = load_index(c, p, key);
            if (fd >= 0 && esm_hint && i == 0) *esm_hint = true;
        }
        free(p);
    }
    if (fd < 0) fd = load_index(c, dir, key);
    return fd;
}

/* ---- exports ---- */

static size_t json_object_size(const json_t *o) { return json_is_object(o) ? o->u.object.len : 0; }
static const char *json_object_key_at(const json_t *o, size_t i) { return o->u.object.items[i].key; }
static const json_t *json_object_value_at(const json_t *o, size_t i) { return o->u.object.items[i].value; }
static size_t json_array_size(const json_t *a) { return json_is_array(a) ? a->u.array.len : 0; }
static const json_t *json_array_get(const json_t *a, size_t i) { return a->u.array.items[i]; }
static bool json_is_null(const json_t *v) { return v && v->type == JSON_NULL; }


/* A target's path parts may not climb, name node_modules, or be `.` (Node refuses the same). */
static bool target_parts_ok(const char *t)
{
    const char *p = t;
    while (*p) {
        const char *slash = strchr(p, '/');
        size_t n = slash ? (size_t)(slash - p) : strlen(p);
        if ((n == 2 && p[0] == '.' && p[1] == '.') || (n == 12 && strncmp(p, "node_modules", 12) == 0) ||
            (n == 1 && p[0] == '.' && p != t))
            return false;
        p += n;
        if (*p == '/') p++;
    }
    return true;
}

static bool condition_active(rctx *c, const char *k)
{
    return strcmp(k, "node") == 0 || strcmp(k, "default") == 0 || strcmp(k, c->require ? "require" : "import") == 0;
}

/* A target (string, array or conditions object) with `*` standing for star: "./x" or NULL. */
static char *resolve_target(rctx *c, const json_t *t, const char *star, int depth)
{
    if (!t || depth > 32) return NULL;
    if (json_is_string(t)) {
        const char *s = t->u.string.bytes;
        if (strlen(s) != t->u.string.len || strncmp(s, "./", 2) != 0) return NULL;
        /* the size is known before building: a target of many `*` and a long match would
         * otherwise make a path of stars × match bytes (gigabytes) only to refuse it */
        size_t stars = 0;
        for (const char *p = s; *p; p++) stars += *p == '*';
        if (star && stars) {
            size_t sl = strlen(star), fixed = t->u.string.len - stars;
            if (fixed > MODULE_MAX_PATH || (sl && stars > (MODULE_MAX_PATH - fixed) / sl)) {
                c->too_long = true;
                return NULL;
            }
        }
        buf b = {0};
        for (const char *p = s; *p; p++) {
            if (*p == '*' && star) buf_puts(&b, star);
            else buf_putc(&b, *p);
        }
        char *r = buf_steal(&b);
        if (!target_parts_ok(r + 2) || strlen(r) > MODULE_MAX_PATH) {
            free(r);
            return NULL;
        }
        return r;
    }
    if (json_is_array(t)) {
        for (size_t i = 0; i < json_array_size(t); i++) {
            char *r = resolve_target(c, json_array_get(t, i), star, depth + 1);
            if (r) return r;
        }
        return NULL;
    }
    if (json_is_object(t)) {
        const json_t *ch = json_object_get(t, "chidori");
        if (ch) {
            char *r = resolve_target(c, ch, star, depth + 1);
            if (r) return r;
        }
        for (size_t i = 0; i < json_object_size(t); i++) {
            const char *k = json_object_key_at(t, i);
            if (!condition_active(c, k)) continue;
            char *r = resolve_target(c, json_object_value_at(t, i), star, depth + 1);
            if (r) return r;
        }
    }
    return NULL;
}

static bool has_dot_keys(const json_t *o)
{
    for (size_t i = 0; i < json_object_size(o); i++)
        if (json_object_key_at(o, i)[0] == '.') return true;
    return false;
}

/* The target of subpath ("." or "./x") in an exports field: "./file" or NULL. */
static char *exports_target(rctx *c, const json_t *exports, const char *subpath)
{
    if (json_is_string(exports) || json_is_array(exports) || (json_is_object(exports) && !has_dot_keys(exports)))
        return strcmp(subpath, ".") == 0 ? resolve_target(c, exports, NULL, 0) : NULL;
    if (!json_is_object(exports)) return NULL;
    const json_t *exact = json_object_get(exports, subpath);
    if (exact && !strchr(subpath, '*')) return resolve_target(c, exact, NULL, 0);
    const char *best = NULL;
    size_t best_prefix = 0;
    const json_t *best_v = NULL;
    for (size_t i = 0; i < json_object_size(exports); i++) {
        const char *k = json_object_key_at(exports, i);
        const char *star = strchr(k, '*');
        if (!star || strchr(star + 1, '*')) continue;
        size_t pl = (size_t)(star - k), sl = strlen(star + 1), n = strlen(subpath);
        if (n < pl + sl || strncmp(subpath, k, pl) != 0 || strcmp(subpath + n - sl, star + 1) != 0) continue;
        if (n == pl + sl && sl == 0) continue; /* the pattern needs something to stand for */
        if (!best || pl > best_prefix || (pl == best_prefix && strlen(k) > strlen(best))) {
            best = k;
            best_prefix = pl;
            best_v = json_object_value_at(exports, i);
        }
    }
    if (!best) return NULL;
    const char *star = strchr(best, '*');
    size_t n = strlen(subpath), sl = strlen(star + 1);
    char *match = xstrndup(subpath + best_prefix, n - best_prefix - sl);
    char *r = target_parts_ok(match) ? resolve_target(c, best_v, match, 0) : NULL;
    free(match);
    return r;
}

/* ---- packages ---- */

/* Splits a bare specifier into the package name and "." or "./rest"; false when malformed. */
static bool split_bare(const char *spec, char **name, char **subpath)
{
    const char *slash = strchr(spec, '/');
    if (spec[0] == '@') {
        if (!slash || slash == spec + 1) return false;
        slash = strchr(slash + 1, '/');
        if (slash && slash[-1] == '/') return false;
    }
    size_t n = slash ? (size_t)(slash - spec) : strlen(spec);
    if (n == 0 || spec[0] == '.' || spec[n - 1] == '/' || memchr(spec, '\\', n) || memchr(spec, '%', n)) return false;
    *name = xstrndup(spec, n);
    *subpath = slash ? xasprintf(".%s", slash) : xstrdup(".");
    if (!target_parts_ok(*name) || strstr(*name, "..") || !target_parts_ok(*subpath + 1)) {
        free(*name);
        free(*subpath);
        return false;
    }
    return true;
}

/* Resolve subpath inside the package folder pkgdir (its package.json already read, or NULL). */
static int resolve_in_package(rctx *c, const char *pkgdir, const json_t *pj, const char *name, const char *subpath,
                              module_found *out, char **error, const char *spec, const char *from)
{
    const json_t *exports = pj ? json_object_get(pj, "exports") : NULL;
    if (exports && !json_is_null(exports)) {
        char *t = exports_target(c, exports, subpath);
        if (!t && c->too_long) {
            *error = xasprintf("cannot import `%s` (from %s): package `%s` maps `%s` to a path longer than %d bytes "
                               "(its package.json `exports` pattern); use a shorter name",
                               spec, from, name, subpath, MODULE_MAX_PATH);
            return -1;
        }
        if (!t) {
            *error = xasprintf("cannot import `%s` (from %s): package `%s` does not export `%s` for %s "
                               "(its package.json `exports` has no entry for it)",
                               spec, from, name, subpath, c->require ? "require()" : "import");
            return -1;
        }
        char *p = module_join(pkgdir, t + 2);
        free(t);
        int fd = p ? open_file(c, p) : -1;
        if (fd < 0 && c->escaped) {
            *error = xasprintf("cannot import `%s` (from %s): it leads outside the agent's folder (a symlink?)", spec,
                               from);
            free(p);
            return -1;
        }
        if (fd < 0) {
            *error = xasprintf("cannot find module `%s` (from %s): package `%s` exports `%s` as `%s`, which is not a "
                               "file of the package",
                               spec, from, name, subpath, p ? p : "?");
            free(p);
            return -1;
        }
        out->key = p;
        out->fd = fd;
        return 0;
    }
    char *key = NULL;
    int fd;
    if (strcmp(subpath, ".") == 0) {
        fd = load_as_directory(c, pkgdir, &key, &out->esm_hint);
    } else {
        char *p = module_join(pkgdir, subpath + 2);
        fd = p ? load_as_file(c, p, &key) : -1;
        if (fd < 0 && p) fd = load_as_directory(c, p, &key, NULL);
        free(p);
    }
    if (fd < 0) {
        *error = c->escaped ? xasprintf("cannot import `%s` (from %s): it leads outside the agent's folder (a symlink?)",
                                        spec, from)
                            : xasprintf("cannot find module `%s` (from %s): package `%s` has no file for `%s`", spec,
                                        from, name, subpath);
        return -1;
    }
    out->key = key;
    out->fd = fd;
    return 0;
}

/* The package.json nearest to folder `start` (it, then each folder above it up to the project's
 * root), or NULL; *dir gets the folder it was found in (or the root when none was: free it). */
static const json_t *nearest_package_json(rctx *c, const char *start, char **dir)
{
    *dir = xstrdup(start);
    for (;;) {
        const json_t *pj = read_package_json(c, *dir, NULL);
        if (pj || !(*dir)[0]) return pj;
        char *up = dir_of(*dir);
        free(*dir);
        *dir = up;
    }
}

static int resolve_bare(rctx *c, const char *spec, const char *importer, module_found *out, char **error,
                        const char *from)
{
    char *name, *subpath;
    if (!split_bare(spec, &name, &subpath)) {
        *error = xasprintf("cannot import `%s` (from %s): not a valid package name", spec, from);
        return -1;
    }
    int rc = -1;
    char *start = dir_of(importer);
    /* Self-reference: the nearest package.json names this package and has `exports`. */
    char *dir = NULL;
    const json_t *pj = nearest_package_json(c, start, &dir);
    const char *own = pj ? json_str(pj, "name") : NULL;
    if (own && strcmp(own, name) == 0 && json_object_get(pj, "exports")) {
        rc = resolve_in_package(c, dir, pj, name, subpath, out, error, spec, from);
        goto done;
    }
    free(dir);
    dir = xstrdup(start);
    for (;;) {
        const char *last = strrchr(dir, '/');
        last = last ? last + 1 : dir;
        if (strcmp(last, "node_modules") != 0) {
            char *pkgdir = dir[0] ? xasprintf("%s/node_modules/%s", dir, name) : xasprintf("node_modules/%s", name);
            if (is_dir(c, pkgdir)) {
                bool broken;
                const json_t *pj = read_package_json(c, pkgdir, &broken);
                if (!pj && broken) {
                    *error = xasprintf("cannot import `%s` (from %s): %s/package.json is not a JSON object (or larger "
                                       "than %zu KiB, more than %d values or %d levels deep)",
                                       spec, from, pkgdir, PACKAGE_JSON_MAX_BYTES >> 10, PACKAGE_JSON_MAX_VALUES,
                                       PACKAGE_JSON_MAX_DEPTH);
                    free(pkgdir);
                    goto done;
                }
                rc = resolve_in_package(c, pkgdir, pj, name, subpath, out, error, spec, from);
                free(pkgdir);
                goto done;
            }
            free(pkgdir);
        }
        if (!dir[0]) break;
        char *up = dir_of(dir);
        free(dir);
        dir = up;
    }
    if (c->escaped)
        *error = xasprintf("cannot import `%s` (from %s): node_modules/%s leads outside the agent's folder (a symlink?); "
                           "packages must be real folders inside it",
                           spec, from, name);
    else
        *error = xasprintf("cannot find package `%s` (imported from %s): no node_modules/%s in the agent's folder; "
                           "install it there with npm (only relative imports, packages in node_modules and the "
                           "built-in modules are available)",
                           name, from, name);
done:
    free(dir);
    free(start);
    free(name);
    free(subpath);
    return rc;
}

static int resolve_key(host *h, module_cache *mc, const char *spec, const char *importer, bool require,
                       bool allow_bare, module_found *out, char **error)
{
    if (strmap_len(&mc->dirs) >= MODULE_CACHE_MAX) cache_clear(mc); /* nothing borrowed from it is alive here */
    scratch_clear(mc);
    rctx c = {.h = h, .mc = mc, .require = require};
    out->key = NULL;
    out->fd = -1;
    out->esm_hint = false;
    const char *from = importer ? importer : "the command line";
    bool relative = strcmp(spec, ".") == 0 || strcmp(spec, "..") == 0 || strncmp(spec, "./", 2) == 0 ||
                    strncmp(spec, "../", 3) == 0;
    if (spec[0] == '/') {
        *error = xasprintf("cannot import `%s` (from %s): absolute paths are not allowed; import files of the "
                           "agent's folder with a relative path",
                           spec, from);
        return -1;
    }
    const char *colon = strchr(spec, ':');
    if (colon && (!strchr(spec, '/') || colon < strchr(spec, '/'))) {
        *error = xasprintf("cannot resolve module `%s` (from %s): URL imports are not supported; only relative "
                           "imports, npm packages from node_modules and the built-in modules are available",
                           spec, from);
        return -1;
    }
    if (spec[0] == '#') {
        *error = xasprintf("cannot import `%s` (from %s): package.json `imports` (#names) are not supported", spec,
                           from);
        return -1;
    }
    if (importer && !relative) {
        if (!allow_bare) {
            *error = xasprintf("cannot import `%s` (from %s): bare imports are disabled by CHIDORI_TS_IMPORTS=relative "
                               "(only the agent's own files, by relative path)",
                               spec, from);
            return -1;
        }
        int rc = resolve_bare(&c, spec, importer, out, error, from);
        if (rc < 0 && c.denied && !*error) *error = xasprintf("cannot import `%s` (from %s): access denied", spec, from);
        return rc;
    }
    char *dir = dir_of(importer);
    char *key = module_join(dir, spec);
    free(dir);
    if (!key || !key[0]) {
        *error = xasprintf("cannot import `%s` (from %s): it resolves outside the agent's folder", spec, from);
        free(key);
        return -1;
    }
    char *found = NULL;
    int fd = load_as_file(&c, key, &found);
    if (fd < 0) fd = load_as_directory(&c, key, &found, NULL);
    if (fd < 0) {
        if (c.escaped)
            *error = xasprintf("cannot import `%s` (from %s): it leads outside the agent's folder", spec, from);
        else if (c.denied)
            *error = xasprintf("cannot find module `%s` (from %s): %s", spec, from, strerror(EACCES));
        else
            *error = xasprintf("cannot find module `%s` (from %s): %s", spec, from, strerror(ENOENT));
        free(key);
        return -1;
    }
    free(key);
    out->key = found;
    out->fd = fd;
    return 0;
}

/* A key the engine could mistake for one of its own names: `node:x` (a built-in), `chidori:x`, or
 * `<input>` (code from eval). Its first path segment has a colon or starts with `<`. */
static bool key_is_reserved(const char *key)
{
    size_t n = strcspn(key, "/");
    return key[0] == '<' || memchr(key, ':', n) != NULL;
}

int module_resolve(host *h, module_cache *mc, const char *spec, const char *importer, bool require, bool allow_bare,
                   module_found *out, char **error)
{
    int rc = resolve_key(h, mc, spec, importer, require, allow_bare, out, error);
    if (rc == 0 && key_is_reserved(out->key)) {
        const char *from = importer ? importer : "the command line";
        *error = xasprintf("cannot import `%s` (from %s): it leads to `%s`, whose first folder name has a `:` or starts "
                           "with `<`, which the runtime keeps for built-in modules; rename that folder",
                           spec, from, out->key);
        close(out->fd);
        free(out->key);
        out->key = NULL;
        out->fd = -1;
        return -1;
    }
    return rc;
}

/* The package.json nearest to key (walking up to the project folder), or NULL. */
static const json_t *nearest_of_key(host *h, module_cache *mc, const char *key)
{
    scratch_clear(mc);
    rctx c = {.h = h, .mc = mc};
    char *start = dir_of(key), *dir = NULL;
    const json_t *pj = nearest_package_json(&c, start, &dir);
    free(start);
    free(dir);
    return pj;
}

char *module_package_type(host *h, module_cache *mc, const char *key)
{
    const char *t = json_str(nearest_of_key(h, mc, key), "type");
    return t && (strcmp(t, "module") == 0 || strcmp(t, "commonjs") == 0) ? xstrdup(t) : NULL;
}

bool module_package_side_effect_free(host *h, module_cache *mc, const char *key)
{
    const json_t *v = json_object_get(nearest_of_key(h, mc, key), "sideEffects");
    return v && v->type == JSON_FALSE;
}

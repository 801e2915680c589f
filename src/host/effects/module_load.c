/* effects/module_load.c — `__module_load` {specifier, importer} → {key, source}: the module loader, an
 * internal op (ops.h) that only the engine's own loader reaches (host_internal_call).
 *
 * The engine never opens files: every import of an agent resolves here. Keys are paths relative
 * to the project folder (the entry file's folder), so guest code never learns host paths and the
 * same run has the same module names on every machine.
 *
 * Trusts nothing in the specifier. Only relative specifiers resolve; `..` may not climb above
 * the project folder; the file is opened with openat2(RESOLVE_BENEATH) relative to the folder,
 * so a symlink that leads outside is refused by the kernel (with a realpath check where openat2
 * is missing). Sources larger than MODULE_MAX_BYTES are refused.
 */
#define _GNU_SOURCE
#include "host/host_internal.h"
#include "host/ops.h"
#include "util/buf.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MODULE_MAX_BYTES ((size_t)16 << 20)
#define MODULE_MAX_PATH 1024

/* Lexically join dir + rel and normalize; NULL when it climbs above the root or is malformed. */
static char *join_normalized(const char *dir, const char *rel)
{
    buf in = {0};
    if (dir[0]) {
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
    if (ok && n > 0) {
        buf b = {0};
        for (size_t i = 0; i < n; i++) {
            if (i) buf_putc(&b, '/');
            buf_puts(&b, parts[i]);
        }
        out = buf_steal(&b);
    }
    free(parts);
    buf_free(&in);
    return out;
}

static bool has_suffix(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

/* Try the candidates TypeScript and Node users write: exact, `.js` naming a `.ts` file, and
 * extensionless with .ts/.js/.mjs or an index file. Returns an open fd and sets *key_out. */
static int open_module(host *h, const char *key, char **key_out, int *last_errno)
{
    const char *base = strrchr(key, '/');
    base = base ? base + 1 : key;
    bool has_ext = strchr(base, '.') != NULL;
    char *cands[8];
    int nc = 0;
    cands[nc++] = xstrdup(key);
    if (has_suffix(key, ".js")) cands[nc++] = xasprintf("%.*s.ts", (int)(strlen(key) - 3), key);
    if (!has_ext) {
        cands[nc++] = xasprintf("%s.ts", key);
        cands[nc++] = xasprintf("%s.js", key);
        cands[nc++] = xasprintf("%s.mjs", key);
        cands[nc++] = xasprintf("%s/index.ts", key);
        cands[nc++] = xasprintf("%s/index.js", key);
    }
    int fd = -1;
    *last_errno = ENOENT;
    for (int i = 0; i < nc; i++) {
        if (fd < 0) {
            fd = open_beneath(h->root_fd, h->project_root, cands[i], O_RDONLY, 0);
            if (fd >= 0) {
                struct stat st;
                if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
                    close(fd);
                    fd = -1;
                    *last_errno = EISDIR;
                } else {
                    *key_out = cands[i];
                    cands[i] = NULL;
                }
            } else if (errno != ENOENT) {
                *last_errno = errno;
            }
        }
        free(cands[i]);
    }
    return fd;
}

static int host_module_load(host *h, const json_t *args, json_t **result, char **error)
{
    const json_t *spec_v = json_object_get(args, "specifier");
    const json_t *imp_v = json_object_get(args, "importer");
    if (!json_is_string(spec_v)) {
        *error = xstrdup("module load: missing `specifier`");
        return 1;
    }
    const char *spec = spec_v->u.string.bytes;
    const char *importer = json_is_string(imp_v) ? imp_v->u.string.bytes : NULL;
    if (strlen(spec) != spec_v->u.string.len || spec_v->u.string.len > MODULE_MAX_PATH || !spec[0]) {
        *error = xstrdup("module load: malformed specifier");
        return 1;
    }
    if (importer && (strlen(importer) != imp_v->u.string.len || imp_v->u.string.len > MODULE_MAX_PATH)) {
        *error = xstrdup("module load: malformed importer");
        return 1;
    }
    const char *from = importer ? importer : "the command line";
    bool relative = strncmp(spec, "./", 2) == 0 || strncmp(spec, "../", 3) == 0;
    if (spec[0] == '/' || (importer && !relative)) {
        *error = spec[0] == '/' ? xasprintf("cannot import `%s` (from %s): absolute paths are not allowed; "
                                            "import files of the agent's folder with a relative path",
                                            spec, from)
                                : xasprintf("cannot resolve module `%s` (from %s): only relative imports and the "
                                            "built-in modules (chidori:agent) are available",
                                            spec, from);
        return 1;
    }
    char *dir = xstrdup(importer ? importer : "");
    char *slash = strrchr(dir, '/');
    if (slash) *slash = '\0';
    else dir[0] = '\0';
    char *key = join_normalized(dir, spec);
    free(dir);
    if (!key) {
        *error = xasprintf("cannot import `%s` (from %s): it resolves outside the agent's folder", spec, from);
        return 1;
    }

    char *found = NULL;
    int err = 0;
    int fd = open_module(h, key, &found, &err);
    if (fd < 0) {
        if (err == EXDEV || err == ELOOP)
            *error = xasprintf("cannot import `%s` (from %s): it leads outside the agent's folder", spec, from);
        else
            *error = xasprintf("cannot find module `%s` (from %s): %s", spec, from, strerror(err));
        free(key);
        return 1;
    }
    free(key);

    struct stat st;
    if (fstat(fd, &st) != 0 || (size_t)st.st_size > MODULE_MAX_BYTES) {
        *error = xasprintf("module `%s` is larger than the %zu MiB limit", found, MODULE_MAX_BYTES >> 20);
        close(fd);
        free(found);
        return 1;
    }
    buf src = {0};
    char chunk[65536];
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        if (src.len + (size_t)n > MODULE_MAX_BYTES) {
            *error = xasprintf("module `%s` is larger than the %zu MiB limit", found, MODULE_MAX_BYTES >> 20);
            buf_free(&src);
            close(fd);
            free(found);
            return 1;
        }
        buf_append(&src, chunk, (size_t)n);
    }
    close(fd);
    json_t *o = json_object();
    json_object_set(o, "key", json_string(found));
    json_object_set(o, "source", json_stringn(src.data ? src.data : "", src.len));
    buf_free(&src);
    free(found);
    *result = o;
    return 0;
}

/* Internal: only host_internal_call performs it (the engine's module loader, in process or through
 * a worker's module-load frame); host_call refuses it, whoever names it. */
static const op_def module_loader_ops[] = {
    {.name = "__module_load", .flags = OP_INTERNAL, .perform = host_module_load},
    {0},
};

const effect_module module_loader_module = {.name = "modules", .ops = module_loader_ops};

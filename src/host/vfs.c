/* vfs.c — the in-memory filesystem (see vfs.h).
 *
 * Owns the tree and its bookkeeping; trusts nothing in paths, sizes or modes (all come from guest
 * code through effects/fs.c, or from a seed file). Nodes are found by (parent inode, name) in one
 * chained hash table, so a lookup costs the same in a directory of ten entries or of sixty
 * thousand; each directory also links its children in a list, and readdir sorts a copy. Trees may
 * be deeper than any path can name (rename can nest them), so nothing here recurses.
 */
#define _GNU_SOURCE
#include "host/vfs.h"
#include "util/base64.h"
#include "util/buf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct node node;
struct node {
    node *parent;         /* NULL for "/" */
    node *hnext;          /* next in the hash bucket */
    node *first, *last;   /* children of a directory, in creation order */
    node *prev, *next;    /* siblings */
    size_t n_children, n_subdirs;
    char *name;           /* "" for "/" */
    size_t name_len;
    vfs_type type;
    uint32_t mode;        /* permission bits only */
    uint64_t ino;
    int64_t atime, mtime, ctime, btime;
    unsigned char *data;  /* files */
    size_t size, cap;
};

struct vfs {
    node *root;
    node **buckets;
    size_t n_buckets; /* a power of two */
    size_t n_nodes;   /* "/" included */
    uint64_t bytes;
    uint64_t next_ino;
    uint64_t temp_counter; /* mkdtemp suffixes */
    vfs_limits lim;
};

/* ---------- errors ---------- */

static const struct {
    const char *code, *text;
    int err_no;
} errors[VFS_ERR_COUNT] = {
    [VFS_OK] = {"OK", "success", 0},
    [VFS_ENOENT] = {"ENOENT", "no such file or directory", -2},
    [VFS_EEXIST] = {"EEXIST", "file already exists", -17},
    [VFS_EISDIR] = {"EISDIR", "illegal operation on a directory", -21},
    [VFS_ENOTDIR] = {"ENOTDIR", "not a directory", -20},
    [VFS_ENOTEMPTY] = {"ENOTEMPTY", "directory not empty", -39},
    [VFS_EINVAL] = {"EINVAL", "invalid argument", -22},
    [VFS_ENOSPC] = {"ENOSPC", "no space left on device", -28},
    [VFS_ENAMETOOLONG] = {"ENAMETOOLONG", "name too long", -36},
    [VFS_EPERM] = {"EPERM", "operation not permitted", -1},
    [VFS_EBUSY] = {"EBUSY", "resource busy or locked", -16},
    [VFS_EFBIG] = {"EFBIG", "file too large", -27},
};

static int err_index(int e) { return e >= 0 && e < VFS_ERR_COUNT ? e : VFS_EINVAL; }
const char *vfs_err_code(int e) { return errors[err_index(e)].code; }
const char *vfs_err_text(int e) { return errors[err_index(e)].text; }
int vfs_err_errno(int e) { return errors[err_index(e)].err_no; }

/* ---------- the name index ---------- */

static size_t hash_key(uint64_t parent_ino, const char *name, size_t len)
{
    uint64_t h = 1469598103934665603ull ^ (parent_ino * 0x9E3779B97F4A7C15ull);
    for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)name[i]) * 1099511628211ull;
    return (size_t)(h ^ (h >> 29));
}

static node **bucket_of(vfs *v, uint64_t parent_ino, const char *name, size_t len)
{
    return &v->buckets[hash_key(parent_ino, name, len) & (v->n_buckets - 1)];
}

static void index_insert(vfs *v, node *n)
{
    node **b = bucket_of(v, n->parent->ino, n->name, n->name_len);
    n->hnext = *b;
    *b = n;
}

static void index_remove(vfs *v, node *n)
{
    for (node **p = bucket_of(v, n->parent->ino, n->name, n->name_len); *p; p = &(*p)->hnext)
        if (*p == n) {
            *p = n->hnext;
            n->hnext = NULL;
            return;
        }
}

static void index_grow(vfs *v)
{
    size_t nb = v->n_buckets * 2;
    node **fresh = xcalloc(nb, sizeof *fresh);
    for (size_t i = 0; i < v->n_buckets; i++) {
        for (node *n = v->buckets[i], *next; n; n = next) {
            next = n->hnext;
            node **b = &fresh[hash_key(n->parent->ino, n->name, n->name_len) & (nb - 1)];
            n->hnext = *b;
            *b = n;
        }
    }
    free(v->buckets);
    v->buckets = fresh;
    v->n_buckets = nb;
}

static node *child(vfs *v, const node *dir, const char *name, size_t len)
{
    for (node *n = *bucket_of(v, dir->ino, name, len); n; n = n->hnext)
        if (n->parent == dir && n->name_len == len && memcmp(n->name, name, len) == 0) return n;
    return NULL;
}

/* ---------- nodes ---------- */

static node *node_alloc(vfs *v, vfs_type type, const char *name, size_t len, uint32_t mode, int64_t now)
{
    node *n = xcalloc(1, sizeof *n);
    n->type = type;
    n->name = xstrndup(name, len);
    n->name_len = len;
    n->mode = mode & 07777;
    n->ino = v->next_ino++;
    n->atime = n->mtime = n->ctime = n->btime = now;
    return n;
}

static void node_release(node *n)
{
    free(n->name);
    free(n->data);
    free(n);
}

static void touch(node *n, int64_t now) { n->mtime = n->ctime = now; }

/* Link n into dir (a fresh node, or one detached by rename). */
static void attach(vfs *v, node *dir, node *n, int64_t now)
{
    n->parent = dir;
    n->prev = dir->last;
    n->next = NULL;
    if (dir->last) dir->last->next = n;
    else dir->first = n;
    dir->last = n;
    dir->n_children++;
    if (n->type == VFS_DIR) dir->n_subdirs++;
    index_insert(v, n);
    touch(dir, now);
    if (v->n_nodes > v->n_buckets) index_grow(v);
}

static void detach(vfs *v, node *n, int64_t now)
{
    node *dir = n->parent;
    index_remove(v, n);
    if (n->prev) n->prev->next = n->next;
    else dir->first = n->next;
    if (n->next) n->next->prev = n->prev;
    else dir->last = n->prev;
    dir->n_children--;
    if (n->type == VFS_DIR) dir->n_subdirs--;
    n->prev = n->next = NULL;
    touch(dir, now);
}

/* Make a node in dir, inside the node cap. */
static int create(vfs *v, node *dir, vfs_type type, const char *name, size_t len, uint32_t mode, int64_t now,
                  node **out)
{
    if (v->n_nodes >= v->lim.max_nodes) return VFS_ENOSPC;
    node *n = node_alloc(v, type, name, len, mode, now);
    v->n_nodes++;
    attach(v, dir, n, now);
    *out = n;
    return 0;
}

/* Remove a whole subtree (top included), children first, without recursion. */
static void remove_tree(vfs *v, node *top, int64_t now)
{
    node *n = top;
    for (;;) {
        while (n->first) n = n->first;
        node *p = n->parent;
        bool last = n == top;
        detach(v, n, now);
        v->bytes -= n->size;
        v->n_nodes--;
        node_release(n);
        if (last) return;
        n = p;
    }
}

/* Set a file's content to data[0..n) at offset (growing it; zero-filling any gap). The caller
 * has checked the byte cap. */
static void file_put(vfs *v, node *f, uint64_t offset, const void *data, size_t n)
{
    size_t end = (size_t)offset + n;
    if (end > f->cap) {
        size_t cap = f->cap ? f->cap : 64;
        while (cap < end) cap = cap > SIZE_MAX / 2 ? end : cap * 2;
        f->data = xrealloc(f->data, cap);
        f->cap = cap;
    }
    if (offset > f->size) memset(f->data + f->size, 0, (size_t)offset - f->size);
    if (n) memcpy(f->data + offset, data, n);
    if (end > f->size) {
        v->bytes += end - f->size;
        f->size = end;
    }
}

static void file_shrink(vfs *v, node *f, size_t length)
{
    if (length >= f->size) return;
    v->bytes -= f->size - length;
    f->size = length;
    if (f->cap > 4096 && length < f->cap / 4) { /* give memory back after a large truncation */
        f->cap = length ? length : 0;
        if (f->cap) f->data = xrealloc(f->data, f->cap);
        else free(f->data), f->data = NULL;
    }
}

/* ---------- paths ---------- */

int vfs_normalize(const char *path, size_t len, char *out, size_t *out_len, bool *dir_only)
{
    size_t o = 0;
    bool slash_end = false;
    if (dir_only) *dir_only = false;
    out[0] = '\0';
    if (out_len) *out_len = 0;
    if (len == 0) return VFS_ENOENT;
    if (memchr(path, '\0', len)) return VFS_EINVAL;
    if (len >= VFS_PATH_MAX) return VFS_ENAMETOOLONG;
    for (size_t i = 0; i < len;) {
        while (i < len && path[i] == '/') i++;
        size_t start = i;
        while (i < len && path[i] != '/') i++;
        size_t n = i - start;
        const char *part = path + start;
        if (n == 0) {
            slash_end = true;
            break;
        }
        if (n > VFS_NAME_MAX) return VFS_ENAMETOOLONG;
        slash_end = (n == 1 && part[0] == '.') || (n == 2 && part[0] == '.' && part[1] == '.');
        if (n == 1 && part[0] == '.') continue;
        if (n == 2 && part[0] == '.' && part[1] == '.') {
            while (o > 0 && out[o - 1] != '/') o--; /* drop the last part ... */
            if (o > 0) o--;                          /* ... and its slash; "/" is the floor */
            continue;
        }
        out[o++] = '/';
        memcpy(out + o, part, n);
        o += n;
        slash_end = i < len; /* a slash follows: settled by the next round */
    }
    if (o == 0) out[o++] = '/';
    out[o] = '\0';
    if (out_len) *out_len = o;
    if (dir_only) *dir_only = slash_end;
    return 0;
}

/* The node a normalized path names. ENOENT / ENOTDIR on the way. */
static int walk(vfs *v, const char *norm, node **out)
{
    node *n = v->root;
    const char *p = norm;
    while (*p) {
        p++; /* the slash */
        if (!*p) break;
        const char *end = strchr(p, '/');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (n->type != VFS_DIR) return VFS_ENOTDIR;
        node *c = child(v, n, p, len);
        if (!c) return VFS_ENOENT;
        n = c;
        p += len;
    }
    *out = n;
    return 0;
}

typedef struct resolved {
    char path[VFS_PATH_BUF];
    size_t len;
    bool dir_only;
    node *parent;      /* NULL for "/" */
    const char *name;  /* last part, inside path */
    size_t name_len;
    node *node;        /* NULL when the last part does not exist */
} resolved;

/* Resolve a guest path: its parent must exist (and be a directory); the node itself may not. */
static int resolve(vfs *v, const char *path, resolved *r)
{
    memset(r, 0, sizeof *r);
    int e = vfs_normalize(path, strlen(path), r->path, &r->len, &r->dir_only);
    if (e) return e;
    if (r->len == 1) {
        r->node = v->root;
        return 0;
    }
    char *slash = strrchr(r->path, '/');
    r->name = slash + 1;
    r->name_len = r->len - (size_t)(r->name - r->path);
    node *parent;
    if (slash == r->path) {
        parent = v->root;
    } else {
        *slash = '\0';
        e = walk(v, r->path, &parent);
        *slash = '/';
        if (e) return e;
    }
    if (parent->type != VFS_DIR) return VFS_ENOTDIR;
    r->parent = parent;
    r->node = child(v, parent, r->name, r->name_len);
    return 0;
}

/* Resolve a path that must exist; a trailing slash on a file is ENOTDIR. */
static int resolve_existing(vfs *v, const char *path, resolved *r)
{
    int e = resolve(v, path, r);
    if (e) return e;
    if (!r->node) return VFS_ENOENT;
    if (r->dir_only && r->node->type != VFS_DIR) return VFS_ENOTDIR;
    return 0;
}

/* ---------- lifecycle ---------- */

vfs *vfs_new(const vfs_limits *lim, int64_t now_ms)
{
    vfs *v = xcalloc(1, sizeof *v);
    v->lim.max_bytes = lim ? lim->max_bytes : VFS_DEFAULT_MAX_BYTES;
    v->lim.max_nodes = !lim ? VFS_DEFAULT_MAX_NODES : lim->max_nodes ? lim->max_nodes : 1;
    v->n_buckets = 64;
    v->buckets = xcalloc(v->n_buckets, sizeof *v->buckets);
    v->next_ino = 1;
    v->root = node_alloc(v, VFS_DIR, "", 0, 0755, now_ms);
    v->n_nodes = 1;
    return v;
}

void vfs_free(vfs *v)
{
    if (!v) return;
    for (size_t i = 0; i < v->n_buckets; i++)
        for (node *n = v->buckets[i], *next; n; n = next) {
            next = n->hnext;
            node_release(n);
        }
    node_release(v->root);
    free(v->buckets);
    free(v);
}

uint64_t vfs_bytes_used(const vfs *v) { return v->bytes; }
size_t vfs_node_count(const vfs *v) { return v->n_nodes; }
const vfs_limits *vfs_get_limits(const vfs *v) { return &v->lim; }

/* ---------- operations ---------- */

int vfs_read(vfs *v, const char *path, uint64_t offset, size_t max, unsigned char **data, size_t *n,
             uint64_t *file_size)
{
    resolved r;
    *data = NULL;
    *n = 0;
    int e = resolve_existing(v, path, &r);
    if (e) return e;
    if (r.node->type == VFS_DIR) return VFS_EISDIR;
    node *f = r.node;
    *file_size = f->size;
    if (offset >= f->size) return 0;
    size_t take = f->size - (size_t)offset;
    if (take > max) take = max;
    *data = xmalloc(take + 1);
    memcpy(*data, f->data + offset, take);
    *n = take;
    return 0;
}

int vfs_write(vfs *v, const char *path, const void *data, size_t n, unsigned flags, uint32_t mode, int64_t now)
{
    resolved r;
    int e = resolve(v, path, &r);
    if (e) return e;
    node *f = r.node;
    if (f && (flags & VFS_WRITE_EXCL)) return VFS_EEXIST;
    if (f && f->type == VFS_DIR) return VFS_EISDIR;
    if (r.dir_only) return f ? VFS_ENOTDIR : VFS_EISDIR; /* open("x/", O_CREAT) is EISDIR */
    uint64_t keep = f && (flags & VFS_WRITE_APPEND) ? f->size : 0;
    uint64_t old = f ? f->size : 0;
    if (n > v->lim.max_bytes || keep + n > v->lim.max_bytes || v->bytes - old + keep + n > v->lim.max_bytes)
        return VFS_ENOSPC;
    if (!f && (e = create(v, r.parent, VFS_FILE, r.name, r.name_len, mode, now, &f))) return e;
    if (!(flags & VFS_WRITE_APPEND)) file_shrink(v, f, 0);
    file_put(v, f, f->size, data, n);
    touch(f, now);
    return 0;
}

int vfs_mkdir(vfs *v, const char *path, bool recursive, uint32_t mode, int64_t now, char **first_created)
{
    if (first_created) *first_created = NULL;
    char norm[VFS_PATH_BUF];
    size_t len;
    int e = vfs_normalize(path, strlen(path), norm, &len, NULL);
    if (e) return e;
    if (!recursive) {
        resolved r;
        if ((e = resolve(v, path, &r))) return e;
        if (r.node) return VFS_EEXIST;
        node *d;
        if ((e = create(v, r.parent, VFS_DIR, r.name, r.name_len, mode, now, &d))) return e;
        if (first_created) *first_created = xstrdup(norm);
        return 0;
    }
    node *dir = v->root;
    const char *p = norm;
    while (*p) {
        p++;
        if (!*p) break;
        const char *end = strchr(p, '/');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        node *c = child(v, dir, p, n);
        if (!c) {
            if ((e = create(v, dir, VFS_DIR, p, n, mode, now, &c))) break;
            if (first_created && !*first_created) *first_created = xstrndup(norm, (size_t)(p + n - norm));
        } else if (c->type != VFS_DIR) {
            e = end ? VFS_ENOTDIR : VFS_EEXIST;
            break;
        }
        dir = c;
        p += n;
    }
    if (e && first_created) { /* the directories made before the failure stay, as with mkdir -p */
        free(*first_created);
        *first_created = NULL;
    }
    return e;
}

int vfs_mkdtemp(vfs *v, const char *prefix, uint32_t mode, int64_t now, char **out)
{
    *out = NULL;
    size_t plen = strlen(prefix);
    for (int tries = 0; tries < 1000; tries++) {
        uint64_t k = ++v->temp_counter;
        char suffix[7];
        for (int i = 5; i >= 0; i--, k /= 36) suffix[i] = "0123456789abcdefghijklmnopqrstuvwxyz"[k % 36];
        suffix[6] = '\0';
        char *path = xasprintf("%s%s", prefix, suffix);
        int e = plen + 6 >= VFS_PATH_MAX ? VFS_ENAMETOOLONG : vfs_mkdir(v, path, false, mode, now, NULL);
        if (e == VFS_EEXIST) {
            free(path);
            continue;
        }
        if (e) {
            free(path);
            return e;
        }
        *out = path;
        return 0;
    }
    return VFS_EEXIST;
}

static int cmp_dirent(const void *a, const void *b)
{
    const vfs_dirent *x = a, *y = b;
    return strcmp(x->name, y->name);
}

int vfs_readdir(vfs *v, const char *path, vfs_dirent **entries, size_t *n)
{
    resolved r;
    *entries = NULL;
    *n = 0;
    int e = resolve_existing(v, path, &r);
    if (e) return e;
    if (r.node->type != VFS_DIR) return VFS_ENOTDIR;
    vfs_dirent *list = xcalloc(r.node->n_children + 1, sizeof *list);
    size_t i = 0;
    for (node *c = r.node->first; c; c = c->next) {
        list[i].name = xstrndup(c->name, c->name_len);
        list[i].type = c->type;
        i++;
    }
    qsort(list, i, sizeof *list, cmp_dirent);
    *entries = list;
    *n = i;
    return 0;
}

void vfs_dirents_free(vfs_dirent *entries, size_t n)
{
    for (size_t i = 0; i < n; i++) free(entries[i].name);
    free(entries);
}

int vfs_stat(vfs *v, const char *path, vfs_stats *st)
{
    resolved r;
    int e = resolve_existing(v, path, &r);
    if (e) return e;
    node *n = r.node;
    memset(st, 0, sizeof *st);
    st->type = n->type;
    st->size = n->type == VFS_DIR ? 4096 : n->size;
    st->mode = (n->type == VFS_DIR ? VFS_S_IFDIR : VFS_S_IFREG) | n->mode;
    st->ino = n->ino;
    st->nlink = n->type == VFS_DIR ? (uint32_t)(2 + n->n_subdirs) : 1;
    st->atime_ms = n->atime;
    st->mtime_ms = n->mtime;
    st->ctime_ms = n->ctime;
    st->birthtime_ms = n->btime;
    return 0;
}

int vfs_unlink(vfs *v, const char *path, int64_t now)
{
    resolved r;
    int e = resolve_existing(v, path, &r);
    if (e) return e;
    if (r.node->type == VFS_DIR) return VFS_EISDIR; /* Linux's answer for unlink(dir) */
    remove_tree(v, r.node, now);
    return 0;
}

int vfs_rmdir(vfs *v, const char *path, int64_t now)
{
    resolved r;
    int e = resolve_existing(v, path, &r);
    if (e) return e;
    if (r.node->type != VFS_DIR) return VFS_ENOTDIR;
    if (r.node == v->root) return VFS_EBUSY;
    if (r.node->first) return VFS_ENOTEMPTY;
    remove_tree(v, r.node, now);
    return 0;
}

int vfs_rm(vfs *v, const char *path, bool recursive, bool force, int64_t now)
{
    resolved r;
    int e = resolve_existing(v, path, &r);
    if (e) return e == VFS_ENOENT && force ? 0 : e;
    if (r.node->type == VFS_DIR && !recursive) return VFS_EISDIR;
    if (r.node == v->root) return VFS_EBUSY;
    remove_tree(v, r.node, now);
    return 0;
}

int vfs_rename(vfs *v, const char *from, const char *to, int64_t now)
{
    resolved a, b;
    int e = resolve_existing(v, from, &a);
    if (e) return e;
    if ((e = resolve(v, to, &b))) return e;
    node *src = a.node, *dst = b.node;
    if (src == v->root || dst == v->root) return VFS_EBUSY;
    if (b.dir_only && src->type != VFS_DIR) return VFS_ENOTDIR;
    if (src == dst) return 0;
    for (node *p = b.parent; p; p = p->parent) /* into its own subtree */
        if (p == src) return VFS_EINVAL;
    if (dst) {
        if (src->type == VFS_DIR && dst->type != VFS_DIR) return VFS_ENOTDIR;
        if (src->type != VFS_DIR && dst->type == VFS_DIR) return VFS_EISDIR;
        if (dst->first) return VFS_ENOTEMPTY;
        remove_tree(v, dst, now);
    }
    detach(v, src, now);
    if (src->name_len != b.name_len || memcmp(src->name, b.name, b.name_len) != 0) {
        free(src->name);
        src->name = xstrndup(b.name, b.name_len);
        src->name_len = b.name_len;
    }
    attach(v, b.parent, src, now);
    src->ctime = now;
    return 0;
}

int vfs_copy_file(vfs *v, const char *from, const char *to, bool exclusive, int64_t now)
{
    resolved a, b;
    int e = resolve_existing(v, from, &a);
    if (e) return e;
    if (a.node->type == VFS_DIR) return VFS_EISDIR;
    if ((e = resolve(v, to, &b))) return e;
    node *src = a.node, *dst = b.node;
    if (dst && exclusive) return VFS_EEXIST;
    if (dst && dst->type == VFS_DIR) return VFS_EISDIR;
    if (b.dir_only) return dst ? VFS_ENOTDIR : VFS_EISDIR;
    if (src == dst) return 0;
    uint64_t old = dst ? dst->size : 0;
    if (v->bytes - old + src->size > v->lim.max_bytes) return VFS_ENOSPC;
    if (!dst && (e = create(v, b.parent, VFS_FILE, b.name, b.name_len, src->mode, now, &dst))) return e;
    file_shrink(v, dst, 0);
    file_put(v, dst, 0, src->data, src->size);
    touch(dst, now);
    return 0;
}

int vfs_truncate(vfs *v, const char *path, uint64_t length, int64_t now)
{
    resolved r;
    int e = resolve_existing(v, path, &r);
    if (e) return e;
    node *f = r.node;
    if (f->type == VFS_DIR) return VFS_EISDIR;
    if (length > f->size) {
        if (length > v->lim.max_bytes || v->bytes + (length - f->size) > v->lim.max_bytes) return VFS_ENOSPC;
        file_put(v, f, length, NULL, 0);
    } else {
        file_shrink(v, f, (size_t)length);
    }
    touch(f, now);
    return 0;
}

int vfs_chmod(vfs *v, const char *path, uint32_t mode, int64_t now)
{
    resolved r;
    int e = resolve_existing(v, path, &r);
    if (e) return e;
    r.node->mode = mode & 07777;
    r.node->ctime = now;
    return 0;
}

int vfs_utimes(vfs *v, const char *path, int64_t atime_ms, int64_t mtime_ms, int64_t now)
{
    resolved r;
    int e = resolve_existing(v, path, &r);
    if (e) return e;
    r.node->atime = atime_ms;
    r.node->mtime = mtime_ms;
    r.node->ctime = now;
    return 0;
}

int vfs_realpath(vfs *v, const char *path, char **out)
{
    resolved r;
    *out = NULL;
    int e = resolve_existing(v, path, &r);
    if (e) return e;
    *out = xstrndup(r.path, r.len);
    return 0;
}

/* ---------- consistency ---------- */

const char *vfs_check(const vfs *v)
{
    size_t nodes = 1, indexed = 0;
    uint64_t bytes = 0;
    for (size_t i = 0; i < v->n_buckets; i++)
        for (node *n = v->buckets[i]; n; n = n->hnext) {
            indexed++;
            if (!n->parent || n->parent->type != VFS_DIR) return "an indexed node has no directory parent";
            if ((hash_key(n->parent->ino, n->name, n->name_len) & (v->n_buckets - 1)) != i)
                return "a node sits in the wrong bucket";
            if (n->name_len == 0 || n->name_len > VFS_NAME_MAX || memchr(n->name, '/', n->name_len) ||
                memchr(n->name, '\0', n->name_len) || (n->name_len == 1 && n->name[0] == '.') ||
                (n->name_len == 2 && n->name[0] == '.' && n->name[1] == '.'))
                return "a node has an impossible name";
            if (n->type == VFS_FILE && (n->first || n->size > n->cap)) return "a file has children or a bad size";
            if (n->type == VFS_DIR && n->size) return "a directory has bytes";
            bytes += n->size;
            nodes++;
        }
    if (indexed + 1 != v->n_nodes || nodes != v->n_nodes) return "the node count is wrong";
    if (bytes != v->bytes) return "the byte count is wrong";
    if (v->bytes > v->lim.max_bytes) return "the byte cap is exceeded";
    if (v->n_nodes > v->lim.max_nodes) return "the node cap is exceeded";
    if (v->root->parent || v->root->type != VFS_DIR) return "the root is not a parentless directory";
    /* Every directory's child list agrees with its counts, and every listed child is indexed. */
    size_t listed = 0;
    node *n = v->root;
    for (;;) { /* pre-order walk without recursion */
        size_t kids = 0, dirs = 0;
        for (node *c = n->first; c; c = c->next) {
            kids++;
            dirs += c->type == VFS_DIR;
            if (c->parent != n) return "a child does not point at its directory";
            if (child((vfs *)v, n, c->name, c->name_len) != c) return "a child is missing from the index (or named twice)";
        }
        if (kids != n->n_children || dirs != n->n_subdirs) return "a directory's counts are wrong";
        listed += kids;
        if (n->first) {
            n = n->first;
            continue;
        }
        while (n != v->root && !n->next) n = n->parent;
        if (n == v->root) break;
        n = n->next;
    }
    if (listed + 1 != v->n_nodes) return "some node is not reachable from the root";
    return NULL;
}

/* ---------- seeding ---------- */

int vfs_seed_from_json(vfs *v, const json_t *seed, int64_t now, char **error)
{
    if (!json_is_object(seed)) {
        *error = xstrdup("the seed must be a JSON object of {\"/path\": content}");
        return -1;
    }
    for (size_t i = 0; i < seed->u.object.len; i++) {
        const json_member *m = &seed->u.object.items[i];
        const json_t *val = m->value;
        const char *key = m->key;
        char norm[VFS_PATH_BUF];
        bool dir_only;
        int e = strlen(key) != m->key_len ? VFS_EINVAL : vfs_normalize(key, m->key_len, norm, NULL, &dir_only);
        if (e || key[0] != '/') {
            *error = xasprintf("entry `%.200s`: %s", key,
                               e ? vfs_err_text(e) : "paths in a seed must be absolute (start with /)");
            return -1;
        }
        if (val->type == JSON_NULL) {
            if ((e = vfs_mkdir(v, norm, true, 0755, now, NULL))) {
                *error = xasprintf("entry `%.200s`: cannot make the directory: %s", key, vfs_err_text(e));
                return -1;
            }
            continue;
        }
        const char *bytes = NULL;
        size_t len = 0;
        unsigned char *decoded = NULL;
        uint32_t mode = 0644;
        if (dir_only) {
            *error = xasprintf("entry `%.200s`: a path ending in / names a directory; its value must be null", key);
            return -1;
        }
        if (json_is_string(val)) {
            bytes = val->u.string.bytes;
            len = val->u.string.len;
        } else if (json_is_object(val)) {
            const json_t *b64 = json_object_get(val, "base64"), *text = json_object_get(val, "text");
            const json_t *md = json_object_get(val, "mode");
            bool ok = (!!b64 != !!text) && (!b64 || json_is_string(b64)) && (!text || json_is_string(text));
            for (size_t k = 0; ok && k < val->u.object.len; k++) {
                const char *kk = val->u.object.items[k].key;
                ok = !strcmp(kk, "base64") || !strcmp(kk, "text") || !strcmp(kk, "mode");
            }
            if (ok && md) ok = md->type == JSON_NUMBER && md->u.number >= 0 && md->u.number <= 07777 &&
                               md->u.number == (double)(uint32_t)md->u.number;
            if (!ok) {
                *error = xasprintf("entry `%.200s`: an object value must be {\"base64\": \"...\"} or {\"text\": \"...\"}, "
                                   "with an optional \"mode\" (an integer up to 0o7777)", key);
                return -1;
            }
            if (md) mode = (uint32_t)md->u.number;
            if (text) {
                bytes = text->u.string.bytes;
                len = text->u.string.len;
            } else {
                decoded = base64_decode(b64->u.string.bytes, b64->u.string.len, SIZE_MAX, &len, NULL);
                if (!decoded) {
                    *error = xasprintf("entry `%.200s`: `base64` is not valid base64", key);
                    return -1;
                }
                bytes = (const char *)decoded;
            }
        } else {
            *error = xasprintf("entry `%.200s`: the value must be a string (UTF-8 text), {\"base64\": \"...\"}, "
                               "{\"text\": \"...\"} or null (a directory)", key);
            return -1;
        }
        char *slash = strrchr(norm, '/');
        if (slash != norm) {
            *slash = '\0';
            e = vfs_mkdir(v, norm, true, 0755, now, NULL);
            if (e == VFS_EEXIST) e = VFS_ENOTDIR; /* the parent is a file */
            *slash = '/';
        }
        if (!e) e = vfs_write(v, norm, bytes, len, VFS_WRITE_EXCL, mode, now);
        free(decoded);
        if (e) {
            *error = xasprintf("entry `%.200s`: %s", key,
                               e == VFS_EEXIST ? "the path is named twice (or is a directory of another entry)"
                               : e == VFS_ENOSPC ? "the seed is larger than the VFS may hold (CHIDORI_VFS_MAX_BYTES, or too many entries)"
                                                 : vfs_err_text(e));
            return -1;
        }
    }
    return 0;
}

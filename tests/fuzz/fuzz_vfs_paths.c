/* fuzz_vfs_paths.c — the VFS's path normalizer and random sequences of VFS operations.
 *
 * The whole input is first normalized as one path and compared with a reference normalizer
 * written here independently (a stack of parts); the result must be absolute, hold no "." or ".."
 * part, no empty part, no NUL, and normalize to itself. If the input starts with '{' the part up to
 * the first newline is also tried as a seed document. The input (after the first byte, which picks
 * the caps) is then a program for a small machine: each op byte picks an operation, and its paths
 * are built from a table of parts ("a", "..", ".", "", long names...) or taken raw from the input.
 * After every operation the tree's bookkeeping is recounted (vfs_check), the byte and node caps
 * hold, and every path the VFS hands back (realpath, mkdir -p, mkdtemp) is normalized and never
 * climbs above "/". ASan/LeakSanitizer catch memory errors and leaks.
 */
#include "host/vfs.h"
#include "util/buf.h"
#include "util/json.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAIL(...) (fprintf(stderr, __VA_ARGS__), fputc('\n', stderr), abort())

/* ---------- the reference normalizer ---------- */

static int reference(const char *p, size_t len, char *out, size_t *out_len)
{
    if (len == 0) return VFS_ENOENT;
    if (memchr(p, 0, len)) return VFS_EINVAL;
    if (len >= VFS_PATH_MAX) return VFS_ENAMETOOLONG;
    size_t starts[VFS_PATH_MAX], lens[VFS_PATH_MAX], depth = 0;
    size_t i = 0;
    while (i < len) {
        size_t s = i;
        while (i < len && p[i] != '/') i++;
        size_t n = i - s;
        if (i < len) i++; /* the slash */
        if (n > VFS_NAME_MAX) return VFS_ENAMETOOLONG;
        if (n == 0 || (n == 1 && p[s] == '.')) continue;
        if (n == 2 && p[s] == '.' && p[s + 1] == '.') {
            if (depth) depth--;
            continue;
        }
        starts[depth] = s;
        lens[depth] = n;
        depth++;
    }
    size_t o = 0;
    for (size_t k = 0; k < depth; k++) {
        out[o++] = '/';
        memcpy(out + o, p + starts[k], lens[k]);
        o += lens[k];
    }
    if (!o) out[o++] = '/';
    out[o] = 0;
    *out_len = o;
    return 0;
}

static void check_normalized(const char *s, size_t len)
{
    if (len == 0 || s[0] != '/' || strlen(s) != len) FAIL("not absolute or holds NUL: %s", s);
    if (len > 1 && s[len - 1] == '/') FAIL("trailing slash: %s", s);
    if (len > VFS_PATH_MAX) FAIL("too long: %zu", len);
    for (size_t i = 1; i < len;) {
        size_t j = i;
        while (j < len && s[j] != '/') j++;
        size_t n = j - i;
        if (n == 0 || n > VFS_NAME_MAX) FAIL("bad part length %zu in %s", n, s);
        if ((n == 1 && s[i] == '.') || (n == 2 && s[i] == '.' && s[i + 1] == '.')) FAIL("dot part in %s", s);
        i = j + 1;
    }
}

static void fuzz_normalizer(const char *p, size_t len)
{
    static char a[VFS_PATH_BUF], b[VFS_PATH_BUF], c[VFS_PATH_BUF];
    size_t alen = 0, blen = 0, clen = 0;
    bool dir_only;
    int ea = vfs_normalize(p, len, a, &alen, &dir_only);
    int eb = reference(p, len, b, &blen);
    if (ea != eb) FAIL("normalizer says %d, reference says %d", ea, eb);
    if (ea) return;
    if (alen != blen || memcmp(a, b, alen) != 0) FAIL("normalizer gave %s, reference %s", a, b);
    check_normalized(a, alen);
    if (vfs_normalize(a, alen, c, &clen, NULL) != 0 || clen != alen || memcmp(a, c, alen) != 0)
        FAIL("not idempotent: %s → %s", a, c);
    bool ends_dir = p[len - 1] == '/' || (len >= 1 && p[len - 1] == '.' && (len == 1 || p[len - 2] == '/')) ||
                    (len >= 2 && p[len - 1] == '.' && p[len - 2] == '.' && (len == 2 || p[len - 3] == '/'));
    if (dir_only != ends_dir) FAIL("dir_only %d for %.*s", dir_only, (int)len, p);
}

/* ---------- the operation machine ---------- */

typedef struct input {
    const uint8_t *p;
    size_t n;
} input;

static unsigned take(input *in)
{
    if (!in->n) return 0;
    in->n--;
    return *in->p++;
}

static const char *const PARTS[] = {"a", "b", "c", "..", ".", "", "dir", "f.txt", "a/b", "../..", "x y", "\xc3\xa9"};

/* A path: a table-built one, or raw input bytes (NULs included) when the top bit says so. */
static char *make_path(input *in)
{
    unsigned h = take(in);
    buf b = {0};
    if (h & 0x80) {
        size_t n = h & 0x3f;
        if (n > in->n) n = in->n;
        buf_append(&b, in->p, n);
        in->p += n;
        in->n -= n;
        if (h & 0x40) buf_putc(&b, '/');
        if (!b.data) buf_puts(&b, "");
        return buf_steal(&b);
    }
    if (h & 0x40) {                  /* a long part, to meet VFS_NAME_MAX */
        size_t n = 250 + (take(in) & 15);
        buf_putc(&b, '/');
        for (size_t i = 0; i < n; i++) buf_putc(&b, 'L');
    }
    unsigned parts = h & 7;
    for (unsigned i = 0; i < parts; i++) {
        unsigned k = take(in);
        if (i || !(k & 0x80)) buf_putc(&b, '/');
        buf_puts(&b, PARTS[(k & 0x7f) % (sizeof PARTS / sizeof PARTS[0])]);
    }
    if (h & 0x08) buf_putc(&b, '/');
    if (!b.data) buf_puts(&b, "");
    return buf_steal(&b);
}

static void check_tree(vfs *v)
{
    const char *why = vfs_check(v);
    if (why) FAIL("vfs_check: %s", why);
    const vfs_limits *lim = vfs_get_limits(v);
    if (vfs_bytes_used(v) > lim->max_bytes) FAIL("bytes %llu over the cap", (unsigned long long)vfs_bytes_used(v));
    if (vfs_node_count(v) > lim->max_nodes) FAIL("nodes %zu over the cap", vfs_node_count(v));
}

static void check_returned_path(const char *s)
{
    if (s) check_normalized(s, strlen(s));
}

static void run_program(input *in)
{
    unsigned caps = take(in);
    vfs_limits lim = {(uint64_t)64 << (caps & 7), (size_t)4 + (caps >> 3)};
    vfs *v = vfs_new(&lim, 0);
    static uint8_t data[1 << 14];
    if (!data[1])
        for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)i;
    int64_t now = 0;
    for (int steps = 0; in->n && steps < 200; steps++) {
        unsigned op = take(in);
        unsigned arg = take(in);
        char *p = make_path(in), *q = NULL, *out = NULL;
        now += arg;
        int e = 0;
        switch (op % 16) {
        case 0: {
            size_t n = arg & 0x80 ? (size_t)1 << (arg & 15) : arg;
            e = vfs_write(v, p, data, n > sizeof data ? sizeof data : n, (arg >> 5) & 3, 0644, now);
            break;
        }
        case 1: {
            unsigned char *d = NULL;
            size_t n;
            uint64_t size;
            e = vfs_read(v, p, arg & 7, (size_t)arg * 3, &d, &n, &size);
            if (!e && (n > (size_t)arg * 3 || n > size)) FAIL("read returned %zu bytes", n);
            free(d);
            break;
        }
        case 2:
            e = vfs_mkdir(v, p, arg & 1, 0755, now, &out);
            check_returned_path(out);
            if (out && e) FAIL("mkdir failed but named a directory");
            break;
        case 3: {
            vfs_dirent *list;
            size_t n;
            e = vfs_readdir(v, p, &list, &n);
            for (size_t i = 1; !e && i < n; i++)
                if (strcmp(list[i - 1].name, list[i].name) >= 0) FAIL("readdir is not sorted");
            if (!e) vfs_dirents_free(list, n);
            break;
        }
        case 4: {
            vfs_stats st;
            e = vfs_stat(v, p, &st);
            break;
        }
        case 5: e = vfs_unlink(v, p, now); break;
        case 6: e = vfs_rmdir(v, p, now); break;
        case 7: e = vfs_rm(v, p, arg & 1, arg & 2, now); break;
        case 8:
            q = make_path(in);
            e = vfs_rename(v, p, q, now);
            break;
        case 9:
            q = make_path(in);
            e = vfs_copy_file(v, p, q, arg & 1, now);
            break;
        case 10: e = vfs_truncate(v, p, arg & 0x80 ? (uint64_t)1 << (arg & 31) : arg, now); break;
        case 11: e = vfs_chmod(v, p, arg * 37u, now); break;
        case 12: e = vfs_utimes(v, p, -(int64_t)arg, (int64_t)arg << 20, now); break;
        case 13:
            e = vfs_realpath(v, p, &out);
            check_returned_path(out);
            break;
        case 14:
            e = vfs_mkdtemp(v, p, 0700, now, &out);
            if (!e) {
                char norm[VFS_PATH_BUF];
                if (vfs_normalize(out, strlen(out), norm, NULL, NULL) != 0) FAIL("mkdtemp made an unnamable path");
                check_returned_path(norm);
            }
            break;
        default: fuzz_normalizer(p, strlen(p)); break;
        }
        if (e < 0 || e >= VFS_ERR_COUNT) FAIL("error code %d out of range", e);
        if (!vfs_err_code(e)[0]) FAIL("unnamed error");
        free(p);
        free(q);
        free(out);
        check_tree(v);
    }
    vfs_free(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_normalizer((const char *)data, size);
    if (size && data[0] == '{') {
        const uint8_t *nl = memchr(data, '\n', size);
        size_t len = nl ? (size_t)(nl - data) : size;
        json_error jerr;
        json_t *doc = json_parse((const char *)data, len, NULL, &jerr);
        if (doc) {
            vfs_limits lim = {1024, 32};
            vfs *v = vfs_new(&lim, 0);
            char *err = NULL;
            if (vfs_seed_from_json(v, doc, 0, &err) < 0 && !err) FAIL("seed failed without an error");
            free(err);
            check_tree(v);
            vfs_free(v);
            json_free(doc);
        }
    }
    input in = {data, size};
    run_program(&in);
    return 0;
}

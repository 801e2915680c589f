/* bytecode_cache.c — the bytecode cache's files (bytecode_cache.h): the key, reading an entry with
 * every check before a byte of it is trusted, and writing one.
 *
 * Trusts nothing it reads: an entry file may be truncated, swapped, hand-edited or planted by
 * anyone who can write the state folder. It is read only when it is a regular file (no symlink,
 * FIFO or device) of at most BC_CACHE_MAX_PAYLOAD + BC_CACHE_OVERHEAD bytes, and its payload is
 * handed out only when the magic, the id, the length and the tag (constant-time compare) all
 * match. The key is 32 random bytes in <state>/cache/bytecode/key (0600), created once; the guest
 * cannot read it (the state folder is out of a module load's reach and the worker has no files).
 */
#define _GNU_SOURCE
#include "host/bytecode_cache.h"
#include "util/buf.h"
#include "util/files.h"
#include "util/random.h"
#include "util/strmap.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern const char chidori_build_id[];

static const unsigned char MAGIC[8] = {'C', 'H', 'I', 'B', 'C', '0', '0', '3'};

struct bc_cache {
    char *dir;
    unsigned char key[32];
};

/* The id and the tag are SipHash-2-4-128 (a keyed PRF with a 128-bit output; util/strmap.c has it):
 * the id under the first half of the 32-byte key, the tag under the second. One pass over the bytes
 * each: cheap enough for every package module a run loads (SHA-256 and HMAC-SHA256 here cost more
 * than the parse they save), and unforgeable without the key. */
static void prf128(const unsigned char key[32], int half, const void *data, size_t len, unsigned char out[16])
{
    uint64_t k[2];
    for (int w = 0; w < 2; w++) {
        k[w] = 0;
        for (int i = 7; i >= 0; i--) k[w] = (k[w] << 8) | key[16 * half + 8 * w + i];
    }
    uint64_t h[2];
    strmap_siphash128(k[0], k[1], data, len, h);
    for (int i = 0; i < 8; i++) {
        out[i] = (unsigned char)(h[0] >> (8 * i));
        out[8 + i] = (unsigned char)(h[1] >> (8 * i));
    }
}

static int hex_to_raw(const char *hex, unsigned char out[BC_ID_BYTES])
{
    for (int i = 0; i < BC_ID_BYTES; i++) {
        unsigned v = 0;
        for (int k = 0; k < 2; k++) {
            char ch = hex[2 * i + k];
            v <<= 4;
            if (ch >= '0' && ch <= '9') v |= (unsigned)(ch - '0');
            else if (ch >= 'a' && ch <= 'f') v |= (unsigned)(ch - 'a' + 10);
            else return -1;
        }
        out[i] = (unsigned char)v;
    }
    return hex[2 * BC_ID_BYTES] == '\0' ? 0 : -1;
}

/* The PRF, under the key's first half, of tag, the build id, the key and the bytes (each part but the
 * last with its NUL), as hex. */
static void keyed_id(const bc_cache *c, const char *tag, const char *key, const char *bytes, size_t len,
                     char out[BC_ID_HEX + 1])
{
    buf pre = {0};
    buf_append(&pre, tag, strlen(tag) + 1);
    buf_append(&pre, chidori_build_id, strlen(chidori_build_id) + 1);
    buf_append(&pre, key, strlen(key) + 1);
    buf_append(&pre, bytes, len);
    unsigned char d[BC_ID_BYTES];
    prf128(c->key, 0, pre.data, pre.len, d);
    buf_free(&pre);
    static const char hex[] = "0123456789abcdef";
    for (int i = 0; i < BC_ID_BYTES; i++) {
        out[2 * i] = hex[d[i] >> 4];
        out[2 * i + 1] = hex[d[i] & 15];
    }
    out[BC_ID_HEX] = '\0';
}

int bc_cache_graph_id(const bc_cache *c, const char *entry_key, char out[BC_ID_HEX + 1])
{
    /* another tag than the per-module entries of earlier builds had ("chidori-bytecode-2") */
    keyed_id(c, "chidori-graph-1", entry_key, "", 0, out);
    return 0;
}

int bc_entry_check(const unsigned char key32[32], const char *id, const unsigned char *data, size_t len,
                   const unsigned char **payload, size_t *plen)
{
    unsigned char raw[BC_ID_BYTES];
    if (!id || hex_to_raw(id, raw) < 0) return -1;
    if (len < BC_CACHE_OVERHEAD || len - BC_CACHE_OVERHEAD > BC_CACHE_MAX_PAYLOAD) return -1;
    if (memcmp(data, MAGIC, 8) != 0 || memcmp(data + 8, raw, BC_ID_BYTES) != 0) return -1;
    uint64_t n = 0;
    for (int i = 7; i >= 0; i--) n = (n << 8) | data[8 + BC_ID_BYTES + i];
    if (n != len - BC_CACHE_OVERHEAD) return -1;
    unsigned char mac[BC_TAG_BYTES];
    prf128(key32, 1, data, len - BC_TAG_BYTES, mac);
    unsigned diff = 0;
    for (int i = 0; i < BC_TAG_BYTES; i++) diff |= (unsigned)(mac[i] ^ data[len - BC_TAG_BYTES + i]);
    if (diff != 0) return -1;
    *payload = data + BC_HEADER_BYTES;
    *plen = (size_t)n;
    return 0;
}

unsigned char *bc_entry_build(const unsigned char key32[32], const char *id, const unsigned char *payload, size_t plen,
                              size_t *len)
{
    unsigned char raw[BC_ID_BYTES];
    if (!id || hex_to_raw(id, raw) < 0 || plen > BC_CACHE_MAX_PAYLOAD) return NULL;
    size_t total = plen + BC_CACHE_OVERHEAD;
    unsigned char *out = xmalloc(total);
    memcpy(out, MAGIC, 8);
    memcpy(out + 8, raw, BC_ID_BYTES);
    for (int i = 0; i < 8; i++) out[8 + BC_ID_BYTES + i] = (unsigned char)((uint64_t)plen >> (8 * i));
    if (plen) memcpy(out + BC_HEADER_BYTES, payload, plen);
    prf128(key32, 1, out, total - BC_TAG_BYTES, out + total - BC_TAG_BYTES);
    *len = total;
    return out;
}

static int mkdir_private(const char *path)
{
    if (mkdir(path, 0700) == 0 || errno == EEXIST) {
        struct stat st;
        return lstat(path, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : -1;
    }
    return -1;
}

/* The key: read when there (exactly 32 bytes of a regular file), else created exclusively. */
static int load_key(const char *dir, unsigned char key[32])
{
    char *path = xasprintf("%s/key", dir);
    for (int attempt = 0; attempt < 2; attempt++) {
        char *error = NULL;
        size_t len = 0;
        char *data = read_regular_file_capped(path, 64, &len, &error);
        free(error);
        if (data) {
            int ok = len == 32;
            if (ok) memcpy(key, data, 32);
            free(data);
            free(path);
            return ok ? 0 : -1;
        }
        unsigned char fresh[32];
        random_bytes(fresh, sizeof fresh);
        char *tmp = xasprintf("%s/key.%d.tmp", dir, (int)getpid());
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
        if (fd >= 0) {
            int w = write_all(fd, fresh, sizeof fresh);
            close(fd);
            /* link() fails when another process made the key first: then read theirs */
            if (w == 0) (void)link(tmp, path);
            unlink(tmp);
        }
        free(tmp);
    }
    free(path);
    return -1;
}

bc_cache *bc_cache_open(const char *state_dir)
{
    if (!state_dir || !*state_dir) return NULL;
    char *cache = xasprintf("%s/cache", state_dir);
    char *dir = xasprintf("%s/cache/bytecode", state_dir);
    bc_cache *c = NULL;
    if (mkdir_private(state_dir) == 0 && mkdir_private(cache) == 0 && mkdir_private(dir) == 0) {
        c = xcalloc(1, sizeof *c);
        c->dir = dir;
        dir = NULL;
        if (load_key(c->dir, c->key) < 0) {
            bc_cache_close(c);
            c = NULL;
        }
    }
    free(cache);
    free(dir);
    return c;
}

void bc_cache_close(bc_cache *c)
{
    if (!c) return;
    memset(c->key, 0, sizeof c->key);
    free(c->dir);
    free(c);
}

static char *entry_path(bc_cache *c, const char *id)
{
    return xasprintf("%s/%.2s/%s.bc", c->dir, id, id);
}

/* Reads the whole of a regular file of at most max bytes into one allocation sized by its fstat
 * (an entry is read once per run and can be megabytes: no chunked copies). NULL when it is not
 * such a file or it changes size while read. */
static unsigned char *read_entry(const char *path, size_t max, size_t *len)
{
    char *error = NULL;
    int fd = open_regular_file(path, O_RDONLY, 0, &error);
    free(error);
    if (fd < 0) return NULL;
    struct stat st;
    unsigned char *data = NULL;
    if (fstat(fd, &st) == 0 && st.st_size >= 0 && (size_t)st.st_size <= max) {
        size_t want = (size_t)st.st_size, got = 0;
        data = xmalloc(want + 1);
        while (got <= want) { /* one byte past the size: a file that grew is refused */
            ssize_t n = read(fd, data + got, want + 1 - got);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            got += (size_t)n;
        }
        if (got != want) {
            free(data);
            data = NULL;
        } else {
            *len = want;
        }
    }
    close(fd);
    return data;
}

unsigned char *bc_cache_get(bc_cache *c, const char *id, const unsigned char **payload, size_t *len)
{
    if (!c) return NULL;
    char *path = entry_path(c, id);
    struct stat st;
    if (lstat(path, &st) != 0) { /* no entry (the usual miss) */
        free(path);
        return NULL;
    }
    if (!S_ISREG(st.st_mode) || (size_t)st.st_size > BC_CACHE_MAX_PAYLOAD + BC_CACHE_OVERHEAD) {
        if (!S_ISDIR(st.st_mode)) unlink(path); /* a link, FIFO, device or oversized file: never read */
        free(path);
        return NULL;
    }
    size_t n = 0;
    unsigned char *data = read_entry(path, BC_CACHE_MAX_PAYLOAD + BC_CACHE_OVERHEAD, &n);
    if (data) {
        size_t plen;
        if (bc_entry_check(c->key, id, data, n, payload, &plen) == 0) {
            *len = plen;
        } else {
            unlink(path); /* not ours or broken: rebuilt by the next run that compiles the file */
            free(data);
            data = NULL;
        }
    }
    free(path);
    return data;
}

void bc_cache_put(bc_cache *c, const char *id, const unsigned char *payload, size_t len)
{
    if (!c) return;
    size_t n;
    unsigned char *entry = bc_entry_build(c->key, id, payload, len, &n);
    if (!entry) return;
    char *sub = xasprintf("%s/%.2s", c->dir, id);
    if (mkdir_private(sub) == 0) {
        char *path = entry_path(c, id);
        char *error = NULL;
        (void)write_file_atomic(path, entry, n, false, &error);
        free(error);
        free(path);
    }
    free(sub);
    free(entry);
}

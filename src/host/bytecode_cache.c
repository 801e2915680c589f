/* bytecode_cache.c — the bytecode cache's files (bytecode_cache.h): the key, reading an entry with
 * every check before a byte of it is trusted, and writing one.
 *
 * Trusts nothing it reads: an entry file may be truncated, swapped, hand-edited or planted by
 * anyone who can write the state folder. It is read only when it is a regular file (no symlink,
 * FIFO or device) of at most BC_CACHE_MAX_PAYLOAD + BC_CACHE_OVERHEAD bytes, and its payload is
 * handed out only when the magic, the id, the length and the HMAC (constant-time compare) all
 * match. The key is 32 random bytes in <state>/cache/bytecode/key (0600), created once; the guest
 * cannot read it (the state folder is out of a module load's reach and the worker has no files).
 */
#define _GNU_SOURCE
#include "host/bytecode_cache.h"
#include "util/buf.h"
#include "util/crypto_lazy.h"
#include "util/files.h"
#include "util/random.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern const char chidori_build_id[];

static const unsigned char MAGIC[8] = {'C', 'H', 'I', 'B', 'C', '0', '0', '1'};

struct bc_cache {
    char *dir;
    unsigned char key[32];
};

/* SHA-256 and HMAC-SHA256 by libcrypto (crypto_lazy.h; several times faster than util/sha256.c,
 * and every module load of a package hashes its source): -1 when libcrypto is not there, and then
 * the run has no cache. */
static int digest(const unsigned char *key32, const void *data, size_t len, unsigned char out[32])
{
    unsigned char d[CRYPTO_DIGEST_MAX];
    char *error = NULL;
    size_t n = crypto_digest("sha256", data, len, key32, key32 ? 32 : 0, d, &error);
    free(error);
    if (n != 32) return -1;
    memcpy(out, d, 32);
    return 0;
}

static int hex_to_raw(const char *hex, unsigned char out[32])
{
    for (int i = 0; i < 32; i++) {
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
    return hex[64] == '\0' ? 0 : -1;
}

int bc_cache_id(const char *key, const char *source, size_t len, char out[65])
{
    static const char tag[] = "chidori-bytecode-1";
    size_t tl = sizeof tag, bl = strlen(chidori_build_id) + 1, kl = strlen(key) + 1;
    buf pre = {0};
    buf_append(&pre, tag, tl); /* each part with its NUL */
    buf_append(&pre, chidori_build_id, bl);
    buf_append(&pre, key, kl);
    buf_append(&pre, source, len);
    unsigned char d[32];
    int rc = digest(NULL, pre.data, pre.len, d);
    buf_free(&pre);
    if (rc < 0) return -1;
    static const char hex[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        out[2 * i] = hex[d[i] >> 4];
        out[2 * i + 1] = hex[d[i] & 15];
    }
    out[64] = '\0';
    return 0;
}

int bc_entry_check(const unsigned char key32[32], const char *id, const unsigned char *data, size_t len,
                   const unsigned char **payload, size_t *plen)
{
    unsigned char raw[32];
    if (!id || hex_to_raw(id, raw) < 0) return -1;
    if (len < BC_CACHE_OVERHEAD || len - BC_CACHE_OVERHEAD > BC_CACHE_MAX_PAYLOAD) return -1;
    if (memcmp(data, MAGIC, 8) != 0 || memcmp(data + 8, raw, 32) != 0) return -1;
    uint64_t n = 0;
    for (int i = 7; i >= 0; i--) n = (n << 8) | data[40 + i];
    if (n != len - BC_CACHE_OVERHEAD) return -1;
    unsigned char mac[32];
    if (digest(key32, data, len - 32, mac) < 0) return -1;
    unsigned diff = 0;
    for (int i = 0; i < 32; i++) diff |= (unsigned)(mac[i] ^ data[len - 32 + i]);
    if (diff != 0) return -1;
    *payload = data + 48;
    *plen = (size_t)n;
    return 0;
}

unsigned char *bc_entry_build(const unsigned char key32[32], const char *id, const unsigned char *payload, size_t plen,
                              size_t *len)
{
    unsigned char raw[32];
    if (!id || hex_to_raw(id, raw) < 0 || plen > BC_CACHE_MAX_PAYLOAD) return NULL;
    size_t total = plen + BC_CACHE_OVERHEAD;
    unsigned char *out = xmalloc(total);
    memcpy(out, MAGIC, 8);
    memcpy(out + 8, raw, 32);
    for (int i = 0; i < 8; i++) out[40 + i] = (unsigned char)((uint64_t)plen >> (8 * i));
    if (plen) memcpy(out + 48, payload, plen);
    if (digest(key32, out, total - 32, out + total - 32) < 0) {
        free(out);
        return NULL;
    }
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

unsigned char *bc_cache_get(bc_cache *c, const char *id, size_t *len)
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
    char *error = NULL;
    size_t n = 0;
    char *data = read_regular_file_capped(path, BC_CACHE_MAX_PAYLOAD + BC_CACHE_OVERHEAD, &n, &error);
    unsigned char *out = NULL;
    if (data) {
        const unsigned char *p;
        size_t plen;
        if (bc_entry_check(c->key, id, (const unsigned char *)data, n, &p, &plen) == 0) {
            out = xmalloc(plen ? plen : 1);
            memcpy(out, p, plen);
            *len = plen;
        } else {
            unlink(path); /* not ours or broken: rebuilt by the next run that compiles the file */
        }
        free(data);
    }
    free(error);
    free(path);
    return out;
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

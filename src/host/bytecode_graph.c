/* bytecode_graph.c — reading and writing a graph image's payload (bytecode_graph.h).
 *
 * Trusts nothing it parses: every length is checked against the bytes left before it is used, the
 * count, key and bytecode lengths are capped, keys with a NUL or given twice and trailing bytes
 * make the whole payload refused. A refused payload is no error for the run: the modules are
 * compiled from their sources.
 */
#include "host/bytecode_graph.h"
#include "host/bytecode_cache.h"
#include "util/strmap.h"

#include <stdlib.h>
#include <string.h>

static const unsigned char GRAPH_MAGIC[8] = {'C', 'H', 'I', 'G', 'R', 'F', '0', '1'};

static uint64_t get_le(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}

static void put_le(buf *out, uint64_t v, int n)
{
    unsigned char b[8];
    for (int i = 0; i < n; i++) b[i] = (unsigned char)(v >> (8 * i));
    buf_append(out, b, (size_t)n);
}

void bc_graph_free(bc_graph *g)
{
    free(g->m);
    free(g->keys);
    strmap_free(&g->by_key);
    memset(g, 0, sizeof *g);
}

int bc_graph_parse(const unsigned char *p, size_t len, bc_graph *g)
{
    memset(g, 0, sizeof *g);
    strmap_init(&g->by_key);
    if (len < 12 || memcmp(p, GRAPH_MAGIC, 8) != 0) return -1;
    uint64_t count = get_le(p + 8, 4);
    /* each record is at least 24 bytes, so the count cannot outrun the bytes either */
    if (count > BC_GRAPH_MAX_MODULES || count > (len - 12) / 24) return -1;
    size_t at = 12;
    g->m = calloc(count ? count : 1, sizeof *g->m);
    size_t *key_at = calloc(count ? count : 1, sizeof *key_at);
    buf keys = {0};
    int rc = -1;
    if (!g->m || !key_at) goto out;
    for (uint64_t i = 0; i < count; i++) {
        if (len - at < 4) goto out;
        uint64_t kl = get_le(p + at, 4);
        at += 4;
        if (kl == 0 || kl > BC_GRAPH_MAX_KEY || len - at < kl || memchr(p + at, 0, kl)) goto out;
        key_at[i] = keys.len;
        buf_append(&keys, p + at, kl);
        buf_append(&keys, "", 1);
        at += kl;
        if (len - at < 20) goto out;
        g->m[i].source_len = get_le(p + at, 8);
        g->m[i].source_hash = get_le(p + at + 8, 8);
        uint64_t bl = get_le(p + at + 16, 4);
        at += 20;
        if (bl == 0 || bl > BC_CACHE_MAX_PAYLOAD || len - at < bl) goto out;
        g->m[i].bytecode = p + at;
        g->m[i].bytecode_len = (size_t)bl;
        at += bl;
    }
    if (at != len) goto out;
    g->n = (size_t)count;
    g->keys = keys.data;
    keys.data = NULL;
    for (size_t i = 0; i < g->n; i++) {
        g->m[i].key = g->keys + key_at[i];
        if (strmap_put(&g->by_key, g->m[i].key, &g->m[i])) goto out; /* a key given twice */
    }
    rc = 0;
out:
    free(key_at);
    buf_free(&keys);
    if (rc < 0) {
        bc_graph_free(g);
        strmap_init(&g->by_key);
    }
    return rc;
}

void bc_graph_begin(buf *out, uint32_t count)
{
    buf_append(out, GRAPH_MAGIC, 8);
    put_le(out, count, 4);
}

void bc_graph_add(buf *out, const char *key, uint64_t source_len, uint64_t source_hash, const unsigned char *bytecode,
                  size_t bytecode_len)
{
    size_t kl = strlen(key);
    put_le(out, kl, 4);
    buf_append(out, key, kl);
    put_le(out, source_len, 8);
    put_le(out, source_hash, 8);
    put_le(out, bytecode_len, 4);
    buf_append(out, bytecode, bytecode_len);
}

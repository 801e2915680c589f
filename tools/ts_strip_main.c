/*
 * ts_strip_main.c — `ts-strip FILE`: prints the JavaScript that chidori's
 * TypeScript eraser makes of FILE, or `FILE:LINE:COL: message`, the source
 * line and a caret line on stderr (exit 1).
 * Owns: only this CLI.  Trusts: ts_strip() for all parsing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/engine/ts_strip.h"

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (n == cap) {
            char *nb = cap > TS_STRIP_MAX_INPUT ? NULL : realloc(buf, cap * 2);
            if (!nb) { free(buf); buf = NULL; break; }
            buf = nb;
            cap *= 2;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0) break;
    }
    fclose(f);
    *len = n;
    return buf;
}

/* Prints the 1-based line `line` of src and a caret under column `col`. */
static void print_context(const char *src, size_t len, int line, int col)
{
    size_t pos = 0;
    for (int l = 1; l < line && pos < len; pos++) {
        if (src[pos] == '\n') l++;
        else if (src[pos] == '\r' && !(pos + 1 < len && src[pos + 1] == '\n')) l++;
    }
    size_t end = pos;
    while (end < len && src[end] != '\n' && src[end] != '\r') end++;
    fprintf(stderr, "%.*s\n", (int)(end - pos), src + pos);
    int c = 1;
    for (size_t k = pos; k < end && c < col; k++) {
        unsigned char ch = (unsigned char)src[k];
        if ((ch & 0xC0) == 0x80) continue; /* count code points */
        fputc(ch == '\t' ? '\t' : ' ', stderr);
        c++;
    }
    fputs("^\n", stderr);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: ts-strip FILE\n");
        return 2;
    }
    size_t len = 0;
    char *src = read_file(argv[1], &len);
    if (!src) {
        fprintf(stderr, "%s: cannot read file\n", argv[1]);
        return 1;
    }
    ts_error err;
    size_t out_len = 0;
    char *js = ts_strip(src, len, &out_len, &err);
    if (!js) {
        fprintf(stderr, "%s:%d:%d: %s\n", argv[1], err.line, err.col, err.message);
        print_context(src, len, err.line, err.col);
        free(src);
        return 1;
    }
    fwrite(js, 1, out_len, stdout);
    free(js);
    free(src);
    return 0;
}

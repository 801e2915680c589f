/* buf.h — growable byte buffers and checked allocation for the trusted side.
 *
 * Host-side allocation failure is not recoverable in a meaningful way (the inputs that could make
 * it large are size-capped before they are read), so xmalloc and friends print and abort instead
 * of returning NULL. Guest allocations never come through here: they go through the engine's
 * metered allocator.
 */
#ifndef CHIDORI_BUF_H
#define CHIDORI_BUF_H

#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Whether s is NULL or holds nothing but spaces, tabs, CR and LF (a setting that counts as unset). */
int text_blank(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

typedef struct buf {
    char *data; /* always NUL-terminated when non-NULL */
    size_t len;
    size_t cap;
} buf;

/* Room for extra more bytes and the NUL. The appends are inline (every record line and JSON
 * text is written through them, a byte or a word at a time); only growing is a call. */
void buf_grow(buf *b, size_t extra);
static inline void buf_reserve(buf *b, size_t extra)
{
    if (b->len + extra + 1 > b->cap) buf_grow(b, extra);
}
static inline void buf_append(buf *b, const void *data, size_t n)
{
    buf_reserve(b, n);
    if (n) memcpy(b->data + b->len, data, n);
    b->len += n;
    b->data[b->len] = '\0';
}
static inline void buf_puts(buf *b, const char *s) { buf_append(b, s, strlen(s)); }
static inline void buf_putc(buf *b, char c)
{
    buf_reserve(b, 1);
    b->data[b->len++] = c;
    b->data[b->len] = '\0';
}
void buf_printf(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_vprintf(buf *b, const char *fmt, va_list ap);
char *buf_steal(buf *b);
/* Write text for a terminal after a prefix chidori wrote ("[log] ", "chidori: "): sanitized by
 * util/termtext.h (control characters escaped, later lines that look like chidori's marked), so
 * text that came from an agent cannot move the cursor, recolour the screen or forge a line. */
void write_for_terminal(FILE *out, const char *text, size_t len); /* returns the NUL-terminated data (never NULL) and resets b */
void buf_free(buf *b);

#endif

/* excerpt.c — see excerpt.h. Reads only src[0..len). */
#include "util/excerpt.h"
#include "util/buf.h"

#include <stdio.h>

#define EXCERPT_WIDTH 160

char *source_excerpt(const char *src, size_t len, int line, int col)
{
    if (line < 1 || col < 1) return NULL;
    size_t start = 0;
    for (int l = 1; l < line; l++) {
        while (start < len && src[start] != '\n') start++;
        if (start >= len) return NULL;
        start++;
    }
    size_t end = start;
    while (end < len && src[end] != '\n' && src[end] != '\r') end++;
    size_t caret = (size_t)(col - 1);
    if (caret > end - start) caret = end - start;
    /* Keep a window of the line around the column. */
    size_t from = start, to = end;
    if (to - from > EXCERPT_WIDTH) {
        from = caret > EXCERPT_WIDTH / 2 ? start + caret - EXCERPT_WIDTH / 2 : start;
        if (from + EXCERPT_WIDTH < to) to = from + EXCERPT_WIDTH;
    }
    char num[16];
    int w = snprintf(num, sizeof num, "%d", line);
    buf b = {0};
    buf_printf(&b, "    %s | ", num);
    for (size_t i = from; i < to; i++) buf_putc(&b, src[i] == '\t' ? ' ' : src[i]);
    buf_printf(&b, "\n    %*s | ", w, "");
    for (size_t i = from; i < start + caret; i++) buf_putc(&b, ' ');
    buf_putc(&b, '^');
    return buf_steal(&b);
}

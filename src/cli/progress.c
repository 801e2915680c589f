/* progress.c — the live status line of `chidori run` / `resume` (progress.h).
 *
 * State (the calls in progress, the tokens) changes on the thread that runs the host; a ticker
 * thread redraws the line five times a second so the elapsed time moves during a long call. One
 * mutex orders every write to stderr made through here: a draw, a clear, and each flush of the
 * log stream (a fopencookie FILE, line-buffered, that clears the line before it writes). A line the
 * stream leaves unfinished (no newline yet) stops the drawing until it is finished.
 *
 * Trusts its caller. The target shown comes from the agent's args: it is cut short and escaped
 * with term_sanitize, and the whole line is cut to the terminal's width so that CR can rewrite it.
 */
#define _GNU_SOURCE
#include "cli/progress.h"
#include "cli/runlog.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/termtext.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define MAX_DEPTH 32          /* calls in progress kept (nested agents) */
#define MIN_DRAW_NS 100000000 /* at most ten draws a second */
#define TICK_MS 200

struct progress {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t ticker;
    bool ticking, stopping, stopped;
    bool started;      /* progress_start was called */
    bool calling;      /* a call has started: the Isolation: banner (the supervisor writes it straight
                          to stderr once the run starts) is out */
    bool shown;        /* the line is on the terminal now ... */
    int shown_cols;    /* ... over this many columns */
    bool partial;      /* the stream wrote a line without its newline yet: do not draw */
    uint64_t start_ns, last_draw_ns;
    char *labels[MAX_DEPTH]; /* "op target" of the calls in progress, outermost first */
    char *ops[MAX_DEPTH];
    size_t depth;
    uint64_t tokens_in, tokens_out;
    FILE *stream;
};

static void clear_locked(progress *p)
{
    if (!p->shown) return;
    fprintf(stderr, "\r%*s\r", p->shown_cols, "");
    fflush(stderr);
    p->shown = false;
    p->shown_cols = 0;
}

static int term_columns(void)
{
    struct winsize ws;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20) return ws.ws_col;
    return 80;
}

/* The line's text, cut to fit in cols - 1 columns (one column per code point: near enough).
 * Returns the columns used. */
static int compose(progress *p, buf *out, int cols)
{
    buf raw = {0};
    double secs = (clock_monotonic_ns() - p->start_ns) / 1e9;
    const char *what = p->depth ? p->labels[p->depth - 1] : "running";
    buf_printf(&raw, "%s · %.1fs · tokens %llu in / %llu out", what, secs, (unsigned long long)p->tokens_in,
               (unsigned long long)p->tokens_out);
    int room = cols - 1, used = 0;
    for (size_t i = 0; i < raw.len; i++) {
        unsigned char c = (unsigned char)raw.data[i];
        if ((c & 0xc0) != 0x80) {
            if (used == room) break;
            used++;
        }
        buf_putc(out, (char)c);
    }
    buf_free(&raw);
    return used;
}

/* Draw the line now, unless it was drawn less than 100 ms ago (the ticker catches up). */
static void draw_locked(progress *p)
{
    if (!p->started || !p->calling || p->stopped || p->partial) return;
    uint64_t now = clock_monotonic_ns();
    if (p->last_draw_ns && now - p->last_draw_ns < MIN_DRAW_NS) return;
    buf line = {0};
    buf_putc(&line, '\r');
    int cols = compose(p, &line, term_columns());
    for (int i = cols; i < p->shown_cols; i++) buf_putc(&line, ' '); /* over the rest of the old text */
    fwrite(line.data, 1, line.len, stderr);
    fflush(stderr);
    buf_free(&line);
    p->shown = true;
    p->shown_cols = cols > p->shown_cols ? cols : p->shown_cols;
    p->last_draw_ns = now;
}

static void *tick(void *arg)
{
    progress *p = arg;
    pthread_mutex_lock(&p->mu);
    while (!p->stopping) {
        struct timespec until = clock_monotonic_after_ms(TICK_MS);
        pthread_cond_timedwait(&p->cv, &p->mu, &until);
        if (!p->stopping) draw_locked(p);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static ssize_t stream_write(void *cookie, const char *data, size_t len)
{
    progress *p = cookie;
    pthread_mutex_lock(&p->mu);
    clear_locked(p);
    size_t n = fwrite(data, 1, len, stderr);
    fflush(stderr);
    if (len) p->partial = data[len - 1] != '\n';
    pthread_mutex_unlock(&p->mu);
    return n ? (ssize_t)n : (len ? -1 : 0);
}

progress *progress_new(bool quiet)
{
    if (quiet || !isatty(STDERR_FILENO)) return NULL;
    progress *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    pthread_mutex_init(&p->mu, NULL);
    clock_monotonic_cond_init(&p->cv);
    cookie_io_functions_t io = {.write = stream_write};
    p->stream = fopencookie(p, "w", io);
    if (!p->stream) {
        progress_free(p);
        return NULL;
    }
    setvbuf(p->stream, NULL, _IOLBF, BUFSIZ);
    return p;
}

FILE *progress_stream(progress *p) { return p ? p->stream : stderr; }

void progress_start(void *ctx)
{
    progress *p = ctx;
    if (!p) return;
    pthread_mutex_lock(&p->mu);
    if (!p->started && !p->stopped) {
        p->started = true;
        p->start_ns = clock_monotonic_ns();
        p->ticking = pthread_create(&p->ticker, NULL, tick, p) == 0;
    }
    pthread_mutex_unlock(&p->mu);
}

void progress_call_started(void *ctx, const char *op, const json_t *args)
{
    progress *p = ctx;
    if (!p) return;
    char *target = runlog_target(op, args, NULL);
    buf label = {0};
    buf_puts(&label, op);
    if (target) {
        buf_putc(&label, ' ');
        term_sanitize(&label, target, strlen(target), false);
        for (size_t i = 0; i < label.len; i++) /* one line: a newline or tab in the target is a space */
            if (label.data[i] == '\n' || label.data[i] == '\t' || label.data[i] == '\r') label.data[i] = ' ';
    }
    free(target);
    pthread_mutex_lock(&p->mu);
    p->calling = true;
    if (p->depth < MAX_DEPTH) {
        p->labels[p->depth] = label.data ? label.data : strdup(op);
        p->ops[p->depth] = strdup(op);
        p->depth++;
        label.data = NULL;
    }
    if (!strcmp(op, "input")) clear_locked(p), p->partial = true; /* it may ask on the terminal */
    else draw_locked(p);
    pthread_mutex_unlock(&p->mu);
    buf_free(&label);
}

int progress_record(void *ctx, const json_t *record, char **error)
{
    (void)error;
    progress *p = ctx;
    if (!p) return 0;
    const char *fn = json_string_value(json_object_get(record, "function"));
    pthread_mutex_lock(&p->mu);
    if (fn && !strcmp(fn, "input")) p->partial = false; /* its question (if any) was answered */
    if (fn && p->depth && p->ops[p->depth - 1] && !strcmp(p->ops[p->depth - 1], fn)) {
        p->depth--;
        free(p->labels[p->depth]);
        free(p->ops[p->depth]);
    }
    if (fn && !strcmp(fn, "prompt")) {
        /* the record's token_usage (the original's shape); a record of the previous shape had the usage in its result */
        const json_t *tu = json_object_get(record, "token_usage");
        const json_t *usage = tu ? tu : json_object_get(json_object_get(record, "result"), "usage");
        const json_t *in = json_object_get(usage, tu ? "input_tokens" : "inputTokens");
        const json_t *out = json_object_get(usage, tu ? "output_tokens" : "outputTokens");
        if (in && in->type == JSON_NUMBER && in->u.number >= 0 && in->u.number < 1e15) p->tokens_in += (uint64_t)in->u.number;
        if (out && out->type == JSON_NUMBER && out->u.number >= 0 && out->u.number < 1e15)
            p->tokens_out += (uint64_t)out->u.number;
    }
    draw_locked(p);
    pthread_mutex_unlock(&p->mu);
    return 0;
}

void progress_stop(progress *p)
{
    if (!p) return;
    fflush(p->stream);
    pthread_mutex_lock(&p->mu);
    bool join = p->ticking;
    p->stopping = true;
    p->ticking = false;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    if (join) pthread_join(p->ticker, NULL);
    pthread_mutex_lock(&p->mu);
    clear_locked(p);
    p->stopped = true;
    pthread_mutex_unlock(&p->mu);
}

void progress_free(progress *p)
{
    if (!p) return;
    progress_stop(p);
    if (p->stream) fclose(p->stream);
    for (size_t i = 0; i < p->depth; i++) free(p->labels[i]), free(p->ops[i]);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    free(p);
}

/* protocol.c — length-prefixed JSON frames over pipes (see protocol.h). */
#define _GNU_SOURCE
#include "isolate/protocol.h"
#include "util/clock.h"

#include "util/buf.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void set_error(char **error, char *msg)
{
    if (error) {
        *error = msg;
    } else {
        free(msg);
    }
}

static char *cap_message(uint64_t n)
{
    return xasprintf("frame of %llu bytes exceeds the 64 MiB limit", (unsigned long long)n);
}

int64_t frame_now_ms(void)
{
    return clock_monotonic_ms();
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* ---- writing ------------------------------------------------------------------------------ */

/* 0, or -1 with *err (ETIMEDOUT: the wait for room gave up, see frame_room). */
static int write_all(int fd, const char *p, size_t n, const frame_room *room, int *err)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                if (room) {
                    if (!room->room(room->ctx, fd)) {
                        *err = ETIMEDOUT;
                        return -1;
                    }
                    continue;
                }
                /* A non-blocking fd: wait until it drains rather than spin. */
                struct pollfd pfd = {.fd = fd, .events = POLLOUT};
                if (poll(&pfd, 1, -1) < 0 && errno != EINTR) {
                    *err = errno;
                    return -1;
                }
                continue;
            }
            *err = errno;
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* chidori: set by frame_ignore_sigpipe(); then a write needs no signal-mask dance (three
 * syscalls fewer per frame). */
static bool sigpipe_ignored;

void frame_ignore_sigpipe(void)
{
    if (sigpipe_ignored) return; /* once: a fork server's children come back through it confined */
    signal(SIGPIPE, SIG_IGN);
    sigpipe_ignored = true;
}

/* Write a then b, whole; never raises SIGPIPE (see frame_write). 0, -1 with *error, or 1 when
 * room gave up. */
static int write_two(int fd, const char *a, size_t an, const char *b, size_t bn, const frame_room *room,
                     char **error)
{
    int err = 0, rc;
    if (sigpipe_ignored) {
        rc = write_all(fd, a, an, room, &err);
        if (rc == 0 && bn > 0) rc = write_all(fd, b, bn, room, &err);
    } else {
        /* Block SIGPIPE for this thread; remember whether one was already pending so that we only
         * consume the one our write raised (the classic pattern for pipes, where MSG_NOSIGNAL does
         * not exist). */
        sigset_t pipe_set, old_mask, pending;
        sigemptyset(&pipe_set);
        sigaddset(&pipe_set, SIGPIPE);
        sigemptyset(&pending);
        pthread_sigmask(SIG_BLOCK, &pipe_set, &old_mask);
        sigpending(&pending);
        bool was_pending = sigismember(&pending, SIGPIPE) == 1;
        rc = write_all(fd, a, an, room, &err);
        if (rc == 0 && bn > 0) rc = write_all(fd, b, bn, room, &err);
        if (rc < 0 && err == EPIPE && !was_pending) {
            static const struct timespec zero = {0, 0};
            while (sigtimedwait(&pipe_set, NULL, &zero) < 0 && errno == EINTR) {
            }
        }
        pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
    }
    if (rc < 0 && err == ETIMEDOUT && room) return 1;
    if (rc < 0) {
        set_error(error, err == EPIPE ? xstrdup("the other side closed the pipe")
                                      : xasprintf("write failed: %s", strerror(err)));
        return -1;
    }
    return 0;
}

static int write_raw(int fd, const char *body, size_t len, const frame_room *room, char **error)
{
    if (len > FRAME_MAX_BYTES) {
        set_error(error, cap_message(len));
        return -1;
    }
    uint8_t hdr[4] = {(uint8_t)len, (uint8_t)(len >> 8), (uint8_t)(len >> 16), (uint8_t)(len >> 24)};
    /* chidori: a small frame goes out in one write, so the reader wakes once, not twice. */
    char small[FRAME_COALESCE_BYTES];
    if (len <= sizeof small - sizeof hdr) {
        memcpy(small, hdr, sizeof hdr);
        if (len) memcpy(small + sizeof hdr, body, len);
        return write_two(fd, small, sizeof hdr + len, NULL, 0, room, error);
    }
    return write_two(fd, (const char *)hdr, sizeof hdr, body, len, room, error);
}

int frame_write_raw(int fd, const char *body, size_t len, char **error)
{
    return write_raw(fd, body, len, NULL, error);
}

/* The length in front of the frame that starts at `at` (its 4 bytes reserved), or -1 over the cap. */
static int frame_close(buf *b, size_t at, char **error)
{
    size_t len = b->len - at - 4;
    if (len > FRAME_MAX_BYTES) {
        b->len = at;
        set_error(error, cap_message(len));
        return -1;
    }
    uint8_t hdr[4] = {(uint8_t)len, (uint8_t)(len >> 8), (uint8_t)(len >> 16), (uint8_t)(len >> 24)};
    memcpy(b->data + at, hdr, sizeof hdr);
    return 0;
}

int frame_append(buf *b, const json_t *v, char **error)
{
    size_t at = b->len;
    buf_append(b, "\0\0\0\0", 4);
    json_dump_into(b, v, JSON_COMPACT);
    return frame_close(b, at, error);
}

int frame_append_call(buf *b, const char *type, const char *op, const json_t *args, const uint64_t *meter,
                      bool ahead, int64_t at_ms, char **error)
{
    size_t at = b->len;
    buf_append(b, "\0\0\0\0{\"type\":", 12);
    json_dump_string_into(b, type, strlen(type));
    buf_puts(b, ",\"op\":");
    json_dump_string_into(b, op, strlen(op));
    buf_puts(b, ",\"args\":");
    if (args) json_dump_into(b, args, JSON_COMPACT);
    else buf_puts(b, "null");
    if (meter) {
        char num[40];
        buf_puts(b, ",\"meter\":[");
        json_format_number((double)meter[0], num);
        buf_puts(b, num);
        buf_putc(b, ',');
        json_format_number((double)meter[1], num);
        buf_puts(b, num);
        buf_putc(b, ']');
    }
    if (ahead) buf_puts(b, ",\"ahead\":true");
    if (at_ms > 0) {
        char num[40];
        buf_puts(b, ",\"at\":");
        json_format_number((double)at_ms, num);
        buf_puts(b, num);
    }
    buf_putc(b, '}');
    return frame_close(b, at, error);
}

int frame_write_frames(int fd, buf *b, char **error)
{
    int rc = b->len ? write_two(fd, b->data, b->len, NULL, 0, NULL, error) : 0;
    b->len = 0;
    return rc;
}

int frame_write_waiting(int fd, const json_t *v, const frame_room *room, char **error)
{
    size_t len = 0;
    char *body = json_dump(v, JSON_COMPACT, &len);
    int rc = write_raw(fd, body, len, room, error);
    free(body);
    return rc;
}

int frame_write(int fd, const json_t *v, char **error)
{
    return frame_write_waiting(fd, v, NULL, error);
}

/* ---- reading ------------------------------------------------------------------------------ */

/* Wait until fd is readable (or hung up) or the deadline passes. 1 ready, 0 timed out, -1 error
 * (*err set). */
static int wait_readable(int fd, int64_t deadline_ms, int *err)
{
    if (deadline_ms <= 0) return 1; /* no deadline: the blocking read itself waits (one syscall less) */
    for (;;) {
        int timeout = -1;
        if (deadline_ms > 0) {
            int64_t left = deadline_ms - frame_now_ms();
            if (left <= 0) return 0;
            timeout = left > 1000000000 ? 1000000000 : (int)left;
        }
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        int n = poll(&pfd, 1, timeout);
        if (n < 0) {
            if (errno == EINTR) continue;
            *err = errno;
            return -1;
        }
        if (n == 0) continue; /* loop re-checks the deadline (poll may return early) */
        if (pfd.revents & POLLNVAL) {
            *err = EBADF;
            return -1;
        }
        return 1; /* POLLIN, POLLHUP or POLLERR: read() tells which */
    }
}

/* Read up to n bytes (at least 1 unless EOF). Returns bytes read, 0 on EOF, -1 on error/timeout
 * (*timed_out tells which). */
static ssize_t read_some(int fd, void *p, size_t n, int64_t deadline_ms, bool *timed_out, int *err)
{
    *timed_out = false;
    for (;;) {
        int w = wait_readable(fd, deadline_ms, err);
        if (w == 0) {
            *timed_out = true;
            return -1;
        }
        if (w < 0) return -1;
        ssize_t r = read(fd, p, n);
        if (r < 0) {
            if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) continue;
            *err = errno;
            return -1;
        }
        return r;
    }
}

int frame_parse(const char *body, size_t len, json_t **out, char **error)
{
    json_limits lim = {FRAME_MAX_BYTES, FRAME_MAX_DEPTH, 0};
    json_error jerr;
    json_t *v = json_parse(body, len, &lim, &jerr);
    if (!v) {
        set_error(error, xasprintf("bad frame: %s at %d:%d", jerr.message, jerr.line, jerr.col));
        return -1;
    }
    *out = v;
    return 0;
}

int frame_read(int fd, int64_t deadline_ms, json_t **out, char **error)
{
    *out = NULL;
    char *body;
    size_t n;
    if (frame_read_body(fd, deadline_ms, &body, &n, error) != 0) return -1;
    int rc = frame_parse(body, n, out, error);
    free(body);
    return rc;
}

int frame_read_body(int fd, int64_t deadline_ms, char **out, size_t *out_len, char **error)
{
    *out = NULL;
    *out_len = 0;
    uint8_t hdr[4];
    size_t got = 0;
    bool timed_out;
    int err = 0;
    while (got < sizeof hdr) {
        ssize_t r = read_some(fd, hdr + got, sizeof hdr - got, deadline_ms, &timed_out, &err);
        if (r < 0) {
            set_error(error, timed_out ? xstrdup("timed out") : xasprintf("read failed: %s", strerror(err)));
            return -1;
        }
        if (r == 0) {
            set_error(error, got == 0 ? xstrdup("worker closed the pipe")
                                      : xasprintf("worker closed the pipe mid-frame (got %zu of 4 length bytes)", got));
            return -1;
        }
        got += (size_t)r;
        /* chidori: once a frame has begun, the rest must follow promptly. Between frames a worker
         * may compute for as long as its limits allow, but a frame left half-written would
         * otherwise hold the parent forever. */
        int64_t rest = frame_now_ms() + FRAME_COMPLETION_MS;
        if (deadline_ms == 0 || rest < deadline_ms) deadline_ms = rest;
    }
    uint32_t n = le32(hdr);
    if ((uint64_t)n > FRAME_MAX_BYTES) {
        set_error(error, cap_message(n));
        return -1;
    }

    /* Grow with what arrives: at most 1 MiB ahead of the bytes actually received. */
    char *body = NULL;
    size_t cap = 0, have = 0;
    while (have < n) {
        if (have == cap) {
            size_t want = cap ? cap * 2 : 65536;
            if (want > have + ((size_t)1 << 20)) want = have + ((size_t)1 << 20);
            if (want > n) want = n;
            body = xrealloc(body, want + 1);
            cap = want;
        }
        ssize_t r = read_some(fd, body + have, cap - have, deadline_ms, &timed_out, &err);
        if (r < 0) {
            free(body);
            set_error(error, timed_out ? xasprintf("timed out mid-frame (got %zu of %u bytes)", have, n)
                                       : xasprintf("read failed: %s", strerror(err)));
            return -1;
        }
        if (r == 0) {
            free(body);
            set_error(error, xasprintf("worker closed the pipe mid-frame (got %zu of %u bytes)", have, n));
            return -1;
        }
        have += (size_t)r;
    }
    if (!body) body = xmalloc(1);
    body[n] = '\0';
    *out = body;
    *out_len = n;
    return 0;
}

void frame_reader_init(frame_reader *r, int fd) { *r = (frame_reader){.fd = fd}; }

/* The buffer is the reader's own inline one until a frame needs more (no allocation per run). */
static void release_buffer(frame_reader *r)
{
    if (r->data != r->inline_buf) free(r->data);
    r->data = NULL;
    r->cap = 0;
}

void frame_reader_free(frame_reader *r)
{
    release_buffer(r);
    *r = (frame_reader){.fd = -1};
}

/* The length of the frame at the head of the buffer, or 0 while its header is incomplete. */
static bool head_length(const frame_reader *r, uint32_t *n)
{
    if (r->len - r->off < 4) return false;
    *n = le32((const uint8_t *)r->data + r->off);
    return true;
}

bool frame_reader_has_frame(const frame_reader *r)
{
    uint32_t n;
    return head_length(r, &n) && ((uint64_t)n > FRAME_MAX_BYTES || r->len - r->off - 4 >= n);
}

int frame_reader_next(frame_reader *r, int64_t deadline_ms, json_t **out, char **error)
{
    *out = NULL;
    for (;;) {
        uint32_t n = 0;
        bool sized = head_length(r, &n);
        if (sized && (uint64_t)n > FRAME_MAX_BYTES) {
            set_error(error, cap_message(n));
            return -1;
        }
        size_t avail = r->len - r->off;
        if (sized && avail - 4 >= n) {
            r->readable = false;
            int rc = frame_parse(r->data + r->off + 4, n, out, error);
            r->off += 4 + (size_t)n;
            if (r->off == r->len) {
                r->off = r->len = 0;
                if (r->cap > ((size_t)1 << 20)) release_buffer(r); /* a large frame's is not kept for the run */
            }
            r->begun_ms = r->len ? frame_now_ms() : 0; /* what is left began to arrive */
            return rc;
        }
        /* more is needed: keep the unread part at the front. The buffer grows when less than a
         * pipe's worth (64 KiB) of what is missing fits, to 1 MiB beyond what has arrived or as
         * much again as has arrived, never past the frame's end: it grows with the bytes that
         * really come, and a large frame arriving 64 KiB at a time is moved log(n) times, not once
         * per read (under AddressSanitizer, whose realloc copies, a 16 MiB outcome took 7.6 s of
         * the 10 s a frame may take that way). */
        if (r->off) {
            memmove(r->data, r->data + r->off, avail);
            r->off = 0;
            r->len = avail;
        }
        size_t need = sized ? 4 + (size_t)n - avail : 4 - avail;
        if (!r->data) {
            r->data = r->inline_buf;
            r->cap = sizeof r->inline_buf;
        }
        size_t least = need < 65536 ? need : 65536;
        if (r->cap - r->len < least) {
            size_t room = need > ((size_t)1 << 20) ? (size_t)1 << 20 : need;
            size_t again = r->len < need ? r->len : need;
            r->cap = r->len + (again > room ? again : room);
            r->grows++;
            if (r->data == r->inline_buf) {
                char *grown = xmalloc(r->cap);
                memcpy(grown, r->inline_buf, r->len);
                r->data = grown;
            } else {
                r->data = xrealloc(r->data, r->cap);
            }
        }
        /* once a frame has begun, the rest must follow promptly (as in frame_read) */
        int64_t until = deadline_ms;
        if (avail && r->begun_ms) {
            int64_t rest = r->begun_ms + FRAME_COMPLETION_MS;
            if (until == 0 || rest < until) until = rest;
        }
        bool timed_out;
        int err = 0;
        /* the caller saw the descriptor readable: the first read needs no wait of its own */
        ssize_t got = read_some(r->fd, r->data + r->len, r->cap - r->len, r->readable ? 0 : until, &timed_out, &err);
        r->readable = false;
        if (got < 0) {
            if (!timed_out) set_error(error, xasprintf("read failed: %s", strerror(err)));
            else if (sized) set_error(error, xasprintf("timed out mid-frame (got %zu of %u bytes)", avail - 4, n));
            else set_error(error, xstrdup("timed out"));
            return -1;
        }
        if (got == 0) {
            if (sized) set_error(error, xasprintf("worker closed the pipe mid-frame (got %zu of %u bytes)", avail - 4, n));
            else if (avail) set_error(error, xasprintf("worker closed the pipe mid-frame (got %zu of 4 length bytes)", avail));
            else set_error(error, xstrdup("worker closed the pipe"));
            return -1;
        }
        if (!avail) r->begun_ms = frame_now_ms();
        r->len += (size_t)got;
    }
}

int frame_decode(const uint8_t *buf, size_t len, size_t *consumed, json_t **out, char **error)
{
    *consumed = 0;
    *out = NULL;
    if (len < 4) return 0;
    uint32_t n = le32(buf);
    if ((uint64_t)n > FRAME_MAX_BYTES) {
        set_error(error, cap_message(n));
        return -1;
    }
    if (len - 4 < n) return 0;
    if (frame_parse((const char *)buf + 4, n, out, error) < 0) return -1;
    *consumed = 4 + (size_t)n;
    return 1;
}

/* ---- validation --------------------------------------------------------------------------- */

const char *frame_type_name(frame_type t)
{
    switch (t) {
    case FRAME_INIT: return "init";
    case FRAME_CALL: return "call";
    case FRAME_REPLY: return "reply";
    case FRAME_DONE: return "done";
    case FRAME_INTERNAL: return "internal";
    case FRAME_ISOLATION: return "isolation";
    default: return "invalid";
    }
}

static inline bool key_is(const json_member *m, const char *k)
{
    size_t n = strlen(k); /* k is a literal: the compiler knows n */
    return m->key_len == n && memcmp(m->key, k, n) == 0;
}

static bool op_valid(const json_t *op)
{
    if (!op || op->type != JSON_STRING) return false;
    size_t n = op->u.string.len;
    if (n < 1 || n > FRAME_OP_MAX) return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)op->u.string.bytes[i];
        if (!((c >= 'a' && c <= 'z') || c == '_' || c == ':')) return false;
    }
    return true;
}

/* A Call's "meter" (the tree budget's, seam.h): [ticks, heap bytes], whole numbers up to 2^53. */
static bool whole_number(const json_t *v)
{
    return v->type == JSON_NUMBER && v->u.number >= 0 && v->u.number <= 9007199254740992.0 &&
           v->u.number == (double)(uint64_t)v->u.number;
}

static bool meter_valid(const json_t *m)
{
    return m->type == JSON_ARRAY && m->u.array.len == 2 && whole_number(m->u.array.items[0]) &&
           whole_number(m->u.array.items[1]);
}

static frame_type invalid(char **error, char *msg)
{
    set_error(error, msg);
    return FRAME_INVALID;
}

/* Every member must be one of the allowed keys. */
static const char *extra_member(const json_t *o, const char *const *allowed)
{
    for (size_t i = 0; i < o->u.object.len; i++) {
        const json_member *m = &o->u.object.items[i];
        bool ok = false;
        for (const char *const *a = allowed; *a; a++)
            if (key_is(m, *a)) ok = true;
        if (!ok) return m->key;
    }
    return NULL;
}

bool frame_ahead_valid(const json_t *list)
{
    static const char *const allowed[] = {"type", "ok", "err", NULL};
    if (!list || list->type != JSON_ARRAY) return false;
    for (size_t i = 0; i < list->u.array.len; i++) {
        const json_t *e = list->u.array.items[i];
        if (e->type != JSON_ARRAY || e->u.array.len != 2 || !op_valid(e->u.array.items[0])) return false;
        const json_t *r = e->u.array.items[1];
        if (r->type != JSON_OBJECT || extra_member(r, allowed)) return false;
        const char *t = json_string_value(json_object_get(r, "type"));
        const json_t *ok = json_object_get(r, "ok"), *err = json_object_get(r, "err");
        if (!t || strcmp(t, "reply") || !ok == !err || (err && err->type != JSON_STRING)) return false;
    }
    return true;
}

frame_type frame_classify(const json_t *frame, char **error)
{
    if (!frame || frame->type != JSON_OBJECT) return invalid(error, xstrdup("bad frame: not a JSON object"));
    const json_t *type = json_object_get(frame, "type");
    if (!type) return invalid(error, xstrdup("bad frame: no \"type\""));
    if (type->type != JSON_STRING) return invalid(error, xstrdup("bad frame: \"type\" is not a string"));
    const char *t = type->u.string.bytes;
    size_t tl = type->u.string.len;
    const char *extra;

    if (tl == 4 && memcmp(t, "init", 4) == 0) {
        const json_t *e = json_object_get(frame, "entry"), *p = json_object_get(frame, "prelude"),
                     *l = json_object_get(frame, "limits");
        if (e && e->type != JSON_STRING) return invalid(error, xstrdup("bad frame: init \"entry\" is not a string"));
        if (p && p->type != JSON_STRING) return invalid(error, xstrdup("bad frame: init \"prelude\" is not a string"));
        if (l && l->type != JSON_OBJECT) return invalid(error, xstrdup("bad frame: init \"limits\" is not an object"));
        return FRAME_INIT;
    }
    bool is_call = tl == 4 && memcmp(t, "call", 4) == 0;
    if (is_call || (tl == 8 && memcmp(t, "internal", 8) == 0)) {
        /* one pass over the members (every call of a run comes this way): the members a call
         * may have (an internal one: type, op and args only), and the first other one */
        const char *kind = is_call ? "call" : "internal";
        const json_t *op = NULL, *args = NULL, *meter = NULL, *ahead = NULL, *at = NULL;
        extra = NULL;
        for (size_t i = 0; i < frame->u.object.len; i++) {
            const json_member *m = &frame->u.object.items[i];
            bool allowed = true;
            if (key_is(m, "op")) op = m->value;
            else if (key_is(m, "args")) args = m->value;
            else if (key_is(m, "meter")) meter = m->value, allowed = is_call;
            else if (key_is(m, "ahead")) ahead = m->value, allowed = is_call;
            else if (key_is(m, "at")) at = m->value, allowed = is_call;
            else if (!key_is(m, "type")) allowed = false;
            if (!allowed && !extra) extra = m->key;
        }
        if (meter && !meter_valid(meter))
            return invalid(error, xstrdup("bad frame: call \"meter\" is not [ticks, heap bytes] (two whole numbers)"));
        if (!op) return invalid(error, xasprintf("bad frame: %s without \"op\"", kind));
        if (!op_valid(op))
            return invalid(error, xasprintf("bad frame: %s \"op\" is not a string of [a-z_:]{1,64}", kind));
        if (!args) return invalid(error, xasprintf("bad frame: %s without \"args\"", kind));
        if (args->type != JSON_OBJECT) return invalid(error, xasprintf("bad frame: %s \"args\" is not an object", kind));
        if (ahead && ahead->type != JSON_TRUE) return invalid(error, xstrdup("bad frame: call \"ahead\" is not true"));
        if (at && (!ahead || !whole_number(at) || at->u.number == 0))
            return invalid(error, xstrdup("bad frame: call \"at\" is not a time in ms (a positive whole number) of a call "
                                          "answered ahead"));
        if (extra) return invalid(error, xasprintf("bad frame: %s has an unexpected member \"%.64s\"", kind, extra));
        return is_call ? FRAME_CALL : FRAME_INTERNAL;
    }
    if (tl == 9 && memcmp(t, "isolation", 9) == 0) {
        static const char *const allowed[] = {"type", "report", NULL};
        const json_t *report = json_object_get(frame, "report");
        if (!report) return invalid(error, xstrdup("bad frame: isolation without \"report\""));
        if (report->type != JSON_OBJECT) return invalid(error, xstrdup("bad frame: isolation \"report\" is not an object"));
        if ((extra = extra_member(frame, allowed)))
            return invalid(error, xasprintf("bad frame: isolation has an unexpected member \"%.64s\"", extra));
        return FRAME_ISOLATION;
    }
    if (tl == 5 && memcmp(t, "reply", 5) == 0) {
        static const char *const allowed[] = {"type", "ok", "err", "status", "charge", "ahead", NULL};
        const json_t *ok = json_object_get(frame, "ok"), *err = json_object_get(frame, "err");
        if (ok && err) return invalid(error, xstrdup("bad frame: reply has both \"ok\" and \"err\""));
        if (!ok && !err) return invalid(error, xstrdup("bad frame: reply has neither \"ok\" nor \"err\""));
        if (err && err->type != JSON_STRING) return invalid(error, xstrdup("bad frame: reply \"err\" is not a string"));
        const json_t *ahead = json_object_get(frame, "ahead");
        if (ahead && !frame_ahead_valid(ahead))
            return invalid(error, xstrdup("bad frame: reply \"ahead\" is not a list of [op, reply]"));
        if ((extra = extra_member(frame, allowed)))
            return invalid(error, xasprintf("bad frame: reply has an unexpected member \"%.64s\"", extra));
        return FRAME_REPLY;
    }
    if (tl == 4 && memcmp(t, "done", 4) == 0) {
        static const char *const allowed[] = {"type", "outcome", NULL};
        const json_t *outcome = json_object_get(frame, "outcome");
        if (!outcome) return invalid(error, xstrdup("bad frame: done without \"outcome\""));
        if (outcome->type != JSON_OBJECT) return invalid(error, xstrdup("bad frame: done \"outcome\" is not an object"));
        if ((extra = extra_member(frame, allowed)))
            return invalid(error, xasprintf("bad frame: done has an unexpected member \"%.64s\"", extra));
        return FRAME_DONE;
    }
    return invalid(error, xasprintf("bad frame: unknown type \"%.32s\"", t));
}

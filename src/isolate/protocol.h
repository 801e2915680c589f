/* protocol.h — the frames the parent and the confined worker exchange over a pipe pair.
 *
 * A frame is a u32 little-endian length followed by that many bytes of JSON (the compact
 * serialization of one value). A frame body is at most FRAME_MAX_BYTES, and the cap is enforced
 * on both sides: a writer refuses to send a bigger frame, and a reader refuses a length prefix over
 * the cap before allocating anything. Bodies are parsed with json_parse and its limits (size
 * FRAME_MAX_BYTES, depth 512), so every byte from the other side is treated as hostile.
 *
 * Frame kinds (frame_classify checks them strictly):
 *   {"type":"init", ...}                          parent → worker, once (entry, input, limits,
 *                                                 prelude: its other members belong to the worker,
 *                                                 which validates them; see frame_classify)
 *   {"type":"isolation","report":{...}}          worker → parent, once, first: what confinement
 *                                                 applied (the Isolation: banner); no reply
 *   {"type":"call","op":"<[a-z_:]{1,64}>","args":{...}}   worker → parent, one host op of the agent
 *                                                 (with "ahead":true: answered from the parent's
 *                                                 offer, or a trace op's call, no reply, and then
 *                                                 "at": when the worker made it, ms since the
 *                                                 epoch; isolate/ahead.h)
 *   {"type":"internal","op":"<[a-z_:]{1,64}>","args":{...}}   worker → parent, one of chidori's own
 *                                                 ops (a module load); same shape as a call
 *   {"type":"reply","ok":<any>} | {"type":"reply","err":"<string>"}   parent → worker (with
 *                                                 "ahead":[[op, reply], ...]: the answers it may
 *                                                 use ahead from now on; isolate/ahead.h)
 *   {"type":"done","outcome":{...}}               worker → parent, last frame of a run
 *
 * The worker uses only read, write, poll, clock_gettime (vDSO) and rt_sigprocmask /
 * rt_sigpending / rt_sigtimedwait here, all of which the seccomp allowlist permits.
 */
#ifndef CHIDORI_ISOLATE_PROTOCOL_H
#define CHIDORI_ISOLATE_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/json.h"

#define FRAME_MAX_BYTES ((size_t)64 << 20)
#define FRAME_MAX_DEPTH 512
#define FRAME_OP_MAX 64
/* Once the first byte of a frame has arrived, the whole frame must arrive within this time. */
#define FRAME_COMPLETION_MS 10000

/* Write one frame (the compact JSON of v). Handles partial writes and EINTR. Never raises SIGPIPE:
 * SIGPIPE is blocked in the calling thread around the write and a SIGPIPE the write generated is
 * consumed before the old mask is restored. Returns 0, or -1 with *error (malloc'd; may be NULL
 * if the caller does not want it): "the other side closed the pipe", "frame of N bytes exceeds
 * the 64 MiB limit", "write failed: ...". */
int frame_write(int fd, const json_t *v, char **error);

/* How a write to a non-blocking descriptor waits for room in the pipe (frame_write waits as long
 * as it takes): room(ctx, fd) waits as its caller wants and returns 1 to try again, or 0 to give
 * up. A writer whose reader may stop reading (the supervisor writing to a worker) bounds its wait
 * so with its own deadlines. */
typedef struct frame_room {
    int (*room)(void *ctx, int fd);
    void *ctx;
} frame_room;
/* frame_write, waiting for room only as `room` allows: 0, -1 with *error, or 1 when room gave up
 * (*error unset; part of the frame may have been written, so the stream is of no further use). */
int frame_write_waiting(int fd, const json_t *v, const frame_room *room, char **error);

struct buf;
/* Append one frame (the compact JSON of v, after its length) to b, for frame_write_frames. 0, or
 * -1 with *error (the frame is over the cap; b is as it was). */
int frame_append(struct buf *b, const json_t *v, char **error);
/* Append the frame of a worker's call, the bytes frame_append writes for the object {"type": type,
 * "op": op, "args": args, "meter": [meter[0], meter[1]] (when meter), "ahead": true (when ahead),
 * "at": at_ms (when > 0)} with its members in that order, without building it. 0, or -1 with
 * *error (over the cap; b is as it was). */
int frame_append_call(struct buf *b, const char *type, const char *op, const json_t *args, const uint64_t *meter,
                      bool ahead, int64_t at_ms, char **error);
/* Write the frames gathered in b at once (same rules as frame_write) and empty b. */
int frame_write_frames(int fd, struct buf *b, char **error);

/* Frames up to this size (header included) go out in a single write. */
#define FRAME_COALESCE_BYTES 65536

/* Ignore SIGPIPE process-wide (a broken pipe is then just EPIPE): writes skip the per-write signal
 * masking. For processes that own their signal dispositions (the CLI, the worker). */
void frame_ignore_sigpipe(void);

/* Write an already-serialized body as one frame (same rules as frame_write). */
int frame_write_raw(int fd, const char *body, size_t len, char **error);

/* Read one frame. deadline_ms is an absolute CLOCK_MONOTONIC time in milliseconds (0 = wait
 * forever); poll is used so the call never blocks past it, whatever the fd's O_NONBLOCK state.
 * Returns 0 with *out (caller frees), or -1 with *error (malloc'd) starting with one of:
 *   "worker closed the pipe"                      EOF before a full frame (the message adds
 *                                                 "mid-frame (got X of Y bytes)" when truncated)
 *   "frame of N bytes exceeds the 64 MiB limit"  length prefix over the cap (nothing allocated)
 *   "timed out"                                   the deadline passed
 *   "bad frame: ..."                              the body is not one valid JSON value
 *   "read failed: ..."                            read/poll error (EBADF, EIO, ...)
 * The body buffer grows with the bytes that actually arrive, so a lying length prefix under the
 * cap costs the reader only what the writer really sent. */
int frame_read(int fd, int64_t deadline_ms, json_t **out, char **error);
/* frame_read's bytes, unparsed: *out (malloc'd, NUL added) holds the *out_len bytes of the body.
 * Same limits, deadlines and errors but "bad frame" (nothing is parsed). */
int frame_read_body(int fd, int64_t deadline_ms, char **out, size_t *out_len, char **error);
/* A frame's body parsed as frame_read parses it: 0 with *out, or -1 with *error ("bad frame: ..."). */
int frame_parse(const char *body, size_t len, json_t **out, char **error);

/* A buffered frame_read, for a reader that takes many frames in a row (the supervisor): each read
 * takes what has arrived into a buffer of 4 KiB, the reader's own (a heap one for a frame known to
 * be larger, at most 1 MiB beyond what has arrived), and frames are cut from it. Same limits,
 * deadlines and errors as frame_read. (A heap buffer per run left a server's heap measurably
 * fuller: tests/cases_load.py.) */
typedef struct frame_reader {
    int fd;
    char *data;
    size_t len, off, cap; /* the unread bytes are data[off..len) */
    int64_t begun_ms;     /* when the first bytes of the frame at the head arrived (0: none yet) */
    bool readable;        /* set by the caller who just saw fd readable (poll): the next read of
                             frame_reader_next does not wait for it again */
    char inline_buf[4096]; /* data until a frame needs more (the reader must not move once used) */
    unsigned grows;        /* how often data was allocated or moved to a larger block (for tests) */
} frame_reader;
void frame_reader_init(frame_reader *r, int fd);
void frame_reader_free(frame_reader *r);
/* A whole frame (or a length over the cap) is buffered: frame_reader_next will not wait. */
bool frame_reader_has_frame(const frame_reader *r);
int frame_reader_next(frame_reader *r, int64_t deadline_ms, json_t **out, char **error);

/* CLOCK_MONOTONIC now in milliseconds (the clock frame_read's deadline is measured on). */
int64_t frame_now_ms(void);

/* Buffer-driven decoder (for stream parsers and the fuzz target): looks at buf[0..len) and
 * returns 1 with *out and *consumed (4 + body length) when a complete frame is there, 0 when more
 * bytes are needed (*consumed = 0), -1 with *error when the prefix is over the cap or the body is
 * not valid JSON. */
int frame_decode(const uint8_t *buf, size_t len, size_t *consumed, json_t **out, char **error);

/* A reply's "ahead" member: an array of [op, {"type":"reply","ok":v} | {"type":"reply","err":s}]. */
bool frame_ahead_valid(const json_t *list);

typedef enum { FRAME_INVALID, FRAME_INIT, FRAME_CALL, FRAME_REPLY, FRAME_DONE, FRAME_INTERNAL, FRAME_ISOLATION } frame_type;

/* Validate a decoded frame strictly and return its kind, or FRAME_INVALID with *error (malloc'd)
 * naming what is wrong: not an object, missing/unknown "type", a missing member, a member of the
 * wrong type, an unexpected extra member (call, internal, reply, done and isolation have a fixed
 * shape), an op that is not [a-z_:]{1,64}, args or a report that are not an object, a reply with
 * both or neither of ok/err.
 * An init frame must be an object whose "type" is "init"; its other members are the worker's to
 * validate, but where present "entry" and "prelude" must be strings and "limits" an object. */
frame_type frame_classify(const json_t *frame, char **error);

const char *frame_type_name(frame_type t);

#endif

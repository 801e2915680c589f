/* test_protocol.c — the worker frame protocol: round trips, partial reads across pipe boundaries,
 * the 64 MiB cap both ways (before any allocation), truncation, garbage, deadlines, a closed pipe
 * without SIGPIPE death, the buffer decoder and strict frame classification. */
#define _GNU_SOURCE
#include "unit.h"
#include "isolate/protocol.h"
#include "util/buf.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static json_t *parse(const char *s)
{
    json_error err;
    return json_parse(s, strlen(s), NULL, &err);
}

static void put_le32(uint8_t *p, uint32_t n)
{
    p[0] = (uint8_t)n;
    p[1] = (uint8_t)(n >> 8);
    p[2] = (uint8_t)(n >> 16);
    p[3] = (uint8_t)(n >> 24);
}

static int write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t w = write(fd, c, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

TEST(frame_round_trips_through_a_pipe)
{
    int p[2];
    CHECK(pipe(p) == 0);
    const char *frames[] = {
        "{\"type\":\"call\",\"op\":\"log\",\"args\":{\"msg\":\"h\xc3\xa9\",\"n\":[1,2.5,null]}}",
        "{\"type\":\"reply\",\"ok\":{\"x\":\"\\ud800\"}}",
        "{\"type\":\"done\",\"outcome\":{}}",
    };
    for (size_t i = 0; i < 3; i++) {
        json_t *v = parse(frames[i]);
        CHECK(v);
        char *err = NULL;
        CHECK(frame_write(p[1], v, &err) == 0);
        json_t *got = NULL;
        CHECK(frame_read(p[0], frame_now_ms() + 2000, &got, &err) == 0);
        CHECK(json_equal(v, got));
        char *a = json_dump(got, JSON_COMPACT, NULL);
        CHECK_STR(a, frames[i]);
        free(a);
        json_free(v);
        json_free(got);
    }
    close(p[0]);
    close(p[1]);
}

/* A writer that sends a frame one byte at a time (and a big one in odd-sized chunks). */
TEST(frame_read_assembles_partial_reads)
{
    int p[2];
    CHECK(pipe(p) == 0);
    buf body = {0};
    buf_puts(&body, "{\"type\":\"reply\",\"ok\":\"");
    for (int i = 0; i < 300000; i++) buf_putc(&body, (char)('a' + i % 26));
    buf_puts(&body, "\"}");
    fflush(stdout);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        close(p[0]);
        uint8_t hdr[4];
        const char *small = "{\"type\":\"done\",\"outcome\":{\"ok\":true}}";
        put_le32(hdr, (uint32_t)strlen(small));
        for (int i = 0; i < 4; i++) {
            if (write_all(p[1], hdr + i, 1) < 0) _exit(1);
            usleep(1000);
        }
        for (size_t i = 0; small[i]; i++) {
            if (write_all(p[1], small + i, 1) < 0) _exit(1);
            if (i % 7 == 0) usleep(500);
        }
        put_le32(hdr, (uint32_t)body.len);
        if (write_all(p[1], hdr, 3) < 0) _exit(1);
        usleep(2000);
        if (write_all(p[1], hdr + 3, 1) < 0) _exit(1);
        for (size_t off = 0; off < body.len; off += 4093) {
            size_t n = body.len - off < 4093 ? body.len - off : 4093;
            if (write_all(p[1], body.data + off, n) < 0) _exit(1);
        }
        _exit(0);
    }
    close(p[1]);
    json_t *got = NULL;
    char *err = NULL;
    CHECK(frame_read(p[0], frame_now_ms() + 5000, &got, &err) == 0);
    CHECK(frame_classify(got, NULL) == FRAME_DONE);
    json_free(got);
    CHECK(frame_read(p[0], frame_now_ms() + 5000, &got, &err) == 0);
    CHECK(frame_classify(got, NULL) == FRAME_REPLY);
    CHECK(json_object_get(got, "ok")->u.string.len == 300000);
    json_free(got);
    CHECK(frame_read(p[0], frame_now_ms() + 5000, &got, &err) == -1);
    CHECK_STR(err, "worker closed the pipe");
    free(err);
    int st;
    waitpid(pid, &st, 0);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    close(p[0]);
    buf_free(&body);
}

/* Whether read_error_after reads with frame_reader (the supervisor's) rather than frame_read. */
static bool through_reader;

static char *read_error_after(const void *bytes, size_t n, int64_t deadline_ms)
{
    int p[2];
    if (pipe(p) != 0) return NULL;
    if (write_all(p[1], bytes, n) < 0) return NULL;
    close(p[1]);
    json_t *got = NULL;
    char *err = NULL;
    int rc;
    if (through_reader) {
        frame_reader r;
        frame_reader_init(&r, p[0]);
        rc = frame_reader_next(&r, deadline_ms, &got, &err);
        frame_reader_free(&r);
    } else {
        rc = frame_read(p[0], deadline_ms, &got, &err);
    }
    close(p[0]);
    if (rc == 0) {
        json_free(got);
        return strdup("(no error)");
    }
    return err;
}

TEST(frame_read_refuses_length_prefixes_over_the_cap)
{
    for (int pass = 0; pass < 2; pass++) {
    through_reader = pass == 1;
    uint8_t hdr[4];
    put_le32(hdr, 0xffffffffu); /* 4 GiB */
    char *err = read_error_after(hdr, 4, 0);
    CHECK_STR(err, "frame of 4294967295 bytes exceeds the 64 MiB limit");
    free(err);
    put_le32(hdr, (uint32_t)FRAME_MAX_BYTES + 1);
    err = read_error_after(hdr, 4, 0);
    CHECK_STR(err, "frame of 67108865 bytes exceeds the 64 MiB limit");
    free(err);
    }
    through_reader = false;
}

TEST(frame_read_reports_truncation_garbage_and_eof)
{
    for (int pass = 0; pass < 2; pass++) {
    through_reader = pass == 1;
    uint8_t b[64];
    put_le32(b, 20);
    memcpy(b + 4, "{\"type\":", 8);
    char *err = read_error_after(b, 12, 0);
    CHECK_STR(err, "worker closed the pipe mid-frame (got 8 of 20 bytes)");
    free(err);
    err = read_error_after(b, 2, 0);
    CHECK_STR(err, "worker closed the pipe mid-frame (got 2 of 4 length bytes)");
    free(err);
    err = read_error_after(b, 0, 0);
    CHECK_STR(err, "worker closed the pipe");
    free(err);
    put_le32(b, 5);
    memcpy(b + 4, "{nope", 5);
    err = read_error_after(b, 9, 0);
    CHECK(err && strncmp(err, "bad frame: ", 11) == 0);
    free(err);
    put_le32(b, 0);
    err = read_error_after(b, 4, 0);
    CHECK(err && strncmp(err, "bad frame: ", 11) == 0);
    free(err);
    put_le32(b, 4);
    memcpy(b + 4, "1 2 ", 4);
    err = read_error_after(b, 8, 0);
    CHECK(err && strncmp(err, "bad frame: ", 11) == 0);
    free(err);
    }
    through_reader = false;
}

/* The supervisor's buffered reader: several frames from one write, each cut whole; a frame split
 * across writes waits for its rest; a frame left half-written times out with frame_read's words;
 * frames gathered with frame_append go out in one write and read back in order. */
TEST(frame_reader_cuts_frames_from_what_arrived)
{
    int p[2];
    CHECK(pipe(p) == 0);
    buf out = {0};
    const char *bodies[] = {"{\"type\":\"call\",\"op\":\"mark\",\"args\":{},\"ahead\":true}",
                            "{\"type\":\"call\",\"op\":\"log\",\"args\":{\"m\":\"x\"}}",
                            "{\"type\":\"done\",\"outcome\":{}}"};
    for (size_t i = 0; i < 3; i++) {
        json_t *v = parse(bodies[i]);
        char *err = NULL;
        CHECK(frame_append(&out, v, &err) == 0 && !err);
        json_free(v);
    }
    char *err = NULL;
    CHECK(frame_write_frames(p[1], &out, &err) == 0 && out.len == 0);
    /* and a fourth, its first half only */
    uint8_t half[6];
    put_le32(half, 7);
    memcpy(half + 4, "[1", 2);
    CHECK(write_all(p[1], half, sizeof half) == 0);
    frame_reader r;
    frame_reader_init(&r, p[0]);
    for (size_t i = 0; i < 3; i++) {
        json_t *got = NULL;
        CHECK(frame_reader_next(&r, 0, &got, &err) == 0);
        char *text = json_dump(got, JSON_COMPACT, NULL);
        CHECK_STR(text, bodies[i]);
        free(text);
        json_free(got);
        if (i == 0) CHECK(frame_reader_has_frame(&r)); /* the others came with it */
    }
    CHECK(!frame_reader_has_frame(&r));
    json_t *got = NULL;
    CHECK(frame_reader_next(&r, frame_now_ms() + 100, &got, &err) == -1);
    CHECK_STR(err, "timed out mid-frame (got 2 of 7 bytes)");
    free(err), err = NULL;
    CHECK(write_all(p[1], ",2,3]", 5) == 0);
    CHECK(frame_reader_next(&r, 0, &got, &err) == 0);
    char *text = json_dump(got, JSON_COMPACT, NULL);
    CHECK_STR(text, "[1,2,3]");
    free(text);
    json_free(got);
    close(p[1]);
    CHECK(frame_reader_next(&r, 0, &got, &err) == -1);
    CHECK_STR(err, "worker closed the pipe");
    free(err);
    frame_reader_free(&r);
    close(p[0]);
    buf_free(&out);
}

/* A large frame arriving a pipe's 64 KiB at a time: the reader's buffer grows geometrically (a
 * frame of 8 MiB moves it a handful of times, not once per read: 128 moves before, and under
 * AddressSanitizer, whose realloc copies, a 16 MiB outcome took 7.6 s of the 10 s a frame may
 * take), and a liar's length buys it no more than the bytes it really sends, doubled, plus 1 MiB. */
TEST(frame_reader_grows_geometrically_with_what_arrives)
{
    enum { BODY = 8 << 20, PIECE = 65536 };
    int p[2];
    CHECK(pipe(p) == 0);
    pid_t child = fork();
    if (child == 0) {
        close(p[0]);
        static char piece[PIECE];
        memset(piece, 'a', sizeof piece);
        uint8_t head[5];
        put_le32(head, BODY + 2);
        head[4] = '"';
        if (write_all(p[1], head, sizeof head) != 0) _exit(1);
        for (size_t done = 0; done < BODY; done += PIECE)
            if (write_all(p[1], piece, PIECE) != 0) _exit(1);
        _exit(write_all(p[1], "\"", 1) != 0);
    }
    close(p[1]);
    frame_reader r;
    frame_reader_init(&r, p[0]);
    json_t *got = NULL;
    char *err = NULL;
    CHECK(frame_reader_next(&r, 0, &got, &err) == 0 && !err);
    CHECK(got && got->type == JSON_STRING && got->u.string.len == BODY);
    CHECK(r.grows <= 16);
    json_free(got);
    frame_reader_free(&r);
    close(p[0]);
    int status = 0;
    CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0);

    /* a length of 60 MiB, 100 KiB sent, then the pipe closed */
    CHECK(pipe(p) == 0);
    child = fork();
    if (child == 0) {
        close(p[0]);
        static char piece[100 << 10];
        memset(piece, 'a', sizeof piece);
        uint8_t head[4];
        put_le32(head, 60u << 20);
        _exit(write_all(p[1], head, 4) != 0 || write_all(p[1], piece, sizeof piece) != 0);
    }
    close(p[1]);
    frame_reader_init(&r, p[0]);
    CHECK(frame_reader_next(&r, 0, &got, &err) == -1);
    CHECK_STR(err, "worker closed the pipe mid-frame (got 102400 of 62914560 bytes)");
    free(err);
    CHECK(r.cap <= 2 * (100 << 10) + (1 << 20) + 4096);
    frame_reader_free(&r);
    close(p[0]);
    CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST(frame_read_depth_limit_is_512)
{
    buf body = {0};
    for (int i = 0; i < 600; i++) buf_putc(&body, '[');
    for (int i = 0; i < 600; i++) buf_putc(&body, ']');
    buf f = {0};
    uint8_t hdr[4];
    put_le32(hdr, (uint32_t)body.len);
    buf_append(&f, hdr, 4);
    buf_append(&f, body.data, body.len);
    json_t *out = NULL;
    size_t used;
    char *err = NULL;
    CHECK(frame_decode((const uint8_t *)f.data, f.len, &used, &out, &err) == -1);
    CHECK(err && strncmp(err, "bad frame: ", 11) == 0);
    free(err);
    buf_free(&body);
    buf_free(&f);
}

TEST(frame_read_times_out_against_a_silent_writer)
{
    int p[2];
    CHECK(pipe(p) == 0);
    uint8_t partial[6];
    put_le32(partial, 10);
    partial[4] = '{';
    partial[5] = '}';
    CHECK(write_all(p[1], partial, 6) == 0); /* then silence, with the pipe still open */
    int64_t t0 = frame_now_ms();
    json_t *got = NULL;
    char *err = NULL;
    CHECK(frame_read(p[0], t0 + 150, &got, &err) == -1);
    int64_t took = frame_now_ms() - t0;
    CHECK_STR(err, "timed out mid-frame (got 2 of 10 bytes)");
    CHECK(took >= 140 && took < 1500);
    free(err);
    /* A deadline already in the past fails at once, even with nothing to read. */
    err = NULL;
    CHECK(frame_read(p[0], frame_now_ms() - 1, &got, &err) == -1);
    CHECK_STR(err, "timed out");
    free(err);
    close(p[0]);
    close(p[1]);
}

static volatile sig_atomic_t got_sigpipe;
static void on_sigpipe(int s)
{
    (void)s;
    got_sigpipe = 1;
}

TEST(frame_write_to_a_closed_pipe_does_not_raise_sigpipe)
{
    /* Default disposition would kill us: check in a child, then in-process with a handler. */
    int p[2];
    CHECK(pipe(p) == 0);
    close(p[0]);
    fflush(stdout);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        signal(SIGPIPE, SIG_DFL);
        json_t *v = parse("{\"type\":\"done\",\"outcome\":{}}");
        char *err = NULL;
        int rc = frame_write(p[1], v, &err);
        _exit(rc == -1 && err && strcmp(err, "the other side closed the pipe") == 0 ? 0 : 1);
    }
    int st;
    waitpid(pid, &st, 0);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);

    struct sigaction sa = {0}, old;
    sa.sa_handler = on_sigpipe;
    sigaction(SIGPIPE, &sa, &old);
    got_sigpipe = 0;
    json_t *v = parse("[1]");
    char *err = NULL;
    CHECK(frame_write(p[1], v, &err) == -1);
    json_free(v);
    free(err);
    sigset_t pend;
    sigpending(&pend);
    CHECK(!sigismember(&pend, SIGPIPE));
    CHECK(!got_sigpipe);
    sigaction(SIGPIPE, &old, NULL);
    close(p[1]);
}

TEST(frame_write_refuses_bodies_over_the_cap)
{
    char *big = malloc(FRAME_MAX_BYTES + 1);
    CHECK(big);
    memset(big, ' ', FRAME_MAX_BYTES + 1);
    int p[2];
    CHECK(pipe(p) == 0);
    char *err = NULL;
    CHECK(frame_write_raw(p[1], big, FRAME_MAX_BYTES + 1, &err) == -1);
    CHECK_STR(err, "frame of 67108865 bytes exceeds the 64 MiB limit");
    free(err);
    free(big);
    close(p[0]);
    close(p[1]);
}

TEST(frame_decode_needs_more_then_completes)
{
    const char *body = "{\"type\":\"call\",\"op\":\"tool\",\"args\":{}}";
    size_t n = strlen(body);
    uint8_t b[128];
    put_le32(b, (uint32_t)n);
    memcpy(b + 4, body, n);
    memcpy(b + 4 + n, "\x02\x00\x00\x00[]", 6); /* a second frame after it */
    json_t *out = NULL;
    size_t used = 99;
    for (size_t len = 0; len < 4 + n; len++) {
        CHECK(frame_decode(b, len, &used, &out, NULL) == 0);
        CHECK(used == 0 && out == NULL);
    }
    CHECK(frame_decode(b, 4 + n + 6, &used, &out, NULL) == 1);
    CHECK(used == 4 + n);
    CHECK(frame_classify(out, NULL) == FRAME_CALL);
    json_free(out);
    CHECK(frame_decode(b + used, 6, &used, &out, NULL) == 1);
    CHECK(used == 6);
    json_free(out);
    uint8_t huge[4] = {0xff, 0xff, 0xff, 0xff};
    char *err = NULL;
    CHECK(frame_decode(huge, 4, &used, &out, &err) == -1);
    CHECK_STR(err, "frame of 4294967295 bytes exceeds the 64 MiB limit");
    free(err);
}

static frame_type classify(const char *s, char **err)
{
    json_t *v = parse(s);
    if (!v) return (frame_type)-1;
    frame_type t = frame_classify(v, err);
    json_free(v);
    return t;
}

TEST(frame_classify_is_strict)
{
    struct {
        const char *json;
        frame_type want;
    } cases[] = {
        {"{\"type\":\"init\",\"entry\":\"main.js\",\"input\":{},\"limits\":{},\"prelude\":\"\"}", FRAME_INIT},
        {"{\"type\":\"init\"}", FRAME_INIT},
        {"{\"type\":\"init\",\"entry\":7}", FRAME_INVALID},
        {"{\"type\":\"init\",\"limits\":[]}", FRAME_INVALID},
        {"{\"type\":\"call\",\"op\":\"log\",\"args\":{}}", FRAME_CALL},
        {"{\"type\":\"call\",\"op\":\"workspace:read_file\",\"args\":{\"a\":1}}", FRAME_CALL},
        {"{\"type\":\"call\",\"op\":\"Log\",\"args\":{}}", FRAME_INVALID},
        {"{\"type\":\"call\",\"op\":\"\",\"args\":{}}", FRAME_INVALID},
        {"{\"type\":\"call\",\"op\":\"a.b\",\"args\":{}}", FRAME_INVALID},
        {"{\"type\":\"call\",\"op\":\"log\\u0000\",\"args\":{}}", FRAME_INVALID},
        {"{\"type\":\"call\",\"op\":\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\",\"args\":{}}", FRAME_CALL},
        {"{\"type\":\"call\",\"op\":\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\",\"args\":{}}", FRAME_INVALID},
        {"{\"type\":\"call\",\"op\":3,\"args\":{}}", FRAME_INVALID},
        {"{\"type\":\"call\",\"op\":\"log\",\"args\":[]}", FRAME_INVALID},
        {"{\"type\":\"call\",\"op\":\"log\"}", FRAME_INVALID},
        {"{\"type\":\"call\",\"op\":\"log\",\"args\":{},\"extra\":1}", FRAME_INVALID},
        {"{\"type\":\"call\",\"op\":\"log\",\"args\":{},\"ahead\":true}", FRAME_CALL},
        {"{\"type\":\"call\",\"op\":\"log\",\"args\":{},\"ahead\":false}", FRAME_INVALID},
        {"{\"type\":\"call\",\"op\":\"log\",\"args\":{},\"ahead\":1}", FRAME_INVALID},
        {"{\"type\":\"internal\",\"op\":\"__module_load\",\"args\":{},\"ahead\":true}", FRAME_INVALID},
        {"{\"type\":\"reply\",\"ok\":1,\"ahead\":[]}", FRAME_REPLY},
        {"{\"type\":\"reply\",\"ok\":1,\"ahead\":[[\"mark\",{\"type\":\"reply\",\"ok\":null}],[\"memory\",{\"err\":\"x\",\"type\":\"reply\"}]]}", FRAME_REPLY},
        {"{\"type\":\"reply\",\"ok\":1,\"ahead\":{}}", FRAME_INVALID},
        {"{\"type\":\"reply\",\"ok\":1,\"ahead\":[[\"mark\"]]}", FRAME_INVALID},
        {"{\"type\":\"reply\",\"ok\":1,\"ahead\":[[\"Mark\",{\"type\":\"reply\",\"ok\":null}]]}", FRAME_INVALID},
        {"{\"type\":\"reply\",\"ok\":1,\"ahead\":[[\"mark\",{\"type\":\"reply\"}]]}", FRAME_INVALID},
        {"{\"type\":\"reply\",\"ok\":1,\"ahead\":[[\"mark\",{\"type\":\"reply\",\"ok\":1,\"err\":\"x\"}]]}", FRAME_INVALID},
        {"{\"type\":\"reply\",\"ok\":1,\"ahead\":[[\"mark\",{\"type\":\"reply\",\"err\":2}]]}", FRAME_INVALID},
        {"{\"type\":\"reply\",\"ok\":1,\"ahead\":[[\"mark\",{\"type\":\"reply\",\"ok\":1,\"status\":\"abort\"}]]}", FRAME_INVALID},
        {"{\"type\":\"reply\",\"ok\":1,\"ahead\":[[\"mark\",{\"type\":\"done\",\"ok\":1}]]}", FRAME_INVALID},
        {"{\"type\":\"reply\",\"ok\":null}", FRAME_REPLY},
        {"{\"type\":\"reply\",\"ok\":[1]}", FRAME_REPLY},
        {"{\"type\":\"reply\",\"err\":\"boom\"}", FRAME_REPLY},
        {"{\"type\":\"reply\",\"err\":{}}", FRAME_INVALID},
        {"{\"type\":\"reply\",\"ok\":1,\"err\":\"x\"}", FRAME_INVALID},
        {"{\"type\":\"reply\"}", FRAME_INVALID},
        {"{\"type\":\"reply\",\"ok\":1,\"id\":2}", FRAME_INVALID},
        {"{\"type\":\"done\",\"outcome\":{\"status\":\"completed\"}}", FRAME_DONE},
        {"{\"type\":\"done\",\"outcome\":\"completed\"}", FRAME_INVALID},
        {"{\"type\":\"done\"}", FRAME_INVALID},
        {"{\"type\":\"done\",\"outcome\":{},\"x\":0}", FRAME_INVALID},
        {"{\"type\":\"internal\",\"op\":\"__module_load\",\"args\":{\"specifier\":\"./a.js\"}}", FRAME_INTERNAL},
        {"{\"type\":\"internal\",\"op\":\"__module_load\"}", FRAME_INVALID},
        {"{\"type\":\"internal\",\"op\":\"Mod\",\"args\":{}}", FRAME_INVALID},
        {"{\"type\":\"internal\",\"op\":\"x\",\"args\":{},\"type2\":1}", FRAME_INVALID},
        {"{\"type\":\"isolation\",\"report\":{\"layers\":[]}}", FRAME_ISOLATION},
        {"{\"type\":\"isolation\",\"report\":[]}", FRAME_INVALID},
        {"{\"type\":\"isolation\"}", FRAME_INVALID},
        {"{\"type\":\"isolation\",\"report\":{},\"args\":{}}", FRAME_INVALID},
        {"{\"type\":\"Internal\",\"op\":\"x\",\"args\":{}}", FRAME_INVALID},
        {"{\"type\":\"pause\"}", FRAME_INVALID},
        {"{\"type\":1}", FRAME_INVALID},
        {"{}", FRAME_INVALID},
        {"[]", FRAME_INVALID},
        {"\"call\"", FRAME_INVALID},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *err = NULL;
        frame_type t = classify(cases[i].json, &err);
        if (t != cases[i].want) {
            char m[400];
            snprintf(m, sizeof m, "%s → %s, want %s", cases[i].json, frame_type_name(t), frame_type_name(cases[i].want));
            unit_fail(__FILE__, __LINE__, m);
            free(err);
            return;
        }
        CHECK((t == FRAME_INVALID) == (err != NULL));
        if (err) CHECK(strncmp(err, "bad frame: ", 11) == 0);
        free(err);
    }
}

/* The worker writes its calls without building them: the bytes of the tree it used to build. */
TEST(frame_append_call_writes_the_bytes_of_the_call_object)
{
    const char *args_texts[] = {"{\"label\":\"tick\"}", "{}", "[1,-2.5,1e300,\"\\u0000\\ud800\"]",
                                "{\"a\":{\"b\":[true,false,null]},\"\\\"q\\\"\":\"\\n\\t\\u2028\",\"n\":9007199254740993}",
                                "\"x\"", "null"};
    const char *types[] = {"call", "internal"}, *ops[] = {"mark", "__module_load", "we\"ird\\op\x01"};
    uint64_t meters[][2] = {{0, 0}, {123456789, 9007199254740993ULL}};
    for (size_t a = 0; a < sizeof args_texts / sizeof *args_texts; a++)
        for (size_t t = 0; t < 2; t++)
            for (size_t o = 0; o < 3; o++)
                for (int m = -1; m < 2; m++)
                    for (int ahead = 0; ahead < 3; ahead++) {
                        json_t *args = parse(args_texts[a]);
                        CHECK(args != NULL);
                        json_t *call = json_object();
                        json_object_set(call, "type", json_string(types[t]));
                        json_object_set(call, "op", json_string(ops[o]));
                        json_object_set(call, "args", json_copy(args));
                        if (m >= 0) {
                            json_t *mt = json_array();
                            json_array_push(mt, json_number((double)meters[m][0]));
                            json_array_push(mt, json_number((double)meters[m][1]));
                            json_object_set(call, "meter", mt);
                        }
                        if (ahead) json_object_set(call, "ahead", json_bool(true));
                        if (ahead == 2) json_object_set(call, "at", json_number(1796341234567.0));
                        buf want = {0}, got = {0};
                        char *err = NULL;
                        buf_puts(&got, "kept");
                        buf_puts(&want, "kept");
                        CHECK(frame_append(&want, call, &err) == 0);
                        CHECK(frame_append_call(&got, types[t], ops[o], args, m >= 0 ? meters[m] : NULL, ahead != 0,
                                                ahead == 2 ? 1796341234567 : 0, &err) == 0);
                        CHECK(got.len == want.len && memcmp(got.data, want.data, got.len) == 0);
                        buf_free(&want);
                        buf_free(&got);
                        json_free(call);
                        json_free(args);
                    }
}

/* A call's checks, in their order: the message names the first that fails (the parent prints it
 * when it ends a run on a bad frame). */
TEST(frame_classify_names_the_first_failed_check_of_a_call)
{
    static const struct {
        const char *frame, *error;
    } cases[] = {
        {"{\"type\":\"call\",\"zz\":1,\"meter\":[1],\"ahead\":2}", "bad frame: call \"meter\" is not [ticks, heap bytes] (two whole numbers)"},
        {"{\"type\":\"internal\",\"meter\":[1,-1]}", "bad frame: call \"meter\" is not [ticks, heap bytes] (two whole numbers)"},
        {"{\"type\":\"call\",\"zz\":1,\"args\":[],\"ahead\":2}", "bad frame: call without \"op\""},
        {"{\"zz\":1,\"type\":\"internal\",\"op\":\"A\"}", "bad frame: internal \"op\" is not a string of [a-z_:]{1,64}"},
        {"{\"type\":\"call\",\"op\":\"mark\",\"ahead\":2,\"zz\":1}", "bad frame: call without \"args\""},
        {"{\"type\":\"call\",\"op\":\"mark\",\"args\":null,\"ahead\":2}", "bad frame: call \"args\" is not an object"},
        {"{\"type\":\"call\",\"op\":\"mark\",\"args\":{},\"zz\":1,\"ahead\":2}", "bad frame: call \"ahead\" is not true"},
        {"{\"type\":\"internal\",\"op\":\"mark\",\"args\":{},\"ahead\":false}", "bad frame: call \"ahead\" is not true"},
        {"{\"type\":\"internal\",\"op\":\"mark\",\"args\":{},\"meter\":[1,2],\"ahead\":true}", "bad frame: internal has an unexpected member \"meter\""},
        {"{\"type\":\"internal\",\"ahead\":true,\"op\":\"mark\",\"args\":{},\"meter\":[1,2]}", "bad frame: internal has an unexpected member \"ahead\""},
        {"{\"type\":\"call\",\"op\":\"mark\",\"args\":{},\"Type\":1,\"zz\":2}", "bad frame: call has an unexpected member \"Type\""},
        {"{\"type\":\"call\",\"op\":\"mark\",\"args\":{},\"at\":5}", "bad frame: call \"at\" is not a time in ms (a positive whole number) of a call answered ahead"},
        {"{\"type\":\"call\",\"op\":\"mark\",\"args\":{},\"ahead\":true,\"at\":0}", "bad frame: call \"at\" is not a time in ms (a positive whole number) of a call answered ahead"},
        {"{\"type\":\"call\",\"op\":\"mark\",\"args\":{},\"ahead\":true,\"at\":1.5}", "bad frame: call \"at\" is not a time in ms (a positive whole number) of a call answered ahead"},
        {"{\"type\":\"call\",\"op\":\"mark\",\"args\":{},\"ahead\":true,\"at\":\"5\"}", "bad frame: call \"at\" is not a time in ms (a positive whole number) of a call answered ahead"},
        {"{\"type\":\"internal\",\"op\":\"mark\",\"args\":{},\"at\":5}", "bad frame: call \"at\" is not a time in ms (a positive whole number) of a call answered ahead"},
        {"{\"type\":\"internal\",\"op\":\"mark\",\"args\":{},\"ahead\":true,\"at\":5}", "bad frame: internal has an unexpected member \"ahead\""},
        {"{\"type\":\"call\",\"op\":\"mark\",\"args\":{},\"meter\":[1,2],\"ahead\":true,\"at\":1796341234567}", NULL},
        {"{\"type\":\"call\",\"op\":\"mark\",\"args\":{},\"meter\":[1,2],\"ahead\":true}", NULL},
        {"{\"ahead\":true,\"meter\":[0,0],\"args\":{},\"op\":\"mark\",\"type\":\"call\"}", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        json_t *f = parse(cases[i].frame);
        CHECK(f != NULL);
        char *err = NULL;
        frame_type t = frame_classify(f, &err);
        if (cases[i].error) {
            CHECK(t == FRAME_INVALID);
            CHECK(err && !strcmp(err, cases[i].error));
        } else {
            CHECK(t == FRAME_CALL && !err);
        }
        free(err);
        json_free(f);
    }
}

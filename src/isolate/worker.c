/* worker.c — `chidori __run-worker`: the child of an isolated run, holding only the engine.
 *
 * Started by the supervisor (as `chidori-worker` or `chidori __run-worker`) with exactly four
 * descriptors: 0 (frames from the parent), 1 (frames to the parent), 2 (a pipe the parent relays
 * as stderr) and 3 (the handoff socket: a network namespace to join and its cgroup slot to enter,
 * sent before the first Init); no terminal, a clean environment, and death with its parent. It
 * reads the Init frame, enters its cgroup, confines itself (sandbox_apply_all: namespaces,
 * Landlock, seccomp allowlist, rlimits) BEFORE any agent code exists, then runs the engine with a
 * broker seam: every host op becomes a Call frame (a module load an Internal frame) and blocks on
 * its Reply, except a replayed call it answers from the answers the parent offered and a trace
 * op's call (mark), answered null at once; both go out later, marked (ahead.h). It
 * ends with one Done frame and exits. A warm worker (a server's pool) gets a first Init holding
 * only its sandbox: it confines itself at once and then blocks for the Init of its one run.
 *
 * Trusts the parent (it is the parent's child and the parent's frames are the only input); trusts
 * nothing of the agent. It must not open files or sockets after confinement (the filters would
 * kill it): everything it needs comes through the pipe.
 */
#define _GNU_SOURCE
#include "isolate/isolate.h"
#include "isolate/forkserver.h"
#include "isolate/protocol.h"
#include "isolate/sandbox_linux.h"
#include "engine/arena.h"
#include "engine/engine.h"
#include "host/host.h"
#include "util/buf.h"
#include "util/clock.h"

#include <errno.h>
#include <linux/magic.h>
#include <linux/nsfs.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/statfs.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FD_IN 0
#define FD_OUT 1

/* The broker client: one frame out (a Call for the agent's ops, an Internal for module loads:
 * seam.h's two entries), one Reply frame back. A broken pipe means the parent is gone or
 * misbehaving: the run ends (HOST_ABORT). */
/* The tree budget's meter (seam.h) rides on the frames: what the engine counted goes out with the
 * next Call ("meter": [ticks, heap bytes]), the ticks the parent charged come back with its Reply
 * ("charge"), handed to the engine at its meter call after the call. */
static uint64_t meter_ticks, meter_heap, meter_charge;
static bool meter_set;

static uint64_t broker_meter(void *ctx, uint64_t ticks, uint64_t heap_bytes)
{
    meter_ticks = ticks;
    meter_heap = heap_bytes;
    meter_set = true;
    uint64_t c = meter_charge;
    meter_charge = 0;
    return c;
}

/* Test-only (CHIDORI_ISOLATE_SELFTEST=ahead_stats): the run goes on as any other, and the worker
 * says on its stderr, before its Done, how many calls it answered ahead (tests/cases_replay_ahead.py). */
static bool ahead_stats;
static uint64_t answered_ahead, went_on;

/* The trace ops the parent named in its Init (host_trace_ops): a call of one is answered null
 * at once and goes out later, marked, with the time it was made (isolate/ahead.h). */
static const isolate_init *trace_init;

static bool is_trace_op(const char *op)
{
    for (size_t i = 0; trace_init && i < trace_init->n_trace_ops; i++)
        if (!strcmp(trace_init->trace_ops[i], op)) return true;
    return false;
}

/* Replay ahead (isolate/ahead.h): the answers the parent offered, kept in the reply that brought
 * them, and the calls answered from them, gathered until the worker next waits or ends. */
static json_t *offer_holder;
static const json_t *offer;
static size_t offer_next;
static buf answered;
/* The parent's replies, read through one buffer: a reply in one read, not two. */
static frame_reader from_parent = {.fd = FD_IN};

/* Calls answered ahead go out once this many bytes of them are gathered (a mark is about 80), so
 * that the parent replays them while the guest goes on: both sides work at once. */
#define AHEAD_FLUSH_BYTES 4096

/* After a large call has gone out its buffer is let go: the worker's memory stays the engine's. */
#define ANSWERED_KEEP_BYTES ((size_t)64 << 10)

static int flush_answered(char **io)
{
    int rc = frame_write_frames(FD_OUT, &answered, io);
    if (answered.cap > ANSWERED_KEEP_BYTES) buf_free(&answered);
    return rc;
}

/* The head of the offer answers a call of op: its frame goes out later, marked, and nobody waits. */
/* The head of the offer answers a call of op, or op is a trace op: its frame goes out later,
 * marked, and nobody waits. The offer's head first, as the parent checks it first. */
static bool answer_ahead(const char *op, const json_t *args, const uint64_t *meter, json_t **result, char **error,
                         int *rc)
{
    const json_t *e = offer && offer_next < offer->u.array.len ? offer->u.array.items[offer_next] : NULL;
    if (e && strcmp(json_string_value(e->u.array.items[0]), op) != 0) e = NULL;
    bool trace = !e && is_trace_op(op);
    if (!e && !trace) return false;
    if (e) offer_next++, answered_ahead++;
    else went_on++;
    char *io = NULL;
    int w = frame_append_call(&answered, "call", op, args, meter, true, trace ? clock_realtime_ms() : 0, &io);
    if (w == 0 && answered.len >= AHEAD_FLUSH_BYTES) w = flush_answered(&io);
    if (w != 0) {
        *error = xasprintf("lost the host: %s", io ? io : "broken pipe");
        free(io);
        *rc = HOST_ABORT;
        return true;
    }
    if (e) {
        *rc = isolate_reply_decode(e->u.array.items[1], result, error);
    } else {
        *result = json_null();
        *rc = HOST_OK;
    }
    return true;
}

static int broker_send(const char *type, const char *op, const json_t *args, json_t **result, char **error)
{
    *result = NULL;
    *error = NULL;
    bool call = !strcmp(type, "call");
    uint64_t meter[2] = {meter_ticks, meter_heap};
    const uint64_t *m = call && meter_set ? meter : NULL;
    int rc;
    if (call && answer_ahead(op, args, m, result, error, &rc)) return rc;
    /* the call that waits goes out in one write with the calls answered ahead before it */
    char *io = NULL;
    rc = frame_append_call(&answered, type, op, args, m, false, 0, &io);
    if (rc == 0) rc = flush_answered(&io);
    json_t *reply = NULL;
    if (rc == 0) rc = frame_reader_next(&from_parent, 0, &reply, &io);
    const json_t *more = rc == 0 ? json_object_get(reply, "ahead") : NULL;
    if (more && !frame_ahead_valid(more)) io = xstrdup("it offered answers that are not a list of [op, reply]"), rc = -1;
    if (rc != 0) {
        *error = xasprintf("lost the host: %s", io ? io : "broken pipe");
        free(io);
        json_free(reply);
        return HOST_ABORT;
    }
    rc = isolate_reply_decode(reply, result, error);
    const json_t *charge = json_object_get(reply, "charge");
    if (charge && charge->type == JSON_NUMBER && charge->u.number > 0 && charge->u.number <= 9007199254740991.0)
        meter_charge += (uint64_t)charge->u.number;
    if (more) { /* the offer is now this one */
        json_free(offer_holder);
        offer_holder = reply;
        offer = more;
        offer_next = 0;
    } else {
        json_free(reply);
    }
    return rc;
}

static int broker_call(void *ctx, const char *op, const json_t *args, json_t **result, char **error)
{
    return broker_send("call", op, args, result, error);
}

static int broker_internal(void *ctx, const char *op, const json_t *args, json_t **result, char **error)
{
    return broker_send("internal", op, args, result, error);
}

static void send_done(const engine_result *res)
{
    char *io = NULL;
    if (flush_answered(&io) != 0) free(io), io = NULL; /* the Done cannot go out either */
    json_t *done = json_object();
    json_object_set(done, "type", json_string("done"));
    json_object_set(done, "outcome", isolate_outcome_encode(res));
    if (frame_write(FD_OUT, done, &io) != 0) free(io);
    json_free(done);
}

/* The outcome goes to the parent before the engine is torn down; a worker is disposable, so
 * outside sanitizer builds (whose leak check wants the teardown) it ends right there. */
static bool done_sent;

static void done_before_teardown(void *ctx, const engine_result *res)
{
    (void)ctx;
    done_sent = true;
    if (ahead_stats) {
        fprintf(stderr, "worker: %llu calls answered ahead\n", (unsigned long long)answered_ahead);
        fprintf(stderr, "worker: went on past %llu trace calls\n", (unsigned long long)went_on);
    }
    send_done(res);
#if !defined(__SANITIZE_ADDRESS__)
    _exit(0);
#endif
}

static void fail_early(const char *message)
{
    engine_result res = {.status = RUN_FAILED, .error = (char *)message};
    send_done(&res);
}

/* Test-only hostile behaviours (CHIDORI_ISOLATE_SELFTEST=frame_*): each breaks the protocol in
 * one way; tests/cases_isolation.py checks that the parent fails the run and carries on. */
static void hostile_frames(const char *mode)
{
    static const unsigned char huge[4] = {0xff, 0xff, 0xff, 0xff};       /* a 4 GiB length prefix */
    static const unsigned char over[4] = {0x01, 0x00, 0x00, 0x04};       /* 64 MiB + 1 */
    static const unsigned char garbage[] = {9, 0, 0, 0, 'n', 'o', 't', ' ', 'j', 's', 'o', 'n', '!'};
    static const unsigned char truncated[] = {100, 0, 0, 0, '{', '"', 't'};
    char *io = NULL;
    if (!strcmp(mode, "frame_huge_prefix")) {
        if (write(FD_OUT, huge, sizeof huge) < 0) return;
    } else if (!strcmp(mode, "frame_over_cap")) {
        if (write(FD_OUT, over, sizeof over) < 0) return;
    } else if (!strcmp(mode, "frame_garbage")) {
        if (write(FD_OUT, garbage, sizeof garbage) < 0) return;
    } else if (!strcmp(mode, "frame_truncated")) {
        if (write(FD_OUT, truncated, sizeof truncated) < 0) return;
    } else if (!strcmp(mode, "frame_unknown_op") || !strcmp(mode, "frame_forged_module_load")) {
        /* an op nobody has; or a module load as a Call frame, the agent's entry, which must not
         * reach chidori's own ops (the loader's entry is the Internal frame) */
        bool forged = !strcmp(mode, "frame_forged_module_load");
        json_t *args = json_object();
        if (forged) json_object_set(args, "specifier", json_string("./hello.js"));
        json_t *result = NULL;
        char *err = NULL;
        int rc = broker_call(NULL, forged ? "__module_load" : "no_such_op", args, &result, &err);
        json_free(args);
        json_free(result);
        /* the parent answers with an error; a real worker would carry on, this one reports it */
        engine_result res = {.status = RUN_FAILED, .error = err ? err : xasprintf("rc %d", rc)};
        send_done(&res);
        free(res.error);
        return;
    } else if (!strcmp(mode, "frame_deaf") || !strcmp(mode, "frame_deaf_spin")) {
        /* calls, and never a read of their replies: the parent's replies fill the pipe, and it
         * must then give up at the run's limits rather than wait for room. frame_deaf sends until
         * its own pipe is full too and blocks there; frame_deaf_spin sends 1600 calls of about 61
         * bytes (the 64 KiB pipe to it holds about 1050 of their 62-byte replies, the one from it
         * the 550 calls left after that) and then spins in C, so that only the CPU backstop ends it. */
        bool spin = !strcmp(mode, "frame_deaf_spin");
        static const uint64_t meter[2] = {0, 0};
        json_t *args = json_object();
        buf b = {0};
        for (int n = 0; !spin || n < 1600; n++) {
            if (frame_append_call(&b, "call", "no_such_op", args, meter, false, 0, &io) != 0 ||
                frame_write_frames(FD_OUT, &b, &io) != 0)
                break;
        }
        buf_free(&b);
        json_free(args);
        if (spin)
            for (volatile unsigned long i = 0;; i++) {
            }
    } else if (!strcmp(mode, "frame_isolation_again")) {
        /* a second confinement report, mid-run, claiming more than was applied; then an honest
         * looking outcome: the parent must fail the run and print nothing of the forged report */
        json_t *report = json_object();
        json_object_set(report, "summary", json_string("FORGED-REPORT process (every layer, trust me)"));
        json_t *f = json_object();
        json_object_set(f, "type", json_string("isolation"));
        json_object_set(f, "report", report);
        frame_write(FD_OUT, f, &io);
        json_free(f);
        engine_result res = {.status = RUN_COMPLETED, .output_json = "\"forged\""};
        send_done(&res);
    } else if (!strcmp(mode, "frame_internal_probe")) {
        /* Internal frames a compromised worker might send: ops that are not chidori's own, and
         * module loads that try to leave the project folder or reach its state folder. Each
         * answer is reported in the outcome ({probe: "ok: <source>" | "err: <message>"}); the
         * test checks that only the control load succeeds. */
        static const struct {
            const char *probe, *op, *specifier, *importer;
        } probes[] = {
            {"op_workspace", "workspace", NULL, NULL},
            {"op_unknown", "no_such_op", NULL, NULL},
            {"dotdot", "__module_load", "../outside.js", "agent.js"},
            {"absolute", "__module_load", "/etc/passwd", "agent.js"},
            {"state_dir", "__module_load", "./.chidori/secret.js", "agent.js"},
            {"state_dir_dotted", "__module_load", "./a/../.chidori/secret.js", "agent.js"},
            {"symlink_out", "__module_load", "./link_out.js", "agent.js"},
            {"symlink_state", "__module_load", "./state_link/secret.js", "agent.js"},
            {"absolute_importer", "__module_load", "./passwd", "/etc/x.js"},
            {"dotdot_importer", "__module_load", "./outside.js", "../x.js"},
            {"control", "__module_load", "./agent.js", NULL},
            /* only a run's entry loads without an importer: a second such load is refused */
            {"null_importer_again", "__module_load", "./agent.js", NULL},
        };
        json_t *out = json_object();
        for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
            json_t *args = json_object();
            if (probes[i].specifier) json_object_set(args, "specifier", json_string(probes[i].specifier));
            if (probes[i].importer) json_object_set(args, "importer", json_string(probes[i].importer));
            if (!strcmp(probes[i].op, "workspace")) {
                json_object_set(args, "action", json_string("write"));
                json_object_set(args, "path", json_string("pwned.txt"));
                json_object_set(args, "content", json_string("x"));
            }
            json_t *result = NULL;
            char *err = NULL;
            int rc = broker_internal(NULL, probes[i].op, args, &result, &err);
            const char *src = json_string_value(json_object_get(result, "source"));
            char *said = rc == HOST_OK ? xasprintf("ok: %s", src ? src : "") : xasprintf("err: %s", err ? err : "?");
            json_object_set(out, probes[i].probe, json_string(said));
            free(said);
            free(err);
            json_free(result);
            json_free(args);
        }
        char *text = json_dump(out, JSON_COMPACT, NULL);
        json_free(out);
        engine_result res = {.status = RUN_COMPLETED, .output_json = text};
        send_done(&res);
        free(text);
        return;
    } else if (!strcmp(mode, "frame_wrong_order")) {
        json_t *r = isolate_reply_encode(HOST_OK, NULL, NULL); /* a reply is the parent's to send */
        frame_write(FD_OUT, r, &io);
        json_free(r);
    } else if (!strncmp(mode, "frame_ahead_", 12)) {
        /* replay ahead (isolate/ahead.h): a call that waits, so that its reply may bring an offer
         * (not for _unoffered and _trace); then _probe reports the offered ops, and the others send
         * a call marked as answered ahead that the parent must refuse: one never offered (of `log`,
         * not a trace op), one of another op than offered, one of the offered op with other args
         * (a divergence), and (_trace) a trace op's call without an offer, stamped before the run:
         * taken, so a divergence, unless the parent named no trace ops, then one never offered */
        json_t *args = json_object(), *result = NULL;
        char *err = NULL;
        if (strcmp(mode, "frame_ahead_unoffered") != 0 && strcmp(mode, "frame_ahead_trace") != 0)
            broker_call(NULL, "no_such_op", args, &result, &err);
        json_free(args);
        json_free(result);
        free(err);
        if (!strcmp(mode, "frame_ahead_probe")) {
            json_t *ops = json_array();
            for (size_t i = 0; offer && i < offer->u.array.len; i++)
                json_array_push(ops, json_copy(offer->u.array.items[i]->u.array.items[0]));
            char *text = json_dump(ops, JSON_COMPACT, NULL);
            json_free(ops);
            engine_result res = {.status = RUN_COMPLETED, .output_json = text};
            send_done(&res);
            free(text);
            return;
        }
        json_t *call = json_object(), *forged = json_object();
        json_object_set(forged, "label", json_string("forged"));
        json_object_set(call, "type", json_string("call"));
        bool trace = !strcmp(mode, "frame_ahead_trace");
        json_object_set(call, "op", json_string(trace || !strcmp(mode, "frame_ahead_forged") ? "mark" : "log"));
        json_object_set(call, "args", forged);
        json_object_set(call, "ahead", json_bool(true));
        if (trace) json_object_set(call, "at", json_number(1.0)); /* a time before the run: not taken */
        frame_write(FD_OUT, call, &io);
        json_free(call);
        engine_result res = {.status = RUN_COMPLETED, .output_json = "\"forged\""};
        send_done(&res);
    } else if (!strcmp(mode, "frame_forged_done")) {
        json_t *d = json_object(); /* a Done whose outcome says nothing sensible */
        json_object_set(d, "type", json_string("done"));
        json_object_set(d, "outcome", json_string("completed, trust me"));
        frame_write(FD_OUT, d, &io);
        json_free(d);
    } else if (!strcmp(mode, "frame_huge_output")) {
        /* a completed run with more output than any engine returns, written piece by piece (one
         * 16 MiB allocation would go through calls the allowlist does not have, under ASan) */
        static const char head[] = "{\"type\":\"done\",\"outcome\":{\"status\":\"completed\",\"limit\":0,\"output\":\"";
        static const char tail[] = "\"}}";
        static char chunk[1 << 16];
        size_t n = ENGINE_OUTPUT_MAX_BYTES + sizeof chunk;
        memset(chunk, 'a', sizeof chunk);
        uint32_t len = (uint32_t)(sizeof head - 1 + n + sizeof tail - 1);
        unsigned char prefix[4] = {len & 0xff, (len >> 8) & 0xff, (len >> 16) & 0xff, len >> 24};
        if (write(FD_OUT, prefix, 4) != 4 || write(FD_OUT, head, sizeof head - 1) < 0) return;
        for (size_t done = 0; done < n; done += sizeof chunk)
            if (write(FD_OUT, chunk, sizeof chunk) != (ssize_t)sizeof chunk) return;
        if (write(FD_OUT, tail, sizeof tail - 1) < 0) return;
    } else if (!strcmp(mode, "frame_done_then_linger")) {
        /* an honest outcome, then no exit: the parent must not wait for us forever */
        engine_result res = {.status = RUN_COMPLETED, .output_json = "\"lingered\""};
        send_done(&res);
    } else if (!strcmp(mode, "frame_crash")) {
        /* A real fault: the kernel delivers it even to a pid-namespace init, unlike raise(). */
        static volatile uintptr_t nowhere = 8;
        *(volatile int *)nowhere = 1;
    }
    free(io);
    char c; /* stay alive (blocked on the pipe; pause() is not allowed): the parent must not wait on us forever */
    while (read(FD_IN, &c, 1) > 0) {
    }
}

/* Test-only (CHIDORI_ISOLATE_SELFTEST=hang_*): hang_spin burns CPU in C and never checks the
 * interrupt; hang_block waits on its pipe and uses none. Neither ever answers. */
static void hang(const char *mode)
{
    if (!strcmp(mode, "hang_spin")) {
        for (volatile unsigned long i = 0;; i++) {
        }
    }
    char c;
    while (read(FD_IN, &c, 1) > 0) {
    }
}

/* A network or mount namespace the parent made for this worker to join (shared_netns.c,
 * parent_mntns.c). */
static bool is_ns(int fd, int type)
{
    return ioctl(fd, NS_GET_NSTYPE) == type;
}

static bool is_cgroup_file(int fd)
{
    struct statfs sf;
    return fstatfs(fd, &sf) == 0 &&
           ((unsigned long)sf.f_type == CGROUP_SUPER_MAGIC || (unsigned long)sf.f_type == CGROUP2_SUPER_MAGIC);
}

/* Take what the parent handed over on ISOLATE_HANDOFF_FD (sent before the first Init, so here by
 * now; nothing when run by hand): enter the cgroups of membership files (before anything could
 * fork), keep a network and a mount namespace for confinement to join (*netns_fd, *mntns_fd),
 * close anything else. NULL, or what failed: the worker then refuses to run, its parent counting
 * on the limits. */
static char *receive_handoff(int *netns_fd, int *mntns_fd, int *received, bool keep_socket)
{
    *netns_fd = *mntns_fd = -1;
    *received = 0;
    char byte;
    struct iovec iov = {.iov_base = &byte, .iov_len = 1};
    union {
        char buf[CMSG_SPACE(sizeof(int) * 4)];
        struct cmsghdr align;
    } ctl;
    struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf, .msg_controllen = sizeof ctl.buf};
    ssize_t got = recvmsg(ISOLATE_HANDOFF_FD, &m, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
    if (!keep_socket) close(ISOLATE_HANDOFF_FD); /* a fork server takes its requests there */
    if (got <= 0) return NULL;
    char *error = (m.msg_flags & MSG_CTRUNC) ? xstrdup("worker: its parent handed over more than it expects") : NULL;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
        size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        *received += (int)n;
        int fds[4];
        memcpy(fds, CMSG_DATA(c), sizeof(int) * (n < 4 ? n : 4));
        for (size_t i = 0; i < n && i < 4; i++) {
            if (*netns_fd < 0 && is_ns(fds[i], CLONE_NEWNET)) {
                *netns_fd = fds[i];
                continue;
            }
            if (*mntns_fd < 0 && is_ns(fds[i], CLONE_NEWNS)) {
                *mntns_fd = fds[i];
                continue;
            }
            if (!error && is_cgroup_file(fds[i]) && sandbox_cgroup_enter(fds[i]) != 0)
                error = xasprintf("worker: cannot enter its cgroup: %s", strerror(errno));
            close(fds[i]);
        }
    }
    return error;
}

/* Confine this process and tell the parent what was applied (the Isolation: banner, an Isolation
 * frame that gets no reply) before anything else happens. 0, or -1 after reporting the failure (the worker then ends). */
static int confine_and_report(const isolate_sandbox *sandbox, int shared_netns_fd, int parent_mntns_fd)
{
    json_t *report = NULL;
    char *error = NULL;
    if (isolate_confine(sandbox, shared_netns_fd, parent_mntns_fd, &report, &error) != 0) {
        char *m = xasprintf("sandbox: a required layer could not be applied: %s", error);
        fail_early(m);
        free(m);
        free(error);
        json_free(report);
        return -1;
    }
    json_t *hello = json_object();
    json_object_set(hello, "type", json_string("isolation"));
    json_object_set(hello, "report", report);
    /* One way: frames are read in order, so the report comes before anything else the worker
     * sends whether or not it waits (a round trip less per run). */
    char *io = NULL;
    int rc = frame_write(FD_OUT, hello, &io) != 0 ? -1 : 0;
    free(io);
    json_free(hello);
    return rc;
}

int worker_main(void)
{
    /* Nothing but the three pipes and the handoff socket may stay open (the supervisor already
     * closed the rest; this is belt and braces against a parent that forgot). */
    close_range(ISOLATE_HANDOFF_FD + 1, ~0u, 0);
    /* The supervisor starts us with every signal blocked (see spawn_child). */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    /* A parent gone mid-write is an error the worker reports and ends on, not a signal: and each
     * frame it writes is then one write, not a write inside a signal-mask dance (three syscalls
     * more per frame). Before confinement, which does not allow rt_sigaction. */
    frame_ignore_sigpipe();
    /* Intl's ICU library, before confinement: dlopen'd by `chidori __run-worker`, which could not
     * open it once confined; linked into chidori-worker, nothing is done now (ICU is set up on a
     * run's first use of Intl: docs/intl.md). */
    engine_intl_preload();

    json_t *init = NULL;
    char *error = NULL;
    if (frame_read(FD_IN, 0, &init, &error) != 0) {
        char *m = xasprintf("worker: no Init frame: %s", error);
        fail_early(m);
        free(m);
        return 1;
    }
    /* Before it can fork: into the run's cgroup slot; and the network and mount namespaces to join. */
    int shared_netns_fd, parent_mntns_fd, received;
    bool forkserver = isolate_init_is_forkserver(init);
    char *handoff_error = receive_handoff(&shared_netns_fd, &parent_mntns_fd, &received, forkserver);
    if (handoff_error) {
        fail_early(handoff_error);
        free(handoff_error);
        json_free(init);
        return 1;
    }
    /* chidori-worker is a binary of its own: it serves only the chidori it was built with. */
    if (!isolate_init_same_build(init)) {
        char *m = xasprintf("worker: this worker (build %s) is not from the build of chidori that started it; "
                            "install chidori and chidori-worker from one build", chidori_build_id);
        fail_early(m);
        free(m);
        json_free(init);
        return 1;
    }
    /* Everything the parent handed over arrived (its cgroup above all), or the worker does not run. */
    int handed = isolate_init_handed(init);
    if (handed != received) {
        char *m = xasprintf("worker: %d descriptors came on the handoff socket, its parent sent %d", received, handed);
        fail_early(m);
        free(m);
        json_free(init);
        return 1;
    }
    /* one run, then exit (arena.h): exec'd, or forked by a fork server (whose prepared engine, if
     * it has one, already holds its slot; a worker that builds its own gets a huge page) */
    if (!forkserver) arena_prefer_huge_pages();
    if (forkserver) {
        /* A fork server (forkserver.c): it returns here in each worker it forks, which then
         * starts over as a worker in its own right. */
        isolate_sandbox sandbox;
        int rc = isolate_warm_decode(init, &sandbox, &error);
        const char *selftest = json_string_value(json_object_get(init, "selftest"));
        if (parent_mntns_fd >= 0) close(parent_mntns_fd); /* a fork server makes its own, once */
        if (rc == 0) rc = forkserver_serve(&sandbox, shared_netns_fd, selftest, isolate_forkserver_own_engine(init), &error);
        json_free(init);
        if (rc == FORKSERVER_CHILD) return worker_main();
        if (rc != FORKSERVER_DONE) {
            char *m = xasprintf("fork server: %s", error);
            fail_early(m);
            free(m);
            free(error);
            return 1;
        }
        /* Done: it ends at once (under its filter, no exit-time work such as a leak check,
         * which would clone a tracer, may run). */
        _exit(0);
    }
    /* A warm worker (a server's pool) confines itself first, then waits for the Init of its run;
     * the sandbox of that Init is the one already applied. */
    bool warm = isolate_init_is_warm(init);
    if (warm) {
        isolate_sandbox sandbox;
        if (isolate_warm_decode(init, &sandbox, &error) != 0) {
            char *m = xasprintf("worker: bad warm Init frame: %s", error);
            fail_early(m);
            free(m);
            free(error);
            json_free(init);
            return 1;
        }
        json_free(init);
        init = NULL;
        if (confine_and_report(&sandbox, shared_netns_fd, parent_mntns_fd) != 0) return 1;
        /* While it waits: the engine its run will need, so that the run does not wait for it.
         * Forked from a fork server that prepared one, that is copying its pages now rather
         * than at a fault each during the run; otherwise building one (docs/http-api.md, "Warm
         * workers"). After confinement: the pages are charged to this worker's cgroup. */
        if (!engine_prepared_copy_ahead()) engine_prepare();
        if (frame_read(FD_IN, 0, &init, &error) != 0) {
            /* the pool let this worker go without a run: nothing to report */
            free(error);
            return 0;
        }
    }
    isolate_init in;
    if (isolate_init_decode(init, &in, &error) != 0) {
        char *m = xasprintf("worker: bad Init frame: %s", error);
        fail_early(m);
        free(m);
        json_free(init);
        return 1;
    }
    if (!warm && confine_and_report(&in.sandbox, shared_netns_fd, parent_mntns_fd) != 0) {
        isolate_init_clear(&in);
        json_free(init);
        return 1;
    }

    if (in.selftest && !strncmp(in.selftest, "frame_", 6)) {
        /* Test-only: behave as a compromised worker would, to prove the parent survives it. */
        hostile_frames(in.selftest);
        isolate_init_clear(&in);
        json_free(init);
        return 0;
    }
    if (in.selftest && !strncmp(in.selftest, "hang_", 5)) {
        /* Test-only: a run whose engine never polls, as one stuck in a builtin would be (or a
         * compromised worker): only the supervisor's backstop can end it (tests/cases_isolate_backstop.py). */
        hang(in.selftest);
        isolate_init_clear(&in);
        json_free(init);
        return 0;
    }
    ahead_stats = in.selftest && !strcmp(in.selftest, "ahead_stats");
    if (in.selftest && *in.selftest && !ahead_stats) {
        /* Test-only: one forbidden act, tried by a confined worker (tests/cases_isolation.py). */
        char *outcome = isolate_selftest(in.selftest);
        engine_result res = {.status = RUN_COMPLETED, .output_json = outcome};
        send_done(&res);
        free(outcome);
        isolate_init_clear(&in);
        json_free(init);
        return 0;
    }

    trace_init = &in;
    in.config.seam = (engine_seam){.call = broker_call, .internal = broker_internal, .meter = broker_meter};
    in.config.on_result = done_before_teardown;
    in.config.exit_after = true; /* a disposable worker: one run, then exit */
    engine_result res;
    engine_run(&in.config, &res);
    if (!done_sent) send_done(&res); /* it ended before it had a runtime to tear down */
    engine_result_free(&res);
    trace_init = NULL;
    isolate_init_clear(&in);
    json_free(init);
    return 0;
}

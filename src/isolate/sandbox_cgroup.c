/* sandbox_cgroup.c — the parent-side per-run cgroup: a memory ceiling (and pids.max) for one
 * worker, v2 when a delegated cgroup2 subtree with the memory and pids controllers exists, else the
 * v1 memory/pids hierarchies, else skipped with the reason (see sandbox_linux.h for the one
 * operator step that delegates a v2 subtree).
 *
 * A run does not make and remove a cgroup: it claims a slot, a cgroup directory `slot-<n>` under
 * chidori's, that stays between runs. Removing a cgroup hands its teardown to a kernel worker that
 * holds the cgroup lock, and the next run's mkdir waited for it (measured: a run's cgroup took
 * 0.5 ms at the median and 8 ms at p90 back to back). A slot is held by an exclusive flock on its
 * directory for as long as the run lasts, so two processes never share one and a killed supervisor
 * lets go of its slot when it dies; a slot that still holds a process (a worker of a killed
 * supervisor, dying) is skipped. Each claim sets the limits afresh and takes the OOM counter as
 * its baseline.
 *
 * Nor does the parent move the worker in: moving another process (a write of its pid) takes the
 * kernel's global threadgroup lock for writing, which first waits for an RCU grace period whenever
 * no move happened lately — 7.5 to 15 ms here, most of a cold run. The parent opens the slot's
 * membership file (v1 `tasks`, v2 `cgroup.procs`), the worker gets the descriptor and writes "0"
 * to it first thing: a thread moving itself through `tasks` needs no such lock (v2 still takes it).
 * The write is checked against the opener's credentials, the parent's.
 */
#define _GNU_SOURCE
#include "isolate/sandbox_linux.h"

#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#define CGROUP2_MAGIC 0x63677270

static long long field(const char *text, const char *key);
static long long oom_count(const sandbox_cgroup *cg);
static void open_counters(sandbox_cgroup *cg);
static int claim_slot(const char *parent, char *dir, size_t dirlen);
static void unlock(int *lock);
static void sandbox_cgroup_close_join(sandbox_cgroup *cg);
static int set_limits(sandbox_cgroup *cg, uint64_t memory_bytes, int pids_max);
static int v1_claim(const char *ctrl, char *out, size_t outlen);
static int cg_open_membership(const char *dir, const char *file);

static int cg_write(const char *dir, const char *file, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    return sandbox_write_file(path, text);
}

static int cg_read(const char *dir, const char *file, char *out, size_t cap)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    return sandbox_read_file(path, out, cap);
}

static bool has_word(const char *list, const char *word)
{
    size_t wl = strlen(word);
    for (const char *p = list; (p = strstr(p, word)); p += wl)
        if ((p == list || p[-1] == ' ' || p[-1] == '\n') && (p[wl] == 0 || p[wl] == ' ' || p[wl] == '\n')) return true;
    return false;
}

static bool file_exists(const char *dir, const char *file)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    return access(path, F_OK) == 0;
}

static void set_status(sandbox_cgroup *cg, bool applied, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_status(sandbox_cgroup *cg, bool applied, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cg->status.applied = applied;
    vsnprintf(cg->status.detail, sizeof cg->status.detail, fmt, ap);
    va_end(ap);
}

/* ---------- slots ---------- */

#define SLOTS_MAX 512

static void unlock(int *lock)
{
    if (*lock >= 0) close(*lock); /* closing the directory drops its flock */
    *lock = -1;
}

/* A slot is free for a run when no process is in it, and none counts against its pids limit: an
 * exited task that nobody has reaped yet (an orphaned worker of a killed supervisor, waiting for
 * init) has left cgroup.procs but is still in pids.current. */
static bool holds_processes(const char *dir)
{
    char text[32];
    if (cg_read(dir, "cgroup.procs", text, sizeof text) != 0) return true; /* not empty, or unreadable */
    int n = cg_read(dir, "pids.current", text, sizeof text);
    return n > 0 && atoll(text) != 0;
}

/* Claim the lowest free slot-<n> under parent (made when missing): the locked directory's
 * descriptor and its path in dir, or -1 with errno. (Trying a held slot costs an open and a
 * flock: a few microseconds.) */
static int claim_slot(const char *parent, char *dir, size_t dirlen)
{
    for (unsigned i = 0; i < SLOTS_MAX; i++) {
        snprintf(dir, dirlen, "%s/slot-%u", parent, i);
        int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0 && errno == ENOENT && (mkdir(dir, 0755) == 0 || errno == EEXIST))
            fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0) {
            if (errno == ENOENT || errno == EEXIST) continue;
            return -1;
        }
        if (flock(fd, LOCK_EX | LOCK_NB) == 0 && !holds_processes(dir)) return fd;
        close(fd);
    }
    dir[0] = 0;
    errno = EBUSY;
    return -1;
}

/* The slot's membership file, opened for the worker to write "0" to (see the header). */
static int cg_open_membership(const char *dir, const char *file)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    return open(path, O_WRONLY | O_CLOEXEC);
}

static void sandbox_cgroup_close_join(sandbox_cgroup *cg)
{
    for (int i = 0; i < 2; i++) {
        if (cg->join[i] >= 0) close(cg->join[i]);
        cg->join[i] = -1;
    }
}

int sandbox_cgroup_enter(int membership_fd)
{
    return write(membership_fd, "0", 1) == 1 ? 0 : -1;
}

/* Set a claimed slot's limits (cg->version says which files), skipping those this process already
 * wrote into it (a slot it kept between runs, see below: no other chidori can have used it
 * meanwhile, and only root can write a cgroup's files, no worker), and take the OOM count as the
 * run's baseline. 0, or -1 with errno when the memory
 * ceiling cannot be set. */
static int set_limits(sandbox_cgroup *cg, uint64_t memory_bytes, int pids_max)
{
    char num[32];
    snprintf(num, sizeof num, "%llu", (unsigned long long)memory_bytes);
    bool memory_new = !cg->limits_set || cg->memory_set != memory_bytes;
    bool pids_new = !cg->limits_set || cg->pids_set != pids_max;
    cg->limits_set = false;
    if (cg->version == 2) {
        if (memory_new) {
            if (cg_write(cg->dir, "memory.max", memory_bytes ? num : "max") < 0) return -1;
            if (file_exists(cg->dir, "memory.swap.max")) cg_write(cg->dir, "memory.swap.max", memory_bytes ? "0" : "max");
            cg_write(cg->dir, "memory.oom.group", "1");
        }
        snprintf(num, sizeof num, "%d", pids_max);
        if (pids_new && cg_write(cg->dir, "pids.max", pids_max > 0 ? num : "max") < 0) return -1;
    } else {
        if (memory_new) {
            /* memory+swap = memory: no swapping past the ceiling (the file exists only with swap
             * accounting; it must stay >= the memory limit, so it is raised first and lowered after). */
            bool memsw = file_exists(cg->dir, "memory.memsw.limit_in_bytes");
            if (memsw) cg_write(cg->dir, "memory.memsw.limit_in_bytes", "-1");
            if (cg_write(cg->dir, "memory.limit_in_bytes", memory_bytes ? num : "-1") < 0) return -1;
            if (memsw && memory_bytes) cg_write(cg->dir, "memory.memsw.limit_in_bytes", num);
            cg_write(cg->dir, "memory.swappiness", "0");
        }
        if (pids_max > 0 && !cg->pids_dir[0]) {
            /* none was free when this slot was first claimed (or it was let go): try again */
            if ((cg->pids_lock = v1_claim("pids", cg->pids_dir, sizeof cg->pids_dir)) >= 0 &&
                (cg->join[1] = cg_open_membership(cg->pids_dir, "tasks")) < 0) {
                unlock(&cg->pids_lock);
            }
            if (cg->pids_lock < 0) cg->pids_dir[0] = 0;
            pids_new = true;
        }
        if (pids_new && cg->pids_dir[0]) {
            snprintf(num, sizeof num, "%d", pids_max);
            if (cg_write(cg->pids_dir, "pids.max", pids_max > 0 ? num : "max") < 0) {
                close(cg->join[1]);
                cg->join[1] = -1;
                if (cg->count_fd >= 0) close(cg->count_fd); /* that slot's */
                cg->count_fd = -1;
                unlock(&cg->pids_lock);
                cg->pids_dir[0] = 0;
            }
        }
    }
    open_counters(cg);
    cg->oom_base = oom_count(cg);
    if (cg->oom_base < 0 && cg->version == 1) cg_write(cg->dir, "memory.failcnt", "0"); /* what tells then */
    cg->memory_set = memory_bytes;
    cg->pids_set = pids_max;
    cg->limits_set = true;
    return 0;
}

/* The cgroup2 mount, or NULL. */
static const char *cgroup2_mount(void)
{
    static const char *const cands[] = {"/sys/fs/cgroup", "/sys/fs/cgroup/unified"};
    for (size_t i = 0; i < 2; i++) {
        struct statfs sf;
        if (statfs(cands[i], &sf) == 0 && (unsigned long)sf.f_type == CGROUP2_MAGIC) return cands[i];
    }
    return NULL;
}

/* A claimed slot's limits and its membership file (membership: "cgroup.procs" or "tasks") for the
 * worker to enter by; on failure the slot is let go and why says so. */
static int set_up_slot(sandbox_cgroup *cg, uint64_t memory_bytes, int pids_max, const char *membership, char *why,
                       size_t whylen)
{
    if (set_limits(cg, memory_bytes, pids_max) == 0 && (cg->join[0] = cg_open_membership(cg->dir, membership)) >= 0)
        return 0;
    snprintf(why, whylen, "cgroup v%d %.150s: %s", cg->version, cg->dir, strerror(errno));
    sandbox_cgroup_forget(cg);
    return -1;
}

static int try_v2(const char *delegated, uint64_t memory_bytes, int pids_max, sandbox_cgroup *cg, char *why, size_t whylen)
{
    const char *mnt = cgroup2_mount();
    if (!mnt) {
        snprintf(why, whylen, "no cgroup2 mount");
        return -1;
    }
    char root[256];
    if (delegated && *delegated) {
        snprintf(root, sizeof root, "%s", delegated);
    } else {
        snprintf(root, sizeof root, "%s/chidori", mnt);
    }
    char ctl[512];
    if (cg_read(mnt, "cgroup.controllers", ctl, sizeof ctl) < 0 || !has_word(ctl, "memory") || !has_word(ctl, "pids")) {
        snprintf(why, whylen, "cgroup2 at %s has no memory/pids controllers (bound to v1)", mnt);
        return -1;
    }
    if (access(root, F_OK) != 0) {
        if (mkdir(root, 0755) < 0) {
            snprintf(why, whylen, "no delegated cgroup2 directory %.150s (%s)", root, strerror(errno));
            return -1;
        }
    }
    /* The delegated directory must pass memory and pids down to its children. */
    if (cg_read(root, "cgroup.subtree_control", ctl, sizeof ctl) < 0 || !has_word(ctl, "memory") || !has_word(ctl, "pids")) {
        char parent[256];
        snprintf(parent, sizeof parent, "%s", root);
        char *slash = strrchr(parent, '/');
        if (slash && slash != parent) {
            *slash = 0;
            cg_write(parent, "cgroup.subtree_control", "+memory +pids");
        }
        if (cg_write(root, "cgroup.subtree_control", "+memory +pids") < 0) {
            snprintf(why, whylen, "cannot enable memory/pids in %.150s: %s", root, strerror(errno));
            return -1;
        }
    }
    cg->lock = claim_slot(root, cg->dir, sizeof cg->dir);
    if (cg->lock < 0) {
        snprintf(why, whylen, "no free cgroup slot in %.150s (%s)", root, strerror(errno));
        return -1;
    }
    cg->version = 2;
    return set_up_slot(cg, memory_bytes, pids_max, "cgroup.procs", why, whylen);
}

/* chidori/ in the v1 hierarchy of ctrl, and a slot claimed in it: its lock, or -1. */
static int v1_claim(const char *ctrl, char *out, size_t outlen)
{
    char base[128];
    snprintf(base, sizeof base, "/sys/fs/cgroup/%s", ctrl);
    struct statfs sf;
    if (statfs(base, &sf) != 0 || (unsigned long)sf.f_type == CGROUP2_MAGIC) return -1;
    char parent[160];
    snprintf(parent, sizeof parent, "%s/chidori", base);
    if (mkdir(parent, 0755) < 0 && errno != EEXIST) return -1;
    return claim_slot(parent, out, outlen);
}

static int try_v1(uint64_t memory_bytes, int pids_max, sandbox_cgroup *cg, char *why, size_t whylen)
{
    cg->lock = v1_claim("memory", cg->dir, sizeof cg->dir);
    if (cg->lock < 0) {
        snprintf(why, whylen, "no writable cgroup v1 memory hierarchy (%s)", strerror(errno));
        return -1;
    }
    cg->version = 1;
    if (pids_max > 0 && (cg->pids_lock = v1_claim("pids", cg->pids_dir, sizeof cg->pids_dir)) >= 0) {
        if ((cg->join[1] = cg_open_membership(cg->pids_dir, "tasks")) < 0) {
            unlock(&cg->pids_lock);
            cg->pids_dir[0] = 0;
        }
    } else {
        cg->pids_dir[0] = 0;
    }
    return set_up_slot(cg, memory_bytes, pids_max, "tasks", why, whylen);
}

/* ---------- slots kept between runs ---------- */

/* A process that runs one worker after another (a server) keeps the slots it lets go of, locked
 * and with their membership files open, and claims from them first: finding a free slot (a scan
 * from slot-0 of an open and an flock per held slot, in each hierarchy), setting its limits and
 * opening its files had become most of the server's own work per session. A kept slot stays this
 * process's (its flock held) until reused or this process ends; one a dying worker still occupies
 * is passed over until it is empty. */
#define KEPT_MAX 64
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;
static sandbox_cgroup kept[KEPT_MAX];
static int kept_n;

/* A kept slot is empty when its pids count is 0 (which counts every process in it, unreaped ones
 * too: one read); without a pids controller, when its cgroup.procs is. */
static bool slot_is_empty(const sandbox_cgroup *cg)
{
    char text[32];
    errno = 0;
    if (cg->count_fd >= 0) {
        ssize_t n = pread(cg->count_fd, text, sizeof text - 1, 0);
        if (n > 0) {
            text[n] = 0;
            return atoll(text) == 0;
        }
        if (n == 0 || errno == ENODEV) errno = ENOENT; /* its cgroup was removed */
        return false;
    }
    return !holds_processes(cg->dir);
}

#define KEPT_BUSY_MAX 100 /* claims a kept slot may be found occupied before it is let go */

static bool claim_kept(uint64_t memory_bytes, int pids_max, sandbox_cgroup *cg)
{
    pthread_mutex_lock(&kept_lock);
    for (int i = kept_n - 1; i >= 0; i--) {
        if (!slot_is_empty(&kept[i])) {
            /* still dying, or gone from under us (removed, or a process nobody reaps): after a
             * while it is let go, and a fresh scan passes over it for as long as it is busy */
            if (errno == ENOENT || ++kept[i].busy_claims >= KEPT_BUSY_MAX) {
                sandbox_cgroup_forget(&kept[i]);
                kept[i] = kept[--kept_n];
            }
            continue;
        }
        kept[i].busy_claims = 0;
        *cg = kept[i];
        kept[i] = kept[--kept_n];
        pthread_mutex_unlock(&kept_lock);
        if (set_limits(cg, memory_bytes, pids_max) == 0) return true;
        sandbox_cgroup_forget(cg); /* a slot whose ceiling cannot be set is let go for good */
        return false;
    }
    pthread_mutex_unlock(&kept_lock);
    return false;
}

int sandbox_cgroup_claim(const char *delegated, uint64_t memory_bytes, int pids_max, sandbox_cgroup *cg)
{
    *cg = (sandbox_cgroup)SANDBOX_CGROUP_NONE;
    if (claim_kept(memory_bytes, pids_max, cg)) return 0;
    *cg = (sandbox_cgroup)SANDBOX_CGROUP_NONE;
    char why2[200] = "", why1[200] = "";
    if (try_v2(delegated, memory_bytes, pids_max, cg, why2, sizeof why2) == 0) {
        set_status(cg, true, "v2 memory=%llu MiB%s", (unsigned long long)(memory_bytes >> 20), pids_max > 0 ? ", pids" : "");
        return 0;
    }
    if (try_v1(memory_bytes, pids_max, cg, why1, sizeof why1) == 0) {
        set_status(cg, true, "v1 memory=%llu MiB%s", (unsigned long long)(memory_bytes >> 20), cg->pids_dir[0] ? ", pids" : "");
        return 0;
    }
    set_status(cg, false, "%.79s, and %.74s", why2, why1);
    return -1;
}

static long long field(const char *text, const char *key)
{
    size_t kl = strlen(key);
    for (const char *p = text; p && *p;) {
        if (strncmp(p, key, kl) == 0 && p[kl] == ' ') return atoll(p + kl + 1);
        p = strchr(p, '\n');
        if (p) p++;
    }
    return -1;
}

/* The OOM killer's count in a cgroup (memory.events oom_kill on v2, memory.oom_control oom_kill
 * on v1; -1 when the kernel does not say: then memory.failcnt, reset at each claim, tells). */
static long long oom_count(const sandbox_cgroup *cg)
{
    char text[1024];
    ssize_t n = cg->oom_fd >= 0 ? pread(cg->oom_fd, text, sizeof text - 1, 0) : -1;
    if (n < 0) return -1;
    text[n] = 0;
    return field(text, "oom_kill");
}

/* The slot's files read at every claim, opened once while it is held (a read of an open kernfs
 * file at offset 0 is fresh each time; opening one is the costly part). */
static void open_counters(sandbox_cgroup *cg)
{
    char path[512];
    if (cg->oom_fd < 0) {
        snprintf(path, sizeof path, "%s/%s", cg->dir, cg->version == 2 ? "memory.events" : "memory.oom_control");
        cg->oom_fd = open(path, O_RDONLY | O_CLOEXEC);
    }
    const char *pids = cg->pids_dir[0] ? cg->pids_dir : cg->version == 2 ? cg->dir : NULL;
    if (cg->count_fd < 0 && pids) {
        snprintf(path, sizeof path, "%s/pids.current", pids);
        cg->count_fd = open(path, O_RDONLY | O_CLOEXEC);
    }
}

bool sandbox_cgroup_oom_killed(const sandbox_cgroup *cg)
{
    if (!cg->version) return false;
    long long now = oom_count(cg);
    if (now >= 0 && cg->oom_base >= 0) return now > cg->oom_base;
    char text[64];
    return cg->version == 1 && cg_read(cg->dir, "memory.failcnt", text, sizeof text) >= 0 && atoll(text) > 0;
}

static void kill_members(const char *dir)
{
    char text[4096];
    if (cg_read(dir, "cgroup.procs", text, sizeof text) < 0) return;
    for (char *p = text; *p;) {
        long pid = strtol(p, &p, 10);
        if (pid > 0) kill((pid_t)pid, SIGKILL);
        while (*p == '\n' || *p == ' ') p++;
        if (*p && (*p < '0' || *p > '9')) break;
    }
}

void sandbox_cgroup_destroy(sandbox_cgroup *cg)
{
    if (cg->version == 2 && cg->dir[0]) {
        if (!file_exists(cg->dir, "cgroup.kill") || cg_write(cg->dir, "cgroup.kill", "1") < 0) kill_members(cg->dir);
    } else if (cg->version == 1) {
        if (cg->dir[0]) kill_members(cg->dir);
        if (cg->pids_dir[0]) kill_members(cg->pids_dir);
    }
    sandbox_cgroup_release(cg);
}

/* Let go of the slots for good (a process still dying in one makes the next claimer skip it
 * until it is gone). */
void sandbox_cgroup_forget(sandbox_cgroup *cg)
{
    if (cg->count_fd >= 0) close(cg->count_fd);
    if (cg->oom_fd >= 0) close(cg->oom_fd);
    cg->count_fd = cg->oom_fd = -1;
    sandbox_cgroup_close_join(cg);
    unlock(&cg->lock);
    unlock(&cg->pids_lock);
    cg->version = 0;
    cg->limits_set = false;
    cg->dir[0] = cg->pids_dir[0] = 0;
}

/* After the run: keep the slots for this process's next run (see above), or let go of them. */
void sandbox_cgroup_release(sandbox_cgroup *cg)
{
    if (cg->version && cg->join[0] >= 0) {
        pthread_mutex_lock(&kept_lock);
        bool keep = kept_n < KEPT_MAX;
        if (keep) kept[kept_n++] = *cg;
        pthread_mutex_unlock(&kept_lock);
        if (keep) {
            *cg = (sandbox_cgroup)SANDBOX_CGROUP_NONE;
            return;
        }
    }
    sandbox_cgroup_forget(cg);
}

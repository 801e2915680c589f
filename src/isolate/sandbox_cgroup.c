/* sandbox_cgroup.c — the parent-side per-run cgroup: a memory ceiling (and pids.max) for one
 * worker, v2 when a delegated cgroup2 subtree with the memory and pids controllers exists, else the
 * v1 memory/pids hierarchies, else skipped with the reason (see sandbox_linux.h for the one
 * operator step that delegates a v2 subtree). */
#define _GNU_SOURCE
#include "isolate/sandbox_linux.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#define CGROUP2_MAGIC 0x63677270

static void sweep_stale(const char *parent);

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
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = read(fd, out, cap - 1);
    close(fd);
    if (n < 0) return -1;
    out[n] = 0;
    return (int)n;
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

static int try_v2(pid_t pid, uint64_t memory_bytes, int pids_max, sandbox_cgroup *cg, char *why, size_t whylen)
{
    const char *mnt = cgroup2_mount();
    if (!mnt) {
        snprintf(why, whylen, "no cgroup2 mount");
        return -1;
    }
    char root[256];
    const char *env = getenv("CHIDORI_ISOLATE_CGROUP");
    if (env && *env) {
        snprintf(root, sizeof root, "%s", env);
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
    sweep_stale(root);
    snprintf(cg->dir, sizeof cg->dir, "%.200s/run-%d", root, (int)pid);
    if (mkdir(cg->dir, 0755) < 0 && errno != EEXIST) {
        snprintf(why, whylen, "mkdir %.150s: %s", cg->dir, strerror(errno));
        cg->dir[0] = 0;
        return -1;
    }
    char num[32];
    snprintf(num, sizeof num, "%llu", (unsigned long long)memory_bytes);
    if (memory_bytes && cg_write(cg->dir, "memory.max", num) < 0) goto fail;
    if (memory_bytes && file_exists(cg->dir, "memory.swap.max")) cg_write(cg->dir, "memory.swap.max", "0");
    cg_write(cg->dir, "memory.oom.group", "1");
    if (pids_max > 0) {
        snprintf(num, sizeof num, "%d", pids_max);
        if (cg_write(cg->dir, "pids.max", num) < 0) goto fail;
    }
    snprintf(num, sizeof num, "%d", (int)pid);
    if (cg_write(cg->dir, "cgroup.procs", num) < 0) goto fail;
    cg->version = 2;
    return 0;
fail:
    snprintf(why, whylen, "cgroup v2 %.150s: %s", cg->dir, strerror(errno));
    rmdir(cg->dir);
    cg->dir[0] = 0;
    return -1;
}

/* chidori: a supervisor killed with SIGKILL cannot remove its run's cgroup. Before creating one,
 * remove the leftovers: a run-<pid> directory whose worker no longer exists (a live run's worker
 * does, so its cgroup is never touched; rmdir refuses a cgroup that still holds tasks anyway). */
/* Alive: exists and is not a zombie (an orphaned zombie may wait a while for its reaper). */
static bool worker_alive(pid_t pid)
{
    if (kill(pid, 0) != 0 && errno == ESRCH) return false;
    char path[64], stat[256];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "re");
    if (!f) return errno != ENOENT;
    size_t n = fread(stat, 1, sizeof stat - 1, f);
    fclose(f);
    stat[n] = 0;
    const char *close_paren = strrchr(stat, ')'); /* the state follows the command name */
    return !(close_paren && close_paren[1] == ' ' && close_paren[2] == 'Z');
}

/* A server creates a cgroup per run, many per second; its own are removed when each run ends,
 * so leftovers come only from a supervisor that was killed. Sweep each parent directory when this
 * process first uses it and then at most every SWEEP_EVERY_S seconds. */
#define SWEEP_EVERY_S 10
static bool sweep_due(const char *parent)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static struct { char parent[160]; time_t last; } seen[4];
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    bool due = true;
    pthread_mutex_lock(&lock);
    size_t i = 0;
    while (i < sizeof seen / sizeof seen[0] && seen[i].parent[0] && strcmp(seen[i].parent, parent) != 0) i++;
    if (i < sizeof seen / sizeof seen[0]) {
        if (seen[i].parent[0] && now.tv_sec - seen[i].last < SWEEP_EVERY_S) due = false;
        else snprintf(seen[i].parent, sizeof seen[i].parent, "%s", parent), seen[i].last = now.tv_sec;
    }
    pthread_mutex_unlock(&lock);
    return due;
}

static void sweep_stale(const char *parent)
{
    if (!sweep_due(parent)) return;
    DIR *d = opendir(parent);
    if (!d) return;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (strncmp(de->d_name, "run-", 4) != 0) continue;
        char *end;
        long pid = strtol(de->d_name + 4, &end, 10);
        if (*end || pid <= 0 || worker_alive((pid_t)pid)) continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", parent, de->d_name);
        rmdir(path);
    }
    closedir(d);
}

static int v1_make(const char *ctrl, pid_t pid, char *out, size_t outlen)
{
    char base[128];
    snprintf(base, sizeof base, "/sys/fs/cgroup/%s", ctrl);
    struct statfs sf;
    if (statfs(base, &sf) != 0 || (unsigned long)sf.f_type == CGROUP2_MAGIC) return -1;
    char parent[160];
    snprintf(parent, sizeof parent, "%s/chidori", base);
    if (mkdir(parent, 0755) < 0 && errno != EEXIST) return -1;
    sweep_stale(parent);
    snprintf(out, outlen, "%s/run-%d", parent, (int)pid);
    if (mkdir(out, 0755) < 0 && errno != EEXIST) {
        out[0] = 0;
        return -1;
    }
    return 0;
}

static int try_v1(pid_t pid, uint64_t memory_bytes, int pids_max, sandbox_cgroup *cg, char *why, size_t whylen)
{
    if (v1_make("memory", pid, cg->dir, sizeof cg->dir) < 0) {
        snprintf(why, whylen, "no writable cgroup v1 memory hierarchy (%s)", strerror(errno));
        return -1;
    }
    char num[32];
    snprintf(num, sizeof num, "%llu", (unsigned long long)memory_bytes);
    if (memory_bytes && cg_write(cg->dir, "memory.limit_in_bytes", num) < 0) goto fail;
    /* memory+swap = memory: no swapping past the ceiling (the file exists only with swap
     * accounting). */
    if (memory_bytes && file_exists(cg->dir, "memory.memsw.limit_in_bytes")) cg_write(cg->dir, "memory.memsw.limit_in_bytes", num);
    cg_write(cg->dir, "memory.swappiness", "0");
    snprintf(num, sizeof num, "%d", (int)pid);
    if (cg_write(cg->dir, "cgroup.procs", num) < 0) goto fail;
    if (pids_max > 0 && v1_make("pids", pid, cg->pids_dir, sizeof cg->pids_dir) == 0) {
        char lim[32];
        snprintf(lim, sizeof lim, "%d", pids_max);
        if (cg_write(cg->pids_dir, "pids.max", lim) < 0 || cg_write(cg->pids_dir, "cgroup.procs", num) < 0) {
            rmdir(cg->pids_dir);
            cg->pids_dir[0] = 0;
        }
    }
    cg->version = 1;
    return 0;
fail:
    snprintf(why, whylen, "cgroup v1 %.150s: %s", cg->dir, strerror(errno));
    rmdir(cg->dir);
    cg->dir[0] = 0;
    return -1;
}

int sandbox_cgroup_create(pid_t pid, uint64_t memory_bytes, int pids_max, sandbox_cgroup *cg)
{
    memset(cg, 0, sizeof *cg);
    char why2[200] = "", why1[200] = "";
    if (try_v2(pid, memory_bytes, pids_max, cg, why2, sizeof why2) == 0) {
        set_status(cg, true, "v2 memory=%llu MiB%s", (unsigned long long)(memory_bytes >> 20), pids_max > 0 ? ", pids" : "");
        return 0;
    }
    if (try_v1(pid, memory_bytes, pids_max, cg, why1, sizeof why1) == 0) {
        set_status(cg, true, "v1 memory=%llu MiB%s", (unsigned long long)(memory_bytes >> 20), cg->pids_dir[0] ? ", pids" : "");
        return 0;
    }
    set_status(cg, false, "%.75s; %.75s", why2, why1);
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

bool sandbox_cgroup_oom_killed(const sandbox_cgroup *cg)
{
    char text[1024];
    if (cg->version == 2) {
        if (cg_read(cg->dir, "memory.events", text, sizeof text) < 0) return false;
        return field(text, "oom_kill") > 0;
    }
    if (cg->version == 1) {
        if (cg_read(cg->dir, "memory.oom_control", text, sizeof text) >= 0) {
            long long k = field(text, "oom_kill");
            if (k >= 0) return k > 0;
        }
        if (cg_read(cg->dir, "memory.failcnt", text, sizeof text) >= 0) return atoll(text) > 0;
    }
    return false;
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

static void remove_dir(const char *dir)
{
    for (int i = 0; i < 200; i++) {
        if (rmdir(dir) == 0 || errno == ENOENT) return;
        if (errno != EBUSY) return;
        struct timespec ts = {0, 5 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

void sandbox_cgroup_destroy(sandbox_cgroup *cg)
{
    if (cg->version == 2 && cg->dir[0]) {
        if (!file_exists(cg->dir, "cgroup.kill") || cg_write(cg->dir, "cgroup.kill", "1") < 0) kill_members(cg->dir);
        remove_dir(cg->dir);
    } else if (cg->version == 1) {
        if (cg->dir[0]) {
            kill_members(cg->dir);
            remove_dir(cg->dir);
        }
        if (cg->pids_dir[0]) {
            kill_members(cg->pids_dir);
            remove_dir(cg->pids_dir);
        }
    }
    cg->version = 0;
    cg->dir[0] = cg->pids_dir[0] = 0;
}

/* chidori: after a run whose outcome is already known: one rmdir attempt per directory, no
 * waiting. A cgroup still busy with a dying worker is left for sweep_stale in a later run. */
void sandbox_cgroup_release(sandbox_cgroup *cg)
{
    if (cg->version && cg->dir[0]) rmdir(cg->dir);
    if (cg->version == 1 && cg->pids_dir[0]) rmdir(cg->pids_dir);
    cg->version = 0;
    cg->dir[0] = cg->pids_dir[0] = 0;
}

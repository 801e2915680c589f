/* manifest.c — a run's snapshot manifest, built and compared (see manifest.h).
 *
 * Owns the manifest's shape and the resume check's verdict. Reads the agent's entry file (capped,
 * MANIFEST_SOURCE_MAX_BYTES) to hash it, and, for a resume, the modules a recorded manifest lists
 * (opened beneath the project folder only, as the loader opened them); trusts a recorded manifest
 * for nothing but comparison: a key that is missing or of another type compares as changed.
 */
#define _GNU_SOURCE
#include "runner/manifest.h"
#include "host/host_internal.h"
#include "settings/settings.h"
#include "util/rfc3339.h"
#include "util/buf.h"
#include "util/files.h"
#include "util/fnv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* The ABI of this runtime's recordings: a run replays its log from the top (there is no VM image),
 * so quickjs_snapshot is 0; raise typescript_runtime when a recording stops replaying here. */
#define ABI_TYPESCRIPT_RUNTIME 1
#define ABI_QUICKJS_SNAPSHOT 0
#define ABI_ENGINE_FORK "chidori-quickjs"

void manifest_fnv1a64(const void *bytes, size_t n, char out[25])
{
    fnv1a64_text(fnv1a64_update(FNV1A64_INIT, bytes, n), out);
}

static const char *text_at_entry(const json_t *m)
{
    return json_string_value(json_object_get(json_object_get(m, "entry"), "path"));
}

static void set_seed(json_t *policy, uint64_t seed)
{
    char text[40];
    snprintf(text, sizeof text, "seed:%016llx", (unsigned long long)seed);
    json_object_set(policy, "deterministic_seed", json_string(text));
}

static json_t *iso_time(int64_t ms)
{
    char text[RFC3339_MAX];
    rfc3339_format_ms(ms, text);
    return json_string(text);
}

static const char *or_default(const char *v, const char *def) { return v && *v ? v : def; }

/* The captured surface, under the original's policy names (our values). */
static json_t *policy_of(const surface_settings *s, uint64_t seed)
{
    json_t *p = json_object();
    json_object_set(p, "typescript_imports", json_string("project"));
    json_object_set(p, "date", json_string(or_default(s ? s->date : NULL, "virtual")));
    json_object_set(p, "random", json_string(or_default(s ? s->random : NULL, "seeded")));
    json_object_set(p, "timers", json_string(or_default(s ? s->timers : NULL, "virtual")));
    json_object_set(p, "crypto", json_string(or_default(s ? s->crypto : NULL, "captured")));
    json_object_set(p, "fs", json_string(or_default(s ? s->fs : NULL, "vfs")));
    if (s && s->vfs_seed_sha256[0]) json_object_set(p, "vfs_seed_sha256", json_string(s->vfs_seed_sha256));
    set_seed(p, seed);
    return p;
}

/* A copy of object o without the keys named (NULL-terminated). */
static json_t *without(const json_t *o, const char *const *keys)
{
    json_t *c = json_object();
    for (size_t i = 0; json_is_object(o) && i < o->u.object.len; i++) {
        const char *k = o->u.object.items[i].key;
        bool drop = false;
        for (size_t j = 0; keys[j] && !drop; j++) drop = !strcmp(k, keys[j]);
        if (!drop) json_object_set(c, k, json_copy(o->u.object.items[i].value));
    }
    return c;
}

/* The graph of a run whose imports are not known yet: its entry alone, imports null. */
static json_t *entry_graph(const char *entry)
{
    json_t *graph = json_array(), *node = json_object();
    json_object_set(node, "path", json_string(entry));
    json_object_set(node, "imports", json_null());
    json_array_push(graph, node);
    return graph;
}

/* FNV-1a 64 of the file at rel beneath the project (open_beneath: no absolute path, no `..`, no
 * symlink leading out), read in chunks: "missing" when it cannot be opened or is not a regular
 * file, "unchecked" for a path that is not one the loader serves or a file past the size cap. */
static void hash_beneath(int root_fd, const char *root, const json_t *p, char out[FNV1A64_TEXT_LEN])
{
    const char *rel = json_string_value(p);
    if (!rel || strlen(rel) != p->u.string.len || !path_is_confined(rel, p->u.string.len)) {
        snprintf(out, FNV1A64_TEXT_LEN, "unchecked");
        return;
    }
    int fd = root_fd < 0 ? -1 : open_beneath(root_fd, root, rel, O_RDONLY | O_NONBLOCK | O_NOCTTY, 0);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(out, FNV1A64_TEXT_LEN, "missing");
        if (fd >= 0) close(fd);
        return;
    }
    uint64_t h = FNV1A64_INIT, total = 0;
    char chunk[65536];
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            if (n < 0) snprintf(out, FNV1A64_TEXT_LEN, "missing");
            else fnv1a64_text(h, out);
            break;
        }
        if ((total += (uint64_t)n) > MANIFEST_SOURCE_MAX_BYTES) {
            snprintf(out, FNV1A64_TEXT_LEN, "unchecked");
            break;
        }
        h = fnv1a64_update(h, chunk, (size_t)n);
    }
    close(fd);
}

/* The recorded module list with each file's hash as it is now (hash_beneath). A list longer than
 * MANIFEST_MODULES_MAX is not walked: it is replaced by one "unchecked" entry. */
static json_t *rehash_modules(const char *root, const json_t *was)
{
    json_t *now = json_array();
    size_t n = was->u.array.len;
    if (n > MANIFEST_MODULES_MAX) {
        json_t *e = json_object();
        json_object_set(e, "path", json_string("(a list longer than this runtime writes)"));
        json_object_set(e, "hash", json_string("unchecked"));
        json_array_push(now, e);
        return now;
    }
    int root_fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    for (size_t i = 0; i < n; i++) {
        const json_t *p = json_object_get(was->u.array.items[i], "path");
        char hash[FNV1A64_TEXT_LEN];
        hash_beneath(root_fd, root, p, hash);
        json_t *e = json_object();
        json_object_set(e, "path", json_is_string(p) ? json_copy(p) : json_null());
        json_object_set(e, "hash", json_string(hash));
        json_array_push(now, e);
    }
    if (root_fd >= 0) close(root_fd);
    return now;
}

/* Take key's value out of object o (left null there), or NULL. */
static json_t *take(json_t *o, const char *key)
{
    for (size_t i = 0; json_is_object(o) && i < o->u.object.len; i++)
        if (!strcmp(o->u.object.items[i].key, key)) {
            json_t *v = o->u.object.items[i].value;
            o->u.object.items[i].value = json_null();
            return v;
        }
    return NULL;
}

void manifest_set_served(json_t *m, json_t *served)
{
    const char *entry = json_string_value(json_object_get(served, "entry"));
    const char *mine = text_at_entry(m);
    const json_t *modules = json_object_get(served, "modules"), *graph = json_object_get(served, "module_graph");
    if (!entry || !mine || strcmp(entry, mine) != 0 || !(json_is_array(modules) || json_is_raw(modules)) ||
        !(json_is_array(graph) || json_is_raw(graph)))
        return;
    /* moved, not copied: a run of a large package tree is served thousands of values */
    json_object_set(m, "modules", take(served, "modules"));
    json_object_set(m, "module_graph", take(served, "module_graph"));
    json_t *past = take(served, "modules_past_cap");
    if (past && past->type != JSON_NULL) {
        json_object_set(m, "modules_past_cap", past);
        return;
    }
    json_free(past);
    if (!json_object_get(m, "modules_past_cap")) return;
    static const char *const gone[] = {"modules_past_cap", NULL}; /* a cap an earlier run reached */
    json_t *c = without(m, gone), swap = *m;
    *m = *c;
    *c = swap;
    json_free(c);
}

int manifest_entry_hash(const char *project_root, const char *entry, char out[25], char **error)
{
    char *path = xasprintf("%s/%s", project_root, entry);
    size_t len = 0;
    char *source = read_file_capped(path, MANIFEST_SOURCE_MAX_BYTES, &len, error);
    free(path);
    if (!source) return -1;
    manifest_fnv1a64(source, len, out);
    free(source);
    return 0;
}

json_t *manifest_build(const manifest_inputs *in, char **error)
{
    char hash[25];
    if (manifest_entry_hash(in->project_root, in->entry, hash, error) < 0) return NULL;

    json_t *m = json_object();
    json_object_set(m, "run_id", json_string(in->run_id));
    json_t *abi = json_object();
    json_object_set(abi, "typescript_runtime", json_number(ABI_TYPESCRIPT_RUNTIME));
    json_object_set(abi, "quickjs_snapshot", json_number(ABI_QUICKJS_SNAPSHOT));
    json_object_set(abi, "engine_fork", json_string(ABI_ENGINE_FORK));
    json_object_set(m, "abi", abi);
    json_object_set(m, "snapshot_kind", json_string("replay_log"));
    json_object_set(m, "policy", policy_of(in->surface, in->seed));
    json_t *entry = json_object();
    json_object_set(entry, "path", json_string(in->entry));
    json_object_set(entry, "hash", json_string(hash));
    json_object_set(m, "entry", entry);
    const json_t *was_modules = json_object_get(in->recheck, "modules");
    if (json_is_array(was_modules)) { /* the resume check: the recorded list, hashed as it is now */
        json_object_set(m, "modules", rehash_modules(in->project_root, was_modules));
        const json_t *was_graph = json_object_get(in->recheck, "module_graph");
        json_object_set(m, "module_graph", was_graph ? json_copy(was_graph) : entry_graph(in->entry));
        const json_t *past = json_object_get(in->recheck, "modules_past_cap");
        if (past) json_object_set(m, "modules_past_cap", json_copy(past));
    } else if (!in->recheck) { /* a new run: filled from what it is served (manifest_set_served) */
        json_object_set(m, "modules", json_array());
        json_object_set(m, "module_graph", entry_graph(in->entry));
    } /* else a manifest of an older chidori, without modules: none are compared */
    json_object_set(m, "pending", json_null());
    json_object_set(m, "host_promises", json_array());
    json_object_set(m, "branch", json_null());
    json_t *caps = json_object();
    json_object_set(caps, "first_seen", json_object());
    json_object_set(m, "capabilities", caps);
    json_object_set(m, "vfs", json_null());
    const char *model = in->settings ? settings_nonempty(in->settings, "CHIDORI_MODEL") : NULL;
    if (model) json_object_set(m, "default_model", json_string(model));
    const char *pricing = in->settings && settings_given(in->settings, "CHIDORI_PRICING")
                              ? settings_text(in->settings, "CHIDORI_PRICING") : NULL;
    if (pricing) json_object_set(m, "pricing", json_string(pricing));
    json_object_set(m, "call_log_len", json_number(0));
    json_object_set(m, "snapshot_file", json_string("runtime.snapshot"));
    json_object_set(m, "created_at", iso_time(in->created_at_ms));
    return m;
}

json_t *manifest_view(const json_t *m, uint64_t call_log_len, const json_t *pending, bool awaiting_approval)
{
    json_t *v = json_copy(m);
    json_object_set(v, "call_log_len", json_number((double)call_log_len));
    const json_t *seq = json_object_get(pending, "seq");
    if (pending && seq) {
        const char *fn = json_string_value(json_object_get(pending, "function"));
        json_t *p = json_object();
        json_object_set(p, "id", json_copy(seq));
        json_object_set(p, "seq", json_copy(seq));
        /* the original's kinds: a fan-in (signal_any) is a `signal` pause too */
        json_object_set(p, "kind", json_string(awaiting_approval ? "policy_approval"
                                               : fn && !strcmp(fn, "signal_any") ? "signal"
                                               : fn ? fn : "input"));
        if (fn) json_object_set(p, "function", json_string(fn));
        const json_t *args = json_object_get(pending, "args");
        json_object_set(p, "args", args ? json_copy(args) : json_object());
        json_object_set(p, "created_at", json_copy(json_object_get(m, "created_at")) ?: json_null());
        json_object_set(v, "pending", p);
    }
    return v;
}

static const char *text_at(const json_t *m, const char *key, const char *sub)
{
    const json_t *v = json_object_get(m, key);
    return json_string_value(sub ? json_object_get(v, sub) : v);
}

/* Does part `key` of the two manifests differ (or the recorded one lack it)? Then *why is `form`
 * with the recorded and the current values as compact JSON. */
static bool part_differs(const json_t *recorded, const json_t *now, const char *key, const char *form, char **why)
{
    const json_t *was = json_object_get(recorded, key), *is = json_object_get(now, key);
    if (was && json_equal(was, is)) return false;
    char *a = was ? json_dump(was, JSON_COMPACT, NULL) : xstrdup("none");
    char *b = json_dump(is, JSON_COMPACT, NULL);
    *why = xasprintf(form, a, b);
    free(a);
    free(b);
    return true;
}

/* The first module of the recorded list whose file changed, as the refusal's reason; NULL when none
 * did (or the recorded manifest lists none: an older chidori's). now's list is the recorded one
 * hashed again (manifest_inputs.recheck), so the two are read side by side. */
static char *module_change(const json_t *recorded, const json_t *now)
{
    const json_t *was = json_object_get(recorded, "modules"), *is = json_object_get(now, "modules");
    if (!was) return NULL;
    if (!json_is_array(was) || !json_is_array(is) || was->u.array.len != is->u.array.len)
        return xstrdup("the agent source changed since this run was recorded (its module list cannot be "
                       "compared: the recorded manifest's `modules` is not a list this runtime wrote)");
    for (size_t i = 0; i < was->u.array.len; i++) {
        const json_t *a = was->u.array.items[i], *b = is->u.array.items[i];
        if (json_equal(a, b)) continue;
        const char *path = json_string_value(json_object_get(a, "path"));
        const char *ha = json_string_value(json_object_get(a, "hash")), *hb = json_string_value(json_object_get(b, "hash"));
        return xasprintf("the agent source changed since this run was recorded (module %s: %s, now %s)",
                         path ? path : "(unnamed)", ha ? ha : "no hash", hb ? hb : "none");
    }
    return NULL;
}

manifest_verdict manifest_compare(const json_t *recorded, const json_t *now, bool allow, char **why)
{
    *why = NULL;
    if (part_differs(recorded, now, "abi",
                     "runtime snapshot ABI mismatch: the run was recorded under %s, this runtime is %s; it cannot be "
                     "resumed here (POST /sessions with replay_from, or a new run, starts it again)",
                     why) ||
        part_differs(recorded, now, "policy",
                     "runtime snapshot policy mismatch: the run was recorded with %s and would resume with %s; set the "
                     "CHIDORI_TS_* and CHIDORI_VFS_* settings back to the recorded values to resume it",
                     why))
        return MANIFEST_INCOMPATIBLE;
    const char *path_was = text_at(recorded, "entry", "path"), *hash_was = text_at(recorded, "entry", "hash");
    const char *path_now = text_at(now, "entry", "path"), *hash_now = text_at(now, "entry", "hash");
    bool same = path_was && hash_was && path_now && hash_now && !strcmp(path_was, path_now) &&
                !strcmp(hash_was, hash_now);
    char *what = NULL;
    if (!same)
        what = xasprintf("the agent source changed since this run was recorded (%s: %s, now %s)",
                         path_was ? path_was : "the entry", hash_was ? hash_was : "no hash", hash_now ? hash_now : "none");
    else
        what = module_change(recorded, now);
    if (!what) return MANIFEST_SAME;
    if (allow) {
        *why = what;
        return MANIFEST_SAME;
    }
    *why = xasprintf("%s; edit-and-resume is opt-in — pass --allow-source-change (CLI) or \"allow_source_change\": "
                     "true (server) to replay the recorded calls against the edited code, or put the recorded source "
                     "back", what);
    free(what);
    return MANIFEST_SOURCE_CHANGED;
}

bool manifest_refused_before(const runner_outcome *out, uint64_t frontier)
{
    return out->status == RUNNER_FAILED && !out->cancelled && out->diverged_at >= 1 && out->diverged_at <= frontier &&
           out->live_calls == 0;
}

json_t *manifest_shared_part(const json_t *m)
{
    static const char *const per_run[] = {"run_id", "created_at", "call_log_len", "pending", "policy", NULL};
    static const char *const per_run_policy[] = {"deterministic_seed", NULL};
    json_t *shared = without(m, per_run);
    json_object_set(shared, "policy", without(json_object_get(m, "policy"), per_run_policy));
    return shared;
}

json_t *manifest_from_shared(const json_t *shared, const char *run_id, uint64_t seed, int64_t created_at_ms)
{
    json_t *m = json_object();
    json_object_set(m, "run_id", json_string(run_id));
    for (size_t i = 0; json_is_object(shared) && i < shared->u.object.len; i++)
        json_object_set(m, shared->u.object.items[i].key, json_copy(shared->u.object.items[i].value));
    json_t *policy = json_object_get(m, "policy");
    if (json_is_object(policy)) set_seed(policy, seed);
    json_object_set(m, "pending", json_null());
    json_object_set(m, "call_log_len", json_number(0));
    json_object_set(m, "created_at", iso_time(created_at_ms));
    return m;
}

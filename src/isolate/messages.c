/* messages.c — the contents of Init, Reply and Done frames (see isolate.h), both directions.
 *
 * Decoders trust nothing: the supervisor decodes what a possibly compromised worker sent (Done,
 * and the Reply status it never sends), the worker decodes what its parent sent. Every field is
 * type-checked; 64-bit values travel as decimal strings (a JSON number cannot hold them exactly).
 */
#define _GNU_SOURCE
#include "isolate/isolate.h"
#include "util/buf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static json_t *u64_json(uint64_t v)
{
    char s[24];
    snprintf(s, sizeof s, "%llu", (unsigned long long)v);
    return json_string(s);
}

static int u64_of(const json_t *o, const char *key, uint64_t *out)
{
    const char *s = json_string_value(json_object_get(o, key));
    if (!s || !*s || strlen(s) > 20) return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end || errno || *s == '-') return -1;
    *out = v;
    return 0;
}

static char *str_of(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    if (!json_is_string(v) || strlen(v->u.string.bytes) != v->u.string.len) return NULL;
    return xstrdup(v->u.string.bytes);
}

/* ---------- init ---------- */

static json_t *sandbox_encode(const isolate_sandbox *sandbox)
{
    json_t *sb = json_object();
    json_object_set(sb, "require", json_bool(sandbox->require));
    json_object_set(sb, "cpu_secs", u64_json(sandbox->cpu_secs));
    json_object_set(sb, "fsize_bytes", u64_json(sandbox->fsize_bytes));
    json_object_set(sb, "skip", json_string(sandbox->skip));
    return sb;
}

static int sandbox_decode(const json_t *sb, isolate_sandbox *out)
{
    if (!json_is_object(sb) || u64_of(sb, "cpu_secs", &out->cpu_secs) || u64_of(sb, "fsize_bytes", &out->fsize_bytes))
        return -1;
    out->require = json_object_get(sb, "require") && json_object_get(sb, "require")->type == JSON_TRUE;
    const char *skip = json_string_value(json_object_get(sb, "skip"));
    snprintf(out->skip, sizeof out->skip, "%s", skip ? skip : "");
    return 0;
}

/* What any first Init carries beside its kind: the build it comes from and how many descriptors
 * went on the handoff socket (checked by the worker before anything else). */
static void set_first_frame_fields(json_t *f, const isolate_options *o)
{
    json_object_set(f, "build", json_string(chidori_build_id));
    json_object_set(f, "handed", json_number(o->handed));
}

json_t *isolate_warm_encode(const isolate_options *o)
{
    json_t *f = json_object();
    json_object_set(f, "type", json_string("init"));
    json_object_set(f, "warm", json_bool(true));
    set_first_frame_fields(f, o);
    json_object_set(f, "sandbox", sandbox_encode(&o->sandbox));
    return f;
}

/* The first Init of a fork server (forkserver.c): a warm Init that also says so. */
json_t *isolate_forkserver_encode(const isolate_options *o)
{
    json_t *f = isolate_warm_encode(o);
    json_object_set(f, "forkserver", json_bool(true));
    if (o->forkserver_own_engine) json_object_set(f, "own_engine", json_bool(true));
    if (o->selftest && !strncmp(o->selftest, "forkserver_", 11)) json_object_set(f, "selftest", json_string(o->selftest));
    return f;
}

bool isolate_init_is_forkserver(const json_t *f)
{
    const json_t *w = json_object_get(f, "forkserver");
    return w && w->type == JSON_TRUE && isolate_init_is_warm(f);
}

bool isolate_forkserver_own_engine(const json_t *f)
{
    const json_t *o = json_object_get(f, "own_engine");
    return o && o->type == JSON_TRUE;
}

bool isolate_init_same_build(const json_t *f)
{
    const char *build = json_string_value(json_object_get(f, "build"));
    return build && !strcmp(build, chidori_build_id);
}

int isolate_init_handed(const json_t *f)
{
    const json_t *n = json_object_get(f, "handed");
    double v = n && n->type == JSON_NUMBER ? json_number_value(n) : -1;
    return v >= 0 && v <= 8 && v == (int)v ? (int)v : -1;
}

bool isolate_init_is_warm(const json_t *f)
{
    const json_t *w = json_object_get(f, "warm");
    return w && w->type == JSON_TRUE;
}

int isolate_warm_decode(const json_t *f, isolate_sandbox *out, char **error)
{
    memset(out, 0, sizeof *out);
    if (sandbox_decode(json_object_get(f, "sandbox"), out) < 0) {
        *error = xstrdup("`sandbox` is malformed");
        return -1;
    }
    return 0;
}

json_t *isolate_init_encode(const engine_config *cfg, const isolate_options *o)
{
    json_t *f = json_object();
    json_object_set(f, "type", json_string("init"));
    set_first_frame_fields(f, o);
    json_object_set(f, "mode", json_string(cfg->mode == ENGINE_AGENT ? "agent" : "script"));
    if (cfg->entry) json_object_set(f, "entry", json_string(cfg->entry));
    if (cfg->script) json_object_set(f, "script", json_stringn(cfg->script, cfg->script_len));
    if (cfg->script_name) json_object_set(f, "script_name", json_string(cfg->script_name));
    json_object_set(f, "input", json_string(cfg->input_json ? cfg->input_json : "{}"));
    json_object_set(f, "seed", u64_json(cfg->seed));
    json_object_set(f, "clock_start_ms", u64_json((uint64_t)cfg->clock_start_ms));
    if (cfg->frozen_clock) json_object_set(f, "frozen_clock", json_bool(true));
    if (cfg->fixed_random) json_object_set(f, "fixed_random", json_bool(true));
    json_t *l = json_object();
    json_object_set(l, "op_budget", u64_json(cfg->limits.op_budget));
    json_object_set(l, "mem_cap_bytes", u64_json(cfg->limits.mem_cap_bytes));
    json_object_set(l, "deadline_ms", u64_json(cfg->limits.deadline_ms));
    json_object_set(l, "max_alloc_bytes", u64_json(cfg->limits.max_alloc_bytes));
    json_object_set(l, "stack_bytes", u64_json(cfg->limits.stack_bytes));
    json_object_set(f, "limits", l);
    json_object_set(f, "sandbox", sandbox_encode(&o->sandbox));
    if (o->selftest) json_object_set(f, "selftest", json_string(o->selftest));
    return f;
}

void isolate_init_clear(isolate_init *in)
{
    free(in->entry);
    free(in->script);
    free(in->script_name);
    free(in->input_json);
    free(in->selftest);
    for (size_t i = 0; i < in->n_trace_ops; i++) free(in->trace_ops[i]);
    memset(in, 0, sizeof *in);
}

int isolate_init_decode(const json_t *f, isolate_init *in, char **error)
{
    memset(in, 0, sizeof *in);
    const char *mode = json_string_value(json_object_get(f, "mode"));
    const json_t *l = json_object_get(f, "limits");
    uint64_t stack = 0, clock = 0;
    engine_limits *lim = &in->config.limits;
    const char *why = NULL;
    if (!mode || (strcmp(mode, "agent") && strcmp(mode, "script"))) why = "`mode` must be agent or script";
    else if (!json_is_object(l) || u64_of(l, "op_budget", &lim->op_budget) || u64_of(l, "mem_cap_bytes", &lim->mem_cap_bytes) ||
             u64_of(l, "deadline_ms", &lim->deadline_ms) || u64_of(l, "max_alloc_bytes", &lim->max_alloc_bytes) ||
             u64_of(l, "stack_bytes", &stack))
        why = "`limits` is malformed";
    else if (u64_of(f, "seed", &in->config.seed) || u64_of(f, "clock_start_ms", &clock)) why = "`seed`/`clock_start_ms` are malformed";
    else if (!(in->input_json = str_of(f, "input"))) why = "`input` must be JSON text";
    else if (sandbox_decode(json_object_get(f, "sandbox"), &in->sandbox) < 0)
        why = "`sandbox` is malformed";
    if (!why) {
        lim->stack_bytes = (size_t)stack;
        in->config.clock_start_ms = (int64_t)clock;
        const json_t *frozen = json_object_get(f, "frozen_clock"), *fixed = json_object_get(f, "fixed_random");
        in->config.frozen_clock = frozen && frozen->type == JSON_TRUE;
        in->config.fixed_random = fixed && fixed->type == JSON_TRUE;
        in->config.input_json = in->input_json;
        if (!strcmp(mode, "agent")) {
            in->config.mode = ENGINE_AGENT;
            if (!(in->entry = str_of(f, "entry"))) why = "`entry` is missing";
            in->config.entry = in->entry;
        } else {
            in->config.mode = ENGINE_SCRIPT;
            const json_t *s = json_object_get(f, "script");
            if (!json_is_string(s)) why = "`script` is missing";
            else {
                in->script = xstrndup(s->u.string.bytes, s->u.string.len);
                in->config.script = in->script;
                in->config.script_len = s->u.string.len;
                in->script_name = str_of(f, "script_name");
                in->config.script_name = in->script_name;
            }
        }
        if (json_object_get(f, "selftest")) in->selftest = str_of(f, "selftest");
        const json_t *trace = json_object_get(f, "trace_ops");
        if (trace && (trace->type != JSON_ARRAY || trace->u.array.len > ISOLATE_TRACE_OPS_MAX))
            why = "`trace_ops` must be a list of at most 8 op names";
        for (size_t i = 0; !why && trace && i < trace->u.array.len; i++) {
            const json_t *name = trace->u.array.items[i];
            if (!json_is_string(name) || !name->u.string.len || name->u.string.len > 64 ||
                strlen(name->u.string.bytes) != name->u.string.len)
                why = "`trace_ops` must be a list of at most 8 op names";
            else
                in->trace_ops[in->n_trace_ops++] = xstrdup(name->u.string.bytes);
        }
    }
    if (why) {
        *error = xstrdup(why);
        isolate_init_clear(in);
        return -1;
    }
    return 0;
}

/* ---------- done ---------- */

json_t *isolate_outcome_encode(const engine_result *res)
{
    json_t *o = json_object();
    json_object_set(o, "status", json_string(res->status == RUN_COMPLETED ? "completed"
                                             : res->status == RUN_PAUSED  ? "paused"
                                                                          : "failed"));
    if (res->output_json) json_object_set(o, "output", json_string(res->output_json));
    if (res->error) json_object_set(o, "error", json_string(res->error));
    json_object_set(o, "limit", json_number((double)res->limit));
    if (res->input_invalid) json_object_set(o, "input_invalid", json_bool(true));
    if (res->ticks) json_object_set(o, "ticks", json_number((double)res->ticks));
    return o;
}

int isolate_outcome_decode(const json_t *o, engine_result *res, char **error)
{
    memset(res, 0, sizeof *res);
    const char *status = json_string_value(json_object_get(o, "status"));
    const json_t *limit = json_object_get(o, "limit");
    if (!json_is_object(o) || !status || !limit || limit->type != JSON_NUMBER || limit->u.number < 0 ||
        limit->u.number > LIMIT_ALLOCATION) {
        *error = xstrdup("the outcome is malformed");
        return -1;
    }
    res->limit = (engine_limit_kind)limit->u.number;
    const json_t *invalid = json_object_get(o, "input_invalid");
    res->input_invalid = invalid && invalid->type == JSON_TRUE; /* only meaningful when failed */
    const json_t *ticks = json_object_get(o, "ticks"); /* the worker's word (the CPU backstop bounds a lie) */
    if (ticks && ticks->type == JSON_NUMBER && ticks->u.number >= 0 && ticks->u.number <= 9007199254740992.0)
        res->ticks = (uint64_t)ticks->u.number;
    if (!strcmp(status, "completed")) {
        res->status = RUN_COMPLETED;
        if (!(res->output_json = str_of(o, "output"))) {
            *error = xstrdup("a completed outcome has no output");
            return -1;
        }
        /* the engine never returns more; a worker that does is not running our engine */
        if (strlen(res->output_json) > ENGINE_OUTPUT_MAX_BYTES) {
            *error = xasprintf("the worker's output is over the %zu MiB an agent may return", ENGINE_OUTPUT_MAX_BYTES >> 20);
            free(res->output_json);
            res->output_json = NULL;
            return -1;
        }
    } else if (!strcmp(status, "paused")) {
        res->status = RUN_PAUSED;
    } else if (!strcmp(status, "failed")) {
        res->status = RUN_FAILED;
        res->error = str_of(o, "error");
        if (!res->error) res->error = xstrdup("the run failed (no message)");
    } else {
        *error = xasprintf("unknown outcome status `%s`", status);
        return -1;
    }
    return 0;
}

/* ---------- reply ---------- */

json_t *isolate_reply_encode(int rc, const json_t *result, const char *error)
{
    json_t *r = json_object();
    json_object_set(r, "type", json_string("reply"));
    if (rc == HOST_OK) {
        json_object_set(r, "ok", result ? json_copy(result) : json_null());
    } else {
        json_object_set(r, "err", json_string(error ? error : ""));
        if (rc == HOST_SUSPEND) json_object_set(r, "status", json_string("suspend"));
        if (rc == HOST_ABORT) json_object_set(r, "status", json_string("abort"));
    }
    return r;
}

int isolate_reply_decode(const json_t *reply, json_t **result, char **error)
{
    *result = NULL;
    *error = NULL;
    if (json_string_value(json_object_get(reply, "type")) == NULL ||
        strcmp(json_string_value(json_object_get(reply, "type")), "reply") != 0) {
        *error = xstrdup("the host answered with something other than a reply");
        return HOST_ABORT;
    }
    const json_t *ok = json_object_get(reply, "ok");
    if (ok) {
        *result = json_copy(ok);
        return HOST_OK;
    }
    const char *status = json_string_value(json_object_get(reply, "status"));
    const char *err = json_string_value(json_object_get(reply, "err"));
    if (status && !strcmp(status, "suspend")) return HOST_SUSPEND;
    *error = xstrdup(err ? err : "the host failed");
    return status && !strcmp(status, "abort") ? HOST_ABORT : HOST_ERROR;
}

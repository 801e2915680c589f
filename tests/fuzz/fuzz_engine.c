/* fuzz_engine.c — libFuzzer target for the engine itself: QuickJS with our patches, run exactly as
 * a run runs it (engine_run: fresh runtime and context, the prelude, the metered allocator, the
 * interrupt handler, the stack limit), on arbitrary program text.
 *
 * Owns: only this harness and its stand-in seam. Trusts engine_run and the limits it arms
 * (src/engine/limits.c); re-implements none of them.
 *
 * Input: a program. It runs as a plain script, unless it starts with one of these markers:
 *   "//mod\n"  an ES module (agent mode, entry "./main.js")
 *   "//ts\n"   the same through chidori's TypeScript eraser (entry "./main.ts")
 * In module modes any other relative import is answered with the same text under the key asked
 * for (at most MAX_MODULES), so cycles and self-imports are exercised too.
 *
 * Every run is deterministic: fixed seed and clock, a CPU budget in ticks and no wall-clock
 * deadline. Any JS exception, and any limit tripping, is a fine outcome; a crash, a sanitizer
 * report, a leak (QuickJS asserts that a freed runtime holds no object), or a run that outlives
 * libFuzzer's -timeout is a finding.
 *
 * The stand-in seam answers without touching the outside world: console/log/mark succeed,
 * `input` suspends the run and `exec` aborts it (so the halt paths run too), everything else
 * fails with an error the program may catch.
 */
#include "engine/engine.h"
#include "util/json.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define OP_BUDGET 2000000ull          /* ticks: 200 interrupt polls */
#define MEM_CAP ((uint64_t)64 << 20)  /* the run's heap ceiling */
#define MAX_ALLOC ((uint64_t)16 << 20) /* the largest single allocation */
#define MAX_MODULES 8

typedef struct fuzz_host {
    const char *src;
    size_t len;
    const char *entry;
    int modules;
} fuzz_host;

static int fuzz_call(void *ctx, const char *op, const json_t *args, json_t **result, char **error)
{
    fuzz_host *h = ctx;
    if (strcmp(op, "__module_load") == 0) {
        const json_t *spec = json_object_get(args, "specifier");
        const char *s = json_is_string(spec) ? spec->u.string.bytes : "";
        bool entry = strcmp(s, h->entry) == 0;
        if (!entry && (strncmp(s, "./", 2) != 0 || h->modules >= MAX_MODULES)) {
            *error = strdup("fuzz harness: no such module");
            return HOST_ERROR;
        }
        if (!entry) h->modules++;
        json_t *r = json_object();
        json_object_set(r, "key", json_string(s));
        json_object_set(r, "source", json_stringn(h->src, h->len));
        *result = r;
        return HOST_OK;
    }
    if (strcmp(op, "console") == 0 || strcmp(op, "log") == 0 || strcmp(op, "mark") == 0) {
        *result = json_null();
        return HOST_OK;
    }
    if (strcmp(op, "input") == 0) return HOST_SUSPEND;
    if (strcmp(op, "exec") == 0) {
        *error = strdup("fuzz harness: run aborted");
        return HOST_ABORT;
    }
    *error = strdup("fuzz harness: effect refused");
    return HOST_ERROR;
}

static bool starts_with(const uint8_t *d, size_t n, const char *marker)
{
    size_t m = strlen(marker);
    return n >= m && memcmp(d, marker, m) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    engine_mode mode = ENGINE_SCRIPT;
    const char *entry = "./main.js";
    if (starts_with(data, size, "//mod\n")) mode = ENGINE_AGENT;
    else if (starts_with(data, size, "//ts\n")) mode = ENGINE_AGENT, entry = "./main.ts";

    /* An exact-size, NUL-terminated copy: QuickJS's parser needs the NUL, ASan sees any overread. */
    char *src = malloc(size + 1);
    if (!src) return 0;
    memcpy(src, data, size);
    src[size] = '\0';

    fuzz_host h = {src, size, entry, 0};
    engine_config cfg = {
        .mode = mode,
        .entry = entry,
        .script = src,
        .script_len = size,
        .script_name = "fuzz.js",
        .input_json = "{}",
        .seed = 1,
        .clock_start_ms = 1700000000000,
        .fixed_random = true,
        .limits = {.op_budget = OP_BUDGET, .mem_cap_bytes = MEM_CAP, .max_alloc_bytes = MAX_ALLOC,
                   .stack_bytes = ENGINE_DEFAULT_STACK_BYTES},
        .seam = {.call = fuzz_call, .ctx = &h, .internal = fuzz_call}, /* module loads come through internal */
    };
    engine_result res;
    engine_run(&cfg, &res);
    if (res.status == RUN_FAILED && !res.error) abort();
    engine_result_free(&res);
    free(src);
    return 0;
}

/* engine_internal.h — state of one run, shared by the files of src/engine/ only. */
#ifndef CHIDORI_ENGINE_INTERNAL_H
#define CHIDORI_ENGINE_INTERNAL_H

#include "quickjs.h"
#include "engine/engine.h"
#include "engine/limits.h"

typedef struct module_source module_source;

typedef struct engine {
    const engine_config *cfg;
    engine_seam seam;
    JSRuntime *rt;
    JSContext *ctx;
    run_limits limits;
    int64_t clock_ms;        /* the virtual clock Date reads */
    JSValue internals;       /* what the prelude returned */
    module_source *sources;  /* sources fetched while resolving, waiting to be compiled */
    int unhandled;           /* promise rejections without a handler, right now */
    char *output;
    char *failure;           /* the first failure; the run's error */
    bool input_invalid;      /* the failure is the prelude's inputSchema rejection (engine_result) */
    bool paused;             /* the host suspended the run */
} engine;

engine *engine_of(JSContext *ctx);
void engine_annotate_syntax_error(JSContext *ctx, JSValueConst exc, const char *name, const char *src, size_t len);

/* modules.c */
void engine_install_module_loader(engine *e);
/* Fetch the entry through the host and compile it: 0 with the module value (to evaluate) and
 * its definition, or -1 with the failure recorded. */
int engine_load_entry(engine *e, const char *specifier, JSValue *module_value, JSModuleDef **def);
void engine_free_module_cache(engine *e);

#endif

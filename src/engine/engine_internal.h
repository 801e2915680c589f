/* engine_internal.h — state of one run, shared by the files of src/engine/ only. */
#ifndef CHIDORI_ENGINE_INTERNAL_H
#define CHIDORI_ENGINE_INTERNAL_H

#include "quickjs.h"
#include "engine/engine.h"
#include "engine/limits.h"
#include "util/json.h"
#include "util/strmap.h"

#include <stdbool.h>

typedef struct module_source module_source;

typedef struct engine {
    const engine_config *cfg;
    engine_seam seam;
    JSRuntime *rt;
    JSContext *ctx;
    run_limits limits;
    struct engine_arena *arena; /* set-up's allocations (arena.h); given back after JS_FreeRuntime */
    int64_t clock_ms;        /* the virtual clock Date reads */
    JSValue internals;       /* what the prelude returned */
    JSAtom atom_constructor, atom_then; /* hostEffect's pinned properties (0 until the prelude) */
    JSAtom atom_to_json;     /* member_trap.c: a name the chidori object's trap never stands in for */
    JSValue esnext;          /* esnext.c's state (0 until installed: freeing it is then a no-op) */
    module_source *sources;  /* sources fetched while resolving, waiting to be compiled */
    size_t sources_bytes;    /* their total size (bounded: MODULE_PENDING_MAX_BYTES) */
    strmap loaded;           /* keys the runtime already has a module for (no source kept for them) */
    strmap resolved;         /* importer folder + specifier -> key the host answered (modules.c) */
    strmap barrels, subsets; /* re-export-only package modules and the parts served (module_subset.c) */
    JSValue cjs;             /* the CommonJS registry (js/cjs.js), once a run needs it */
    bool cjs_ready;
    JSValue *rejected;       /* promises rejected with no handler yet, checked when the job queue drains */
    size_t rejected_len, rejected_cap;
    char *output;
    char *failure;           /* the first failure; the run's error */
    bool input_invalid;      /* the failure is the prelude's inputSchema rejection (engine_result) */
    bool paused;             /* the host suspended the run */
} engine;

/* The engine's JavaScript as bytecode (OUT/gen/js_bytecode.c, compiled from src/engine/js/). */
typedef struct embedded_file {
    const char *name;
    const unsigned char *data;
    size_t len;
} embedded_file;
const embedded_file *engine_embedded(const char *name);

engine *engine_of(JSContext *ctx);

/* esnext.c: the built-ins written in JavaScript (js/esnext/), installed once per context before
 * the prelude (their code is loaded on first use). 0, or -1 with the exception pending. */
int engine_install_esnext(engine *e);
void engine_annotate_syntax_error(JSContext *ctx, JSValueConst exc, const char *name, const char *src, size_t len);

/* modules.c */
void engine_install_module_loader(engine *e);
/* Fetch the entry through the host and compile it: 0 with the module value (to evaluate) and
 * its definition, or -1 with the failure recorded. */
int engine_load_entry(engine *e, const char *specifier, JSValue *module_value, JSModuleDef **def);
void engine_free_module_cache(engine *e);

/* temporal.c: the lazy `Temporal` global (0, or -1 with an exception) */
int engine_install_temporal(JSContext *ctx);

/* lazy_globals.c: natives.defineLazyGlobals(names, handler), the accessors of the prelude's lazy
 * globals made in C */
JSValue engine_lazy_globals_native(JSContext *ctx);
/* locale_methods.c: natives.defineLocaleMethods(entries, handler), the toLocaleString family made
 * in C */
JSValue engine_locale_methods_native(JSContext *ctx);
/* member_trap.c: natives.memberTrap(reflectGet), the get trap of the chidori object's prototype, with
 * its stand-ins for the members this runtime lacks */
void engine_add_member_natives(JSContext *ctx, JSValueConst natives);

/* cjs.c */
/* The CommonJS registry (js/cjs.js), made on first use; borrowed, or JS_EXCEPTION. */
JSValue engine_cjs(engine *e);
/* An ES import met a CommonJS or JSON file: a synthetic module whose default export is its
 * module.exports (and, for CommonJS, the names the static scan finds). NULL with an exception. */
JSModuleDef *engine_cjs_module(engine *e, const char *key, const char *source, size_t len, bool json);
/* Asks the host op `__module_load`: 0 with *res, or -1 with *error (both caller-owned). flags:
 * MODULE_REQ_BUILTIN, the built-in check; MODULE_REQ_FULL, the whole reply even for a file the host
 * already sent (effects/module_load.c leaves its source out otherwise). */
#define MODULE_REQ_BUILTIN 1u
#define MODULE_REQ_FULL 2u
int engine_module_request(engine *e, const char *specifier, const char *importer, const char *kind, unsigned flags,
                          json_t **res, char **error);

#endif

/* effects/module_record.h — what the module loader served one run: each file (its project-relative
 * key and the FNV-1a 64 of its bytes) and, per file, the imports it resolved, for the snapshot
 * manifest's `modules` and `module_graph` (runner/manifest.h; docs/durable-runs.md).
 *
 * Kept by effects/module_load.c for the top-level run only (a call_agent run below it has its own
 * entry and its own manifest). Bounded: at most MODULE_RECORD_MAX_FILES files and
 * MODULE_RECORD_MAX_IMPORTS import edges are listed; past either cap the rest is counted, and the
 * files past it folded into one hash, in `modules_past_cap` (a resume cannot re-check those: it
 * says so). Trusts its caller (the loader), which has checked the keys and specifiers.
 */
#ifndef CHIDORI_MODULE_RECORD_H
#define CHIDORI_MODULE_RECORD_H

#include "util/json.h"
#include "util/strmap.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MODULE_RECORD_MAX_FILES 4096
#define MODULE_RECORD_MAX_IMPORTS 16384
/* the synthetic folder a Node built-in is named by in the graph, as the original names it */
#define MODULE_RECORD_BUILTINS "/__node_builtins__/"

typedef struct module_record {
    strmap files;               /* key → struct record_file (owned) */
    struct record_file **order; /* in load order */
    size_t n, cap;
    size_t imports;             /* edges listed */
    size_t files_past_cap, imports_past_cap;
    uint64_t past_cap_hash;     /* FNV-1a 64 over "key\0hash\0" of each file past the cap */
    char *entry;                /* the run's entry key, once served */
} module_record;

void module_record_init(module_record *r);
void module_record_free(module_record *r);

/* A file served: key and its bytes (entry: the run's entry, loaded without an importer). Once per
 * key (a file loaded again, by import and by require, keeps its first hash). */
void module_record_file(module_record *r, const char *key, const void *bytes, size_t len, bool entry);
/* The same with the FNV-1a 64 of the bytes already computed (the loader hashes each file once and
 * uses that hash for the bytecode cache too). */
void module_record_file_hashed(module_record *r, const char *key, uint64_t hash, bool entry);
/* importer's specifier led to resolved (a served file's key, or MODULE_RECORD_BUILTINS "x.js" for
 * a Node built-in). Importers that are not served files (code from eval, a shim) are not listed. */
void module_record_import(module_record *r, const char *importer, const char *specifier, const char *resolved);

/* {"entry": key|null, "modules": [{path, hash}] (the entry left out), "module_graph": [{path,
 * imports: [{specifier, resolved_path}]}] (the entry first), and "modules_past_cap": {modules,
 * hash, imports} when a cap was reached}. The two lists are json_raw values: their compact JSON
 * text, written directly (the bytes json_dump writes for them as arrays of objects). */
json_t *module_record_json(const module_record *r);

#endif

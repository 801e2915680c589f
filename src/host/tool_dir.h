/* tool_dir.h — the legacy `tools/` folder of an agent (a compatibility extension: the original
 * chidori read it up to 3.6). Each `<project>/tools/NAME.ts` or `NAME.js` file that declares
 * `export const tool = {name, …}` and exports `run(args, chidori)` is a tool named tool.name.
 *
 * The scan is confined to the project (every open goes through open_beneath: a symlink that
 * leads out is refused), reads at most TOOL_DIR_MAX_FILES files of at most TOOL_DECL_MAX_BYTES
 * each, and costs one failed open when there is no tools/ folder. A file without the declaration is
 * skipped silently; a broken one gives a warning on log_out and keeps its reason for the
 * unknown-tool error.
 */
#ifndef CHIDORI_TOOL_DIR_H
#define CHIDORI_TOOL_DIR_H

#include "util/json.h"

#include <stdio.h>

#define TOOL_DIR_NAME "tools"
#define TOOL_DIR_MAX_FILES 64

typedef struct tool_dir tool_dir;

/* Never NULL. root_fd / root_path: the project folder (host_internal.h's root_fd). */
tool_dir *tool_dir_scan(int root_fd, const char *root_path, FILE *log_out);
void tool_dir_free(tool_dir *d);

/* The tool named name: its declaration {name, description, parameters} and its file relative to
 * the project ("tools/x.ts"), or NULL. */
const json_t *tool_dir_find(const tool_dir *d, const char *name, const char **file);
/* The error for a tool name nobody declares: the names there are and the broken files' reasons. */
char *tool_dir_unknown(const tool_dir *d, const char *name);

#endif

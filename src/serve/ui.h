/* ui.h — the dashboard's static files (ui/), embedded at build time by tools/embed_files.c into
 * build/gen/ui_files.c, and served at GET /ui and /ui/<file> (ui.c). */
#ifndef CHIDORI_SERVE_UI_H
#define CHIDORI_SERVE_UI_H

#include <stdbool.h>
#include <stddef.h>

typedef struct ui_file {
    const char *name;         /* path below ui/, e.g. "app.js" */
    const char *content_type;
    const unsigned char *data;
    size_t len;
} ui_file;

extern const ui_file ui_files[];
extern const size_t ui_files_count;

/* The embedded file for a request path: "/ui" and "/ui/" are index.html, "/ui/<name>" is that
 * file. NULL for any other path or an unknown name. */
const ui_file *ui_lookup(const char *path);

/* True when the path belongs to the dashboard ("/ui" or below it). */
bool ui_path(const char *path);

struct http_reply;
/* Answer a request for a dashboard path: the file (GET or HEAD), a 404, or a 405. */
void ui_reply(const char *method, const char *path, struct http_reply *rep);

#endif

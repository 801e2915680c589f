/* ui.c — serves the embedded dashboard (see ui.h). The files are public: they hold no secret and
 * the API they call needs the key. They are sent with headers that keep the page to itself: a
 * content security policy allowing only its own scripts, styles and API (no inline code, no
 * framing), no content-type sniffing, no referrer. Trusts the path only after an exact name
 * match against the table. */
#define _GNU_SOURCE
#include "serve/ui.h"
#include "serve/httpd.h"

#include <string.h>

static const char *const UI_HEADERS[] = {
    "Content-Security-Policy",
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options", "nosniff",
    "X-Frame-Options", "DENY",
    "Referrer-Policy", "no-referrer",
    "Cache-Control", "no-cache",
    NULL,
};

bool ui_path(const char *path) { return !strcmp(path, "/ui") || !strncmp(path, "/ui/", 4); }

const ui_file *ui_lookup(const char *path)
{
    if (!ui_path(path)) return NULL;
    const char *name = path[3] == '\0' || path[4] == '\0' ? "index.html" : path + 4;
    for (size_t i = 0; i < ui_files_count; i++)
        if (!strcmp(ui_files[i].name, name)) return &ui_files[i];
    return NULL;
}

void ui_reply(const char *method, const char *path, http_reply *rep)
{
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0) {
        rep->allow = "GET, HEAD";
        reply_error(rep, 405, "%.16s is not allowed on the dashboard (allowed: GET, HEAD)", method);
        return;
    }
    const ui_file *f = ui_lookup(path);
    if (!f) {
        reply_error(rep, 404, "no dashboard file %.200s", path);
        return;
    }
    rep->status = 200;
    rep->static_body = f->data;
    rep->static_len = f->len;
    rep->content_type = f->content_type;
    rep->headers = UI_HEADERS;
}

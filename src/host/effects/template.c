/* effects/template.c — chidori.template(textOrPath, vars): Jinja-style rendering (template.c).
 *
 * `template` {template, vars}. A template string that looks like a path (one line, no `{{`, `{%`
 * or `{#`) and names a file inside the agent's folder is read from that file; anything else is
 * the template text itself. `{% include %}` reads files relative to the agent's folder through
 * open_beneath, so neither form can read outside it (nor the .chidori state folder), and each file
 * read passes the policy gate as workspace:read. Output is capped (TEMPLATE_OUTPUT_MAX).
 */
#include "host/host_internal.h"
#include "host/ops.h"
#include "host/template_lang.h"
#include "util/buf.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TEMPLATE_FILE_MAX ((size_t)1 << 20)
#define TEMPLATE_OUTPUT_MAX ((size_t)4 << 20)

/* Read a file of the agent's folder: 0, -1 with errno ENOENT (no such file), or -1 + *error. */
static int read_confined(host *h, const char *name, char **source, size_t *len, char **error)
{
    /* Reading a file is a workspace read as far as the policy is concerned, whichever effect does
     * it: a policy that denies workspace:read denies template files too. */
    json_t *as_read = json_object();
    json_object_set(as_read, "action", json_string("read"));
    json_object_set(as_read, "path", json_string(name));
    int gate = host_gate(h, "workspace", as_read, error);
    json_free(as_read);
    if (gate != HOST_OK) {
        if (!*error) *error = xasprintf("template `%s` needs approval to be read", name);
        return -1;
    }
    int fd = open_beneath(h->root_fd, h->project_root, name, O_RDONLY, 0);
    if (fd < 0) {
        if (errno == ENOENT) return -1;
        *error = errno == EXDEV || errno == ELOOP
                     ? xasprintf("template `%s` is outside the agent's folder", name)
                     : xasprintf("cannot read template `%s`: %s", name, strerror(errno));
        return -1;
    }
    struct stat st;
    buf b = {0};
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size > TEMPLATE_FILE_MAX) {
        close(fd);
        *error = xasprintf("template `%s` is not a file of at most %zu KiB", name, TEMPLATE_FILE_MAX >> 10);
        return -1;
    }
    char chunk[65536];
    ssize_t n;
    while ((n = read(fd, chunk, sizeof chunk)) > 0 && b.len + (size_t)n <= TEMPLATE_FILE_MAX)
        buf_append(&b, chunk, (size_t)n);
    close(fd);
    *len = b.len;
    *source = buf_steal(&b);
    return 0;
}

static int include_file(void *ctx, const char *name, char **source, size_t *len, char **error)
{
    host *h = ctx;
    if (read_confined(h, name, source, len, error) == 0) return 0;
    if (!*error) *error = xasprintf("included template `%s` does not exist", name);
    return -1;
}

static bool looks_like_path(const json_t *t)
{
    const char *s = t->u.string.bytes;
    return t->u.string.len > 0 && t->u.string.len < 1024 && strlen(s) == t->u.string.len && !strchr(s, '\n') &&
           !strstr(s, "{{") && !strstr(s, "{%") && !strstr(s, "{#") && path_is_confined(s, t->u.string.len);
}

static int effect_template(host *h, const json_t *args, json_t **result, char **error)
{
    const json_t *t = json_object_get(args, "template");
    if (!json_is_string(t)) {
        *error = xstrdup("chidori.template: the template must be a string (text or a file of the agent's folder)");
        return HOST_ERROR;
    }
    const json_t *vars = json_object_get(args, "vars");
    json_t *empty = NULL;
    if (!vars || vars->type == JSON_NULL) vars = empty = json_object();
    if (!json_is_object(vars)) {
        *error = xstrdup("chidori.template: `vars` must be an object");
        return HOST_ERROR;
    }
    char *file_src = NULL;
    size_t file_len = 0;
    const char *name = "<inline>";
    if (looks_like_path(t)) {
        if (read_confined(h, t->u.string.bytes, &file_src, &file_len, error) == 0) name = t->u.string.bytes;
        else if (*error) {
            json_free(empty);
            return HOST_ERROR;
        }
    }
    template_options opt = {
        .max_output = TEMPLATE_OUTPUT_MAX,
        .include = include_file,
        .include_ctx = h,
        .name = name,
    };
    size_t out_len;
    char *out = file_src ? template_render(file_src, file_len, vars, &opt, &out_len, error)
                         : template_render(t->u.string.bytes, t->u.string.len, vars, &opt, &out_len, error);
    free(file_src);
    json_free(empty);
    if (!out) return HOST_ERROR;
    *result = json_stringn(out, out_len);
    free(out);
    return HOST_OK;
}

static const op_def template_ops[] = {
    {.name = "template", .flags = OP_RECORDED, .perform = effect_template},
    {0},
};

const effect_module template_module = {.name = "template", .ops = template_ops};

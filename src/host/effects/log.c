/* effects/log.c — chidori.log, chidori.mark (alias checkpoint) and console output.
 *
 * `log` {message, fields?}: one line on the log stream; recorded.
 * `mark` {label, data?}: a trace marker in the call log; prints nothing.
 * `console` {level, text}: guest console output; not recorded (a view of the run, not an input
 * to it), so replay prints it again.
 * Guest text reaches the operator only through util/termtext.h: escape sequences and other
 * controls are escaped, and a line that looks like one of chidori's own is marked "(guest) ".
 * All trust only that args is an object; everything else is checked.
 */
#include "host/host_internal.h"
#include "host/ops.h"
#include "util/buf.h"
#include "util/termtext.h"

#include <stdlib.h>
#include <string.h>

static int effect_log(host *h, const json_t *args, json_t **result, char **error)
{
    const json_t *message = json_object_get(args, "message");
    if (!json_is_string(message)) {
        *error = xstrdup("chidori.log: `message` must be a string");
        return HOST_ERROR;
    }
    const json_t *fields = json_object_get(args, "fields");
    fputs("[log] ", h->log_out);
    write_for_terminal(h->log_out, message->u.string.bytes, message->u.string.len);
    if (fields && fields->type != JSON_NULL) {
        size_t n;
        char *f = json_dump(fields, JSON_COMPACT, &n); /* JSON escapes control characters; bidi controls are not */
        fputc(' ', h->log_out);
        term_write(h->log_out, f, n, false);
        free(f);
    }
    fputc('\n', h->log_out);
    fflush(h->log_out);
    *result = json_null();
    return HOST_OK;
}

static int effect_mark(host *h, const json_t *args, json_t **result, char **error)
{
    if (!host_arg_string(args, "label", error)) return HOST_ERROR;
    *result = json_null();
    return HOST_OK;
}

static int effect_console(host *h, const json_t *args, json_t **result, char **error)
{
    const char *level = host_arg_string(args, "level", error);
    if (!level) return HOST_ERROR;
    const json_t *text = json_object_get(args, "text");
    if (!json_is_string(text)) {
        *error = xstrdup("missing string argument `text`");
        return HOST_ERROR;
    }
    bool to_err = strcmp(level, "error") == 0 || strcmp(level, "warn") == 0 || strcmp(level, "trace") == 0;
    FILE *out = to_err ? h->log_out : h->console_out;
    /* sanitized, forged lines marked; the newline goes with it so a CRLF at the end stays one */
    char *line = xmalloc(text->u.string.len + 1);
    memcpy(line, text->u.string.bytes, text->u.string.len);
    line[text->u.string.len] = '\n';
    term_write(out, line, text->u.string.len + 1, true);
    free(line);
    fflush(out);
    *result = json_null();
    return HOST_OK;
}

static const op_def log_ops[] = {
    {.name = "log", .flags = OP_RECORDED, .perform = effect_log},
    {.name = "mark", .flags = OP_RECORDED | OP_TRACE, .perform = effect_mark},
    {.name = "console", .flags = 0, .perform = effect_console},
    {0},
};

const effect_module log_module = {.name = "log", .ops = log_ops};

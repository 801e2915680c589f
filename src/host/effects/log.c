/* effects/log.c — chidori.log and console output.
 *
 * `log` {message, fields?} is a recorded effect: one line on the log stream and one call record.
 * `console` {level, text} writes guest console output (not recorded: it is a view of the run,
 * not an input to it). Both trust only that args is an object; everything else is checked.
 */
#include "host/host_internal.h"
#include "host/ops.h"
#include "util/buf.h"

#include <stdlib.h>
#include <string.h>

int effect_log(host *h, const json_t *args, json_t **result, char **error)
{
    const char *message = host_arg_string(args, "message", error);
    if (!message) return 1;
    const json_t *fields = json_object_get(args, "fields");
    size_t mlen = json_object_get(args, "message")->u.string.len;
    fputs("[log] ", h->log_out);
    fwrite(message, 1, mlen, h->log_out);
    if (fields && fields->type != JSON_NULL) {
        char *f = json_dump(fields, JSON_COMPACT, NULL);
        fprintf(h->log_out, " %s", f);
        free(f);
    }
    fputc('\n', h->log_out);
    fflush(h->log_out);
    *result = json_null();
    return 0;
}

int effect_console(host *h, const json_t *args, json_t **result, char **error)
{
    const char *level = host_arg_string(args, "level", error);
    if (!level) return 1;
    const json_t *text = json_object_get(args, "text");
    if (!json_is_string(text)) {
        *error = xstrdup("missing string argument `text`");
        return 1;
    }
    bool to_err = strcmp(level, "error") == 0 || strcmp(level, "warn") == 0 || strcmp(level, "trace") == 0;
    FILE *out = to_err ? h->log_out : h->console_out;
    fwrite(text->u.string.bytes, 1, text->u.string.len, out);
    fputc('\n', out);
    fflush(out);
    *result = json_null();
    return 0;
}

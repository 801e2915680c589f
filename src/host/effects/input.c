/* effects/input.c — chidori.input(prompt, opts): a human's answer.
 *
 * Answered, in order, by the next `--answer` given on the command line, or by the person at the
 * terminal when there is one; otherwise the run pauses (HOST_SUSPEND) and is resumed later with
 * the answer (`chidori resume`, or POST /sessions/{id}/resume under serve). A blank answer takes
 * opts.default when there is one. Trusts nothing in prompt or opts: what of them reaches the
 * terminal goes through write_for_terminal (util/termtext.h).
 */
#include "host/host_internal.h"
#include "host/ops.h"
#include "util/buf.h"

#include <stdlib.h>
#include <string.h>

#define ANSWER_MAX_BYTES 65536

static char *ask_terminal(host *h, const char *prompt, const json_t *opts)
{
    /* the prompt, choices and default are the agent's text: sanitized like its console */
    fputs("? ", stderr);
    write_for_terminal(stderr, prompt, strlen(prompt));
    const json_t *choices = json_object_get(opts, "choices");
    if (json_is_array(choices) && choices->u.array.len) {
        size_t n;
        char *c = json_dump(choices, JSON_COMPACT, &n);
        fputc(' ', stderr);
        write_for_terminal(stderr, c, n);
        free(c);
    }
    const char *def = json_string_value(json_object_get(opts, "default"));
    if (def) {
        fputs(" (default: ", stderr);
        write_for_terminal(stderr, def, strlen(def));
        fputc(')', stderr);
    }
    fputs(": ", stderr);
    fflush(stderr);
    buf b = {0};
    int ch;
    while ((ch = getchar()) != EOF && ch != '\n')
        if (b.len < ANSWER_MAX_BYTES) buf_putc(&b, (char)ch);
    if (ch == EOF && b.len == 0) {
        buf_free(&b);
        return NULL;
    }
    if (b.len && b.data[b.len - 1] == '\r') b.data[--b.len] = '\0';
    return buf_steal(&b);
}

int effect_input(host *h, const json_t *args, json_t **result, char **error)
{
    const char *prompt = host_arg_string(args, "prompt", error);
    if (!prompt) return HOST_ERROR;
    const json_t *opts = json_object_get(args, "opts");
    char *answer = NULL;
    if (h->next_answer < h->n_answers) {
        answer = xstrdup(h->answers[h->next_answer++]);
    } else if (h->interactive) {
        answer = ask_terminal(h, prompt, opts);
        if (!answer && !json_string_value(json_object_get(opts, "default"))) {
            *error = xasprintf("input: no answer to `%s` (end of input)", prompt);
            return HOST_ERROR;
        }
    } else {
        return HOST_SUSPEND;
    }
    const char *def = json_string_value(json_object_get(opts, "default"));
    if ((!answer || !*answer) && def) {
        free(answer);
        answer = xstrdup(def);
    }
    *result = json_string(answer ? answer : "");
    free(answer);
    return HOST_OK;
}

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

extern const effect_module input_module; /* defined at the end of this file */

#define ANSWER_MAX_BYTES 65536

/* The answers given up front (--answer), used in order, and whether a terminal may be asked. */
typedef struct input_state {
    char **answers;
    size_t n_answers, next_answer;
    bool interactive;
} input_state;

static int input_init(host *h, const host_config *cfg, void **state, char **error)
{
    input_state *s = xcalloc(1, sizeof *s);
    s->n_answers = cfg->n_answers;
    s->answers = xcalloc(cfg->n_answers + 1, sizeof(char *));
    for (size_t i = 0; i < cfg->n_answers; i++) s->answers[i] = xstrdup(cfg->answers[i]);
    s->interactive = cfg->interactive;
    *state = s;
    return 0;
}

static void input_free(void *state)
{
    input_state *s = state;
    for (size_t i = 0; i < s->n_answers; i++) free(s->answers[i]);
    free(s->answers);
    free(s);
}

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

static int effect_input(host *h, const json_t *args, json_t **result, char **error)
{
    input_state *s = host_module_state(h, &input_module);
    const char *prompt = host_arg_string(args, "prompt", error);
    if (!prompt) return HOST_ERROR;
    const json_t *opts = json_object_get(args, "opts");
    char *answer = NULL;
    if (s->next_answer < s->n_answers) {
        answer = xstrdup(s->answers[s->next_answer++]);
    } else if (s->interactive) {
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

static const op_def input_ops[] = {
    {.name = "input", .flags = OP_RECORDED | OP_ANSWERABLE, .perform = effect_input},
    {0},
};

const effect_module input_module = {.name = "input", .ops = input_ops, .init = input_init, .free = input_free};

/* template_lang.h — chidori.template: a small Jinja-style template engine for prompts and files.
 *
 * Trusted host code rendering an untrusted template (written by the agent) against untrusted vars
 * (JSON from the agent). Every resource is bounded: output size, block and expression nesting,
 * include depth, loop iterations and total work, so no template can allocate without bound,
 * overflow the C stack or run for long. Includes go through a host callback (the host confines
 * the names to the agent's folder); the engine itself touches no files.
 *
 * Language (a Jinja subset; see the comment at the top of template_lang.c for the exact rules):
 *   {{ expr }}  {% if %}/{% elif %}/{% else %}/{% endif %}  {% for x in xs %}…{% else %}…{% endfor %}
 *   {% for k, v in obj.items() %}  {% include "name" %}  {% raw %}…{% endraw %}  {# comment #}
 *   whitespace control with a '-' inside any delimiter: {%- -%} {{- -}} {#- -#}
 *   filters: upper lower trim default(value, boolean=false) (alias d) join(sep="") length (alias
 *   count) tojson(indent=none) replace(old, new, count=none) round(precision=0, method="common")
 *   (precision also spelled ndigits).
 * Values print as: strings raw, numbers like JavaScript (1, 2.5), true/false, null as nothing,
 * arrays/objects as compact JSON. Undefined values are errors (StrictUndefined) except under
 * `default`, in `is defined`/`is undefined`, and where only truthiness is asked (if/elif
 * conditions, `not`, the operands of `and`/`or`, a conditional expression's condition).
 */
#ifndef CHIDORI_TEMPLATE_H
#define CHIDORI_TEMPLATE_H

#include <stddef.h>

#include "util/json.h"

#define TEMPLATE_DEFAULT_MAX_OUTPUT ((size_t)1 << 20)
#define TEMPLATE_DEFAULT_MAX_INCLUDE_DEPTH 16
#define TEMPLATE_MAX_NESTING 64          /* nested {% if %}/{% for %} blocks in one template */
#define TEMPLATE_MAX_EXPR_NESTING 64     /* parentheses, brackets, `not`s and argument lists */
#define TEMPLATE_MAX_EXPR_SIZE 256       /* height of one expression tree (a.b.c…, x|f|g…) */
#define TEMPLATE_MAX_ITERATIONS 1000000  /* loop iterations in one render, all loops together */
#define TEMPLATE_MAX_WORK 20000000       /* evaluation steps in one render (about 0.5 s) */
#define TEMPLATE_MAX_INCLUDES 256        /* distinct included templates in one render */

/* Load an included template by name. Return 0 with *source (malloc'd) and *len, or -1 with *error (malloc'd). */
typedef int template_include_fn(void *ctx, const char *name, char **source, size_t *len, char **error);

typedef struct template_options {
    size_t max_output;            /* output larger than this is an error (0 = 1 MiB default) */
    int max_include_depth;        /* nested includes (0 = default 16) */
    template_include_fn *include; /* NULL: {% include %} is an error */
    void *include_ctx;
    const char *name;             /* template name for error messages, e.g. "prompt.txt" or "<inline>" */
} template_options;

/* Render src[0..len) with vars (a JSON object). Returns malloc'd NUL-terminated output (*out_len set)
   or NULL with *error (malloc'd) naming "<name>:line:col: what". */
char *template_render(const char *src, size_t len, const json_t *vars, const template_options *opt, size_t *out_len, char **error);

#endif

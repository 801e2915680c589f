/* test_template.c — chidori.template: every feature, every error (with its line:col), the
 * resource caps (output, nesting, includes, iterations) and garbage inputs. */
#include "unit.h"
#include "host/template_lang.h"
#include "util/buf.h"
#include "util/json.h"

#include <stdlib.h>

/* Includes served from a fixed table; "<name>" missing gives an error. */
static const char *inc_table[][2] = {
    {"hello.txt", "Hello, {{ name }}!"},
    {"self.txt", "x{% include \"self.txt\" %}"},
    {"a.txt", "A{% include \"b.txt\" %}"},
    {"b.txt", "B{% if deep %}{% include \"a.txt\" %}{% endif %}"},
    {"item.txt", "[{{ loop.index }}:{{ item }}]"},
    {"bad.txt", "line1\n{{ oops }}"},
    {"syntax.txt", "ok\n  {% if %}"},
    {"dbl.txt", "{% include \"dbl2.txt\" %}{% include \"dbl2.txt\" %}"},
    {"dbl2.txt", "{% include \"dbl3.txt\" %}{% include \"dbl3.txt\" %}"},
    {"dbl3.txt", "z"},
};
static int inc_calls;

static int inc_cb(void *ctx, const char *name, char **source, size_t *len, char **error)
{
    (void)ctx;
    inc_calls++;
    for (size_t i = 0; i < sizeof inc_table / sizeof inc_table[0]; i++)
        if (!strcmp(inc_table[i][0], name)) {
            *source = xstrdup(inc_table[i][1]);
            *len = strlen(*source);
            return 0;
        }
    *error = xasprintf("no such template: %s", name);
    return -1;
}

static char *render_opt(const char *src, const char *vars_json, const template_options *opt, char **err, size_t *n)
{
    json_error je;
    json_t *vars = vars_json ? json_parse(vars_json, strlen(vars_json), NULL, &je) : NULL;
    if (vars_json && !vars) {
        *err = xasprintf("bad test vars: %s", je.message);
        return NULL;
    }
    char *out = template_render(src, strlen(src), vars, opt, n, err);
    json_free(vars);
    return out;
}

static char *render(const char *src, const char *vars_json, char **err)
{
    template_options opt = {.name = "t.txt", .include = inc_cb};
    size_t n;
    return render_opt(src, vars_json, &opt, err, &n);
}

/* Renders to exactly `want`. */
#define CHECK_RENDER(src, vars, want)                                  \
    do {                                                               \
        char *err_ = NULL;                                             \
        char *got_ = render(src, vars, &err_);                         \
        if (!got_) {                                                   \
            char m_[1024];                                              \
            snprintf(m_, sizeof m_, "render(%s) failed: %.400s", #src, err_ ? err_ : "?"); \
            free(err_);                                                \
            unit_fail(__FILE__, __LINE__, m_);                         \
            return;                                                    \
        }                                                              \
        int ok_ = strcmp(got_, want) == 0;                             \
        char m_[1024];                                                  \
        snprintf(m_, sizeof m_, "render(%s) = \"%.200s\", want \"%.200s\"", #src, got_, want); \
        free(got_);                                                    \
        if (!ok_) {                                                    \
            unit_fail(__FILE__, __LINE__, m_);                         \
            return;                                                    \
        }                                                              \
    } while (0)

/* Fails with an error message equal to `want`. */
#define CHECK_ERROR(src, vars, want)                                   \
    do {                                                               \
        char *err_ = NULL;                                             \
        char *got_ = render(src, vars, &err_);                         \
        char m_[1024];                                                  \
        int ok_ = !got_ && err_ && strcmp(err_, want) == 0;            \
        snprintf(m_, sizeof m_, "render(%.100s): want error \"%.200s\", got %s \"%.300s\"", #src, want, \
                 got_ ? "output" : "error", got_ ? got_ : err_ ? err_ : "(null)"); \
        free(got_);                                                    \
        free(err_);                                                    \
        if (!ok_) {                                                    \
            unit_fail(__FILE__, __LINE__, m_);                         \
            return;                                                    \
        }                                                              \
    } while (0)

/* Fails with an error message containing `want`. */
#define CHECK_ERROR_HAS(src, vars, want)                               \
    do {                                                               \
        char *err_ = NULL;                                             \
        char *got_ = render(src, vars, &err_);                         \
        char m_[1024];                                                  \
        int ok_ = !got_ && err_ && strstr(err_, want) != NULL;         \
        snprintf(m_, sizeof m_, "render(%.100s): want error with \"%.200s\", got %s \"%.300s\"", #src, want, \
                 got_ ? "output" : "error", got_ ? got_ : err_ ? err_ : "(null)"); \
        free(got_);                                                    \
        free(err_);                                                    \
        if (!ok_) {                                                    \
            unit_fail(__FILE__, __LINE__, m_);                         \
            return;                                                    \
        }                                                              \
    } while (0)

static const char *V = "{\"name\":\"Ada\",\"n\":3,\"f\":2.5,\"t\":true,\"no\":false,\"nil\":null,"
                       "\"list\":[1,\"two\",3.5],\"empty\":[],\"eo\":{},\"s\":\"\","
                       "\"user\":{\"name\":\"Grace\",\"tags\":[\"a\",\"b\"],\"key with space\":7},"
                       "\"i\":1,\"k\":\"name\",\"obj\":{\"x\":1,\"y\":[2,3]},\"pad\":\"  hi \\n\"}";

TEST(template_text_and_variables)
{
    CHECK_RENDER("", V, "");
    CHECK_RENDER("plain text { } {x} %} }}", V, "plain text { } {x} %} }}");
    CHECK_RENDER("Hi {{ name }}!", V, "Hi Ada!");
    CHECK_RENDER("{{name}}{{  name  }}", V, "AdaAda");
    CHECK_RENDER("{{ user.name }} {{ user['name'] }} {{ user[\"key with space\"] }}", V, "Grace Grace 7");
    CHECK_RENDER("{{ user.tags[0] }}{{ user.tags[1] }}{{ list[i] }}{{ user[k] }}", V, "abtwoGrace");
    CHECK_RENDER("{{ list[-1] }} {{ list[-3] }}", V, "3.5 1");
    CHECK_RENDER("{{ obj.y[1] }} {{ obj['y'][0] }}", V, "3 2");
    CHECK_RENDER("{{ (user).tags[0] }}", V, "a");
    /* vars may be NULL (no variables) */
    CHECK_RENDER("no vars", NULL, "no vars");
    /* NUL bytes in text pass through */
    {
        char *err = NULL;
        size_t n = 0;
        template_options opt = {0};
        char *out = template_render("a\0b{{ 1 }}", 10, NULL, &opt, &n, &err);
        CHECK(out && n == 4 && memcmp(out, "a\0b1", 4) == 0);
        free(out);
    }
}

TEST(template_value_printing)
{
    CHECK_RENDER("{{ n }}|{{ f }}|{{ t }}|{{ no }}|{{ nil }}|{{ s }}", V, "3|2.5|true|false||");
    CHECK_RENDER("{{ list }}", V, "[1,\"two\",3.5]");
    CHECK_RENDER("{{ obj }}", V, "{\"x\":1,\"y\":[2,3]}");
    CHECK_RENDER("{{ 1e21 }} {{ 0.1 }} {{ 100 }} {{ 1.50 }} {{ -0 }} {{ -2 }}", V, "1e+21 0.1 100 1.5 0 -2");
    CHECK_RENDER("{{ -42 }} {{ 9007199254740991 }} {{ 9007199254740993 }} {{ 123456789012345680000 }} {{ -1.5e-7 }}", V,
                 "-42 9007199254740991 9007199254740992 123456789012345680000 -1.5e-7");
    CHECK_RENDER("{{ true }}{{ True }}{{ false }}{{ False }}[{{ none }}{{ None }}{{ null }}]", V, "truetruefalsefalse[]");
    CHECK_RENDER("{{ [1, 'a', [true]] }}{{ [] }}", V, "[1,\"a\",[true]][]");
    CHECK_RENDER("{{ [name, n, [t, -n], obj.y | length] }}", V, "[\"Ada\",3,[true,-3],2]");
}

TEST(template_string_literals)
{
    CHECK_RENDER("{{ 'single' }} {{ \"double\" }}", V, "single double");
    CHECK_RENDER("{{ 'a\\nb\\tc\\\\d\\'e\\\"f' }}", V, "a\nb\tc\\d'e\"f");
    CHECK_RENDER("{{ '\\x41\\u00e9\\u4e2d' }}", V, "A\xc3\xa9\xe4\xb8\xad");
    CHECK_RENDER("{{ '}}' }}{{ \"%}\" }}", V, "}}%}");
    CHECK_RENDER("{% if '%}' == '%}' %}yes{% endif %}", V, "yes");
    CHECK_ERROR("{{ 'a\\qb' }}", V, "t.txt:1:6: unknown escape '\\q' in string");
    CHECK_ERROR("{{ '\\x4' }}", V, "t.txt:1:5: bad \\x escape: expected 2 hex digits");
    CHECK_ERROR("{{ 'abc }}", V, "t.txt:1:4: unterminated string literal");
}

TEST(template_filters)
{
    CHECK_RENDER("{{ name | upper }} {{ name|lower }} [{{ pad | trim }}]", V, "ADA ada [hi]");
    CHECK_RENDER("{{ 'caf\xc3\xa9' | upper }}", V, "CAF\xc3\xa9");
    CHECK_RENDER("{{ n | upper }}", V, "3");
    CHECK_RENDER("{{ list | join(', ') }}|{{ user.tags | join }}|{{ empty | join('-') }}", V, "1, two, 3.5|ab|");
    CHECK_RENDER("{{ list | join(sep='+') }}{{ list|join(d='/') }}", V, "1+two+3.51/two/3.5");
    CHECK_RENDER("{{ list | length }} {{ name | length }} {{ user | length }} {{ '\xc3\xa9t\xc3\xa9' | length }} {{ eo|count }}", V,
                 "3 3 3 3 0");
    CHECK_RENDER("{{ obj | tojson }} {{ name | tojson }} {{ nil | tojson }} {{ 'a\"b' | tojson }}", V,
                 "{\"x\":1,\"y\":[2,3]} \"Ada\" null \"a\\\"b\"");
    CHECK_RENDER("{{ obj.y | tojson(indent=2) }}", V, "[\n  2,\n  3\n]");
    CHECK_RENDER("{{ 'a-b-c' | replace('-', '+') }} {{ 'aaa' | replace('a', 'bb', 2) }} {{ 'x' | replace('y', 'z') }}", V,
                 "a+b+c bbbba x");
    CHECK_RENDER("{{ 'abab' | replace(old='ab', new='') }}[{{ 'abc'|replace('b', count=0, new='X') }}]", V, "[abc]");
    CHECK_RENDER("{{ f | round }} {{ 3.5 | round }} {{ 2.675 | round(2) }} {{ 1.25 | round(1) }} {{ -2.5 | round }}", V,
                 "2 4 2.67 1.2 -2");
    CHECK_RENDER("{{ 1234.5 | round(-2) }} {{ 2.1 | round(method='ceil') }} {{ 2.9 | round(0, 'floor') }} {{ 1.234 | round(ndigits=1) }}",
                 V, "1200 3 2 1.2");
    CHECK_RENDER("{{ 1.26 | round(1, 'floor') }} {{ 1.21 | round(precision=1, method='ceil') }}", V, "1.2 1.3");
    CHECK_RENDER("{{ name | upper | replace('A', 'a') | length }}", V, "3");
    CHECK_RENDER("{{ '  x ' | trim | upper }}", V, "X");
}

TEST(template_default_and_undefined_rules)
{
    CHECK_RENDER("{{ missing | default('dflt') }}", V, "dflt");
    CHECK_RENDER("{{ missing | d('dflt') }}", V, "dflt");
    CHECK_RENDER("[{{ missing | default }}]", V, "[]");
    CHECK_RENDER("{{ user.missing | default('x') }} {{ user.missing.deeper[3] | default('y') }}", V, "x y");
    CHECK_RENDER("{{ list[7] | default('z') }} {{ n.foo | default('w') }}", V, "z w");
    CHECK_RENDER("{{ nil | default('was null') }}", V, "was null");
    CHECK_RENDER("{{ name | default('unused') }}{{ s | default('e') }}{{ s | default('e', true) }}", V, "Adae");
    CHECK_RENDER("{{ no | default('x', boolean=true) }} {{ no | default('x') }}", V, "x false");
    CHECK_RENDER("{{ missing | default(name) | upper }}", V, "ADA");
    /* the default's argument is only evaluated when used */
    CHECK_RENDER("{{ name | default(also_missing) }}", V, "Ada");
    CHECK_ERROR("{{ missing | default(also_missing) }}", V, "t.txt:1:22: 'also_missing' is undefined");
    /* truthiness positions */
    CHECK_RENDER("{% if missing %}a{% else %}b{% endif %}", V, "b");
    CHECK_RENDER("{% if not missing %}a{% endif %}", V, "a");
    CHECK_RENDER("{% if missing.deep.er %}a{% elif user.nope %}b{% else %}c{% endif %}", V, "c");
    CHECK_RENDER("{% if missing or name %}{{ missing or name }}{% endif %}", V, "Ada");
    CHECK_RENDER("{% if missing and missing.x == 1 %}a{% else %}b{% endif %}", V, "b");
    CHECK_RENDER("{{ 'y' if missing else 'n' }}", V, "n");
    CHECK_RENDER("{{ missing is defined }} {{ missing is undefined }} {{ name is defined }} {{ user.x is not defined }}", V,
                 "false true true true");
    CHECK_RENDER("{% if missing is defined and missing == 1 %}a{% else %}b{% endif %}", V, "b");
    /* errors: naming the expression and where it is */
    CHECK_ERROR("Hello\n  {{ missing }}", V, "t.txt:2:6: 'missing' is undefined");
    CHECK_ERROR("{{ user.nope }}", V, "t.txt:1:4: 'user.nope' is undefined (no such key)");
    CHECK_ERROR("{{ user.nope.deeper }}", V, "t.txt:1:4: 'user.nope' is undefined (no such key)");
    CHECK_ERROR("{{ user.tags[5] }}", V, "t.txt:1:4: 'user.tags[5]' is undefined (index 5 out of range for length 2)");
    CHECK_ERROR("{{ list[-4] }}", V, "t.txt:1:4: 'list[-4]' is undefined (index -4 out of range for length 3)");
    CHECK_ERROR("{{ n.x }}", V, "t.txt:1:4: 'n.x' is undefined (cannot look up a key in a number)");
    CHECK_ERROR("{{ list.x }}", V, "t.txt:1:4: 'list.x' is undefined (cannot look up a key in a list)");
    CHECK_ERROR("{{ user[0] }}", V, "t.txt:1:4: 'user[0]' is undefined (cannot look up a number index in a object)");
    CHECK_ERROR("{{ missing | upper }}", V, "t.txt:1:4: 'missing' is undefined");
    CHECK_ERROR("{% if missing == 1 %}{% endif %}", V, "t.txt:1:7: 'missing' is undefined");
    CHECK_ERROR("{% for x in missing %}{% endfor %}", V, "t.txt:1:13: 'missing' is undefined");
    CHECK_ERROR("{{ list[missing] }}", V, "t.txt:1:9: 'missing' is undefined");
    CHECK_ERROR("{{ missing and 1 }}", V, "t.txt:1:4: 'missing' is undefined");
    CHECK_ERROR("{{ list[0.5] }}", V, "t.txt:1:9: list index must be a whole number, not a fraction");
}

TEST(template_conditions)
{
    CHECK_RENDER("{% if t %}yes{% endif %}", V, "yes");
    CHECK_RENDER("{% if no %}yes{% endif %}", V, "");
    CHECK_RENDER("{% if no %}a{% elif nil %}b{% elif n == 3 %}c{% else %}d{% endif %}", V, "c");
    CHECK_RENDER("{% if no %}a{% elif nil %}b{% else %}d{% endif %}", V, "d");
    /* truthiness: false, null, 0, "", [], {} are false */
    CHECK_RENDER("{% if 0 %}1{% endif %}{% if s %}2{% endif %}{% if empty %}3{% endif %}{% if eo %}4{% endif %}"
                 "{% if nil %}5{% endif %}{% if '0' %}6{% endif %}{% if [0] %}7{% endif %}{% if obj %}8{% endif %}",
                 V, "678");
    CHECK_RENDER("{{ n == 3 }} {{ n != 3 }} {{ n < 4 }} {{ n > 4 }} {{ n <= 3 }} {{ n >= 3.5 }}", V,
                 "true false true false true false");
    CHECK_RENDER("{{ 'a' < 'b' }} {{ 'b' < 'a' }} {{ 'ab' < 'abc' }} {{ name == 'Ada' }} {{ 1 == 1.0 }} {{ t == 1 }}", V,
                 "true false true true true false");
    CHECK_RENDER("{{ list == [1, 'two', 3.5] }} {{ obj.y == [2, 3] }}", V, "true true");
    CHECK_RENDER("{{ t and n }} {{ no and n }} {{ no or 'x' }} {{ nil or s or 'last' }} {{ not t }} {{ not not n }}", V,
                 "3 false x last false true");
    CHECK_RENDER("{{ t and (no or n == 3) }} {{ (t and no) or n == 3 }} {{ not (n == 3) }}", V, "true true false");
    CHECK_RENDER("{{ not n == 4 }} {{ no or t and no }}", V, "true false");
    CHECK_RENDER("{{ 'two' in list }} {{ 2 in list }} {{ 'x' in obj }} {{ 'z' in obj }} {{ 'da' in name }} {{ '' in name }}", V,
                 "true false true false true true");
    CHECK_RENDER("{{ 'z' not in obj }} {{ 1 not in list }} {{ not 1 in list }}", V, "true false false");
    CHECK_RENDER("{{ 'yes' if t else 'no' }} {{ 'yes' if no else 'no' }} {{ 1 if no else 2 if t else 3 }}", V, "yes no 2");
    CHECK_RENDER("{{ nil is none }} {{ n is number }} {{ name is string }} {{ t is boolean }} {{ obj is mapping }} {{ list is not mapping }}",
                 V, "true true true true true true");
    CHECK_RENDER("{{ name ~ '!' ~ n }} {{ -n }} {{ -(-f) }}", V, "Ada!3 -3 2.5");
    CHECK_ERROR("{{ n < 'a' }}", V, "t.txt:1:4: cannot compare a number with a string");
    CHECK_ERROR("{{ list < list }}", V, "t.txt:1:4: cannot compare a list with a list");
    CHECK_ERROR("{{ 1 in n }}", V, "t.txt:1:9: 'in' needs a list, object or string on the right, not a number");
    CHECK_ERROR("{{ 1 in obj }}", V, "t.txt:1:4: 'in' an object needs a string key, not a number");
    CHECK_ERROR("{{ -name }}", V, "t.txt:1:4: unary '-' needs a number, not a string");
    CHECK_ERROR("{{ 'a' if t }}", V, "t.txt:1:13: expected 'else' in a conditional expression, found '}}'");
}

TEST(template_for_loops)
{
    CHECK_RENDER("{% for x in list %}{{ x }},{% endfor %}", V, "1,two,3.5,");
    CHECK_RENDER("{% for x in list %}{{ loop.index }}/{{ loop.index0 }}/{{ loop.length }}/{{ loop.first }}/{{ loop.last }}"
                 "/{{ loop.revindex }}/{{ loop.revindex0 }} {% endfor %}",
                 V, "1/0/3/true/false/3/2 2/1/3/false/false/2/1 3/2/3/false/true/1/0 ");
    CHECK_RENDER("{% for x in list %}{{ x }}{% if not loop.last %}, {% endif %}{% endfor %}", V, "1, two, 3.5");
    CHECK_RENDER("{% for x in empty %}{{ x }}{% else %}none{% endfor %}", V, "none");
    CHECK_RENDER("{% for x in list %}{{ x }}{% else %}none{% endfor %}", V, "1two3.5");
    CHECK_RENDER("{% for k in obj %}{{ k }};{% endfor %}", V, "x;y;");
    CHECK_RENDER("{% for k, v in obj.items() %}{{ k }}={{ v }};{% endfor %}", V, "x=1;y=[2,3];");
    CHECK_RENDER("{% for p in obj.items() %}{{ p[0] }}{{ p | tojson }};{% endfor %}", V, "x[\"x\",1];y[\"y\",[2,3]];");
    CHECK_RENDER("{{ obj.keys() }} {{ obj.values() }} {{ obj.items() }} {{ obj.items() | length }}", V,
                 "[\"x\",\"y\"] [1,[2,3]] [[\"x\",1],[\"y\",[2,3]]] 2");
    CHECK_RENDER("{% for v in user.values() %}{{ v }};{% endfor %}", V, "Grace;[\"a\",\"b\"];7;");
    CHECK_RENDER("{% for a, b in [[1, 2], [3, 4]] %}{{ a }}{{ b }}{% endfor %}", V, "1234");
    CHECK_RENDER("{% for x in [1,2] %}{% for y in ['a','b'] %}{{ loop.index }}{{ x }}{{ y }} {% endfor %}{{ loop.index }}|{% endfor %}",
                 V, "11a 21b 1|12a 22b 2|");
    /* the loop variable shadows, and is gone after the loop */
    CHECK_RENDER("{% for name in ['x'] %}{{ name }}{% endfor %}{{ name }}", V, "xAda");
    CHECK_ERROR("{% for x in list %}{% endfor %}{{ x }}", V, "t.txt:1:35: 'x' is undefined");
    CHECK_ERROR("{{ loop.index }}", V, "t.txt:1:4: 'loop' is undefined");
    CHECK_ERROR("{% for x in n %}{% endfor %}", V, "t.txt:1:13: cannot loop over a number");
    CHECK_ERROR("{% for x in name %}{% endfor %}", V, "t.txt:1:13: cannot loop over a string");
    CHECK_ERROR("{% for k, v in obj %}{% endfor %}", V,
                "t.txt:1:16: looping over an object gives its keys; use .items() to get keys and values");
    CHECK_ERROR("{% for a, b in list %}{% endfor %}", V,
                "t.txt:1:16: cannot unpack a number into two loop variables (need a two-element list)");
    CHECK_ERROR("{{ n.items() }}", V, "t.txt:1:4: items() needs an object, not a number");
    CHECK_ERROR("{{ obj.pop() }}", V, "t.txt:1:8: unknown method 'pop' (only items(), keys() and values())");
    CHECK_ERROR("{% for in list %}{% endfor %}", V, "t.txt:1:8: expected a loop variable name, found 'in'");
    CHECK_ERROR("{% for x list %}{% endfor %}", V, "t.txt:1:10: expected 'in' in {% for %}, found 'list'");
}

TEST(template_whitespace_control_comments_raw)
{
    CHECK_RENDER("a  {{- name -}}  b", V, "aAdab");
    CHECK_RENDER("a \n {{- name }} \n b", V, "aAda \n b");
    CHECK_RENDER("<ul>\n{%- for x in [1,2] %}\n  <li>{{ x }}</li>\n{%- endfor %}\n</ul>", V,
                 "<ul>\n  <li>1</li>\n  <li>2</li>\n</ul>");
    CHECK_RENDER("{% for x in [1,2] -%}\n  {{ x }}\n{%- endfor %}", V, "12");
    CHECK_RENDER("a {# a comment {{ with }} {% tags %} #} b", V, "a  b");
    CHECK_RENDER("a {#- comment -#} b", V, "ab");
    CHECK_RENDER("a\n{#-\nmulti\nline\n#}\nb", V, "a\nb");
    CHECK_RENDER("{##}{#-#}x", V, "x");
    CHECK_RENDER("{% raw %}{{ not evaluated }} {% if %}{% endraw %}", V, "{{ not evaluated }} {% if %}");
    CHECK_RENDER("x {%- raw -%}  {{ y }}  {%- endraw -%} z", V, "x{{ y }}z");
    CHECK_RENDER("{% raw %}{% endraw %}", V, "");
    CHECK_RENDER("{%raw%}a{%endraw%}", V, "a");
    /* templates keep their trailing newline */
    CHECK_RENDER("line\n", V, "line\n");
    CHECK_ERROR("a {# never closed", V, "t.txt:1:3: comment is never closed (expected '#}')");
    CHECK_ERROR("{% raw %}abc", V, "t.txt:1:1: {% raw %} is never closed (expected {% endraw %})");
    CHECK_ERROR("{% endraw %}", V, "t.txt:1:4: unexpected {% endraw %} outside {% raw %}");
}

TEST(template_syntax_errors)
{
    CHECK_ERROR("line1\n{% if x %}\nno end", V, "t.txt:2:1: {% if %} is never closed (expected {% endif %})");
    CHECK_ERROR("{% for x in list %}no end", V, "t.txt:1:1: {% for %} is never closed (expected {% endfor %})");
    CHECK_ERROR("ab\ncd {{ x", V, "t.txt:2:4: '{{' is never closed (expected '}}')");
    CHECK_ERROR("{% if t", V, "t.txt:1:1: '{%' is never closed (expected '%}')");
    CHECK_ERROR("{%", V, "t.txt:1:1: '{%' is never closed (expected '%}')");
    CHECK_ERROR("{{", V, "t.txt:1:1: '{{' is never closed (expected '}}')");
    CHECK_ERROR("{{ x {% endif %}", V, "t.txt:1:6: unexpected character '{'");
    CHECK_ERROR("{{ name | shout }}", V, "t.txt:1:11: unknown filter 'shout'");
    CHECK_ERROR("{{ name | }}", V, "t.txt:1:11: expected a filter name after '|', found '}}'");
    CHECK_ERROR("{% set x = 1 %}", V, "t.txt:1:4: unknown tag 'set'");
    CHECK_ERROR("{% endif %}", V, "t.txt:1:4: unexpected {% endif %} outside {% if %}");
    CHECK_ERROR("{% endfor %}", V, "t.txt:1:4: unexpected {% endfor %} outside {% for %}");
    CHECK_ERROR("{% else %}", V, "t.txt:1:4: unexpected {% else %} outside {% if %} or {% for %}");
    CHECK_ERROR("{% if t %}{% endfor %}", V, "t.txt:1:14: unexpected {% endfor %} inside {% if %}");
    CHECK_ERROR("{% for x in list %}{% endif %}", V, "t.txt:1:23: unexpected {% endif %} inside {% for %}");
    CHECK_ERROR("{% for x in list %}{% elif t %}{% endfor %}", V, "t.txt:1:23: unexpected {% elif %} inside {% for %}");
    CHECK_ERROR("{% if t %}{% else %}{% else %}{% endif %}", V,
                "t.txt:1:24: unexpected {% else %} inside {% if %} after {% else %}");
    CHECK_ERROR("{% if t %}{% else %}{% elif t %}{% endif %}", V,
                "t.txt:1:24: unexpected {% elif %} inside {% if %} after {% else %}");
    CHECK_ERROR("{% if t %}{% endif extra %}", V, "t.txt:1:20: expected '%}', found 'extra'");
    CHECK_ERROR("{% if %}{% endif %}", V, "t.txt:1:7: expected an expression, found '%}'");
    CHECK_ERROR("{{ }}", V, "t.txt:1:1: empty {{ }}");
    CHECK_ERROR("{{ a b }}", V, "t.txt:1:6: expected '}}', found 'b'");
    CHECK_ERROR("{{ (a }}", V, "t.txt:1:7: expected ')', found '}}'");
    CHECK_ERROR("{{ a[1 }}", V, "t.txt:1:8: expected ']', found '}}'");
    CHECK_ERROR("{{ a. }}", V, "t.txt:1:7: expected a name after '.', found '}}'");
    CHECK_ERROR("{{ a == }}", V, "t.txt:1:9: expected an expression, found '}}'");
    CHECK_ERROR("{{ and }}", V, "t.txt:1:4: unexpected 'and'");
    CHECK_ERROR("{{ a ! b }}", V, "t.txt:1:6: unexpected character '!'");
    CHECK_ERROR("{{ a @ b }}", V, "t.txt:1:6: unexpected character '@'");
    CHECK_ERROR("{{ 12abc }}", V, "t.txt:1:6: unexpected character 'a' in a number");
    CHECK_ERROR("{{ 1e999 }}", V, "t.txt:1:4: number literal out of range");
    CHECK_ERROR("{{ x is shiny }}", V, "t.txt:1:9: unknown test 'shiny'");
    CHECK_ERROR("{{ x not y }}", V, "t.txt:1:10: expected 'in' after 'not', found 'y'");
    CHECK_ERROR("{% %}", V, "t.txt:1:4: expected a tag name after '{%', found '%}'");
    CHECK_ERROR("{{ x %}", V, "t.txt:1:6: unexpected character '%'");
    CHECK_ERROR("{% if x }}", V, "t.txt:1:9: unexpected character '}'");
    /* positions in later lines count bytes from 1 */
    CHECK_ERROR("one\ntwo\n\tthree {{ x.", V, "t.txt:3:13: expected a name after '.', found end of template");
}

TEST(template_filter_argument_errors)
{
    CHECK_ERROR("{{ name | replace('a') }}", V, "t.txt:1:11: filter 'replace' needs argument 'new'");
    CHECK_ERROR("{{ name | upper(1) }}", V, "t.txt:1:17: filter 'upper' takes at most 0 arguments");
    CHECK_ERROR("{{ list | join(',', 1) }}", V, "t.txt:1:21: filter 'join' takes at most 1 argument");
    CHECK_ERROR("{{ f | round(digits=1) }}", V, "t.txt:1:14: filter 'round' has no argument 'digits'");
    CHECK_ERROR("{{ f | round(precision=1, 2) }}", V, "t.txt:1:27: positional argument after a keyword argument");
    CHECK_ERROR("{{ f | round(1, precision=1) }}", V, "t.txt:1:17: argument 'precision' given twice");
    CHECK_ERROR("{{ name | round }}", V, "t.txt:1:4: round needs a number, not a string");
    CHECK_ERROR("{{ f | round(1.5) }}", V, "t.txt:1:14: round precision must be a whole number from -400 to 100");
    CHECK_ERROR("{{ f | round(1, 'up') }}", V, "t.txt:1:17: round method must be \"common\", \"ceil\" or \"floor\"");
    CHECK_ERROR("{{ n | join }}", V, "t.txt:1:4: join needs a list, not a number");
    CHECK_ERROR("{{ n | length }}", V, "t.txt:1:4: length needs a string, list or object, not a number");
    CHECK_ERROR("{{ name | replace('', 'x') }}", V, "t.txt:1:19: replace: the string to replace is empty");
    CHECK_ERROR("{{ obj | tojson(4) }}", V, "t.txt:1:17: tojson supports indent=2 only");
    CHECK_ERROR("{{ name | replace(missing, 'x') }}", V, "t.txt:1:19: 'missing' is undefined");
}

TEST(template_includes)
{
    CHECK_RENDER("<{% include 'hello.txt' %}>", V, "<Hello, Ada!>");
    CHECK_RENDER("{% for item in [1,2] %}{% include 'item.txt' %}{% endfor %}", V, "[1:1][2:2]");
    CHECK_RENDER("{% include 'hel' ~ 'lo.txt' %}", V, "Hello, Ada!");
    CHECK_RENDER("{% include 'a.txt' %}", V, "AB");
    /* each distinct name is loaded once per render */
    inc_calls = 0;
    CHECK_RENDER("{% include 'dbl.txt' %}", V, "zzzz");
    CHECK(inc_calls == 3);
    CHECK_ERROR("{% include 'nope.txt' %}", V, "t.txt:1:1: include 'nope.txt': no such template: nope.txt");
    CHECK_ERROR("x\n {% include 'self.txt' %}", V,
                "self.txt:1:2: includes nested too deeply (more than 16) including 'self.txt'"
                " (included from self.txt:1:2) (included from self.txt:1:2) (included from self.txt:1:2)"
                " (included from self.txt:1:2) (included from self.txt:1:2) (included from self.txt:1:2)"
                " (included from self.txt:1:2) (included from self.txt:1:2) (included from self.txt:1:2)"
                " (included from self.txt:1:2) (included from self.txt:1:2) (included from self.txt:1:2)"
                " (included from self.txt:1:2) (included from self.txt:1:2) (included from self.txt:1:2)"
                " (included from t.txt:2:2)");
    CHECK_ERROR_HAS("{% include 'a.txt' %}", "{\"deep\":true}", "includes nested too deeply");
    CHECK_ERROR("{% include 'bad.txt' %}", V, "bad.txt:2:4: 'oops' is undefined (included from t.txt:1:1)");
    CHECK_ERROR("{% include 'syntax.txt' %}", V,
                "syntax.txt:2:9: expected an expression, found '%}' (included from t.txt:1:1)");
    CHECK_ERROR("{% include n %}", V, "t.txt:1:12: include needs a template name (a string), not a number");
    CHECK_ERROR("{% include '\\0x' %}", V, "t.txt:1:12: include name contains a NUL byte");
    /* no callback: include is an error */
    {
        char *err = NULL;
        size_t n;
        template_options opt = {.name = "p.txt"};
        char *out = render_opt("ok {% include 'hello.txt' %}", V, &opt, &err, &n);
        CHECK(!out);
        CHECK_STR(err, "p.txt:1:4: {% include %} is not available here");
        free(err);
    }
    /* a smaller include depth */
    {
        char *err = NULL;
        size_t n;
        template_options opt = {.name = "p.txt", .include = inc_cb, .max_include_depth = 1};
        char *out = render_opt("{% include 'a.txt' %}", V, &opt, &err, &n);
        CHECK(!out);
        CHECK(err && !strcmp(err, "a.txt:1:2: includes nested too deeply (more than 1) including 'b.txt' (included from p.txt:1:1)"));
        free(err);
    }
}

TEST(template_output_cap)
{
    template_options opt = {.name = "cap", .max_output = 10};
    char *err = NULL;
    size_t n = 0;
    char *out = render_opt("0123456789", V, &opt, &err, &n);
    CHECK(out && n == 10);
    free(out);
    out = render_opt("0123456789{{ 'x' }}", V, &opt, &err, &n);
    CHECK(!out);
    CHECK_STR(err, "cap:1:11: output exceeds the limit of 10 bytes");
    free(err);
    out = render_opt("{% for x in list %}abcd{% endfor %}", V, &opt, &err, &n);
    CHECK(!out);
    CHECK_STR(err, "cap:1:20: output exceeds the limit of 10 bytes");
    free(err);
    /* intermediate values are capped too */
    out = render_opt("{% if (name ~ name ~ name ~ name) | length %}{% endif %}", V, &opt, &err, &n);
    CHECK(!out);
    CHECK_STR(err, "cap:1:7: value larger than the output limit (10 bytes)");
    free(err);
    out = render_opt("{% if 'aaaa' | replace('a', 'aaa') %}{% endif %}", V, &opt, &err, &n);
    CHECK(!out);
    CHECK_STR(err, "cap:1:7: value larger than the output limit (10 bytes)");
    free(err);
    /* the default cap is 1 MiB: a nested loop that would write 10^9 bytes stops there */
    char big[200];
    snprintf(big, sizeof big,
             "{%% for a in %s %%}{%% for b in %s %%}{%% for c in %s %%}xxxxxxxxxx{%% endfor %%}{%% endfor %%}{%% endfor %%}",
             "[1,2,3,4,5,6,7,8,9,10]", "[1,2,3,4,5,6,7,8,9,10]", "[1,2,3,4,5,6,7,8,9,10]");
    out = render(big, NULL, &err);
    CHECK(out && strlen(out) == 10000);
    free(out);
}

static char *repeat(const char *a, int n, const char *mid, const char *b, int m)
{
    buf s = {0};
    for (int i = 0; i < n; i++) buf_puts(&s, a);
    buf_puts(&s, mid);
    for (int i = 0; i < m; i++) buf_puts(&s, b);
    return buf_steal(&s);
}

TEST(template_nesting_limits)
{
    char *err = NULL;
    /* 64 nested ifs are fine, 65 are not; 100k is an error, not a crash */
    char *src = repeat("{% if t %}", 64, "deep", "{% endif %}", 64);
    char *out = render(src, V, &err);
    CHECK(out && !strcmp(out, "deep"));
    free(out);
    free(src);
    src = repeat("{% if t %}", 65, "deep", "{% endif %}", 65);
    out = render(src, V, &err);
    free(src);
    CHECK(!out);
    CHECK_STR(err, "t.txt:1:641: blocks nested too deeply (more than 64 levels)");
    free(err);
    src = repeat("{% if t %}", 100000, "", "", 0);
    out = render(src, V, &err);
    free(src);
    CHECK(!out && strstr(err, "blocks nested too deeply"));
    free(err);
    src = repeat("{% for x in list %}", 100000, "", "", 0);
    out = render(src, V, &err);
    free(src);
    CHECK(!out && strstr(err, "blocks nested too deeply"));
    free(err);
    /* parentheses, brackets, nots, minus signs */
    src = repeat("(", 100000, "1", ")", 100000);
    char *t = xasprintf("{{ %s }}", src);
    out = render(t, V, &err);
    free(src);
    free(t);
    CHECK(!out && strstr(err, "expression nested too deeply"));
    free(err);
    src = repeat("(", 30, "n", ")", 30);
    t = xasprintf("{{ %s }}", src);
    out = render(t, V, &err);
    free(src);
    free(t);
    CHECK(out && !strcmp(out, "3"));
    free(out);
    const char *unary[] = {"not ", "-", "[", "list[", "x|round("};
    for (size_t i = 0; i < sizeof unary / sizeof unary[0]; i++) {
        src = repeat(unary[i], 100000, "1", "", 0);
        t = xasprintf("{{ %s }}", src);
        out = render(t, V, &err);
        free(src);
        free(t);
        CHECK(!out && strstr(err, "nested too deeply"));
        free(err);
    }
    /* long chains: attribute lookups, filters, operators */
    const char *chains[] = {".a", "|upper", " ~ 1", " and 1", " or 1", " == 1", "[0]", " if 1 else 1"};
    for (size_t i = 0; i < sizeof chains / sizeof chains[0]; i++) {
        src = repeat("", 0, "x", chains[i], 100000);
        t = xasprintf("{{ %s }}", src);
        out = render(t, V, &err);
        free(src);
        free(t);
        CHECK(!out && (strstr(err, "expression too complex") || strstr(err, "nested too deeply")));
        free(err);
    }
}

TEST(template_iteration_and_work_caps)
{
    char *err = NULL;
    /* a loop that prints nothing is still bounded: 200^3 = 8M iterations */
    const char *l = "{% for a in big %}{% for b in big %}{% for c in big %}{% endfor %}{% endfor %}{% endfor %}";
    buf vars = {0};
    buf_puts(&vars, "{\"big\":[");
    for (int i = 0; i < 200; i++) buf_printf(&vars, "%s%d", i ? "," : "", i);
    buf_puts(&vars, "]}");
    char *out = render(l, vars.data, &err);
    CHECK(!out);
    CHECK_STR(err, "t.txt:1:19: too many loop iterations (more than 1000000)");
    free(err);
    /* quadratic work (`in` over a big list in a loop) hits the step budget */
    buf_free(&vars);
    buf_puts(&vars, "{\"big\":[");
    for (int i = 0; i < 100000; i++) buf_printf(&vars, "%s%d", i ? "," : "", i);
    buf_puts(&vars, "]}");
    out = render("{% for a in big %}{% if -1 in big %}{% endif %}{% endfor %}", vars.data, &err);
    CHECK(!out && strstr(err, "template takes too long to render"));
    free(err);
    buf_free(&vars);
}

TEST(template_options_and_vars)
{
    char *err = NULL;
    size_t n = 7;
    /* NULL options: defaults, "<inline>" name */
    char *out = template_render("{{ x }}", 7, NULL, NULL, &n, &err);
    CHECK(!out);
    CHECK_STR(err, "<inline>:1:4: 'x' is undefined");
    free(err);
    json_t *arr = json_array();
    out = template_render("x", 1, arr, NULL, &n, &err);
    json_free(arr);
    CHECK(!out);
    CHECK_STR(err, "<inline>: template variables must be an object, not a list");
    free(err);
    /* vars built in C, with a key holding a NUL byte */
    json_t *v = json_object();
    json_object_set(v, "a", json_stringn("x\0y", 3));
    out = template_render("[{{ a }}]", 9, v, NULL, &n, &err);
    json_free(v);
    CHECK(out && n == 5 && !memcmp(out, "[x\0y]", 5));
    free(out);
}

TEST(template_garbage_inputs)
{
    /* Nothing here may crash, leak or hang; each either renders or fails with a located error. */
    const char *inputs[] = {
        "{", "}", "{{{", "}}}", "{%%}", "{#", "#}", "{{-", "{%-", "{#-", "-}}", "{{ - }}", "{{ -}}", "{{ 'a' -}}",
        "{% if -%}", "{{ [ }}", "{{ ] }}", "{{ [1,] }}", "{{ [,] }}", "{{ ((( }}", "{{ ))) }}", "{{ a.b.c. }}",
        "{{ a | }}", "{{ | a }}", "{{ a || b }}", "{{ a == == b }}", "{{ \"\\", "{{ '\\u12' }}", "{{ 1.e5 }}",
        "{{ 1. }}", "{{ .5 }}", "{{ 0x10 }}", "{{ 1e }}", "{% for %}", "{% for x %}", "{% for x in %}",
        "{% for x, in y %}", "{% for x, y, z in w %}", "{% include %}", "{% include 'a' 'b' %}", "{% if 1 %}{% elif %}",
        "{% raw %}{% endraw", "{% raw x %}", "\xff\xfe{{ \xff }}", "{{ \x01 }}", "{{ a[] }}", "{{ a() }}",
        "{{ a.items(1) }}", "{{ round }}", "{{ 1 | round( }}", "{{ 1 | round(x= }}", "{{ 1 | round(=1) }}",
        "{{ 1 is }}", "{{ 1 is not }}", "{{ not }}", "{{ 1 if }}", "{{ 1 if 2 else }}", "{{ 1 ~ }}",
        "{% endraw %}{% raw %}", "{{ 'a' 'b' }}", "{{ loop }}", "{{ a\n.\nb }}",
    };
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        char *err = NULL;
        size_t n;
        template_options opt = {.name = "g", .include = inc_cb, .max_output = 1000};
        char *out = render_opt(inputs[i], V, &opt, &err, &n);
        if (out) {
            CHECK(!err);
            free(out);
        } else {
            if (!err || strncmp(err, "g:", 2) != 0) {
                char m[300];
                snprintf(m, sizeof m, "input %zu (%s): bad error %s", i, inputs[i], err ? err : "(null)");
                free(err);
                unit_fail(__FILE__, __LINE__, m);
                return;
            }
            free(err);
        }
    }
}

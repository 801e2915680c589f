/* settings.h — every variable of the environment chidori reads, read once, at the edge.
 *
 * One table (settings.c) lists each CHIDORI_* setting: its name, its kind (text, a number in a
 * range, one word of a list, a 0/1 flag), its default, what it means and which commands read it.
 * The command line (src/cli/) and the server (src/serve/) build one settings value from the
 * environment when they start, before anything runs; a bad value is a usage error naming the
 * variable, the value and what is accepted. The value is then passed down (runner_request,
 * host_config, isolate options, engine limits) and read through the typed accessors below: no
 * code below cli/ and serve/ calls getenv (tests/cases_settings.py checks it).
 *
 * Besides the CHIDORI_* settings, the value keeps a copy of the few other variables code below
 * the edge needs (provider API keys and base URLs, what MCP servers inherit, the sanitizer
 * options a worker is given): settings_env, for the names settings_passthrough lists.
 *
 * Accessors take the value or NULL (then every setting has its default and every variable is
 * unset: what a unit test or an embedder that passes no settings gets). Asking for a name the
 * table does not list is a programming error and aborts, so a typo cannot read a silent default.
 *
 * Trusts: nothing in the values (operator input, checked here); its callers to ask for names
 * of the table.
 */
#ifndef CHIDORI_SETTINGS_H
#define CHIDORI_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct settings settings;

typedef enum setting_kind {
    SETTING_TEXT,   /* any text (a path, a list, JSON), checked further by row->check or its reader */
    SETTING_NUMBER, /* a whole number from min to max */
    SETTING_WORD,   /* one of words (the first is the default) */
    SETTING_FLAG,   /* 0 or 1 */
} setting_kind;

typedef struct setting_def {
    const char *name;
    setting_kind kind;
    uint64_t min, max, def;     /* NUMBER: the range and the default; FLAG: def is 0 or 1 */
    const char *const *words;   /* WORD: the accepted words, NULL-terminated; the first is the default */
    const char *noun;           /* NUMBER: what the number is ("a number of bytes"); NULL: "a whole number" */
    bool empty_refused;         /* NUMBER: an empty value is an error, not the default */
    const char *host_note;      /* WORD: what `host` is told (a captured source has no host mode) */
    int (*check)(const char *value, char **why); /* TEXT: a further check at start, or NULL */
    const char *default_text;   /* the default as the docs say it */
    const char *accepted;       /* TEXT: what is accepted, as the docs say it (other kinds derive it) */
    const char *commands;       /* the commands that read it */
    const char *meaning;        /* one line */
} setting_def;

/* Parse and check every setting of the table from envp (NULL-terminated "NAME=value" strings;
 * the first occurrence of a name counts, as with getenv). NULL with *error naming the variable,
 * the value and what is accepted. An empty value of a NUMBER, WORD or FLAG setting is the same as
 * unset (unless the row refuses it); a TEXT setting keeps it (its reader decides). Variables the table does not list are
 * ignored, except the ones settings_passthrough names, which are copied. */
settings *settings_from_environ(char *const *envp, char **error);
void settings_free(settings *s);

/* TEXT (or any kind): the value as given, "" included; NULL when unset. */
const char *settings_text(const settings *s, const char *name);
/* The value when given and not empty, else NULL. */
const char *settings_nonempty(const settings *s, const char *name);
/* Given with a non-empty value (a NUMBER set to its default still counts as given). */
bool settings_given(const settings *s, const char *name);
/* NUMBER: the value, or the default. */
uint64_t settings_u64(const settings *s, const char *name);
/* WORD: the word (pointing into the table), or the default (the first word). */
const char *settings_word(const settings *s, const char *name);
/* FLAG: the value, or the default. */
bool settings_flag(const settings *s, const char *name);

/* A variable other than a CHIDORI_* setting that code below the edge needs: its value, or NULL
 * when unset. name must be one settings_passthrough lists. */
const char *settings_env(const settings *s, const char *name);
/* The OpenRouter key the original chidori's `chidori model-login` saved in
 * $HOME/.chidori/credentials.json, read once with the settings (saved_keys.h); NULL when
 * OPENROUTER_API_KEY is set, or the file is missing, unreadable or holds none. */
const char *settings_saved_openrouter_key(const settings *s);

/* The table, for the docs and `chidori settings`. */
const setting_def *settings_table(size_t *count);
const setting_def *settings_find(const char *name); /* NULL when the table does not list it */
/* The other variables kept (name and why), for the docs. */
typedef struct setting_passthrough {
    const char *name;
    const char *why;
} setting_passthrough;
const setting_passthrough *settings_passthrough(size_t *count);
/* What a row accepts, in words ("0 to 100", "`process` or `off`", its `accepted` text).
 * Malloc'd. */
char *settings_describe_accepted(const setting_def *d);

#endif

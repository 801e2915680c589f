/* settings_cmd.c — `chidori settings` (not in the usage text: for the docs and their test): the
 * settings table of src/settings/settings.c, one tab-separated row per variable —
 *   name, kind, default, accepted values, the commands that read it, meaning —
 * then one row per other variable the settings keep (kind `other`: name and why). Reads nothing
 * of the environment. */
#define _GNU_SOURCE
#include "cli/cli.h"
#include "settings/settings.h"

#include <stdio.h>
#include <stdlib.h>

static const char *kind_name(setting_kind k)
{
    switch (k) {
    case SETTING_TEXT: return "text";
    case SETTING_NUMBER: return "number";
    case SETTING_WORD: return "word";
    case SETTING_FLAG: return "flag";
    }
    return "?";
}

int cmd_settings(int argc, char **argv)
{
    if (argc > 0) return cli_usage_error("unexpected argument %s", argv[0]);
    size_t n, m;
    const setting_def *t = settings_table(&n);
    for (size_t i = 0; i < n; i++) {
        char *accepted = settings_describe_accepted(&t[i]);
        const char *def = t[i].default_text ? t[i].default_text : t[i].kind == SETTING_WORD ? t[i].words[0] : "";
        printf("%s\t%s\t%s\t%s\t%s\t%s\n", t[i].name, kind_name(t[i].kind), def, accepted, t[i].commands, t[i].meaning);
        free(accepted);
    }
    const setting_passthrough *p = settings_passthrough(&m);
    for (size_t i = 0; i < m; i++) printf("%s\tother\t\t\t\t%s\n", p[i].name, p[i].why);
    return 0;
}

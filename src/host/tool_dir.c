/* tool_dir.c — the scan of `<project>/tools/` and the registry it makes (see tool_dir.h).
 *
 * Trusts nothing in the folder: names are filtered (*.ts / *.js, no dot files, no control bytes),
 * opens stay beneath the project (open_beneath), each file is fstat'ed as a regular file and read
 * with a cap, the count of files read is capped, and the declarations are read as data by
 * tool_decl.c (nothing runs during the scan).
 */
#define _GNU_SOURCE
#include "host/tool_dir.h"
#include "host/host_internal.h"
#include "host/tool_decl.h"
#include "util/buf.h"
#include "util/termtext.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TOOL_FILE_NAME_MAX 128

typedef struct tool_entry {
    char *file;   /* "tools/x.ts" */
    json_t *decl; /* {name, description, parameters}, or NULL for a broken file */
    char *why;    /* a broken file's reason */
} tool_entry;

struct tool_dir {
    tool_entry *e;
    size_t n;
    char *folder_problem; /* tools/ exists but could not be read */
};

static void warn(FILE *out, const char *file, const char *why)
{
    if (!out) return;
    fputs("chidori: warning: tool file ", out);
    write_for_terminal(out, file, strlen(file));
    fputs(" is not loaded: ", out);
    write_for_terminal(out, why, strlen(why));
    fputc('\n', out);
    fflush(out);
}

static bool wanted_name(const char *n)
{
    size_t len = strlen(n);
    if (len < 4 || len > TOOL_FILE_NAME_MAX || n[0] == '.') return false;
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)n[i] < 0x20 || n[i] == 0x7f) return false;
    if (len > 5 && !strcmp(n + len - 5, ".d.ts")) return false; /* declarations only */
    return !strcmp(n + len - 3, ".ts") || !strcmp(n + len - 3, ".js");
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The file's text (at most TOOL_DECL_MAX_BYTES + 1 bytes), or NULL with *why. */
static char *read_tool_file(int root_fd, const char *root_path, const char *rel, size_t *len, char **why)
{
    int fd = open_beneath(root_fd, root_path, rel, O_RDONLY, 0);
    if (fd < 0) {
        *why = errno == EXDEV || errno == ELOOP
                   ? xstrdup("it leads outside the project folder (a symlink out is refused)")
                   : xasprintf("cannot open it: %s", strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        *why = xstrdup("it is not a regular file");
        return NULL;
    }
    if ((size_t)st.st_size > TOOL_DECL_MAX_BYTES) {
        close(fd);
        *why = xasprintf("it is larger than %zu KiB", TOOL_DECL_MAX_BYTES >> 10);
        return NULL;
    }
    char *text = xmalloc(TOOL_DECL_MAX_BYTES + 2);
    size_t got = 0;
    while (got <= TOOL_DECL_MAX_BYTES) {
        ssize_t r = read(fd, text + got, TOOL_DECL_MAX_BYTES + 1 - got);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            *why = xasprintf("cannot read it: %s", strerror(errno));
            close(fd);
            free(text);
            return NULL;
        }
        if (r == 0) break;
        got += (size_t)r;
    }
    close(fd);
    text[got] = 0;
    *len = got;
    return text;
}

tool_dir *tool_dir_scan(int root_fd, const char *root_path, FILE *log_out)
{
    tool_dir *d = xcalloc(1, sizeof *d);
    int fd = open_beneath(root_fd, root_path, TOOL_DIR_NAME, O_RDONLY | O_DIRECTORY, 0);
    if (fd < 0) {
        if (errno != ENOENT) { /* there but unusable: say so, and keep it for the unknown-tool error */
            d->folder_problem = errno == EXDEV || errno == ELOOP
                                    ? xstrdup("tools/ leads outside the project folder (a symlink out is refused)")
                                    : xasprintf("tools/ cannot be opened: %s", strerror(errno));
            warn(log_out, "folder " TOOL_DIR_NAME "/", d->folder_problem);
        }
        return d;
    }
    DIR *dir = fdopendir(fd);
    if (!dir) {
        close(fd);
        return d;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    bool too_many = false;
    struct dirent *de;
    while ((de = readdir(dir))) {
        if (!wanted_name(de->d_name)) continue;
        if (n == TOOL_DIR_MAX_FILES) {
            too_many = true;
            continue;
        }
        if (n == cap) names = xrealloc(names, (cap = cap ? 2 * cap : 8) * sizeof *names);
        names[n++] = xstrdup(de->d_name);
    }
    closedir(dir);
    qsort(names, n, sizeof *names, by_name);
    if (too_many) {
        d->folder_problem = xasprintf("tools/ holds more than %d tool files; only the first %d by name are read",
                                      TOOL_DIR_MAX_FILES, TOOL_DIR_MAX_FILES);
        warn(log_out, "folder " TOOL_DIR_NAME "/", d->folder_problem);
    }
    d->e = xcalloc(n ? n : 1, sizeof *d->e);
    for (size_t i = 0; i < n; i++) {
        char *rel = xasprintf(TOOL_DIR_NAME "/%s", names[i]);
        free(names[i]);
        size_t len = 0;
        char *why = NULL;
        json_t *decl = NULL;
        char *text = read_tool_file(root_fd, root_path, rel, &len, &why);
        int found = text ? tool_decl_parse(text, len, &decl, &why) : -1;
        free(text);
        if (found == 0) { /* no declaration: not a tool, silently */
            free(rel);
            continue;
        }
        if (found == 1) {
            const char *name = json_string_value(json_object_get(decl, "name"));
            for (size_t k = 0; k < d->n; k++)
                if (d->e[k].decl && !strcmp(json_string_value(json_object_get(d->e[k].decl, "name")), name)) {
                    why = xasprintf("its tool name `%s` is already declared by %s", name, d->e[k].file);
                    json_free(decl);
                    decl = NULL;
                    break;
                }
        }
        if (!decl) warn(log_out, rel, why);
        d->e[d->n++] = (tool_entry){.file = rel, .decl = decl, .why = decl ? NULL : why};
        if (decl) free(why);
    }
    free(names);
    return d;
}

void tool_dir_free(tool_dir *d)
{
    if (!d) return;
    for (size_t i = 0; i < d->n; i++) {
        free(d->e[i].file);
        json_free(d->e[i].decl);
        free(d->e[i].why);
    }
    free(d->e);
    free(d->folder_problem);
    free(d);
}

const json_t *tool_dir_find(const tool_dir *d, const char *name, const char **file)
{
    for (size_t i = 0; d && i < d->n; i++)
        if (d->e[i].decl && !strcmp(json_string_value(json_object_get(d->e[i].decl, "name")), name)) {
            if (file) *file = d->e[i].file;
            return d->e[i].decl;
        }
    return NULL;
}

char *tool_dir_unknown(const tool_dir *d, const char *name)
{
    buf b = {0};
    buf_printf(&b, "Unknown tool: %.100s — ", name);
    size_t tools = 0;
    for (size_t i = 0; i < d->n; i++) tools += d->e[i].decl != NULL;
    if (tools == 0) {
        buf_puts(&b, "no tool file in tools/ declares it, and MCP tools are named <server>__<tool>");
    } else {
        buf_puts(&b, "no tool file in tools/ declares it (registered: ");
        bool first = true;
        for (size_t i = 0; i < d->n; i++)
            if (d->e[i].decl) {
                buf_printf(&b, "%s%s", first ? "" : ", ", json_string_value(json_object_get(d->e[i].decl, "name")));
                first = false;
            }
        buf_puts(&b, ")");
    }
    if (d->folder_problem) buf_printf(&b, "; %s", d->folder_problem);
    for (size_t i = 0; i < d->n; i++)
        if (!d->e[i].decl) buf_printf(&b, "; %s failed to load: %s", d->e[i].file, d->e[i].why);
    return buf_steal(&b);
}

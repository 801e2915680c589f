/* fuzz_signal_inbox.c — a CLI run's signal mailbox (cli/signal_inbox.h) read from any bytes. The
 * input is the file signals/inbox.json. Properties: no crash, hang or leak; a take answers 1, 0 or
 * -1 (with an error that names the mailbox); when the file is readable, a hand to a seq succeeds
 * and a take at that seq then returns exactly what was handed, whatever else the file holds. */
#define _GNU_SOURCE
#include "cli/signal_inbox.h"
#include "util/buf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *dir;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!dir) {
        const char *tmp = getenv("TMPDIR");
        if (!tmp || !*tmp) tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        dir = xasprintf("%s/chidori-fuzz-inbox-%d", tmp, (int)getpid());
        mkdir(dir, 0700);
        char *sub = xasprintf("%s/signals", dir);
        mkdir(sub, 0700);
        free(sub);
    }
    signal_inbox in;
    signal_inbox_init(&in, dir);
    FILE *f = fopen(in.path, "w");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) abort();
    const char *names[] = {"review", "a", NULL};
    json_t *got = NULL;
    char *error = NULL;
    int rc = in.box.take(in.box.ctx, 3, names, 3, &got, &error);
    if (rc < 0 && (!error || !strstr(error, "signal mailbox"))) abort();
    if (rc == 1 && !json_is_object(got)) abort();
    if (rc == 0 && (got || error)) abort();
    json_free(got), got = NULL;
    bool readable = rc >= 0;
    free(error), error = NULL;
    json_t *payload = json_string("fuzz");
    if (readable) {
        if (signal_inbox_hand(&in, 9, "review", payload, NULL, &error) != 0) abort();
        if (in.box.take(in.box.ctx, 9, names, 1, &got, &error) != 1) abort();
        if (!json_equal(json_object_get(got, "payload"), payload)) abort();
        json_free(got);
        signal_inbox_unhand(&in, 9);
    }
    json_free(payload);
    free(error);
    signal_inbox_clear(&in);
    return 0;
}

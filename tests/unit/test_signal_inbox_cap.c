/* test_signal_inbox_cap.c — the CLI run's signal mailbox (src/cli/signal_inbox.c) never writes a
 * file larger than it will read back: a hand that would pass SIGNAL_INBOX_MAX_BYTES is refused
 * with an error, and the file stays as it was (before, it was written, and every later resume of
 * the run failed with "the run's signal mailbox cannot be read"). */
#define _GNU_SOURCE
#include "unit.h"
#include "cli/signal_inbox.h"
#include "util/buf.h"
#include "util/files.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

TEST(signal_inbox_hand_never_writes_past_its_cap)
{
    char dir[] = "/tmp/chidori-inbox-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char *sub = xasprintf("%s/signals", dir), *path = xasprintf("%s/signals/inbox.json", dir);
    CHECK(mkdir(sub, 0700) == 0);
    /* an inbox just under the cap: one queued signal with a big payload */
    size_t big = SIGNAL_INBOX_MAX_BYTES - 4096;
    buf b = {0};
    buf_puts(&b, "[{\"name\":\"n\",\"delivery_seq\":1,\"taken_by\":null,\"payload\":\"");
    char *fill = xmalloc(big);
    memset(fill, 'p', big);
    buf_append(&b, fill, big);
    free(fill);
    buf_puts(&b, "\"}]");
    FILE *f = fopen(path, "w");
    CHECK(f && fwrite(b.data, 1, b.len, f) == b.len);
    fclose(f);
    signal_inbox in;
    signal_inbox_init(&in, dir);
    json_t *payload = json_object();
    char *more = xmalloc(65537);
    memset(more, 'q', 65536);
    more[65536] = '\0';
    json_object_set(payload, "more", json_string(more));
    free(more);
    char *error = NULL;
    int rc = signal_inbox_hand(&in, 7, "go", payload, NULL, &error);
    json_free(payload);
    struct stat st;
    CHECK(stat(path, &st) == 0);
    bool refused = rc < 0 && error && strstr(error, "mailbox");
    bool kept = (size_t)st.st_size == b.len;
    free(error);
    signal_inbox_clear(&in);
    buf_free(&b);
    unlink(path);
    rmdir(sub);
    rmdir(dir);
    free(sub);
    free(path);
    CHECK(refused);
    CHECK(kept);
}

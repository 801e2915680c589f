/* fuzz_prompt_notify.c — a prompt event NOTIFY payload from another node (serve/prompt_notify.h)
 * read from any bytes: anyone with access to the database can send one. Properties: no crash, hang
 * or leak; a payload that decodes is a prompt event with ids and a place, and encoding it again
 * gives payloads that each fit PostgreSQL's limit and decode to the same session and place. */
#include "serve/prompt_notify.h"
#include "util/buf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct again {
    const prompt_notice *was;
    int sent;
} again;

static void check(void *ctx, const char *payload)
{
    again *a = ctx;
    size_t len = strlen(payload);
    prompt_notice n;
    if (len > PROMPT_NOTIFY_MAX || !prompt_notify_decode(payload, len, &n)) abort();
    if (strcmp(n.session, a->was->session) || strcmp(n.node, a->was->node) || n.records != a->was->records ||
        n.attempt != a->was->attempt)
        abort();
    prompt_notice_clear(&n);
    a->sent++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    prompt_notice n;
    if (!prompt_notify_decode((const char *)data, size, &n)) return 0;
    if (!n.node || !n.session || !json_is_object(n.event)) abort();
    again a = {&n, 0};
    prompt_notify_encode(n.node, n.session, n.records, n.attempt, n.event, check, &a);
    if (a.sent < 1) abort();
    prompt_notice_clear(&n);
    return 0;
}

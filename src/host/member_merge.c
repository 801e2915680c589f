/* member_merge.c — the host's side of sub-runs (host/member.h): what a starting effect reads from
 * the calling run (its VFS, its approvals) and the merge of a member's records into its log.
 *
 * Runs on the calling run's thread only, after the member has ended: the member's records are
 * plain JSON handed over by the runner. They come from our own host, but a member's worker may
 * have been compromised and a resumed branch's records come from a file, so each one is parsed
 * with the one record parser and checked against the member's range before any is appended.
 */
#include "host/host_internal.h"
#include "host/member.h"
#include "telemetry/otel.h"
#include "util/buf.h"

#include <stdlib.h>
#include <string.h>

void *host_member_user(const host *h) { return h ? h->member_user : NULL; }
bool host_is_member(const host *h) { return h && h->in_member; }
const host_members *host_members_of(const host *h) { return h ? h->members : NULL; }
json_t *host_vfs_snapshot(host *h) { return fs_vfs_snapshot(h); }
json_t *host_approvals_copy(const host *h) { return h->approvals ? json_copy(h->approvals) : NULL; }

int host_member_merge(host *h, const json_t *records, uint64_t lo, uint64_t hi, char **error)
{
    if (!json_is_array(records)) {
        *error = xstrdup("a member's records must be an array");
        return -1;
    }
    size_t n = records->u.array.len;
    call_record *parsed = xcalloc(n + 1, sizeof *parsed);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        const char *why = call_record_parse(records->u.array.items[i], &parsed[i]);
        if (why) {
            *error = xasprintf("a member's record %zu is malformed: %s", i + 1, why);
            rc = -1;
        } else if (parsed[i].seq < lo || parsed[i].seq >= hi) {
            *error = xasprintf("a member's record has seq %llu, outside its range %llu..%llu",
                               (unsigned long long)parsed[i].seq, (unsigned long long)lo, (unsigned long long)hi);
            rc = -1;
        }
    }
    for (size_t i = 0; i < n && rc == 0; i++) {
        const call_record *r = &parsed[i];
        char *io = NULL;
        if (calllog_append_full(h->log, r->seq, r->parent_seq, r->function, call_record_args(r), r->result, r->error,
                                r->duration_ms, r->timestamp_ms, r->token_usage, r->extra, &io) != 0) {
            *error = io;
            rc = -1;
            break;
        }
        if (h->trace) otel_run_call(h->trace, r, false);
    }
    for (size_t i = 0; i < n; i++) call_record_clear(&parsed[i]);
    free(parsed);
    return rc;
}

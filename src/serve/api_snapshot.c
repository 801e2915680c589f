/* api_snapshot.c — GET /sessions/{id}/snapshot: a session's snapshot manifest (runner/manifest.h)
 * as the original chidori's clients read it. Trusts the session layer. */
#define _GNU_SOURCE
#include "serve/serve.h"

#include <stdlib.h>

void api_snapshot(server *srv, session *s, http_reply *rep)
{
    json_t *o = NULL;
    char *error = NULL;
    ss_result r = sessions_snapshot(srv->ss, s, &o, &error);
    if (r == SS_OK) reply_json(rep, 200, o);
    else reply_error(rep, r == SS_NOT_FOUND ? 404 : 500, "%s", error ? error : "the operation failed");
    free(error);
}

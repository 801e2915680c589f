/* api_signal.c — POST /sessions/{id}/signal: send a signal to a session (docs/http-api.md#signals).
 *
 * Body {name (required, non-blank), payload?, from?, allow_source_change?, wait?}. Answers: 200 with
 * the session's view once the run it resumed has settled (a pause listening to the name took it);
 * 202 {id, status: "queued", name, delivery_seq} when the signal waits in the session's mailbox for
 * a call that listens to it; 409 for a completed, failed or cancelled session (nothing is queued),
 * or for an edited agent source without allow_source_change; 400 for a bad body. Trusts nothing of
 * the request (request.c parses it; each field's type is checked here); trusts the session layer.
 */
#define _GNU_SOURCE
#include "serve/serve.h"
#include "serve/store_signals.h"
#include "util/buf.h"

#include <stdlib.h>
#include <string.h>

#define SIGNAL_NAME_MAX 256 /* as effects/signal.c caps a name the agent listens to */

bool api_signal(server *srv, session *s, const http_request *req, http_reply *rep)
{
    static const char *const keys[] = {"name", "payload", "from", "allow_source_change", "wait", NULL};
    json_t *body = request_object(req, keys, rep);
    if (!body) return false;
    const json_t *name = json_object_get(body, "name");
    const json_t *allow = json_object_get(body, "allow_source_change"), *wait = json_object_get(body, "wait");
    bool kept = false;
    const char *text = json_string_value(name);
    size_t blank = text ? strspn(text, " \t\r\n") : 0;
    if (!text || blank == name->u.string.len) {
        reply_error(rep, 400, "signal requires a non-empty `name`");
    } else if (strlen(text) != name->u.string.len || name->u.string.len > SIGNAL_NAME_MAX) {
        reply_error(rep, 400, "`name` must be at most %d bytes, without NUL characters", SIGNAL_NAME_MAX);
    } else if ((allow && allow->type != JSON_TRUE && allow->type != JSON_FALSE) ||
               (wait && wait->type != JSON_TRUE && wait->type != JSON_FALSE)) {
        reply_error(rep, 400, "`%s` must be true or false",
                    allow && allow->type != JSON_TRUE && allow->type != JSON_FALSE ? "allow_source_change" : "wait");
    } else {
        bool resumed = false;
        uint64_t dseq = 0;
        char *error = NULL;
        ss_result r = sessions_signal(srv->ss, s, text, json_object_get(body, "payload"), json_object_get(body, "from"),
                                      allow && allow->type == JSON_TRUE, &resumed, &dseq, &error);
        if (r != SS_OK) {
            api_reply_failure(srv, rep, r, error);
        } else if (resumed) {
            api_reply_after_run(srv, s, !wait || wait->type == JSON_TRUE, rep);
            kept = true;
        } else {
            json_t *o = json_object();
            json_t *v = sessions_view(srv->ss, s);
            json_object_set(o, "id", json_copy(json_object_get(v, "id")));
            json_free(v);
            json_object_set(o, "status", json_string("queued"));
            json_object_set(o, "name", json_string(text));
            json_object_set(o, "delivery_seq", json_number((double)dseq));
            reply_json(rep, 202, o);
        }
    }
    json_free(body);
    return kept;
}

/* record_form.h — how an op's calls are written to the call log when the record is not simply
 * {args, result} as the op performed them: the original chidori's shapes (prompt: the reply text,
 * or its per-turn response object, with top-level token_usage; tool: {name, kwargs}), with what we
 * keep beyond them in additional keys, and the way back (the agent's result rebuilt from a record,
 * so replay returns exactly what the live call returned).
 *
 * host.c uses it at the seam: the replay lookup asks `matches`, a replayed call's result is
 * `decode`, an appended record is `encode`. A legacy record (our previous shape, see calllog.h) is
 * never given to these: its args and result are the op's own. Trusts the records it is given to
 * have passed call_record_parse; trusts nothing else in them.
 */
#ifndef CHIDORI_RECORD_FORM_H
#define CHIDORI_RECORD_FORM_H

#include <stdbool.h>
#include "host/calllog.h"

typedef struct record_form {
    /* The record of a call with these args: result is NULL when the call failed. Sets *rec_args and
     * *rec_result (NULL when failed), and *token_usage and *extra (the additional top-level keys,
     * an object) or leaves them NULL. */
    void (*encode)(const json_t *args, const json_t *result, json_t **rec_args, json_t **rec_result,
                   json_t **token_usage, json_t **extra);
    /* Whether the record answers a call with these args (ours: our args, exactly; the original's:
     * its keys compared as the original compares them, see docs/durable-runs.md). */
    bool (*matches)(const call_record *rec, const json_t *args);
    /* The result the agent sees, from a record of a call that succeeded. */
    json_t *(*decode)(const call_record *rec);
} record_form;

/* The forms of `prompt` (effects/prompt_record.c) and `tool` (effects/tools.c). */
extern const record_form prompt_record_form;
extern const record_form tool_record_form;

/* The original's comparison of two args objects: keys present on both sides must be equal (numbers
 * compared by value), except `request_digest`; a key on one side only is ignored, and so is a key
 * that is null on ours when unknown_null is set (a value we cannot know). Used for records the
 * original wrote: by the prompt form, and by host.c for every op without a form. */
bool record_args_agree(const json_t *recorded, const json_t *ours, bool unknown_null);

#endif

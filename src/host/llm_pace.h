/* llm_pace.h — how fast chidori.prompt may call a provider: the request-rate limits
 * (CHIDORI_ANTHROPIC_RPM, CHIDORI_OPENAI_RPM, CHIDORI_OPENAI_COMPAT_RPM / CHIDORI_LITELLM_RPM,
 * CHIDORI_OPENROUTER_RPM) and the retry of a call the provider refused for now (429, 503, 529).
 *
 * Owns: one bucket of request slots per provider for the whole process (a CLI command with its
 * nested runs; every session of a `serve`), and the rule for how long to wait before a retry.
 * Trusts: its callers (llm.c) for the provider and the limit; nothing in a Retry-After value (it is
 * the provider's: parsed with bounds, and any wait is bounded by the call's deadline).
 *
 * A bucket holds up to rpm slots and starts full (a burst of rpm calls goes at once, as in the
 * original chidori); a slot comes back every 60,000 / rpm ms. A call takes a free slot when nobody
 * waits, or waits for its turn. Turns are fair between owners (a run with its nested agents and
 * actors: every session of a server is one): the owners with calls waiting are served in turn,
 * one call each, and an owner's own calls in the order they came; so one session that prompts from
 * many actors at once cannot keep the others waiting behind all of its calls. A wait that would
 * end too close to the call's deadline, counting the calls now ahead of it, is not started, and
 * one whose turn is pushed past it by calls of other owners that came later ends then; a wait is
 * given up when the run is cancelled. Thread-safe.
 */
#ifndef CHIDORI_LLM_PACE_H
#define CHIDORI_LLM_PACE_H

#include <stdatomic.h>
#include <stdint.h>

/* The providers that have a bucket. */
typedef enum { PACE_ANTHROPIC, PACE_OPENAI, PACE_COMPAT, PACE_OPENROUTER, PACE_PROVIDERS } pace_provider;

/* Take one request slot of provider p under a limit of rpm calls a minute (0: no limit, returns
 * at once), waiting for its turn among owner's and the other owners' calls (owner: any pointer
 * that is the same for one run tree, NULL included). The slot must come need_ms or more before
 * deadline_ms (both on clock_monotonic_ms): a call needs time after it. cancel (or NULL) ends the
 * wait when it reads non-zero, and refuses at once when it already does. 0 when the slot is taken;
 * -1 with *error (malloc'd, naming `setting` and the limit) when it would come too late or the run
 * was cancelled; nothing is taken then. */
int llm_pace_acquire(pace_provider p, uint32_t rpm, const char *setting, const void *owner, int64_t deadline_ms,
                     int64_t need_ms, const atomic_int *cancel, char **error);

/* Sleep ms or until cancel reads non-zero (checked every 50 ms). 0 slept it all, -1 cancelled. */
int llm_pace_sleep(int64_t ms, const atomic_int *cancel);

/* Whether a refused call is worth another try: 429 (too many requests), 503 (unavailable), 529
 * (Anthropic: overloaded). The provider did not perform the call. */
int llm_pace_retryable(long status);

/* The wait before the retry after the attempt-th refusal (1, 2, …), in ms: the provider's
 * `retry-after-ms` (milliseconds), else `Retry-After` (seconds, or an HTTP date), else 2^attempt
 * seconds up to 64 s; never under 500 ms. A header that does not parse is ignored. now_ms_real is
 * the wall clock (clock_realtime_ms) an HTTP date is measured from. */
int64_t llm_pace_retry_wait_ms(const char *retry_after_ms, const char *retry_after, int attempt, int64_t now_ms_real);

/* The most attempts one call makes (the original chidori's: 8). */
#define LLM_PACE_MAX_ATTEMPTS 8

/* Tests: forget every bucket (as a new process would start). */
void llm_pace_reset(void);

#endif

/* otel.h — OpenTelemetry traces of runs, exported over OTLP/HTTP (JSON) by the trusted side.
 *
 * One exporter per process (otel_start at the edge, otel_shutdown at its end): a background thread
 * with a bounded queue of finished spans, posted in batches with libcurl. Without an endpoint
 * (OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT) or with OTEL_TRACES_EXPORTER=none nothing starts and every
 * call below is a cheap no-op. A full queue drops the span and counts it (otel_dropped); a
 * collector that is down or slow costs failed posts (otel_failed), never a wait in a run.
 *
 * A run: otel_run_begin (the `invoke_agent` span, a child of a W3C traceparent when given), then
 * otel_run_call for each recorded host call (the seam, host.c, after the record is appended),
 * otel_run_end. Spans carry no prompt text and no tool arguments. Ids come from getrandom, never
 * from the run's seeded RNG: tracing changes no record and no output.
 *
 * Trusts: its caller for the settings; nothing in the records (agent-chosen strings are copied
 * as JSON strings, capped).
 */
#ifndef CHIDORI_OTEL_H
#define CHIDORI_OTEL_H

#include <stdbool.h>
#include <stdint.h>

struct settings;
struct call_record;

/* Start the exporter if the settings ask for it. 0, or -1 with *error (a malformed header list). */
int otel_start(const struct settings *s, char **error);
/* Flush what is queued, waiting at most about 2 s, and stop. */
void otel_shutdown(void);
bool otel_enabled(void);
uint64_t otel_dropped(void); /* spans dropped because the queue was full */
uint64_t otel_failed(void);  /* batches the collector did not accept (down, slow, refused) */

/* OTEL_EXPORTER_OTLP_HEADERS / OTEL_RESOURCE_ATTRIBUTES text ("k=v,k2=v2", percent-decoded):
 * the number of pairs, or -1 with *error naming var (what otel_start checks). headers: the keys
 * must be header names and no value may hold a line break. */
int otel_check_pairs(const char *var, const char *text, bool headers, char **error);

/* A W3C traceparent ("00-<32 hex>-<16 hex>-<2 hex>"): true when well formed (not all-zero ids). */
bool otel_traceparent_valid(const char *tp);

typedef struct otel_run otel_run;
/* NULL when tracing is off. agent: the agent's name; run_id may be NULL; traceparent: the
 * caller's context or NULL (a malformed one is ignored). */
otel_run *otel_run_begin(const char *agent, const char *run_id, const char *traceparent);
/* One recorded call, from its record. replayed: answered from the log. */
void otel_run_call(otel_run *r, const struct call_record *rec, bool replayed);
/* Ends the run span (error: the run failed with it, or NULL) and frees r. */
void otel_run_end(otel_run *r, const char *error);

#endif

/* otel_internal.h — what the two halves of telemetry/ share: the span serializer (otel.c) hands
 * finished spans to the exporter (otel_export.c), and both write OTLP/JSON attributes the same way.
 * Not for use outside src/telemetry/.
 */
#ifndef CHIDORI_OTEL_INTERNAL_H
#define CHIDORI_OTEL_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "util/json.h"

#define OTEL_ATTR_TEXT_MAX 1024 /* an attribute's text (and a status message) is cut here */

/* One finished span, as OTLP/JSON text (malloc'd; taken): queued, or dropped and counted when
 * the queue is full or the exporter is stopping. */
void otel_enqueue(char *span);

/* Append {key, value} to an OTLP attribute array: a string (cut at OTEL_ATTR_TEXT_MAX bytes), an
 * int64 (a decimal string, as OTLP/JSON writes it), a bool, an array of one string. */
void otel_attr_str(json_t *attrs, const char *key, const char *value);
void otel_attr_int(json_t *attrs, const char *key, int64_t value);
void otel_attr_bool(json_t *attrs, const char *key, bool value);
void otel_attr_strs(json_t *attrs, const char *key, const char *one);

#endif

/* rfc3339.h — RFC 3339 UTC times as call records write them ("2026-07-08T03:57:42.291Z"), and their
 * reading back to milliseconds since the Unix epoch. Pure arithmetic (no time zone database; the
 * only state is each thread's last second written and read, reused for the next time in that
 * second); trusts nothing in the text it reads. */
#ifndef CHIDORI_RFC3339_H
#define CHIDORI_RFC3339_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RFC3339_MAX 32
/* ms as "YYYY-MM-DDTHH:MM:SS.mmmZ" (years 0000-9999; a time outside them is clamped). */
void rfc3339_format_ms(int64_t ms, char out[RFC3339_MAX]);
/* Read "YYYY-MM-DDTHH:MM:SS[.fraction](Z|z|±HH:MM)" (T or t or a space between date and time; the
 * fraction has 1 to 9 digits, read to the millisecond, floored). false for anything else. */
bool rfc3339_parse_ms(const char *text, size_t len, int64_t *ms);

#endif

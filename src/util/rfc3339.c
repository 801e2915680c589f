/* rfc3339.c — RFC 3339 times to and from milliseconds (see rfc3339.h). */
#include "util/rfc3339.h"

#include <stdio.h>
#include <string.h>

/* Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's civil algorithm). */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

static void civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    unsigned doe = (unsigned)(z - era * 146097);
    unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    unsigned mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y = (int64_t)yoe + era * 400 + (*m <= 2);
}

#define MIN_MS (-62167219200000LL)  /* 0000-01-01T00:00:00Z */
#define MAX_MS (253402300799999LL)  /* 9999-12-31T23:59:59.999Z */

/* Records come many to a second: the last second written ("YYYY-MM-DDTHH:MM:SS", 19 bytes) and
 * the last one read are kept per thread, and a time in the same second reuses it. */
static __thread int64_t format_secs = INT64_MIN;
static __thread char format_text[19];
static __thread int64_t parse_secs;
static __thread char parse_text[19];
static __thread bool parse_cached;

static void put_milli(char *o, unsigned ms3)
{
    *o++ = '.';
    *o++ = (char)('0' + ms3 / 100), *o++ = (char)('0' + ms3 / 10 % 10), *o++ = (char)('0' + ms3 % 10);
    *o++ = 'Z';
    *o = '\0';
}

void rfc3339_format_ms(int64_t ms, char out[RFC3339_MAX])
{
    if (ms < MIN_MS) ms = MIN_MS;
    if (ms > MAX_MS) ms = MAX_MS;
    int64_t secs = ms >= 0 ? ms / 1000 : -((-ms + 999) / 1000);
    int64_t milli = ms - secs * 1000;
    if (secs == format_secs) {
        memcpy(out, format_text, 19);
        put_milli(out + 19, (unsigned)((int)milli % 1000));
        return;
    }
    int64_t days = secs >= 0 ? secs / 86400 : -((-secs + 86399) / 86400);
    int64_t rem = secs - days * 86400;
    int64_t y;
    unsigned m, d;
    civil_from_days(days, &y, &m, &d);
    /* "%04d-%02u-%02uT%02d:%02d:%02d.%03dZ", written digit by digit (every record is stamped) */
    int year = (int)y % 10000;
    if (year < 0) { /* (the clamp keeps years 0..9999; printf would have written the sign) */
        snprintf(out, RFC3339_MAX, "%04d-%02u-%02uT%02d:%02d:%02d.%03dZ", year, m % 13, d % 32,
                 (int)(rem / 3600) % 24, (int)(rem / 60 % 60), (int)(rem % 60), (int)milli % 1000);
        return;
    }
    unsigned parts[5] = {m % 13, d % 32, (unsigned)(rem / 3600) % 24, (unsigned)(rem / 60 % 60), (unsigned)(rem % 60)};
    static const char seps[] = "--T::";
    char *o = out;
    *o++ = (char)('0' + year / 1000), *o++ = (char)('0' + year / 100 % 10);
    *o++ = (char)('0' + year / 10 % 10), *o++ = (char)('0' + year % 10);
    for (int i = 0; i < 5; i++) {
        *o++ = seps[i];
        *o++ = (char)('0' + parts[i] / 10), *o++ = (char)('0' + parts[i] % 10);
    }
    put_milli(o, (unsigned)((int)milli % 1000));
    memcpy(format_text, out, 19);
    format_secs = secs;
}

static bool digits(const char *s, size_t n, unsigned *out)
{
    unsigned v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return false;
        v = v * 10 + (unsigned)(s[i] - '0');
    }
    *out = v;
    return true;
}

bool rfc3339_parse_ms(const char *s, size_t len, int64_t *ms)
{
    unsigned y, mo, d, h, mi, sec, frac = 0;
    bool same_second = len >= 20 && parse_cached && memcmp(s, parse_text, 19) == 0;
    if (same_second) goto fraction; /* those 19 bytes were read and checked before */
    if (len < 20 || !digits(s, 4, &y) || s[4] != '-' || !digits(s + 5, 2, &mo) || s[7] != '-' ||
        !digits(s + 8, 2, &d) || (s[10] != 'T' && s[10] != 't' && s[10] != ' ') || !digits(s + 11, 2, &h) ||
        s[13] != ':' || !digits(s + 14, 2, &mi) || s[16] != ':' || !digits(s + 17, 2, &sec))
        return false;
    static const unsigned mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || h > 23 || mi > 59 || sec > 60) return false;
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (mo == 2 && d == 29 && !leap) return false; /* no Feb 29 that year: not silently March 1 */
    int64_t secs = days_from_civil((int64_t)y, mo, d) * 86400 + (int64_t)h * 3600 + (int64_t)mi * 60 +
                   (int64_t)(sec > 59 ? 59 : sec);
    memcpy(parse_text, s, 19);
    parse_secs = secs;
    parse_cached = true;
fraction:;
    secs = parse_secs;
    size_t i = 19;
    if (i < len && s[i] == '.') {
        size_t start = ++i;
        while (i < len && s[i] >= '0' && s[i] <= '9') {
            if (i - start < 3) frac = frac * 10 + (unsigned)(s[i] - '0');
            i++;
        }
        size_t n = i - start;
        if (n < 1 || n > 9) return false;
        for (size_t k = n; k < 3; k++) frac *= 10;
    }
    int offset_min = 0;
    if (i < len && (s[i] == 'Z' || s[i] == 'z')) {
        i++;
    } else if (i + 6 == len && (s[i] == '+' || s[i] == '-') && s[i + 3] == ':') {
        unsigned oh, om;
        if (!digits(s + i + 1, 2, &oh) || !digits(s + i + 4, 2, &om) || oh > 23 || om > 59) return false;
        offset_min = (int)(oh * 60 + om) * (s[i] == '-' ? -1 : 1);
        i += 6;
    } else {
        return false;
    }
    if (i != len) return false;
    *ms = (secs - (int64_t)offset_min * 60) * 1000 + (int64_t)frac;
    return true;
}

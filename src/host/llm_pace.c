/* llm_pace.c — request-rate buckets per provider and the wait before a retry (see llm_pace.h).
 *
 * Owns: the process's buckets and their queues of waiting calls (static, behind one mutex; each
 * waiter lives on its caller's stack, in the queue only while that call waits). Trusts its
 * callers; bounds everything it reads from a provider's header.
 */
#define _GNU_SOURCE
#include "host/llm_pace.h"
#include "util/buf.h"
#include "util/clock.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* A call waiting for a slot. Its tag orders it: one more than the last tag its owner holds among
 * the waiting calls, or than the tag of the last call served, whichever is higher; so every owner
 * with calls waiting is served in turn, one call each, and one owner's own calls in the order
 * they came. */
typedef struct waiter {
    const void *owner;
    uint64_t tag;
    pthread_cond_t cv;
    struct waiter *next;
} waiter;

typedef struct bucket {
    uint32_t rpm;   /* the limit it was last used under; 0: never used */
    double slots;   /* free slots (whole ones are handed out) */
    double at_ms;   /* when slots was last brought up to date */
    waiter *queue;  /* the calls waiting, by tag (equal tags: in the order they came) */
    size_t waiting; /* how many */
    uint64_t served; /* the tag of the last call that waited and was served */
} bucket;

static pthread_mutex_t pace_lock = PTHREAD_MUTEX_INITIALIZER;
static bucket buckets[PACE_PROVIDERS];

static double now_ms(void) { return (double)clock_monotonic_ns() / 1e6; }

/* Bring b up to now under limit rpm: what came back since it was last brought up to date comes
 * back at the rate it was used under; a first use starts full; a changed limit keeps what is free,
 * up to the new size. */
static void refill(bucket *b, uint32_t rpm, double now)
{
    if (b->rpm == 0) {
        b->slots = rpm;
        b->rpm = rpm;
        b->at_ms = now;
    }
    if (now > b->at_ms) b->slots += (now - b->at_ms) * b->rpm / 60000.0;
    if (b->slots > b->rpm) b->slots = b->rpm;
    b->at_ms = now;
    if (b->rpm != rpm) {
        if (b->slots > rpm) b->slots = rpm;
        b->rpm = rpm;
    }
}

static void enqueue(bucket *b, waiter *w)
{
    uint64_t tag = b->served;
    for (const waiter *q = b->queue; q; q = q->next)
        if (q->owner == w->owner && q->tag > tag) tag = q->tag;
    w->tag = tag + 1;
    waiter **at = &b->queue;
    while (*at && (*at)->tag <= w->tag) at = &(*at)->next;
    w->next = *at;
    *at = w;
    b->waiting++;
}

/* Takes w out of the queue; the call now first is told, since its turn may have come. */
static void dequeue(bucket *b, waiter *w)
{
    for (waiter **at = &b->queue; *at; at = &(*at)->next)
        if (*at == w) {
            *at = w->next;
            b->waiting--;
            break;
        }
    if (b->queue) pthread_cond_signal(&b->queue->cv);
}

static size_t place_of(const bucket *b, const waiter *w)
{
    size_t i = 0;
    for (const waiter *q = b->queue; q && q != w; q = q->next) i++;
    return i;
}

int llm_pace_sleep(int64_t ms, const atomic_int *cancel)
{
    int64_t due = clock_monotonic_ms() + ms;
    for (;;) {
        if (cancel && atomic_load(cancel)) return -1;
        int64_t left = due - clock_monotonic_ms();
        if (left <= 0) return 0;
        if (left > 50) left = 50;
        struct timespec ts = {left / 1000, (left % 1000) * 1000000L};
        nanosleep(&ts, NULL);
    }
}

int llm_pace_acquire(pace_provider p, uint32_t rpm, const char *setting, const void *owner, int64_t deadline_ms,
                     int64_t need_ms, const atomic_int *cancel, char **error)
{
    if (cancel && atomic_load(cancel)) {
        *error = xstrdup("the run was cancelled");
        return -1;
    }
    if (rpm == 0 || p < 0 || p >= PACE_PROVIDERS) return 0;
    bucket *b = &buckets[p];
    pthread_mutex_lock(&pace_lock);
    refill(b, rpm, now_ms());
    if (!b->queue && b->slots >= 1) { /* nobody waits and a slot is free */
        b->slots -= 1;
        pthread_mutex_unlock(&pace_lock);
        return 0;
    }
    waiter w = {.owner = owner};
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&w.cv, &ca);
    pthread_condattr_destroy(&ca);
    enqueue(b, &w);
    int rc = 0;
    for (;;) {
        double now = now_ms();
        /* while it waits, the bucket keeps the limit it has (a caller that comes with another
         * changes it, as before; a waiter waking every 50 ms does not) */
        uint32_t r = b->rpm ? b->rpm : rpm;
        refill(b, r, now);
        /* its place in the queue, counted only when it matters: it is first, or the slot of the
         * queue's last call would come too late (so that a long queue is not walked by every
         * call it holds at every nap) */
        bool first = b->queue == &w;
        size_t place = first || !b->waiting ? 0 : b->waiting - 1;
        int64_t need_by = deadline_ms - need_ms - (int64_t)ceil(now);
        if (!first && (int64_t)ceil(((double)place + 1 - b->slots) * 60000.0 / r) > need_by) place = place_of(b, &w);
        if (first && b->slots >= 1) {
            b->slots -= 1;
            b->served = w.tag;
            dequeue(b, &w);
            break;
        }
        /* when its slot comes if nobody comes before it: one per call ahead of it, then its own
         * (at most that, when its place was not counted) */
        double owed = (double)place + 1 - b->slots;
        int64_t wait = (int64_t)ceil(owed * 60000.0 / r);
        if (wait > need_by) {
            dequeue(b, &w);
            *error = xasprintf("rate limit %s=%u: the next request slot is %lld ms away, after the call's time "
                               "(CHIDORI_LLM_TIMEOUT_MS) runs out",
                               setting, r, (long long)wait);
            rc = -1;
            break;
        }
        if (cancel && atomic_load(cancel)) {
            dequeue(b, &w);
            *error = xasprintf("the run was cancelled while its call waited for a request slot (%s=%u)", setting, r);
            rc = -1;
            break;
        }
        /* the first waits for its slot, the others for their turn; all look at cancel every 50 ms */
        int64_t nap = first && wait < 50 ? (wait > 0 ? wait : 1) : 50;
        uint64_t until = clock_monotonic_ns() + (uint64_t)nap * 1000000u; /* the cv's clock: CLOCK_MONOTONIC */
        struct timespec ts = {(time_t)(until / 1000000000u), (long)(until % 1000000000u)};
        pthread_cond_timedwait(&w.cv, &pace_lock, &ts);
    }
    pthread_mutex_unlock(&pace_lock);
    pthread_cond_destroy(&w.cv);
    return rc;
}

int llm_pace_retryable(long status) { return status == 429 || status == 503 || status == 529; }

/* Digits with an optional fraction ("5", "1.5", ".5"; no sign, exponent or hex), and nothing else
 * but spaces around them; -1 when it is not that. */
static double decimal(const char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    const char *p = s;
    size_t digits = 0;
    while (*p >= '0' && *p <= '9') p++, digits++;
    if (*p == '.') {
        p++;
        while (*p >= '0' && *p <= '9') p++, digits++;
    }
    const char *end = p;
    while (*p == ' ' || *p == '\t') p++;
    if (*p || digits == 0 || end - s > 20) return -1;
    return strtod(s, NULL); /* only digits and one '.' reach it; our process keeps the C locale */
}

static bool two_digits(const char *s, int *out)
{
    if (s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9') return false;
    *out = (s[0] - '0') * 10 + (s[1] - '0');
    return true;
}

/* An IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT", exactly) in ms since the epoch; -1 when it is
 * not one. */
static int64_t http_date_ms(const char *s)
{
    static const char days[] = "SunMonTueWedThuFriSat", months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
    int day, year_hi, year_lo, hh, mm, ss;
    if (strlen(s) != 29 || s[3] != ',' || s[4] != ' ' || s[7] != ' ' || s[11] != ' ' || s[16] != ' ' || s[19] != ':' ||
        s[22] != ':' || strcmp(s + 25, " GMT") != 0)
        return -1;
    char wd[4] = {s[0], s[1], s[2], 0}, mon[4] = {s[8], s[9], s[10], 0};
    const char *d = strstr(days, wd), *m = strstr(months, mon);
    if (!d || (d - days) % 3 || !m || (m - months) % 3) return -1;
    if (!two_digits(s + 5, &day) || !two_digits(s + 12, &year_hi) || !two_digits(s + 14, &year_lo) ||
        !two_digits(s + 17, &hh) || !two_digits(s + 20, &mm) || !two_digits(s + 23, &ss))
        return -1;
    int year = year_hi * 100 + year_lo;
    if (day < 1 || day > 31 || year < 1970 || hh > 23 || mm > 59 || ss > 60) return -1;
    struct tm tm = {.tm_sec = ss, .tm_min = mm, .tm_hour = hh, .tm_mday = day, .tm_mon = (int)((m - months) / 3),
                    .tm_year = year - 1900};
    time_t t = timegm(&tm);
    if (t < 0 || tm.tm_mday != day) return -1; /* 31 Feb came back as a day of March */
    return (int64_t)t * 1000;
}

#define RETRY_MIN_MS 500
#define RETRY_MAX_MS 86400000.0 /* a day: the call's deadline ends it far sooner */

int64_t llm_pace_retry_wait_ms(const char *retry_after_ms, const char *retry_after, int attempt, int64_t now_ms_real)
{
    double w = retry_after_ms ? decimal(retry_after_ms) : -1;
    if (w < 0 && retry_after) {
        double secs = decimal(retry_after);
        if (secs >= 0) w = secs * 1000;
        else {
            int64_t at = http_date_ms(retry_after);
            if (at >= 0) w = at > now_ms_real ? (double)(at - now_ms_real) : 0;
        }
    }
    if (w < 0) w = 1000.0 * (double)(1 << (attempt < 1 ? 1 : attempt > 6 ? 6 : attempt));
    if (w < RETRY_MIN_MS) w = RETRY_MIN_MS;
    if (w > RETRY_MAX_MS) w = RETRY_MAX_MS;
    return (int64_t)w;
}

void llm_pace_reset(void)
{
    pthread_mutex_lock(&pace_lock);
    memset(buckets, 0, sizeof buckets); /* only between tests: no call waits then */
    pthread_mutex_unlock(&pace_lock);
}

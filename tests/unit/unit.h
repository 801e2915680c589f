/* unit.h — a very small unit-test harness: TEST(name) { CHECK(...); } registers itself; the
 * runner prints `ok NAME` or `FAIL NAME file:line: what` per test, which tests/run.py reads. */
#ifndef CHIDORI_UNIT_H
#define CHIDORI_UNIT_H

#include <stdio.h>
#include <string.h>

typedef void unit_fn(void);
void unit_register(const char *name, unit_fn *fn);
void unit_fail(const char *file, int line, const char *what);
extern int unit_failed_now;

#define TEST(name)                                                                    \
    static void name(void);                                                           \
    __attribute__((constructor)) static void register_##name(void) { unit_register(#name, name); } \
    static void name(void)

#define CHECK(cond)                                   \
    do {                                              \
        if (!(cond)) {                                \
            unit_fail(__FILE__, __LINE__, #cond);     \
            return;                                   \
        }                                             \
    } while (0)

#define CHECK_STR(a, b)                                                         \
    do {                                                                        \
        const char *a_ = (a), *b_ = (b);                                        \
        if (!a_ || !b_ || strcmp(a_, b_) != 0) {                                \
            char m_[512];                                                       \
            snprintf(m_, sizeof m_, "%s == %s (got \"%.200s\", want \"%.200s\")", #a, #b, a_ ? a_ : "(null)", \
                     b_ ? b_ : "(null)");                                       \
            unit_fail(__FILE__, __LINE__, m_);                                  \
            return;                                                             \
        }                                                                       \
    } while (0)

#endif

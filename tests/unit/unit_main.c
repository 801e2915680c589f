/* unit_main.c — runs every registered unit test (see unit.h). */
#include "unit.h"

#include <stdlib.h>

typedef struct { const char *name; unit_fn *fn; } unit_test;
static unit_test tests[512];
static int n_tests;
int unit_failed_now;
static char failure[1024];

void unit_register(const char *name, unit_fn *fn)
{
    if (n_tests < (int)(sizeof tests / sizeof tests[0])) tests[n_tests++] = (unit_test){name, fn};
}

void unit_fail(const char *file, int line, const char *what)
{
    unit_failed_now = 1;
    snprintf(failure, sizeof failure, "%s:%d: %s", file, line, what);
}

int main(int argc, char **argv)
{
    int failed = 0;
    for (int i = 0; i < n_tests; i++) {
        if (argc > 1 && !strstr(tests[i].name, argv[1])) continue;
        unit_failed_now = 0;
        tests[i].fn();
        if (unit_failed_now) {
            printf("FAIL %s %s\n", tests[i].name, failure);
            failed++;
        } else {
            printf("ok %s\n", tests[i].name);
        }
        fflush(stdout);
    }
    return failed ? 1 : 0;
}

/* test_page_cost.c — the measured cost of a first write to a fresh page (src/util/page_cost.c):
 * a figure, not a guess, that a server decides by where its workers' engine is built. */
#include "unit.h"
#include "util/page_cost.h"

TEST(page_first_write_is_measured)
{
    uint64_t ns = page_first_write_ns();
    CHECK(ns > 0);         /* a first write is never free: at least the fault */
    CHECK(ns < 10000000u); /* and no machine takes 10 ms a page: the figure is per page */
}

/* page_cost.h — what the first write to a fresh 4 KiB page of memory costs on this machine,
 * measured rather than assumed: a few hundred nanoseconds on hardware or under a hypervisor with
 * nested page tables, 10-18 us on the paravirtualized guests chidori is built on, where each one
 * traps to the hypervisor. A server decides by it where its workers' engine is built
 * (forkserver.h, docs/http-api.md "Warm workers"). */
#ifndef CHIDORI_PAGE_COST_H
#define CHIDORI_PAGE_COST_H

#include <stdint.h>

/* Above this, a page written for the first time costs more than the work that fills it: a fork
 * server's workers then build their own engine instead of copying the fork server's. */
#define PAGE_COST_COSTLY_NS 4000

/* Nanoseconds per first write to a page of a fresh anonymous mapping: the least of three
 * measurements of 32 pages each (the least, so that being preempted once does not count). 0 when
 * no mapping could be made. */
uint64_t page_first_write_ns(void);

#endif

/* heap_pages.h — asks for the C library's heap in huge pages, in a process that runs one agent and
 * exits (`run`, `resume`, `replay`, `eval`, `branch-resume`, `branch-rerun`). Not in an isolated
 * worker: there a hello run's heap is small, and zeroing a huge page for it cost more than the
 * faults it saved (an isolated hello run 0.86x bubblewrap without, 0.90x with).
 *
 * On the virtual machines chidori is built and measured on, the first write to each new 4 KiB page
 * costs a trap to the hypervisor (about 10 us); a resume of 1,600 records wrote some 270 new heap
 * pages, a quarter of its time. Called early (first thing in main for `eval` and the branch
 * commands; for `run`, `resume` and `replay` once their settings are read and an isolated run's
 * worker is begun, cli/run.c; other threads may exist by then: glibc's mallopt and malloc lock
 * the heap, and a growth by another thread meanwhile only widens the range marked, which is
 * still the heap's), this grows the heap once by 8 MiB and
 * marks the 2 MiB-aligned part of that growth MADV_HUGEPAGE, takes blocks of up to 32 MiB from the
 * heap rather than from a mapping of their own, and never trims the heap's top: so the heap's
 * first megabytes are a few huge pages where the kernel offers them (docs/limits.md, "Set-up's
 * arena", says when). Memory is only reserved by it: a huge page is taken when the heap first
 * writes into its 2 MiB. It never
 * fails a run: where huge pages are off, or the C library is not glibc, or under AddressSanitizer
 * (its own allocator), it does nothing or leaves 4 KiB pages.
 */
#ifndef CHIDORI_HEAP_PAGES_H
#define CHIDORI_HEAP_PAGES_H

void heap_prefer_huge_pages(void);

#endif

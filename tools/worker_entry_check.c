/* worker_entry_check.c — a test binary linked as chidori-worker is (static-pie, entry point
 * worker_entry from tools/worker_entry.c), for tests/cases_isolation.py: does the entry point
 * make private copies of the relocated data before the C library's start-up runs?
 *
 * The probe: three pages in .data.rel.ro that hold no pointer (so the relocation never writes
 * them) and that nothing reads before main. Without the entry point's populate they are not mapped
 * at main, or mapped as pages of the file (a neighbour's fault mapped them read-only); with it,
 * each is mapped and anonymous (a private copy). /proc/self/pagemap tells which without touching
 * them. Prints what it found; exit 0 when all three are private copies and inside the span the
 * entry point computed, 1 otherwise, and 77 (with the reason) where it cannot tell: a kernel
 * without MADV_POPULATE_WRITE (before 5.14; the worker then faults the pages in as it always did)
 * or no readable /proc/self/pagemap. Trusts: the kernel's pagemap.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

#define PROBE_PAGES 3

void worker_entry_relocated_span(uintptr_t *lo, uintptr_t *hi);

__attribute__((section(".data.rel.ro"), aligned(4096))) char worker_entry_probe[PROBE_PAGES * 4096] = {1};

int main(void)
{
    uintptr_t lo, hi, probe = (uintptr_t)worker_entry_probe;
    worker_entry_relocated_span(&lo, &hi);
    void *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page != MAP_FAILED && madvise(page, 4096, MADV_POPULATE_WRITE) != 0 && errno == EINVAL) {
        printf("unsupported: this kernel has no MADV_POPULATE_WRITE (Linux 5.14 or later has it)\n");
        return 77;
    }
    int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        printf("unsupported: /proc/self/pagemap cannot be read: %s\n", strerror(errno));
        return 77;
    }
    int copies = 0;
    for (int i = 0; i < PROBE_PAGES; i++) {
        uint64_t e = 0;
        if (pread(fd, &e, sizeof e, (off_t)((probe / 4096 + (uintptr_t)i) * sizeof e)) != (ssize_t)sizeof e) {
            printf("unsupported: /proc/self/pagemap cannot be read: %s\n", strerror(errno));
            return 77;
        }
        /* bit 63: present; bit 62: swapped out (only a private page is); bit 61: a page of a file
         * (or shared) rather than a private one */
        bool present = e >> 63 & 1, swapped = e >> 62 & 1, file = e >> 61 & 1;
        bool copy = (present && !file) || swapped;
        printf("probe page %d: %s\n", i, copy ? "a private copy" : !present ? "not mapped" : "the file's page");
        copies += copy;
    }
    close(fd);
    bool inside = lo <= probe && probe + PROBE_PAGES * 4096 <= hi;
    printf("relocated span: %zu pages, %s the probe\n", (size_t)((hi - lo) / 4096), inside ? "covering" : "not covering");
    printf("probe pages copied before main: %d of %d\n", copies, PROBE_PAGES);
    return copies == PROBE_PAGES && inside ? 0 : 1;
}

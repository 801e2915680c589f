/* worker_entry_check.c — a test binary linked as chidori-worker is (static-pie, entry point
 * worker_entry from tools/worker_entry.c), for tests/cases_isolation.py: does the entry point
 * make private copies of the relocated data before the C library's start-up runs?
 *
 * The probe: three pages in .data.rel.ro that hold no pointer (so the relocation never writes
 * them) and that nothing reads before main. Without the entry point's populate they are not mapped
 * at main, or mapped as pages of the file (a neighbour's fault mapped them read-only); with it,
 * each is mapped and anonymous (a private copy). /proc/self/pagemap tells which without touching
 * them. Prints what it found; exit 0 when all three are private copies and inside the span the
 * entry point computed, 1 otherwise. Trusts: the kernel's pagemap.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#define PROBE_PAGES 3

void worker_entry_relocated_span(uintptr_t *lo, uintptr_t *hi);

__attribute__((section(".data.rel.ro"), aligned(4096))) char worker_entry_probe[PROBE_PAGES * 4096] = {1};

int main(void)
{
    uintptr_t lo, hi, probe = (uintptr_t)worker_entry_probe;
    worker_entry_relocated_span(&lo, &hi);
    int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        perror("worker-entry-check: /proc/self/pagemap");
        return 1;
    }
    int copies = 0;
    for (int i = 0; i < PROBE_PAGES; i++) {
        uint64_t e = 0;
        if (pread(fd, &e, sizeof e, (off_t)((probe / 4096 + (uintptr_t)i) * sizeof e)) != (ssize_t)sizeof e) {
            perror("worker-entry-check: pread");
            return 1;
        }
        /* bit 63: present; bit 61: a page of a file (or shared) rather than a private one */
        bool present = e >> 63 & 1, file = e >> 61 & 1;
        printf("probe page %d: %s\n", i, !present ? "not mapped" : file ? "the file's page" : "a private copy");
        copies += present && !file;
    }
    close(fd);
    bool inside = lo <= probe && probe + PROBE_PAGES * 4096 <= hi;
    printf("relocated span: %zu pages, %s the probe\n", (size_t)((hi - lo) / 4096), inside ? "covering" : "not covering");
    printf("probe pages copied before main: %d of %d\n", copies, PROBE_PAGES);
    return copies == PROBE_PAGES && inside ? 0 : 1;
}

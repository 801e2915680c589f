/* worker_entry.c — the entry point of `chidori-worker` (linked with -e worker_entry): it asks the
 * kernel for private copies of the pages the C library's start-up is about to relocate, in one
 * call, and then jumps to the C library's own _start as if the kernel had entered there.
 *
 * Why. A static-pie binary relocates itself before main: _dl_relocate_static_pie writes a pointer
 * into every page of its relocated data (.data.rel.ro, .got, .data: 44 pages here, most of them
 * ICU's and QuickJS's tables). Each first write to such a page is a copy-on-write fault, and on the
 * virtual machines chidori is measured on a fault costs about 16 us (a trap to the hypervisor);
 * MADV_POPULATE_WRITE makes the same private copies inside one system call, about 6 us a page
 * (bench/isolation measures the effect on a whole isolated run). Nothing changes but when the
 * copies are made: the same pages, the same contents, relocated by the same code afterwards.
 *
 * What it may do. It runs before the C library exists: no thread pointer (so no stack protector,
 * no errno), nothing relocated yet (so no pointer stored in data may be read; the ELF header and
 * program headers are reached PC-relatively through the hidden __ehdr_start). It makes one raw
 * system call and ignores its result: a kernel without MADV_POPULATE_WRITE (before 5.14) refuses
 * it, and the faults happen as before. Trusts: the kernel's initial stack and the binary's own
 * program headers. Only the static worker links this file; `chidori __run-worker` (a dynamic
 * executable, relocated by the dynamic loader before any of its code runs) has no such step.
 */
#if !defined(__x86_64__)
#error "worker_entry.c: the entry stub is x86-64 assembly (the worker's seccomp layer is x86-64 only too)"
#endif
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 11
#error "worker_entry.c: needs GCC 11 or later (no_stack_protector; the Makefile also passes -fno-stack-protector)"
#endif

#include <elf.h>
#include <link.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/syscall.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#define PAGE ((uintptr_t)4096)

extern const ElfW(Ehdr) __ehdr_start __attribute__((visibility("hidden")));

/* The part of the writable load segment that holds file contents, from the start of the relocated
 * read-only data to the end of .data: every page the relocation writes. Without PT_GNU_RELRO (a
 * binary linked -z norelro), the file part of the first writable load segment. [*lo, *hi),
 * page-aligned; both 0 when there is neither. */
__attribute__((visibility("hidden"), no_stack_protector)) void worker_entry_relocated_span(uintptr_t *lo, uintptr_t *hi)
{
    const ElfW(Phdr) *ph = (const ElfW(Phdr) *)((const char *)&__ehdr_start + __ehdr_start.e_phoff);
    /* the load bias: where the segment at file offset 0 (the ELF header's) was put, less its address */
    uintptr_t bias = (uintptr_t)&__ehdr_start, start = 0, end = 0;
    for (int i = 0; i < __ehdr_start.e_phnum; i++)
        if (ph[i].p_type == PT_LOAD && ph[i].p_offset == 0) {
            bias -= ph[i].p_vaddr;
            break;
        }
    bool relro = false;
    for (int i = 0; i < __ehdr_start.e_phnum; i++)
        if (ph[i].p_type == PT_GNU_RELRO) start = ph[i].p_vaddr, end = ph[i].p_vaddr + ph[i].p_memsz, relro = true;
    for (int i = 0; i < __ehdr_start.e_phnum; i++) {
        if (ph[i].p_type != PT_LOAD || !(ph[i].p_flags & PF_W)) continue;
        if (!relro) { /* the first writable segment's file part */
            start = ph[i].p_vaddr, end = ph[i].p_vaddr + ph[i].p_filesz;
            break;
        }
        if (ph[i].p_vaddr <= start && start < ph[i].p_vaddr + ph[i].p_memsz && ph[i].p_vaddr + ph[i].p_filesz > end)
            end = ph[i].p_vaddr + ph[i].p_filesz; /* the rest of .data after the relro part */
    }
    *lo = *hi = 0;
    if (end <= start) return;
    *lo = (bias + start) & ~(PAGE - 1);
    *hi = (bias + end + PAGE - 1) & ~(PAGE - 1);
}

__attribute__((visibility("hidden"), used, no_stack_protector)) void worker_entry_populate(void)
{
    uintptr_t lo, hi;
    worker_entry_relocated_span(&lo, &hi);
    if (hi <= lo) return;
    long rc;
    __asm__ volatile("syscall"
                     : "=a"(rc)
                     : "0"((long)SYS_madvise), "D"(lo), "S"(hi - lo), "d"((long)MADV_POPULATE_WRITE)
                     : "rcx", "r11", "memory");
    (void)rc;
}

/* The kernel enters with %rsp at argc and %rdx 0 (no dynamic loader's fini); _start reads both.
 * r12 and r13 are callee-saved: they carry the two across the call. */
__asm__(".pushsection .text\n"
        ".globl worker_entry\n"
        ".type worker_entry,@function\n"
        "worker_entry:\n"
        "  .cfi_startproc\n"
        "  .cfi_undefined rip\n"
        "  xorl %ebp, %ebp\n"
        "  movq %rsp, %r12\n"
        "  movq %rdx, %r13\n"
        "  andq $-16, %rsp\n"
        "  call worker_entry_populate\n"
        "  movq %r12, %rsp\n"
        "  movq %r13, %rdx\n"
        "  jmp _start\n"
        "  .cfi_endproc\n"
        ".size worker_entry, .-worker_entry\n"
        ".popsection\n");

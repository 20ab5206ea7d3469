/*
 * unwind.h - walks the interrupted thread's stack from a signal's ucontext.
 *
 * Uses libunwind with stoke's own address space: registers come from the
 * ucontext, memory is read in place only where it is known to be mapped
 * (the thread's stack above the stack pointer, segments of known modules)
 * and elsewhere only through reads that cannot fault (safe_memory.h), and
 * unwind tables are found through the agent's module table, never through
 * dl_iterate_phdr.
 */
#ifndef STOKE_AGENT_UNWIND_H
#define STOKE_AGENT_UNWIND_H

#include <stdint.h>
#include <ucontext.h>

/* Loads libunwind privately and creates the address space, once. Returns 0
 * or -1.
 * Context: program. */
int unwind_init(void);

/* Where to unwind from: registers (DWARF numbering, 0..16 = rax..rip; a
 * register whose bit is clear in `known` is unavailable) and the stack. The
 * stack is read in place from [stack_lo, stack_hi), or, when copy is set,
 * from a copy of it made earlier (copy holds stack_hi - stack_lo bytes). */
struct unwind_start {
    uint64_t regs[17];
    uint32_t known;
    uintptr_t stack_lo, stack_hi;
    const uint8_t *copy;
};

/* Captures the caller's own registers (libunwind's getcontext): call it
 * directly from the function whose stack is to be walked.
 * Context: hooks. */
extern int (*unwind_getcontext)(ucontext_t *);

/* Fills the start registers from a signal's ucontext.
 * Context: any. */
void unwind_start_from_ucontext(struct unwind_start *s, const ucontext_t *uc);

/* Sets the stack read in place to [sp, hi) when the start's stack pointer
 * lies in the thread's stack [lo, hi), else to nothing: below sp may be a
 * guard zone (the JVM's), and a stack pointer elsewhere (a goroutine's, a
 * coroutine's, an alternate signal stack) is read like any other memory.
 * Context: any. */
void unwind_bound_stack(struct unwind_start *s, uintptr_t lo, uintptr_t hi);

/* Fills frames[0..max) leaf first with the starting IP and the return
 * addresses above it; returns how many. *flags gets STOKE_STACK_* bits.
 * Never reads outside the stack and module segments but through
 * safe_memory. Not reentrant on one thread: a call while the thread is
 * already inside (a signal landing in the middle of an unwind) returns 0.
 * Context: handler, hooks, writer. */
uint32_t unwind_stack(const struct unwind_start *s, uint64_t *frames, uint32_t max,
                      uint32_t *flags);

/* The same, also giving for each frame after the first the stack address
 * its return address was read from (slots[0] is 0, and so is the slot of a
 * frame a signal interrupted: its pc was not read from a slot).
 * Context: handler, hooks, writer. */
uint32_t unwind_stack_slots(const struct unwind_start *s, uint64_t *frames, uint64_t *slots,
                            uint32_t max, uint32_t *flags);

/* 1 while the calling thread is inside unwind_stack. libunwind then only
 * takes its own locks, and the sigprocmask calls around them may be skipped
 * (see program/interpose.c): a signal arriving meanwhile returns from the sampling
 * handler at once instead of unwinding, so it cannot deadlock on them.
 * Context: any. */
int unwind_busy(void);

#endif

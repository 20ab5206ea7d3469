/*
 * arch_x86_64.h - the agent's x86-64 specifics, kept in one place: reading
 * the stack pointer (the caller's, or the one a signal interrupted) and
 * calling a function on another stack. The rest of
 * the agent is written against these and libunwind's register numbers.
 * stoke supports x86-64 Linux only; a port starts here and in unwind.c's
 * register table.
 */
#ifndef STOKE_AGENT_ARCH_X86_64_H
#define STOKE_AGENT_ARCH_X86_64_H

#include <stdint.h>
#include <ucontext.h>

#if !defined(__x86_64__)
#error "stoke's agent supports x86-64 only (see profiler/arch_x86_64.h)"
#endif

/* The caller's stack pointer.
 * Context: any. */
static inline __attribute__((always_inline)) uintptr_t arch_stack_pointer(void)
{
    uintptr_t sp;
    __asm__ volatile("mov %%rsp, %0" : "=r"(sp));
    return sp;
}

/* The stack pointer of the code a signal interrupted.
 * Context: handler. */
static inline uintptr_t arch_interrupted_sp(const ucontext_t *uc)
{
    return (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
}

/* 1 when the 8 bytes before an address (before[7] the last) may end a call
 * instruction, as the bytes before a return address do: call rel32 (E8),
 * or FF /2, an indirect call through a register or memory (2 to 7 bytes
 * with a REX prefix or displacement). Data seldom looks like that, so a
 * "return address" that fails this is not one (a walk that went astray).
 * Context: any. */
static inline int arch_follows_call(const uint8_t before[8])
{
    if (before[3] == 0xe8)
        return 1;
    for (int length = 2; length <= 7; length++) {
        const uint8_t *start = before + 8 - length;
        if (start[0] == 0xff && ((start[1] >> 3) & 7) == 2)
            return 1;
    }
    return 0;
}

/* Calls fn(arg) with the stack pointer at top (16-byte aligned, the top of
 * a stack the caller owns), and returns on the caller's own stack. The
 * caller's red zone is never touched: the call pushes onto the other
 * stack. Every register the ABI lets fn change is declared clobbered.
 * Context: handler, hooks. */
static inline void arch_call_on_stack(void (*fn)(void *), void *arg, uintptr_t top)
{
    __asm__ volatile("mov %%rsp, %%r12\n\t"
                     "mov %[top], %%rsp\n\t"
                     "call *%[fn]\n\t"
                     "mov %%r12, %%rsp"
                     : "+D"(arg)
                     : [fn] "r"(fn), [top] "r"(top)
                     : "r12", "rax", "rcx", "rdx", "rsi", "r8", "r9", "r10", "r11", "xmm0",
                       "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9",
                       "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "st", "st(1)",
                       "st(2)", "st(3)", "st(4)", "st(5)", "st(6)", "st(7)", "memory", "cc");
}

#endif

/*
 * sym_target_lto_part.c - the second unit of sym_target_lto: a function
 * that link-time optimization inlines into its caller in the other unit, so
 * that its abstract definition and the inlined instance live in different
 * compilation units of the DWARF.
 * Never: depends on stoke.
 */
#include <stdint.h>

extern uintptr_t stoke_lto_stack[3];

const int stoke_lto_mark_line = __LINE__ + 1;
void stoke_lto_mark(void)
{
    void *pc;
    __asm__ volatile("1: lea 1b(%%rip), %0" : "=r"(pc));
    stoke_lto_stack[0] = (uintptr_t)pc;
}

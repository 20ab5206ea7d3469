/*
 * sym_target_lto.c - sym_target.c's counterpart built with link-time
 * optimization: stoke_lto_mark, defined in sym_target_lto_part.c, is
 * inlined into stoke_lto_leaf here, across units.
 *
 * It prints "exe <path>", "stack <leaf> <ret> <ret>" (ELF virtual
 * addresses, leaf first: a point inside stoke_lto_mark as inlined into
 * stoke_lto_leaf, then the return addresses into stoke_lto_outer and main)
 * and "inlined_line <line>", the line where stoke_lto_mark is defined.
 * Never: depends on stoke.
 */
#define _GNU_SOURCE
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

uintptr_t stoke_lto_stack[3];
extern const int stoke_lto_mark_line;
void stoke_lto_mark(void);

/* flatten: whatever the inliner's mood, the other unit's function comes in. */
__attribute__((noinline, flatten)) void stoke_lto_leaf(void)
{
    stoke_lto_mark();
    stoke_lto_stack[1] = (uintptr_t)__builtin_return_address(0);
}

__attribute__((noinline)) void stoke_lto_outer(void)
{
    stoke_lto_leaf();
    stoke_lto_stack[2] = (uintptr_t)__builtin_return_address(0);
    __asm__ volatile("" ::: "memory");
}

static int main_program_bias(struct dl_phdr_info *info, size_t size, void *bias)
{
    (void)size;
    *(uintptr_t *)bias = info->dlpi_addr;
    return 1; /* the first object is the program itself */
}

int main(void)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    stoke_lto_outer();
    uintptr_t bias = 0;
    dl_iterate_phdr(main_program_bias, &bias);
    printf("exe %s\n", exe);
    printf("stack 0x%lx 0x%lx 0x%lx\n", (unsigned long)(stoke_lto_stack[0] - bias),
           (unsigned long)(stoke_lto_stack[1] - bias), (unsigned long)(stoke_lto_stack[2] - bias));
    printf("inlined_line %d\n", stoke_lto_mark_line);
    return 0;
}

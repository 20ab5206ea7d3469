/*
 * sym_target_cpp.cpp - the C++ counterpart of sym_target.c: known functions
 * with C++ names (a namespace, a class template, an inlined member), run by
 * test_load to learn real addresses for the symbolizer to name.
 *
 * It prints "exe <path>", "stack <leaf> <ret> <ret>" (ELF virtual
 * addresses, leaf first: a point inside shop::Cart<double>::add(double),
 * inlined into shop::Cart<double>::checkout(int), then the return addresses
 * into shop::run() and main) and "inlined_line <line>", the line where
 * add is defined.
 * Never: depends on stoke.
 */
#include <cstdint>
#include <cstdio>
#include <link.h>
#include <unistd.h>

static uintptr_t stack[3];

namespace shop {

template <typename T> struct Cart {
    T total;

    enum { ADD_LINE = __LINE__ + 1 };
    __attribute__((always_inline)) inline void add(T value)
    {
        void *pc;
        __asm__ volatile("1: lea 1b(%%rip), %0" : "=r"(pc));
        stack[0] = (uintptr_t)pc;
        total += value;
    }

    __attribute__((noinline)) void checkout(int n)
    {
        for (int i = 0; i < n; i++)
            add((T)i);
        stack[1] = (uintptr_t)__builtin_return_address(0);
    }
};

__attribute__((noinline)) double run()
{
    Cart<double> cart{0};
    cart.checkout(3);
    stack[2] = (uintptr_t)__builtin_return_address(0);
    __asm__ volatile("" ::: "memory");
    return cart.total;
}

} // namespace shop

static int main_program_bias(struct dl_phdr_info *info, size_t, void *bias)
{
    *(uintptr_t *)bias = info->dlpi_addr;
    return 1; /* the first object is the program itself */
}

int main()
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    double total = shop::run();
    uintptr_t bias = 0;
    dl_iterate_phdr(main_program_bias, &bias);
    printf("exe %s\n", exe);
    printf("stack 0x%lx 0x%lx 0x%lx\n", (unsigned long)(stack[0] - bias),
           (unsigned long)(stack[1] - bias), (unsigned long)(stack[2] - bias));
    printf("inlined_line %d\n", (int)shop::Cart<double>::ADD_LINE);
    return total == 3.0 ? 0 : 1;
}

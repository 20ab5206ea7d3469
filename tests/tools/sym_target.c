/*
 * sym_target.c - a test program with known functions, run by the unit
 * tests to learn real code addresses for the symbolizer to name.
 *
 * It prints, as "key value..." lines:
 *   exe <path of this program>
 *   stack <leaf> <ret> <ret>   ELF virtual addresses, leaf first: a point
 *                              inside stoke_test_inlined (inlined into
 *                              stoke_test_leaf), then the return addresses
 *                              into stoke::test::outer() and main
 *   inlined_line <line>        line where stoke_test_inlined is defined
 *   leaf_line <line>           line where stoke_test_leaf is defined
 *   libc <path> <offset>       where getpid is, in the C library
 *   vdso <offset>              where clock_gettime is, in the vDSO
 * Never: depends on stoke; it only describes itself.
 */
#define _GNU_SOURCE
#include <gelf.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline))

static uintptr_t stack[3];

enum { INLINED_LINE = __LINE__ + 1 };
static inline __attribute__((always_inline)) void stoke_test_inlined(void)
{
    void *pc;
    __asm__ volatile("1: lea 1b(%%rip), %0" : "=r"(pc));
    stack[0] = (uintptr_t)pc;
}

enum { LEAF_LINE = __LINE__ + 1 };
NOINLINE void stoke_test_leaf(void)
{
    stoke_test_inlined();
    stack[1] = (uintptr_t)__builtin_return_address(0);
}

/* A C++ linkage name, so the test checks demangling without a C++ compiler. */
NOINLINE void stoke_test_outer(void) __asm__("_ZN5stoke4test5outerEv");
NOINLINE void stoke_test_outer(void)
{
    stoke_test_leaf();
    stack[2] = (uintptr_t)__builtin_return_address(0);
    __asm__ volatile("" ::: "memory");
}

struct module_query {
    uintptr_t addr;
    const char *path;
    uintptr_t bias;
};

static int find_module(struct dl_phdr_info *info, size_t info_size, void *data)
{
    struct module_query *q = data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && q->addr >= start && q->addr < start + ph->p_memsz) {
            q->path = info->dlpi_name;
            q->bias = info->dlpi_addr;
            return 1;
        }
    }
    return 0;
}

static struct module_query module_of(const void *addr)
{
    struct module_query q = {.addr = (uintptr_t)addr};
    dl_iterate_phdr(find_module, &q);
    return q;
}

/* The vDSO's own symbol table holds clock_gettime's virtual address. */
static uint64_t vdso_symbol(const char *name)
{
    char *image = (char *)getauxval(AT_SYSINFO_EHDR);
    const ElfW(Ehdr) *eh = (const void *)image;
    elf_version(EV_CURRENT);
    Elf *elf = image ? elf_memory(image, eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize)
                     : NULL;
    Elf_Scn *scn = NULL;
    GElf_Shdr shdr;
    uint64_t found = 0;
    while (elf && !found && (scn = elf_nextscn(elf, scn))) {
        if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_DYNSYM)
            continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        GElf_Sym sym;
        for (size_t i = 0; data && i < shdr.sh_size / shdr.sh_entsize; i++)
            if (gelf_getsym(data, (int)i, &sym) &&
                strcmp(elf_strptr(elf, shdr.sh_link, sym.st_name), name) == 0)
                found = sym.st_value;
    }
    if (elf)
        elf_end(elf);
    return found;
}

int main(void)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    stoke_test_outer();
    uintptr_t bias = module_of((void *)main).bias;
    struct module_query libc = module_of((void *)getpid);
    printf("exe %s\n", exe);
    printf("stack 0x%lx 0x%lx 0x%lx\n", (unsigned long)(stack[0] - bias),
           (unsigned long)(stack[1] - bias), (unsigned long)(stack[2] - bias));
    printf("inlined_line %d\nleaf_line %d\n", INLINED_LINE, LEAF_LINE);
    printf("libc %s 0x%lx\n", libc.path, (unsigned long)((uintptr_t)getpid - libc.bias));
    printf("vdso 0x%lx\n", (unsigned long)vdso_symbol("clock_gettime"));
    return 0;
}

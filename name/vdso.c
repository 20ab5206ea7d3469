/*
 * vdso.c - copies this process's vDSO image into an anonymous file so that
 * libdwfl can read it like any ELF file; see vdso.h.
 *
 * Owns: finding the image (AT_SYSINFO_EHDR) and its size (ELF headers).
 * Never: writes anything to disk.
 */
#define _GNU_SOURCE
#include "vdso.h"

#include <elf.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

static size_t max_size(size_t a, size_t b)
{
    return a > b ? a : b;
}

/* The vDSO's file image ends with its section headers or its last segment. */
static size_t image_size(const Elf64_Ehdr *eh)
{
    const Elf64_Phdr *ph = (const void *)((const char *)eh + eh->e_phoff);
    size_t size = max_size(eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize,
                           eh->e_phoff + (size_t)eh->e_phnum * eh->e_phentsize);
    for (unsigned i = 0; i < eh->e_phnum; i++)
        size = max_size(size, ph[i].p_offset + ph[i].p_filesz);
    return size;
}

static int is_elf64(const Elf64_Ehdr *eh)
{
    return memcmp(eh->e_ident, ELFMAG, SELFMAG) == 0 && eh->e_ident[EI_CLASS] == ELFCLASS64;
}

int stoke_vdso_open(void)
{
    const Elf64_Ehdr *eh = (const void *)getauxval(AT_SYSINFO_EHDR);
    if (!eh || !is_elf64(eh))
        return -1;
    size_t size = image_size(eh);
    int fd = memfd_create("stoke-vdso", MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    if (write(fd, eh, size) != (ssize_t)size) {
        close(fd);
        return -1;
    }
    return fd;
}

int stoke_is_vdso_path(const char *path)
{
    return strcmp(path, "[vdso]") == 0 || strcmp(path, "linux-vdso.so.1") == 0;
}

/*
 * safe_memory.c - see safe_memory.h. Never dereferences an address it was
 * given; only the kernel touches the target memory.
 */
#define _GNU_SOURCE
#include "safe_memory.h"

#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/uio.h>

#include "common/sandbox.h"

#define PAGE 4096u
#define MAX_READS_PER_WALK 16 /* pages: a deeper walk ends instead */

static _Atomic pid_t reading_pid; /* 0: not yet allowed */

void safe_memory_allow(pid_t pid)
{
    atomic_store(&reading_pid, pid);
}

static int read_page(struct safe_pages *pages, uintptr_t page, uint32_t slot)
{
    pid_t pid = atomic_load_explicit(&reading_pid, memory_order_relaxed);
    if (!pid || sandbox_threads_restricted() || pages->reads >= MAX_READS_PER_WALK)
        return -1;
    pages->reads++;
    int saved_errno = errno;
    struct iovec local = {pages->data[slot], PAGE}, remote = {(void *)page, PAGE};
    ssize_t n = process_vm_readv(pid, &local, 1, &remote, 1, 0);
    errno = saved_errno;
    if (n != (ssize_t)PAGE)
        return -1;
    pages->address[slot] = page + 1;
    return 0;
}

int safe_memory_read_word(struct safe_pages *pages, uintptr_t addr, uint64_t *value)
{
    if (addr % sizeof *value)
        return -1;
    uintptr_t page = addr & ~(uintptr_t)(PAGE - 1);
    uint32_t slot = 0;
    while (slot < SAFE_MEMORY_PAGES && pages->address[slot] != page + 1)
        slot++;
    if (slot == SAFE_MEMORY_PAGES) {
        slot = pages->next++ % SAFE_MEMORY_PAGES;
        pages->address[slot] = 0;
        if (read_page(pages, page, slot))
            return -1;
    }
    memcpy(value, pages->data[slot] + (addr - page), sizeof *value);
    return 0;
}

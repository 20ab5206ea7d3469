/*
 * safe_memory.h - reads of the process's own memory that never fault.
 *
 * The unwinder reads the interrupted thread's stack in place above its
 * stack pointer and the known modules' segments in place (both mapped by
 * construction). Anything else (a goroutine's stack, a coroutine's, an
 * alternate signal stack, a frame pointer into a guard zone or a gap) is
 * read here: a page at a time with process_vm_readv on the process itself,
 * which answers EFAULT where a load would fault. The pages read in one
 * walk are kept for that walk.
 *
 * The read is a system call, and a seccomp filter may kill the process for
 * one the program never makes: reads are refused once the agent knows of a
 * filter (common/sandbox.h), and until safe_memory_allow.
 */
#ifndef STOKE_AGENT_SAFE_MEMORY_H
#define STOKE_AGENT_SAFE_MEMORY_H

#include <stdint.h>
#include <sys/types.h>

#define SAFE_MEMORY_PAGES 4

/* The pages one walk has read; zero it before the walk. */
struct safe_pages {
    uintptr_t address[SAFE_MEMORY_PAGES]; /* page address + 1; 0: empty */
    uint32_t next, reads;
    uint8_t data[SAFE_MEMORY_PAGES][4096];
};

/* Allows reads in process pid: this one, again in a fork child.
 * Context: program. */
void safe_memory_allow(pid_t pid);

/* Reads the aligned word at addr into *value: 0, or -1 when it is not
 * mapped readable, reads are forbidden, or the walk made too many.
 * Context: any. */
int safe_memory_read_word(struct safe_pages *pages, uintptr_t addr, uint64_t *value);

#endif

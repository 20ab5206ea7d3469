/*
 * foreign_allocator.h - whether the program's malloc is the agent's hook.
 *
 * The executable comes first in the dynamic linker's lookup order, before
 * the preloaded agent: a program that defines and exports malloc itself
 * (a bump allocator, a statically linked jemalloc or tcmalloc) keeps its
 * own, and no allocation reaches the agent's hooks. Heap tracking then
 * says so, rather than reporting an empty heap as if it were the truth.
 */
#ifndef STOKE_AGENT_FOREIGN_ALLOCATOR_H
#define STOKE_AGENT_FOREIGN_ALLOCATOR_H

/* NULL when the program's malloc is the agent's, else a sentence for the
 * user naming the file whose malloc the program uses; the text lives as
 * long as the process. The loader is asked at the first call (the agent's
 * start); later calls (a fork child's start) give the same answer.
 * Context: program. */
const char *foreign_allocator_note(void);

#endif

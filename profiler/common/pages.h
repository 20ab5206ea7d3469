/*
 * pages.h - memory for the agent's heap tables, straight from mmap: the
 * tables live behind the malloc hooks, so they can never use malloc.
 */
#ifndef STOKE_AGENT_PAGES_H
#define STOKE_AGENT_PAGES_H

#include <stddef.h>

/* Zeroed memory of at least size bytes, or NULL; and giving it back.
 * Context: program, hooks. */
void *pages_alloc(size_t size);
void pages_free(void *p, size_t size);

#endif

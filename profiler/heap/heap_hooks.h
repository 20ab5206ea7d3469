/*
 * heap_hooks.h - what the interposed allocator (heap_hooks.c, heap_cxx.c)
 * offers the rest of the agent. Those two files are in libstoke.so only;
 * in libstoke-cpu.so, built without them, heap.c's weak defaults answer.
 */
#ifndef STOKE_AGENT_HEAP_HOOKS_H
#define STOKE_AGENT_HEAP_HOOKS_H

/* 1 in libstoke.so, whose hooks interpose the allocator; 0 in
 * libstoke-cpu.so, which can track no heap.
 * Context: any. */
int heap_hooks_present(void);

/* Looks up the functions the hooks call on (the allocator's, the C++
 * runtime's operators), if no hook did yet: the agent's constructor calls
 * it first thing, so that no lookup is left for later. Nothing in
 * libstoke-cpu.so.
 * Context: program. */
void heap_hooks_resolve(void);

/* The C++ operators' part of it (heap_cxx.c).
 * Context: program, hooks. */
void heap_cxx_resolve(void);

#endif

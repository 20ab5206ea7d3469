/*
 * stack_intern.h - gives each distinct call stack a small dense id, so a
 * sample on the wire is an id rather than its frames.
 */
#ifndef STOKE_AGENT_STACK_INTERN_H
#define STOKE_AGENT_STACK_INTERN_H

#include <stddef.h>
#include <stdint.h>

struct stack_intern {
    struct stack_slot *slots;
    size_t nslots, used;
    uint64_t *frames;           /* all interned frames, back to back */
    size_t nframes, frames_cap;
    uint32_t next_id;
};

/* Returns the id of (frames, n, flags); *is_new is set when the stack was
 * not seen before (the caller then writes its STACK record). Returns
 * UINT32_MAX when out of memory.
 * Context: writer. */
uint32_t stack_intern(struct stack_intern *s, const uint64_t *frames, uint32_t n,
                      uint32_t flags, int *is_new);

/* Forgets every stack but keeps counting ids (after code was unloaded, the
 * same addresses may mean other code).
 * Context: writer. */
void stack_intern_forget(struct stack_intern *s);

/* Frees every stack and the table; ids count from 0 again (the writer's
 * trace, or a part of it, starts anew).
 * Context: program, writer. */
void stack_intern_free(struct stack_intern *s);

#endif

/*
 * frame_identity.h - what a frame is across runs and rebuilds: the
 * function, not where its code or its source happened to be. Two profiles
 * of one program, recorded before and after an edit, line up by it.
 *
 * A frame's identity is its kind, module and name, and whether it was
 * inlined (so an inline chain matches frame by frame); never its address,
 * build-id, file, line or column. Code named from a perf map (JIT, V8's
 * JavaScript and runtime code) is its name alone, the module being a
 * process's own map. A process root "comm (pid)" is its comm and a thread
 * frame "name (tid)" its name: pids and tids differ between runs. Where
 * one side knows no modules (folded stacks), frames are their names alone,
 * any " (digits)" at their end left out.
 *
 * Never: reads files; changes the profiles it is given.
 */
#ifndef STOKE_FRAME_IDENTITY_H
#define STOKE_FRAME_IDENTITY_H

#include <stdint.h>

#include "index_table.h"
#include "profile.h"

/* The frames of one profile (into), unique by identity. */
struct stoke_identity_frames {
    struct stoke_profile *into;
    int names_only;                 /* match by name alone (stoke_knows_modules) */
    struct stoke_index_table index; /* frame indices of into, by identity */
};

/* 0 when no frame of p has a module: folded stacks, which name functions
 * only; their frames then match another profile's by name alone. */
int stoke_knows_modules(const struct stoke_profile *p);

/* Returns the index in t->into of the frame whose identity is f's, adding
 * one shown as f (its pid or tid left out, its build-id dropped) if there
 * is none yet. Every frame of t->into must come from here. */
uint32_t stoke_identity_frame(struct stoke_identity_frames *t, const struct stoke_frame *f);

void stoke_identity_frames_free(struct stoke_identity_frames *t);

#endif

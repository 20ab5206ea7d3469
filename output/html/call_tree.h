/*
 * call_tree.h - the profile's stacks merged into one call tree (shared
 * prefixes stored once), listed in preorder with each node's depth: the
 * compact form in which the report embeds its stacks. A node's parent is the
 * last node before it one level up; depth 0 nodes are the roots (processes).
 * Siblings come in name order (strcmp), the order the flame graph shows.
 */
#ifndef STOKE_CALL_TREE_H
#define STOKE_CALL_TREE_H

#include <stddef.h>
#include <stdint.h>
#include "profile.h"

struct call_tree {
    size_t nnodes;
    size_t nvalues;
    uint32_t *frame;  /* frame index of node i, preorder */
    uint32_t *depth;  /* depth of node i, 0 for a root */
    int64_t *self;    /* self[v * nnodes + i]: value v of the stacks ending at i */
    uint32_t *stack_node; /* by profile stack: the node it ends at, UINT32_MAX for
                           * a stack the tree left out (no value, or damaged) */
    size_t nstacks;
};

/* Builds the tree of every row with a non-zero value (of every row, for a
 * profile with the live heap over time); rows whose stack or frames are out
 * of range are skipped. Returns 0, or -1 when out of memory. */
int call_tree_build(struct call_tree *tree, const struct stoke_profile *p);
void call_tree_free(struct call_tree *tree);

#endif

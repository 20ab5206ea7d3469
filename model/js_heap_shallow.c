/*
 * js_heap_shallow.c - DevTools' shallow sizes; see js_heap_shallow.h.
 *
 * Every object that is neither an array, hidden nor the data of an external
 * string owns itself; ownership flows along strong edges to those it
 * reaches. One reached from one owner only is part of that owner (unless
 * the owner is the root or synthetic); one reached from two is shared and
 * keeps its own size.
 *
 * Owns: that rule.
 * Never: moves a size to a synthetic node or the root, or visits a node
 * more than twice.
 */
#include "js_heap_shallow.h"

#include <stdlib.h>
#include <string.h>
#include "alloc.h"

#define UNVISITED UINT32_MAX
#define SHARED (UINT32_MAX - 1)

struct ownership {
    const struct stoke_js_heap *h;
    int hidden, array, native;
    const uint8_t *detached;
    uint32_t *owner;     /* per node: a node, UNVISITED or SHARED */
    uint32_t *work;
    size_t nwork, work_cap;
};

static int has_user_roots(const struct stoke_js_heap *h, int synthetic)
{
    for (uint32_t e = h->first_edge[h->root]; e < h->first_edge[h->root + 1]; e++)
        if (h->node_type[h->edge_to[e]] != synthetic)
            return 1;
    return 0;
}

static void push(struct ownership *o, uint32_t node)
{
    o->work = stoke_grow(o->work, &o->work_cap, o->nwork + 1, sizeof *o->work);
    o->work[o->nwork++] = node;
}

/* Whether node can be part of another (its name as DevTools shows it: a
 * detached one is "Detached ..."). */
static int can_be_owned(const struct ownership *o, uint32_t node)
{
    const struct stoke_js_heap *h = o->h;
    int type = h->node_type[node];
    if (type == o->hidden || type == o->array)
        return 1;
    return type == o->native && !(o->detached && o->detached[node]) &&
           strcmp(stoke_js_heap_string(h, h->node_name[node]), "system / ExternalStringData") == 0;
}

static void start_owners(struct ownership *o)
{
    const struct stoke_js_heap *h = o->h;
    for (uint32_t i = 0; i < h->node_count; i++) {
        int owned = can_be_owned(o, i);
        o->owner[i] = owned ? UNVISITED : i;
        if (!owned)
            push(o, i);
    }
}

/* Hands the owner of node on to what it holds. */
static void pass_on(struct ownership *o, uint32_t node, int weak)
{
    const struct stoke_js_heap *h = o->h;
    uint32_t owner = o->owner[node];
    for (uint32_t e = h->first_edge[node]; e < h->first_edge[node + 1]; e++) {
        uint32_t target = h->edge_to[e], current = o->owner[target];
        if (h->edge_type[e] == weak || current == target || current == owner ||
            current == SHARED)
            continue;
        o->owner[target] = current == UNVISITED ? owner : SHARED;
        push(o, target);
    }
}

static void move_sizes(const struct ownership *o, uint64_t *size, int synthetic)
{
    const struct stoke_js_heap *h = o->h;
    for (uint32_t i = 0; i < h->node_count; i++) {
        uint32_t owner = o->owner[i];
        if (owner == UNVISITED || owner == SHARED || owner == i || owner == h->root ||
            h->node_type[owner] == synthetic)
            continue;
        size[owner] += size[i];
        size[i] = 0;
    }
}

uint64_t *js_heap_shallow_sizes(const struct stoke_js_heap *h, const uint8_t *detached)
{
    uint64_t *size = stoke_xmalloc(h->node_count * sizeof *size);
    memcpy(size, h->node_self_size, h->node_count * sizeof *size);
    int synthetic = stoke_js_heap_node_type(h, "synthetic");
    if (!has_user_roots(h, synthetic))
        return size;
    struct ownership o = {.h = h, .detached = detached,
                          .hidden = stoke_js_heap_node_type(h, "hidden"),
                          .array = stoke_js_heap_node_type(h, "array"),
                          .native = stoke_js_heap_node_type(h, "native")};
    o.owner = stoke_xmalloc(h->node_count * sizeof *o.owner);
    start_owners(&o);
    int weak = stoke_js_heap_edge_type(h, "weak");
    while (o.nwork)
        pass_on(&o, o.work[--o.nwork], weak);
    move_sizes(&o, size, synthetic);
    free(o.owner);
    free(o.work);
    return size;
}

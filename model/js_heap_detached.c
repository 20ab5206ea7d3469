/*
 * js_heap_detached.c - which native objects are detached, as DevTools
 * decides before it names them "Detached <name>"; see js_heap_detached.h.
 *
 * V8 marks some embedder objects attached or detached (the "detachedness"
 * field: DOM nodes in a browser, some of node's binding objects). The state
 * spreads to the native objects they hold: first from every attached one,
 * then from every detached one to what is not attached. It never spreads
 * through JavaScript objects.
 *
 * Owns: that propagation.
 * Never: renames anything itself (the class names do, js_heap_classes.c).
 */
#include "js_heap_detached.h"

#include <stdlib.h>
#include <string.h>
#include "alloc.h"

enum { UNKNOWN = 0, ATTACHED = 1, DETACHED = 2 };

struct propagation {
    const struct stoke_js_heap *h;
    int native, hidden_edge, weak_edge;
    uint8_t *state;    /* per node */
    uint8_t *visited;
    uint32_t *attached, *detached; /* work stacks */
    size_t nattached, ndetached;
};

/* Gives node its state, once: only native nodes take one. */
static void visit(struct propagation *p, uint32_t node, uint8_t state)
{
    if (p->visited[node])
        return;
    p->visited[node] = 1;
    if (p->h->node_type[node] != p->native)
        return;
    p->state[node] = state;
    if (state == ATTACHED)
        p->attached[p->nattached++] = node;
    else if (state == DETACHED)
        p->detached[p->ndetached++] = node;
}

static void spread(struct propagation *p, uint32_t from, uint8_t state)
{
    const struct stoke_js_heap *h = p->h;
    for (uint32_t e = h->first_edge[from]; e < h->first_edge[from + 1]; e++)
        if (h->edge_type[e] != p->hidden_edge && h->edge_type[e] != p->weak_edge)
            visit(p, h->edge_to[e], state);
}

uint8_t *js_heap_detached_nodes(const struct stoke_js_heap *h)
{
    if (!h->node_detachedness || stoke_js_heap_node_type(h, "native") < 0)
        return NULL;
    size_t n = h->node_count;
    struct propagation p = {.h = h, .native = stoke_js_heap_node_type(h, "native"),
                            .hidden_edge = stoke_js_heap_edge_type(h, "hidden"),
                            .weak_edge = stoke_js_heap_edge_type(h, "weak")};
    p.state = stoke_xcalloc(n, 1);
    p.visited = stoke_xcalloc(n, 1);
    p.attached = stoke_xmalloc(n * sizeof *p.attached); /* each node is pushed at most once */
    p.detached = stoke_xmalloc(n * sizeof *p.detached);
    for (uint32_t i = 0; i < n; i++)
        if (h->node_detachedness[i] != UNKNOWN)
            visit(&p, i, h->node_detachedness[i]);
    while (p.nattached)
        spread(&p, p.attached[--p.nattached], ATTACHED);
    while (p.ndetached) {
        uint32_t node = p.detached[--p.ndetached];
        if (p.state[node] != ATTACHED)
            spread(&p, node, DETACHED);
    }
    free(p.visited);
    free(p.attached);
    free(p.detached);
    for (size_t i = 0; i < n; i++)
        p.state[i] = p.state[i] == DETACHED;
    return p.state;
}

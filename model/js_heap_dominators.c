/*
 * js_heap_dominators.c - the dominator tree and retained sizes; see
 * js_heap_dominators.h.
 *
 * The algorithm is Lengauer and Tarjan's ("A fast algorithm for finding
 * dominators in a flowgraph", 1979; the simple version, O(E log N)), as
 * DevTools runs it, so that both give every object the same dominator:
 * vertices are numbered from 1 (0 is "none"), the depth-first search and
 * the path compression are loops over explicit stacks (a linked list of a
 * million objects is a million deep), and objects no retaining path reaches
 * hang from the root: first those nothing retains at all, each with what it
 * reaches, then one by one whatever is left (rings that only hold each
 * other).
 *
 * Owns: that algorithm, retained sizes, and the dominated children lists.
 * Never: recurses, or allocates more than a few arrays of the node and
 * edge counts.
 */
#include "js_heap_dominators.h"

#include <stdlib.h>
#include <string.h>
#include "alloc.h"
#include "js_heap_retaining.h"

/* The working arrays, indexed by vertex (node ordinal + 1). */
struct lengauer_tarjan {
    const struct stoke_js_heap *h;
    const uint8_t *retaining; /* per edge */
    size_t n;                 /* vertices numbered so far */
    uint32_t *parent, *ancestor, *vertex, *label, *semi, *dom;
    uint32_t *bucket, *bucket_next; /* bucket[v]: first vertex whose
                                     * semidominator is v, then bucket_next */
    uint32_t *next_edge;      /* depth-first search: the next edge to follow */
    uint32_t *stack;          /* path compression */
    uint32_t *pred_start, *preds; /* retaining edges into each vertex, by source vertex */
};

static uint32_t *vertex_array(size_t n)
{
    return stoke_xcalloc(n + 1, sizeof(uint32_t));
}

/* Who retains whom, by vertex: the edges walked backwards. */
static void index_predecessors(struct lengauer_tarjan *t)
{
    const struct stoke_js_heap *h = t->h;
    size_t n = h->node_count;
    /* counted at [v + 2], summed, then filled through [v + 1]: after that,
     * vertex v's predecessors are preds[pred_start[v] .. pred_start[v+1]-1] */
    t->pred_start = stoke_xcalloc(n + 3, sizeof *t->pred_start);
    for (uint32_t e = 0; e < h->edge_count; e++)
        if (t->retaining[e])
            t->pred_start[(h->edge_to[e] + 1) + 2]++;
    for (size_t v = 2; v <= n + 2; v++)
        t->pred_start[v] += t->pred_start[v - 1];
    t->preds = stoke_xmalloc((t->pred_start[n + 2] ? t->pred_start[n + 2] : 1) *
                             sizeof *t->preds);
    for (uint32_t node = 0; node < n; node++)
        for (uint32_t e = h->first_edge[node]; e < h->first_edge[node + 1]; e++)
            if (t->retaining[e])
                t->preds[t->pred_start[(h->edge_to[e] + 1) + 1]++] = node + 1;
}

static int has_predecessors(const struct lengauer_tarjan *t, uint32_t v)
{
    return t->pred_start[v] != t->pred_start[v + 1];
}

static void number(struct lengauer_tarjan *t, uint32_t v)
{
    t->semi[v] = (uint32_t)++t->n;
    t->vertex[t->n] = t->label[v] = v;
}

/* The next unnumbered vertex a retaining edge of v leads to, made v's
 * child; 0 when v has none left. */
static uint32_t next_child(struct lengauer_tarjan *t, uint32_t v)
{
    const struct stoke_js_heap *h = t->h;
    uint32_t end = h->first_edge[v];   /* node v-1's edges end where node v's begin */
    for (; t->next_edge[v] < end; t->next_edge[v]++) {
        uint32_t e = t->next_edge[v];
        uint32_t w = h->edge_to[e] + 1;
        if (t->retaining[e] && !t->semi[w]) {
            t->parent[w] = v;
            t->next_edge[w] = h->first_edge[w - 1];
            return w;
        }
    }
    return 0;
}

/* Depth-first search from root along retaining edges, numbering vertices
 * in the order first reached. */
static void search(struct lengauer_tarjan *t, uint32_t root)
{
    t->next_edge[root] = t->h->first_edge[root - 1];
    for (uint32_t v = root; v;) {
        if (!t->semi[v])
            number(t, v);
        uint32_t child = next_child(t, v);
        v = child ? child : t->parent[v];
    }
}

/* What the root reaches by no retaining path hangs from the root. */
static void hang_unreached(struct lengauer_tarjan *t, uint32_t r)
{
    size_t n = t->h->node_count;
    for (uint32_t v = 1; v <= n && t->n < n; v++) {
        if (!t->semi[v] && !has_predecessors(t, v)) {
            t->parent[v] = r;
            search(t, v);
        }
    }
    for (uint32_t v = 1; v <= n && t->n < n; v++) {
        if (!t->semi[v]) {
            t->parent[v] = r;
            number(t, v);
        }
    }
}

static void compress(struct lengauer_tarjan *t, uint32_t v)
{
    size_t top = 0;
    while (t->ancestor[t->ancestor[v]]) {
        t->stack[++top] = v;
        v = t->ancestor[v];
    }
    while (top) {
        uint32_t w = t->stack[top--];
        if (t->semi[t->label[t->ancestor[w]]] < t->semi[t->label[w]])
            t->label[w] = t->label[t->ancestor[w]];
        t->ancestor[w] = t->ancestor[t->ancestor[w]];
    }
}

static uint32_t eval(struct lengauer_tarjan *t, uint32_t v)
{
    if (!t->ancestor[v])
        return v;
    compress(t, v);
    return t->label[v];
}

/* Semidominator of w: the smallest numbered vertex with a path to w through
 * higher numbered ones. A vertex nothing retains counts the root as its one
 * predecessor. */
static void find_semidominator(struct lengauer_tarjan *t, uint32_t w, uint32_t r)
{
    if (!has_predecessors(t, w)) {
        t->semi[w] = t->semi[r];
        return;
    }
    for (uint32_t i = t->pred_start[w]; i < t->pred_start[w + 1]; i++) {
        uint32_t u = eval(t, t->preds[i]);
        if (t->semi[u] < t->semi[w])
            t->semi[w] = t->semi[u];
    }
}

static void settle_bucket(struct lengauer_tarjan *t, uint32_t p)
{
    for (uint32_t v = t->bucket[p]; v; v = t->bucket_next[v]) {
        uint32_t u = eval(t, v);
        t->dom[v] = t->semi[u] < t->semi[v] ? u : p;
    }
    t->bucket[p] = 0;
}

static void find_dominators(struct lengauer_tarjan *t, uint32_t r)
{
    for (size_t i = t->n; i >= 2; i--) {
        uint32_t w = t->vertex[i];
        find_semidominator(t, w, r);
        uint32_t s = t->vertex[t->semi[w]];
        t->bucket_next[w] = t->bucket[s];
        t->bucket[s] = w;
        t->ancestor[w] = t->parent[w];
        settle_bucket(t, t->parent[w]);
    }
    t->dom[0] = t->dom[r] = r; /* a vertex left without one hangs from the root */
    for (size_t i = 2; i <= t->n; i++) {
        uint32_t w = t->vertex[i];
        if (t->dom[w] != t->vertex[t->semi[w]])
            t->dom[w] = t->dom[t->dom[w]];
    }
}

static void start(struct lengauer_tarjan *t, const struct stoke_js_heap *h)
{
    size_t n = h->node_count;
    memset(t, 0, sizeof *t);
    t->h = h;
    t->retaining = js_heap_retaining_edges(h);
    index_predecessors(t);
    t->parent = vertex_array(n);
    t->ancestor = vertex_array(n);
    t->vertex = vertex_array(n);
    t->label = vertex_array(n);
    t->semi = vertex_array(n);
    t->dom = vertex_array(n);
    t->bucket = vertex_array(n);
    t->bucket_next = vertex_array(n);
    t->next_edge = vertex_array(n);
    t->stack = vertex_array(n);
}

static void finish(struct lengauer_tarjan *t)
{
    free((void *)t->retaining);
    free(t->pred_start);
    free(t->preds);
    free(t->parent);
    free(t->ancestor);
    free(t->vertex);
    free(t->label);
    free(t->semi);
    free(t->dom);
    free(t->bucket);
    free(t->bucket_next);
    free(t->next_edge);
    free(t->stack);
}

/* --- the results by node ---------------------------------------------------------- */

static void retained_sizes(const struct lengauer_tarjan *t, const uint64_t *shallow,
                           struct js_heap_dominators *out)
{
    size_t n = t->h->node_count;
    out->dominator = stoke_xmalloc(n * sizeof *out->dominator);
    out->retained = stoke_xmalloc(n * sizeof *out->retained);
    for (size_t i = 0; i < n; i++) {
        out->dominator[i] = t->dom[i + 1] - 1;
        out->retained[i] = shallow[i];
    }
    for (size_t i = t->n; i > 1; i--) { /* each before its dominator */
        uint32_t node = t->vertex[i] - 1;
        out->retained[out->dominator[node]] += out->retained[node];
    }
}

static void dominated_children(const struct stoke_js_heap *h, struct js_heap_dominators *out)
{
    size_t n = h->node_count;
    out->children_start = stoke_xcalloc(n + 2, sizeof *out->children_start);
    for (uint32_t i = 0; i < n; i++)
        if (i != h->root)
            out->children_start[out->dominator[i] + 2]++;
    for (size_t i = 2; i <= n + 1; i++)
        out->children_start[i] += out->children_start[i - 1];
    out->children = stoke_xmalloc((n ? n : 1) * sizeof *out->children);
    for (uint32_t i = 0; i < n; i++)
        if (i != h->root)
            out->children[out->children_start[out->dominator[i] + 1]++] = i;
}

void js_heap_dominators(const struct stoke_js_heap *h, const uint64_t *shallow,
                        struct js_heap_dominators *out)
{
    struct lengauer_tarjan t;
    uint32_t r = h->root + 1;
    memset(out, 0, sizeof *out);
    start(&t, h);
    search(&t, r);
    out->unreachable = h->node_count - t.n;
    hang_unreached(&t, r);
    find_dominators(&t, r);
    retained_sizes(&t, shallow, out);
    finish(&t);
    dominated_children(h, out);
}

void js_heap_dominators_free(struct js_heap_dominators *d)
{
    free(d->dominator);
    free(d->retained);
    free(d->children_start);
    free(d->children);
}

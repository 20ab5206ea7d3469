/*
 * call_tree.c - merges the profile's stacks into a call tree and lists it in
 * preorder.
 *
 * Owns: the trie of (parent, frame) -> node, the preorder walk and the
 * order of siblings (by name, so the viewer need not sort at every load).
 * Never: changes the profile or drops a non-zero value of a valid row.
 */
#define _GNU_SOURCE /* qsort_r */
#include "call_tree.h"

#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "heap_timeline.h"

#define NO_NODE 0 /* node 0 is the virtual root, never anyone's child */

/* The tree while it is built; node 0 is a virtual root above the roots. */
struct trie {
    size_t nvalues;
    size_t count, capacity;
    uint32_t *parent, *frame, *depth, *first_child, *next_sibling;
    int64_t *self;    /* self[i * nvalues + v] */
    uint32_t *row_node; /* by row: its node, NO_NODE when left out */
    uint32_t *slots;  /* open addressing over (parent, frame): node, 0 = empty */
    size_t nslots;    /* a power of two */
};

static void trie_free(struct trie *t)
{
    free(t->parent);
    free(t->frame);
    free(t->depth);
    free(t->first_child);
    free(t->next_sibling);
    free(t->self);
    free(t->row_node);
    free(t->slots);
}

/* The slot of the edge parent -> frame, or the empty slot where it belongs. */
static uint32_t *find_slot(const struct trie *t, uint32_t parent, uint32_t frame)
{
    size_t mask = t->nslots - 1;
    for (size_t i = stoke_hash_mix(parent, frame) & mask;; i = (i + 1) & mask) {
        uint32_t n = t->slots[i];
        if (n == NO_NODE || (t->frame[n] == frame && t->parent[n] == parent))
            return &t->slots[i];
    }
}

static int grow_nodes(struct trie *t)
{
    size_t cap = t->capacity ? t->capacity * 2 : 4096;
    uint32_t **arrays[] = {&t->parent, &t->frame, &t->depth, &t->first_child,
                           &t->next_sibling};
    for (size_t a = 0; a < sizeof(arrays) / sizeof(arrays[0]); a++) {
        uint32_t *grown = realloc(*arrays[a], cap * sizeof(uint32_t));
        if (!grown)
            return -1;
        *arrays[a] = grown;
    }
    int64_t *self = realloc(t->self, cap * t->nvalues * sizeof(int64_t));
    if (!self)
        return -1;
    t->self = self;
    t->capacity = cap;
    return 0;
}

/* Keeps the edge table at most half full. */
static int grow_slots(struct trie *t)
{
    size_t nslots = t->nslots ? t->nslots * 2 : 8192;
    uint32_t *slots = calloc(nslots, sizeof(*slots));
    if (!slots)
        return -1;
    free(t->slots);
    t->slots = slots;
    t->nslots = nslots;
    for (uint32_t n = 1; n < t->count; n++)
        *find_slot(t, t->parent[n], t->frame[n]) = n;
    return 0;
}

static int64_t add_node(struct trie *t, uint32_t parent, uint32_t frame)
{
    if (t->count == t->capacity && grow_nodes(t) < 0)
        return -1;
    uint32_t n = (uint32_t)t->count++;
    t->parent[n] = parent;
    t->frame[n] = frame;
    t->depth[n] = n == 0 ? 0 : t->depth[parent] + 1;
    t->first_child[n] = NO_NODE;
    t->next_sibling[n] = NO_NODE;
    memset(&t->self[n * t->nvalues], 0, t->nvalues * sizeof(int64_t));
    if (n != 0) {
        t->next_sibling[n] = t->first_child[parent];
        t->first_child[parent] = n;
    }
    return n;
}

/* The child of parent for frame, created if new; -1 when out of memory. */
static int64_t child(struct trie *t, uint32_t parent, uint32_t frame)
{
    if (t->count + 1 > t->nslots / 2 && grow_slots(t) < 0)
        return -1;
    uint32_t *slot = find_slot(t, parent, frame);
    if (*slot == NO_NODE) {
        int64_t n = add_node(t, parent, frame);
        if (n < 0)
            return -1;
        *slot = (uint32_t)n;
    }
    return *slot;
}

/* A row of no value is left out, but in a profile of the live heap over
 * time: another range of time may give it one (timeline_data.h). */
static int row_is_usable(const struct stoke_profile *p, const struct stoke_row *row)
{
    int nonzero = stoke_has_heap_timeline(p);
    for (size_t v = 0; v < p->nvalues; v++)
        nonzero |= row->values[v] != 0;
    if (!nonzero || row->stack >= p->nstacks || p->stack_len[row->stack] == 0)
        return 0;
    const uint32_t *frames = &p->stack_frames[p->stack_start[row->stack]];
    for (uint32_t k = 0; k < p->stack_len[row->stack]; k++)
        if (frames[k] >= p->nframes)
            return 0;
    return 1;
}

/* Adds row's values to the node of its stack; returns the node, or -1
 * when out of memory. */
static int64_t add_row(struct trie *t, const struct stoke_profile *p, const struct stoke_row *row)
{
    const uint32_t *frames = &p->stack_frames[p->stack_start[row->stack]];
    int64_t node = 0;
    for (uint32_t k = 0; k < p->stack_len[row->stack]; k++) {
        node = child(t, (uint32_t)node, frames[k]);
        if (node < 0)
            return -1;
    }
    for (size_t v = 0; v < p->nvalues; v++)
        t->self[(size_t)node * t->nvalues + v] += row->values[v];
    return node;
}

static int build_trie(struct trie *t, const struct stoke_profile *p)
{
    t->row_node = calloc(p->nrows ? p->nrows : 1, sizeof *t->row_node);
    if (!t->row_node || add_node(t, 0, 0) < 0)
        return -1;
    for (size_t r = 0; r < p->nrows; r++) {
        int64_t node = row_is_usable(p, &p->rows[r]) ? add_row(t, p, &p->rows[r]) : NO_NODE;
        if (node < 0)
            return -1;
        t->row_node[r] = (uint32_t)node;
    }
    return 0;
}

static int alloc_tree(struct call_tree *tree, size_t nnodes, size_t nvalues)
{
    tree->nnodes = nnodes;
    tree->nvalues = nvalues;
    tree->frame = malloc((nnodes ? nnodes : 1) * sizeof(uint32_t));
    tree->depth = malloc((nnodes ? nnodes : 1) * sizeof(uint32_t));
    tree->self = malloc((nnodes ? nnodes : 1) * nvalues * sizeof(int64_t));
    return tree->frame && tree->depth && tree->self ? 0 : -1;
}

/* Each stack's node in preorder, from its row's node in the trie (row i
 * is stack i) and where the preorder walk put each trie node. */
static int map_stacks(struct call_tree *tree, const struct trie *t, const uint32_t *preorder_of,
                      const struct stoke_profile *p)
{
    tree->nstacks = p->nrows;
    tree->stack_node = malloc((p->nrows ? p->nrows : 1) * sizeof(uint32_t));
    if (!tree->stack_node)
        return -1;
    for (size_t r = 0; r < p->nrows; r++)
        tree->stack_node[r] = t->row_node[r] == NO_NODE ? UINT32_MAX
                                                        : preorder_of[t->row_node[r]];
    return 0;
}

struct sibling_order {
    const struct trie *trie;
    const struct stoke_profile *profile;
};

/* Name order; frames of the same name (other module or line) by index. */
static int compare_siblings(const void *a, const void *b, void *arg)
{
    const struct sibling_order *o = arg;
    uint32_t fa = o->trie->frame[*(const uint32_t *)a];
    uint32_t fb = o->trie->frame[*(const uint32_t *)b];
    const char *na = o->profile->frames[fa].name, *nb = o->profile->frames[fb].name;
    int by_name = strcmp(na ? na : "", nb ? nb : "");
    return by_name ? by_name : (fa > fb) - (fa < fb);
}

/* Pushes the children of n on the pending stack, last name first, so they
 * come off it in name order. */
static size_t push_children(const struct trie *t, uint32_t n, uint32_t *pending, size_t npending,
                            struct sibling_order *order)
{
    size_t first = npending;
    for (uint32_t c = t->first_child[n]; c != NO_NODE; c = t->next_sibling[c])
        pending[npending++] = c;
    uint32_t *kids = &pending[first];
    size_t nkids = npending - first;
    qsort_r(kids, nkids, sizeof(*kids), compare_siblings, order);
    for (size_t i = 0; i < nkids / 2; i++) {
        uint32_t swap = kids[i];
        kids[i] = kids[nkids - 1 - i];
        kids[nkids - 1 - i] = swap;
    }
    return npending;
}

/* Lists the trie's nodes (less the virtual root) in preorder, siblings in
 * name order, and where each stack ends in it. */
static int list_preorder(struct call_tree *tree, const struct trie *t, const struct stoke_profile *p)
{
    struct sibling_order order = {t, p};
    uint32_t *pending = malloc(t->count * sizeof(uint32_t));
    uint32_t *preorder_of = malloc(t->count * sizeof(uint32_t));
    if (!pending || !preorder_of || alloc_tree(tree, t->count - 1, t->nvalues) < 0) {
        free(pending);
        free(preorder_of);
        return -1;
    }
    size_t npending = push_children(t, 0, pending, 0, &order), out = 0;
    while (npending > 0) {
        uint32_t n = pending[--npending];
        preorder_of[n] = (uint32_t)out;
        tree->frame[out] = t->frame[n];
        tree->depth[out] = t->depth[n] - 1;
        for (size_t v = 0; v < t->nvalues; v++)
            tree->self[v * tree->nnodes + out] = t->self[(size_t)n * t->nvalues + v];
        out++;
        npending = push_children(t, n, pending, npending, &order);
    }
    free(pending);
    int rc = map_stacks(tree, t, preorder_of, p);
    free(preorder_of);
    return rc;
}

int call_tree_build(struct call_tree *tree, const struct stoke_profile *p)
{
    struct trie t = {.nvalues = p->nvalues ? p->nvalues : 1};
    memset(tree, 0, sizeof(*tree));
    int rc = build_trie(&t, p);
    if (rc == 0)
        rc = list_preorder(tree, &t, p);
    trie_free(&t);
    if (rc < 0)
        call_tree_free(tree);
    return rc;
}

void call_tree_free(struct call_tree *tree)
{
    free(tree->frame);
    free(tree->depth);
    free(tree->self);
    free(tree->stack_node);
    memset(tree, 0, sizeof(*tree));
}

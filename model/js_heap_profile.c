/*
 * js_heap_profile.c - a snapshot's dominator tree as profile rows; see
 * js_heap_profile.h.
 *
 * The tree is walked from the root, each node before the nodes it
 * dominates. Paths of frames are interned as they are met (a path is its
 * parent path and one frame), so a path costs one lookup per node, and
 * becomes a profile stack only when an object is added to it.
 *
 * Owns: the shape of a JS heap stack (root frame, collapsing, the depth
 * bound) and its frames.
 * Never: recurses over the tree, or interns a profile stack per object.
 */
#include "js_heap_profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "u64map.h"

#define NO_STACK UINT32_MAX

/* Paths of frames from the root frame: path 0 is the root frame alone. */
struct paths {
    uint32_t *frame, *parent, *depth, *stack; /* by path; stack: NO_STACK until made */
    size_t n, cap;
    struct stoke_u64map index;                /* parent << 32 | frame -> path */
};

struct builder {
    struct stoke_profile *p;
    const struct stoke_js_heap_analysis *a;
    int synthetic;
    uint32_t deeper;             /* the "[deeper]" frame */
    uint32_t *class_frame;       /* by class: its frame, UINT32_MAX until made */
    uint32_t *path_of;           /* by node: the path its dominated nodes hang from */
    struct paths paths;
    uint32_t *scratch;           /* a stack's frames, root first */
};

static const struct {
    const char *name, *unit;
} js_heap_values[STOKE_JS_HEAP_NVALUES] = {
    [STOKE_JS_HEAP_SHALLOW_BYTES] = {"js_shallow", "bytes"},
    [STOKE_JS_HEAP_OBJECTS] = {"js_objects", "count"},
};

void stoke_make_js_heap_profile(struct stoke_profile *p)
{
    p->kind = STOKE_PROFILE_JS_HEAP;
    p->period_ns = 0;
    for (size_t i = 0; i < STOKE_JS_HEAP_NVALUES; i++)
        stoke_profile_set_value_type(p, i, js_heap_values[i].name, js_heap_values[i].unit);
}

/* --- frames ----------------------------------------------------------------- */

static uint32_t named_frame(struct stoke_profile *p, const char *name, uint8_t kind)
{
    struct stoke_frame f = {.name = name, .module = "", .file = "", .kind = kind};
    return stoke_profile_frame(p, &f);
}

static uint32_t class_frame(struct builder *b, uint32_t c)
{
    const struct stoke_js_class *k = &b->a->classes[c];
    char file[32] = "";
    if (b->class_frame[c] != UINT32_MAX)
        return b->class_frame[c];
    struct stoke_frame f = {.name = k->name, .module = "", .file = file,
                            .kind = STOKE_KIND_JS_HEAP};
    if (k->located) {
        snprintf(file, sizeof file, "script %u", k->where.script_id);
        f.line = k->where.line + 1;
        f.column = k->where.column + 1;
    }
    return b->class_frame[c] = stoke_profile_frame(b->p, &f);
}

/* V8's roots go by their own names; every other node by its class. */
static uint32_t node_frame(struct builder *b, uint32_t node)
{
    const struct stoke_js_heap *h = b->a->heap;
    const char *name = stoke_js_heap_string(h, h->node_name[node]);
    if (h->node_type[node] == b->synthetic && *name)
        return named_frame(b->p, name, STOKE_KIND_JS_HEAP);
    return class_frame(b, b->a->class_of[node]);
}

/* --- paths ------------------------------------------------------------------ */

static uint32_t new_path(struct paths *ps, uint32_t parent, uint32_t frame, uint32_t depth)
{
    if (ps->n == ps->cap) {
        ps->cap = ps->cap ? ps->cap * 2 : 1024;
        ps->frame = stoke_xrealloc(ps->frame, ps->cap * sizeof *ps->frame);
        ps->parent = stoke_xrealloc(ps->parent, ps->cap * sizeof *ps->parent);
        ps->depth = stoke_xrealloc(ps->depth, ps->cap * sizeof *ps->depth);
        ps->stack = stoke_xrealloc(ps->stack, ps->cap * sizeof *ps->stack);
    }
    ps->frame[ps->n] = frame;
    ps->parent[ps->n] = parent;
    ps->depth[ps->n] = depth;
    ps->stack[ps->n] = NO_STACK;
    return (uint32_t)ps->n++;
}

static uint32_t child_path(struct paths *ps, uint32_t parent, uint32_t frame)
{
    uint64_t key = ((uint64_t)parent << 32) | frame;
    uint32_t path;
    if (stoke_u64map_get(&ps->index, key, &path))
        return path;
    path = new_path(ps, parent, frame, ps->depth[parent] + 1);
    stoke_u64map_put(&ps->index, key, path);
    return path;
}

/* The profile stack of path, made on first use. */
static uint32_t path_stack(struct builder *b, uint32_t path)
{
    struct paths *ps = &b->paths;
    if (ps->stack[path] != NO_STACK)
        return ps->stack[path];
    uint32_t n = ps->depth[path];
    for (uint32_t p = path, i = n; i-- > 0; p = ps->parent[p])
        b->scratch[i] = ps->frame[p];
    return ps->stack[path] = stoke_profile_stack(b->p, b->scratch, n);
}

/* Places node under the path its dominator's children hang from: sets the
 * path its own children hang from and returns the path of its row. */
static uint32_t place(struct builder *b, uint32_t node, uint32_t above)
{
    struct paths *ps = &b->paths;
    uint32_t frame = node_frame(b, node);
    if (ps->frame[above] == frame) { /* the same group again: one frame */
        b->path_of[node] = above;
        return above;
    }
    if (ps->depth[above] < STOKE_JS_HEAP_MAX_DEPTH - 2) {
        b->path_of[node] = child_path(ps, above, frame);
        return b->path_of[node];
    }
    uint32_t deeper = ps->frame[above] == b->deeper ? above : child_path(ps, above, b->deeper);
    b->path_of[node] = deeper;
    return child_path(ps, deeper, frame);
}

static void add_object(struct builder *b, uint32_t node, uint32_t path)
{
    uint64_t size = b->a->shallow[node];
    if (!size)
        return;
    int64_t values[STOKE_MAX_VALUES] = {[STOKE_JS_HEAP_SHALLOW_BYTES] = (int64_t)size,
                                        [STOKE_JS_HEAP_OBJECTS] = 1};
    stoke_profile_add_to_stack(b->p, path_stack(b, path), values);
}

/* Walks the dominator tree, each node before those it dominates. */
static void add_tree(struct builder *b)
{
    const struct js_heap_dominators *t = &b->a->tree;
    uint32_t root = b->a->heap->root;
    uint32_t *todo = stoke_xmalloc(b->a->heap->node_count * sizeof *todo); /* each node once */
    size_t n = 0;
    b->path_of[root] = 0;
    add_object(b, root, 0);
    for (uint32_t i = t->children_start[root]; i < t->children_start[root + 1]; i++)
        todo[n++] = t->children[i];
    while (n) {
        uint32_t node = todo[--n];
        add_object(b, node, place(b, node, b->path_of[t->dominator[node]]));
        for (uint32_t i = t->children_start[node]; i < t->children_start[node + 1]; i++)
            todo[n++] = t->children[i];
    }
    free(todo);
}

static void add_summary(struct stoke_profile *p, const struct stoke_js_heap_analysis *a,
                        uint32_t root)
{
    struct stoke_process_summary *s = stoke_profile_add_process(p);
    s->comm = stoke_xstrdup(STOKE_JS_HEAP_ROOT);
    s->trace_path = stoke_xstrdup(a->heap->path);
    s->root_frame = root;
    s->heap.sample_interval = 1; /* every object, exactly */
    s->heap.live_bytes = a->total_bytes;
    s->heap.live_objects = a->objects;
}

void stoke_js_heap_add_to_profile(struct stoke_profile *p, const struct stoke_js_heap_analysis *a)
{
    struct builder b = {.p = p, .a = a,
                        .synthetic = stoke_js_heap_node_type(a->heap, "synthetic")};
    stoke_make_js_heap_profile(p);
    uint32_t root = named_frame(p, STOKE_JS_HEAP_ROOT, STOKE_KIND_PROCESS);
    b.deeper = named_frame(p, STOKE_JS_HEAP_DEEPER, STOKE_KIND_JS_HEAP);
    b.class_frame = stoke_xmalloc((a->nclasses ? a->nclasses : 1) * sizeof *b.class_frame);
    memset(b.class_frame, 0xff, a->nclasses * sizeof *b.class_frame);
    b.path_of = stoke_xmalloc(a->heap->node_count * sizeof *b.path_of);
    b.scratch = stoke_xmalloc(STOKE_JS_HEAP_MAX_DEPTH * sizeof *b.scratch);
    new_path(&b.paths, UINT32_MAX, root, 1);
    add_tree(&b);
    add_summary(p, a, root);
    free(b.class_frame);
    free(b.path_of);
    free(b.scratch);
    free(b.paths.frame);
    free(b.paths.parent);
    free(b.paths.depth);
    free(b.paths.stack);
    stoke_u64map_free(&b.paths.index);
}

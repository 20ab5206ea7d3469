/*
 * js_heap_snapshot.c - simple questions about a heap snapshot's graph, and
 * freeing it; see js_heap_snapshot.h.
 *
 * Never: changes a snapshot's graph (read/js_heap_graph.c builds it).
 */
#include "js_heap_snapshot.h"

#include <stdlib.h>
#include <string.h>

static int find_name(char *const *names, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return (int)i;
    return -1;
}

int stoke_js_heap_node_type(const struct stoke_js_heap *h, const char *name)
{
    return find_name(h->node_type_names, h->n_node_types, name);
}

int stoke_js_heap_edge_type(const struct stoke_js_heap *h, const char *name)
{
    return find_name(h->edge_type_names, h->n_edge_types, name);
}

const char *stoke_js_heap_string(const struct stoke_js_heap *h, uint32_t i)
{
    return i < h->string_count ? h->strings[i] : "";
}

void stoke_js_heap_free(struct stoke_js_heap *h)
{
    if (!h)
        return;
    free(h->path);
    free(h->node_type_names);
    free(h->edge_type_names);
    free(h->node_type);
    free(h->node_name);
    free(h->node_id);
    free(h->node_self_size);
    free(h->node_detachedness);
    free(h->node_location);
    free(h->first_edge);
    free(h->edge_type);
    free(h->edge_name);
    free(h->edge_to);
    free(h->strings);
    free(h->locations);
    stoke_arena_free(&h->arena);
    free(h);
}

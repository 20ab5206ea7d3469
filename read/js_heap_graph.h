/*
 * js_heap_graph.h - what the snapshot reader (js_heap_read.c) hands over to
 * be made a graph the analysis can trust: the nodes' claimed edge counts
 * and the raw locations, turned into edge ranges and a per-node location.
 *
 * Never: parses JSON.
 */
#ifndef STOKE_JS_HEAP_GRAPH_H
#define STOKE_JS_HEAP_GRAPH_H

#include <stddef.h>
#include <stdint.h>
#include "js_heap_snapshot.h"

/* An edge's to-node or a location's object that names no node. */
#define JS_HEAP_NO_NODE UINT32_MAX

struct js_heap_raw {
    uint32_t *edge_counts;        /* per node, as the file claims */
    uint64_t edge_count_total;    /* their sum */
    uint32_t *location_nodes;     /* per location: node ordinal or JS_HEAP_NO_NODE */
    unsigned leftover_node_values, leftover_edge_values; /* after the last whole record */
    uint64_t claimed_nodes, claimed_edges; /* snapshot.node_count, edge_count (0: none) */
    int root_index_given;
    uint64_t root_index;          /* snapshot.root_index, a node index */
    unsigned node_fields;         /* values per node */
};

/* Makes h's graph consistent: edge ranges from the claimed counts (cut to
 * the edges read), edges to no node dropped, the per-node location index,
 * the root. Warns about each repair on stderr. Returns 0, or -1 with a
 * message in err when nothing can be analysed (no nodes). */
int js_heap_finish(struct stoke_js_heap *h, struct js_heap_raw *raw, char *err, size_t errlen);

#endif

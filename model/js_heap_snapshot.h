/*
 * js_heap_snapshot.h - a V8 heap snapshot (.heapsnapshot: node's
 * --heapsnapshot-signal and v8.writeHeapSnapshot(), Chrome DevTools) as
 * stoke reads it: the object graph in compact arrays, the strings, and
 * where objects' constructors are in the source.
 *
 * The file is one JSON object. "snapshot.meta" names the fields of each
 * node and edge in the flat integer arrays "nodes" and "edges" (and of
 * "locations"); "strings" holds every name. stoke reads the field order
 * from meta, never assumes it, and keeps only the fields it uses.
 *
 * Never: reads the file (read/js_heap_read.h does), analyses the graph
 * (js_heap_analysis.h does) or writes output.
 */
#ifndef STOKE_JS_HEAP_SNAPSHOT_H
#define STOKE_JS_HEAP_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>
#include "arena.h"

/* Where the constructor of an object is defined (0-based, as V8 writes
 * it); only objects of a constructor written in JavaScript have one. */
struct stoke_js_location {
    uint32_t script_id, line, column;
};

#define STOKE_JS_NO_LOCATION UINT32_MAX

struct stoke_js_heap {
    char *path;

    /* Type names from meta ("object", "closure", "hidden", ... and
     * "weak", "shortcut", ... for edges). A node or edge whose type value
     * names none of them has type n_node_types (n_edge_types). */
    char **node_type_names, **edge_type_names;
    size_t n_node_types, n_edge_types;

    /* Nodes, by ordinal 0 .. node_count-1 (the file's node index is the
     * ordinal times the node field count). */
    size_t node_count;
    uint8_t *node_type;
    uint32_t *node_name;       /* index into strings */
    uint32_t *node_id;         /* V8's object id: the same object keeps it
                                * across snapshots of one process */
    uint64_t *node_self_size;  /* bytes, as V8 wrote them */
    uint8_t *node_detachedness; /* 0 unknown, 1 attached, 2 detached; NULL
                                 * when meta has no "detachedness" field */
    uint32_t *node_location;   /* index into locations, or
                                * STOKE_JS_NO_LOCATION; NULL when none */
    uint32_t *first_edge;      /* node i's edges are first_edge[i] ..
                                * first_edge[i+1]-1 (node_count+1 entries) */
    uint32_t root;             /* ordinal of the root node (normally 0) */

    /* Edges: every to-node is a valid ordinal (edges that pointed
     * elsewhere were dropped, and counted in skipped_edges). */
    size_t edge_count;
    uint8_t *edge_type;
    uint32_t *edge_name;       /* string index, or the element index of an
                                * element or hidden edge */
    uint32_t *edge_to;

    const char **strings;      /* NUL-terminated, in arena */
    size_t string_count;

    struct stoke_js_location *locations;
    size_t location_count;

    uint64_t skipped_edges;    /* edges to no node, dropped */
    int truncated;             /* the file ended early; nodes are complete */

    struct stoke_arena arena;  /* strings and type names */
};

void stoke_js_heap_free(struct stoke_js_heap *h);

/* The index of the node (edge) type called name in h, or -1 when the
 * snapshot names no such type. */
int stoke_js_heap_node_type(const struct stoke_js_heap *h, const char *name);
int stoke_js_heap_edge_type(const struct stoke_js_heap *h, const char *name);

/* The string at index i, or "" when i is out of range (a name the file
 * does not hold: damaged or truncated). */
const char *stoke_js_heap_string(const struct stoke_js_heap *h, uint32_t i);

#endif

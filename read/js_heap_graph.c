/*
 * js_heap_graph.c - turns what the reader kept of a snapshot into a graph
 * the analysis can trust; see js_heap_graph.h.
 *
 * Owns: the repairs of a damaged snapshot (counts that disagree, edges to
 * no node, a root index that names no node) and their warnings.
 * Never: parses JSON, or leaves an edge whose to-node is out of range.
 */
#include "js_heap_graph.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "warn.h"

static void warn_counts(const struct stoke_js_heap *h, const struct js_heap_raw *raw)
{
    if (raw->leftover_node_values)
        stoke_warn(h->path, "\"nodes\" ends %u values into a node; they are ignored",
                   raw->leftover_node_values);
    if (raw->leftover_edge_values)
        stoke_warn(h->path, "\"edges\" ends %u values into an edge; they are ignored",
                   raw->leftover_edge_values);
    if (raw->claimed_nodes && raw->claimed_nodes != h->node_count)
        stoke_warn(h->path, "snapshot.node_count says %" PRIu64 " nodes, \"nodes\" holds %zu; "
                            "the array is used",
                   raw->claimed_nodes, h->node_count);
    if (h->truncated)
        return; /* the truncation warning says what is missing */
    if (raw->claimed_edges && raw->claimed_edges != h->edge_count)
        stoke_warn(h->path, "snapshot.edge_count says %" PRIu64 " edges, \"edges\" holds %zu; "
                            "the array is used",
                   raw->claimed_edges, h->edge_count);
    if (raw->edge_count_total != h->edge_count)
        stoke_warn(h->path, "the nodes' edge counts add up to %" PRIu64 " edges, \"edges\" "
                            "holds %zu; the edges past either end are left out",
                   raw->edge_count_total, h->edge_count);
}

/* Edge ranges from the claimed counts, none past the edges read. */
static void edge_ranges(struct stoke_js_heap *h, const struct js_heap_raw *raw)
{
    uint64_t at = 0;
    h->first_edge = stoke_xmalloc((h->node_count + 1) * sizeof *h->first_edge);
    for (size_t i = 0; i < h->node_count; i++) {
        h->first_edge[i] = (uint32_t)(at < h->edge_count ? at : h->edge_count);
        at += raw->edge_counts[i];
    }
    h->first_edge[h->node_count] = (uint32_t)(at < h->edge_count ? at : h->edge_count);
}

/* Drops the edges to no node (and those past the last node's range). */
static void drop_dangling_edges(struct stoke_js_heap *h)
{
    uint32_t kept = 0;
    for (size_t i = 0; i < h->node_count; i++) {
        uint32_t begin = h->first_edge[i], end = h->first_edge[i + 1];
        h->first_edge[i] = kept;
        for (uint32_t e = begin; e < end; e++) {
            if (h->edge_to[e] >= h->node_count) {
                h->skipped_edges++;
                continue;
            }
            h->edge_type[kept] = h->edge_type[e];
            h->edge_name[kept] = h->edge_name[e];
            h->edge_to[kept] = h->edge_to[e];
            kept++;
        }
    }
    h->first_edge[h->node_count] = kept;
    h->edge_count = kept;
    if (h->skipped_edges)
        stoke_warn(h->path, "%" PRIu64 " edges point to no node; they are left out",
                   h->skipped_edges);
}

static void index_locations(struct stoke_js_heap *h, const struct js_heap_raw *raw)
{
    uint64_t bad = 0;
    if (!h->location_count)
        return;
    h->node_location = stoke_xmalloc(h->node_count * sizeof *h->node_location);
    memset(h->node_location, 0xff, h->node_count * sizeof *h->node_location);
    for (size_t i = 0; i < h->location_count; i++) {
        if (raw->location_nodes[i] < h->node_count)
            h->node_location[raw->location_nodes[i]] = (uint32_t)i;
        else
            bad++;
    }
    if (bad)
        stoke_warn(h->path, "%" PRIu64 " locations name no node; they are left out", bad);
}

static void find_root(struct stoke_js_heap *h, const struct js_heap_raw *raw)
{
    h->root = 0;
    if (!raw->root_index_given)
        return;
    if (raw->root_index % raw->node_fields == 0 &&
        raw->root_index / raw->node_fields < h->node_count) {
        h->root = (uint32_t)(raw->root_index / raw->node_fields);
        return;
    }
    stoke_warn(h->path, "snapshot.root_index %" PRIu64 " names no node; the first node is "
                        "the root",
               raw->root_index);
}

/* Gives back what the arrays grew past their final size. */
static void *fit(void *array, size_t n, size_t elem_size)
{
    return array ? stoke_xrealloc(array, (n ? n : 1) * elem_size) : NULL;
}

static void fit_arrays(struct stoke_js_heap *h)
{
    size_t n = h->node_count, e = h->edge_count;
    h->node_type = fit(h->node_type, n, 1);
    h->node_name = fit(h->node_name, n, sizeof *h->node_name);
    h->node_id = fit(h->node_id, n, sizeof *h->node_id);
    h->node_self_size = fit(h->node_self_size, n, sizeof *h->node_self_size);
    h->node_detachedness = fit(h->node_detachedness, n, 1);
    h->edge_type = fit(h->edge_type, e, 1);
    h->edge_name = fit(h->edge_name, e, sizeof *h->edge_name);
    h->edge_to = fit(h->edge_to, e, sizeof *h->edge_to);
    h->strings = fit(h->strings, h->string_count, sizeof *h->strings);
    h->locations = fit(h->locations, h->location_count, sizeof *h->locations);
}

int js_heap_finish(struct stoke_js_heap *h, struct js_heap_raw *raw, char *err, size_t errlen)
{
    if (!h->node_count) {
        snprintf(err, errlen, "%s: holds no nodes; nothing to report", h->path);
        return -1;
    }
    warn_counts(h, raw);
    edge_ranges(h, raw);
    drop_dangling_edges(h);
    index_locations(h, raw);
    find_root(h, raw);
    fit_arrays(h);
    return 0;
}

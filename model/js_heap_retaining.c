/*
 * js_heap_retaining.c - which edges retain; see js_heap_retaining.h.
 *
 * Owns: the objects the root's shortcut edges reach (the page's objects,
 * in DevTools' words; a node's global object), and the names V8 gives a
 * WeakMap's edges: "<n> / part of key (<key> @<id>) -> value (<value>
 * @<id>) pair in WeakMap (table @<table id>)".
 * Never: recurses, or reads an edge name that is an element index as a
 * string.
 */
#include "js_heap_retaining.h"

#include <stdlib.h>
#include <string.h>
#include "alloc.h"

struct edge_types {
    int weak, shortcut, element, internal;
};

/* --- the objects the root's global objects reach ---------------------------- */

static int is_dom_trees_root(const struct stoke_js_heap *h, uint32_t node)
{
    return h->node_type[node] == stoke_js_heap_node_type(h, "synthetic") &&
           strcmp(stoke_js_heap_string(h, h->node_name[node]), "(Document DOM trees)") == 0;
}

static int is_entry(const struct stoke_js_heap *h, const struct edge_types *t, uint32_t e)
{
    return h->edge_type[e] == t->shortcut ||
           (h->edge_type[e] == t->element && is_dom_trees_root(h, h->edge_to[e]));
}

static uint8_t *page_objects(const struct stoke_js_heap *h, const struct edge_types *t)
{
    uint8_t *page = stoke_xcalloc(h->node_count, 1);
    uint32_t *stack = stoke_xmalloc(h->node_count * sizeof *stack); /* a node enters once */
    size_t n = 0;
    for (uint32_t e = h->first_edge[h->root]; e < h->first_edge[h->root + 1]; e++) {
        if (is_entry(h, t, e) && !page[h->edge_to[e]]) {
            page[h->edge_to[e]] = 1;
            stack[n++] = h->edge_to[e];
        }
    }
    while (n) {
        uint32_t node = stack[--n];
        for (uint32_t e = h->first_edge[node]; e < h->first_edge[node + 1]; e++) {
            if (h->edge_type[e] == t->weak || page[h->edge_to[e]])
                continue;
            page[h->edge_to[e]] = 1;
            stack[n++] = h->edge_to[e];
        }
    }
    free(stack);
    return page;
}

/* --- WeakMap edges ------------------------------------------------------------ */

static const char *skip_digits(const char *s)
{
    while (*s >= '0' && *s <= '9')
        s++;
    return s;
}

/* Whether s[0..len) ends with " @" and at least one digit. */
static int ends_with_at_id(const char *s, size_t len)
{
    size_t i = len;
    while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
        i--;
    return i < len && i >= 2 && s[i - 1] == '@' && s[i - 2] == ' ';
}

/* Whether middle[0..len) is "<key> @<id>) -> value (<value> @<id>)". */
static int key_and_value(const char *middle, size_t len)
{
    static const char arrow[] = ") -> value (";
    const size_t arrow_len = sizeof arrow - 1;
    if (len == 0 || middle[len - 1] != ')' || !ends_with_at_id(middle, len - 1))
        return 0;
    for (size_t i = 0; i + arrow_len <= len; i++)
        if (memcmp(middle + i, arrow, arrow_len) == 0 && ends_with_at_id(middle, i))
            return 1;
    return 0;
}

/* The table id a WeakMap edge's name ends with, or -1 for another name. */
static int64_t weakmap_table(const char *name)
{
    static const char head[] = " / part of key (", tail[] = " pair in WeakMap (table @";
    const char *p = skip_digits(name);
    if (p == name || strncmp(p, head, sizeof head - 1) != 0)
        return -1;
    const char *middle = p + sizeof head - 1;
    size_t len = strlen(middle);
    if (len < 2 || middle[len - 1] != ')')
        return -1;
    size_t digits_end = len - 1, digits = digits_end;
    while (digits > 0 && middle[digits - 1] >= '0' && middle[digits - 1] <= '9')
        digits--;
    size_t tail_len = sizeof tail - 1;
    if (digits == digits_end || digits_end - digits > 10 || digits < tail_len ||
        memcmp(middle + digits - tail_len, tail, tail_len) != 0 ||
        !key_and_value(middle, digits - tail_len))
        return -1;
    return strtoll(middle + digits, NULL, 10);
}

/* --- the rule ------------------------------------------------------------------ */

static int retains(const struct stoke_js_heap *h, const struct edge_types *t,
                   const uint8_t *page, uint32_t node, uint32_t e)
{
    int type = h->edge_type[e];
    uint32_t to = h->edge_to[e];
    if (type == t->internal &&
        weakmap_table(stoke_js_heap_string(h, h->edge_name[e])) == (int64_t)h->node_id[node])
        return 0;
    if (type == t->weak || to == node)
        return 0;
    if (node == h->root)
        return 1;
    return type != t->shortcut && !(page[to] && !page[node]);
}

uint8_t *js_heap_retaining_edges(const struct stoke_js_heap *h)
{
    struct edge_types t = {stoke_js_heap_edge_type(h, "weak"),
                           stoke_js_heap_edge_type(h, "shortcut"),
                           stoke_js_heap_edge_type(h, "element"),
                           stoke_js_heap_edge_type(h, "internal")};
    uint8_t *page = page_objects(h, &t);
    uint8_t *keep = stoke_xmalloc(h->edge_count ? h->edge_count : 1);
    for (uint32_t node = 0; node < h->node_count; node++)
        for (uint32_t e = h->first_edge[node]; e < h->first_edge[node + 1]; e++)
            keep[e] = (uint8_t)retains(h, &t, page, node, e);
    free(page);
    return keep;
}

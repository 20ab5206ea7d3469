/*
 * test_js_heap.c - unit tests of stoke's reading and analysis of V8 heap
 * snapshots, on small snapshots written by snapshot_builder.h whose
 * dominator trees, retained sizes and DevTools groups are worked out by
 * hand in the comments: a diamond, a cycle, unreachable and weakly held
 * objects, DevTools' rules (user globals, WeakMap tables, owned arrays,
 * constructor positions, detached native objects, HTML tags, plain
 * objects named by their properties), a chain of a million objects, the
 * profile rows, the comparison of two snapshots, and the reader's handling
 * of a field order of its own and of damaged files.
 *
 * Never: needs node (the .mjs tests beside it check real snapshots).
 */
#define _GNU_SOURCE /* open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "folded_text.h"
#include "js_heap_analysis.h"
#include "js_heap_diff.h"
#include "js_heap_load.h"
#include "js_heap_profile.h"
#include "js_heap_read.h"
#include "js_heap_summary.h"
#include "profile_diff.h"
#include "scratch.h"
#include "snapshot_builder.h"

#define COUNT(a) (sizeof(a) / sizeof *(a))
#define SNAPSHOT(n, e) {.nodes = n, .nnodes = COUNT(n), .edges = e, .nedges = COUNT(e)}

/* --- helpers ---------------------------------------------------------------- */

static struct stoke_js_heap *read_snapshot(const struct tsnapshot *s, const char *name)
{
    char path[256], err[512];
    scratch_path(path, sizeof path, name);
    write_snapshot(path, s);
    struct stoke_js_heap *h = stoke_js_heap_read(path, err, sizeof err);
    if (!h) {
        fprintf(stderr, "%s\n", err);
        exit(1);
    }
    return h;
}

static const struct stoke_js_class *class_at(const struct stoke_js_heap_analysis *a,
                                             const char *name, uint32_t line)
{
    for (size_t i = 0; i < a->nclasses; i++)
        if (strcmp(a->classes[i].name, name) == 0 && (!line || a->classes[i].where.line == line))
            return &a->classes[i];
    fprintf(stderr, "no class %s\n", name);
    check_failures++;
    static const struct stoke_js_class none = {.name = ""};
    return &none;
}

static const struct stoke_js_class *class_named(const struct stoke_js_heap_analysis *a,
                                                const char *name)
{
    return class_at(a, name, 0);
}

static void check_class(const struct stoke_js_heap_analysis *a, const char *name, uint64_t count,
                        uint64_t shallow, uint64_t retained)
{
    const struct stoke_js_class *c = class_named(a, name);
    if (c->count != count || c->shallow_bytes != shallow || c->retained_bytes != retained) {
        fprintf(stderr, "class %s: %llu objects, %llu shallow, %llu retained; want %llu, %llu, %llu\n",
                name, (unsigned long long)c->count, (unsigned long long)c->shallow_bytes,
                (unsigned long long)c->retained_bytes, (unsigned long long)count,
                (unsigned long long)shallow, (unsigned long long)retained);
        check_failures++;
    }
}

static int has_class(const struct stoke_js_heap_analysis *a, const char *name)
{
    for (size_t i = 0; i < a->nclasses; i++)
        if (strcmp(a->classes[i].name, name) == 0 && a->classes[i].count)
            return 1;
    return 0;
}

/* --- a diamond ------------------------------------------------------------------- */

/* root -> (GC roots) -> A; A -> B, A -> C; B -> D, C -> D. D's dominator is
 * A (two paths), so A retains everything: 10 + 20 + 30 + 40. */
static const struct tnode diamond_nodes[] = {
    {"synthetic", "", 0, 0, 0}, {"synthetic", "(GC roots)", 0, 0, 0},
    {"object", "A", 10, 0, 0},  {"object", "B", 20, 0, 0},
    {"object", "C", 30, 0, 0},  {"object", "D", 40, 0, 0},
};
static const struct tedge diamond_edges[] = {
    {0, "element", "1", 1}, {1, "element", "1", 2}, {2, "property", "b", 3},
    {2, "property", "c", 4}, {3, "property", "d", 5}, {4, "property", "d", 5},
};

static void check_diamond(const struct stoke_js_heap_analysis *a)
{
    static const uint32_t dominator[] = {0, 0, 1, 2, 2, 2};
    static const uint64_t retained[] = {100, 100, 100, 20, 30, 40};
    for (uint32_t i = 0; i < COUNT(dominator); i++) {
        CHECK(a->tree.dominator[i] == dominator[i]);
        CHECK(a->tree.retained[i] == retained[i]);
    }
    CHECK(a->total_bytes == 100);
    CHECK(a->objects == 4);
    CHECK(a->tree.unreachable == 0);
    check_class(a, "A", 1, 10, 100);
    check_class(a, "B", 1, 20, 20);
    check_class(a, "C", 1, 30, 30);
    check_class(a, "D", 1, 40, 40);
    CHECK(!has_class(a, "(synthetic)")); /* zero sizes are not counted */
}

static void test_diamond(void)
{
    struct tsnapshot s = SNAPSHOT(diamond_nodes, diamond_edges);
    struct stoke_js_heap *h = read_snapshot(&s, "diamond.heapsnapshot");
    CHECK(h->node_count == 6 && h->edge_count == 6 && h->root == 0);
    struct stoke_js_heap_analysis *a = stoke_js_heap_analyze(h, NULL);
    check_diamond(a);

    uint32_t *order;
    size_t n = stoke_js_heap_by_constructor(a, &order);
    CHECK(n == 4);
    CHECK_STR(a->classes[order[0]].name, "A");
    CHECK_STR(a->classes[order[1]].name, "D");
    CHECK_STR(a->classes[order[3]].name, "B");
    free(order);

    struct stoke_profile *p = stoke_profile_new();
    stoke_js_heap_add_to_profile(p, a);
    CHECK(p->kind == STOKE_PROFILE_JS_HEAP && p->nvalues == 2);
    CHECK_STR(p->value_names[0], "js_shallow");
    CHECK_STR(p->value_units[1], "count");
    char *text = folded_text(p, STOKE_JS_HEAP_SHALLOW_BYTES, 0);
    CHECK_STR(text, "JS heap;(GC roots);A 10\n"
                    "JS heap;(GC roots);A;B 20\n"
                    "JS heap;(GC roots);A;C 30\n"
                    "JS heap;(GC roots);A;D 40\n");
    free(text);
    CHECK(stoke_profile_total(p, STOKE_JS_HEAP_OBJECTS) == 4);
    CHECK(p->nprocs == 1 && p->procs[0].heap.live_bytes == 100 &&
          p->procs[0].heap.live_objects == 4);
    stoke_profile_free(p);
    stoke_js_heap_analysis_free(a);
    stoke_js_heap_free(h);

    /* The same graph with the node fields in another order, and no
     * trace_node_id or detachedness: read from meta, the same tree. */
    s.shuffled_fields = 1;
    h = read_snapshot(&s, "shuffled.heapsnapshot");
    CHECK(h->node_detachedness == NULL);
    a = stoke_js_heap_analyze(h, NULL);
    check_diamond(a);
    stoke_js_heap_analysis_free(a);
    stoke_js_heap_free(h);
}

/* --- reachability: a cycle, unreachable objects, weak and shortcut edges ----------- */

/* (GC roots) -> A -> B -> C -> A (a cycle: A dominates B, B dominates C);
 * A -shortcut-> S and C -> S: a shortcut retains only from the root, so S's
 * dominator is C. U: nothing holds it. X <-> Y: a ring nothing else holds.
 * W: held by a weak edge only. U, X, Y and W hang from the root. */
static const struct tnode reach_nodes[] = {
    {"synthetic", "", 0, 0, 0}, {"synthetic", "(GC roots)", 0, 0, 0},
    {"object", "A", 1, 0, 0},   {"object", "B", 2, 0, 0},
    {"object", "C", 4, 0, 0},   {"object", "U", 8, 0, 0},
    {"object", "X", 16, 0, 0},  {"object", "Y", 32, 0, 0},
    {"object", "W", 64, 0, 0},  {"object", "S", 128, 0, 0},
};
static const struct tedge reach_edges[] = {
    {0, "element", "1", 1},  {1, "element", "1", 2},   {2, "property", "b", 3},
    {3, "property", "c", 4}, {4, "property", "a", 2},  {6, "property", "y", 7},
    {7, "property", "x", 6}, {2, "weak", "w", 8},      {2, "shortcut", "s", 9},
    {4, "property", "s", 9},
};

static void test_reachability(void)
{
    struct tsnapshot s = SNAPSHOT(reach_nodes, reach_edges);
    struct stoke_js_heap *h = read_snapshot(&s, "reach.heapsnapshot");
    struct stoke_js_heap_analysis *a = stoke_js_heap_analyze(h, NULL);
    static const uint32_t dominator[] = {0, 0, 1, 2, 3, 0, 0, 0, 0, 4};
    for (uint32_t i = 0; i < COUNT(dominator); i++)
        CHECK(a->tree.dominator[i] == dominator[i]);
    CHECK(a->tree.unreachable == 4); /* U, X, Y, W */
    CHECK(a->total_bytes == 255);
    check_class(a, "A", 1, 1, 135);
    check_class(a, "B", 1, 2, 134);
    check_class(a, "C", 1, 4, 132);
    check_class(a, "S", 1, 128, 128);
    check_class(a, "U", 1, 8, 8);
    check_class(a, "X", 1, 16, 16);
    check_class(a, "Y", 1, 32, 32);
    check_class(a, "W", 1, 64, 64);
    stoke_js_heap_analysis_free(a);
    stoke_js_heap_free(h);
}

/* --- DevTools' rules -------------------------------------------------------------- */

/* The root's shortcut to "global" marks it a user root: the objects global
 * reaches are the program's, and an edge into them from outside (GC roots
 * -> Stray) does not retain (Stray's dominator is global, not the root).
 * Owned arrays and hidden objects count in their owner: Array 16 + its
 * elements 50; global 100 + its map 24; the array both Array and an Item
 * hold stays "(array)". Two constructors called Item (positions 7:2:4 and
 * 7:9:0) are two groups; an Item under an Item of its group counts once.
 * A WeakMap's own edge to a value does not retain it (the key's does). A
 * detached native object is "Detached ...", and so is what it alone holds;
 * an HTML element goes by its tag. */
static const struct tnode rule_nodes[] = {
    {"synthetic", "", 0, 0, 0},                         /* 0 */
    {"synthetic", "(GC roots)", 0, 0, 0},               /* 1 */
    {"object", "global", 100, 0, 0},                    /* 2 */
    {"object", "Item", 10, 0, 0},                       /* 3: at 7:2:4 */
    {"object", "Item", 20, 0, 0},                       /* 4: at 7:9:0 */
    {"object", "Item", 30, 0, 0},                       /* 5: at 7:2:4 */
    {"object", "Array", 16, 0, 0},                      /* 6 */
    {"array", "(object elements)", 50, 0, 0},           /* 7 */
    {"array", "(shared)", 40, 0, 0},                    /* 8 */
    {"hidden", "system / Map", 24, 0, 0},               /* 9 */
    {"object", "WeakMap", 8, 1000, 0},                  /* 10 */
    {"object", "Key", 8, 23, 0},                        /* 11 */
    {"object", "Value", 8, 25, 0},                      /* 12 */
    {"object", "Stray", 8, 0, 0},                       /* 13 */
    {"native", "<div id=\"x\" class=\"y\">", 12, 0, 0}, /* 14 */
    {"native", "Node / Foo", 6, 0, 2},                  /* 15: detached */
    {"native", "Node / Bar", 3, 0, 0},                  /* 16 */
    {"native", "Node / Baz", 5, 0, 1},                  /* 17: attached */
    {"native", "Node / Qux", 7, 0, 0},                  /* 18 */
};
static const struct tedge rule_edges[] = {
    {0, "shortcut", "global", 2}, {0, "element", "1", 1},  {1, "element", "1", 13},
    {2, "property", "i", 3},      {2, "property", "j", 4}, {2, "property", "a", 6},
    {2, "internal", "map", 9},    {2, "property", "wm", 10}, {2, "property", "k", 11},
    {2, "property", "s", 13},     {2, "property", "d", 14}, {2, "property", "f", 15},
    {2, "property", "z", 17},     {3, "property", "next", 5}, {6, "internal", "elements", 7},
    {6, "internal", "x", 8},      {5, "property", "arr", 8},
    {10, "internal", "1 / part of key (Key @23) -> value (Value @25) pair in WeakMap (table @1000)", 12},
    {11, "internal", "2 / part of key (Key @23) -> value (Value @25) pair in WeakMap (table @1000)", 12},
    {15, "property", "bar", 16},  {17, "property", "qux", 18}, {15, "property", "qux", 18},
};
static const struct tlocation rule_locations[] = {{3, 7, 2, 4}, {4, 7, 9, 0}, {5, 7, 2, 4}};

static void test_devtools_rules(void)
{
    struct tsnapshot s = SNAPSHOT(rule_nodes, rule_edges);
    s.locations = rule_locations;
    s.nlocations = COUNT(rule_locations);
    struct stoke_js_heap *h = read_snapshot(&s, "rules.heapsnapshot");
    struct stoke_js_heap_analysis *a = stoke_js_heap_analyze(h, NULL);
    CHECK(a->tree.dominator[13] == 2); /* Stray: by global, not from (GC roots) */
    CHECK(a->tree.dominator[12] == 11); /* Value: by its key, not by the table */
    CHECK(a->tree.dominator[8] == 2);
    CHECK(a->shallow[7] == 0 && a->shallow[9] == 0);
    CHECK(a->total_bytes == 355);
    CHECK(a->objects == 15);
    check_class(a, "global", 1, 124, 355);
    const struct stoke_js_class *item = class_at(a, "Item", 2);
    CHECK(item->located && item->where.script_id == 7 && item->where.column == 4);
    CHECK(item->count == 2 && item->shallow_bytes == 40 && item->retained_bytes == 40);
    item = class_at(a, "Item", 9);
    CHECK(item->count == 1 && item->shallow_bytes == 20 && item->retained_bytes == 20);
    check_class(a, "Array", 1, 66, 66);
    check_class(a, "(array)", 1, 40, 40);
    CHECK(!has_class(a, "(system)"));
    check_class(a, "Key", 1, 8, 16);
    check_class(a, "Value", 1, 8, 8);
    check_class(a, "Stray", 1, 8, 8);
    check_class(a, "<div>", 1, 12, 12);
    check_class(a, "Detached Node / Foo", 1, 6, 9);
    check_class(a, "Detached Node / Bar", 1, 3, 3);
    check_class(a, "Node / Baz", 1, 5, 5);
    check_class(a, "Node / Qux", 1, 7, 7);

    struct stoke_profile *p = stoke_profile_new();
    stoke_js_heap_add_to_profile(p, a);
    char *text = folded_text(p, STOKE_JS_HEAP_SHALLOW_BYTES, 0);
    /* Item -> Item is one frame; folded text sums the two Items' frames */
    CHECK(strstr(text, "JS heap;global;Item 60\n"));
    CHECK(strstr(text, "JS heap;global;Key;Value 8\n"));
    free(text);
    int located = 0;
    for (size_t i = 0; i < p->nframes; i++)
        located += strcmp(p->frames[i].name, "Item") == 0 &&
                   strcmp(p->frames[i].file, "script 7") == 0 && p->frames[i].line == 3 &&
                   p->frames[i].column == 5 && p->frames[i].kind == STOKE_KIND_JS_HEAP;
    CHECK(located == 1);
    stoke_profile_free(p);
    stoke_js_heap_analysis_free(a);
    stoke_js_heap_free(h);
}

/* --- plain objects named by their properties --------------------------------------- */

/* Property lists in edge order: {a, b} twice, {b, a} once, {a, b, c} twice,
 * {c} once, {"x,y", q} twice: those starting two objects become
 * interfaces ({a, b}, {a, b, c}, {"x,y", q}); {b, a} matches {a, b}; {c}
 * matches none and stays Object. */
static const struct tnode plain_nodes[] = {
    {"synthetic", "", 0, 0, 0}, {"synthetic", "(GC roots)", 0, 0, 0},
    {"object", "Object", 8, 0, 0}, {"object", "Object", 8, 0, 0}, {"object", "Object", 8, 0, 0},
    {"object", "Object", 8, 0, 0}, {"object", "Object", 8, 0, 0}, {"object", "Object", 8, 0, 0},
    {"object", "Object", 8, 0, 0}, {"object", "Object", 8, 0, 0}, {"object", "Proto", 8, 0, 0},
};
static const struct tedge plain_edges[] = {
    {0, "element", "1", 1},   {1, "element", "1", 2},   {1, "element", "2", 3},
    {1, "element", "3", 4},   {1, "element", "4", 5},   {1, "element", "5", 6},
    {1, "element", "6", 7},   {1, "element", "7", 8},   {1, "element", "8", 9},
    {2, "property", "__proto__", 10}, {2, "property", "a", 10}, {2, "property", "b", 10},
    {3, "property", "a", 10}, {3, "property", "b", 10}, {4, "property", "b", 10},
    {4, "property", "a", 10}, {5, "property", "a", 10}, {5, "property", "b", 10},
    {5, "property", "c", 10}, {6, "property", "a", 10}, {6, "property", "b", 10},
    {6, "property", "c", 10}, {7, "property", "c", 10}, {8, "property", "x,y", 10},
    {8, "property", "q", 10}, {9, "property", "x,y", 10}, {9, "property", "q", 10},
};

/* Objects whose property names are 30 characters: the fourth would make
 * the name longer than 120 characters. */
static const struct tnode long_nodes[] = {
    {"synthetic", "", 0, 0, 0}, {"object", "Object", 8, 0, 0}, {"object", "Object", 8, 0, 0},
};
static const struct tedge long_edges[] = {
    {0, "element", "1", 1},
    {0, "element", "2", 2},
    {1, "property", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaa1", 0},
    {1, "property", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaa2", 0},
    {1, "property", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaa3", 0},
    {1, "property", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaa4", 0},
    {2, "property", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaa1", 0},
    {2, "property", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaa2", 0},
    {2, "property", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaa3", 0},
    {2, "property", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaa4", 0},
};

static void test_plain_objects(void)
{
    struct tsnapshot s = SNAPSHOT(plain_nodes, plain_edges);
    struct stoke_js_heap *h = read_snapshot(&s, "plain.heapsnapshot");
    struct stoke_js_interfaces *ifs = stoke_js_interfaces_infer(h);
    CHECK(stoke_js_interfaces_count(ifs) == 3);
    CHECK_STR(stoke_js_interfaces_name(ifs, 0), "{a, b}");
    CHECK_STR(stoke_js_interfaces_name(ifs, 1), "{a, b, c}");
    CHECK_STR(stoke_js_interfaces_name(ifs, 2), "{\"x,y\", q}");
    struct stoke_js_heap_analysis *a = stoke_js_heap_analyze(h, ifs);
    check_class(a, "{a, b}", 3, 24, 24);
    check_class(a, "{a, b, c}", 2, 16, 16);
    check_class(a, "{\"x,y\", q}", 2, 16, 16);
    check_class(a, "Object", 1, 8, 8);
    stoke_js_heap_analysis_free(a);

    /* Another snapshot's objects, named after these interfaces (as a
     * comparison does): {a, b, c, q} has all of {a, b, c}. */
    static const struct tnode other_nodes[] = {
        {"synthetic", "", 0, 0, 0}, {"object", "Object", 8, 0, 0}, {"object", "Object", 8, 0, 0}};
    static const struct tedge other_edges[] = {
        {0, "element", "1", 1},  {0, "element", "2", 2},  {1, "property", "q", 0},
        {1, "property", "c", 0}, {1, "property", "b", 0}, {1, "property", "a", 0},
        {2, "property", "z", 0},
    };
    struct tsnapshot o = SNAPSHOT(other_nodes, other_edges);
    struct stoke_js_heap *other = read_snapshot(&o, "other.heapsnapshot");
    a = stoke_js_heap_analyze(other, ifs);
    check_class(a, "{a, b, c}", 1, 8, 8);
    check_class(a, "Object", 1, 8, 8);
    stoke_js_heap_analysis_free(a);
    stoke_js_heap_free(other);
    stoke_js_interfaces_free(ifs);
    stoke_js_heap_free(h);

    struct tsnapshot l = SNAPSHOT(long_nodes, long_edges);
    h = read_snapshot(&l, "long.heapsnapshot");
    ifs = stoke_js_interfaces_infer(h);
    CHECK(stoke_js_interfaces_count(ifs) == 1);
    CHECK_STR(stoke_js_interfaces_name(ifs, 0),
              "{aaaaaaaaaaaaaaaaaaaaaaaaaaaaa1, aaaaaaaaaaaaaaaaaaaaaaaaaaaaa2, "
              "aaaaaaaaaaaaaaaaaaaaaaaaaaaaa3}");
    stoke_js_interfaces_free(ifs);
    stoke_js_heap_free(h);
}

/* --- a chain of a million objects ------------------------------------------------------ */

#define CHAIN 1000000

/* root -> (GC roots) -> Item -> Item -> ... (CHAIN Items of 8 bytes). */
static void write_chain(const char *path)
{
    FILE *f = fopen(path, "w");
    fputs("{\"snapshot\":{\"meta\":{\"node_fields\":[\"type\",\"name\",\"id\",\"self_size\","
          "\"edge_count\"],\"node_types\":[[\"hidden\",\"object\",\"synthetic\"],\"string\","
          "\"number\",\"number\",\"number\"],\"edge_fields\":[\"type\",\"name_or_index\","
          "\"to_node\"],\"edge_types\":[[\"element\",\"property\",\"weak\"],\"string_or_number\","
          "\"node\"]},\"node_count\":1,\"edge_count\":0},\n\"nodes\":[2,0,1,0,1,2,1,3,0,1",
          f);
    for (int i = 0; i < CHAIN; i++)
        fprintf(f, ",1,2,%d,8,%d", 2 * i + 5, i + 1 < CHAIN);
    fputs("],\n\"edges\":[0,1,5,0,1,10", f);
    for (int i = 0; i + 1 < CHAIN; i++)
        fprintf(f, ",1,3,%d", (i + 3) * 5);
    fputs("],\n\"strings\":[\"\",\"(GC roots)\",\"Item\",\"next\"]}\n", f);
    fclose(f);
}

static void test_long_chain(void)
{
    char path[256], err[512];
    scratch_path(path, sizeof path, "chain.heapsnapshot");
    write_chain(path);
    stderr_begin(); /* node_count in meta is wrong on purpose */
    struct stoke_js_heap *h = stoke_js_heap_read(path, err, sizeof err);
    char *warnings = stderr_end();
    CHECK(strstr(warnings, "snapshot.node_count says 1 nodes"));
    free(warnings);
    if (!h) {
        fprintf(stderr, "%s\n", err);
        check_failures++;
        return;
    }
    CHECK(h->node_count == CHAIN + 2 && h->edge_count == CHAIN + 1);
    struct stoke_js_heap_analysis *a = stoke_js_heap_analyze(h, NULL);
    CHECK(a->tree.dominator[CHAIN + 1] == CHAIN);
    CHECK(a->tree.retained[2] == 8ull * CHAIN);
    check_class(a, "Item", CHAIN, 8ull * CHAIN, 8ull * CHAIN); /* counted once, at the head */
    struct stoke_profile *p = stoke_profile_new();
    stoke_js_heap_add_to_profile(p, a);
    char *text = folded_text(p, STOKE_JS_HEAP_SHALLOW_BYTES, 0);
    CHECK_STR(text, "JS heap;(GC roots);Item 8000000\n");
    free(text);
    stoke_profile_free(p);
    stoke_js_heap_analysis_free(a);
    stoke_js_heap_free(h);
}

/* --- the depth of profile stacks --------------------------------------------------------- */

/* A chain of 100 objects alternating P and Q: stacks stop at
 * STOKE_JS_HEAP_MAX_DEPTH frames, "[deeper]" standing for the rest. */
static void test_deep_stacks(void)
{
    static struct tnode nodes[102];
    static struct tedge edges[101];
    nodes[0] = (struct tnode){"synthetic", "", 0, 0, 0};
    nodes[1] = (struct tnode){"synthetic", "(GC roots)", 0, 0, 0};
    edges[0] = (struct tedge){0, "element", "1", 1};
    for (uint32_t i = 2; i < 102; i++) {
        nodes[i] = (struct tnode){"object", i % 2 ? "Q" : "P", 1, 0, 0};
        edges[i - 1] = (struct tedge){i - 1, "property", "next", i};
    }
    struct tsnapshot s = SNAPSHOT(nodes, edges);
    struct stoke_js_heap *h = read_snapshot(&s, "deep.heapsnapshot");
    struct stoke_js_heap_analysis *a = stoke_js_heap_analyze(h, NULL);
    struct stoke_profile *p = stoke_profile_new();
    stoke_js_heap_add_to_profile(p, a);
    uint32_t deepest = 0, deeper_stacks = 0;
    for (size_t i = 0; i < p->nstacks; i++) {
        uint32_t len = p->stack_len[i];
        deepest = len > deepest ? len : deepest;
        for (uint32_t j = 0; j < len; j++)
            deeper_stacks += strcmp(p->frames[p->stack_frames[p->stack_start[i] + j]].name,
                                    STOKE_JS_HEAP_DEEPER) == 0;
    }
    CHECK(deepest == STOKE_JS_HEAP_MAX_DEPTH);
    CHECK(deeper_stacks == 2); /* [deeper];P and [deeper];Q: all below hang there */
    CHECK(stoke_profile_total(p, STOKE_JS_HEAP_SHALLOW_BYTES) == 100);
    stoke_profile_free(p);
    stoke_js_heap_analysis_free(a);
    stoke_js_heap_free(h);
}

/* --- comparing two snapshots -------------------------------------------------------------- */

/* Before: Items 101 and 103, Gone 105. After: Items 103, 107, 109 and New
 * 111. Item: 2 -> 3 objects, 2 new (107, 109), 1 deleted (101). */
static const struct tnode before_nodes[] = {
    {"synthetic", "", 0, 0, 0}, {"object", "Item", 8, 101, 0}, {"object", "Item", 8, 103, 0},
    {"object", "Gone", 16, 105, 0},
};
static const struct tedge before_edges[] = {
    {0, "element", "1", 1}, {0, "element", "2", 2}, {0, "element", "3", 3}};
static const struct tnode after_nodes[] = {
    {"synthetic", "", 0, 0, 0},     {"object", "Item", 8, 103, 0}, {"object", "Item", 8, 107, 0},
    {"object", "Item", 8, 109, 0},  {"object", "New", 4, 111, 0},
};
static const struct tedge after_edges[] = {
    {0, "element", "1", 1}, {0, "element", "2", 2}, {0, "element", "3", 3}, {0, "element", "4", 4}};

static void test_diff(void)
{
    char before[256], after[256], err[512];
    struct tsnapshot b = SNAPSHOT(before_nodes, before_edges);
    struct tsnapshot a = SNAPSHOT(after_nodes, after_edges);
    scratch_path(before, sizeof before, "before.heapsnapshot");
    scratch_path(after, sizeof after, "after.heapsnapshot");
    write_snapshot(before, &b);
    write_snapshot(after, &a);
    struct stoke_profile *pb = stoke_profile_new(), *pa = stoke_profile_new();
    struct stoke_js_heap_diff *d;
    CHECK(stoke_js_heap_compare(before, after, pb, pa, &d, err, sizeof err) == 0);
    CHECK(d->nclasses == 3);
    const struct stoke_js_class_change *item = &d->classes[0];
    CHECK_STR(item->name, "Item");
    CHECK(item->count[0] == 2 && item->count[1] == 3);
    CHECK(item->shallow_bytes[0] == 16 && item->shallow_bytes[1] == 24);
    CHECK(item->new_count == 2 && item->new_bytes == 16);
    CHECK(item->deleted_count == 1 && item->deleted_bytes == 8);
    CHECK_STR(d->classes[1].name, "New");
    CHECK(d->classes[1].new_count == 1 && d->classes[1].count[0] == 0);
    CHECK_STR(d->classes[2].name, "Gone");
    CHECK(d->classes[2].deleted_bytes == 16 && d->classes[2].count[1] == 0);

    struct stoke_profile *diff = stoke_profile_diff(pb, pa, STOKE_JS_HEAP_SHALLOW_BYTES, STOKE_DIFF_ABSOLUTE);
    char *text = folded_text(diff, 0, 1);
    CHECK_STR(text, "JS heap;Gone 16 0\nJS heap;Item 16 24\nJS heap;New 0 4\n");
    free(text);
    stoke_profile_free(diff);
    stoke_js_heap_diff_free(d);
    stoke_profile_free(pb);
    stoke_profile_free(pa);

    pb = stoke_profile_new();
    pa = stoke_profile_new();
    CHECK(stoke_js_heap_compare("/nonexistent.heapsnapshot", after, pb, pa, &d, err,
                                sizeof err) == -1);
    CHECK(strstr(err, "/nonexistent.heapsnapshot: cannot open"));
    stoke_profile_free(pb);
    stoke_profile_free(pa);
}

/* Where growth hangs: after adds a new Holder (40) holding a new Str
 * (100), and a new Str (50) under the old Item 103. Holder's new objects
 * hold 140 (its Str counts in Holder, not in Str), Str's hold 50, Item's
 * new ones (107, 109) 16, New's 4: the order of the changes. */
static const struct tnode grown_nodes[] = {
    {"synthetic", "", 0, 0, 0},       {"object", "Item", 8, 103, 0}, {"object", "Item", 8, 107, 0},
    {"object", "Item", 8, 109, 0},    {"object", "New", 4, 111, 0},  {"object", "Holder", 40, 113, 0},
    {"object", "Str", 100, 115, 0},   {"object", "Str", 50, 117, 0},
};
static const struct tedge grown_edges[] = {
    {0, "element", "1", 1}, {0, "element", "2", 2}, {0, "element", "3", 3},
    {0, "element", "4", 4}, {0, "element", "5", 5}, {5, "property", "s", 6},
    {1, "property", "s", 7}};

static void test_diff_held_by_new(void)
{
    char before[256], after[256], err[512];
    struct tsnapshot b = SNAPSHOT(before_nodes, before_edges);
    struct tsnapshot a = SNAPSHOT(grown_nodes, grown_edges);
    scratch_path(before, sizeof before, "before.heapsnapshot");
    scratch_path(after, sizeof after, "grown.heapsnapshot");
    write_snapshot(before, &b);
    write_snapshot(after, &a);
    struct stoke_profile *pb = stoke_profile_new(), *pa = stoke_profile_new();
    struct stoke_js_heap_diff *d;
    CHECK(stoke_js_heap_compare(before, after, pb, pa, &d, err, sizeof err) == 0);
    static const struct {
        const char *name;
        uint64_t held;
    } expected[] = {{"Holder", 140}, {"Str", 50}, {"Item", 16}, {"New", 4}, {"Gone", 0}};
    CHECK(d->nclasses == 5);
    for (size_t i = 0; i < d->nclasses && i < 5; i++) {
        CHECK_STR(d->classes[i].name, expected[i].name);
        CHECK(d->classes[i].held_by_new == expected[i].held);
    }
    CHECK(d->classes[1].new_count == 2 && d->classes[1].new_bytes == 150);
    stoke_js_heap_diff_free(d);
    stoke_profile_free(pb);
    stoke_profile_free(pa);
}

/* --- damaged files ------------------------------------------------------------------------- */

static char *write_text(const char *name, const char *text, size_t len)
{
    static char path[256];
    scratch_path(path, sizeof path, name);
    FILE *f = fopen(path, "w");
    fwrite(text, 1, len, f);
    fclose(f);
    return path;
}

/* The diamond cut off: after its nodes a partial snapshot with a warning,
 * inside them an error naming the file. */
static void test_truncated(void)
{
    char full[256], err[512];
    struct tsnapshot s = SNAPSHOT(diamond_nodes, diamond_edges);
    scratch_path(full, sizeof full, "whole.heapsnapshot");
    write_snapshot(full, &s);
    FILE *f = fopen(full, "r");
    static char text[65536];
    size_t len = fread(text, 1, sizeof text, f);
    fclose(f);
    size_t edges_at = (size_t)(strstr(text, "\"edges\"") - text);

    char *path = write_text("cut-edges.heapsnapshot", text, edges_at + 20);
    stderr_begin();
    struct stoke_js_heap *h = stoke_js_heap_read(path, err, sizeof err);
    char *warnings = stderr_end();
    CHECK(h && h->truncated && h->node_count == 6);
    CHECK(strstr(warnings, "cut-edges.heapsnapshot: snapshot is truncated at byte"));
    free(warnings);
    stoke_js_heap_free(h);

    path = write_text("cut-nodes.heapsnapshot", text, edges_at - 30);
    CHECK(stoke_js_heap_read(path, err, sizeof err) == NULL);
    CHECK(strstr(err, "cut-nodes.heapsnapshot: snapshot is truncated at byte"));
    CHECK(strstr(err, "before the end of its nodes"));

    CHECK(stoke_is_js_heap_file(full));
    CHECK(stoke_is_js_heap_file(write_text("spaced.heapsnapshot", " \n{ \"snapshot\":{", 16)));
    CHECK(!stoke_is_js_heap_file(write_text("folded.txt", "main;work 42\n", 13)));
    CHECK(!stoke_is_js_heap_file(scratch_dir));

    path = write_text("empty.heapsnapshot", "", 0);
    CHECK(stoke_js_heap_read(path, err, sizeof err) == NULL);
    CHECK(strstr(err, "empty.heapsnapshot: is empty"));
    (void)len;
}

static void expect_error(const char *name, const char *text, const char *message)
{
    char err[512];
    char *path = write_text(name, text, strlen(text));
    struct stoke_js_heap *h = stoke_js_heap_read(path, err, sizeof err);
    CHECK(h == NULL);
    if (!strstr(err, message) || strncmp(err, path, strlen(path)) != 0) {
        fprintf(stderr, "%s: got \"%s\", want \"%s\"\n", name, err, message);
        check_failures++;
    }
    stoke_js_heap_free(h);
}

#define META_START "{\"snapshot\":{\"meta\":{\"node_fields\":"
#define GOOD_NODE_FIELDS "[\"type\",\"name\",\"id\",\"self_size\",\"edge_count\"]"
#define GOOD_META ",\"node_types\":[[\"object\"]],\"edge_fields\":[\"type\",\"name_or_index\"," \
                  "\"to_node\"],\"edge_types\":[[\"property\"]]}"
#define GOOD_TYPES GOOD_META "},"

static void test_bad_files(void)
{
    expect_error("text.heapsnapshot", "hello", "not a V8 heap snapshot: JSON");
    expect_error("array.heapsnapshot", "[1,2]", "is not a JSON object");
    expect_error("nometa.heapsnapshot", "{\"nodes\":[]}", "comes before snapshot.meta");
    expect_error("nofield.heapsnapshot",
                 META_START "[\"type\",\"name\",\"id\",\"edge_count\"]" GOOD_TYPES "\"nodes\":[]}",
                 "lists no \"self_size\" field of nodes");
    expect_error("string.heapsnapshot",
                 META_START GOOD_NODE_FIELDS GOOD_TYPES "\"nodes\":[0,\"x\",1,2,0]}",
                 "nodes[1] is a string, not an integer");
    expect_error("negative.heapsnapshot",
                 META_START GOOD_NODE_FIELDS GOOD_TYPES "\"nodes\":[0,0,1,-2,0]}",
                 "nodes[3] is negative");
    expect_error("fraction.heapsnapshot",
                 META_START GOOD_NODE_FIELDS GOOD_TYPES "\"nodes\":[0,0,1,2.5,0]}",
                 "nodes[3] is a fraction");
    expect_error("nonodes.heapsnapshot", META_START GOOD_NODE_FIELDS GOOD_TYPES "\"edges\":[]}",
                 "has no \"nodes\" array");
    expect_error("zero.heapsnapshot", META_START GOOD_NODE_FIELDS GOOD_TYPES "\"nodes\":[]}",
                 "holds no nodes");
    expect_error("huge.heapsnapshot",
                 META_START GOOD_NODE_FIELDS GOOD_TYPES "\"nodes\":[0,0,1,0,4294967295]}",
                 "claim more than 4 billion edges");
    expect_error("metatype.heapsnapshot", "{\"snapshot\":{\"meta\":[]}}",
                 "\"snapshot.meta\" is an array, not an object");
}

/* Counts that disagree and edges to no node: repaired, each warned about. */
static void test_repairs(void)
{
    char err[512];
    const char *text =
        META_START GOOD_NODE_FIELDS GOOD_META ",\"node_count\":99999999999},\"nodes\":[0,0,1,0,3, 0,0,3,8,0, 0,0,5],"
        "\"edges\":[0,0,5, 0,0,7, 0,0,5000],\"strings\":[\"x\"]}";
    char *path = write_text("repairs.heapsnapshot", text, strlen(text));
    stderr_begin();
    struct stoke_js_heap *h = stoke_js_heap_read(path, err, sizeof err);
    char *warnings = stderr_end();
    CHECK(h && h->node_count == 2 && h->edge_count == 1 && h->skipped_edges == 2);
    CHECK(strstr(warnings, "\"nodes\" ends 3 values into a node"));
    CHECK(strstr(warnings, "snapshot.node_count says 99999999999 nodes, \"nodes\" holds 2"));
    CHECK(strstr(warnings, "2 edges point to no node"));
    free(warnings);
    if (h) {
        struct stoke_js_heap_analysis *a = stoke_js_heap_analyze(h, NULL);
        CHECK(a->total_bytes == 8);
        stoke_js_heap_analysis_free(a);
    }
    stoke_js_heap_free(h);
}

int main(void)
{
    scratch_init();
    test_diamond();
    test_reachability();
    test_devtools_rules();
    test_plain_objects();
    test_long_chain();
    test_deep_stacks();
    test_diff();
    test_diff_held_by_new();
    test_truncated();
    test_bad_files();
    test_repairs();
    scratch_cleanup();
    return check_report("test_js_heap");
}

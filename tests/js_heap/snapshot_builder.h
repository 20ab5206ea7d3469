/*
 * snapshot_builder.h - writes small V8 heap snapshots (.heapsnapshot JSON)
 * for the JS heap unit tests: a test lists its nodes and edges by name and
 * type, the builder numbers them and writes meta, nodes, edges, locations
 * and strings as V8 does (or with the node fields in another order, to
 * check that stoke reads the order from meta).
 *
 * Never: checks anything (the tests do).
 */
#ifndef STOKE_TEST_SNAPSHOT_BUILDER_H
#define STOKE_TEST_SNAPSHOT_BUILDER_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tnode {
    const char *type; /* "object", "synthetic", "hidden", ... */
    const char *name;
    uint64_t size;
    uint32_t id;      /* 0: 2 * ordinal + 1 */
    int detachedness; /* 0 unknown, 1 attached, 2 detached */
};

struct tedge {
    uint32_t from;
    const char *type; /* "property", "element", "weak", ... */
    const char *name; /* a string, or the index of an element or hidden edge */
    uint32_t to;
};

struct tlocation {
    uint32_t node, script, line, column;
};

struct tsnapshot {
    const struct tnode *nodes;
    size_t nnodes;
    const struct tedge *edges; /* any order: written grouped by node */
    size_t nedges;
    const struct tlocation *locations;
    size_t nlocations;
    int shuffled_fields;       /* node fields in another order than V8's */
};

static const char *const builder_node_types[] = {
    "hidden", "array", "string", "object", "code", "closure", "regexp", "number", "native",
    "synthetic", "concatenated string", "sliced string", "symbol", "bigint", "object shape"};
static const char *const builder_edge_types[] = {"context", "element", "property", "internal",
                                                 "hidden", "shortcut", "weak"};

static int builder_index(const char *const *names, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return (int)i;
    fprintf(stderr, "snapshot_builder: unknown type %s\n", name);
    exit(2);
}

/* The strings table: names in order of first use. */
struct builder_strings {
    const char *s[4096];
    size_t n;
};

static uint32_t builder_string(struct builder_strings *t, const char *s)
{
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->s[i], s) == 0)
            return (uint32_t)i;
    t->s[t->n] = s;
    return (uint32_t)t->n++;
}

static int builder_is_index(const char *edge_type)
{
    return strcmp(edge_type, "element") == 0 || strcmp(edge_type, "hidden") == 0;
}

static void builder_json_string(FILE *f, const char *s)
{
    putc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", *s);
        else
            putc(*s, f);
    }
    putc('"', f);
}

static void builder_meta(FILE *f, const struct tsnapshot *s)
{
    fputs("{\"snapshot\":{\"meta\":{\"node_fields\":", f);
    fputs(s->shuffled_fields ? "[\"name\",\"edge_count\",\"self_size\",\"id\",\"type\"]"
                             : "[\"type\",\"name\",\"id\",\"self_size\",\"edge_count\","
                               "\"trace_node_id\",\"detachedness\"]",
          f);
    fputs(",\"node_types\":[", f);
    if (s->shuffled_fields)
        fputs("\"string\",\"number\",\"number\",\"number\",", f);
    putc('[', f);
    for (size_t i = 0; i < sizeof builder_node_types / sizeof *builder_node_types; i++)
        fprintf(f, "%s\"%s\"", i ? "," : "", builder_node_types[i]);
    fputs(s->shuffled_fields ? "]]" : "],\"string\",\"number\",\"number\",\"number\",\"number\","
                                      "\"number\"]",
          f);
    fputs(",\"edge_fields\":[\"type\",\"name_or_index\",\"to_node\"],\"edge_types\":[[", f);
    for (size_t i = 0; i < sizeof builder_edge_types / sizeof *builder_edge_types; i++)
        fprintf(f, "%s\"%s\"", i ? "," : "", builder_edge_types[i]);
    fputs("],\"string_or_number\",\"node\"],"
          "\"location_fields\":[\"object_index\",\"script_id\",\"line\",\"column\"]},",
          f);
    fprintf(f, "\"node_count\":%zu,\"edge_count\":%zu,\"trace_function_count\":0},\n",
            s->nnodes, s->nedges);
}

static void builder_node(FILE *f, const struct tsnapshot *s, size_t i, size_t nedges,
                         struct builder_strings *strings)
{
    const struct tnode *n = &s->nodes[i];
    int type = builder_index(builder_node_types,
                             sizeof builder_node_types / sizeof *builder_node_types, n->type);
    uint32_t name = builder_string(strings, n->name);
    uint32_t id = n->id ? n->id : (uint32_t)(2 * i + 1);
    if (s->shuffled_fields)
        fprintf(f, "%s%u,%zu,%llu,%u,%d", i ? ",\n" : "", name, nedges,
                (unsigned long long)n->size, id, type);
    else
        fprintf(f, "%s%d,%u,%u,%llu,%zu,0,%d", i ? ",\n" : "", type, name, id,
                (unsigned long long)n->size, nedges, n->detachedness);
}

static unsigned builder_fields(const struct tsnapshot *s)
{
    return s->shuffled_fields ? 5 : 7;
}

/* Writes s to path; exits the test when the file cannot be written. */
static void write_snapshot(const char *path, const struct tsnapshot *s)
{
    static struct builder_strings strings;
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(2);
    }
    strings.n = 0;
    builder_string(&strings, "");
    builder_meta(f, s);
    fputs("\"nodes\":[", f);
    for (size_t i = 0; i < s->nnodes; i++) {
        size_t n = 0;
        for (size_t e = 0; e < s->nedges; e++)
            n += s->edges[e].from == i;
        builder_node(f, s, i, n, &strings);
    }
    fputs("],\n\"edges\":[", f);
    int first = 1;
    for (size_t i = 0; i < s->nnodes; i++) {
        for (size_t e = 0; e < s->nedges; e++) {
            const struct tedge *x = &s->edges[e];
            if (x->from != i)
                continue;
            int type = builder_index(builder_edge_types,
                                     sizeof builder_edge_types / sizeof *builder_edge_types,
                                     x->type);
            unsigned long name = builder_is_index(x->type) ? strtoul(x->name, NULL, 10)
                                                            : builder_string(&strings, x->name);
            fprintf(f, "%s%d,%lu,%llu", first ? "" : ",\n", type, name,
                    (unsigned long long)x->to * builder_fields(s));
            first = 0;
        }
    }
    fputs("],\n\"trace_function_infos\":[],\"trace_tree\":[],\"samples\":[],\"locations\":[", f);
    for (size_t i = 0; i < s->nlocations; i++)
        fprintf(f, "%s%llu,%u,%u,%u", i ? "," : "",
                (unsigned long long)s->locations[i].node * builder_fields(s),
                s->locations[i].script, s->locations[i].line, s->locations[i].column);
    fputs("],\n\"strings\":[", f);
    for (size_t i = 0; i < strings.n; i++) {
        if (i)
            putc(',', f);
        builder_json_string(f, strings.s[i]);
    }
    fputs("]}\n", f);
    if (fclose(f) != 0) {
        perror(path);
        exit(2);
    }
}

#endif

/*
 * js_heap_interfaces.c - DevTools' names for plain objects; see
 * js_heap_interfaces.h.
 *
 * The interfaces are kept as a trie over their sorted property names, with
 * one hash index for all its edges ((node, name) -> child). An object is
 * matched by walking its sorted property names once, carrying every trie
 * node whose path is among the names seen so far; a node is dropped once
 * the names pass its largest child. Names sort by byte (code point);
 * DevTools sorts by UTF-16 unit, which differs only between characters
 * above U+FFFF and U+E000..U+FFFF in one position.
 *
 * Owns: the interface rules (which objects are plain, how a name is spelled
 * and cut, how many interfaces, which one an object takes) and the work
 * budget of matching.
 * Never: keeps a pointer into the snapshot in the interfaces, or spends
 * more than the budget on matching.
 */
#include "js_heap_interfaces.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "arena.h"
#include "hash.h"
#include "index_table.h"
#include "warn.h"

#define MAX_NAME_LENGTH 120  /* UTF-16 units; the first property always fits */
#define MIN_OBJECTS 2        /* an interface names at least this many objects */
#define MIN_SHARE 1000       /* and at least one plain object in this many */
#define WORK_PER_EDGE 64     /* matching budget: steps per edge of the snapshot */
#define BASE_WORK 1000000
#define NO_MATCH (-1)

struct interface {
    const char *name;
    size_t nproperties;
};

/* A trie node: the properties on its path from the root are an
 * interface's, sorted. */
struct trie_node {
    const char *key;       /* the property of the edge into it */
    const char *greatest;  /* the largest key of its children, NULL none */
    uint32_t parent;
    int32_t match;         /* the first interface whose properties end here */
};

struct stoke_js_interfaces {
    struct interface *interfaces;
    size_t ninterfaces;
    struct trie_node *trie; /* trie[0] is the root */
    size_t ntrie, trie_cap;
    struct stoke_index_table edges; /* hash(parent, key) -> child */
    struct stoke_arena arena;
};

/* --- the spelling of a name ---------------------------------------------- */

/* The length of UTF-8 text s in UTF-16 units, as JavaScript counts it. */
static size_t utf16_length(const char *s)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        n += ((*p & 0xc0) != 0x80) + (*p >= 0xf0);
    return n;
}

struct text {
    char *s;
    size_t len, cap;
    size_t units; /* UTF-16 length */
};

static void append(struct text *t, const char *s, size_t len)
{
    t->s = stoke_grow(t->s, &t->cap, t->len + len + 1, 1);
    memcpy(t->s + t->len, s, len);
    t->len += len;
    t->s[t->len] = '\0';
}

static void append_escaped(struct text *t, unsigned char c)
{
    static const char *const short_escapes[32] = {
        ['\b'] = "\\b", ['\f'] = "\\f", ['\n'] = "\\n", ['\r'] = "\\r", ['\t'] = "\\t"};
    char buf[8];
    if (c == '"' || c == '\\') {
        buf[0] = '\\';
        buf[1] = (char)c;
        append(t, buf, 2);
    } else if (c < 0x20 && short_escapes[c]) {
        append(t, short_escapes[c], 2);
    } else if (c < 0x20) {
        snprintf(buf, sizeof buf, "\\u%04x", c);
        append(t, buf, 6);
    } else {
        buf[0] = (char)c;
        append(t, buf, 1);
    }
}

/* A property name as the interface name shows it: quoted as a JSON string
 * when it holds a comma, a quote or a brace. */
static void format_property(struct text *out, const char *name)
{
    out->len = 0;
    if (!strpbrk(name, ",'\"{}")) {
        append(out, name, strlen(name));
    } else {
        append(out, "\"", 1);
        for (const char *c = name; *c; c++)
            append_escaped(out, (unsigned char)*c);
        append(out, "\"", 1);
    }
    out->units = utf16_length(out->s);
}

/* --- the plain objects of a snapshot --------------------------------------- */

struct plain_objects {
    const struct stoke_js_heap *h;
    int object_type, property_edge;
};

static struct plain_objects plain_objects(const struct stoke_js_heap *h)
{
    return (struct plain_objects){h, stoke_js_heap_node_type(h, "object"),
                                  stoke_js_heap_edge_type(h, "property")};
}

static int is_plain(const struct plain_objects *o, uint32_t node)
{
    return o->h->node_type[node] == o->object_type &&
           strcmp(stoke_js_heap_string(o->h, o->h->node_name[node]), "Object") == 0;
}

/* --- candidates: the leading properties of each plain object ---------------- */

struct candidate {
    const char *name;      /* in the inference's arena */
    uint64_t count;
    size_t order;          /* first seen: 0, 1, ... */
    uint32_t properties;   /* first of its names in the pool */
    uint32_t nproperties;
};

struct inference {
    struct plain_objects objects;
    uint64_t nobjects;     /* plain objects */
    struct candidate *candidates;
    size_t ncandidates, candidates_cap;
    struct stoke_index_table by_name;
    const char **pool;     /* property names (the snapshot's strings) */
    size_t npool, pool_cap;
    struct stoke_arena arena;
    struct text name, property;
};

static void pool_push(struct inference *in, const char *s)
{
    in->pool = stoke_grow(in->pool, &in->pool_cap, in->npool + 1, sizeof *in->pool);
    in->pool[in->npool++] = s;
}

/* Spells the interface name of node's leading properties into in->name
 * and pushes them to the pool; returns how many. */
static uint32_t leading_properties(struct inference *in, uint32_t node)
{
    const struct stoke_js_heap *h = in->objects.h;
    uint32_t n = 0;
    in->name.len = 0;
    append(&in->name, "{", 1);
    in->name.units = 1;
    for (uint32_t e = h->first_edge[node]; e < h->first_edge[node + 1]; e++) {
        const char *property = stoke_js_heap_string(h, h->edge_name[e]);
        if (h->edge_type[e] != in->objects.property_edge || strcmp(property, "__proto__") == 0)
            continue;
        format_property(&in->property, property);
        if (in->name.units > 1 && in->name.units + in->property.units > MAX_NAME_LENGTH)
            break;
        if (in->name.units != 1) {
            append(&in->name, ", ", 2);
            in->name.units += 2;
        }
        append(&in->name, in->property.s, in->property.len);
        in->name.units += in->property.units;
        pool_push(in, property);
        n++;
    }
    append(&in->name, "}", 1);
    return n;
}

static void count_candidate(struct inference *in, uint32_t first, uint32_t n)
{
    uint64_t hash = stoke_hash_bytes(in->name.s, in->name.len);
    size_t pos = SIZE_MAX;
    int64_t i;
    while ((i = stoke_index_table_next(&in->by_name, hash, &pos)) >= 0) {
        if (strcmp(in->candidates[i].name, in->name.s) == 0) {
            in->candidates[i].count++;
            in->npool = first; /* its properties are already pooled */
            return;
        }
    }
    in->candidates = stoke_grow(in->candidates, &in->candidates_cap, in->ncandidates + 1,
                                sizeof *in->candidates);
    in->candidates[in->ncandidates] = (struct candidate){
        stoke_arena_strndup(&in->arena, in->name.s, in->name.len), 1, in->ncandidates, first, n};
    stoke_index_table_add(&in->by_name, hash, (uint32_t)in->ncandidates++);
}

/* Whether a candidate names enough objects to be an interface. */
static int common_enough(const struct inference *in, const struct candidate *c)
{
    return c->count >= MIN_OBJECTS && c->count * MIN_SHARE >= in->nobjects;
}

/* Commonest first; among equals, the first seen first. */
static int by_count(const void *a, const void *b)
{
    const struct candidate *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* --- the trie ----------------------------------------------------------------- */

static uint64_t edge_hash(uint32_t parent, const char *key)
{
    return stoke_hash_mix(stoke_hash_bytes(key, strlen(key)), parent);
}

static int64_t find_child(const struct stoke_js_interfaces *ifs, uint32_t parent,
                          const char *key, uint64_t hash)
{
    size_t pos = SIZE_MAX;
    int64_t child;
    while ((child = stoke_index_table_next(&ifs->edges, hash, &pos)) >= 0)
        if (ifs->trie[child].parent == parent && strcmp(ifs->trie[child].key, key) == 0)
            return child;
    return -1;
}

static uint32_t add_child(struct stoke_js_interfaces *ifs, uint32_t parent, const char *key)
{
    uint64_t hash = edge_hash(parent, key);
    int64_t found = find_child(ifs, parent, key, hash);
    if (found >= 0)
        return (uint32_t)found;
    uint32_t child = (uint32_t)ifs->ntrie;
    ifs->trie = stoke_grow(ifs->trie, &ifs->trie_cap, ifs->ntrie + 1, sizeof *ifs->trie);
    ifs->trie[ifs->ntrie++] = (struct trie_node){key, NULL, parent, NO_MATCH};
    const char *greatest = ifs->trie[parent].greatest;
    if (!greatest || strcmp(key, greatest) > 0)
        ifs->trie[parent].greatest = key;
    stoke_index_table_add(&ifs->edges, hash, child);
    return child;
}

/* Adds interface i with properties (sorted, copied into the arena). */
static void add_interface(struct stoke_js_interfaces *ifs, const char *name,
                          const char **properties, size_t n)
{
    size_t i = ifs->ninterfaces++;
    ifs->interfaces[i] = (struct interface){stoke_arena_strndup(&ifs->arena, name, strlen(name)),
                                            n};
    qsort(properties, n, sizeof *properties, by_name);
    uint32_t node = 0;
    for (size_t k = 0; k < n; k++)
        node = add_child(ifs, node,
                         stoke_arena_strndup(&ifs->arena, properties[k], strlen(properties[k])));
    if (ifs->trie[node].match == NO_MATCH)
        ifs->trie[node].match = (int32_t)i;
}

static struct stoke_js_interfaces *new_interfaces(size_t n)
{
    struct stoke_js_interfaces *ifs = stoke_xcalloc(1, sizeof *ifs);
    ifs->interfaces = stoke_xmalloc((n ? n : 1) * sizeof *ifs->interfaces);
    ifs->trie = stoke_grow(NULL, &ifs->trie_cap, 1, sizeof *ifs->trie);
    ifs->trie[ifs->ntrie++] = (struct trie_node){"", NULL, UINT32_MAX, NO_MATCH};
    return ifs;
}

static struct stoke_js_interfaces *choose_interfaces(struct inference *in)
{
    if (in->ncandidates > 1)
        qsort(in->candidates, in->ncandidates, sizeof *in->candidates, by_count);
    size_t n = 0;
    while (n < in->ncandidates && common_enough(in, &in->candidates[n]))
        n++;
    struct stoke_js_interfaces *ifs = new_interfaces(n);
    for (size_t i = 0; i < n; i++)
        add_interface(ifs, in->candidates[i].name, in->pool + in->candidates[i].properties,
                      in->candidates[i].nproperties);
    return ifs;
}

struct stoke_js_interfaces *stoke_js_interfaces_infer(const struct stoke_js_heap *h)
{
    struct inference in = {.objects = plain_objects(h)};
    for (uint32_t node = 0; node < h->node_count; node++) {
        if (!is_plain(&in.objects, node))
            continue;
        in.nobjects++;
        uint32_t first = (uint32_t)in.npool, n = leading_properties(&in, node);
        if (n)
            count_candidate(&in, first, n);
    }
    struct stoke_js_interfaces *ifs = choose_interfaces(&in);
    free(in.candidates);
    free(in.pool);
    free(in.name.s);
    free(in.property.s);
    stoke_index_table_free(&in.by_name);
    stoke_arena_free(&in.arena);
    return ifs;
}

size_t stoke_js_interfaces_count(const struct stoke_js_interfaces *ifs)
{
    return ifs->ninterfaces;
}

const char *stoke_js_interfaces_name(const struct stoke_js_interfaces *ifs, size_t i)
{
    return i < ifs->ninterfaces ? ifs->interfaces[i].name : NULL;
}

void stoke_js_interfaces_free(struct stoke_js_interfaces *ifs)
{
    if (!ifs)
        return;
    free(ifs->interfaces);
    free(ifs->trie);
    stoke_index_table_free(&ifs->edges);
    stoke_arena_free(&ifs->arena);
    free(ifs);
}

/* --- matching objects ------------------------------------------------------------ */

struct property {
    const char *name;
    uint64_t hash;
};

struct js_interface_matcher {
    const struct stoke_js_interfaces *ifs;
    struct plain_objects objects;
    struct property *properties;
    size_t properties_cap;
    uint32_t *states, *next;  /* trie nodes alive */
    size_t states_cap;
    uint64_t budget;
    uint64_t unnamed;         /* objects left unmatched when the budget ran out */
};

struct js_interface_matcher *js_interface_matcher_new(const struct stoke_js_interfaces *ifs,
                                                      const struct stoke_js_heap *h)
{
    struct js_interface_matcher *m = stoke_xcalloc(1, sizeof *m);
    m->ifs = ifs;
    m->objects = plain_objects(h);
    m->budget = BASE_WORK + WORK_PER_EDGE * (uint64_t)h->edge_count;
    m->states_cap = ifs->ntrie;
    m->states = stoke_xmalloc(m->states_cap * sizeof *m->states);
    m->next = stoke_xmalloc(m->states_cap * sizeof *m->next);
    return m;
}

static int by_property(const void *a, const void *b)
{
    return strcmp(((const struct property *)a)->name, ((const struct property *)b)->name);
}

/* The object's property names, sorted, each once; returns how many. */
static size_t sorted_properties(struct js_interface_matcher *m, uint32_t node)
{
    const struct stoke_js_heap *h = m->objects.h;
    size_t n = 0;
    for (uint32_t e = h->first_edge[node]; e < h->first_edge[node + 1]; e++) {
        if (h->edge_type[e] != m->objects.property_edge)
            continue;
        m->properties = stoke_grow(m->properties, &m->properties_cap, n + 1,
                                   sizeof *m->properties);
        m->properties[n++].name = stoke_js_heap_string(h, h->edge_name[e]);
    }
    if (n > 1)
        qsort(m->properties, n, sizeof *m->properties, by_property);
    size_t unique = 0;
    for (size_t i = 0; i < n; i++)
        if (!unique || strcmp(m->properties[i].name, m->properties[unique - 1].name) != 0)
            m->properties[unique++] = m->properties[i];
    for (size_t i = 0; i < unique; i++)
        m->properties[i].hash = stoke_hash_bytes(m->properties[i].name,
                                                 strlen(m->properties[i].name));
    return unique;
}

/* More properties wins; then the commoner (earlier) interface. */
static int32_t better(const struct stoke_js_interfaces *ifs, int32_t best, int32_t candidate)
{
    if (candidate == NO_MATCH)
        return best;
    if (best == NO_MATCH)
        return candidate;
    size_t a = ifs->interfaces[best].nproperties, b = ifs->interfaces[candidate].nproperties;
    if (a != b)
        return b > a ? candidate : best;
    return candidate < best ? candidate : best;
}

/* Moves every live trie node along property p; returns the new count. */
static size_t step(struct js_interface_matcher *m, size_t nstates, const struct property *p,
                   int32_t *best)
{
    const struct stoke_js_interfaces *ifs = m->ifs;
    size_t n = 0;
    for (size_t i = 0; i < nstates; i++) {
        uint32_t s = m->states[i];
        const char *greatest = ifs->trie[s].greatest;
        if (greatest && strcmp(p->name, greatest) < 0)
            m->next[n++] = s;
        int64_t child = find_child(ifs, s, p->name, stoke_hash_mix(p->hash, s));
        if (child >= 0) {
            m->next[n++] = (uint32_t)child;
            *best = better(ifs, *best, ifs->trie[child].match);
        }
    }
    m->budget = m->budget > nstates ? m->budget - nstates : 0;
    uint32_t *swap = m->states;
    m->states = m->next;
    m->next = swap;
    return n;
}

const char *js_interface_match(struct js_interface_matcher *m, uint32_t node)
{
    if (!m->ifs->ninterfaces || !is_plain(&m->objects, node))
        return NULL;
    if (!m->budget) {
        m->unnamed++;
        return NULL;
    }
    size_t nproperties = sorted_properties(m, node), nstates = 1;
    int32_t best = NO_MATCH;
    m->states[0] = 0;
    for (size_t i = 0; i < nproperties && nstates; i++)
        nstates = step(m, nstates, &m->properties[i], &best);
    return best == NO_MATCH ? NULL : m->ifs->interfaces[best].name;
}

void js_interface_matcher_free(struct js_interface_matcher *m)
{
    if (m->unnamed)
        stoke_warn(m->objects.h->path,
                   "naming plain objects by their properties took too long; %" PRIu64
                   " are left as Object",
                   m->unnamed);
    free(m->properties);
    free(m->states);
    free(m->next);
    free(m);
}

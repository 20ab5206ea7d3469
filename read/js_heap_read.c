/*
 * js_heap_read.c - reads a .heapsnapshot file into struct stoke_js_heap;
 * see js_heap_read.h.
 *
 * The JSON is parsed with YAJL, a streaming (SAX-style) parser: the file is
 * read 1 MiB at a time and each value arrives in a callback, so memory
 * holds what stoke keeps (the node and edge fields it uses, in arrays of
 * 8 and 32-bit integers, and the strings), never the text. A 200 MB
 * snapshot is mostly two integer arrays: parsers that build the document
 * first (json-c, jansson: an object per number, tens of bytes each) would
 * need several times the file; simdjson needs the whole text in memory at
 * once and is C++.
 *
 * Owns: the JSON layout of a snapshot (which keys, in which order V8
 * writes them: "snapshot" with its "meta" before "nodes", "edges",
 * "locations" and "strings"), the roles of the fields meta names, and the
 * errors of files that are not snapshots or end too early.
 * Never: keeps a number the analysis does not use, allocates from a count
 * the file claims beyond what its size can hold, or recurses (nesting is a
 * counter: any depth costs nothing).
 */
#include "js_heap_read.h"
#include "js_heap_graph.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yajl/yajl_parse.h>

#include "alloc.h"
#include "regular_file.h"
#include "warn.h"

#define CHUNK_BYTES (1 << 20)
#define MAX_FIELDS 32      /* fields of a node, edge or location (V8: 7, 3, 4) */
#define MAX_TYPE_NAMES 250 /* node or edge types (V8: 16, 7); one byte each */
#define MAX_NESTING 8      /* depth of the parts stoke reads */
/* Most bytes all nodes together may claim (1 EiB): more is damage, and
 * sums of sizes stay far from overflowing 64 bits. */
#define MAX_TOTAL_SELF_SIZE (UINT64_C(1) << 60)
/* The shortest text of one array element: a digit and a comma. */
#define MIN_BYTES_PER_VALUE 2

/* What a field of a node, edge or location means to stoke. */
enum role {
    ROLE_IGNORED = 0,
    ROLE_TYPE,
    ROLE_NAME,
    ROLE_ID,
    ROLE_SELF_SIZE,
    ROLE_EDGE_COUNT,
    ROLE_DETACHEDNESS,
    ROLE_TO_NODE,
    ROLE_OBJECT_INDEX,
    ROLE_SCRIPT_ID,
    ROLE_LINE,
    ROLE_COLUMN,
};

/* The parts of the file with their own fields. */
enum part { PART_NODES, PART_EDGES, PART_LOCATIONS, NPARTS };

static const char *const part_names[NPARTS] = {"nodes", "edges", "locations"};

static const struct {
    enum part part;
    const char *name;
    enum role role;
    int required;
} known_fields[] = {
    {PART_NODES, "type", ROLE_TYPE, 1},
    {PART_NODES, "name", ROLE_NAME, 1},
    {PART_NODES, "id", ROLE_ID, 1},
    {PART_NODES, "self_size", ROLE_SELF_SIZE, 1},
    {PART_NODES, "edge_count", ROLE_EDGE_COUNT, 1},
    {PART_NODES, "detachedness", ROLE_DETACHEDNESS, 0},
    {PART_EDGES, "type", ROLE_TYPE, 1},
    {PART_EDGES, "name_or_index", ROLE_NAME, 1},
    {PART_EDGES, "to_node", ROLE_TO_NODE, 1},
    {PART_LOCATIONS, "object_index", ROLE_OBJECT_INDEX, 1},
    {PART_LOCATIONS, "script_id", ROLE_SCRIPT_ID, 1},
    {PART_LOCATIONS, "line", ROLE_LINE, 1},
    {PART_LOCATIONS, "column", ROLE_COLUMN, 1},
};

/* The layout of one part's records, from meta. */
struct fields {
    int listed;                 /* meta named them */
    unsigned count;
    uint8_t roles[MAX_FIELDS];
    int type_position;          /* of ROLE_TYPE, -1 none */
    unsigned position;          /* of the next value in the current record */
};

/* Where the parser is, for the parts stoke reads. */
enum context {
    IN_TOP,        /* the top-level object */
    IN_SNAPSHOT,   /* "snapshot" */
    IN_META,       /* "snapshot.meta" */
    IN_FIELDS,     /* meta.node_fields, edge_fields, location_fields */
    IN_TYPE_LISTS, /* meta.node_types, edge_types */
    IN_TYPE_NAMES, /* the list of type names inside one of those */
    IN_NUMBERS,    /* "nodes", "edges", "locations" */
    IN_STRINGS,    /* "strings" */
};

/* What the value after a key is. */
enum value {
    V_UNREAD = 0,
    V_SNAPSHOT,
    V_META,
    V_FIELDS,      /* of part */
    V_TYPE_LISTS,  /* of part */
    V_NODE_COUNT,
    V_EDGE_COUNT,
    V_ROOT_INDEX,
    V_NUMBERS,     /* of part */
    V_STRINGS,
};

struct frame {
    enum context context;
    enum part part;
    size_t position;  /* in IN_TYPE_LISTS: index of the next element */
};

struct reader {
    const char *path;
    uint64_t file_size, offset; /* bytes before the current chunk */
    struct stoke_js_heap *heap;
    yajl_handle parser;
    char *err;
    size_t errlen;
    int failed;

    struct frame stack[MAX_NESTING];
    int depth;             /* frames on stack; 0 before the top-level object */
    uint64_t skip_depth;   /* > 0: inside a value stoke does not read */
    enum value next;       /* the value after the last key */
    enum part next_part;
    const char *key;       /* that key, for messages */
    int top_seen, top_closed;
    const char *current;   /* the top-level part being read, for messages */

    struct fields fields[NPARTS];
    int type_list_position[2];  /* PART_NODES, PART_EDGES: where the list of
                                 * type names was in node_types, -1 none */
    int meta_ready;
    int has_detachedness;
    uint64_t claimed_nodes, claimed_edges;
    int root_index_given;
    uint64_t root_index;

    int seen[NPARTS];        /* the array was present */
    int complete[NPARTS];    /* and closed */
    int strings_seen;
    uint64_t values_read[NPARTS];

    /* records being built */
    size_t node_cap, edge_cap, location_cap, string_cap;
    uint64_t edge_count_total;   /* nodes' edge_count added up */
    uint64_t self_size_total;
    struct js_heap_raw raw;      /* what js_heap_graph.c finishes */
};

/* --- messages ------------------------------------------------------------- */

static int fail(struct reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Records the error (the first one stands) and returns 0, which stops YAJL. */
static int fail(struct reader *r, const char *fmt, ...)
{
    if (r->failed)
        return 0;
    r->failed = 1;
    int n = snprintf(r->err, r->errlen, "%s: ", r->path);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < r->errlen)
        vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return 0;
}

static const char *value_name(enum value v)
{
    switch (v) {
    case V_SNAPSHOT:
    case V_META:
        return "an object";
    case V_FIELDS:
    case V_TYPE_LISTS:
    case V_NUMBERS:
    case V_STRINGS:
        return "an array";
    case V_NODE_COUNT:
    case V_EDGE_COUNT:
    case V_ROOT_INDEX:
        return "a number";
    default:
        return "a value";
    }
}

static int wrong_type(struct reader *r, enum value wanted, const char *found)
{
    return fail(r, "\"%s\" is %s, not %s: not a V8 heap snapshot", r->key, found,
                value_name(wanted));
}

/* --- the stack of contexts ------------------------------------------------ */

static struct frame *top(struct reader *r)
{
    return r->depth ? &r->stack[r->depth - 1] : NULL;
}

static int push(struct reader *r, enum context c, enum part part)
{
    if (r->depth == MAX_NESTING)
        return fail(r, "is nested deeper than a heap snapshot");
    r->stack[r->depth++] = (struct frame){c, part, 0};
    return 1;
}

/* The value the last key announced; a value in an array stoke reads
 * element by element never comes here. */
static enum value take_value(struct reader *r)
{
    enum value v = r->next;
    r->next = V_UNREAD;
    return v;
}

/* --- keys ----------------------------------------------------------------- */

static int key_is(const unsigned char *key, size_t len, const char *name)
{
    return strlen(name) == len && memcmp(key, name, len) == 0;
}

static void expect(struct reader *r, enum value v, enum part part, const char *key)
{
    r->next = v;
    r->next_part = part;
    r->key = key;
}

static void top_key(struct reader *r, const unsigned char *key, size_t len)
{
    static const char *const arrays[NPARTS] = {"nodes", "edges", "locations"};
    if (key_is(key, len, "snapshot"))
        return expect(r, V_SNAPSHOT, 0, "snapshot");
    if (key_is(key, len, "strings"))
        return expect(r, V_STRINGS, 0, "strings");
    for (int p = 0; p < NPARTS; p++)
        if (key_is(key, len, arrays[p]))
            return expect(r, V_NUMBERS, (enum part)p, arrays[p]);
}

static void snapshot_key(struct reader *r, const unsigned char *key, size_t len)
{
    if (key_is(key, len, "meta"))
        expect(r, V_META, 0, "snapshot.meta");
    else if (key_is(key, len, "node_count"))
        expect(r, V_NODE_COUNT, 0, "snapshot.node_count");
    else if (key_is(key, len, "edge_count"))
        expect(r, V_EDGE_COUNT, 0, "snapshot.edge_count");
    else if (key_is(key, len, "root_index"))
        expect(r, V_ROOT_INDEX, 0, "snapshot.root_index");
}

static void meta_key(struct reader *r, const unsigned char *key, size_t len)
{
    static const struct {
        const char *key;
        enum value value;
        enum part part;
    } keys[] = {
        {"node_fields", V_FIELDS, PART_NODES},
        {"edge_fields", V_FIELDS, PART_EDGES},
        {"location_fields", V_FIELDS, PART_LOCATIONS},
        {"node_types", V_TYPE_LISTS, PART_NODES},
        {"edge_types", V_TYPE_LISTS, PART_EDGES},
    };
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (key_is(key, len, keys[i].key))
            return expect(r, keys[i].value, keys[i].part, keys[i].key);
}

static int on_map_key(void *ctx, const unsigned char *key, size_t len)
{
    struct reader *r = ctx;
    if (r->skip_depth)
        return 1;
    r->next = V_UNREAD;
    switch (top(r)->context) {
    case IN_TOP: top_key(r, key, len); break;
    case IN_SNAPSHOT: snapshot_key(r, key, len); break;
    case IN_META: meta_key(r, key, len); break;
    default: break;
    }
    return 1;
}

/* --- meta ----------------------------------------------------------------- */

static enum role role_of(enum part part, const unsigned char *name, size_t len)
{
    for (size_t i = 0; i < sizeof known_fields / sizeof *known_fields; i++)
        if (known_fields[i].part == part && key_is(name, len, known_fields[i].name))
            return known_fields[i].role;
    return ROLE_IGNORED;
}

static int add_field(struct reader *r, enum part part, const unsigned char *name, size_t len)
{
    struct fields *f = &r->fields[part];
    if (f->count == MAX_FIELDS)
        return fail(r, "snapshot.meta lists more than %d fields of %s: not a V8 heap snapshot",
                    MAX_FIELDS, part_names[part]);
    enum role role = role_of(part, name, len);
    if (role == ROLE_TYPE)
        f->type_position = (int)f->count;
    f->roles[f->count++] = (uint8_t)role;
    return 1;
}

static int add_type_name(struct reader *r, enum part part, const unsigned char *name,
                         size_t len)
{
    struct stoke_js_heap *h = r->heap;
    char ***names = part == PART_NODES ? &h->node_type_names : &h->edge_type_names;
    size_t *n = part == PART_NODES ? &h->n_node_types : &h->n_edge_types;
    if (*n == MAX_TYPE_NAMES)
        return fail(r, "snapshot.meta names more than %d %s types: not a V8 heap snapshot",
                    MAX_TYPE_NAMES, part == PART_NODES ? "node" : "edge");
    if (*n % 16 == 0)
        *names = stoke_xrealloc(*names, (*n + 16) * sizeof **names);
    (*names)[(*n)++] = (char *)stoke_arena_strndup(&h->arena, (const char *)name, len);
    return 1;
}

static int has_role(const struct fields *f, enum role role)
{
    for (unsigned i = 0; i < f->count; i++)
        if (f->roles[i] == role)
            return 1;
    return 0;
}

/* Checks that meta names every field stoke needs (locations are optional:
 * without location_fields they are not read). */
static int check_meta(struct reader *r)
{
    for (size_t i = 0; i < sizeof known_fields / sizeof *known_fields; i++) {
        const struct fields *f = &r->fields[known_fields[i].part];
        if (known_fields[i].part == PART_LOCATIONS && !f->listed)
            continue;
        if (!f->listed)
            return fail(r, "snapshot.meta has no %s: not a V8 heap snapshot",
                        known_fields[i].part == PART_NODES ? "node_fields" : "edge_fields");
        if (known_fields[i].required && !has_role(f, known_fields[i].role))
            return fail(r, "snapshot.meta lists no \"%s\" field of %s: not a V8 heap snapshot",
                        known_fields[i].name, part_names[known_fields[i].part]);
    }
    for (int p = PART_NODES; p <= PART_EDGES; p++)
        if (r->type_list_position[p] != r->fields[p].type_position)
            return fail(r, "snapshot.meta.%s_types has no list of type names for the \"type\" "
                           "field: not a V8 heap snapshot",
                        p == PART_NODES ? "node" : "edge");
    r->has_detachedness = has_role(&r->fields[PART_NODES], ROLE_DETACHEDNESS);
    r->meta_ready = 1;
    return 1;
}

/* --- growing the arrays ----------------------------------------------------- */

/* The capacity to start an array of records with: the count the file
 * claims, but never more records than the rest of the file can hold. */
static size_t first_capacity(const struct reader *r, uint64_t claimed, unsigned fields)
{
    uint64_t fit = (r->file_size - r->offset) / ((uint64_t)fields * MIN_BYTES_PER_VALUE);
    uint64_t n = claimed < fit ? claimed : fit;
    return (size_t)(n ? n : 16);
}

/* The capacity an array of records (cap now) grows to for need records:
 * twice cap, or the first capacity; 0 when cap holds need already. */
static size_t grown(const struct reader *r, size_t cap, size_t need, enum part part,
                    uint64_t claimed)
{
    if (need <= cap)
        return 0;
    size_t next = cap ? cap * 2 : first_capacity(r, claimed, r->fields[part].count);
    return next < need ? need : next;
}

static void grow_nodes(struct reader *r, size_t need)
{
    struct stoke_js_heap *h = r->heap;
    size_t cap = grown(r, r->node_cap, need, PART_NODES, r->claimed_nodes);
    if (!cap)
        return;
    h->node_type = stoke_xrealloc(h->node_type, cap);
    h->node_name = stoke_xrealloc(h->node_name, cap * sizeof *h->node_name);
    h->node_id = stoke_xrealloc(h->node_id, cap * sizeof *h->node_id);
    h->node_self_size = stoke_xrealloc(h->node_self_size, cap * sizeof *h->node_self_size);
    r->raw.edge_counts = stoke_xrealloc(r->raw.edge_counts, cap * sizeof *r->raw.edge_counts);
    if (r->has_detachedness)
        h->node_detachedness = stoke_xrealloc(h->node_detachedness, cap);
    r->node_cap = cap;
}

static void grow_edges(struct reader *r, size_t need)
{
    struct stoke_js_heap *h = r->heap;
    size_t cap = grown(r, r->edge_cap, need, PART_EDGES, r->claimed_edges);
    if (!cap)
        return;
    h->edge_type = stoke_xrealloc(h->edge_type, cap);
    h->edge_name = stoke_xrealloc(h->edge_name, cap * sizeof *h->edge_name);
    h->edge_to = stoke_xrealloc(h->edge_to, cap * sizeof *h->edge_to);
    r->edge_cap = cap;
}

static void grow_locations(struct reader *r, size_t need)
{
    if (need <= r->location_cap)
        return;
    r->raw.location_nodes = stoke_grow(r->raw.location_nodes, &r->location_cap, need,
                                       sizeof *r->raw.location_nodes);
    r->heap->locations = stoke_xrealloc(r->heap->locations,
                                        r->location_cap * sizeof *r->heap->locations);
}

/* --- numbers -------------------------------------------------------------- */

static uint32_t clamp32(uint64_t v)
{
    return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

static uint8_t type_value(uint64_t v, size_t ntypes)
{
    return (uint8_t)(v < ntypes ? v : ntypes);
}

/* A node index (ordinal times the node field count) as an ordinal, or
 * JS_HEAP_NO_NODE when it is not one; the range is checked at the end. */
static uint32_t node_ordinal(const struct reader *r, uint64_t index)
{
    uint64_t fields = r->fields[PART_NODES].count;
    if (index % fields || index / fields >= JS_HEAP_NO_NODE)
        return JS_HEAP_NO_NODE;
    return (uint32_t)(index / fields);
}

static int node_value(struct reader *r, unsigned position, uint64_t v)
{
    struct stoke_js_heap *h = r->heap;
    size_t n = h->node_count;
    if (position == 0)
        grow_nodes(r, n + 1);
    switch (r->fields[PART_NODES].roles[position]) {
    case ROLE_TYPE: h->node_type[n] = type_value(v, h->n_node_types); break;
    case ROLE_NAME: h->node_name[n] = clamp32(v); break;
    case ROLE_ID: h->node_id[n] = (uint32_t)v; break; /* V8's ids are 32-bit */
    case ROLE_SELF_SIZE:
        r->self_size_total += v < MAX_TOTAL_SELF_SIZE ? v : MAX_TOTAL_SELF_SIZE;
        if (r->self_size_total >= MAX_TOTAL_SELF_SIZE)
            return fail(r, "the self sizes of its nodes add up to more than 2^60 bytes: the "
                           "snapshot is damaged");
        h->node_self_size[n] = v;
        break;
    case ROLE_EDGE_COUNT:
        r->edge_count_total += v < UINT32_MAX ? v : UINT32_MAX;
        if (r->edge_count_total >= JS_HEAP_NO_NODE)
            return fail(r, "its nodes claim more than 4 billion edges: the snapshot is damaged");
        r->raw.edge_counts[n] = (uint32_t)v;
        break;
    case ROLE_DETACHEDNESS: h->node_detachedness[n] = (uint8_t)(v <= 2 ? v : 0); break;
    default: break;
    }
    return 1;
}

static int edge_value(struct reader *r, unsigned position, uint64_t v)
{
    struct stoke_js_heap *h = r->heap;
    size_t n = h->edge_count;
    if (position == 0)
        grow_edges(r, n + 1);
    switch (r->fields[PART_EDGES].roles[position]) {
    case ROLE_TYPE: h->edge_type[n] = type_value(v, h->n_edge_types); break;
    case ROLE_NAME: h->edge_name[n] = clamp32(v); break;
    case ROLE_TO_NODE: h->edge_to[n] = node_ordinal(r, v); break;
    default: break;
    }
    return 1;
}

static int location_value(struct reader *r, unsigned position, uint64_t v)
{
    size_t n = r->heap->location_count;
    if (position == 0)
        grow_locations(r, n + 1);
    struct stoke_js_location *l = &r->heap->locations[n];
    switch (r->fields[PART_LOCATIONS].roles[position]) {
    case ROLE_OBJECT_INDEX: r->raw.location_nodes[n] = node_ordinal(r, v); break;
    case ROLE_SCRIPT_ID: l->script_id = clamp32(v); break;
    case ROLE_LINE: l->line = clamp32(v); break;
    case ROLE_COLUMN: l->column = clamp32(v); break;
    default: break;
    }
    return 1;
}

/* Counts a record as read once its last field has arrived. */
static void record_done(struct reader *r, enum part part)
{
    if (part == PART_NODES)
        r->heap->node_count++;
    else if (part == PART_EDGES)
        r->heap->edge_count++;
    else
        r->heap->location_count++;
}

static int array_number(struct reader *r, enum part part, long long value)
{
    if (value < 0)
        return fail(r, "%s[%" PRIu64 "] is negative: not a V8 heap snapshot", part_names[part],
                    r->values_read[part]);
    struct fields *f = &r->fields[part];
    unsigned position = f->position;
    int ok = part == PART_NODES ? node_value(r, position, (uint64_t)value)
           : part == PART_EDGES ? edge_value(r, position, (uint64_t)value)
                                : location_value(r, position, (uint64_t)value);
    r->values_read[part]++;
    if (++f->position == f->count) {
        f->position = 0;
        record_done(r, part);
    }
    return ok;
}

static int set_count(struct reader *r, enum value v, uint64_t value)
{
    if (v == V_NODE_COUNT)
        r->claimed_nodes = value;
    else if (v == V_EDGE_COUNT)
        r->claimed_edges = value;
    else if (v == V_ROOT_INDEX) {
        r->root_index_given = 1;
        r->root_index = value;
    }
    return 1;
}

/* --- other scalars -------------------------------------------------------- */

/* A scalar where stoke reads only arrays of numbers or of strings, or a
 * value of another type than its key needs. */
static int other_scalar(struct reader *r, const char *what)
{
    if (r->skip_depth)
        return 1;
    struct frame *f = top(r);
    if (!f)
        return fail(r, "is not a JSON object: not a V8 heap snapshot");
    switch (f->context) {
    case IN_NUMBERS:
        return fail(r, "%s[%" PRIu64 "] is %s, not an integer: not a V8 heap snapshot",
                    part_names[f->part], r->values_read[f->part], what);
    case IN_STRINGS:
        return fail(r, "strings[%zu] is %s, not a string: not a V8 heap snapshot",
                    r->heap->string_count, what);
    case IN_FIELDS:
    case IN_TYPE_NAMES:
        return fail(r, "snapshot.meta.%s holds %s, not a name: not a V8 heap snapshot",
                    r->key, what);
    case IN_TYPE_LISTS:
        f->position++;
        return 1;
    default:
        break;
    }
    enum value v = take_value(r);
    return v == V_UNREAD ? 1 : wrong_type(r, v, what);
}

static int on_null(void *ctx)
{
    return other_scalar(ctx, "null");
}

static int on_boolean(void *ctx, int value)
{
    return other_scalar(ctx, value ? "true" : "false");
}

static int on_double(void *ctx, double value)
{
    (void)value;
    return other_scalar(ctx, "a fraction");
}

static int on_integer(void *ctx, long long value)
{
    struct reader *r = ctx;
    if (r->skip_depth)
        return 1;
    struct frame *f = top(r);
    if (f && f->context == IN_NUMBERS)
        return array_number(r, f->part, value);
    if (!f || (f->context != IN_TOP && f->context != IN_SNAPSHOT && f->context != IN_META))
        return other_scalar(r, "a number");
    enum value v = take_value(r);
    if (v == V_UNREAD)
        return 1;
    if (v != V_NODE_COUNT && v != V_EDGE_COUNT && v != V_ROOT_INDEX)
        return wrong_type(r, v, "a number");
    return value < 0 ? fail(r, "%s is negative: not a V8 heap snapshot", r->key)
                     : set_count(r, v, (uint64_t)value);
}

static int add_string(struct reader *r, const unsigned char *s, size_t len)
{
    struct stoke_js_heap *h = r->heap;
    h->strings = stoke_grow(h->strings, &r->string_cap, h->string_count + 1, sizeof *h->strings);
    h->strings[h->string_count++] = stoke_arena_strndup(&h->arena, (const char *)s, len);
    return 1;
}

static int on_string(void *ctx, const unsigned char *s, size_t len)
{
    struct reader *r = ctx;
    if (r->skip_depth)
        return 1;
    struct frame *f = top(r);
    if (f && f->context == IN_STRINGS)
        return add_string(r, s, len);
    if (f && f->context == IN_FIELDS)
        return add_field(r, f->part, s, len);
    if (f && f->context == IN_TYPE_NAMES)
        return add_type_name(r, f->part, s, len);
    return other_scalar(r, "a string");
}

/* --- containers ------------------------------------------------------------ */

static int start_object_value(struct reader *r)
{
    if (!r->depth) {
        if (r->top_seen)
            return fail(r, "holds more than one JSON value: not a V8 heap snapshot");
        r->top_seen = 1;
        return push(r, IN_TOP, 0);
    }
    struct frame *f = top(r);
    if (f->context == IN_TYPE_LISTS) {
        f->position++;
        r->skip_depth = 1;
        return 1;
    }
    if (f->context != IN_TOP && f->context != IN_SNAPSHOT && f->context != IN_META)
        return other_scalar(r, "an object");
    enum value v = take_value(r);
    if (v == V_SNAPSHOT)
        return push(r, IN_SNAPSHOT, 0);
    if (v == V_META)
        return push(r, IN_META, 0);
    if (v != V_UNREAD)
        return wrong_type(r, v, "an object");
    r->skip_depth = 1;
    return 1;
}

static int on_start_map(void *ctx)
{
    struct reader *r = ctx;
    if (r->skip_depth) {
        r->skip_depth++;
        return 1;
    }
    return start_object_value(r);
}

static int on_end_map(void *ctx)
{
    struct reader *r = ctx;
    if (r->skip_depth) {
        r->skip_depth--;
        return 1;
    }
    enum context c = top(r)->context;
    r->depth--;
    if (c == IN_META)
        return check_meta(r);
    if (c == IN_TOP)
        r->top_closed = 1;
    return 1;
}

/* The list of type names is the one array inside node_types (edge_types),
 * at the position of the "type" field; other elements are skipped. */
static int start_type_list_element(struct reader *r, struct frame *f)
{
    size_t position = f->position++;
    if (r->type_list_position[f->part] >= 0 || position >= MAX_FIELDS) {
        r->skip_depth = 1;
        return 1;
    }
    r->type_list_position[f->part] = (int)position;
    return push(r, IN_TYPE_NAMES, f->part);
}

static int start_numbers(struct reader *r, enum part part)
{
    if (!r->meta_ready)
        return fail(r, "\"%s\" comes before snapshot.meta, which names its fields: not a V8 "
                       "heap snapshot",
                    part_names[part]);
    if (r->seen[part])
        return fail(r, "holds two \"%s\" arrays: not a V8 heap snapshot", part_names[part]);
    r->seen[part] = 1;
    r->current = part_names[part];
    if (!r->fields[part].listed) { /* locations without location_fields */
        r->skip_depth = 1;
        return 1;
    }
    return push(r, IN_NUMBERS, part);
}

static int start_array_value(struct reader *r, struct frame *f)
{
    if (f->context == IN_TYPE_LISTS)
        return start_type_list_element(r, f);
    if (f->context != IN_TOP && f->context != IN_SNAPSHOT && f->context != IN_META)
        return other_scalar(r, "an array");
    enum part part = r->next_part;
    enum value v = take_value(r);
    switch (v) {
    case V_NUMBERS: return start_numbers(r, part);
    case V_STRINGS:
        if (r->strings_seen)
            return fail(r, "holds two \"strings\" arrays: not a V8 heap snapshot");
        r->strings_seen = 1;
        r->current = "strings";
        return push(r, IN_STRINGS, 0);
    case V_FIELDS:
        if (r->fields[part].listed)
            return fail(r, "snapshot.meta lists the fields of %s twice", part_names[part]);
        r->fields[part].listed = 1;
        return push(r, IN_FIELDS, part);
    case V_TYPE_LISTS: return push(r, IN_TYPE_LISTS, part);
    case V_UNREAD: r->skip_depth = 1; return 1;
    default: return wrong_type(r, v, "an array");
    }
}

static int on_start_array(void *ctx)
{
    struct reader *r = ctx;
    if (r->skip_depth) {
        r->skip_depth++;
        return 1;
    }
    if (!r->depth)
        return fail(r, "is not a JSON object: not a V8 heap snapshot");
    return start_array_value(r, top(r));
}

static int on_end_array(void *ctx)
{
    struct reader *r = ctx;
    if (r->skip_depth) {
        r->skip_depth--;
        return 1;
    }
    struct frame *f = top(r);
    if (f->context == IN_NUMBERS) {
        r->complete[f->part] = 1;
        if (f->part == PART_NODES)
            r->raw.leftover_node_values = r->fields[f->part].position;
        else if (f->part == PART_EDGES)
            r->raw.leftover_edge_values = r->fields[f->part].position;
        r->fields[f->part].position = 0;
    }
    r->depth--;
    return 1;
}

static const yajl_callbacks callbacks = {
    .yajl_null = on_null,
    .yajl_boolean = on_boolean,
    .yajl_integer = on_integer,
    .yajl_double = on_double,
    .yajl_string = on_string,
    .yajl_start_map = on_start_map,
    .yajl_map_key = on_map_key,
    .yajl_end_map = on_end_map,
    .yajl_start_array = on_start_array,
    .yajl_end_array = on_end_array,
};

/* --- YAJL's memory: stoke's policy (out of memory ends the command) -------- */

static void *yajl_malloc(void *ctx, size_t size)
{
    (void)ctx;
    return stoke_xmalloc(size);
}

static void *yajl_realloc(void *ctx, void *p, size_t size)
{
    (void)ctx;
    return stoke_xrealloc(p, size);
}

static void yajl_release(void *ctx, void *p)
{
    (void)ctx;
    free(p);
}

static yajl_alloc_funcs allocation = {yajl_malloc, yajl_realloc, yajl_release, NULL};

/* --- driving the parser ---------------------------------------------------- */

/* YAJL's own message for a syntax error, one line. */
static void syntax_error(struct reader *r)
{
    unsigned char *message = yajl_get_error(r->parser, 0, NULL, 0);
    char *text = (char *)message;
    size_t len = strcspn(text, "\n");
    while (len > 0 && (text[len - 1] == '.' || text[len - 1] == ' '))
        len--;
    text[len] = '\0';
    uint64_t at = r->offset + yajl_get_bytes_consumed(r->parser);
    fail(r, "not a V8 heap snapshot: JSON %s at byte %" PRIu64, text, at);
    yajl_free_error(r->parser, message);
}

/* Feeds the file to the parser. Returns 0 when it was read to its end
 * (complete or not), -1 on an error (already in r->err). */
static int parse_file(struct reader *r, int fd)
{
    unsigned char *chunk = stoke_xmalloc(CHUNK_BYTES);
    int rc = 0;
    for (;;) {
        ssize_t n = read(fd, chunk, CHUNK_BYTES);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            fail(r, "cannot read: %s", strerror(errno));
            rc = -1;
            break;
        }
        if (n == 0)
            break;
        yajl_status st = yajl_parse(r->parser, chunk, (size_t)n);
        if (st == yajl_status_error)
            syntax_error(r);
        if (st != yajl_status_ok) {
            rc = -1;
            break;
        }
        r->offset += (uint64_t)n;
    }
    free(chunk);
    /* The end of a whole file, or of one that never opened its object (a
     * number at the top is only known to end here); not of a cut one. */
    int finish = r->top_closed || (!r->top_seen && r->offset > 0);
    if (rc == 0 && finish && yajl_complete_parse(r->parser) != yajl_status_ok) {
        if (!r->failed)
            syntax_error(r);
        rc = -1;
    }
    return rc;
}

/* A file that ended before its top-level object closed: enough for a
 * partial snapshot once meta and every node were read. */
static int check_complete(struct reader *r)
{
    if (!r->top_seen)
        return fail(r, "is empty: not a V8 heap snapshot");
    if (r->top_closed) {
        if (!r->meta_ready)
            return fail(r, "has no snapshot.meta: not a V8 heap snapshot (.heapsnapshot)");
        if (!r->seen[PART_NODES])
            return fail(r, "has no \"nodes\" array: not a V8 heap snapshot (.heapsnapshot)");
        return 1;
    }
    if (!r->complete[PART_NODES])
        return fail(r, "snapshot is truncated at byte %" PRIu64 ", before the end of its "
                       "nodes (%zu read); nothing to report: take the snapshot again",
                    r->offset, r->heap->node_count);
    r->heap->truncated = 1;
    stoke_warn(r->path,
               "snapshot is truncated at byte %" PRIu64 ", in \"%s\": its %zu objects and "
               "their sizes are complete, but only %zu edges and %zu names were read, so "
               "retained sizes and names may be wrong; take the snapshot again",
               r->offset, r->current, r->heap->node_count, r->heap->edge_count,
               r->heap->string_count);
    return 1;
}

static void free_raw(struct js_heap_raw *raw)
{
    free(raw->edge_counts);
    free(raw->location_nodes);
}

static struct reader start_reader(const char *path, struct stoke_js_heap *h, char *err,
                                  size_t errlen)
{
    struct reader r = {.path = path, .heap = h, .err = err, .errlen = errlen};
    r.type_list_position[PART_NODES] = r.type_list_position[PART_EDGES] = -1;
    for (int p = 0; p < NPARTS; p++)
        r.fields[p].type_position = -1;
    r.current = "snapshot";
    return r;
}

static int read_fd(struct reader *r, int fd)
{
    struct stat st;
    if (fstat(fd, &st) != 0)
        return fail(r, "cannot read: %s", strerror(errno));
    r->file_size = (uint64_t)st.st_size;
    r->parser = yajl_alloc(&callbacks, &allocation, r);
    yajl_config(r->parser, yajl_allow_trailing_garbage, 1);
    int ok = parse_file(r, fd) == 0 && check_complete(r);
    yajl_free(r->parser);
    if (!ok)
        return 0;
    r->raw.claimed_nodes = r->claimed_nodes;
    r->raw.claimed_edges = r->claimed_edges;
    r->raw.root_index_given = r->root_index_given;
    r->raw.root_index = r->root_index;
    r->raw.node_fields = r->fields[PART_NODES].count;
    r->raw.edge_count_total = r->edge_count_total;
    return 1;
}

struct stoke_js_heap *stoke_js_heap_read(const char *path, char *err, size_t errlen)
{
    int fd = stoke_open_regular(path);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    struct stoke_js_heap *h = stoke_xcalloc(1, sizeof *h);
    h->path = stoke_xstrdup(path);
    struct reader r = start_reader(path, h, err, errlen);
    int ok = read_fd(&r, fd);
    close(fd);
    ok = ok && js_heap_finish(h, &r.raw, err, errlen) == 0;
    free_raw(&r.raw);
    if (!ok) {
        stoke_js_heap_free(h);
        return NULL;
    }
    return h;
}

int stoke_is_js_heap_file(const char *path)
{
    static const char key[] = "\"snapshot\"";
    char head[64];
    int fd = stoke_open_regular(path);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, head, sizeof head - 1);
    close(fd);
    if (n <= 0)
        return 0;
    head[n] = '\0';
    const char *p = head + strspn(head, " \t\r\n");
    if (*p++ != '{')
        return 0;
    p += strspn(p, " \t\r\n");
    return strncmp(p, key, sizeof key - 1) == 0;
}

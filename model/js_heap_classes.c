/*
 * js_heap_classes.c - the constructor group of every node, as DevTools'
 * Summary groups them; see js_heap_classes.h.
 *
 * Objects and native objects go by their name: the constructor (Leak,
 * Array, Map), a native class ("Node / BindingData", "Detached ..." when
 * detached), an interface name for plain objects ("{id, name}"), and
 * "<div>" for an HTML element whatever its attributes. Everything else goes
 * by its type: (system) for hidden objects, (compiled code), Function for
 * closures, RegExp, and "(type)" for the rest: (string), (array),
 * (concatenated string), (number), (object shape), ...
 *
 * Owns: those names and when an object's constructor location joins its
 * key.
 * Never: counts or sizes anything.
 */
#include "js_heap_classes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "alloc.h"

#define NO_CLASS UINT32_MAX

struct namer {
    const struct stoke_js_heap *h;
    struct js_class_table *table;
    struct js_interface_matcher *interfaces;
    const uint8_t *detached;   /* per node, NULL none */
    int object, native;
    uint32_t *type_class;      /* per type (and the unknown type): its class */
    uint32_t *name_class;      /* per string: the class of an object so named */
    char *scratch;
    size_t scratch_cap;
};

/* The class of a node that goes by its type. */
static const char *type_group(const struct stoke_js_heap *h, size_t type, char *buf, size_t len)
{
    static const struct {
        const char *type, *group;
    } named[] = {
        {"hidden", "(system)"},
        {"code", "(compiled code)"},
        {"closure", "Function"},
        {"regexp", "RegExp"},
    };
    if (type >= h->n_node_types)
        return "(unknown)";
    for (size_t i = 0; i < sizeof named / sizeof *named; i++)
        if (strcmp(h->node_type_names[type], named[i].type) == 0)
            return named[i].group;
    snprintf(buf, len, "(%s)", h->node_type_names[type]);
    return buf;
}

static void start_type_classes(struct namer *nm)
{
    const struct stoke_js_heap *h = nm->h;
    char buf[256];
    nm->type_class = stoke_xmalloc((h->n_node_types + 1) * sizeof *nm->type_class);
    for (size_t t = 0; t <= h->n_node_types; t++)
        nm->type_class[t] = (int)t == nm->object || (int)t == nm->native
                                ? NO_CLASS /* they go by name */
                                : js_class_table_add(nm->table, type_group(h, t, buf, sizeof buf),
                                                     NULL);
}

/* Writes name into the scratch buffer, with "Detached " in front when
 * detached, and "<tag attributes...>" cut to "<tag>". */
static const char *object_name(struct namer *nm, const char *name, int detached)
{
    static const char prefix[] = "Detached ";
    size_t len = strlen(name), at = detached ? sizeof prefix - 1 : 0;
    nm->scratch = stoke_grow(nm->scratch, &nm->scratch_cap, at + len + 2, 1);
    memcpy(nm->scratch, prefix, at);
    memcpy(nm->scratch + at, name, len + 1);
    char *s = nm->scratch;
    size_t tag = s[0] == '<' ? 0 : strncmp(s, "Detached <", 10) == 0 ? 10 : SIZE_MAX;
    char *space = tag == SIZE_MAX ? NULL : strchr(s + tag, ' ');
    if (space)
        strcpy(space, ">");
    return s;
}

static const struct stoke_js_location *location(const struct namer *nm, uint32_t node)
{
    const struct stoke_js_heap *h = nm->h;
    if (h->node_type[node] != nm->object || !h->node_location ||
        h->node_location[node] == STOKE_JS_NO_LOCATION)
        return NULL;
    return &h->locations[h->node_location[node]];
}

/* An object's class is its name's, unless it is detached, located or
 * named after an interface: those are looked up each time. */
static uint32_t object_class(struct namer *nm, uint32_t node)
{
    const struct stoke_js_heap *h = nm->h;
    const char *interface = js_interface_match(nm->interfaces, node);
    const struct stoke_js_location *where = location(nm, node);
    int detached = nm->detached && nm->detached[node];
    uint32_t name = h->node_name[node] < h->string_count ? h->node_name[node]
                                                          : (uint32_t)h->string_count;
    if (interface)
        return js_class_table_add(nm->table, interface, where);
    if (!detached && !where && nm->name_class[name] != NO_CLASS)
        return nm->name_class[name];
    uint32_t c = js_class_table_add(
        nm->table, object_name(nm, stoke_js_heap_string(h, name), detached), where);
    if (!detached && !where)
        nm->name_class[name] = c;
    return c;
}

uint32_t *js_heap_classes(const struct stoke_js_heap *h, const struct stoke_js_interfaces *ifs,
                          const uint8_t *detached, struct js_class_table *table)
{
    struct namer nm = {.h = h, .table = table, .detached = detached,
                       .object = stoke_js_heap_node_type(h, "object"),
                       .native = stoke_js_heap_node_type(h, "native")};
    nm.interfaces = js_interface_matcher_new(ifs, h);
    nm.name_class = stoke_xmalloc((h->string_count + 1) * sizeof *nm.name_class);
    memset(nm.name_class, 0xff, (h->string_count + 1) * sizeof *nm.name_class);
    start_type_classes(&nm);
    uint32_t *class_of = stoke_xmalloc(h->node_count * sizeof *class_of);
    for (uint32_t node = 0; node < h->node_count; node++) {
        int type = h->node_type[node];
        class_of[node] = type == nm.object || type == nm.native ? object_class(&nm, node)
                                                                : nm.type_class[type];
    }
    js_interface_matcher_free(nm.interfaces);
    free(nm.type_class);
    free(nm.name_class);
    free(nm.scratch);
    return class_of;
}

/*
 * js_heap_interfaces.h - the names DevTools gives plain JavaScript objects
 * (class Object): "{id, name, tags}" after the properties objects commonly
 * have. From the snapshot's plain objects, the property lists they start
 * with (their first properties, up to 120 characters of name) are counted;
 * each list that starts at least two objects, and one plain object in a
 * thousand, becomes an interface. Each plain object is then named after the
 * interface with the most properties that it has all of (the commoner one
 * on a tie), or stays "Object".
 *
 * A comparison names the objects of both snapshots with the interfaces of
 * the later one, as DevTools' Comparison view does, so the groups match.
 *
 * Never: changes the snapshot; the interfaces own their strings and outlive
 * the snapshot they came from.
 */
#ifndef STOKE_JS_HEAP_INTERFACES_H
#define STOKE_JS_HEAP_INTERFACES_H

#include <stddef.h>
#include <stdint.h>
#include "js_heap_snapshot.h"

struct stoke_js_interfaces;

/* The interfaces of h's plain objects. */
struct stoke_js_interfaces *stoke_js_interfaces_infer(const struct stoke_js_heap *h);

/* How many interfaces there are, and the name of the i-th (commonest first). */
size_t stoke_js_interfaces_count(const struct stoke_js_interfaces *ifs);
const char *stoke_js_interfaces_name(const struct stoke_js_interfaces *ifs, size_t i);

void stoke_js_interfaces_free(struct stoke_js_interfaces *ifs);

/* Names the plain objects of one snapshot. */
struct js_interface_matcher;

struct js_interface_matcher *js_interface_matcher_new(const struct stoke_js_interfaces *ifs,
                                                      const struct stoke_js_heap *h);

/* The interface name of plain object node, or NULL when it matches none
 * (or the matcher's work budget, proportional to the snapshot's edges, is
 * spent: a crafted file cannot make naming cost more than that). */
const char *js_interface_match(struct js_interface_matcher *m, uint32_t node);

/* Frees the matcher; warns once on stderr when its budget ran out. */
void js_interface_matcher_free(struct js_interface_matcher *m);

#endif

/*
 * js_heap_classes.h - which constructor group (class) each object of a
 * snapshot belongs to, by the names DevTools' Summary uses.
 *
 * Never: counts or sizes anything.
 */
#ifndef STOKE_JS_HEAP_CLASSES_H
#define STOKE_JS_HEAP_CLASSES_H

#include <stdint.h>
#include "js_heap_class_table.h"
#include "js_heap_interfaces.h"
#include "js_heap_snapshot.h"

/* Returns the class id of every node (free it), adding the classes to
 * table; plain objects are named after ifs, the native objects detached
 * marks (by node, NULL none) "Detached ...". */
uint32_t *js_heap_classes(const struct stoke_js_heap *h, const struct stoke_js_interfaces *ifs,
                          const uint8_t *detached, struct js_class_table *table);

#endif

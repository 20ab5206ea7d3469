/*
 * js_heap_terminal.h - JavaScript heap snapshots on the terminal: the
 * constructors that hold the most in one (DevTools' Summary) and the ones
 * that grew between two (its Comparison), as stoke record, report, top and
 * diff print them, each line saying it is the JavaScript heap.
 */
#ifndef STOKE_CLI_JS_HEAP_TERMINAL_H
#define STOKE_CLI_JS_HEAP_TERMINAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "js_heap_diff.h"
#include "profile.h"

#define JS_SUMMARY_ROWS 20 /* constructors kept of a snapshot */

struct js_constructor {
    char *name;
    uint64_t objects, shallow_bytes, retained_bytes;
};

/* What a snapshot's Summary shows, without its graph. */
struct js_snapshot_summary {
    struct js_constructor *rows; /* the most retained first, at most JS_SUMMARY_ROWS */
    size_t nrows;
    uint64_t objects, bytes;     /* of the whole snapshot */
};

/* Reads the JavaScript heap snapshot at path, adds it to p (NULL: no
 * profile wanted) and fills out (NULL: not wanted). Returns 0, or -1 with
 * a one-line message in err naming the file. */
int js_snapshot_read(const char *path, struct stoke_profile *p, struct js_snapshot_summary *out,
                     char *err, size_t errlen);
void js_snapshot_summary_free(struct js_snapshot_summary *s);

/* "JavaScript heap of WHAT: 45.1 MiB in 312,004 objects", then the first
 * count constructors with retained and shallow bytes and objects. */
void print_js_constructors(FILE *out, const char *what, const struct js_snapshot_summary *s,
                           size_t count);

/* The count groups whose new objects hold the most (then grew most), with
 * what they hold, their change in shallow bytes and objects. */
void print_js_growth(FILE *out, const struct stoke_js_heap_diff *d, size_t count);

#endif

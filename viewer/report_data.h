/*
 * report_data.h - writes the profile as the JSON document the viewer reads
 * (version 1): a string pool, the frame table as integer arrays into it, and
 * the stacks as a preorder call tree (see call_tree.h). Every string is
 * escaped so the document can sit inside an HTML <script> block.
 *
 *   {"version":1, "title":"...", "period_ns":N,
 *    "values":[{"name":"samples","unit":"count"}, ...],
 *    "processes":[{"pid":N,"comm":"...","samples":N,"lost":N,"duration_us":N}],
 *    "strings":["", "main", ...],
 *    "frames":{"name":[...],"module":[...],"file":[...],  (string indices)
 *              "line":[...],"kind":[...],"inlined":[...]},
 *    "tree":{"depth":[...],"frame":[...],"self":[[value 0...],[value 1...]]}}
 */
#ifndef STOKE_VIEWER_REPORT_DATA_H
#define STOKE_VIEWER_REPORT_DATA_H

#include <stdio.h>
#include "profile.h"

/* Returns 0, or -1 when out of memory (errno set). Write errors are left
 * in out's error flag. */
int report_data_write(FILE *out, const struct stoke_profile *p, const char *title);

#endif

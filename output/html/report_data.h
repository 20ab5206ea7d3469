/*
 * report_data.h - writes the report's profiles as the JSON document the
 * viewer reads (version 4): a string pool and a frame table (integer arrays
 * into the pool, each distinct frame once) shared by every tab, then per tab
 * its value types, processes and stacks as a preorder call tree (see
 * call_tree.h) whose frames index the shared table. Every string is escaped
 * so the document can sit inside an HTML <script> block.
 *
 *   {"version":4, "title":"...",
 *    "strings":{"shared":[0,0,3,...],"rest":["","main","n_loop",...]},
 *    "frames":{"name":[...],"module":[...],"file":[...],  (string indices)
 *              "line":[...],"kind":[...],"inlined":[...],
 *              "column":[...],"tier":[...]},  (tier: enum stoke_js_tier, a char code or 0)
 *    "marks":[{"name":"load start","at_us":N}, ...],  (us since the epoch)
 *    "tabs":[{"name":"CPU", "kind":"cpu", "differential":0, "period_ns":N,
 *             "values":[{"name":"samples","unit":"count"}, ...],
 *             "sides":{"shares":1,"total":[N,N],"processes":[N,N]},  (differential
 *                                 tabs only: struct stoke_diff_sides)
 *             "processes":[{"pid":N,"comm":"...","samples":N,"lost":N,"duration_us":N}],
 *             "timeline":{...},  (CPU tabs read from traces, and the live heap over
                                 time of a --heap recording: timeline_data.h)
 *             "lines":{"frame":[...],"file":[...],"line":[...],  (tabs read from traces:
 *                      "self":[[value 0...],...],"total":[[...],...]},  line_table.h)
 *             "tree":{"depth":[...],"frame":[...],"self":[[value 0...],[value 1...]]}},
 *            ...],
 *    "sources":{"file":[...],"first":[...],"text":[["line","line",...],...]}}
 *                                (the source around the hot lines: source_snippets.h)
 *
 * The string pool is sorted and front-coded: string 0 is "", string i is
 * the first shared[i] UTF-16 code units of string i - 1, then rest[i]
 * (names of one program share long prefixes: namespaces, classes). Every
 * 16th string (i % 16 == 0) is whole, so any string decodes from at most 15
 * before it.
 *
 * "kind" is what the tab's profile measures (enum stoke_profile_kind):
 * "cpu" (samples; also folded stacks), "heap" (the native heap: malloc and
 * friends) or "js_heap" (a V8 heap snapshot, js_heap_profile.h); a
 * differential tab has the kind of the profiles it compares.
 * "differential":1 only on a tab with at least two values: value 0 is
 * before, value 1 after; its "sides" say whether they were scaled to
 * shares of each side's total, each side's total as recorded and how many
 * of the processes (before's first) are each side's.
 *
 * "lines" has an entry per function (its first frame of the name) and line
 * it was at when sampled, with its self and total by value; "sources" a run
 * of lines of a source file (a string) from line "first" on. Both are left
 * out, or empty, where nothing knows lines.
 */
#ifndef STOKE_REPORT_DATA_H
#define STOKE_REPORT_DATA_H

#include <stdio.h>
#include "report.h"

/* Returns 0, or -1 when out of memory (errno set). Write errors are left
 * in out's error flag. */
int report_data_write(FILE *out, const struct stoke_report *r);

#endif

/*
 * trace_parts.h - the names of a trace's parts. The agent splits a trace
 * bounded in size (stoke record --max-size) into files "<stem>.stoke",
 * "<stem>.part-2.stoke", ...; each part but the last ends with a NEXT_PART
 * record naming the next (docs/trace-format.md). A reader follows that
 * name from the oldest part kept; a directory's listing leaves out the
 * parts it reaches so.
 *
 * Never: opens or reads files.
 */
#ifndef STOKE_TRACE_PARTS_H
#define STOKE_TRACE_PARTS_H

#include <stddef.h>

/* The path of the part named name (a NEXT_PART's) beside the part at path,
 * malloc'ed; NULL when name is not the name of a trace file alone (no '/',
 * not "." or "..", ending in ".stoke"), which only a damaged trace holds. */
char *stoke_part_beside(const char *path, const char *name);

/* The length of a trace file name without ".stoke" and, for a later part,
 * without ".part-N": "<stem>". */
size_t stoke_part_stem(const char *name);

/* The number of the part a trace file name names: N for
 * "<stem>.part-N.stoke" (N >= 2), else 1. */
unsigned stoke_part_number(const char *name);

/* The name of the part before the part named name ("<stem>.stoke" before
 * part 2, "<stem>.part-N.stoke" before part N + 1) in prev (len bytes);
 * 0, or -1 when name is a first part (or prev too small). */
int stoke_previous_part_name(const char *name, char *prev, size_t len);

#endif

/*
 * folded_input.h - reads folded stacks, one stack per line:
 *
 *     root;caller;leaf 42
 *
 * as stoke report --folded, perf script | stackcollapse-perf.pl, py-spy
 * record --format raw and async-profiler's collapsed output write them, into
 * a profile of one value ("samples"), so the report serves profiles that
 * stoke did not record.
 *
 * A line is the frames joined with ';', then blanks (spaces or tabs), then
 * the value, a non-negative integer. Blanks (and a CR) at the end of a line,
 * empty lines and lines starting with '#' are ignored. Names are kept as
 * written, except for what other tools put in them:
 *   - "name_[j]", "name_[0]", "name_[1]" (JIT or interpreted code): kind JIT;
 *     "name_[i]": JIT, inlined; "name_[k]": kernel code (module "[kernel]");
 *     the suffix is dropped;
 *   - "name (file.py:12)" (py-spy): file and line of the frame, name "name";
 *   - "[unknown]", "[libfoo.so]" (perf, no symbol): kind unknown.
 * Other frames are the program's code. A frame name is never empty (a ';'
 * at either end of the stack, or two in a row, make the line malformed). A
 * stack deeper than STOKE_MAX_FOLDED_DEPTH frames keeps its root, an
 * "[incomplete stack]" frame and its innermost frames, STOKE_MAX_FOLDED_DEPTH
 * in all, with one warning for the file: so what a line costs every output
 * is bounded by the line, whatever it holds.
 *
 * Never: symbolizes, or accepts a line it cannot read: the error names the
 * file and line.
 */
#ifndef STOKE_FOLDED_INPUT_H
#define STOKE_FOLDED_INPUT_H

#include <stddef.h>
#include "profile.h"

/* Twice async-profiler's default stack depth, 16 times perf's. */
#define STOKE_MAX_FOLDED_DEPTH 4096

/* 1 when path is a regular file that is neither a stoke trace (which
 * begins with STOKE_MAGIC) nor a V8 heap snapshot: it is read as folded
 * stacks. */
int stoke_is_folded_file(const char *path);

/* Reads the folded stacks of path into a new profile. Returns NULL with a
 * message in err ("FILE:LINE: what is wrong, what to do", and how many
 * other lines are bad) when the file cannot be read, a line is malformed
 * or it holds no stack. Stacks cut to STOKE_MAX_FOLDED_DEPTH are warned
 * about on stderr. */
struct stoke_profile *stoke_read_folded(const char *path, char *err, size_t errlen);

#endif

/*
 * warn.h - the one way the offline side tells the user about a problem that
 * still leaves data: a line on stderr, "stoke: <trace>: <message>".
 *
 * Never: passes control characters through (trace contents may be damaged
 * or hostile; they are shown as '?').
 */
#ifndef STOKE_WARN_H
#define STOKE_WARN_H

#include <stddef.h>
#include <stdio.h>

void stoke_warn(const char *trace_path, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Writes at most max bytes of s to out with control characters as '?': for
 * names from traces and binaries on a terminal, where an escape sequence
 * or a newline in a name must not reach the user's terminal as such. */
void stoke_put_printable(FILE *out, const char *s, size_t max);

#endif

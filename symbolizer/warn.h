/*
 * warn.h - the one way the offline side tells the user about a problem that
 * still leaves data: a line on stderr, "stoke: <trace>: <message>".
 *
 * Never: passes control characters through (trace contents may be damaged
 * or hostile; they are shown as '?').
 */
#ifndef STOKE_WARN_H
#define STOKE_WARN_H

void stoke_warn(const char *trace_path, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif

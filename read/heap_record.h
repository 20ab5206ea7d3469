/*
 * heap_record.h - what a heap snapshot's HEAP record says, and the value
 * types it gives a profile. Shared by the loader (trace_load.c) and the
 * peek at a trace's kind (peek.c).
 *
 * Never: reads files or adds rows.
 */
#ifndef STOKE_HEAP_RECORD_H
#define STOKE_HEAP_RECORD_H

#include "fields.h"
#include "profile.h"

/* Reads the fields of a HEAP record into s. Returns 0, or -1 when the
 * record is damaged (s is then unspecified). */
int stoke_decode_heap(struct stoke_fields *f, struct stoke_heap_summary *s);

/* Makes p a heap profile: kind HEAP and the four heap value types, in the
 * order of enum stoke_heap_value. */
void stoke_make_heap_profile(struct stoke_profile *p);

#endif

/*
 * code_sites.h - the sites of a profile read from traces: its stacks as
 * they were in the code, each frame with the address sampled and the
 * source line it was at (struct stoke_site_table in profile.h), and the
 * binaries those addresses are in. Rows say which functions were hot;
 * sites say which lines and instructions: folded --lines, pprof's
 * locations and the report's hot lines read them.
 *
 * A site's values add up with the other sites of its stack to the stack's
 * row: what changes the rows of a profile with sites keeps them so
 * (sample_times.h, the only one: a heap timeline, whose rows
 * heap_timeline.h rewrites, is read without sites, and every other
 * transformation makes a new profile, which has none).
 *
 * Never: reads files or names code (the trace reader gives positions).
 */
#ifndef STOKE_CODE_SITES_H
#define STOKE_CODE_SITES_H

#include <stddef.h>
#include <stdint.h>
#include "profile.h"

/* The index of the site of stack with positions[0 .. stack_len[stack])
 * (file strings need not be interned), created with zero values if new. */
uint32_t stoke_site(struct stoke_profile *p, uint32_t stack,
                    const struct stoke_position *positions);

/* Adds nvalues values to the site's. */
void stoke_site_add(struct stoke_profile *p, uint32_t site, const int64_t *values);

/* The positions of the site's frames (as many as its stack has), as
 * indices into sites.positions: equal positions have equal indices. */
const uint32_t *stoke_site_position_ids(const struct stoke_profile *p, uint32_t site);

/* Where frame i of the site was. */
const struct stoke_position *stoke_site_position(const struct stoke_profile *p, uint32_t site,
                                                 uint32_t i);

/* Whether two positions whose files are interned in one profile are equal. */
int stoke_same_position(const struct stoke_position *a, const struct stoke_position *b);

/* The site's values. */
const int64_t *stoke_site_values(const struct stoke_profile *p, uint32_t site);

/* The number (index + 1) of the code module m (strings need not be
 * interned), added if new: the same path, build-id and start are one. */
uint32_t stoke_code_module(struct stoke_profile *p, const struct stoke_code_module *m);

/* Sets every site's values to zero (their rows are being recounted). */
void stoke_sites_clear_values(struct stoke_profile *p);

void stoke_sites_free(struct stoke_site_table *t);

#endif

/*
 * line_table.h - which lines a tab's functions were at when sampled, from
 * its profile's sites (code_sites.h): for each frame and each line it was
 * at (the line sampled in a leaf, the line of the call in a caller), the
 * values of the samples there, as self (the frame was the leaf) and total
 * (each site counted once per frame and line, however often the frame
 * recurses). The report's hot lines of a function are these, added up
 * over its frames.
 *
 * Never: reads files or writes the report (report_data.c does).
 */
#ifndef STOKE_LINE_TABLE_H
#define STOKE_LINE_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include "profile.h"

struct line_entry {
    uint32_t frame;    /* index into the profile's frames */
    const char *file;  /* interned in the profile */
    uint32_t line;     /* >= 1 */
    int64_t self[STOKE_MAX_VALUES];
    int64_t total[STOKE_MAX_VALUES];
    uint32_t last_site; /* the site last counted in total, + 1 */
};

struct line_table {
    struct line_entry *entries;
    size_t n, cap;
    size_t nvalues;
    uint32_t *slots; /* open addressing: index + 1, 0 = empty */
    size_t nslots;   /* a power of two */
};

/* The lines of p's sites (empty for a profile without sites, or whose
 * frames know no lines). Returns 0, or -1 when out of memory. */
int line_table_build(struct line_table *t, const struct stoke_profile *p);
void line_table_free(struct line_table *t);

#endif

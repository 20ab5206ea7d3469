/*
 * line_table.h - which lines a tab's functions were at when sampled, from
 * its profile's sites (code_sites.h): for each function (by name, as the
 * report's sandwich and table count one) and each line it was at (the
 * line sampled in a leaf, the line of the call in a caller), the values of
 * the samples there, as self (it was the leaf) and total (each site
 * counted once per function and line, however often the function recurses
 * or appears as several frames: inlined into itself, a clone).
 *
 * Never: reads files or writes the report (report_data.c does).
 */
#ifndef STOKE_LINE_TABLE_H
#define STOKE_LINE_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include "index_table.h"
#include "profile.h"

struct line_entry {
    uint32_t frame;    /* index into the profile's frames: the first of the name seen */
    const char *file;  /* interned in the profile */
    uint32_t line;     /* >= 1 */
    int64_t self[STOKE_MAX_VALUES];
    int64_t total[STOKE_MAX_VALUES];
    uint32_t last_site; /* the site last counted in total, + 1 */
    uint8_t own_names;  /* 1: some of it was named from its binary's own file
                         * (struct stoke_code_module), so its source may be read */
};

struct line_table {
    struct line_entry *entries;
    size_t n, cap;
    size_t nvalues;
    struct stoke_index_table index; /* over (name, file, line) */
};

/* The lines of p's sites with a value (empty for a profile without sites,
 * or whose frames know no lines). */
void line_table_build(struct line_table *t, const struct stoke_profile *p);
void line_table_free(struct line_table *t);

#endif

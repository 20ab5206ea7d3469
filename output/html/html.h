/*
 * html.h - writes a profile as one self-contained HTML flame graph: the
 * viewer's code and styles (embedded into stoke at build time from viewer/)
 * and the profile data, with no network request at load.
 */
#ifndef STOKE_HTML_H
#define STOKE_HTML_H

#include <stdio.h>
#include "profile.h"

/* Returns 0, or -1 on a write error (errno set). */
int stoke_write_html(FILE *out, const struct stoke_profile *p, const char *title);

/* One view of a report with several (a CPU profile and heap snapshots of
 * one run, one tab per process, ...). */
struct stoke_html_tab {
    const char *name;                    /* the tab's label, e.g. "CPU", "heap 2 (exit)" */
    const struct stoke_profile *profile;
    int differential;                    /* 1: values 0 and 1 are before and after */
};

/* Writes several profiles into one HTML file, one tab each (a tab bar shows
 * when there are two or more); tabs share one string pool and frame table.
 * A differential tab whose profile has fewer than two values is written as
 * an ordinary one. Returns 0, or -1 on a write error or when out of memory
 * (errno set; EINVAL for no tab or a tab without a profile). */
int stoke_write_html_tabs(FILE *out, const struct stoke_html_tab *tabs, size_t ntabs,
                          const char *title);

/* Text shown as it is under the flame graph, such as the output of the load
 * command a server was profiled under. */
struct stoke_html_note {
    const char *heading;
    const char *text;
};

/* stoke_write_html_tabs with a note (NULL: none). */
int stoke_write_html_report(FILE *out, const struct stoke_html_tab *tabs, size_t ntabs,
                            const char *title, const struct stoke_html_note *note);

#endif

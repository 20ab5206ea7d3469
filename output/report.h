/*
 * report.h - what every output writer is given: the profiles of one report
 * (a tab each), the value to write where a format holds one value, a title
 * and a note; and the one signature of every writer (stoke_writer), which
 * the registry (registry.h) lists them by.
 *
 * A format that holds several profiles writes every tab (HTML: one tab
 * each; folded stacks: one after the other); the others write the first.
 *
 * Never: names a format or a file.
 */
#ifndef STOKE_REPORT_H
#define STOKE_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "profile.h"

/* The title of a report that has none. */
#define STOKE_DEFAULT_TITLE "stoke profile"

/* One profile of a report (a CPU profile and heap snapshots of one run,
 * one tab per process, ...). */
struct stoke_report_tab {
    const char *name;                    /* its label, e.g. "CPU", "heap 2 (exit)" */
    const struct stoke_profile *profile;
    int differential;                    /* 1: values 0 and 1 are before and after */
};

/* Text shown as it is under the flame graph, such as the output of the load
 * command a server was profiled under. */
struct stoke_report_note {
    const char *heading;
    const char *text;
};

/* A moment of the recording a timeline marks: the load starting, a heap
 * snapshot taken. */
struct stoke_report_mark {
    const char *name;
    uint64_t realtime_ns; /* ns since the Unix epoch */
};

struct stoke_report {
    const struct stoke_report_tab *tabs;
    size_t ntabs;
    size_t value_index;                   /* the value written by a format of one value */
    const char *title;                    /* NULL or "": STOKE_DEFAULT_TITLE */
    const struct stoke_report_note *note; /* NULL: none */
    const struct stoke_report_mark *marks; /* in time order; NULL: none */
    size_t nmarks;
    int lines;                            /* folded stacks: each frame "name file:line" */
};

/* Writes r to out. Returns 0, or -1 on a write error, on a report the
 * format cannot hold (errno says which) or when out of memory. */
typedef int stoke_writer(FILE *out, const struct stoke_report *r);

/* r's title, or STOKE_DEFAULT_TITLE when it has none. */
static inline const char *stoke_report_title(const struct stoke_report *r)
{
    return r->title && *r->title ? r->title : STOKE_DEFAULT_TITLE;
}

/* The report of p alone, value value_index, in one tab named "profile":
 * tab is filled in, and must outlive the report. */
static inline struct stoke_report stoke_report_of(const struct stoke_profile *p,
                                                  size_t value_index,
                                                  struct stoke_report_tab *tab)
{
    *tab = (struct stoke_report_tab){"profile", p, 0};
    return (struct stoke_report){.tabs = tab, .ntabs = 1, .value_index = value_index};
}

#endif

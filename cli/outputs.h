/*
 * outputs.h - writes a profile to the report files a user asked for.
 */
#ifndef STOKE_CLI_OUTPUTS_H
#define STOKE_CLI_OUTPUTS_H

#include <stddef.h>

#include "html.h"
#include "output_format.h"
#include "profile.h"

#define REPORT_FILE_NAME "flamegraph.html"

#define DIFF_FILE_NAME "diff.html"

/* The report file name that belongs next to an input: inside it when it is
 * a directory, beside it when it is a file. */
void report_path_for(const char *input, const char *name, char *path, size_t len);

/* Each writes to path and returns 0, or -1 with err set (a file that could
 * not be written whole is removed). */

/* The HTML flame graph of one profile. */
int write_html_file(const struct stoke_profile *p, const char *path, char *err, size_t errlen);

/* One HTML report of several profiles, one tab each; title NULL: named
 * after the first tab's processes; note NULL: none. */
int write_html_tabs_file(const struct stoke_html_tab *tabs, size_t ntabs, const char *title,
                         const struct stoke_html_note *note, const char *path, char *err,
                         size_t errlen);

/* Value value_index of p in format (enum output_format); path NULL:
 * standard output. */
int write_format_file(int format, const struct stoke_profile *p, size_t value_index,
                      const char *path, char *err, size_t errlen);

/* Differential folded stacks (before and after) of stoke_profile_diffs
 * diffs[0..n), one after the other; path NULL: standard output. */
int write_folded_diff_file(const struct stoke_profile *const *diffs, size_t n, const char *path,
                           char *err, size_t errlen);

#endif

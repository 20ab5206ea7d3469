/*
 * report_files.h - test helpers: write a report as an HTML file, or one
 * value of a profile as a file of folded stacks, saying on stderr which
 * file failed. Shared by the report writers of tests/viewer.
 * Never: part of stoke itself.
 */
#ifndef STOKE_VIEWER_TESTS_REPORT_FILES_H
#define STOKE_VIEWER_TESTS_REPORT_FILES_H

#include <stddef.h>
#include "report.h"
#include "profile.h"

/* Each returns 0, or -1 when the file cannot be written. */
int write_html_file(const char *path, const struct stoke_report_tab *tabs, size_t ntabs,
                    const char *title);
int write_report_file(const char *path, const struct stoke_report *r); /* HTML, marks and all */
int write_folded_file(const char *path, const struct stoke_profile *p, size_t value);

#endif

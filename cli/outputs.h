/*
 * outputs.h - writes a report into the file a user asked for, in any
 * format of output/'s registry.
 */
#ifndef STOKE_CLI_OUTPUTS_H
#define STOKE_CLI_OUTPUTS_H

#include <stddef.h>

#include "registry.h"

#define DIFF_FILE_NAME "diff.html"

/* The report file name that belongs next to an input: inside it when it is
 * a directory, beside it when it is a file. */
void report_path_for(const char *input, const char *name, char *path, size_t len);

/* Writes r in format (enum stoke_output) to path, or to standard output
 * when path is NULL; a report without a title is named after the first
 * tab's processes. Returns 0, or -1 with err set (a file that could not be
 * written whole is removed). */
int write_report_file(int format, const struct stoke_report *r, const char *path, char *err,
                      size_t errlen);

/* The same for value value_index of p alone (stoke_report_of). */
int write_profile_file(int format, const struct stoke_profile *p, size_t value_index,
                       const char *path, char *err, size_t errlen);

#endif

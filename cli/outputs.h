/*
 * outputs.h - writes a profile to the report files a user asked for.
 */
#ifndef STOKE_CLI_OUTPUTS_H
#define STOKE_CLI_OUTPUTS_H

#include <stddef.h>

#include "profile.h"

#define REPORT_FILE_NAME "flamegraph.html"

/* The report that belongs next to an input: inside it when it is a
 * directory, beside it when it is a file. */
void report_path_for(const char *input, char *path, size_t len);

/* Writes the HTML flame graph to path. Returns 0, or -1 with err set. */
int write_html_file(const struct stoke_profile *p, const char *path, char *err, size_t errlen);

/* Writes folded stacks to path, or to stdout when path is NULL. Returns 0,
 * or -1 with err set. */
int write_folded_file(const struct stoke_profile *p, const char *path, char *err, size_t errlen);

#endif

/*
 * output_dir.h - the directory a recording writes into.
 */
#ifndef STOKE_CLI_OUTPUT_DIR_H
#define STOKE_CLI_OUTPUT_DIR_H

#include <stddef.h>
#include <sys/types.h>

#include "output_files.h"

/* The default output directory of the recording of process pid. */
void default_output_dir(char *dir, size_t len, pid_t pid);

/* Creates dir and its parents as needed, checks that it is the user's own
 * (or root's) and writable, and removes the files an earlier recording
 * into it wrote (its manifest says which). Then lists, in earlier, the
 * files of stoke's kinds that stay: they are not the new recording's.
 * Returns 0, or -1 with a one-line message in err (naming dir and what to
 * do). */
int prepare_output_dir(const char *dir, struct output_files *earlier, char *err,
                       size_t errlen);

#endif

/*
 * report_file.h - creates the files stoke writes for its user (reports in
 * every format): never through a symbolic link, readable by the user only
 * (mode 0600), and appearing whole or not at all.
 *
 * A report goes to a new file beside its path (created with O_EXCL, mode
 * 0600), renamed over the path once complete: an earlier report there is
 * replaced, never written into, and rename replaces whatever name is at the
 * path rather than following it. A symbolic link already at the path is
 * refused with a message (one planted in a shared directory would otherwise
 * aim the report at another file); a directory too. A device or FIFO
 * (-o /dev/null) is written in place.
 */
#ifndef STOKE_CLI_REPORT_FILE_H
#define STOKE_CLI_REPORT_FILE_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

struct report_file {
    FILE *out;
    const char *path;
    char temporary[PATH_MAX + 16]; /* "" when writing in place */
};

/* Opens path for a report. Returns 0, or -1 with err set (naming the path
 * and what to do). */
int report_file_open(struct report_file *f, const char *path, char *err, size_t errlen);

/* Closes the report: with failed == 0 and everything written, it takes its
 * place at the path; otherwise it is removed. Returns 0, or -1 with err set
 * (errno of a failed write taken when failed is set). */
int report_file_close(struct report_file *f, int failed, char *err, size_t errlen);

#endif

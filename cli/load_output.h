/*
 * load_output.h - the load command's output kept in the output directory
 * (load.txt), so that `stoke report DIR` puts it in the report too, on any
 * machine the directory is copied to.
 */
#ifndef STOKE_CLI_LOAD_OUTPUT_H
#define STOKE_CLI_LOAD_OUTPUT_H

#include <stddef.h>

#define LOAD_OUTPUT_FILE "load.txt"

/* Writes text (len bytes, and a line saying how many more were dropped) to
 * dir/load.txt. Returns 0, or -1 after saying why on stderr. */
int load_output_save(const char *dir, const char *text, size_t len, size_t dropped);

/* The text of dir/load.txt (malloc'ed), or NULL when dir has none. */
char *load_output_read(const char *dir);

#endif

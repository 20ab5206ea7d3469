/*
 * output_format.h - the report format a user asks for, with --format or by
 * the -o file's extension, among the formats of output/'s registry.
 */
#ifndef STOKE_CLI_OUTPUT_FORMAT_H
#define STOKE_CLI_OUTPUT_FORMAT_H

#include "registry.h"

#define FORMAT_UNSET -1

/* --format of `stoke command`: 0 and *format set (enum stoke_output), or -1
 * after a one-line error naming the choices. */
int parse_format_option(const char *command, const char *text, int *format);

/* The format asked for: --format (FORMAT_UNSET: none given), else the
 * output's extension, else HTML. */
int chosen_format(int format_option, const char *output);

#endif

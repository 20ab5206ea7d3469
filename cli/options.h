/*
 * options.h - what the subcommands share in reading their options.
 */
#ifndef STOKE_CLI_OPTIONS_H
#define STOKE_CLI_OPTIONS_H

/* After getopt_long (with opterr = 0 and a ':' after any '+' at the start of
 * its option string) returned '?' or ':', prints one line naming the option
 * at fault. */
void report_bad_option(const char *command, int getopt_result, char **argv);

/* -o/--output given as an empty string: a one-line error, -1. Else 0. */
int check_output_option(const char *command, const char *output);

#endif

/*
 * options.c - the one-line messages for options getopt_long refused, so
 * every subcommand words them alike. Never exits: callers return status 2.
 */
#include "options.h"

#include <getopt.h>
#include <stdio.h>

void report_bad_option(const char *command, int getopt_result, char **argv)
{
    const char *option = argv[optind - 1];
    if (getopt_result == ':')
        fprintf(stderr, "stoke %s: option '%s' needs a value; see stoke %s --help\n", command,
                option, command);
    else if (optopt && option[0] == '-' && option[1] != '-')
        fprintf(stderr, "stoke %s: unknown option '-%c'; see stoke %s --help\n", command, optopt,
                command);
    else
        fprintf(stderr, "stoke %s: unknown option '%s'; see stoke %s --help\n", command, option,
                command);
}

int check_output_option(const char *command, const char *output)
{
    if (!output || *output)
        return 0;
    fprintf(stderr, "stoke %s: -o/--output needs a file name\n", command);
    return -1;
}

/*
 * output_format.c - chooses a report format; see output_format.h. Never
 * names a format itself: the registry does.
 */
#include "output_format.h"

#include <stdio.h>

/* "html, folded, ... or cpuprofile": every format's name. */
static void print_choices(FILE *out)
{
    for (int i = 0; i < STOKE_NOUTPUTS; i++)
        fprintf(out, "%s%s", i == 0 ? "" : i == STOKE_NOUTPUTS - 1 ? " or " : ", ",
                stoke_output_formats[i].name);
}

int parse_format_option(const char *command, const char *text, int *format)
{
    int named = stoke_output_named(text);
    if (named >= 0) {
        *format = named;
        return 0;
    }
    fprintf(stderr, "stoke %s: unknown format '%s' for --format; the formats are ", command,
            text);
    print_choices(stderr);
    fputc('\n', stderr);
    return -1;
}

int chosen_format(int format_option, const char *output)
{
    if (format_option != FORMAT_UNSET)
        return format_option;
    int by_name = stoke_output_of_path(output);
    return by_name >= 0 ? by_name : STOKE_OUTPUT_HTML;
}

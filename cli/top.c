/*
 * top.c - `stoke top PATH [--threads]`: prints the table of the ten
 * hottest functions (self and total) of the CPU traces at PATH, a trace or
 * a directory of them, as `stoke record` prints it after a run. Never
 * writes a file.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>

#include "commands.h"
#include "options.h"
#include "summary.h"
#include "traces.h"

void top_usage(FILE *out)
{
    fprintf(out, "usage: stoke top PATH [options]\n"
                 "\n"
                 "Prints the ten hottest functions of the CPU traces at PATH (one .stoke trace\n"
                 "or the output directory of stoke record): the share of samples in each\n"
                 "function itself (self) and in it and what it calls (total).\n"
                 "\n"
                 "options:\n"
                 "  -h, --help          show this help\n");
}

/* Returns -1 to go on, or the exit status to end with. */
static int parse_options(int argc, char **argv, const char **input)
{
    static const struct option longopts[] = {
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (c == 'h') {
            top_usage(stdout);
            return EXIT_OK;
        }
        report_bad_option("top", c, argv);
        return EXIT_USAGE;
    }
    if (optind != argc - 1) {
        fprintf(stderr, "stoke top: give one trace or directory; usage: stoke top PATH\n");
        return EXIT_USAGE;
    }
    *input = argv[optind];
    return -1;
}

static int print_top(const struct recording *r, const char *input)
{
    if (!r->ncpu) {
        fprintf(stderr, "stoke top: '%s' holds no CPU trace (only heap snapshots); "
                        "see them with stoke report %s\n", input, input);
        return EXIT_RUNTIME_FAILURE;
    }
    char err[PATH_MAX + 256];
    struct stoke_load_options load = {0};
    struct stoke_profile *p = load_cpu_profile(r, &load, err, sizeof err);
    if (!p) {
        fprintf(stderr, "stoke: %s\n", err);
        return EXIT_RUNTIME_FAILURE;
    }
    print_hottest(stdout, p);
    stoke_profile_free(p);
    return EXIT_OK;
}

int top_main(int argc, char **argv)
{
    const char *input;
    int status = parse_options(argc, argv, &input);
    if (status >= 0)
        return status;
    struct recording r;
    char err[PATH_MAX + 256];
    int count = find_traces(input, &r, err, sizeof err);
    if (count < 0)
        fprintf(stderr, "stoke: %s\n", err);
    else if (count == 0)
        fprintf(stderr, "stoke top: no .stoke traces in '%s'\n", input);
    status = count > 0 ? print_top(&r, input) : EXIT_RUNTIME_FAILURE;
    free_recording(&r);
    return status;
}

/*
 * top_command.c - `stoke top PATH`: prints the table of the ten hottest functions
 * (self and total) of the CPU traces at PATH, a trace or a directory of
 * them, as `stoke record` prints it after a run, and the ten constructors
 * that retain the most of each JavaScript heap snapshot there. Never
 * writes a file.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "alloc.h"
#include "commands.h"
#include "js_heap_terminal.h"
#include "options.h"
#include "summary.h"
#include "traces.h"

void top_usage(FILE *out)
{
    fprintf(out, "usage: stoke top PATH [options]\n"
                 "\n"
                 "Prints the ten hottest functions of the CPU traces at PATH (one .stoke trace\n"
                 "or the output directory of stoke record): the share of samples in each\n"
                 "function itself (self) and in it and what it calls (total). For a\n"
                 "JavaScript heap snapshot (.heapsnapshot), or the last one of each process in\n"
                 "a directory: the ten constructors whose objects retain the most, with their\n"
                 "shallow bytes and object counts, as DevTools' Summary shows them.\n"
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

#define CONSTRUCTORS_SHOWN 10

static int print_hottest_functions(const struct recording *r)
{
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

static int print_biggest_constructors(const struct recording *r)
{
    const char **last = stoke_xmalloc((r->nsnapshots + r->njs_alone) * sizeof *last);
    size_t n = last_js_snapshots(r, last);
    int status = EXIT_OK;
    for (size_t i = 0; i < n; i++) {
        char err[PATH_MAX + 256];
        struct js_snapshot_summary s = {0};
        if (js_snapshot_read(last[i], NULL, &s, err, sizeof err) == 0)
            print_js_constructors(stdout, last[i], &s, CONSTRUCTORS_SHOWN);
        else {
            fprintf(stderr, "stoke: %s\n", err);
            status = EXIT_RUNTIME_FAILURE;
        }
        js_snapshot_summary_free(&s);
    }
    free(last);
    return status;
}

static int print_top(const struct recording *r, const char *input)
{
    if (!r->ncpu && !has_js_snapshots(r)) {
        fprintf(stderr, "stoke top: '%s' holds no CPU trace (only heap snapshots); "
                        "see them with stoke report %s\n", input, input);
        return EXIT_RUNTIME_FAILURE;
    }
    int status = r->ncpu ? print_hottest_functions(r) : EXIT_OK;
    if (has_js_snapshots(r) && print_biggest_constructors(r) != EXIT_OK)
        status = EXIT_RUNTIME_FAILURE;
    return status;
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

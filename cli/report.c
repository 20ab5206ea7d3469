/*
 * report.c - `stoke report PATH [-o OUT] [--folded] [--threads]`: turns a
 * trace, or a directory of traces, into an HTML flame graph (by default
 * next to PATH) or folded stacks (by default on stdout), offline. Never
 * reads a trace or formats a report itself: it wires the loader to a writer.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>

#include "commands.h"
#include "options.h"
#include "outputs.h"
#include "summary.h"
#include "traces.h"

struct report_options {
    const char *input;
    const char *output; /* NULL: next to the input (HTML) or stdout (folded) */
    int folded;
    int split_threads;
};

void report_usage(FILE *out)
{
    fprintf(out,
            "usage: stoke report PATH [options]\n"
            "\n"
            "Makes a report from the traces of a recording, offline. PATH is one .stoke\n"
            "trace or a directory of them (the output directory of stoke record).\n"
            "\n"
            "options:\n"
            "  -o, --output FILE   where the report goes (default: flamegraph.html next to\n"
            "                      PATH; with --folded, standard output)\n"
            "      --folded        write folded stacks (flamegraph.pl's format), not HTML\n"
            "      --threads       give each thread its own frame\n"
            "  -h, --help          show this help\n");
}

enum { OPT_FOLDED = 256, OPT_THREADS };

/* Returns -1 to go on, or the exit status to end with. */
static int parse_options(int argc, char **argv, struct report_options *opt)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"folded", no_argument, NULL, OPT_FOLDED},
        {"threads", no_argument, NULL, OPT_THREADS},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    *opt = (struct report_options){0};
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'o':
            opt->output = optarg;
            break;
        case OPT_FOLDED:
            opt->folded = 1;
            break;
        case OPT_THREADS:
            opt->split_threads = 1;
            break;
        case 'h':
            report_usage(stdout);
            return EXIT_OK;
        default:
            report_bad_option("report", c, argv);
            return EXIT_USAGE;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "stoke report: give one trace or directory; "
                        "usage: stoke report PATH [options]\n");
        return EXIT_USAGE;
    }
    if (opt->output && !*opt->output) {
        fprintf(stderr, "stoke report: -o/--output needs a file name\n");
        return EXIT_USAGE;
    }
    opt->input = argv[optind];
    return -1;
}

static int write_html_report(const struct stoke_profile *profile, const struct report_options *opt)
{
    char path[PATH_MAX], err[PATH_MAX + 256];
    if (opt->output)
        snprintf(path, sizeof path, "%s", opt->output);
    else
        report_path_for(opt->input, path, sizeof path);
    if (write_html_file(profile, path, err, sizeof err)) {
        fprintf(stderr, "stoke: %s\n", err);
        return EXIT_RUNTIME_FAILURE;
    }
    fprintf(stderr, "stoke: report written to %s\n", path);
    struct run_measures from_traces = {0, 0};
    print_summary(stderr, profile, &from_traces);
    return EXIT_OK;
}

static int write_folded_report(const struct stoke_profile *profile,
                               const struct report_options *opt)
{
    char err[PATH_MAX + 256];
    if (write_folded_file(profile, opt->output, err, sizeof err)) {
        fprintf(stderr, "stoke: %s\n", err);
        return EXIT_RUNTIME_FAILURE;
    }
    return EXIT_OK;
}

int report_main(int argc, char **argv)
{
    struct report_options opt;
    int status = parse_options(argc, argv, &opt);
    if (status >= 0)
        return status;

    struct stoke_profile *profile = stoke_profile_new();
    struct stoke_load_options load = {.split_threads = opt.split_threads};
    char err[PATH_MAX + 256];
    int count = load_traces(profile, opt.input, &load, err, sizeof err);
    if (count < 0)
        fprintf(stderr, "stoke: %s\n", err);
    else if (count == 0)
        fprintf(stderr, "stoke: no .stoke traces in '%s'; record some with: "
                        "stoke record -o %s -- COMMAND\n", opt.input, opt.input);
    if (count <= 0)
        status = EXIT_RUNTIME_FAILURE;
    else if (opt.folded)
        status = write_folded_report(profile, &opt);
    else
        status = write_html_report(profile, &opt);
    stoke_profile_free(profile);
    return status;
}

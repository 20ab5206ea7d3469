/*
 * report.c - `stoke report PATH [-o OUT] [--folded] [--measure M]
 * [--threads]`: turns a trace, a heap snapshot, or a directory of them into
 * an HTML flame graph (by default next to PATH; tabs when there are heap
 * snapshots) or folded stacks (by default on stdout), offline. Never reads
 * a trace or formats a report itself: it wires the loader to a writer.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "load_output.h"
#include "measure.h"
#include "options.h"
#include "outputs.h"
#include "recording_report.h"
#include "summary.h"
#include "text_profile.h"
#include "traces.h"

struct report_options {
    const char *input;
    const char *output; /* NULL: next to the input (HTML) or stdout (folded) */
    int folded;
    int measure;        /* enum stoke_heap_value, or MEASURE_UNSET */
    int split_threads;
};

void report_usage(FILE *out)
{
    fprintf(out,
            "usage: stoke report PATH [options]\n"
            "\n"
            "Makes a report from the traces of a recording, offline. PATH is one .stoke\n"
            "trace or heap snapshot, or a directory of them (the output directory of\n"
            "stoke record). CPU traces and heap snapshots get one tab each in the report.\n"
            "\n"
            "options:\n"
            "  -o, --output FILE   where the report goes (default: flamegraph.html next to\n"
            "                      PATH; with --folded, standard output)\n"
            "      --folded        write folded stacks (flamegraph.pl's format), not HTML:\n"
            "                      the CPU profile, or with --measure the last heap snapshot\n"
            "      --measure M     the heap value of text outputs: live-bytes (default for\n"
            "                      snapshots), live-objects, alloc-bytes, alloc-objects\n"
            "      --threads       give each thread its own frame (CPU traces)\n"
            "  -h, --help          show this help\n");
}

enum { OPT_FOLDED = 256, OPT_MEASURE, OPT_THREADS };

/* Returns -1 to go on, or the exit status to end with. */
static int parse_options(int argc, char **argv, struct report_options *opt)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"folded", no_argument, NULL, OPT_FOLDED},
        {"measure", required_argument, NULL, OPT_MEASURE},
        {"threads", no_argument, NULL, OPT_THREADS},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    *opt = (struct report_options){.measure = MEASURE_UNSET};
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
        case OPT_MEASURE:
            if (parse_measure_option("report", optarg, &opt->measure))
                return EXIT_USAGE;
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
    if (check_output_option("report", opt->output))
        return EXIT_USAGE;
    opt->input = argv[optind];
    return -1;
}

static int write_html_report(const struct recording *r, const struct report_options *opt)
{
    char path[PATH_MAX];
    if (opt->output)
        snprintf(path, sizeof path, "%s", opt->output);
    else
        report_path_for(opt->input, REPORT_FILE_NAME, path, sizeof path);
    struct stoke_load_options load = {.split_threads = opt->split_threads};
    struct run_measures from_traces = {0, 0};
    char *load_output = load_output_read(opt->input);
    int rc = report_recording(r, &load, opt->measure, load_output, path, &from_traces);
    free(load_output);
    return rc ? EXIT_RUNTIME_FAILURE : EXIT_OK;
}

static int write_folded_report(const struct recording *r, const struct report_options *opt)
{
    char err[PATH_MAX + 256];
    struct stoke_load_options load = {.split_threads = opt->split_threads};
    struct text_profile text = {0};
    int failed = load_text_profile(opt->input, r, opt->measure, &load, &text, err, sizeof err) ||
                 write_folded_file(text.profile, text.value_index, opt->output, err, sizeof err);
    if (failed)
        fprintf(stderr, "stoke: %s\n", err);
    stoke_profile_free(text.profile);
    return failed ? EXIT_RUNTIME_FAILURE : EXIT_OK;
}

/* A heap measure needs a heap snapshot to measure. */
static int measure_applies(const struct recording *r, const struct report_options *opt)
{
    if (opt->measure == MEASURE_UNSET || r->nsnapshots)
        return 1;
    fprintf(stderr,
            "stoke: '%s' holds no heap snapshot; --measure %s needs one (record with "
            "stoke record --heap)\n",
            opt->input, measure_option(opt->measure));
    return 0;
}

int report_main(int argc, char **argv)
{
    struct report_options opt;
    int status = parse_options(argc, argv, &opt);
    if (status >= 0)
        return status;

    struct recording r;
    char err[PATH_MAX + 256];
    int count = find_traces(opt.input, &r, err, sizeof err);
    if (count < 0)
        fprintf(stderr, "stoke: %s\n", err);
    else if (count == 0)
        fprintf(stderr, "stoke: no .stoke traces in '%s'; record some with: "
                        "stoke record -o %s -- COMMAND\n", opt.input, opt.input);
    if (count <= 0 || !measure_applies(&r, &opt))
        status = EXIT_RUNTIME_FAILURE;
    else if (opt.folded)
        status = write_folded_report(&r, &opt);
    else
        status = write_html_report(&r, &opt);
    free_recording(&r);
    return status;
}

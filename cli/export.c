/*
 * export.c - a recording's traces into the format asked for; see export.h.
 * Owns the default output paths and the refusals that apply to every
 * format (nothing to write, a format that cannot hold the profile). Never
 * formats profile data itself: the writers of output/'s registry do.
 */
#include "export.h"

#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "cpuprofile.h"
#include "heap_growth.h"
#include "load_output.h"
#include "load_marks.h"
#include "measure.h"
#include "options.h"
#include "output_format.h"
#include "outputs.h"
#include "recording_report.h"
#include "text_profile.h"

enum { OPT_FOLDED = 256, OPT_FORMAT, OPT_MEASURE, OPT_THREADS, OPT_FROM, OPT_UNTIL, OPT_LINES };

/* Reads one option; returns 0, or the exit status to end with. */
static int read_option(const char *command, int c, char **argv, void (*usage)(FILE *),
                       struct export_options *opt, int *format)
{
    switch (c) {
    case 'o':
        opt->output = optarg;
        return 0;
    case OPT_FOLDED:
        *format = STOKE_OUTPUT_FOLDED;
        return 0;
    case OPT_FORMAT:
        return parse_format_option(command, optarg, format) ? EXIT_USAGE : 0;
    case OPT_MEASURE:
        return parse_measure_option(command, optarg, &opt->measure) ? EXIT_USAGE : 0;
    case OPT_THREADS:
        opt->split_threads = 1;
        return 0;
    case OPT_LINES:
        opt->lines = 1;
        return 0;
    case OPT_FROM:
        return parse_time_bound(command, "--from", optarg, &opt->window.from) ? EXIT_USAGE : 0;
    case OPT_UNTIL:
        return parse_time_bound(command, "--until", optarg, &opt->window.until) ? EXIT_USAGE : 0;
    case 'h':
        usage(stdout);
        return -1; /* help given: end with EXIT_OK */
    default:
        report_bad_option(command, c, argv);
        return EXIT_USAGE;
    }
}

int parse_export_options(const char *command, int argc, char **argv, void (*usage)(FILE *),
                         struct export_options *opt)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"folded", no_argument, NULL, OPT_FOLDED},
        {"format", required_argument, NULL, OPT_FORMAT},
        {"measure", required_argument, NULL, OPT_MEASURE},
        {"threads", no_argument, NULL, OPT_THREADS},
        {"lines", no_argument, NULL, OPT_LINES},
        {"from", required_argument, NULL, OPT_FROM},
        {"until", required_argument, NULL, OPT_UNTIL},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int format = FORMAT_UNSET, c;
    *opt = (struct export_options){.measure = MEASURE_UNSET};
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
        int status = read_option(command, c, argv, usage, opt, &format);
        if (status)
            return status < 0 ? EXIT_OK : status;
    }
    if (check_output_option(command, opt->output))
        return EXIT_USAGE;
    opt->format = chosen_format(format, opt->output);
    if (opt->lines && opt->format != STOKE_OUTPUT_FOLDED) {
        fprintf(stderr, "stoke %s: --lines is for folded stacks (--folded); the %s output "
                        "cannot take it (pprof and html hold each sample's lines always)\n",
                command, stoke_output_formats[opt->format].name);
        return EXIT_USAGE;
    }
    return -1;
}

static void output_path(const struct export_options *opt, char *path, size_t len)
{
    const char *name = stoke_output_formats[opt->format].file_name;
    if (opt->output)
        snprintf(path, len, "%s", opt->output);
    else if (opt->default_dir)
        snprintf(path, len, "%s/%s", opt->default_dir, name);
    else
        report_path_for(opt->input, name, path, len);
}

static int write_html_report(const struct recording *r, const struct export_options *opt)
{
    char path[PATH_MAX];
    output_path(opt, path, sizeof path);
    struct stoke_load_options load = {.split_threads = opt->split_threads};
    struct run_measures from_traces = {0};
    char *load_output = load_output_read(opt->input);
    struct load_marks marks;
    int marked = load_marks_read(opt->input, &marks) == 0;
    int rc = report_recording(r, &load, opt->measure, load_output, marked ? &marks : NULL, path,
                              &from_traces);
    free(load_output);
    return rc ? EXIT_RUNTIME_FAILURE : EXIT_OK;
}

/* A file of nothing would only puzzle the tool that opens it. */
static int check_has_values(const struct text_profile *text, const char *input, char *err,
                            size_t errlen)
{
    if (stoke_profile_total(text->profile, text->value_index) != 0)
        return 0;
    snprintf(err, errlen,
             text->profile->kind == STOKE_PROFILE_CPU
                 ? "'%s' holds no samples, so there is no profile to write; record a longer "
                   "run, or a busier one"
                 : "'%s' holds no allocations of that measure, so there is no profile to write",
             input);
    return -1;
}

static int check_format_fits(const struct text_profile *text, int format, char *err,
                             size_t errlen)
{
    if (format != STOKE_OUTPUT_CPUPROFILE)
        return 0;
    if (text->profile->kind != STOKE_PROFILE_CPU) {
        snprintf(err, errlen,
                 "a .cpuprofile holds CPU time, not heap snapshots; write these with --format "
                 "pprof, speedscope, html or folded");
        return -1;
    }
    int64_t samples = stoke_profile_total(text->profile, 0);
    if (samples <= STOKE_CPUPROFILE_MAX_SAMPLES)
        return 0;
    snprintf(err, errlen,
             "a .cpuprofile lists every sample, and this profile has %" PRId64 " (at most %d "
             "fit); write it with --format pprof or speedscope, which keep totals",
             samples, STOKE_CPUPROFILE_MAX_SAMPLES);
    return -1;
}

/* Writes the profile of text in opt's format to path (NULL: standard
 * output). */
static int write_text_profile(const struct text_profile *text, const struct export_options *opt,
                              const char *path, char *err, size_t errlen)
{
    struct stoke_report_tab tab;
    struct stoke_report report = stoke_report_of(text->profile, text->value_index, &tab);
    report.lines = opt->lines;
    return write_report_file(opt->format, &report, path, err, errlen);
}

static int write_profile_report(const struct recording *r, const struct export_options *opt)
{
    char err[PATH_MAX + 256], path[PATH_MAX];
    struct stoke_load_options load = {.split_threads = opt->split_threads};
    struct text_profile text = {0};
    const char *to = NULL; /* folded stacks: standard output by default */
    if (opt->output || stoke_output_formats[opt->format].file_name) {
        output_path(opt, path, sizeof path);
        to = path;
    }
    int failed =
        load_text_profile(opt->input, r, opt->measure, &load, &text, err, sizeof err) ||
        (opt->format != STOKE_OUTPUT_FOLDED &&
         (check_has_values(&text, opt->input, err, sizeof err) ||
          check_format_fits(&text, opt->format, err, sizeof err))) ||
        write_text_profile(&text, opt, to, err, sizeof err);
    if (failed)
        fprintf(stderr, "stoke: %s\n", err);
    else if (to && opt->format != STOKE_OUTPUT_FOLDED)
        fprintf(stderr, "stoke: wrote %s (%s)\n", to, stoke_output_formats[opt->format].name);
    stoke_profile_free(text.profile);
    return failed ? EXIT_RUNTIME_FAILURE : EXIT_OK;
}

/* A window with --measure live-bytes or live-objects in folded stacks: what
 * grew in the live heap during it, before and after as two columns. */
static int shows_growth(const struct export_options *opt)
{
    return time_window_given(&opt->window) && opt->format == STOKE_OUTPUT_FOLDED &&
           (opt->measure == STOKE_HEAP_LIVE_BYTES || opt->measure == STOKE_HEAP_LIVE_OBJECTS);
}

static int write_growth_report(const struct recording *r, const struct export_options *opt)
{
    char err[PATH_MAX + 256];
    struct stoke_profile *diff = load_heap_growth(r, measure_value_index(opt->measure), err,
                                                  sizeof err);
    const struct stoke_report_tab tab = {"heap: grew in the window", diff, 1};
    const struct stoke_report report = {.tabs = &tab, .ntabs = 1};
    int failed = !diff || write_report_file(STOKE_OUTPUT_FOLDED, &report, opt->output, err,
                                            sizeof err);
    if (failed)
        fprintf(stderr, "stoke: %s\n", err);
    stoke_profile_free(diff);
    return failed ? EXIT_RUNTIME_FAILURE : EXIT_OK;
}

/* A window (--from, --until) keeps a span of CPU samples: -1 after saying
 * why when r has none to keep. */
static int check_window_applies(const struct recording *r, const struct export_options *opt)
{
    const char *option = time_window_option(&opt->window);
    if (!r->ncpu)
        fprintf(stderr, "stoke: %s keeps a span of CPU samples, and %s holds no CPU trace "
                        "(heap snapshots are moments: report the one you want)\n",
                option, opt->input);
    else if (opt->measure != MEASURE_UNSET && opt->format != STOKE_OUTPUT_HTML &&
             !shows_growth(opt))
        fprintf(stderr, "stoke: %s with --measure %s: a window shows what grew in the live heap "
                        "(--measure live-bytes or live-objects, --format folded), or the CPU "
                        "samples in it (no --measure)\n",
                option, measure_option(opt->measure));
    else
        return 0;
    return -1;
}

int export_recording(const struct recording *r, const struct export_options *opt)
{
    struct recording windowed = *r;
    struct time_window window = opt->window;
    if (time_window_given(&window)) {
        if (check_window_applies(r, opt))
            return EXIT_RUNTIME_FAILURE;
        window.recording = opt->input;
        load_marks_read(opt->input, &window.marks);
        windowed.window = &window;
    }
    if (opt->format == STOKE_OUTPUT_HTML)
        return write_html_report(&windowed, opt);
    if (shows_growth(opt))
        return write_growth_report(&windowed, opt);
    return write_profile_report(&windowed, opt);
}

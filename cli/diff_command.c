/*
 * diff_command.c - `stoke diff A B [-o OUT] [--folded] [--measure M]
 * [--absolute | --normalised]`: compares two heap snapshots (or two CPU
 * traces, two recordings, or a recording and folded stacks) as a
 * differential flame graph or difffolded.pl's two-column folded stacks, and
 * prints the functions that changed most. CPU profiles compare as shares of
 * each side's total unless --absolute; heaps as recorded unless
 * --normalised. Snapshots with JavaScript halves (or two .heapsnapshot
 * files) compare the JavaScript heap too, in a tab and lines of its own.
 * Never compares a CPU profile with a heap one, and never builds or formats
 * the diff itself: the model's diffs (model/) and the writers do.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "alloc.h"
#include "commands.h"
#include "diff_summary.h"
#include "folded_input.h"
#include "js_heap_diff.h"
#include "js_heap_load.h"
#include "js_heap_terminal.h"
#include "measure.h"
#include "options.h"
#include "outputs.h"
#include "profile_diff.h"
#include "text_profile.h"
#include "traces.h"

#define LARGEST_CHANGES_SHOWN 5

struct diff_options {
    const char *before, *after;
    const char *output; /* NULL: diff.html next to AFTER, or stdout with --folded */
    int folded;
    int measure;        /* enum stoke_heap_value, or MEASURE_UNSET */
    int scale;          /* enum stoke_diff_scale, or SCALE_UNSET: by what is compared */
};

#define SCALE_UNSET (-1)

void diff_usage(FILE *out)
{
    fprintf(out,
            "usage: stoke diff BEFORE AFTER [options]\n"
            "\n"
            "Compares two heap snapshots (what grew between them), or two CPU traces, as a\n"
            "differential flame graph: widths from AFTER, red where it grew, blue where it\n"
            "shrank. BEFORE and AFTER are .stoke files or directories of them (a\n"
            "recording's); for a directory, its last heap snapshot (with a heap measure)\n"
            "or its CPU traces. Functions are matched by module and name, processes by\n"
            "command name and threads by name, never by address, line or pid: a program\n"
            "rebuilt after an edit, run again, compares function by function.\n"
            "CPU profiles are normalised: each side as shares of its own total, so a\n"
            "shorter or longer run changes nothing but the shares that moved.\n"
            "Snapshots of node have a JavaScript half (.heapsnapshot beside the .stoke),\n"
            "compared too: by constructor, and along the dominator tree; two .heapsnapshot\n"
            "files (from stoke heap, node or DevTools) compare on their own.\n"
            "Either may also be a file of folded stacks (\"a;b;c 42\" lines), compared\n"
            "with folded stacks or CPU traces.\n"
            "\n"
            "options:\n"
            "  -o, --output FILE   where the report goes (default: diff.html next to AFTER;\n"
            "                      with --folded, standard output)\n"
            "      --folded        write \"stack BEFORE AFTER\" lines (difffolded.pl's format)\n"
            "      --absolute      compare the values as recorded (default for heaps)\n"
            "      --normalised    compare each side as shares of its own total (default\n"
            "                      for CPU profiles and folded stacks)\n"
            "      --measure M     the heap value compared: live-bytes (default for\n"
            "                      snapshots), live-objects, alloc-bytes, alloc-objects;\n"
            "                      js-shallow or js-objects compare the JavaScript heap only\n"
            "  -h, --help          show this help\n");
}

enum { OPT_FOLDED = 256, OPT_MEASURE, OPT_ABSOLUTE, OPT_NORMALISED };

static int choose_scale(struct diff_options *opt, int scale)
{
    if (opt->scale != SCALE_UNSET && opt->scale != scale) {
        fprintf(stderr, "stoke diff: --absolute and --normalised exclude each other; give one\n");
        return -1;
    }
    opt->scale = scale;
    return 0;
}

/* Returns -1 to go on, or the exit status to end with. */
static int parse_options(int argc, char **argv, struct diff_options *opt)
{
    static const struct option longopts[] = {
        {"output", required_argument, NULL, 'o'},
        {"folded", no_argument, NULL, OPT_FOLDED},
        {"measure", required_argument, NULL, OPT_MEASURE},
        {"absolute", no_argument, NULL, OPT_ABSOLUTE},
        {"normalised", no_argument, NULL, OPT_NORMALISED},
        {"normalized", no_argument, NULL, OPT_NORMALISED},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    *opt = (struct diff_options){.measure = MEASURE_UNSET, .scale = SCALE_UNSET};
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
            if (parse_measure_option("diff", optarg, &opt->measure))
                return EXIT_USAGE;
            break;
        case OPT_ABSOLUTE:
        case OPT_NORMALISED:
            if (choose_scale(opt, c == OPT_ABSOLUTE ? STOKE_DIFF_ABSOLUTE : STOKE_DIFF_SHARES))
                return EXIT_USAGE;
            break;
        case 'h':
            diff_usage(stdout);
            return EXIT_OK;
        default:
            report_bad_option("diff", c, argv);
            return EXIT_USAGE;
        }
    }
    if (optind != argc - 2) {
        fprintf(stderr, "stoke diff: give two snapshots or traces; "
                        "usage: stoke diff BEFORE AFTER [options]\n");
        return EXIT_USAGE;
    }
    if (check_output_option("diff", opt->output))
        return EXIT_USAGE;
    opt->before = argv[optind];
    opt->after = argv[optind + 1];
    return -1;
}

/* --- the two sides -------------------------------------------------------- */

struct side {
    const char *path;
    int folded;             /* a file of folded stacks, not traces */
    struct recording traces;
    struct text_profile text;
    const char *js;         /* the JavaScript heap snapshot compared, or NULL */
};

static int find_side(struct side *s, const char *path)
{
    char err[PATH_MAX + 256];
    s->path = path;
    s->folded = stoke_is_folded_file(path);
    if (s->folded)
        return 0;
    int count = find_traces(path, &s->traces, err, sizeof err);
    if (count < 0)
        fprintf(stderr, "stoke: %s\n", err);
    else if (count == 0)
        fprintf(stderr, "stoke: no .stoke traces in '%s'; give a snapshot, a trace or a "
                        "recording's directory\n", path);
    return count > 0 ? 0 : -1;
}

/* What a side holds, for messages. */
static const char *describe(const struct side *s)
{
    if (s->folded)
        return "folded stacks";
    if (!s->traces.nsnapshots && !s->traces.ncpu)
        return "JavaScript heap snapshots only";
    if (!s->traces.nsnapshots)
        return s->traces.ncpu == 1 ? "a CPU trace" : "CPU traces only";
    if (!s->traces.ncpu)
        return s->traces.nsnapshots == 1 ? "a heap snapshot" : "heap snapshots only";
    return "CPU traces and heap snapshots";
}

static int has_js(const struct side *s)
{
    return !s->folded && has_js_snapshots(&s->traces);
}

static int has_native_heap(const struct side *s)
{
    return !s->folded && s->traces.nsnapshots > 0;
}

static int heap_by_default(const struct side *s)
{
    return !s->folded && shows_heap_by_default(&s->traces);
}

/* What is compared: the native heap or CPU samples (native: measure, or
 * MEASURE_UNSET for CPU), the JavaScript heap (js: its measure). */
struct comparison {
    int native, measure;
    int js, js_measure;
};

static int refuse(const struct side *a, const struct side *b, const char *hint)
{
    fprintf(stderr, "stoke diff: cannot compare %s (%s) with %s (%s); %s\n", a->path,
            describe(a), b->path, describe(b), hint);
    return -1;
}

/* With --measure: that heap's. Without: the heaps both sides have
 * snapshots of when either holds snapshots only, else CPU (folded stacks
 * compare as CPU samples). Returns 0, or -1 (said why). */
static int choose_comparison(int measure, const struct side *a, const struct side *b,
                             struct comparison *c)
{
    *c = (struct comparison){.measure = measure, .js_measure = MEASURE_JS_SHALLOW};
    if (is_js_measure(measure)) {
        c->js = 1;
        c->js_measure = measure;
        return has_js(a) && has_js(b)
                   ? 0
                   : refuse(a, b, "--measure js-* needs a JavaScript heap snapshot on both sides");
    }
    if (measure == MEASURE_UNSET && (heap_by_default(a) || heap_by_default(b))) {
        c->native = has_native_heap(a) && has_native_heap(b);
        c->js = has_js(a) && has_js(b);
        c->measure = STOKE_HEAP_LIVE_BYTES;
        return c->native || c->js ? 0 : refuse(a, b, "give two heap snapshots");
    }
    c->native = 1;
    int heap = measure != MEASURE_UNSET;
    int a_fits = heap ? has_native_heap(a) : a->folded || a->traces.ncpu > 0;
    int b_fits = heap ? has_native_heap(b) : b->folded || b->traces.ncpu > 0;
    return a_fits && b_fits ? 0
                            : refuse(a, b, "give two heap snapshots, or CPU traces or folded "
                                           "stacks on both sides");
}

static int load_side(struct side *s, int measure)
{
    char err[PATH_MAX + 640];
    struct stoke_load_options load = {0};
    if (s->folded) {
        s->text = (struct text_profile){stoke_read_folded(s->path, err, sizeof err), 0};
        if (s->text.profile)
            return 0;
    } else if (load_text_profile(s->path, &s->traces, measure, &load, &s->text, err, sizeof err) == 0)
        return 0;
    fprintf(stderr, "stoke: %s\n", err);
    return -1;
}

/* The one JavaScript heap snapshot of a side: its last, of one process. */
static int choose_js(struct side *s)
{
    const char **last =
        stoke_xmalloc((s->traces.nsnapshots + s->traces.njs_alone) * sizeof *last);
    size_t n = last_js_snapshots(&s->traces, last);
    s->js = n == 1 ? last[0] : NULL;
    free(last);
    if (n == 1)
        return 0;
    fprintf(stderr, "stoke diff: %s holds the JavaScript heap snapshots of %zu processes; give "
                    "one .heapsnapshot file on each side\n", s->path, n);
    return -1;
}

static void free_side(struct side *s)
{
    stoke_profile_free(s->text.profile);
    free_recording(&s->traces);
}

/* --- output --------------------------------------------------------------- */

/* The diffs made: the native heap's or CPU's, then the JavaScript heap's. */
struct diffs {
    struct stoke_profile *profile[2];
    char what[2][96];
    size_t n;
    struct stoke_js_heap_diff *js; /* the JavaScript heap's by constructor */
};

static int write_diff_html(const struct stoke_report *diffs, const struct diff_options *opt)
{
    char path[PATH_MAX], err[PATH_MAX + 256], title[2 * PATH_MAX + 64];
    if (opt->output)
        snprintf(path, sizeof path, "%s", opt->output);
    else
        report_path_for(opt->after, DIFF_FILE_NAME, path, sizeof path);
    snprintf(title, sizeof title, "stoke diff: %s -> %s", opt->before, opt->after);
    struct stoke_report report = *diffs;
    report.title = title;
    if (write_report_file(STOKE_OUTPUT_HTML, &report, path, err, sizeof err)) {
        fprintf(stderr, "stoke: %s\n", err);
        return -1;
    }
    fprintf(stderr, "stoke: differential report written to %s\n", path);
    return 0;
}

/* The option's scale, else shares for CPU samples and as recorded for a
 * heap (what grew is the question there). */
static enum stoke_diff_scale scale_of(const struct diff_options *opt, int heap)
{
    if (opt->scale != SCALE_UNSET)
        return (enum stoke_diff_scale)opt->scale;
    return heap ? STOKE_DIFF_ABSOLUTE : STOKE_DIFF_SHARES;
}

static int diff_native(const struct side *a, const struct side *b, const struct comparison *c,
                       const struct diff_options *opt, struct diffs *d)
{
    int cpu = c->measure == MEASURE_UNSET;
    const char *what = cpu ? "CPU samples" : measure_label(c->measure);
    snprintf(d->what[d->n], sizeof d->what[d->n], "%s%s", c->js ? "native heap " : "", what);
    d->profile[d->n++] = stoke_profile_diff(a->text.profile, b->text.profile,
                                            a->text.value_index, scale_of(opt, !cpu));
    return 0;
}

static int diff_js(const struct side *a, const struct side *b, const struct comparison *c,
                   const struct diff_options *opt, struct diffs *d)
{
    char err[2 * PATH_MAX];
    struct stoke_profile *before = stoke_profile_new(), *after = stoke_profile_new();
    int rc = stoke_js_heap_compare(a->js, b->js, before, after, &d->js, err, sizeof err);
    if (rc == 0) {
        snprintf(d->what[d->n], sizeof d->what[d->n], "%s", measure_label(c->js_measure));
        d->profile[d->n++] =
            stoke_profile_diff(before, after, measure_value_index(c->js_measure), scale_of(opt, 1));
    } else {
        fprintf(stderr, "stoke: %s\n", err);
    }
    stoke_profile_free(before);
    stoke_profile_free(after);
    return rc;
}

static int write_diffs(const struct diffs *d, const struct comparison *c,
                       const struct diff_options *opt)
{
    char err[PATH_MAX + 256], names[2][128];
    struct stoke_report_tab tabs[2];
    for (size_t i = 0; i < d->n; i++) {
        snprintf(names[i], sizeof names[i], "diff of %s", d->what[i]);
        tabs[i] = (struct stoke_report_tab){names[i], d->profile[i], 1};
    }
    const struct stoke_report report = {.tabs = tabs, .ntabs = d->n};
    if (opt->folded) {
        int rc = write_report_file(STOKE_OUTPUT_FOLDED, &report, opt->output, err, sizeof err);
        if (rc)
            fprintf(stderr, "stoke: %s\n", err);
        return rc;
    }
    int rc = write_diff_html(&report, opt);
    for (size_t i = 0; i < d->n; i++)
        print_sides(stderr, d->profile[i], d->what[i]);
    if (c->native)
        print_largest_changes(stderr, d->profile[0], d->what[0], LARGEST_CHANGES_SHOWN);
    if (d->js)
        print_js_growth(stderr, d->js, LARGEST_CHANGES_SHOWN);
    return rc;
}

static void free_diffs(struct diffs *d)
{
    for (size_t i = 0; i < d->n; i++)
        stoke_profile_free(d->profile[i]);
    stoke_js_heap_diff_free(d->js);
}

static int compare(struct side *a, struct side *b, const struct comparison *c,
                   const struct diff_options *opt)
{
    struct diffs d = {0};
    int ok = (!c->native || (load_side(a, c->measure) == 0 && load_side(b, c->measure) == 0 &&
                             diff_native(a, b, c, opt, &d) == 0)) &&
             (!c->js ||
              (choose_js(a) == 0 && choose_js(b) == 0 && diff_js(a, b, c, opt, &d) == 0)) &&
             write_diffs(&d, c, opt) == 0;
    free_diffs(&d);
    return ok ? 0 : -1;
}

int diff_main(int argc, char **argv)
{
    struct diff_options opt;
    int status = parse_options(argc, argv, &opt);
    if (status >= 0)
        return status;
    struct side a = {0}, b = {0};
    struct comparison c;
    int ok = find_side(&a, opt.before) == 0 && find_side(&b, opt.after) == 0 &&
             choose_comparison(opt.measure, &a, &b, &c) == 0 && compare(&a, &b, &c, &opt) == 0;
    free_side(&a);
    free_side(&b);
    return ok ? EXIT_OK : EXIT_RUNTIME_FAILURE;
}

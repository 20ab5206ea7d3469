/*
 * push_command.c - `stoke push --url URL --name APP [--label K=V]... PATH`: sends
 * the profile of a trace (or of a recording's directory) to a
 * Pyroscope-compatible server (ingest.h), covering the span the traces
 * cover.
 *
 * Owns: the options and which profile of PATH is sent. Never prints the
 * user name or password of the URL (ingest.c keeps them out).
 */
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "commands.h"
#include "ingest.h"
#include "measure.h"
#include "options.h"
#include "pprof.h"
#include "text_profile.h"
#include "traces.h"

struct push_options {
    struct ingest_options ingest;
    int measure;
    const char *input;
};

void push_usage(FILE *out)
{
    fprintf(out,
            "usage: stoke push --url URL --name APP [options] PATH\n"
            "\n"
            "Sends the profile of PATH (a .stoke trace or heap snapshot, or a directory of\n"
            "them) to a Pyroscope-compatible server (Grafana Pyroscope, or anything that\n"
            "speaks its /ingest API) as pprof. See docs/fleet.md.\n"
            "\n"
            "options:\n"
            "      --url URL             the server, e.g. http://pyroscope:4040 (the profile\n"
            "                            goes to URL/ingest; user:password@ in the URL is\n"
            "                            sent as basic authentication and never printed)\n"
            "      --name APP            the application's name in Pyroscope\n"
            "      --label KEY=VALUE     a label of the profile (host, region...); repeatable\n"
            "      --tenant ID           the X-Scope-OrgID header of a multi-tenant server\n"
            "      --timeout S           give up after S seconds in all (default %d)\n"
            "      --connect-timeout S   give up connecting after S seconds (default %d)\n"
            "      --measure M           with heap snapshots and CPU traces together, send\n"
            "                            the snapshots (any of live-bytes, live-objects,\n"
            "                            alloc-bytes, alloc-objects: all four go)\n"
            "  -h, --help                show this help\n",
            INGEST_TIMEOUT_S, INGEST_CONNECT_TIMEOUT_S);
}

/* --- options -------------------------------------------------------------- */

static int parse_seconds(const char *option, const char *text, long *out)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (*text && !*end && v > 0 && v <= 3600) {
        *out = v;
        return 0;
    }
    fprintf(stderr, "stoke push: %s needs a whole number of seconds from 1 to 3600, not '%s'\n",
            option, text);
    return -1;
}

enum { OPT_URL = 256, OPT_NAME, OPT_LABEL, OPT_TENANT, OPT_TIMEOUT, OPT_CONNECT_TIMEOUT,
       OPT_MEASURE };

static int parse_option(int c, struct push_options *opt)
{
    switch (c) {
    case OPT_URL: opt->ingest.url = optarg; return 0;
    case OPT_NAME: opt->ingest.name = optarg; return 0;
    case OPT_TENANT: opt->ingest.tenant = optarg; return 0;
    case OPT_LABEL:
        if (opt->ingest.nlabels == INGEST_MAX_LABELS) {
            fprintf(stderr, "stoke push: at most %d --label options\n", INGEST_MAX_LABELS);
            return -1;
        }
        opt->ingest.labels[opt->ingest.nlabels++] = optarg;
        return ingest_check_label("stoke push", "--label", optarg);
    case OPT_TIMEOUT: return parse_seconds("--timeout", optarg, &opt->ingest.timeout_s);
    case OPT_CONNECT_TIMEOUT:
        return parse_seconds("--connect-timeout", optarg, &opt->ingest.connect_timeout_s);
    case OPT_MEASURE: return parse_measure_option("push", optarg, &opt->measure);
    default: return -1;
    }
}

static int check_required(const struct push_options *opt)
{
    const struct ingest_options *in = &opt->ingest;
    if (!in->url || !*in->url || !in->name || !*in->name) {
        fprintf(stderr, "stoke push: give the server and the application: "
                        "stoke push --url http://HOST:4040 --name APP PATH\n");
        return -1;
    }
    return ingest_check_name("stoke push", "--name", in->name);
}

/* Returns -1 to go on, or the exit status to end with. */
static int parse_options(int argc, char **argv, struct push_options *opt)
{
    static const struct option longopts[] = {
        {"url", required_argument, NULL, OPT_URL},
        {"name", required_argument, NULL, OPT_NAME},
        {"label", required_argument, NULL, OPT_LABEL},
        {"tenant", required_argument, NULL, OPT_TENANT},
        {"timeout", required_argument, NULL, OPT_TIMEOUT},
        {"connect-timeout", required_argument, NULL, OPT_CONNECT_TIMEOUT},
        {"measure", required_argument, NULL, OPT_MEASURE},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    *opt = (struct push_options){.ingest = {.timeout_s = INGEST_TIMEOUT_S,
                                            .connect_timeout_s = INGEST_CONNECT_TIMEOUT_S},
                                 .measure = MEASURE_UNSET};
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (c == 'h') {
            push_usage(stdout);
            return EXIT_OK;
        }
        if (c == '?' || c == ':') {
            report_bad_option("push", c, argv);
            return EXIT_USAGE;
        }
        if (parse_option(c, opt))
            return EXIT_USAGE;
    }
    if (check_required(opt))
        return EXIT_USAGE;
    if (optind != argc - 1) {
        fprintf(stderr, "stoke push: give one trace or directory; "
                        "usage: stoke push --url URL --name APP PATH\n");
        return EXIT_USAGE;
    }
    opt->input = argv[optind];
    return -1;
}

/* --- the time the profile covers ------------------------------------------ */

static int span_of(const struct stoke_profile *p, struct ingest_window *s)
{
    uint64_t from = UINT64_MAX, until = 0;
    for (size_t i = 0; i < p->nprocs; i++) {
        const struct stoke_process_summary *ps = &p->procs[i];
        uint64_t end = p->kind == STOKE_PROFILE_HEAP ? ps->heap.realtime_ns
                                                     : ps->start_realtime_ns +
                                                           ps->duration_us * 1000;
        if (ps->start_realtime_ns && ps->start_realtime_ns < from)
            from = ps->start_realtime_ns;
        if (end > until)
            until = end;
    }
    if (from == UINT64_MAX)
        return -1;
    s->from_s = from / 1000000000u;
    s->until_s = (until + 999999999u) / 1000000000u;
    if (s->until_s <= s->from_s)
        s->until_s = s->from_s + 1;
    s->sample_rate_hz = p->kind == STOKE_PROFILE_CPU && p->period_ns
                            ? (1000000000u + p->period_ns / 2) / p->period_ns
                            : 0;
    return 0;
}

/* Loads the profile of opt->input and encodes it; returns 0 or -1 (said why). */
static int encode_input(const struct push_options *opt, struct ingest_window *span,
                        uint8_t **pprof, size_t *len)
{
    char err[PATH_MAX + 256];
    struct recording r;
    struct text_profile text = {0};
    int count = find_traces(opt->input, &r, err, sizeof err);
    int failed = count <= 0;
    if (count == 0)
        snprintf(err, sizeof err, "no .stoke traces in '%s'", opt->input);
    failed = failed || load_text_profile(opt->input, &r, opt->measure, NULL, &text, err,
                                         sizeof err);
    if (!failed && stoke_profile_total(text.profile, text.value_index) == 0) {
        snprintf(err, sizeof err, "'%s' holds no samples, so there is no profile to send",
                 opt->input);
        failed = 1;
    }
    if (!failed && span_of(text.profile, span)) {
        snprintf(err, sizeof err, "'%s' does not say when it was recorded; record it again "
                                  "with this stoke", opt->input);
        failed = 1;
    }
    if (!failed && stoke_pprof_encode(text.profile, pprof, len)) {
        snprintf(err, sizeof err, "cannot encode the profile of '%s' as pprof", opt->input);
        failed = 1;
    }
    if (failed)
        fprintf(stderr, "stoke push: %s\n", err);
    stoke_profile_free(text.profile);
    free_recording(&r);
    return failed ? -1 : 0;
}

int push_main(int argc, char **argv)
{
    struct push_options opt;
    int status = parse_options(argc, argv, &opt);
    if (status >= 0)
        return status;
    struct ingest in;
    struct ingest_window span;
    uint8_t *pprof = NULL;
    size_t len = 0;
    if (curl_global_init(CURL_GLOBAL_DEFAULT))
        return EXIT_RUNTIME_FAILURE;
    if (ingest_open(&in, &opt.ingest, "stoke push"))
        status = EXIT_USAGE;
    else if (encode_input(&opt, &span, &pprof, &len) || ingest_send(&in, &span, pprof, len))
        status = EXIT_RUNTIME_FAILURE;
    else
        status = EXIT_OK;
    free(pprof);
    ingest_close(&in);
    curl_global_cleanup();
    return status;
}

/*
 * push_command.c - `stoke push --url URL --name APP [--label K=V]... PATH`: sends
 * the profile of a trace (or of a recording's directory) to a
 * Pyroscope-compatible server's ingest API: POST URL/ingest with query
 * name=APP{K=V,...}, from and until (Unix seconds the trace covers),
 * format=pprof, sampleRate and spyName, the gzipped pprof in the form
 * file field "profile" (multipart/form-data), with libcurl.
 *
 * Owns: the request, its timeouts, and telling the user what the server
 * answered. Never prints the user name or password of the URL: every
 * message shows the URL with them taken out.
 */
#include <curl/curl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "commands.h"
#include "measure.h"
#include "options.h"
#include "pprof.h"
#include "text_profile.h"
#include "traces.h"

#define MAX_LABELS 32
#define NAME_MAX_LEN 1024
#define ANSWER_SHOWN 300   /* bytes of the server's answer shown to the user */
#define DEFAULT_TIMEOUT_S 30
#define DEFAULT_CONNECT_TIMEOUT_S 10

struct push_options {
    const char *url;
    const char *name;
    const char *labels[MAX_LABELS]; /* "key=value" */
    size_t nlabels;
    const char *tenant;             /* X-Scope-OrgID, NULL: none */
    long timeout_s, connect_timeout_s;
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
            DEFAULT_TIMEOUT_S, DEFAULT_CONNECT_TIMEOUT_S);
}

/* --- options -------------------------------------------------------------- */

static int valid_label_key(const char *k, size_t len)
{
    if (!len || !(k[0] == '_' || (k[0] >= 'a' && k[0] <= 'z') || (k[0] >= 'A' && k[0] <= 'Z')))
        return 0;
    for (size_t i = 0; i < len; i++)
        if (!(k[i] == '_' || k[i] == '.' || (k[i] >= 'a' && k[i] <= 'z') ||
              (k[i] >= 'A' && k[i] <= 'Z') || (k[i] >= '0' && k[i] <= '9')))
            return 0;
    return 1;
}

static int check_label(const char *label)
{
    const char *eq = strchr(label, '=');
    if (eq && valid_label_key(label, (size_t)(eq - label)) && eq[1] && !strpbrk(eq + 1, ",{}=\""))
        return 0;
    fprintf(stderr, "stoke push: --label '%s' is not KEY=VALUE (a key of letters, digits, '_' "
                    "and '.'; a value without , { } = or \")\n", label);
    return -1;
}

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
    case OPT_URL: opt->url = optarg; return 0;
    case OPT_NAME: opt->name = optarg; return 0;
    case OPT_TENANT: opt->tenant = optarg; return 0;
    case OPT_LABEL:
        if (opt->nlabels == MAX_LABELS) {
            fprintf(stderr, "stoke push: at most %d --label options\n", MAX_LABELS);
            return -1;
        }
        opt->labels[opt->nlabels++] = optarg;
        return check_label(optarg);
    case OPT_TIMEOUT: return parse_seconds("--timeout", optarg, &opt->timeout_s);
    case OPT_CONNECT_TIMEOUT:
        return parse_seconds("--connect-timeout", optarg, &opt->connect_timeout_s);
    case OPT_MEASURE: return parse_measure_option("push", optarg, &opt->measure);
    default: return -1;
    }
}

static int check_required(const struct push_options *opt)
{
    if (!opt->url || !*opt->url || !opt->name || !*opt->name) {
        fprintf(stderr, "stoke push: give the server and the application: "
                        "stoke push --url http://HOST:4040 --name APP PATH\n");
        return -1;
    }
    if (strpbrk(opt->name, "{},=\"") || strlen(opt->name) > NAME_MAX_LEN) {
        fprintf(stderr, "stoke push: --name '%s' may not hold { } , = or \"; give labels with "
                        "--label KEY=VALUE\n", opt->name);
        return -1;
    }
    return 0;
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
    *opt = (struct push_options){.timeout_s = DEFAULT_TIMEOUT_S,
                                 .connect_timeout_s = DEFAULT_CONNECT_TIMEOUT_S,
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

/* --- the URL -------------------------------------------------------------- */

struct target {
    CURLU *url;           /* URL/ingest with the query */
    char shown[PATH_MAX]; /* the same without user and password, for messages */
    char *password;       /* to take out of libcurl's messages too */
    char *user;
};

/* The URL's path with "/ingest" after it (a server behind a proxy may have
 * a path of its own). */
static int set_ingest_path(CURLU *u)
{
    char *path = NULL;
    if (curl_url_get(u, CURLUPART_PATH, &path, 0))
        return -1;
    size_t len = strlen(path);
    while (len && path[len - 1] == '/')
        len--;
    char *ingest = stoke_xmalloc(len + sizeof "/ingest");
    snprintf(ingest, len + sizeof "/ingest", "%.*s/ingest", (int)len, path);
    int rc = curl_url_set(u, CURLUPART_PATH, ingest, 0) ? -1 : 0;
    free(ingest);
    curl_free(path);
    return rc;
}

static void describe_without_credentials(struct target *t)
{
    CURLU *copy = curl_url_dup(t->url);
    char *text = NULL;
    curl_url_set(copy, CURLUPART_USER, NULL, 0);
    curl_url_set(copy, CURLUPART_PASSWORD, NULL, 0);
    curl_url_set(copy, CURLUPART_QUERY, NULL, 0);
    if (curl_url_get(copy, CURLUPART_URL, &text, 0) == CURLUE_OK)
        snprintf(t->shown, sizeof t->shown, "%s", text);
    else
        snprintf(t->shown, sizeof t->shown, "the --url server");
    curl_free(text);
    curl_url_cleanup(copy);
}

static int parse_url(const char *url, struct target *t)
{
    char *scheme = NULL;
    t->url = curl_url();
    int bad = !t->url || curl_url_set(t->url, CURLUPART_URL, url, 0) ||
              curl_url_get(t->url, CURLUPART_SCHEME, &scheme, 0) ||
              (strcmp(scheme, "http") && strcmp(scheme, "https")) || set_ingest_path(t->url);
    curl_free(scheme);
    if (bad) {
        /* the text may hold a password: name the option, not the text */
        fprintf(stderr, "stoke push: --url is not an http:// or https:// URL; give the "
                        "server as http://HOST:4040\n");
        return -1;
    }
    curl_url_get(t->url, CURLUPART_USER, &t->user, 0);
    curl_url_get(t->url, CURLUPART_PASSWORD, &t->password, 0);
    curl_url_set(t->url, CURLUPART_QUERY, NULL, 0);
    describe_without_credentials(t);
    return 0;
}

/* Replaces every occurrence of secret in text with "***". libcurl's
 * messages name the host and port, never the URL's user and password, and
 * the server only sees them encoded in a header: this is a second guard, for
 * secrets long enough to be told from ordinary words. */
static void redact(char *text, const char *secret)
{
    size_t n = secret ? strlen(secret) : 0;
    char *at, *from = text;
    while (n >= 4 && (at = strstr(from, secret))) { /* never longer than before */
        memmove(at + 3, at + n, strlen(at + n) + 1);
        memcpy(at, "***", 3);
        from = at + 3;
    }
}

static void add_query(CURLU *u, const char *key, const char *value)
{
    char item[NAME_MAX_LEN * 4];
    snprintf(item, sizeof item, "%s=%s", key, value);
    curl_url_set(u, CURLUPART_QUERY, item, CURLU_APPENDQUERY | CURLU_URLENCODE);
}

/* name=APP{k=v,...}, as Pyroscope names a series. */
static void series_name(const struct push_options *opt, char *name, size_t len)
{
    size_t used = (size_t)snprintf(name, len, "%s{", opt->name);
    for (size_t i = 0; i < opt->nlabels && used < len; i++)
        used += (size_t)snprintf(name + used, len - used, "%s%s", i ? "," : "", opt->labels[i]);
    if (used < len)
        snprintf(name + used, len - used, "}");
}

/* --- the time the profile covers ------------------------------------------ */

struct span {
    uint64_t from_s, until_s;
    uint64_t sample_rate_hz; /* 0: not a CPU profile */
};

static int span_of(const struct stoke_profile *p, struct span *s)
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

/* --- the request ---------------------------------------------------------- */

struct answer {
    char text[ANSWER_SHOWN + 1];
    size_t len;
};

static size_t keep_answer(char *data, size_t size, size_t n, void *ctx)
{
    struct answer *a = ctx;
    size_t len = size * n, room = ANSWER_SHOWN - a->len;
    memcpy(a->text + a->len, data, len < room ? len : room);
    a->len += len < room ? len : room;
    a->text[a->len] = '\0';
    return len;
}

/* The first line of the server's answer, for a message. */
static const char *first_line(struct answer *a)
{
    a->text[strcspn(a->text, "\r\n")] = '\0';
    return a->text;
}

static void add_profile_part(curl_mime *form, const uint8_t *pprof, size_t len)
{
    curl_mimepart *part = curl_mime_addpart(form);
    curl_mime_name(part, "profile");
    curl_mime_filename(part, "profile.pb.gz");
    curl_mime_type(part, "application/octet-stream");
    curl_mime_data(part, (const char *)pprof, len);
}

static int report_failure(CURLcode rc, const char *why, const struct push_options *opt,
                          const struct target *t)
{
    if (rc == CURLE_COULDNT_CONNECT || rc == CURLE_COULDNT_RESOLVE_HOST)
        fprintf(stderr, "stoke push: cannot connect to %s (%s); is the server running there?\n",
                t->shown, why);
    else if (rc == CURLE_OPERATION_TIMEDOUT)
        fprintf(stderr, "stoke push: no answer from %s within the time allowed (%s); try "
                        "again, or allow more with --timeout (now %ld s)\n",
                t->shown, why, opt->timeout_s);
    else
        fprintf(stderr, "stoke push: sending to %s failed: %s\n", t->shown, why);
    return EXIT_RUNTIME_FAILURE;
}

static int send_profile(CURL *curl, const struct push_options *opt, struct target *t,
                        const uint8_t *pprof, size_t len)
{
    char why[CURL_ERROR_SIZE] = "", tenant[512];
    struct answer answer = {.len = 0};
    struct curl_slist *headers = NULL;
    curl_mime *form = curl_mime_init(curl);
    add_profile_part(form, pprof, len);
    if (opt->tenant) {
        snprintf(tenant, sizeof tenant, "X-Scope-OrgID: %s", opt->tenant);
        headers = curl_slist_append(headers, tenant);
    }
    curl_easy_setopt(curl, CURLOPT_CURLU, t->url);
    curl_easy_setopt(curl, CURLOPT_MIMEPOST, form);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "stoke/" STOKE_VERSION);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, opt->connect_timeout_s);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, opt->timeout_s);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, why);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, keep_answer);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &answer);
    CURLcode rc = curl_easy_perform(curl);
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    curl_mime_free(form);
    curl_slist_free_all(headers);
    redact(why, t->password);
    redact(why, t->user);
    redact(answer.text, t->password);
    if (rc != CURLE_OK)
        return report_failure(rc, *why ? why : curl_easy_strerror(rc), opt, t);
    if (status < 200 || status >= 300) {
        fprintf(stderr, "stoke push: %s answered HTTP %ld: %s\n", t->shown, status,
                *answer.text ? first_line(&answer) : "(no message)");
        return EXIT_RUNTIME_FAILURE;
    }
    fprintf(stderr, "stoke push: sent %zu bytes of pprof to %s: HTTP %ld%s%s\n", len, t->shown,
            status, *answer.text ? " " : "", first_line(&answer));
    return EXIT_OK;
}

static void add_query_parameters(const struct push_options *opt, const struct span *s,
                                 CURLU *u)
{
    char name[NAME_MAX_LEN * 3], number[32];
    series_name(opt, name, sizeof name);
    add_query(u, "name", name);
    snprintf(number, sizeof number, "%" PRIu64, s->from_s);
    add_query(u, "from", number);
    snprintf(number, sizeof number, "%" PRIu64, s->until_s);
    add_query(u, "until", number);
    add_query(u, "format", "pprof");
    if (s->sample_rate_hz) {
        snprintf(number, sizeof number, "%" PRIu64, s->sample_rate_hz);
        add_query(u, "sampleRate", number);
    }
    add_query(u, "spyName", "stoke");
}

/* Loads the profile of opt->input and encodes it; returns 0 or -1 (said why). */
static int encode_input(const struct push_options *opt, struct span *span, uint8_t **pprof,
                        size_t *len)
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
    struct target t = {0};
    struct span span;
    uint8_t *pprof = NULL;
    size_t len = 0;
    if (curl_global_init(CURL_GLOBAL_DEFAULT))
        return EXIT_RUNTIME_FAILURE;
    status = parse_url(opt.url, &t) ? EXIT_USAGE : EXIT_RUNTIME_FAILURE;
    if (status != EXIT_USAGE && encode_input(&opt, &span, &pprof, &len) == 0) {
        CURL *curl = curl_easy_init();
        add_query_parameters(&opt, &span, t.url);
        status = curl ? send_profile(curl, &opt, &t, pprof, len) : EXIT_RUNTIME_FAILURE;
        curl_easy_cleanup(curl);
    }
    free(pprof);
    curl_free(t.user);
    curl_free(t.password);
    curl_url_cleanup(t.url);
    curl_global_cleanup();
    return status;
}

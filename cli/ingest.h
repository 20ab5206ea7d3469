/*
 * ingest.h - sends pprof profiles to a Pyroscope-compatible server's ingest
 * API, with libcurl: POST URL/ingest with query name=APP{K=V,...}, from
 * and until (Unix seconds the profile covers), format=pprof, sampleRate and
 * spyName, the gzipped pprof in the form file field "profile"
 * (multipart/form-data). Shared by `stoke push` (a recording, once) and
 * `stoke record --push` (a window at a time while the program runs).
 *
 * Never prints the user name or password of the URL: every message shows
 * the URL with them taken out.
 */
#ifndef STOKE_CLI_INGEST_H
#define STOKE_CLI_INGEST_H

#include <curl/curl.h>
#include <stddef.h>
#include <stdint.h>

#define INGEST_MAX_LABELS 32
#define INGEST_NAME_MAX 1024
#define INGEST_TIMEOUT_S 30
#define INGEST_CONNECT_TIMEOUT_S 10

struct ingest_options {
    const char *url;
    const char *name;                          /* the application */
    const char *labels[INGEST_MAX_LABELS];     /* "key=value" */
    size_t nlabels;
    const char *tenant;                        /* X-Scope-OrgID, NULL: none */
    long timeout_s, connect_timeout_s;
};

/* The span a profile covers, in Unix seconds, and its sampling rate (0:
 * not a CPU profile). */
struct ingest_window {
    uint64_t from_s, until_s;
    uint64_t sample_rate_hz;
};

struct ingest {
    const struct ingest_options *opt;
    const char *who;      /* starts every message: "stoke push" */
    CURLU *url;           /* URL/ingest, without a query */
    char shown[4096];     /* the same without user and password, for messages */
    char *user, *password; /* to take out of libcurl's messages too */
    CURL *curl;
};

/* Checks a --label (KEY=VALUE) or an application name; -1 after a one-line
 * error naming option, prefixed by who. */
int ingest_check_label(const char *who, const char *option, const char *label);
int ingest_check_name(const char *who, const char *option, const char *name);

/* Parses opt->url (http or https) for sending. Returns 0, or -1 after a
 * one-line error that names the option, not the URL (it may hold a
 * password). Call curl_global_init first. */
int ingest_open(struct ingest *in, const struct ingest_options *opt, const char *who);

/* Sends one gzipped pprof profile covering w. Returns 0 when the server
 * took it (said on stderr), or -1 after saying why. */
int ingest_send(struct ingest *in, const struct ingest_window *w, const uint8_t *pprof,
                size_t len);

void ingest_close(struct ingest *in);

#endif

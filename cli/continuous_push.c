/*
 * continuous_push.c - the pusher thread of `stoke record --push`; see
 * continuous_push.h.
 *
 * Owns: the windows (when each starts and ends, which samples go in it),
 * retrying a window and keeping the ones that could not be sent.
 * Never: signals or waits on the profiled program, or takes a signal meant
 * for stoke's own process (the thread blocks them all).
 */
#include "continuous_push.h"

#include <curl/curl.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc.h"
#include "pprof.h"
#include "report_file.h"
#include "sample_times.h"
#include "traces.h"

#define SEND_ATTEMPTS 3
#define RETRY_DELAY_MS 1000 /* doubled after each failed attempt */

/* How many samples of one trace went out already. */
struct trace_progress {
    char *path;
    size_t sent;
};

struct continuous_push {
    const struct push_plan *plan;
    const char *dir;
    const struct output_files *earlier;
    struct ingest ingest;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    int stopping;                  /* under lock */
    uint64_t from_s;               /* where the next window starts (Unix s) */
    struct trace_progress *traces;
    size_t ntraces;
    uint64_t windows_sent, windows_kept, samples_sent;
};

static uint64_t realtime_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (uint64_t)t.tv_sec;
}

/* --- which samples a window holds ---------------------------------------- */

static struct trace_progress *progress_of(struct continuous_push *c, const char *path)
{
    for (size_t i = 0; i < c->ntraces; i++)
        if (!strcmp(c->traces[i].path, path))
            return &c->traces[i];
    c->traces = stoke_xrealloc(c->traces, (c->ntraces + 1) * sizeof *c->traces);
    c->traces[c->ntraces] = (struct trace_progress){stoke_xstrdup(path), 0};
    return &c->traces[c->ntraces++];
}

/* A trace's samples in the profile, p->samples.at[first .. first+count),
 * of which the first `sent` went out already. */
struct trace_part {
    size_t first, count, sent;
};

struct new_samples {
    struct trace_part *parts;
    size_t nparts;
};

static int is_new(const struct stoke_sample *s, size_t i, void *ctx)
{
    const struct new_samples *n = ctx;
    (void)s;
    for (size_t k = 0; k < n->nparts; k++) {
        const struct trace_part *t = &n->parts[k];
        if (i >= t->first && i < t->first + t->count)
            return i - t->first >= t->sent;
    }
    return 0;
}

/* Loads every CPU trace of the recording and keeps the samples no window
 * held yet; counts them as sent (the caller sends them, or keeps them on
 * disk). NULL when there are no traces yet. */
static struct stoke_profile *load_new_samples(struct continuous_push *c, int live)
{
    struct recording r;
    char err[PATH_MAX + 256];
    if (find_run_traces(c->dir, c->earlier, &r, err, sizeof err) <= 0) {
        free_recording(&r);
        return NULL;
    }
    struct stoke_load_options opt = {.live = live, .one_part = 1};
    struct stoke_profile *p = stoke_profile_new();
    size_t nfiles = r.ncpu + r.nlater;
    struct new_samples fresh = {stoke_xcalloc(nfiles ? nfiles : 1, sizeof *fresh.parts), 0};
    for (size_t i = 0; i < nfiles; i++) {
        const char *path = i < r.ncpu ? r.cpu_traces[i] : r.later_parts[i - r.ncpu];
        size_t before = p->samples.n;
        if (stoke_load_trace(p, path, &opt, err, sizeof err))
            continue; /* not written yet, or not a CPU trace */
        struct trace_progress *t = progress_of(c, path);
        size_t count = p->samples.n - before;
        fresh.parts[fresh.nparts++] = (struct trace_part){before, count, t->sent};
        if (count > t->sent)
            t->sent = count;
    }
    stoke_profile_keep_samples(p, is_new, &fresh);
    free(fresh.parts);
    free_recording(&r);
    return p;
}

/* --- sending a window ---------------------------------------------------- */

/* Waits ms or until stopping is set; returns stopping. */
static int wait_or_stop(struct continuous_push *c, uint64_t ms)
{
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    until.tv_sec += (time_t)(ms / 1000);
    until.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&c->lock);
    while (!c->stopping && pthread_cond_timedwait(&c->wake, &c->lock, &until) != ETIMEDOUT)
        ;
    int stopping = c->stopping;
    pthread_mutex_unlock(&c->lock);
    return stopping;
}

static int send_with_retries(struct continuous_push *c, const struct ingest_window *w,
                             const uint8_t *pprof, size_t len)
{
    uint64_t delay = RETRY_DELAY_MS;
    for (int attempt = 1;; attempt++, delay *= 2) {
        if (ingest_send(&c->ingest, w, pprof, len) == 0)
            return 0;
        if (attempt == SEND_ATTEMPTS)
            return -1;
        wait_or_stop(c, delay); /* a stop still lets the window be tried again */
    }
}

/* Keeps a window that could not be sent as DIR/push-FROM-UNTIL.pb.gz. */
static void keep_window(struct continuous_push *c, const struct ingest_window *w,
                        const uint8_t *pprof, size_t len)
{
    char path[PATH_MAX], err[PATH_MAX + 256];
    struct report_file file;
    snprintf(path, sizeof path, "%s/" PUSH_FILE_PREFIX "%" PRIu64 "-%" PRIu64 PUSH_FILE_SUFFIX,
             c->dir, w->from_s, w->until_s);
    if (report_file_open(&file, path, err, sizeof err) == 0) {
        fwrite(pprof, 1, len, file.out);
        if (report_file_close(&file, ferror(file.out), err, sizeof err) == 0) {
            fprintf(stderr, "stoke: the window %" PRIu64 "-%" PRIu64 " was not sent; kept in %s\n",
                    w->from_s, w->until_s, path);
            c->windows_kept++;
            return;
        }
    }
    fprintf(stderr, "stoke: the window %" PRIu64 "-%" PRIu64 " was not sent, and %s\n",
            w->from_s, w->until_s, err);
}

static uint64_t sample_rate_hz(const struct stoke_profile *p)
{
    return p->period_ns ? (1000000000u + p->period_ns / 2) / p->period_ns : 0;
}

/* Sends the samples that came since the last window, as the window from
 * the last one's end until now; a window without samples is not sent, and
 * the next one starts where it would have. */
static void push_window(struct continuous_push *c, int last)
{
    struct stoke_profile *p = load_new_samples(c, !last);
    uint8_t *pprof = NULL;
    size_t len = 0;
    if (p && p->samples.n && stoke_pprof_encode(p, &pprof, &len) == 0) {
        uint64_t now = realtime_s() + (last ? 1 : 0); /* the last window ends after all */
        struct ingest_window w = {c->from_s, now > c->from_s ? now : c->from_s + 1,
                                  sample_rate_hz(p)};
        if (send_with_retries(c, &w, pprof, len) == 0) {
            c->windows_sent++;
            c->samples_sent += p->samples.n;
        } else {
            keep_window(c, &w, pprof, len);
        }
        c->from_s = w.until_s;
    }
    free(pprof);
    stoke_profile_free(p);
}

static void *pusher(void *arg)
{
    struct continuous_push *c = arg;
    while (!wait_or_stop(c, c->plan->every_ms))
        push_window(c, 0);
    push_window(c, 1);
    return NULL;
}

/* --- start and stop ------------------------------------------------------- */

/* Starts the thread with every signal blocked: the signals of stoke's own
 * process go to its main thread (or its signalfd). */
static int start_thread(struct continuous_push *c)
{
    sigset_t all, before;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &before);
    int rc = pthread_create(&c->thread, NULL, pusher, c);
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    return rc;
}

struct continuous_push *continuous_push_start(const struct push_plan *plan, const char *dir,
                                              const struct output_files *earlier)
{
    struct continuous_push *c = stoke_xcalloc(1, sizeof *c);
    *c = (struct continuous_push){.plan = plan, .dir = dir, .earlier = earlier,
                                  .from_s = realtime_s()};
    pthread_condattr_t monotonic;
    pthread_condattr_init(&monotonic);
    pthread_condattr_setclock(&monotonic, CLOCK_MONOTONIC);
    pthread_mutex_init(&c->lock, NULL);
    pthread_cond_init(&c->wake, &monotonic);
    pthread_condattr_destroy(&monotonic);
    if (curl_global_init(CURL_GLOBAL_DEFAULT) == 0 &&
        ingest_open(&c->ingest, &plan->ingest, "stoke record --push") == 0 && start_thread(c) == 0)
        return c;
    fprintf(stderr, "stoke: not pushing windows to the server; the recording goes on\n");
    ingest_close(&c->ingest);
    free(c);
    return NULL;
}

void continuous_push_stop(struct continuous_push *c)
{
    if (!c)
        return;
    pthread_mutex_lock(&c->lock);
    c->stopping = 1;
    pthread_cond_signal(&c->wake);
    pthread_mutex_unlock(&c->lock);
    pthread_join(c->thread, NULL);
    fprintf(stderr, "stoke: pushed %" PRIu64 " window%s (%" PRIu64 " samples) to %s", c->windows_sent,
            c->windows_sent == 1 ? "" : "s", c->samples_sent, c->ingest.shown);
    if (c->windows_kept)
        fprintf(stderr, "; %" PRIu64 " not sent, kept in %s", c->windows_kept, c->dir);
    fputc('\n', stderr);
    ingest_close(&c->ingest);
    curl_global_cleanup();
    for (size_t i = 0; i < c->ntraces; i++)
        free(c->traces[i].path);
    free(c->traces);
    pthread_cond_destroy(&c->wake);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

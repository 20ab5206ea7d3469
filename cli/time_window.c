/*
 * time_window.c - `--from` and `--until`; see time_window.h. Owns turning
 * their words into moments of a recording and the errors of a window that
 * cannot be kept. Never changes a profile it refuses a window of.
 */
#include "time_window.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample_times.h"

#define NS_PER_S 1e9
#define MAX_SECONDS (100.0 * 365 * 24 * 3600) /* far past any recording */

int parse_time_bound(const char *command, const char *option, const char *text,
                     struct time_bound *b)
{
    *b = (struct time_bound){.text = text};
    if (!strcmp(text, "load-start") || !strcmp(text, "load-end")) {
        b->mark = text[5] == 's' ? MARK_LOAD_START : MARK_LOAD_END;
        return 0;
    }
    char *end;
    b->seconds = strtod(text, &end);
    if (end != text && *end == 's')
        end++;
    if (end == text || *end || !isfinite(b->seconds) || b->seconds < 0 ||
        b->seconds > MAX_SECONDS) {
        fprintf(stderr,
                "stoke %s: %s '%s': give seconds since the recording started (such as 1.5 or "
                "90s), load-start or load-end\n",
                command, option, text);
        return -1;
    }
    return 0;
}

int time_window_given(const struct time_window *w)
{
    return w->from.text || w->until.text;
}

const char *time_window_option(const struct time_window *w)
{
    return w->from.text ? "--from" : "--until";
}

/* The moment b names (ns since the epoch); -1 with err when it names load
 * marks the recording lacks. */
static int resolve(const struct time_bound *b, const char *option, const struct time_window *w,
                   uint64_t start_ns, uint64_t *ns, char *err, size_t errlen)
{
    if (b->mark == MARK_SECONDS) {
        *ns = start_ns + (uint64_t)(b->seconds * NS_PER_S + 0.5);
        return 0;
    }
    if (!w->marks.start_ns) {
        snprintf(err, errlen,
                 "%s %s: '%s' was not recorded with a load (stoke record -P), so it has no "
                 "load marks; give seconds since the recording started instead",
                 option, b->text, w->recording);
        return -1;
    }
    *ns = b->mark == MARK_LOAD_START ? w->marks.start_ns : w->marks.end_ns;
    return 0;
}

static double seconds_since(uint64_t start_ns, uint64_t ns)
{
    return ns > start_ns ? (double)(ns - start_ns) / NS_PER_S : 0;
}

/* A window that holds part of the recording, or -1 with err. */
static int check_window(const struct time_window *w, uint64_t start, uint64_t end,
                        uint64_t from, uint64_t until, char *err, size_t errlen)
{
    double length = seconds_since(start, end);
    if (w->from.text && w->until.text && from >= until)
        snprintf(err, errlen,
                 "--from %s (%.3f s) is not before --until %s (%.3f s); give a window that "
                 "starts before it ends",
                 w->from.text, seconds_since(start, from), w->until.text,
                 seconds_since(start, until));
    else if (w->from.text && from >= end)
        snprintf(err, errlen,
                 "--from %s is at or after the end of '%s' (%.3f s); give a time between 0 and "
                 "%.3f",
                 w->from.text, w->recording, length, length);
    else if (w->until.text && until <= start)
        snprintf(err, errlen,
                 "--until %s is at the start of '%s'; give a time between 0 and %.3f",
                 w->until.text, w->recording, length);
    else
        return 0;
    return -1;
}

int resolve_time_window(const struct time_window *w, const struct stoke_profile *p,
                        uint64_t *from, uint64_t *until, char *err, size_t errlen)
{
    uint64_t start = stoke_profile_start_ns(p), end = stoke_profile_end_ns(p);
    *from = start;
    *until = end + 1;
    if ((w->from.text && resolve(&w->from, "--from", w, start, from, err, errlen)) ||
        (w->until.text && resolve(&w->until, "--until", w, start, until, err, errlen)))
        return -1;
    return check_window(w, start, end, *from, *until, err, errlen);
}

int time_window_before_kept(const struct stoke_profile *p, uint64_t from, char *text,
                            size_t len)
{
    uint64_t start = stoke_profile_start_ns(p);
    for (size_t i = 0; i < p->nprocs && from > start; i++) {
        const struct stoke_process_summary *s = &p->procs[i];
        uint64_t kept = s->start_realtime_ns + s->kept_from_us * 1000;
        if (s->first_part > 1 && from < kept) {
            snprintf(text, len,
                     "%.3f s is before the trace of %s (%u) starts at %.3f s: its older parts "
                     "were removed (--max-size)",
                     seconds_since(start, from), s->comm, s->pid, seconds_since(start, kept));
            return 1;
        }
    }
    return 0;
}

void describe_time_window(const struct stoke_profile *p, uint64_t from, uint64_t until,
                          char *text, size_t len)
{
    uint64_t start = stoke_profile_start_ns(p), end = stoke_profile_end_ns(p);
    snprintf(text, len, "%.3f s to %.3f s of %.3f s", seconds_since(start, from),
             seconds_since(start, until < end ? until : end), seconds_since(start, end));
}

int apply_time_window(struct stoke_profile *p, const struct time_window *w, char *err,
                      size_t errlen)
{
    uint64_t from, until;
    if (resolve_time_window(w, p, &from, &until, err, errlen))
        return -1;
    char span[128], dropped[512];
    if (time_window_before_kept(p, from, dropped, sizeof dropped))
        fprintf(stderr, "stoke: warning: %s %s; the window holds what is kept\n",
                time_window_option(w), dropped);
    describe_time_window(p, from, until, span, sizeof span);
    stoke_profile_keep_window(p, from, until);
    fprintf(stderr, "stoke: kept %s: %zu samples\n", span, p->samples.n);
    return 0;
}

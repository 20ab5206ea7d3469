/*
 * time_window.h - `--from T --until T`: the span of a recording a report
 * keeps. T is seconds since the recording started ("1.5", "90s"), or, for a
 * recording made with -P, load-start or load-end (load_marks.h).
 */
#ifndef STOKE_CLI_TIME_WINDOW_H
#define STOKE_CLI_TIME_WINDOW_H

#include <stddef.h>
#include <stdint.h>

#include "load_marks.h"
#include "profile.h"

enum time_mark { MARK_SECONDS, MARK_LOAD_START, MARK_LOAD_END };

struct time_bound {
    const char *text; /* as given; NULL: not given */
    int mark;         /* enum time_mark */
    double seconds;   /* MARK_SECONDS: since the recording started */
};

struct time_window {
    struct time_bound from, until;
    const char *recording;   /* its path, in messages */
    struct load_marks marks; /* of a -P recording; start_ns 0: none */
};

/* Reads T of option ("--from" or "--until") into b. Returns 0, or -1
 * after a one-line error naming command and option. */
int parse_time_bound(const char *command, const char *option, const char *text,
                     struct time_bound *b);

/* 1 when --from or --until was given. */
int time_window_given(const struct time_window *w);

/* The option messages about w name: "--from" when given, else "--until". */
const char *time_window_option(const struct time_window *w);

/* The moments w names in the recording p was read from (ns since the
 * epoch): [*from, *until). Returns 0, or -1 with a one-line message in err
 * naming the option when the window is empty, inverted, outside the
 * recording, or names load marks the recording does not have. */
int resolve_time_window(const struct time_window *w, const struct stoke_profile *p,
                        uint64_t *from, uint64_t *until, char *err, size_t errlen);

/* Whether from (ns since the epoch, after the recording's start) falls in
 * a span some process's trace no longer holds (its oldest parts were
 * removed, --max-size): 1 with a sentence saying so in text, else 0. */
int time_window_before_kept(const struct stoke_profile *p, uint64_t from, char *text,
                            size_t len);

/* "0.500 s to 1.500 s of 4.213 s": the span [from, until) of p's recording. */
void describe_time_window(const struct stoke_profile *p, uint64_t from, uint64_t until,
                          char *text, size_t len);

/* Keeps the samples of p taken inside w, and says which span on stderr.
 * Returns 0, or -1 with a one-line message in err naming the option when
 * the window is empty, inverted, outside the recording, or names load
 * marks the recording does not have. */
int apply_time_window(struct stoke_profile *p, const struct time_window *w, char *err,
                      size_t errlen);

#endif

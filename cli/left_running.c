/*
 * left_running.c - see left_running.h. One loop on a signalfd: SIGCHLD
 * reaps the adopted processes that ended (their CPU time counts with the
 * run's), SIGINT, SIGTERM and SIGHUP end the wait. The wait is over when
 * stoke has no child left: every process the command left is stoke's
 * child or descends from one. /proc is read only to name them.
 *
 * Never: signals, stops or kills a process it waits for; waits longer than
 * a moment (SETTLE_MS) without saying once on stderr what for and how to
 * stop it.
 */
#include "left_running.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "process_tree.h"

#define RESCAN_MS 1000 /* a safety net: each end of a process brings a SIGCHLD */
#define SETTLE_MS 100
#define PROCESSES_NAMED 5

void adopt_left_running(struct adoption *a)
{
    sigemptyset(&a->stop_signals);
    sigaddset(&a->stop_signals, SIGINT);
    sigaddset(&a->stop_signals, SIGTERM);
    sigaddset(&a->stop_signals, SIGHUP);
    sigaddset(&a->stop_signals, SIGCHLD);
    sigprocmask(SIG_SETMASK, NULL, &a->original_mask);
    prctl(PR_SET_CHILD_SUBREAPER, 1);
}

static uint64_t rusage_us(const struct rusage *u)
{
    return (uint64_t)(u->ru_utime.tv_sec + u->ru_stime.tv_sec) * 1000000 +
           (uint64_t)(u->ru_utime.tv_usec + u->ru_stime.tv_usec);
}

/* Reaps every adopted process that ended and adds its CPU time; returns 1
 * while some still run. Every process the command left running is stoke's
 * child, or a descendant of one: an orphan is reparented to stoke. */
static int reap_ended(uint64_t *cpu_us)
{
    int status;
    struct rusage usage;
    pid_t pid;
    while ((pid = wait4(-1, &status, WNOHANG, &usage)) > 0)
        *cpu_us += rusage_us(&usage);
    return pid == 0;
}

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void say_waiting(const struct proc_stat *left, size_t n)
{
    fprintf(stderr, "stoke: the command exited and left %zu process%s running: ", n,
            n == 1 ? "" : "es");
    for (size_t i = 0; i < n && i < PROCESSES_NAMED; i++)
        fprintf(stderr, "%s%s (%d)", i ? ", " : "", left[i].comm, (int)left[i].pid);
    if (n > PROCESSES_NAMED)
        fprintf(stderr, " and %zu more", n - PROCESSES_NAMED);
    fprintf(stderr, "; stoke waits for %s to end (Ctrl-C or SIGTERM to stoke stops waiting "
                    "and reports what %s traces hold so far, leaving %s running)\n",
            n == 1 ? "it" : "them", n == 1 ? "its" : "their", n == 1 ? "it" : "them");
}

struct wait_state {
    int signal_fd;
    int running; /* some process the command left still runs */
    int stopped; /* a stop signal came */
    uint64_t cpu_us;
};

/* Waits for a signal, at most timeout_ms, and handles what came. */
static void wait_event(struct wait_state *w, int timeout_ms)
{
    struct pollfd p = {.fd = w->signal_fd, .events = POLLIN};
    if (poll(&p, 1, timeout_ms) > 0) {
        struct signalfd_siginfo info;
        while (read(w->signal_fd, &info, sizeof info) == (ssize_t)sizeof info)
            w->stopped |= info.ssi_signo != SIGCHLD;
    }
    w->running = reap_ended(&w->cpu_us);
}

/* Lets the processes a daemon's start leaves for an instant (the first
 * fork of a double fork) end before saying which stay. */
static void settle(struct wait_state *w)
{
    uint64_t end = now_ms() + SETTLE_MS;
    for (uint64_t now = now_ms(); w->running && !w->stopped && now < end; now = now_ms())
        wait_event(w, (int)(end - now));
}

static void announce(const struct wait_state *w)
{
    struct proc_stat *left = NULL;
    size_t n = list_descendants(&left);
    if (n && w->signal_fd < 0)
        fprintf(stderr, "stoke: the command exited and left processes running; stoke cannot "
                        "wait for them (%s) and reports what their traces hold so far\n",
                strerror(errno));
    else if (n)
        say_waiting(left, n);
    free(left);
}

/* The processes still running, and the CPU time they used so far, into out. */
static void note_still_running(struct left_running *out)
{
    struct proc_stat *left = NULL;
    size_t n = list_descendants(&left);
    out->running = calloc(n ? n : 1, sizeof *out->running);
    for (size_t i = 0; out->running && i < n; i++) {
        out->running[out->nrunning++] = left[i].pid;
        out->cpu_us += left[i].cpu_us;
    }
    free(left);
}

void wait_for_left_running(struct adoption *a, struct left_running *out)
{
    struct wait_state w = {.signal_fd = signalfd(-1, &a->stop_signals, SFD_NONBLOCK | SFD_CLOEXEC)};
    *out = (struct left_running){0};
    w.running = reap_ended(&w.cpu_us);
    if (w.signal_fd >= 0)
        settle(&w);
    if (w.running && !w.stopped)
        announce(&w);
    while (w.running && !w.stopped && w.signal_fd >= 0)
        wait_event(&w, RESCAN_MS);
    out->cpu_us = w.cpu_us;
    if (w.running)
        note_still_running(out);
    if (w.signal_fd >= 0)
        close(w.signal_fd);
    prctl(PR_SET_CHILD_SUBREAPER, 0);
    sigprocmask(SIG_SETMASK, &a->original_mask, NULL);
}

void free_left_running(struct left_running *left)
{
    free(left->running);
    *left = (struct left_running){0};
}

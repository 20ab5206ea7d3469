/*
 * server_session.c - see server_session.h. One thread, one poll loop: the
 * signals stoke cares about (SIGINT, SIGTERM, SIGHUP, SIGCHLD) arrive on a
 * signalfd, the port on the port channel, the load command's output on its
 * pipe. stoke is a child subreaper while the session runs, so every process
 * the server starts, even one that daemonizes, is stopped at the end.
 *
 * Never: leaves a process it started running, or waits without a limit.
 */
#define _GNU_SOURCE /* sigabbrev_np */
#include "server_session.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "heap_request.h"
#include "port_channel.h"
#include "process_tree.h"
#include "signal_name.h"

#define PROBE_INTERVAL_MS 100
#define KILL_WAIT_MS 2000
#define CRASH_GRACE_MS 300 /* how long a failed load waits to see the server die */
#define SNAPSHOT_TIMEOUT_S 60.0 /* a JavaScript heap of gigabytes takes a while */

struct session {
    const struct session_plan *plan;
    sigset_t original_mask;
    int signal_fd;
    struct port_channel channel;
    pid_t server;          /* the first process; 0 once reaped */
    int server_status;
    int server_alive;      /* the server or a process it started still runs */
    unsigned port;
    pid_t port_pid;
    struct load_tool load;
    int load_running;      /* 1 until the load command is reaped */
    int load_status;
    int interrupts;
    int interrupted_by; /* the first of them: stoke exits 128 + it */
    uint64_t start_ms, duration_end_ms;
    struct load_marks marks;
};

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* "exit status 3" or "killed by SIGSEGV (Segmentation fault)". */
/* The wall clock, as the agent stamps its traces. */
static uint64_t realtime_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void describe_status(int status, char *text, size_t len)
{
    char name[96];
    if (WIFSIGNALED(status))
        snprintf(text, len, "killed by %s", describe_signal(WTERMSIG(status), name, sizeof name));
    else if (WEXITSTATUS(status) == 127)
        snprintf(text, len, "exit status 127: command not found");
    else
        snprintf(text, len, "exit status %d", WEXITSTATUS(status));
}

static int duration_over(const struct session *s)
{
    return s->duration_end_ms && now_ms() >= s->duration_end_ms;
}

/* Reaps every child that ended: the server's first process, the load
 * command, and orphans of the server's tree adopted by stoke. */
static void reap_children(struct session *s)
{
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
        if (pid == s->server) {
            s->server = 0;
            s->server_status = status;
        } else if (s->load_running && pid == s->load.pid) {
            s->load_running = 0;
            s->load_status = status;
        }
    }
    s->server_alive = s->server || count_descendants(s->load_running ? s->load.pid : 0) > 0;
}

static void read_signals(struct session *s)
{
    struct signalfd_siginfo info;
    while (read(s->signal_fd, &info, sizeof info) == (ssize_t)sizeof info) {
        if (info.ssi_signo == SIGCHLD)
            reap_children(s);
        else if (s->interrupts++ == 0)
            s->interrupted_by = (int)info.ssi_signo;
    }
}

/* Waits until deadline_ms (or the next event) and handles what came. */
static void wait_events(struct session *s, uint64_t deadline_ms)
{
    struct pollfd fds[3] = {
        {.fd = s->signal_fd, .events = POLLIN},
        {.fd = s->port || s->plan->port ? -1 : s->channel.stoke_fd, .events = POLLIN},
        {.fd = s->load.output_fd, .events = POLLIN},
    };
    if (s->duration_end_ms && s->duration_end_ms < deadline_ms)
        deadline_ms = s->duration_end_ms;
    uint64_t now = now_ms();
    int timeout = deadline_ms > now ? (int)(deadline_ms - now) : 0;
    if (poll(fds, 3, timeout) <= 0)
        return;
    if (fds[0].revents)
        read_signals(s);
    if (fds[1].revents)
        s->port = port_channel_receive(&s->channel, &s->port_pid);
    if (fds[2].revents)
        load_tool_pump(&s->load);
}

/* --- stopping ------------------------------------------------------------- */

static int load_group_gone(const struct session *s)
{
    return !s->load_running && (s->load.pid <= 0 || kill(-s->load.pid, 0) != 0);
}

static int server_gone(const struct session *s)
{
    return !s->server_alive;
}

static void signal_load(const struct session *s, int sig)
{
    if (s->load.pid > 0)
        kill(-s->load.pid, sig);
}

/* Each process once: a server such as redis takes a second SIGINT during
 * its shutdown as the order to quit at once. */
static void signal_server(const struct session *s, int sig)
{
    signal_descendants(sig, s->load_running ? s->load.pid : 0);
}

/* Waits until gone(s) or the deadline; 0 when gone. A new Ctrl-C ends the
 * wait early (-1). */
static int wait_until(struct session *s, int (*gone)(const struct session *), uint64_t wait_ms)
{
    uint64_t deadline = now_ms() + wait_ms;
    int interrupts = s->interrupts;
    while (!gone(s)) {
        if (now_ms() >= deadline || s->interrupts > interrupts)
            return -1;
        wait_events(s, deadline < now_ms() + PROBE_INTERVAL_MS ? deadline
                                                               : now_ms() + PROBE_INTERVAL_MS);
        reap_children(s);
    }
    return 0;
}

/* SIGINT, then SIGTERM, then SIGKILL, --stop-timeout apart; a Ctrl-C
 * during the wait (after the first) goes to SIGKILL at once. */
static void stop_gently(struct session *s, const char *what,
                        int (*gone)(const struct session *),
                        void (*send)(const struct session *, int))
{
    static const int steps[] = {SIGINT, SIGTERM};
    for (size_t i = 0; i < 2 && !gone(s) && s->interrupts < 2; i++) {
        send(s, steps[i]);
        if (wait_until(s, gone, s->plan->stop_timeout_ms) == 0)
            return;
        if (s->interrupts < 2)
            fprintf(stderr, "stoke: the %s did not stop within %.1f s of SIG%s\n", what,
                    (double)s->plan->stop_timeout_ms / 1000, sigabbrev_np(steps[i]));
    }
    if (gone(s))
        return;
    send(s, SIGKILL);
    if (wait_until(s, gone, KILL_WAIT_MS))
        fprintf(stderr, "stoke: some processes of the %s were still there after SIGKILL\n",
                what);
}

static void stop_everything(struct session *s)
{
    if (s->load.pid > 0 && !load_group_gone(s))
        stop_gently(s, "load command", load_group_gone, signal_load);
    load_tool_pump(&s->load);
    if (!server_gone(s))
        stop_gently(s, "server", server_gone, signal_server);
}

/* --- the phases ----------------------------------------------------------- */

/* Waits for the port; 0 when known, -1 when the session should stop. */
static int wait_for_port(struct session *s, int *status)
{
    const struct session_plan *plan = s->plan;
    uint64_t deadline = now_ms() + plan->wait_ms;
    while (!s->port) {
        if (plan->port && port_answers(plan->port))
            s->port = plan->port;
        else if (s->interrupts || duration_over(s))
            return -1;
        else if (!s->server_alive) {
            char how[96];
            describe_status(s->server_status, how, sizeof how);
            fprintf(stderr, "stoke: the server ended (%s) before it listened on a TCP port\n",
                    how);
            *status = EXIT_RUNTIME_FAILURE;
            return -1;
        } else if (now_ms() >= deadline) {
            fprintf(stderr,
                    "stoke: the server did not listen on a TCP port within %.1f s; give it "
                    "longer with --wait, or name the port with --port if it is a static "
                    "program (the agent cannot report its port)\n",
                    (double)plan->wait_ms / 1000);
            *status = EXIT_RUNTIME_FAILURE;
            return -1;
        } else {
            uint64_t next = plan->port ? now_ms() + PROBE_INTERVAL_MS : deadline;
            wait_events(s, next < deadline ? next : deadline);
        }
    }
    return 0;
}

/* Runs the load command to its end; sets *status. */
static void run_load(struct session *s, int *status)
{
    char *command = expand_port(s->plan->load, s->port);
    fprintf(stderr, "stoke: running the load: %s\n", command);
    if (load_tool_start(&s->load, command, &s->original_mask)) {
        fprintf(stderr, "stoke: cannot start the load command: %s\n", strerror(errno));
        free(command);
        *status = EXIT_RUNTIME_FAILURE;
        return;
    }
    free(command);
    s->marks.start_ns = realtime_ns();
    s->load_running = 1;
    while (s->load_running && s->server_alive && !s->interrupts && !duration_over(s))
        wait_events(s, now_ms() + 1000);
    s->marks.end_ns = realtime_ns();
    load_tool_pump(&s->load);
    if (!s->load_running && s->load_status != 0 && s->server_alive)
        wait_until(s, server_gone, CRASH_GRACE_MS); /* the tool may have seen it first */
    char how[96];
    if (!s->server_alive) { /* first: a load tool fails when its server crashes */
        describe_status(s->server_status, how, sizeof how);
        fprintf(stderr, "stoke: the server ended (%s) during the load%s\n", how,
                s->load_running ? "; stopping the load" : "");
        *status = EXIT_RUNTIME_FAILURE;
    } else if (!s->load_running && s->load_status != 0) {
        describe_status(s->load_status, how, sizeof how);
        fprintf(stderr, "stoke: the load command failed (%s); stopping the server\n", how);
        *status = EXIT_RUNTIME_FAILURE;
    }
}

/* A heap snapshot of the server now, its paths on stderr; its file name
 * in name. */
static void snapshot_server(const struct session *s, const char *moment, char *name, size_t len)
{
    struct heap_request taken;
    pid_t server = s->port_pid ? s->port_pid : s->server;
    if (heap_request(server, SNAPSHOT_TIMEOUT_S, &taken) && !taken.native[0]) {
        fprintf(stderr, "stoke: no heap snapshot of the server (pid %d) as the load %s\n",
                (int)server, moment);
        return;
    }
    fprintf(stderr, "stoke: heap snapshot as the load %s: %s%s%s\n", moment, taken.native,
            taken.js[0] ? " and " : "", taken.js);
    const char *slash = strrchr(taken.native, '/');
    const char *file = slash ? slash + 1 : taken.native;
    if (strlen(file) < len)
        memcpy(name, file, strlen(file) + 1);
}

/* Without a load: until the server ends, the duration is over or Ctrl-C. */
static void run_server_alone(struct session *s, int *status)
{
    while (s->server_alive && !s->interrupts && !duration_over(s))
        wait_events(s, now_ms() + 1000);
    if (!s->server_alive && s->server_status)
        *status = WIFSIGNALED(s->server_status) ? 128 + WTERMSIG(s->server_status)
                                                : WEXITSTATUS(s->server_status);
}

static void run_phases(struct session *s, int *status)
{
    if (s->plan->load || s->plan->port) {
        if (wait_for_port(s, status))
            return;
        fprintf(stderr, "stoke: the server listens on port %u", s->port);
        if (s->port_pid)
            fprintf(stderr, " (pid %d)", (int)s->port_pid);
        fputc('\n', stderr);
    }
    if (s->plan->load && s->plan->heap)
        snapshot_server(s, "starts", s->marks.start_snapshot, sizeof s->marks.start_snapshot);
    if (s->plan->load)
        run_load(s, status);
    if (s->plan->load && s->plan->heap && s->server_alive && !s->interrupts)
        snapshot_server(s, "ends", s->marks.end_snapshot, sizeof s->marks.end_snapshot);
    if (!s->plan->load)
        run_server_alone(s, status);
}

/* --- setting up and tearing down ------------------------------------------ */

static int open_session(struct session *s, const struct session_plan *plan)
{
    *s = (struct session){.plan = plan, .signal_fd = -1, .channel = {-1, -1},
                          .load = {.pid = -1, .output_fd = -1}};
    sigset_t handled;
    sigemptyset(&handled);
    sigaddset(&handled, SIGINT);
    sigaddset(&handled, SIGTERM);
    sigaddset(&handled, SIGHUP);
    sigaddset(&handled, SIGCHLD);
    if (sigprocmask(SIG_BLOCK, &handled, &s->original_mask))
        return -1;
    s->signal_fd = signalfd(-1, &handled, SFD_NONBLOCK | SFD_CLOEXEC);
    if (s->signal_fd < 0 || port_channel_open(&s->channel))
        return -1;
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    return 0;
}

static void close_session(struct session *s)
{
    prctl(PR_SET_CHILD_SUBREAPER, 0);
    port_channel_close(&s->channel);
    if (s->signal_fd >= 0)
        close(s->signal_fd);
    sigprocmask(SIG_SETMASK, &s->original_mask, NULL);
}

static void finish(struct session *s, int status, struct session_result *result)
{
    if (s->interrupts) {
        char name[96];
        fprintf(stderr, "stoke: interrupted by %s; stopping (interrupt again to stop at once, "
                        "without a report)\n",
                describe_signal(s->interrupted_by, name, sizeof name));
        status = 128 + s->interrupted_by;
    }
    stop_everything(s);
    *result = (struct session_result){
        .status = status,
        .write_report = s->interrupts < 2,
        .ran_load = s->load.pid > 0,
        .output = s->load.output,
        .wall_us = (now_ms() - s->start_ms) * 1000,
        .marks = s->marks,
    };
    s->load.output = (struct load_output){0};
    load_tool_free(&s->load);
}

int run_server_session(const struct session_plan *plan, struct launch_plan *launch_plan,
                       struct launched *child, struct session_result *result, char *err,
                       size_t errlen, int *failure_status)
{
    struct session s;
    if (open_session(&s, plan)) {
        snprintf(err, errlen, "cannot set up the server session: %s", strerror(errno));
        *failure_status = EXIT_RUNTIME_FAILURE;
        close_session(&s);
        return -1;
    }
    launch_plan->port_fd = s.channel.agent_fd;
    launch_plan->session_mask = &s.original_mask;
    s.start_ms = now_ms();
    if (launch(launch_plan, child, err, errlen, failure_status)) {
        close_session(&s);
        return -1;
    }
    port_channel_close_agent_end(&s.channel);
    struct continuous_push *pusher =
        plan->push ? continuous_push_start(plan->push, child->output_dir, &child->earlier) : NULL;
    s.server = child->pid;
    s.server_alive = 1;
    if (plan->duration_ms)
        s.duration_end_ms = s.start_ms + plan->duration_ms;
    int status = EXIT_OK;
    run_phases(&s, &status);
    finish(&s, status, result);
    continuous_push_stop(pusher);
    close_session(&s);
    return 0;
}

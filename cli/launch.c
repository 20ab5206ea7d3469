/*
 * launch.c - owns the child's life: starts it with the agent's environment
 * contract (LD_PRELOAD, STOKE_OUTPUT, STOKE_HZ, STOKE_CLOCK, STOKE_MAX_SIZE
 * with --max-size, and the heap's STOKE_HEAP_INTERVAL, STOKE_HEAP_SIGNAL,
 * STOKE_HEAP_PEAK, set with --heap and removed without it), keeps stoke alive through the terminal's SIGINT
 * and SIGQUIT (which reach the child directly), passes SIGTERM and SIGHUP
 * on, and reaps it. The child inherits stdin, stdout, stderr and stoke's
 * original signal dispositions untouched. For a server session (record -P,
 * --duration) it also passes the port channel (STOKE_PORT_FD) and starts the
 * command in its own process group. So that JIT code is named, node gets
 * STOKE_NODE_FLAGS appended to NODE_OPTIONS (unless the user already asks
 * node for a perf map there), with heap tracking STOKE_NODE_HEAP_FLAG too
 * (node's V8 heap snapshots), and STOKE_RUNTIME_NAMES tells the agent what
 * was asked. Never changes the child's arguments or any variable but the
 * ten above, and NODE_OPTIONS only by appending to it.
 *
 * The output directory is prepared once the child exists, because its
 * default name carries the child's pid: the child waits on a pipe until
 * stoke has readied it (or ends at once when it cannot be used), then
 * execs. A failure in the child before or in exec is sent back over a
 * close-on-exec pipe, so stoke can tell a command that could not start
 * from one that ran.
 */
#define _GNU_SOURCE /* pipe2 */
#include "launch.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "command_path.h"
#include "output_dir.h"
#include "stoke_agent_env.h"

enum start_stage { STAGE_OUTPUT_DIR = 1, STAGE_EXEC = 2 };

/* What went wrong in the child before the command started. */
struct start_failure {
    int stage;
    int error;
};

static const int ignored_signals[] = {SIGINT, SIGQUIT};
static const int forwarded_signals[] = {SIGTERM, SIGHUP};
#define NIGNORED (sizeof ignored_signals / sizeof ignored_signals[0])
#define NFORWARDED (sizeof forwarded_signals / sizeof forwarded_signals[0])

/* stoke's own signal state from before the launch, restored in the child
 * and after the wait. */
static struct sigaction saved_ignored[NIGNORED], saved_forwarded[NFORWARDED];
static sigset_t saved_mask;

static volatile pid_t forward_to;
static int signals_taken;

/* The port channel sits above the descriptors programs use themselves. */
#define PORT_FD_MIN 200

static void forward_signal(int sig)
{
    int saved_errno = errno;
    if (forward_to > 0)
        kill(forward_to, sig);
    errno = saved_errno;
}

/* Ignores SIGINT and SIGQUIT, and installs the forwarders for SIGTERM and
 * SIGHUP with those two blocked until the child's pid is known. */
static void take_over_signals(void)
{
    sigset_t block;
    sigemptyset(&block);
    for (size_t i = 0; i < NFORWARDED; i++)
        sigaddset(&block, forwarded_signals[i]);
    sigprocmask(SIG_BLOCK, &block, &saved_mask);

    struct sigaction ignore = {.sa_handler = SIG_IGN};
    for (size_t i = 0; i < NIGNORED; i++)
        sigaction(ignored_signals[i], &ignore, &saved_ignored[i]);
    struct sigaction forward = {.sa_handler = forward_signal, .sa_flags = SA_RESTART};
    sigemptyset(&forward.sa_mask);
    for (size_t i = 0; i < NFORWARDED; i++)
        sigaction(forwarded_signals[i], &forward, &saved_forwarded[i]);
    signals_taken = 1;
}

/* Puts stoke's signal state back as it was before the launch, but for the
 * signals of keep_blocked (NULL: none), which stay blocked from before the
 * dispositions change on, so none of them is lost or acted on meanwhile. */
static void restore_signals_but(const sigset_t *keep_blocked)
{
    if (!signals_taken)
        return;
    signals_taken = 0;
    sigset_t mask = saved_mask;
    if (keep_blocked) {
        sigprocmask(SIG_BLOCK, keep_blocked, NULL);
        sigorset(&mask, &saved_mask, keep_blocked);
    }
    for (size_t i = 0; i < NIGNORED; i++)
        sigaction(ignored_signals[i], &saved_ignored[i], NULL);
    for (size_t i = 0; i < NFORWARDED; i++)
        sigaction(forwarded_signals[i], &saved_forwarded[i], NULL);
    sigprocmask(SIG_SETMASK, &mask, NULL);
}

static void restore_signals(void)
{
    restore_signals_but(NULL);
}

/* Sets the heap variables when heap tracking is on, removes them when it is
 * off, so the command's heap tracking is what the options say. */
static int set_heap_environment(const struct heap_plan *heap)
{
    if (!heap->interval)
        return unsetenv(STOKE_ENV_HEAP_INTERVAL) || unsetenv(STOKE_ENV_HEAP_SIGNAL) ||
                       unsetenv(STOKE_ENV_HEAP_PEAK)
                   ? -1
                   : 0;
    char interval[24], signal_number[16];
    snprintf(interval, sizeof interval, "%llu", (unsigned long long)heap->interval);
    snprintf(signal_number, sizeof signal_number, "%d", heap->signal);
    return setenv(STOKE_ENV_HEAP_INTERVAL, interval, 1) ||
                   setenv(STOKE_ENV_HEAP_SIGNAL, signal_number, 1) ||
                   (heap->peak ? setenv(STOKE_ENV_HEAP_PEAK, "1", 1)
                               : unsetenv(STOKE_ENV_HEAP_PEAK))
               ? -1
               : 0;
}

/* STOKE_PORT_FD names an inheritable copy of the channel; without one, the
 * variable is removed so no outer stoke's channel is reported to. */
static int set_port_channel(int fd)
{
    if (!fd)
        return unsetenv(STOKE_ENV_PORT_FD);
    int inheritable = fcntl(fd, F_DUPFD, PORT_FD_MIN);
    if (inheritable < 0) /* a descriptor limit of 200 or less */
        inheritable = fcntl(fd, F_DUPFD, STDERR_FILENO + 1);
    struct stat st;
    if (inheritable < 0 || fstat(inheritable, &st))
        return -1;
    char value[48];
    snprintf(value, sizeof value, "%d:%llu", inheritable, (unsigned long long)st.st_ino);
    return setenv(STOKE_ENV_PORT_FD, value, 1);
}

/* Appends flags to NODE_OPTIONS (what the user set stays, in front);
 * returns 0, or -1 when they do not fit. */
static int append_node_options(const char *flags)
{
    const char *node = getenv("NODE_OPTIONS");
    char options[8192];
    if (snprintf(options, sizeof options, "%s%s%s", node ? node : "", node && *node ? " " : "",
                 flags) >= (int)sizeof options)
        return -1;
    return setenv("NODE_OPTIONS", options, 1);
}

static int user_node_options_ask(const char *flag)
{
    const char *node = getenv("NODE_OPTIONS");
    return node && strstr(node, flag);
}

int launch_asks_node_for_names(int runtime_names)
{
    return runtime_names && !user_node_options_ask("--perf-basic-prof") &&
           !user_node_options_ask("--perf-prof");
}

/* Asks node (through NODE_OPTIONS) and the JVM (through the agent) to name
 * their generated code, and with heap tracking node for V8 heap snapshots
 * on a signal, unless the user said not to; NODE_OPTIONS that ask for a
 * perf map or a heap snapshot signal already are the user's to keep. */
static int set_runtime_names(int on, int heap)
{
    if (!on)
        return unsetenv(STOKE_ENV_RUNTIME_NAMES);
    int node_names = launch_asks_node_for_names(on) && !append_node_options(STOKE_NODE_FLAGS);
    if (heap && !user_node_options_ask("--heapsnapshot-signal"))
        append_node_options(STOKE_NODE_HEAP_FLAG);
    return setenv(STOKE_ENV_RUNTIME_NAMES, node_names ? "node,java" : "java", 1);
}

static int set_max_size(uint64_t max_size)
{
    char value[24];
    if (!max_size)
        return unsetenv(STOKE_ENV_MAX_SIZE);
    snprintf(value, sizeof value, "%" PRIu64, max_size);
    return setenv(STOKE_ENV_MAX_SIZE, value, 1);
}

/* Sets the agent's variables; LD_PRELOAD keeps what the user preloads. */
static int set_agent_environment(const struct launch_plan *plan, const char *output_dir)
{
    char absolute_dir[PATH_MAX], hz[16], preload[2 * PATH_MAX];
    if (!realpath(output_dir, absolute_dir))
        return -1;
    snprintf(hz, sizeof hz, "%u", plan->hz);
    const char *user_preload = getenv("LD_PRELOAD");
    if (user_preload && *user_preload)
        snprintf(preload, sizeof preload, "%s:%s", plan->agent, user_preload);
    else
        snprintf(preload, sizeof preload, "%s", plan->agent);
    return setenv("LD_PRELOAD", preload, 1) || setenv(STOKE_ENV_OUTPUT, absolute_dir, 1) ||
                   setenv(STOKE_ENV_HZ, hz, 1) || setenv(STOKE_ENV_CLOCK, plan->clock, 1) ||
                   set_max_size(plan->max_size) || set_heap_environment(&plan->heap) ||
                   set_port_channel(plan->port_fd) ||
                   set_runtime_names(plan->runtime_names, plan->heap.interval != 0)
               ? -1
               : 0;
}

static _Noreturn void fail_in_child(int report_fd, int stage, int error, int status)
{
    struct start_failure failure = {stage, error};
    ssize_t ignored = write(report_fd, &failure, sizeof failure);
    (void)ignored;
    _exit(status);
}

/* The output directory as the user named it, or the default for pid. */
static void name_output_dir(const struct launch_plan *plan, pid_t pid, char *dir, size_t len)
{
    if (plan->output_dir)
        snprintf(dir, len, "%s", plan->output_dir);
    else
        default_output_dir(dir, len, pid);
}

/* Runs in the child: prepares the output directory, then becomes the
 * command. Reports a failure on report_fd and exits. */
/* A session's server: its own process group (stoke signals it as one), no
 * terminal input (it runs in the background), the mask from before. */
static void enter_session(const sigset_t *mask)
{
    setpgid(0, 0);
    int null = open("/dev/null", O_RDONLY);
    if (null > 0) {
        dup2(null, STDIN_FILENO);
        close(null);
    }
    sigprocmask(SIG_SETMASK, mask, NULL);
}

/* 1 once stoke says the output directory is ready; 0 when it could not be
 * used (stoke closed the pipe without a word, and has said why). */
static int output_dir_ready(int go_fd)
{
    char go;
    ssize_t n;
    do
        n = read(go_fd, &go, 1);
    while (n < 0 && errno == EINTR);
    close(go_fd);
    return n == 1;
}

static _Noreturn void become_command(const struct launch_plan *plan, int report_fd, int go_fd)
{
    if (plan->session_mask)
        enter_session(plan->session_mask);
    else
        restore_signals();
    if (!output_dir_ready(go_fd))
        _exit(1);
    char dir[PATH_MAX];
    name_output_dir(plan, getpid(), dir, sizeof dir);
    if (set_agent_environment(plan, dir))
        fail_in_child(report_fd, STAGE_OUTPUT_DIR, errno, 1);
    execv(plan->file, plan->argv);
    int error = errno;
    fail_in_child(report_fd, STAGE_EXEC, error, cannot_run_status(error));
}

/* Reads the child's report of a failed start; 0 when exec succeeded. */
static int read_start_failure(int fd, struct start_failure *failure)
{
    ssize_t n;
    do
        n = read(fd, failure, sizeof *failure);
    while (n < 0 && errno == EINTR);
    return n == (ssize_t)sizeof *failure ? -1 : 0;
}

static void describe_start_failure(const struct launch_plan *plan, const struct launched *child,
                                   const struct start_failure *failure, char *err, size_t errlen)
{
    if (failure->stage == STAGE_OUTPUT_DIR)
        snprintf(err, errlen, "cannot use output directory '%s': %s; choose another with -o",
                 child->output_dir, strerror(failure->error));
    else
        snprintf(err, errlen, "cannot run '%s': %s", plan->argv[0], strerror(failure->error));
}

int shell_status(int wait_status)
{
    if (WIFSIGNALED(wait_status))
        return 128 + WTERMSIG(wait_status);
    return WEXITSTATUS(wait_status);
}

void pass_on_interrupt(int wait_status)
{
    if (!WIFSIGNALED(wait_status) || WTERMSIG(wait_status) != SIGINT)
        return;
    signal(SIGINT, SIG_DFL);
    raise(SIGINT);
}

/* Waits for pid; returns its wait status (exit 1 if it cannot be had) and
 * its CPU time (user and system) in *cpu_us. */
static int reap(pid_t pid, uint64_t *cpu_us)
{
    int status;
    struct rusage usage;
    *cpu_us = 0;
    while (wait4(pid, &status, 0, &usage) < 0)
        if (errno != EINTR)
            return W_EXITCODE(1, 0);
    *cpu_us = (uint64_t)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000 +
              (uint64_t)(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
    return status;
}

static int cannot_start(const struct launch_plan *plan, int error, char *err, size_t errlen,
                        int *failure_status)
{
    snprintf(err, errlen, "cannot start '%s': %s", plan->argv[0], strerror(error));
    *failure_status = 1;
    return -1;
}

static void close_pipe(int fds[2])
{
    close(fds[0]);
    close(fds[1]);
}

/* Readies the child's output directory and lets the child go on; -1 when
 * the directory cannot be used (the child then ends). */
static int ready_output_dir(struct launched *child, int go_fd, char *err, size_t errlen)
{
    int ready = prepare_output_dir(child->output_dir, &child->earlier, err, errlen) == 0;
    if (ready) /* a child that died meanwhile is then reaped as one that ran */
        send(go_fd, "g", 1, MSG_NOSIGNAL);
    close(go_fd);
    return ready ? 0 : -1;
}

int launch(const struct launch_plan *plan, struct launched *child, char *err, size_t errlen,
           int *failure_status)
{
    int report[2], go[2];
    memset(child, 0, sizeof *child);
    if (pipe2(report, O_CLOEXEC))
        return cannot_start(plan, errno, err, errlen, failure_status);
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, go)) {
        close_pipe(report);
        return cannot_start(plan, errno, err, errlen, failure_status);
    }
    if (!plan->session_mask)
        take_over_signals();
    pid_t pid = fork();
    if (pid == 0) {
        close(report[0]);
        close(go[1]);
        become_command(plan, report[1], go[0]);
    }
    int fork_error = errno;
    close(report[1]);
    close(go[0]);
    if (pid < 0) {
        close(report[0]);
        close(go[1]);
        restore_signals();
        return cannot_start(plan, fork_error, err, errlen, failure_status);
    }
    child->pid = pid;
    name_output_dir(plan, pid, child->output_dir, sizeof child->output_dir);
    if (plan->session_mask) {
        setpgid(pid, pid);
    } else {
        forward_to = pid;
        sigprocmask(SIG_SETMASK, &saved_mask, NULL);
    }
    if (ready_output_dir(child, go[1], err, errlen)) {
        close(report[0]);
        wait_for_child(child, NULL);
        *failure_status = 1;
        return -1;
    }

    struct start_failure failure;
    int started = read_start_failure(report[0], &failure) == 0;
    close(report[0]);
    if (started)
        return 0;
    *failure_status = shell_status(wait_for_child(child, NULL));
    describe_start_failure(plan, child, &failure, err, errlen);
    free_output_files(&child->earlier);
    return -1;
}

int wait_for_child(struct launched *child, const sigset_t *keep_blocked)
{
    int status = reap(child->pid, &child->cpu_us);
    forward_to = 0;
    restore_signals_but(keep_blocked);
    return status;
}

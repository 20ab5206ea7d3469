/*
 * empty_sampler.c - a preloadable library that takes samples the way stoke's
 * agent does and throws them away: one perf_event_open task-clock event on
 * the main thread, counting user time only, whose every overflow sends
 * SIGPROF to that thread, and a handler that only counts.
 *
 *   LD_PRELOAD=empty_sampler.so EMPTY_SAMPLER_HZ=997 \
 *       EMPTY_SAMPLER_OUTPUT=count.txt cpu_burn
 *
 * The benchmark runs it beside stoke as the floor of what any in-process
 * signal sampler costs on the machine (timer interrupts, signal delivery,
 * sigreturn); what stoke costs beyond it is stoke's own work. Main thread
 * only: for single-threaded workloads. Never unwinds or records anything;
 * writes only the sample count, at exit, and prints only when it cannot
 * sample.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile sig_atomic_t samples;

static void count_sample(int signo)
{
    (void)signo;
    samples++;
}

static int open_task_clock(long hz)
{
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_SOFTWARE;
    attr.config = PERF_COUNT_SW_TASK_CLOCK;
    attr.sample_period = 1000000000L / hz;
    attr.wakeup_events = 1;
    attr.exclude_kernel = 1;
    attr.exclude_hv = 1;
    return (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static __attribute__((constructor)) void start_sampling(void)
{
    const char *text = getenv("EMPTY_SAMPLER_HZ");
    long hz = text ? atol(text) : 997;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = count_sample;
    action.sa_flags = SA_RESTART;
    int fd = hz > 0 ? open_task_clock(hz) : -1;
    struct f_owner_ex owner = {F_OWNER_TID, gettid()};
    if (fd < 0 || sigaction(SIGPROF, &action, NULL) ||
        fcntl(fd, F_SETFL, O_ASYNC | O_NONBLOCK) || fcntl(fd, F_SETSIG, SIGPROF) ||
        fcntl(fd, F_SETOWN_EX, &owner))
        fprintf(stderr, "empty_sampler: cannot sample at %ld Hz\n", hz);
}

static __attribute__((destructor)) void write_count(void)
{
    const char *path = getenv("EMPTY_SAMPLER_OUTPUT");
    FILE *out = path ? fopen(path, "w") : NULL;
    if (out) {
        fprintf(out, "%d\n", (int)samples);
        fclose(out);
    }
}

/*
 * timers.c - arms per-thread sampling clocks (see timers.h).
 * The first expiry of each thread's clock is randomized within one period
 * so that short-lived threads are sampled in proportion to their run time.
 */
#define _GNU_SOURCE
#include "timers.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#include "common/agent_fds.h"
#include "common/sandbox.h"

/* The engine chosen for the whole process (timers_setup). */
static struct {
    int engine;         /* enum stoke_engine; 0: none */
    int signo;          /* the signal its clocks send */
    uint64_t period_ns;
    char note[256];     /* for the user; "" when none */
} clocks;

static uint64_t random_below(uint64_t limit)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t x = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ull ^ (uint64_t)gettid() << 32;
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 29;
    return limit ? x % limit : 0;
}

static int perf_start(struct thread_state *t)
{
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.size = sizeof attr;
    attr.type = PERF_TYPE_SOFTWARE;
    attr.config = PERF_COUNT_SW_TASK_CLOCK;
    /* the randomized first period is lengthened by an ioctl in the
     * handler, a system call a seccomp filter may not allow */
    attr.sample_period =
        sandbox_threads_restricted() ? clocks.period_ns : 1 + random_below(clocks.period_ns);
    attr.wakeup_events = 1;
    attr.disabled = 1;
    attr.exclude_kernel = 1; /* signals only in user mode: never EINTR */
    attr.exclude_hv = 1;
    int fd = agent_fds_adopt((int)syscall(SYS_perf_event_open, &attr, 0, -1, -1,
                                          PERF_FLAG_FD_CLOEXEC));
    if (fd < 0)
        return -1;
    struct f_owner_ex owner = {F_OWNER_TID, t->tid};
    /* Known before it is enabled: the first sample may land inside the
     * ioctl, and must find the short first period to lengthen (else every
     * few nanoseconds of CPU would bring a signal, for good). */
    t->timer.perf_fd = fd;
    t->timer.first_pending = attr.sample_period != clocks.period_ns;
    atomic_signal_fence(memory_order_seq_cst);
    if (fcntl(fd, F_SETFL, O_ASYNC | O_NONBLOCK) || fcntl(fd, F_SETSIG, clocks.signo) ||
        fcntl(fd, F_SETOWN_EX, &owner) || ioctl(fd, PERF_EVENT_IOC_ENABLE, 0)) {
        t->timer.first_pending = 0;
        t->timer.perf_fd = -1;
        agent_fds_close(fd);
        return -1;
    }
    return 0;
}

static int posix_start(struct thread_state *t)
{
    struct sigevent ev;
    memset(&ev, 0, sizeof ev);
    ev.sigev_notify = SIGEV_THREAD_ID;
    ev.sigev_signo = clocks.signo;
    ev._sigev_un._tid = t->tid;
    if (timer_create(CLOCK_THREAD_CPUTIME_ID, &ev, &t->timer.posix_timer))
        return -1;
    uint64_t first = 1 + random_below(clocks.period_ns);
    struct itimerspec spec = {
        .it_interval = {(time_t)(clocks.period_ns / 1000000000),
                        (long)(clocks.period_ns % 1000000000)},
        .it_value = {(time_t)(first / 1000000000), (long)(first % 1000000000)},
    };
    if (timer_settime(t->timer.posix_timer, 0, &spec, NULL)) {
        timer_delete(t->timer.posix_timer);
        return -1;
    }
    t->timer.posix_armed = 1;
    return 0;
}

static int setitimer_start(void)
{
    uint64_t us = clocks.period_ns / 1000 ? clocks.period_ns / 1000 : 1;
    struct itimerval v = {{(time_t)(us / 1000000), (suseconds_t)(us % 1000000)},
                          {(time_t)(us / 1000000), (suseconds_t)(us % 1000000)}};
    return setitimer(ITIMER_PROF, &v, NULL);
}

int timers_start(struct thread_state *t)
{
    switch (clocks.engine) {
    case STOKE_ENGINE_PERF_TASK_CLOCK: return perf_start(t);
    case STOKE_ENGINE_POSIX_THREAD_CPU: return posix_start(t);
    case STOKE_ENGINE_SETITIMER: return 0; /* process-wide, armed once */
    }
    return -1;
}

int timers_setup(uint32_t hz, int signo, struct thread_state *t)
{
    clocks.signo = signo;
    clocks.period_ns = 1000000000ull / hz;
    clocks.note[0] = 0;
    clocks.engine = STOKE_ENGINE_PERF_TASK_CLOCK;
    if (!timers_start(t))
        return clocks.engine;
    int perf_errno = errno;
    clocks.engine = STOKE_ENGINE_POSIX_THREAD_CPU;
    if (!timers_start(t)) {
        snprintf(clocks.note, sizeof clocks.note,
                 "perf events are not available (%s; see /proc/sys/kernel/perf_event_paranoid); "
                 "using POSIX CPU timers, which the kernel checks only at its tick (often "
                 "250 Hz): expect fewer samples than the %u Hz asked",
                 strerror(perf_errno), hz);
        return clocks.engine;
    }
    clocks.engine = STOKE_ENGINE_SETITIMER;
    if (!setitimer_start()) {
        snprintf(clocks.note, sizeof clocks.note,
                 "perf events and per-thread timers are not available; using setitimer, "
                 "which delivers at most the kernel tick rate and undercounts busy threads");
        return clocks.engine;
    }
    clocks.engine = 0;
    return 0;
}

/* The program may have closed our descriptor and reused its number (some
 * close every descriptor they did not open): only close what is still the
 * perf event we opened for this thread. Async-signal-safe: the sampler
 * stops a thread's clock from its handler. */
static int still_our_event(int fd, pid_t tid)
{
    struct f_owner_ex owner;
    uint64_t id; /* only a perf event answers this */
    return !ioctl(fd, PERF_EVENT_IOC_ID, &id) && !fcntl(fd, F_GETOWN_EX, &owner) &&
           owner.type == F_OWNER_TID && owner.pid == tid;
}

void timers_stop(struct thread_state *t)
{
    int fd = atomic_exchange(&t->timer.perf_fd, -1);
    if (fd >= 0 && still_our_event(fd, t->tid)) {
        ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
        agent_fds_close(fd);
    } else if (fd >= 0) {
        agent_fds_forget(fd);
    }
    if (atomic_exchange(&t->timer.posix_armed, 0))
        timer_delete(t->timer.posix_timer);
}

void timers_stop_process(void)
{
    if (clocks.engine == STOKE_ENGINE_SETITIMER) {
        struct itimerval off = {{0, 0}, {0, 0}};
        setitimer(ITIMER_PROF, &off, NULL);
    }
}

void timers_settle(struct thread_state *t)
{
    timers_on_sample(t);
}

void timers_on_sample(struct thread_state *t)
{
    if (!t->timer.first_pending)
        return;
    t->timer.first_pending = 0;
    uint64_t period = clocks.period_ns;
    ioctl(t->timer.perf_fd, PERF_EVENT_IOC_PERIOD, &period);
}

/* By the kind of sender only, not by descriptor or timer id: a signal of
 * a clock stopped a moment ago must still count as stoke's, never reach a
 * program that left the signal's default action (terminate). */
int timers_signal_is_ours(const siginfo_t *info)
{
    switch (clocks.engine) {
    case STOKE_ENGINE_PERF_TASK_CLOCK:
        return info->si_code == POLL_IN || info->si_code == POLL_HUP;
    case STOKE_ENGINE_POSIX_THREAD_CPU:
        return info->si_code == SI_TIMER;
    case STOKE_ENGINE_SETITIMER:
        return info->si_code == SI_KERNEL;
    }
    return 0;
}

void timers_forget(struct thread_state *t)
{
    int fd = atomic_exchange(&t->timer.perf_fd, -1);
    if (fd >= 0 && still_our_event(fd, t->tid))
        agent_fds_close(fd); /* our copy only; the parent's event lives on */
    else if (fd >= 0)
        agent_fds_forget(fd);
    atomic_store(&t->timer.posix_armed, 0); /* not inherited by fork */
}

uint64_t timers_period_ns(void)
{
    return clocks.period_ns;
}

const char *timers_note(void)
{
    return clocks.note[0] ? clocks.note : NULL;
}

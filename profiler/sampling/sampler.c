/*
 * sampler.c - the signal handler (see sampler.h).
 *
 * Runs inside whatever the thread was doing, so it only does
 * async-signal-safe work: no malloc, no locks, no stdio, no loader calls,
 * errno saved and restored. It reads CLOCK_MONOTONIC (vDSO, no syscall),
 * except in a thread in seccomp strict mode, where the vDSO clock faults
 * and no system call but read, write and exit is allowed.
 * A full ring or a dlclose in progress drops the sample and counts it.
 */
#define _GNU_SOURCE
#include "sampler.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "arch_x86_64.h"
#include "modules.h"
#include "signal_stack.h"
#include "threads.h"
#include "timers.h"
#include "unwind.h"
#include "common/agent_signals.h"
#include "common/log.h"
#include "common/real_libc.h"
#include "common/sandbox.h"
#include "program/dump_signal.h"
#include "program/program_action.h"
#include "program/signal_view.h"

static struct {
    _Atomic int active;
    int signo;                      /* the sampling signal; 0 until installed */
    struct program_action program;  /* the program's action for it */
} sampler;

static uint64_t monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The time, or 0 in a thread in seccomp strict mode, where reading the
 * clock faults (the writer then stamps the sample when it drains it). */
static uint64_t handler_clock_ns(const struct thread_state *t)
{
    return t->strict ? 0 : monotonic_ns();
}

struct sample_request {
    struct thread_state *t;
    const ucontext_t *uc;
    uint32_t weight;
};

/* On the agent's stack (signal_stack_run): the unwind needs about 11 KiB. */
static void take_sample_here(void *arg)
{
    const struct sample_request *r = arg;
    struct thread_state *t = r->t;
    uint64_t start = handler_clock_ns(t);
    if (modules_enter()) {
        atomic_fetch_add_explicit(&t->lost, 1, memory_order_relaxed);
    } else {
        struct unwind_start from;
        unwind_start_from_ucontext(&from, r->uc);
        unwind_bound_stack(&from, t->stack_lo, t->stack_hi);
        uint32_t flags;
        uint32_t n = unwind_stack(&from, t->frames, STOKE_MAX_FRAMES, &flags);
        modules_leave();
        if (ring_push(&t->ring, start, flags, r->weight, t->frames, n))
            atomic_fetch_add_explicit(&t->lost, 1, memory_order_relaxed);
        else
            atomic_fetch_add_explicit(&t->samples, 1, memory_order_relaxed);
    }
    if (start)
        atomic_fetch_add_explicit(&t->handler_ns, monotonic_ns() - start, memory_order_relaxed);
}

static void take_sample(struct thread_state *t, const ucontext_t *uc, uint32_t weight)
{
    struct sample_request r = {t, uc, weight};
    signal_stack_run(t, take_sample_here, &r, arch_interrupted_sp(uc));
}

static void queue_again(int signo, siginfo_t *info)
{
    pid_t pid = (pid_t)syscall(SYS_getpid);
    if (info->si_code == SI_TKILL)
        syscall(SYS_rt_tgsigqueueinfo, pid, (pid_t)syscall(SYS_gettid), signo, info);
    else
        syscall(SYS_rt_sigqueueinfo, pid, signo, info);
}

/* A signal of the program's that this thread blocks in the program's view
 * (kept unblocked for sampling): the program reads it with signalfd or
 * sigwait. Stoke's clock for this thread stops and its signals already
 * pending are dropped; the program's are queued again, to the thread or
 * the process as they came, and the signal is really blocked here from the
 * handler's return, so they stay pending for the program. */
static void keep_pending(int signo, siginfo_t *info, ucontext_t *uc, struct thread_state *t)
{
    if (t)
        timers_stop(t);
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, signo);
    struct timespec now = {0, 0};
    siginfo_t pending[2]; /* at most one for the thread, one for the process */
    int kept = 0;
    while (kept < 2 && sigtimedwait(&one, &pending[kept], &now) == signo)
        if (!timers_signal_is_ours(&pending[kept]))
            kept++;
    queue_again(signo, info);
    for (int i = 0; i < kept; i++)
        queue_again(signo, &pending[i]);
    sigaddset(&uc->uc_sigmask, signo);
}

/* What the kernel would have done with a signal that is not stoke's. */
static void forward_to_program(int signo, siginfo_t *info, void *context)
{
    const struct sigaction *a = program_action_get(&sampler.program);
    if (signal_view_blocked(signo)) {
        keep_pending(signo, info, context, current_thread);
    } else if (program_action_is(a, SIG_DFL)) {
        agent_signal_raise_default(signo); /* its default action: terminate */
    } else if (!program_action_is(a, SIG_IGN)) {
        program_action_call(a, signo, info, context);
    }
}

int sampler_program_sigaction(int signo, const struct sigaction *sa, struct sigaction *old,
                              int *ret)
{
    if (!sampler.signo || signo != sampler.signo)
        return 0;
    program_action_set(&sampler.program, sa, old);
    *ret = 0;
    return 1;
}

/* 1 when the thread ran less than half a period since its last sample
 * ended: samples that take longer than the period (a cold unwind at a high
 * rate) would otherwise leave the program no time at all, as the thread's
 * clock runs on inside the handler. Dropping this one lets it run a period. */
static int starved_by_sampling(const struct thread_state *t)
{
    return !t->strict && monotonic_ns() - t->sample_end_ns < timers_period_ns() / 2;
}

static uint64_t thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The periods of the thread's CPU time this sample stands for. A perf
 * task-clock event counts all the thread's time, but the agent asks for
 * its signals in user mode only (one landing in a system call could cut
 * the call short with EINTR), so an expiry while the thread runs in the
 * kernel brings no signal: the next sample stands for it too, as it does
 * for one dropped to let a starved thread run. A POSIX timer says what it
 * missed itself. 1 in a thread that may make no system call.
 *
 * A thread's CPU time never runs ahead of the wall clock: when less than
 * 1.5 periods of wall time passed since the last sample, this one stands
 * for one period, and the CPU time is only counted on (no system call).
 * Only after a longer gap is the thread's CPU clock read. */
static uint32_t sample_weight(struct thread_state *t, const siginfo_t *info)
{
    if (info->si_code == SI_TIMER)
        return 1 + (uint32_t)(info->si_overrun > 0 ? info->si_overrun : 0);
    if (t->strict || sandbox_threads_restricted())
        return 1;
    uint64_t period = timers_period_ns(), wall = monotonic_ns();
    uint64_t since = wall - t->sample_wall_ns;
    t->sample_wall_ns = wall;
    if (!t->sample_cpu_ns) {
        t->sample_cpu_ns = thread_cpu_ns();
        return 1;
    }
    if (since < period + period / 2) {
        t->sample_cpu_ns += period;
        return 1;
    }
    uint64_t now = thread_cpu_ns();
    uint64_t periods = now > t->sample_cpu_ns ? (now - t->sample_cpu_ns + period / 2) / period : 1;
    t->sample_cpu_ns = now;
    return periods < 1 ? 1 : periods > RING_MAX_WEIGHT ? RING_MAX_WEIGHT : (uint32_t)periods;
}

static void on_sample_signal(int signo, siginfo_t *info, void *context)
{
    int saved_errno = errno;
    struct thread_state *t = current_thread;
    if (!timers_signal_is_ours(info)) {
        forward_to_program(signo, info, context);
        errno = saved_errno;
        return;
    }
    if (t) /* first: whatever happens to this sample, the next is a full period away */
        timers_on_sample(t);
    if (t && !t->in_handler && atomic_load_explicit(&sampler.active, memory_order_relaxed)) {
        if (unwind_busy() || starved_by_sampling(t)) {
            atomic_fetch_add_explicit(&t->lost, 1, memory_order_relaxed);
            errno = saved_errno;
            return;
        }
        t->in_handler = 1;
        dump_signal_fix_interrupted_mask(context);
        take_sample(t, context, sample_weight(t, info));
        t->sample_end_ns = handler_clock_ns(t);
        t->in_handler = 0;
    }
    errno = saved_errno;
}

static int choose_signal(void)
{
    if (agent_signal_is_default(SIGPROF))
        return SIGPROF;
    for (int s = SIGRTMIN + 8; s <= SIGRTMAX - 8; s++)
        if (agent_signal_is_default(s)) {
            agent_log("the program handles or ignores SIGPROF; sampling with signal %d instead", s);
            return s;
        }
    agent_log("no free signal to sample with; not profiling");
    return -1;
}

int sampler_install(void)
{
    int signo = choose_signal();
    if (signo < 0)
        return -1;
    if (agent_install_handler(signo, on_sample_signal))
        return -1;
    sampler.signo = signo;
    signal_view_own_unblocked(signo);
    return signo;
}

int sampler_signal_is_a_sample(int signo, const siginfo_t *info)
{
    return sampler.signo && signo == sampler.signo && timers_signal_is_ours(info);
}

static int program_ignores(void)
{
    return sampler.signo && program_action_is(program_action_get(&sampler.program), SIG_IGN);
}

void sampler_before_new_program(void)
{
    if (!program_ignores())
        return;
    struct sigaction ignore;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    REAL(sigaction)(sampler.signo, &ignore, NULL);
}

void sampler_after_new_program(void)
{
    if (program_ignores())
        agent_install_handler(sampler.signo, on_sample_signal);
}

int sampler_set_active(int on)
{
    return atomic_exchange(&sampler.active, on ? 1 : 0);
}

/*
 * agent.c - libstoke.so's entry points: the constructor that starts
 * profiling when STOKE_OUTPUT is set, the destructor that finishes the
 * trace, per-thread setup and teardown, and fork/exec/_exit handling.
 *
 * Must never: change what the program sees. Failures are reported once on
 * stderr and leave the program running unprofiled.
 */
#define _GNU_SOURCE
#include "agent.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "config.h"
#include "dump_signal.h"
#include "exec_env.h"
#include "exit_signals.h"
#include "foreign_allocator.h"
#include "port_report.h"
#include "runtime_names.h"
#include "stoke.h"
#include "common/agent_export.h"
#include "common/agent_fds.h"
#include "common/agent_threads.h"
#include "common/log.h"
#include "common/pages.h"
#include "common/real_libc.h"
#include "common/sandbox.h"
#include "heap/heap.h"
#include "heap/heap_hooks.h"
#include "sampling/modules.h"
#include "sampling/safe_memory.h"
#include "sampling/sampler.h"
#include "sampling/threads.h"
#include "sampling/timers.h"
#include "sampling/unwind.h"
#include "writer/js_heap.h"
#include "writer/writer.h"

/* The agent in this process. */
static struct {
    struct agent_config config;
    pid_t profiled_pid;         /* 0 when not profiling */
    int engine;                 /* enum stoke_engine */
    int sample_signal;
    pthread_key_t thread_exit_key;
} agent;

/* A vfork child shares the agent's memory and must not take the profile
 * for its own: it shows by its pid. Under a seccomp filter getpid may be
 * forbidden, and the profile is trusted to be this process's. */
int agent_active(void)
{
    return agent.profiled_pid &&
           (sandbox_filtered() || (pid_t)syscall(SYS_getpid) == agent.profiled_pid);
}

static void on_thread_exit(void *state)
{
    struct thread_state *t = state;
    if (t != current_thread)
        return;
    timers_stop(t);
    threads_unregister();
}

static void start_thread_sampling(void)
{
    struct thread_state *t = threads_register();
    if (!t)
        return;
    pthread_setspecific(agent.thread_exit_key, t);
    timers_start(t);
}

void agent_thread_begin(void)
{
    if (!agent_active())
        return;
    agent_work_begin();
    start_thread_sampling();
    agent_work_end();
}

static int start_trace(void)
{
    struct writer_process p = {
        .output_dir = agent.config.output_dir,
        .clock = agent.config.clock,
        .engine = agent.engine,
        .hz = agent.config.hz,
        .period_ns = timers_period_ns(),
        .note = timers_note(),
        .heap_peak = agent.config.heap_peak,
        .heap_interval = agent.config.heap_interval,
        .heap_signal = dump_signal_number(),
        .heap_note = agent.config.heap_interval ? foreign_allocator_note() : NULL,
        .max_size = agent.config.max_size,
    };
    return writer_start(&p);
}

/* Stops sampling everywhere and writes the end of the trace. */
static void finish_trace(int bounded)
{
    if (!agent_active())
        return;
    sampler_set_active(0);
    writer_stop(bounded);
    heap_stop();
    agent.profiled_pid = 0;
}

/* Starts profiling the calling (main) thread of this process. */
static void start_process(void)
{
    agent.profiled_pid = (pid_t)syscall(SYS_getpid);
    struct thread_state *t = current_thread ? current_thread : threads_register();
    if (!t) {
        agent.profiled_pid = 0;
        return;
    }
    pthread_setspecific(agent.thread_exit_key, t);
    sandbox_check();
    safe_memory_allow(agent.profiled_pid);
    if (agent.config.heap_interval)
        heap_prepare(); /* while the process still has one thread */
    agent.engine = timers_setup(agent.config.hz, agent.sample_signal, t);
    if (!agent.engine) {
        agent_log("no sampling clock is available in this process; not profiling");
        agent.profiled_pid = 0;
        return;
    }
    if (timers_note())
        agent_log("%s", timers_note());
    if (agent.config.heap_interval && foreign_allocator_note())
        agent_log("%s", foreign_allocator_note());
    if (start_trace()) {
        timers_stop(t);
        timers_stop_process();
        agent.profiled_pid = 0;
        return;
    }
    sampler_set_active(1);
    if (agent.config.heap_interval)
        heap_start(agent.config.heap_interval, agent.config.heap_seed);
}

static void fork_prepare(void)
{
    if (!agent_active())
        return;
    writer_fork_prepare();
    heap_fork_prepare();
    modules_fork_prepare();
}

static void fork_parent(void)
{
    if (!agent_active())
        return;
    modules_fork_parent();
    heap_fork_parent();
    writer_fork_parent();
}

static void fork_child(void)
{
    if (!agent.profiled_pid)
        return;
    agent_work_begin(); /* what the agent frees and allocates here is its own */
    sampler_set_active(0);
    modules_fork_child();
    heap_fork_child();
    writer_fork_child();
    threads_for_each_live(timers_forget); /* the parent's events, inherited copies */
    threads_reset_after_fork();
    start_process();
    agent_work_end();
}

void agent_before_exec(void)
{
    if (agent_active())
        writer_before_exec();
    finish_trace(1);
}

/* Counts start again in the new trace; every thread is armed again. */
static void rearm_thread(struct thread_state *t)
{
    atomic_store(&t->samples, 0);
    atomic_store(&t->lost, 0);
    atomic_store(&t->handler_ns, 0);
    t->name_sent = 0;
    if (t != current_thread)
        timers_start(t);
}

void agent_after_failed_exec(void)
{
    writer_exec_failed();
    if (agent.profiled_pid || !current_thread)
        return;
    agent_work_begin();
    threads_for_each_live(rearm_thread);
    start_process();
    agent_work_end();
}

void agent_before_exit(void)
{
    finish_trace(1);
}

void agent_thread_going_strict(void)
{
    struct thread_state *t = current_thread;
    sandbox_expect_strict_thread();
    if (!t)
        return;
    t->strict = 1; /* first: a sample landing meanwhile reads no clock */
    atomic_signal_fence(memory_order_seq_cst);
    timers_settle(t);
}

void agent_before_filter(void)
{
    if (agent_active())
        threads_for_each_live(timers_settle);
}

void agent_thread_vanishing(void)
{
    threads_vanish();
}

/* Before a signal's default action ends the process (exit_signals.h). */
static void finish_before_fatal_signal(void)
{
    finish_trace(1);
}

AGENT_EXPORT int stoke_sampling_enable(int on)
{
    return sampler_set_active(on && agent_active());
}

/* The path is kept per calling thread ("valid until the thread's next
 * call"), in pages of its own: thread-local storage of the agent's comes
 * out of every thread's stack (glibc puts it there), so it stays tiny. */
AGENT_EXPORT const char *stoke_agent_heap_dump(const char *path)
{
    static __thread char *written;
    if (!agent_active()) {
        errno = ENOTSUP;
        return NULL;
    }
    if (!written && !(written = pages_alloc(PATH_MAX))) {
        errno = ENOMEM;
        return NULL;
    }
    return writer_heap_dump(path, written, PATH_MAX) ? NULL : written;
}

static void agent_start(void)
{
    if (config_from_env(&agent.config))
        return;
    if (agent.config.heap_interval && !heap_hooks_present()) {
        agent_log("libstoke-cpu.so tracks no heap, so STOKE_HEAP_INTERVAL is ignored; preload "
                  "libstoke.so for heap tracking (stoke record --heap does)");
        agent.config.heap_interval = 0;
    }
    if (pthread_key_create(&agent.thread_exit_key, on_thread_exit))
        return;
    exec_env_save();
    runtime_names_init(); /* before the JVM reads JAVA_TOOL_OPTIONS */
    js_heap_init(agent.config.heap_interval != 0);
    agent_fds_init();
    if (unwind_init()) { /* first: it loads libunwind, which the module scan must see */
        agent_log("cannot set up stack unwinding; not profiling");
        return;
    }
    modules_init();
    agent.sample_signal = sampler_install();
    if (agent.sample_signal < 0)
        return;
    exit_signals_install(finish_before_fatal_signal);
    if (agent.config.heap_interval && agent.config.heap_signal)
        dump_signal_setup(agent.config.heap_signal);
    pthread_atfork(fork_prepare, fork_parent, fork_child);
    start_process();
}

/* The program must find errno as it would without the agent. */
__attribute__((constructor)) static void agent_init(void)
{
    int saved_errno = errno;
    real_libc_resolve(); /* first: every lookup of the agent's is done at its start */
    heap_hooks_resolve();
    log_init();
    port_report_init();
    agent_start();
    errno = saved_errno;
}

__attribute__((destructor)) static void agent_fini(void)
{
    int saved_errno = errno;
    finish_trace(0);
    errno = saved_errno;
}

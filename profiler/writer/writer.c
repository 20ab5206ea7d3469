/*
 * writer.c - the writer thread (see writer.h). Its state is two structs:
 * `writer`, the thread and what the program's threads share with it, and
 * `trace`, the trace it writes, which writer_start sets up anew (after a
 * failed exec, the process's next trace names its stacks again) and a
 * fork child drops. The thread holds writer.lock while it works and
 * releases it while it sleeps, so fork can wait for a quiet moment. It is
 * the only reader of the rings and the only user of the stack table and
 * the record buffer. Never runs in signal context; all signals are blocked
 * on it.
 *
 * It works in a descriptor table of its own where the kernel allows
 * (common/agent_fds.h), so it opens its files itself, trace file included,
 * and asks its keeper (common/keeper.h) for what needs the program's table. */
#define _GNU_SOURCE
#include "writer.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "blocked_sampler.h"
#include "heap_snapshot.h"
#include "heap_timeline.h"
#include "jit_map.h"
#include "js_heap.h"
#include "process_records.h"
#include "program_end.h"
#include "records.h"
#include "stack_intern.h"
#include "stoke_agent_env.h"
#include "stoke_format.h"
#include "trace_file.h"
#include "trace_parts.h"
#include "common/agent_fds.h"
#include "common/agent_threads.h"
#include "common/keeper.h"
#include "common/log.h"
#include "common/procfs.h"
#include "common/real_libc.h"
#include "common/sandbox.h"
#include "heap/heap.h"
#include "heap/heap_tally.h"
#include "program/dump_signal.h"
#include "program/runtime_names.h"
#include "sampling/code_map.h"
#include "sampling/modules.h"
#include "sampling/signal_stack.h"
#include "sampling/threads.h"
#include "sampling/timers.h"

#define CYCLE_NS 20000000ull      /* drain every 20 ms */
#define FLUSH_NS 1000000000ull    /* a whole frame at least every second */
#define FLUSH_MIN_NS 50000000ull  /* and more often early in the run: */
#define FLUSH_SHARE 16            /* what a kill loses is at most 1/16 of it */
#define FLUSH_BYTES (1u << 20)
#define BATCH_MAX 4096
#define MAX_BLOCKED_WEIGHT 1000 /* periods one late blocked sample may stand for */
#define STOP_WAIT_SECONDS 2     /* _exit and exec may run in a signal handler */
#define AWAIT_SIGNAL_MS 1000    /* a cycle, unless the writer is stuck */

/* A heap snapshot asked for through the API, served by the writer. */
struct dump_request {
    const char *path;
    int pending, done, result, error;
    char written[4096];
};

/* The writer thread, and what the program's threads share with it. */
static struct writer_thread {
    pthread_t thread;
    int running;             /* started and not stopped yet */
    int abandoned;           /* stopped without waiting for its end */
    /* Under start_lock, not lock: the program goes on while the writer's
     * first cycle runs. */
    enum { WRITER_STARTING, WRITER_STARTED, WRITER_FAILED } start_state;
    pthread_mutex_t start_lock;
    pthread_cond_t started;
    pthread_mutex_t lock;    /* held while it works, not while it sleeps */
    pthread_cond_t wake;
    _Atomic int stop_requested;
    struct dump_request *api_request;
    pthread_cond_t dump_done;
    int forked;              /* this process is a fork child of a profiled one */
    int exec_pending;        /* the process is about to exec */
} writer = {
    .start_lock = PTHREAD_MUTEX_INITIALIZER,
    .lock = PTHREAD_MUTEX_INITIALIZER,
};

/* Samples of one thread on their way into one SAMPLES record. */
struct batch {
    uint32_t ids[BATCH_MAX];
    uint32_t weights[BATCH_MAX];
    uint64_t times_ns[BATCH_MAX];
    uint32_t n;
};

/* One trace, from writer_start to its END record: set up by writer_start,
 * then the writer thread's alone. */
static struct trace_state {
    struct process_description process;
    const char *note;          /* for the user (a NOTE record), or NULL */
    char output_dir[4096];
    uint64_t start_ns, last_flush_ns;
    struct trace_file file;
    struct trace_parts parts;  /* of a trace bounded in size, else one file */
    uint64_t max_size;         /* that bound; 0: none */
    struct records recs;
    struct stack_intern stacks;
    uint32_t last_module_id;   /* modules up to it have their MAP record */
    uint32_t threads_seen;
    uint64_t exited_samples, exited_lost, exited_handler_ns; /* of threads gone */
    uint64_t blocked_tick_ns;  /* wall clock: period of blocked samples, else 0 */
    uint32_t blocked_weight;   /* periods since the last tick (sample_if_blocked) */
    int heap_peak;             /* keep a snapshot of the highest live heap */
    int64_t peak_written;      /* live bytes when that was last written */
} trace; /* zero until writer_start: in .bss, not in the library's file */

/* The buffers of one drain of a thread's ring (or of one blocked sample):
 * filled and emptied within it (batch.n is 0 between drains, and fork
 * waits for the writer to be between cycles), so no trace resets them. */
static struct {
    struct batch batch;
    uint64_t frames[STOKE_MAX_FRAMES];
} drain;

/* Forgets the trace: its memory freed, every field as at the start, its
 * file closed already (at the writer's end, or by close_files). Not while
 * a writer thread runs. */
static void trace_reset(void)
{
    records_free(&trace.recs);
    stack_intern_free(&trace.stacks);
    memset(&trace, 0, sizeof trace);
    trace.file.fd = -1;
    heap_timeline_reset(); /* its first records hold the whole live heap again */
}

static uint64_t monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t realtime_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t since_start_us(uint64_t ns)
{
    return ns > trace.start_ns ? (ns - trace.start_ns) / 1000 : 0;
}

/* --- records ------------------------------------------------------------ */


/* MAP records of the modules loaded since the last. */
static void emit_new_maps(void)
{
    trace.last_module_id =
        records_new_maps(&trace.recs, trace.last_module_id, since_start_us(monotonic_ns()));
}

static void emit_module_changes(void)
{
    uint32_t removed[256], n, any = 0;
    while ((n = modules_take_removed(removed, 256)) > 0) {
        for (uint32_t i = 0; i < n; i++) {
            records_begin(&trace.recs, STOKE_REC_UNMAP);
            records_u(&trace.recs, removed[i]);
            records_u(&trace.recs, since_start_us(monotonic_ns()));
            records_end(&trace.recs);
        }
        any = 1;
    }
    if (any)
        stack_intern_forget(&trace.stacks); /* the same addresses may now be other code */
    emit_new_maps();
}

static void emit_thread(const struct thread_state *t)
{
    records_begin(&trace.recs, STOKE_REC_THREAD);
    records_u(&trace.recs, (uint64_t)t->tid);
    records_str(&trace.recs, t->name);
    records_u(&trace.recs, since_start_us(monotonic_ns()));
    records_end(&trace.recs);
}

/* Whether a resolved stack has a frame in code the agent does not know:
 * outside every module and every JIT code range (a return address is
 * looked up one byte back, in its call). Only such a frame asks for the
 * code map to be read again: a JIT frame in known code asking would keep
 * the map's reads backed off when new code comes. */
static int has_unknown_code(const uint64_t *frames, const uint32_t *modules, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (modules[i] == STOKE_MODULE_NONE && !code_map_is_jit_code(frames[i] - (i > 0)))
            return 1;
    return 0;
}

static void emit_stack(uint32_t id, const uint64_t *frames, uint32_t n, uint32_t flags,
                       uint64_t time_ns)
{
    uint32_t modules[STOKE_MAX_FRAMES];
    uint64_t offsets[STOKE_MAX_FRAMES];
    modules_resolve_at(frames, n, time_ns, modules, offsets);
    if (has_unknown_code(frames, modules, n)) {
        code_map_ask();
        if (code_map_refresh(monotonic_ns()))
            modules_resolve_at(frames, n, time_ns, modules, offsets);
    }
    emit_new_maps(); /* every module a STACK names has its MAP earlier in the file */
    records_stack(&trace.recs, id, flags, n, modules, offsets);
}

/* --- draining ----------------------------------------------------------- */

static void flush_if_full(void);

static void emit_samples(pid_t tid)
{
    if (!drain.batch.n)
        return;
    records_begin(&trace.recs, STOKE_REC_SAMPLES);
    records_u(&trace.recs, (uint64_t)tid);
    uint64_t prev = since_start_us(drain.batch.times_ns[0]);
    records_u(&trace.recs, prev);
    records_u(&trace.recs, drain.batch.n);
    for (uint32_t i = 0; i < drain.batch.n; i++) {
        uint64_t t = since_start_us(drain.batch.times_ns[i]);
        records_u(&trace.recs, drain.batch.ids[i]);
        records_u(&trace.recs, t >= prev ? t - prev : 0);
        records_u(&trace.recs, drain.batch.weights[i] - 1);
        prev = t >= prev ? t : prev;
    }
    records_end(&trace.recs);
    drain.batch.n = 0;
    flush_if_full();
}

static void note_thread(struct thread_state *t)
{
    if (!t->name_sent) {
        emit_thread(t);
        t->name_sent = 1;
        trace.threads_seen++;
    }
}

/* Adds one sample of thread tid to the batch, writing its stack if new. */
static void add_sample(pid_t tid, uint64_t time_ns, const uint64_t *frames, uint32_t n,
                       uint32_t flags, uint32_t weight)
{
    int is_new;
    uint32_t id = stack_intern(&trace.stacks, frames, n, flags, &is_new);
    if (id == UINT32_MAX)
        return;
    if (is_new)
        emit_stack(id, frames, n, flags, time_ns);
    drain.batch.ids[drain.batch.n] = id;
    drain.batch.weights[drain.batch.n] = weight;
    drain.batch.times_ns[drain.batch.n] = time_ns;
    if (++drain.batch.n == BATCH_MAX)
        emit_samples(tid);
}

/* Run by the keeper: perf events are the program's table's. */
static void stop_clock(void *t)
{
    timers_stop(t);
}

static void stop_clocks(void *unused)
{
    threads_for_each_live(timers_stop);
}

static void drain_thread(struct thread_state *t, void *arg)
{
    int exited = threads_ended(t);
    struct ring_sample s;
    note_thread(t);
    while (!ring_pop(&t->ring, &s, drain.frames)) /* time 0: taken without a clock */
        add_sample(t->tid, s.time_ns ? s.time_ns : monotonic_ns(), s.frames, s.nframes, s.flags,
                   s.weight);
    emit_samples(t->tid);
    if (exited) {
        if (atomic_load(&t->state) == THREAD_VANISHED) { /* it could release nothing itself */
            keeper_run(stop_clock, t);
            signal_stack_forget(t);
        }
        emit_thread(t); /* its final name */
        trace.exited_samples += atomic_load(&t->samples);
        trace.exited_lost += atomic_load(&t->lost);
        trace.exited_handler_ns += atomic_load(&t->handler_ns);
    }
}

static void sample_if_blocked(struct thread_state *t)
{
    uint32_t n = blocked_sample(t);
    if (!n)
        return;
    note_thread(t);
    add_sample(t->tid, monotonic_ns(), t->blocked_frames, n, t->blocked_flags,
               trace.blocked_weight);
    emit_samples(t->tid);
    atomic_fetch_add_explicit(&t->samples, 1, memory_order_relaxed);
}

static void flush(void)
{
    if (trace.recs.len && !trace_file_write_frame(&trace.file, trace.recs.data, trace.recs.len))
        records_clear(&trace.recs);
    else if (trace.file.fd < 0)
        records_clear(&trace.recs);
    trace.last_flush_ns = monotonic_ns();
}

static int snapshot(const char *path, int trigger, char *written, size_t cap)
{
    int ret = heap_snapshot_write(&trace.process, trace.output_dir, path, trigger, written, cap);
    if (ret)
        agent_log("cannot write a heap snapshot in %s: %s", path ? path : trace.output_dir,
                  strerror(errno));
    else if (trigger == STOKE_HEAP_SIGNAL || trigger == STOKE_HEAP_API) {
        agent_log("heap snapshot written to %s", written); /* the ones asked for */
        js_heap_request(written, since_start_us(monotonic_ns()));
    }
    return ret;
}

/* HEAP_SIGNAL: the snapshot signal as it is now, and the thread to send it
 * to (this one) when it must go to a thread. */
static void emit_heap_signal(void)
{
    records_begin(&trace.recs, STOKE_REC_HEAP_SIGNAL);
    records_u(&trace.recs, (uint64_t)dump_signal_number());
    records_u(&trace.recs, dump_signal_thread_directed() ? (uint64_t)syscall(SYS_gettid) : 0);
    records_end(&trace.recs);
}

/* Requests by signal and by the API, and the peak snapshot. */
static void serve_heap(void)
{
    char written[4096];
    if (!heap_tracking())
        return;
    if (dump_signal_writer_check()) { /* stoke heap must send another signal */
        emit_heap_signal();
        flush();
        dump_signal_published();
    }
    for (int n = dump_signal_take_requests(); n > 0; n--)
        snapshot(NULL, STOKE_HEAP_SIGNAL, written, sizeof written);
    if (writer.api_request && writer.api_request->pending) {
        struct dump_request *r = writer.api_request;
        r->pending = 0;
        r->result = snapshot(r->path, STOKE_HEAP_API, r->written, sizeof r->written);
        r->error = errno;
        r->done = 1;
        pthread_cond_broadcast(&writer.dump_done);
    }
    if (!trace.heap_peak)
        return;
    struct heap_totals totals;
    heap_read_totals(&totals);
    if (totals.live_bytes > trace.peak_written + trace.peak_written / 16 &&
        !snapshot(NULL, STOKE_HEAP_PEAK, written, sizeof written))
        trace.peak_written = totals.live_bytes;
}

/* How long records may wait for their frame: a process killed, or ending
 * through the raw exit_group system call (as Go's os.Exit does), loses at
 * most that; short runs, where a second would be much of them, flush
 * sooner (each frame costs some compression). */
static uint64_t flush_interval_ns(uint64_t now)
{
    uint64_t interval = (now - trace.start_ns) / FLUSH_SHARE;
    return interval < FLUSH_MIN_NS ? FLUSH_MIN_NS : interval > FLUSH_NS ? FLUSH_NS : interval;
}

/* The live heap over time (heap_timeline.h), every STOKE_HEAP_TIMELINE_MS,
 * or now when final. */
static void poll_heap_timeline(int final)
{
    const struct heap_timeline_target target = {&trace.recs, &trace.stacks,
                                                 &trace.last_module_id};
    uint64_t now = monotonic_ns();
    heap_timeline_poll(&target, now, since_start_us(now), final);
}

/* --- parts (trace_parts.h) ------------------------------------------------ */

static void emit_known_thread(struct thread_state *t, void *unused)
{
    if (t->name_sent)
        emit_thread(t);
}

/* The first records of part `part`: what a reader needs to read it alone
 * (docs/trace-format.md, PART). */
static void begin_part(uint32_t part)
{
    uint64_t time_us = since_start_us(monotonic_ns());
    records_process(&trace.recs, &trace.process);
    if (trace.note)
        records_note(&trace.recs, trace.note);
    records_begin(&trace.recs, STOKE_REC_PART);
    records_u(&trace.recs, part);
    records_u(&trace.recs, time_us);
    records_end(&trace.recs);
    stack_intern_free(&trace.stacks); /* each part names its stacks, from id 0 */
    heap_timeline_reset();            /* its first growth is the whole live heap */
    trace.last_module_id = 0;
    emit_new_maps();
    threads_for_each(emit_known_thread, NULL);
    if (heap_tracking())
        emit_heap_signal();
    jit_map_restart();
    jit_map_poll(&trace.recs, time_us);
    poll_heap_timeline(1);
    flush();
}

/* Ends the current part with NEXT_PART and goes on in a new file; the
 * oldest parts go when the bound says so. When the next part cannot be
 * created, the trace goes on in this one. */
static void start_next_part(void)
{
    char path[sizeof trace.file.path];
    struct trace_file next;
    if (trace_parts_next_path(&trace.parts, path, sizeof path) ||
        trace_file_create(&next, path)) {
        agent_log("cannot start the next part of the trace, %s: %s; the trace goes on in %s",
                  path, strerror(errno), trace.file.path);
        trace_parts_not_started(&trace.parts, trace.file.size);
        return;
    }
    records_begin(&trace.recs, STOKE_REC_NEXT_PART);
    records_str(&trace.recs, strrchr(path, '/') + 1);
    records_end(&trace.recs);
    flush();
    uint64_t finished = trace.file.size;
    trace_file_close(&trace.file);
    trace.file = next;
    begin_part(trace_parts_advanced(&trace.parts, finished));
}

static void rotate_if_due(void)
{
    if (!trace.recs.len && trace.file.fd >= 0 && trace_parts_due(&trace.parts, trace.file.size))
        start_next_part();
}

/* Writes the records as a frame once they fill one, and goes on in the
 * next part when this one has had its share: a part passes its share by
 * one frame at most. Between batches only (a new part names its stacks
 * anew). */
static void flush_if_full(void)
{
    if (trace.recs.len >= trace_parts_frame_bytes(&trace.parts, FLUSH_BYTES)) {
        flush();
        rotate_if_due();
    }
}

static void cycle(void)
{
    modules_refresh();
    emit_module_changes();
    /* before the samples: code they ran in was named when it was made */
    jit_map_poll(&trace.recs, since_start_us(monotonic_ns()));
    code_map_refresh(monotonic_ns()); /* when a walk asked for it */
    js_heap_poll(&trace.recs, since_start_us(monotonic_ns()));
    serve_heap();
    poll_heap_timeline(0);
    threads_for_each(drain_thread, NULL);
    uint64_t now = monotonic_ns();
    if (now - trace.last_flush_ns >= flush_interval_ns(now))
        flush();
    flush_if_full();
    rotate_if_due();
}

struct totals {
    uint64_t samples, lost, handler_ns;
};

static void add_live(struct thread_state *t, void *arg)
{
    struct totals *sum = arg;
    sum->samples += atomic_load(&t->samples);
    sum->lost += atomic_load(&t->lost);
    sum->handler_ns += atomic_load(&t->handler_ns);
}

/* Live threads may have been renamed since they started. */
static void refresh_thread_name(struct thread_state *t, void *arg)
{
    char path[64], name[sizeof t->name];
    snprintf(path, sizeof path, "/proc/self/task/%d/comm", (int)t->tid);
    procfs_read_line(path, name, sizeof name);
    if (name[0] && strcmp(name, t->name)) {
        memcpy(t->name, name, sizeof name);
        emit_thread(t);
    }
}

/* What every thread of the process, live or gone, has done so far. */
static struct totals all_totals(void)
{
    struct totals sum = {trace.exited_samples, trace.exited_lost, trace.exited_handler_ns};
    threads_for_each(add_live, &sum);
    return sum;
}

/* A fork child about to exec before its first sample has nothing to say:
 * the new image starts a trace of its own. */
static int nothing_to_keep(void)
{
    return writer.forked && writer.exec_pending && all_totals().samples == 0;
}

static void emit_end(void)
{
    struct totals sum = all_totals();
    records_begin(&trace.recs, STOKE_REC_END);
    records_u(&trace.recs, sum.samples);
    records_u(&trace.recs, sum.lost);
    records_u(&trace.recs, sum.handler_ns);
    records_u(&trace.recs, since_start_us(monotonic_ns()));
    records_u(&trace.recs, trace.threads_seen);
    records_end(&trace.recs);
}

/* --- the thread ----------------------------------------------------------- */

/* Sleeps until the monotonic time deadline_ns or a stop request. */
static void wait_until(uint64_t deadline_ns)
{
    struct timespec until = {(time_t)(deadline_ns / 1000000000ull),
                             (long)(deadline_ns % 1000000000ull)};
    while (!writer.stop_requested &&
           pthread_cond_timedwait(&writer.wake, &writer.lock, &until) != ETIMEDOUT)
        ;
}

static void exit_as_glibc(void *unused)
{
    exit(0);
}

/* The program's last thread is gone and only the agent's threads keep the
 * process alive (program_end.h): the trace is finished; the process ends
 * as it would have without stoke. */
static void end_process(enum program_end how)
{
    writer.running = 0; /* the agent's destructor finds nothing to stop */
    pthread_mutex_unlock(&writer.lock);
    if (how == PROGRAM_LEFT_THROUGH_LIBC)
        keeper_run(exit_as_glibc, NULL); /* exit handlers use the program's descriptors */
    int status = program_end_main_status(); /* the last thread's status is the process's */
    keeper_stop();
    syscall(SYS_exit, status);
}

/* The last records: the exit snapshot, thread names, the rest of the
 * JIT names, END; then the file is closed. */
static void finish_trace_file(void)
{
    if (heap_tracking()) {
        char written[4096];
        poll_heap_timeline(1);
        snapshot(NULL, STOKE_HEAP_EXIT, written, sizeof written);
    }
    threads_for_each(refresh_thread_name, NULL);
    jit_map_finish(&trace.recs, since_start_us(monotonic_ns()));
    runtime_names_finish();
    emit_end();
    flush();
    trace_file_close(&trace.file);
}

/* The descriptors the writer keeps: closed at its end (also those of a
 * table of its own, which goes with it), so that a writer writer.started again
 * after a failed exec has none yet; and in a fork child, where
 * agent_fds_close closes the copies the child has and no other number. */
static void close_files(void)
{
    trace_file_close(&trace.file);
    program_end_close();
    code_map_close();
    jit_map_close();
}

static void close_syscall_file(struct thread_state *t)
{
    procfs_close(&t->syscall_file);
}

/* In the writer's thread: its table (not asked for under a seccomp filter,
 * which may kill the process for a call it does not allow), the process's
 * identity, the files it reads, the trace file and its first frame, at
 * once (stoke heap reads the process's settings from it). */
static int open_trace(void)
{
    if (!sandbox_filtered())
        agent_fds_take_own_table();
    process_read_identity(&trace.process);
    jit_map_start();
    code_map_reset();
    program_end_open();
    if (trace_file_open(&trace.file, trace.output_dir, trace.process.comm, getpid()))
        return -1;
    trace_parts_init(&trace.parts, trace.max_size, trace.file.path);
    records_process(&trace.recs, &trace.process);
    if (trace.note)
        records_note(&trace.recs, trace.note);
    flush();
    return 0;
}

/* The writer's last steps, writer.lock held: its descriptors closed, the
 * keeper gone. */
static void leave(void)
{
    close_files();
    threads_for_each_live(close_syscall_file);
    keeper_stop();
    agent_fds_own_table_ended();
    pthread_mutex_unlock(&writer.lock);
}

static void *writer_main(void *arg)
{
    agent_thread_mark_own();
    dump_signal_receive_on_this_thread();
    pthread_setname_np(pthread_self(), STOKE_WRITER_THREAD_NAME);
    pthread_mutex_lock(&writer.lock);
    int failed = open_trace();
    pthread_mutex_lock(&writer.start_lock);
    writer.start_state = failed ? WRITER_FAILED : WRITER_STARTED;
    pthread_cond_broadcast(&writer.started);
    pthread_mutex_unlock(&writer.start_lock);
    if (failed) {
        leave();
        return NULL;
    }
    uint64_t next_cycle = monotonic_ns(), next_tick = next_cycle;
    enum program_end ended = PROGRAM_RUNNING;
    while (!writer.stop_requested && ended == PROGRAM_RUNNING) {
        uint64_t now = monotonic_ns();
        if (trace.blocked_tick_ns && now >= next_tick) {
            uint64_t missed = (now - next_tick) / trace.blocked_tick_ns;
            trace.blocked_weight =
                1 + (uint32_t)(missed < MAX_BLOCKED_WEIGHT ? missed : MAX_BLOCKED_WEIGHT);
            threads_for_each_live(sample_if_blocked);
            next_tick += (missed + 1) * trace.blocked_tick_ns;
        }
        if (now >= next_cycle) {
            cycle();
            ended = program_end_check();
            next_cycle = now + CYCLE_NS;
        }
        if (ended == PROGRAM_RUNNING)
            wait_until(trace.blocked_tick_ns && next_tick < next_cycle ? next_tick : next_cycle);
    }
    keeper_run(stop_clocks, NULL); /* here, where no state is reclaimed meanwhile */
    timers_stop_process();
    cycle();
    if (nothing_to_keep())
        trace_file_discard(&trace.file);
    else
        finish_trace_file();
    if (ended != PROGRAM_RUNNING)
        end_process(ended);
    leave();
    return NULL;
}

static void init_conditions(void)
{
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&writer.wake, &attr);
    pthread_cond_init(&writer.dump_done, &attr);
    pthread_cond_init(&writer.started, &attr);
    pthread_condattr_destroy(&attr);
}

int writer_start(const struct writer_process *p)
{
    if (writer.abandoned)
        return -1; /* its thread may still be writing the last trace */
    trace_reset(); /* a process that goes on after a failed exec starts anew */
    trace.start_ns = trace.last_flush_ns = monotonic_ns();
    trace.process.start_realtime_ns = realtime_ns();
    trace.max_size = p->max_size;
    trace.process.clock = p->clock;
    trace.process.engine = p->engine;
    trace.process.hz = p->hz;
    trace.process.period_ns = p->period_ns;
    trace.process.start_ns = trace.start_ns;
    trace.process.heap_interval = p->heap_interval;
    trace.process.heap_signal = p->heap_signal;
    trace.process.heap_note = p->heap_note;
    trace.process.js_heap_signal = js_heap_signal();
    trace.note = p->note;
    snprintf(trace.output_dir, sizeof trace.output_dir, "%s", p->output_dir);
    trace.heap_peak = p->heap_peak;
    trace.blocked_tick_ns = p->clock == STOKE_CLOCK_WALL ? p->period_ns : 0;
    writer.api_request = NULL;
    writer.stop_requested = 0;
    writer.start_state = WRITER_STARTING;
    init_conditions();
    sigset_t all, old;
    sigfillset(&all);
    REAL(pthread_sigmask)(SIG_SETMASK, &all, &old); /* not the program's: no view changes */
    int err = keeper_start();
    if (!err && (err = agent_thread_create(&writer.thread, writer_main, NULL)))
        keeper_stop();
    REAL(pthread_sigmask)(SIG_SETMASK, &old, NULL);
    if (err)
        return -1;
    pthread_mutex_lock(&writer.start_lock);
    while (writer.start_state == WRITER_STARTING)
        pthread_cond_wait(&writer.started, &writer.start_lock);
    pthread_mutex_unlock(&writer.start_lock);
    if (writer.start_state == WRITER_FAILED) {
        pthread_join(writer.thread, NULL);
        return -1;
    }
    writer.running = 1;
    return 0;
}

void writer_before_exec(void)
{
    writer.exec_pending = 1;
}

void writer_exec_failed(void)
{
    writer.exec_pending = 0;
}

void writer_stop(int bounded)
{
    if (!writer.running)
        return;
    atomic_store(&writer.stop_requested, 1);
    if (!pthread_mutex_trylock(&writer.lock)) { /* else it is working and will see the flag */
        pthread_cond_signal(&writer.wake);
        pthread_mutex_unlock(&writer.lock);
    }
    struct timespec limit;
    clock_gettime(CLOCK_REALTIME, &limit);
    limit.tv_sec += STOP_WAIT_SECONDS;
    if (bounded ? pthread_timedjoin_np(writer.thread, NULL, &limit)
                : pthread_join(writer.thread, NULL)) {
        agent_log("the trace writer did not finish in time; the trace ends at its last frame");
        writer.abandoned = 1;
    }
    writer.running = 0;
}

void writer_await_heap_signal(void)
{
    struct timespec step = {0, 1000000};
    if (!writer.running || pthread_equal(pthread_self(), writer.thread))
        return;
    int saved_errno = errno;
    for (int ms = 0; ms < AWAIT_SIGNAL_MS && writer.running && !dump_signal_is_published(); ms++)
        nanosleep(&step, NULL);
    errno = saved_errno;
}

int writer_heap_dump(const char *path, char *written, size_t cap)
{
    if (!writer.running || !heap_tracking()) {
        errno = ENOTSUP;
        return -1;
    }
    struct dump_request request = {.path = path, .pending = 1};
    pthread_mutex_lock(&writer.lock);
    while (writer.api_request) /* one at a time; the others queue here */
        pthread_cond_wait(&writer.dump_done, &writer.lock);
    writer.api_request = &request;
    pthread_cond_signal(&writer.wake);
    while (!request.done && !writer.stop_requested)
        pthread_cond_wait(&writer.dump_done, &writer.lock);
    writer.api_request = NULL;
    pthread_cond_broadcast(&writer.dump_done);
    pthread_mutex_unlock(&writer.lock);
    if (!request.done) {
        errno = ECANCELED;
        return -1;
    }
    if (request.result) {
        errno = request.error;
        return -1;
    }
    snprintf(written, cap, "%s", request.written);
    return 0;
}

void writer_fork_prepare(void)
{
    pthread_mutex_lock(&writer.lock);
}

void writer_fork_parent(void)
{
    pthread_mutex_unlock(&writer.lock);
}

/* The parent's writer thread does not exist here. */
void writer_fork_child(void)
{
    writer = (struct writer_thread){
        .start_lock = PTHREAD_MUTEX_INITIALIZER,
        .lock = PTHREAD_MUTEX_INITIALIZER,
        .forked = 1,
    };
    close_files();
    keeper_fork_child();
    agent_fds_own_table_ended();
    trace_reset();
    heap_snapshot_reset();
}

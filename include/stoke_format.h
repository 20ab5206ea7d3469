/*
 * stoke_format.h - the trace file format: the one contract between the agent
 * (profiler/) and everything offline (read/, cli/).
 *
 * This header owns the record layout and the integer encoding. It must never
 * grow logic beyond encoding/decoding of single fields: both sides include it,
 * and the agent includes it from code that runs in a writer thread (never in a
 * signal handler). docs/trace-format.md is the prose spec of the same thing;
 * change both together.
 *
 * File layout
 *   [file header: 16 bytes, uncompressed]
 *   [zstd frame] [zstd frame] ...        each frame decompresses to whole records
 *
 * File header
 *   bytes 0..7   magic "STOKETRC"
 *   bytes 8..9   format major version, little endian (readers refuse a newer major)
 *   bytes 10..11 format minor version, little endian (newer minor: readable, unknown
 *                record types are skipped by their length)
 *   bytes 12..15 reserved, zero
 *
 * Record (inside decompressed frames)
 *   u8      type              (enum stoke_record_type)
 *   uleb128 payload length in bytes
 *   payload                   fields in the order documented per type below
 *
 * Field encodings: "u" = unsigned LEB128, "s" = signed (zigzag) LEB128,
 * "str" = u length + bytes (no NUL), "bytes" = u length + bytes.
 */
#ifndef STOKE_FORMAT_H
#define STOKE_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#define STOKE_MAGIC "STOKETRC"
#define STOKE_MAGIC_LEN 8
#define STOKE_FILE_HEADER_LEN 16
#define STOKE_FORMAT_MAJOR 1
#define STOKE_FORMAT_MINOR 5

/* Longest stack the agent records; deeper stacks keep their leaf-most frames
 * and are marked truncated. */
#define STOKE_MAX_FRAMES 512

/* Largest weight of one sample, what the agent writes at most: a CPU
 * sample stands for the thread's CPU time since its last sample, which is
 * many periods for a thread that spends its time in system calls (where no
 * sample lands: 9,546 periods were seen at 20 kHz), and a late wall-clock
 * sample of a blocked thread for at most 1001. Readers take a larger one as
 * damage, so a few bytes of a trace cannot stand for an unbounded number of
 * samples. */
#define STOKE_MAX_SAMPLE_WEIGHT 65535

/* Longest sampling period of a PROCESS record: 1 s, the agent's lowest rate
 * (1 Hz); readers take a longer one as damage. */
#define STOKE_MAX_PERIOD_NS 1000000000u

/* Module id 0 means "no module": the frame's offset is then an absolute
 * address (JIT code, named offline from /tmp/perf-<pid>.map, or unknown). */
#define STOKE_MODULE_NONE 0

enum stoke_record_type {
    /* PROCESS: first record of every trace.
     *   u pid, u ppid, u start_realtime_ns, u start_monotonic_ns,
     *   u clock (enum stoke_clock), u engine (enum stoke_engine),
     *   u requested_hz, u period_ns (nominal time one sample stands for),
     *   str comm, str exe path, str cmdline (arguments separated by NUL),
     *   since 1.2: u heap_interval (0: no heap tracking), u heap_signal
     *   (the heap snapshot signal, 0: none); since 1.3: str cwd (the
     *   working directory at the start), u js_heap_signal (the signal that
     *   makes node write a V8 heap snapshot, 0: no JavaScript heap
     *   snapshots) */
    STOKE_REC_PROCESS = 1,
    /* MAP: a loaded ELF object (executable, shared library, vdso).
     *   u module_id (>= 1, never reused within a trace), u start, u end
     *   (address range it occupies), u load_bias, bytes build_id (may be
     *   empty), str path, u time_us (since start); since 1.3: u alias_of
     *   (0, or the module whose file this is a second mapping of: the
     *   same code mapped again elsewhere, as node does with V8's builtins;
     *   its load_bias still gives the file's ELF virtual addresses) */
    STOKE_REC_MAP = 2,
    /* UNMAP: the module was unloaded (dlclose).  u module_id, u time_us */
    STOKE_REC_UNMAP = 3,
    /* THREAD: a thread was seen or renamed.  u tid, str name, u time_us */
    STOKE_REC_THREAD = 4,
    /* STACK: an interned call stack, leaf first.
     *   u stack_id (dense, from 0), u flags (STOKE_STACK_*), u nframes,
     *   then per frame: u module_id, s (offset - previous frame's offset
     *   when the module is the same as the previous frame's, else offset).
     *   offset = address - load_bias of the module, i.e. the ELF virtual
     *   address, which with the build-id names the code exactly.  Frames
     *   after the first are return addresses (the caller's next insn). */
    STOKE_REC_STACK = 5,
    /* SAMPLES: a batch of samples of one thread.
     *   u tid, u time_us of the batch base, u count,
     *   then per sample: u stack_id, u time delta in us from the previous
     *   sample of the batch (the first from the base), u weight - 1
     *   (weight = how many periods the sample stands for, normally 1). */
    STOKE_REC_SAMPLES = 6,
    /* END: last record of a trace that ended cleanly.
     *   u samples_taken, u samples_lost (buffer full or unwinding refused),
     *   u handler_ns (total time spent in the signal handler),
     *   u duration_us, u threads_seen */
    STOKE_REC_END = 7,
    /* NOTE: a message from the agent for the user (engine fallback, ...).
     *   u level (0 info, 1 warning), str text */
    STOKE_REC_NOTE = 8,
    /* HEAP: opens a heap snapshot (a file of its own: PROCESS, MAPs,
     * STACKs, one HEAP, then HEAP_STACKs). Since format 1.1.
     *   u sequence (1, 2, ... per process), u trigger (enum stoke_heap_trigger),
     *   u time_us, u realtime_ns (wall-clock time of the snapshot),
     *   u sample_interval (mean bytes between samples; 1 = every allocation),
     *   u live_bytes, u live_objects, u alloc_bytes, u alloc_objects
     *   (estimated totals over all stacks), u untracked (allocations the
     *   agent could not record: its own tables were full) */
    STOKE_REC_HEAP = 9,
    /* HEAP_STACK: heap values of one allocation stack, estimated from the
     * samples (exact when sample_interval is 1).
     *   u stack_id, u live_bytes, u live_objects, u alloc_bytes,
     *   u alloc_objects (the last two: since the start of the process) */
    STOKE_REC_HEAP_STACK = 10,
    /* HEAP_SIGNAL: the heap snapshot signal from now on, when it changed
     * since the PROCESS record (the program took it over). Since 1.2.
     *   u signal (0: none); since 1.3: u tid (the thread to send it to, 0:
     *   the process) */
    STOKE_REC_HEAP_SIGNAL = 11,
    /* JIT_MAP: lines of the process's perf map (/tmp/perf-<pid>.map:
     * "START SIZE name", hex START and SIZE), in file order, each record
     * continuing where the previous one ended. Since 1.3.
     *   u time_us (when they were read), bytes text (whole lines) */
    STOKE_REC_JIT_MAP = 12,
    /* JS_HEAP: the JavaScript half of a heap snapshot (node): V8's heap
     * snapshot, written by node next to the native snapshot of the same
     * sequence number. Since 1.3.
     *   u sequence (the native snapshot's), u asked_us (when node was
     *   asked, since the start), u took_us (until node had written it; 0:
     *   it wrote none in time), str file (its name in the output
     *   directory, "" when none) */
    STOKE_REC_JS_HEAP = 13,
    /* HEAP_TOTALS: the live heap of a process that tracks its heap, in its
     * CPU trace, every STOKE_HEAP_TIMELINE_MS while it changes. Since 1.4.
     *   u time_us (since the start), u live_bytes, u live_objects,
     *   u alloc_bytes, u alloc_objects (estimated totals, as HEAP) */
    STOKE_REC_HEAP_TOTALS = 14,
    /* HEAP_GROWTH: how the live heap of each allocation stack changed since
     * the previous HEAP_GROWTH of the trace (since tracking started, for
     * the first); stacks that did not change are left out. Since 1.4.
     *   u time_us, u count, then per stack: u stack_id (a STACK record of
     *   this trace), s live_bytes change, s live_objects change */
    STOKE_REC_HEAP_GROWTH = 15,
    /* PART: this file goes on with a trace whose earlier records are in the
     * part before it (a trace split to bound its size, STOKE_MAX_SIZE).
     * Follows the PROCESS record, which repeats the first part's; the part
     * then names again what it uses (MAPs, THREADs, STACKs with ids from 0,
     * its own JIT_MAP text from the map's start), and its first
     * HEAP_GROWTH holds each stack's whole live heap, not a change. Since
     * 1.5.
     *   u part (2, 3, ...), u time_us (when it starts) */
    STOKE_REC_PART = 16,
    /* NEXT_PART: last record of a part the trace goes on from.  str file
     * (the next part's name, in the same directory). Since 1.5. */
    STOKE_REC_NEXT_PART = 17,
};

/* A trace split into parts keeps at most this many of its newest parts,
 * each about STOKE_MAX_SIZE / STOKE_TRACE_PARTS bytes; older ones are
 * removed. */
#define STOKE_TRACE_PARTS 8
/* The name of part N >= 2 of the trace "<stem>.stoke": "<stem>.part-N.stoke". */
#define STOKE_PART_INFIX ".part-"


/* How often a process that tracks its heap writes HEAP_TOTALS and
 * HEAP_GROWTH while its heap changes. */
#define STOKE_HEAP_TIMELINE_MS 200

/* Most perf map text one trace holds; readers stop there too. */
#define STOKE_MAX_JIT_MAP_BYTES (UINT64_C(256) << 20)

enum stoke_heap_trigger {
    STOKE_HEAP_SIGNAL = 1, /* the dump signal (SIGUSR2 by default; `stoke heap`) */
    STOKE_HEAP_API = 2,    /* stoke_heap_dump() called by the program */
    STOKE_HEAP_EXIT = 3,   /* at exit: what was never freed */
    STOKE_HEAP_PEAK = 4,   /* the highest live total seen (--heap-peak) */
};

/* CPU: samples of running threads only. WALL: the same, plus samples of
 * threads blocked in system calls, taken by the agent's writer thread at
 * the same rate without interrupting them. */
enum stoke_clock { STOKE_CLOCK_CPU = 0, STOKE_CLOCK_WALL = 1 };

enum stoke_engine {
    STOKE_ENGINE_PERF_TASK_CLOCK = 1, /* perf_event_open software task-clock */
    STOKE_ENGINE_POSIX_THREAD_CPU = 2, /* timer_create(CLOCK_THREAD_CPUTIME_ID) */
    STOKE_ENGINE_SETITIMER = 3,        /* setitimer(ITIMER_PROF) */
};

enum stoke_stack_flags {
    STOKE_STACK_TRUNCATED = 1, /* deeper than STOKE_MAX_FRAMES */
    STOKE_STACK_PARTIAL = 2,   /* unwinding stopped early (no unwind info) */
    STOKE_STACK_CALLERS = 4,   /* every frame, the first too, is a return
                                * address (allocation stacks: the first frame
                                * is the call of malloc) */
};

/* --- LEB128 helpers, shared by writer and reader ----------------------- */

/* Appends v to p, returns the number of bytes written (at most 10). */
static inline size_t stoke_put_u(uint8_t *p, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (uint8_t)v;
    return n;
}

static inline size_t stoke_put_s(uint8_t *p, int64_t v)
{
    return stoke_put_u(p, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

/* Reads one value from [*p, end). Returns 0 and advances *p on success,
 * -1 on a truncated or over-long value (then *p is unchanged). */
static inline int stoke_get_u(const uint8_t **p, const uint8_t *end, uint64_t *out)
{
    const uint8_t *q = *p;
    uint64_t v = 0;
    for (unsigned shift = 0; q < end && shift < 64; shift += 7) {
        uint8_t b = *q++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *p = q;
            *out = v;
            return 0;
        }
    }
    return -1;
}

static inline int stoke_get_s(const uint8_t **p, const uint8_t *end, int64_t *out)
{
    uint64_t u;
    if (stoke_get_u(p, end, &u))
        return -1;
    *out = (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
    return 0;
}

#endif

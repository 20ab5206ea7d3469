"""heap_overhead.py - figure 5: how much longer a malloc-heavy program
(bench/malloc_burn: 10 million malloc/free pairs through a few stacks,
16 B to 4 KiB) takes with stoke's sampled heap tracking (the default mean
interval, 512 KiB) than bare, in the same interleaved rounds. Two loads:
5,000 live blocks (the allocator's fast paths, about 50 ns a pair here)
and 50,000 (the live set misses the caches, about 120 ns a pair).

Beside the judged rows, so the cost can be told apart: bench/idle_thread.c
(one sleeping thread: glibc's malloc takes its locks once a process has
two threads, and stoke's agent has a writer thread), stoke with CPU
sampling nearly off and no heap tracking (-F 1: the agent at rest, which
without --heap is libstoke-cpu.so, with no allocator hooks), and CPU
sampling alone at 997 Hz.
Owns: that comparison and its target (sampled heap tracking at most 5% more
wall time). Never compares with exact mode or other heap profilers:
heap_exact.py does.
"""
import heap_program
import overhead
import stats
from profiled_run import profiled_run
from runner import interleave

NAME = "heap_overhead"
SUMMARY = "wall time of bench/malloc_burn (10M malloc/free pairs) bare and with sampled heap " \
          "tracking"
DEFAULT_ROUNDS = 11
HZ = 997  # the rate of the plain stoke row; the other stoke rows bring their own
TARGET_RATIO = 1.05
MILLION_PAIRS = 10
LIVE_BLOCKS = [5000, 50000]
TOOLS = ["bare", "idle-thread", "stoke-F1", "stoke", "stoke-heap-F1", "stoke-heap"]
JUDGED = ["stoke-heap-F1", "stoke-heap"]


def run(ctx):
    keys = [(live, tool) for live in LIVE_BLOCKS for tool in ctx.tools_named(TOOLS)]
    runs = interleave(ctx.rounds(DEFAULT_ROUNDS), keys,
                      lambda key: profiled_run(ctx, key[1],
                                               heap_program.command(ctx, MILLION_PAIRS, key[0]),
                                               HZ))
    tables = []
    for live in LIVE_BLOCKS:
        load_runs = {tool: r for (l, tool), r in runs.items() if l == live}
        heap_program.check_unchanged(overhead.by_name(load_runs))
        label = heap_program.label(MILLION_PAIRS, live)
        tables += [summary(load_runs, live, label),
                   overhead.raw_table("Sampled heap tracking, `%s`: raw runs (wall s / CPU s)"
                                      % label, load_runs)]
    return tables


def summary(runs, live, label):
    table = overhead.summary_table(
        "Sampled heap tracking: `%s` (interleaved rounds: %d)"
        % (label, len(next(iter(runs.values())))),
        runs, [("peak RSS MB (median)", overhead.median_of("max_rss_mb", "%.1f".__mod__)),
               ("recorded (median)", overhead.median_of("samples", stats.count)),
               ("output bytes (median)", overhead.median_of("output_bytes", stats.count))])
    for name in JUDGED:
        if name in overhead.by_name(runs):
            table.note(overhead.verdict(name, runs, TARGET_RATIO))
    table.note("idle-thread: bench/idle_thread.c preloaded (one thread that sleeps); "
               "stoke-F1: `stoke record -F 1` (libstoke-cpu.so: no allocator hooks, one "
               "CPU sample a second); stoke: `-F 997`; stoke-heap-F1: `--heap -F 1`; stoke-heap: "
               "`--heap` (heap tracking and CPU sampling at their defaults); all --collect-only. "
               "recorded: CPU samples for stoke-F1 and stoke; for the heap rows the allocations "
               "since the start as the exit snapshot estimates them (the program makes %d)."
               % heap_program.allocations(MILLION_PAIRS, live))
    return table

"""heap_exact.py - figure 6: stoke tracking every allocation
(--heap-interval 1) against the heap profilers users would pick instead,
heaptrack and gperftools' heap profiler, on the same malloc-heavy program
(bench/malloc_burn, 2 million malloc/free pairs: the slowest of them needs
a minute for ten), in the same interleaved rounds. Beside them: bare,
tcmalloc alone (gperftools' profiler swaps the allocator too) and stoke's
sampled mode.

Owns: that comparison and its targets (exact mode at least 3 times faster
than heaptrack, with a smaller output). Never judges sampled mode's
overhead: heap_overhead.py does.
"""
import heap_program
import overhead
import stats
from profiled_run import profiled_run
from runner import interleave

NAME = "heap_exact"
SUMMARY = "stoke --heap-interval 1 vs heaptrack and gperftools' heap profiler on bench/malloc_burn"
DEFAULT_ROUNDS = 3
MILLION_PAIRS, LIVE_BLOCKS = 2, 50000
TARGET_SPEEDUP = 3.0
TOOLS = ["bare", "tcmalloc", "stoke-heap-F1", "stoke-exact-F1", "heaptrack", "gperftools-heap"]


def run(ctx):
    argv = heap_program.command(ctx, MILLION_PAIRS, LIVE_BLOCKS)
    runs = interleave(ctx.rounds(DEFAULT_ROUNDS), ctx.tools_named(TOOLS),
                      lambda t: profiled_run(ctx, t, argv, None))
    heap_program.check_unchanged(overhead.by_name(runs))
    return [summary(runs), overhead.raw_table("Exact heap tracking: raw runs (wall s / CPU s)",
                                              runs)]


def summary(runs):
    table = overhead.summary_table(
        "Exact heap tracking: `%s` (interleaved rounds: %d)"
        % (heap_program.label(MILLION_PAIRS, LIVE_BLOCKS), len(next(iter(runs.values())))),
        runs, [("peak RSS MB (median)", overhead.median_of("max_rss_mb", "%.1f".__mod__)),
               ("allocations recorded (median)", overhead.median_of("samples", stats.count)),
               ("output bytes (median)", overhead.median_of("output_bytes", stats.count))])
    named = overhead.by_name(runs)
    if "stoke-exact-F1" in named and "heaptrack" in named:
        table.note(speed_verdict(named["stoke-exact-F1"], named["heaptrack"], named["bare"]))
        table.note(size_verdict(named["stoke-exact-F1"], named["heaptrack"]))
    table.note("The program makes %d allocations. stoke-heap-F1: `stoke record --heap -F 1`; "
               "stoke-exact-F1: `stoke record --heap-interval 1 -F 1` (both --collect-only; "
               "output: the CPU trace and the exit snapshot); heaptrack: `heaptrack -o FILE` "
               "(output: FILE.zst; CPU time includes its interpreter and compressor processes); "
               "gperftools-heap: `LD_PRELOAD=libtcmalloc.so.4 HEAPPROFILE=PREFIX` (output: "
               "PREFIX.*.heap, one per GiB allocated and one at exit; runs on tcmalloc, see the "
               "tcmalloc row)." % heap_program.allocations(MILLION_PAIRS, LIVE_BLOCKS))
    return table


def speed_verdict(exact, heaptrack, bare):
    wall = stats.median(stats.paired_ratios([r.wall_s for r in heaptrack],
                                            [r.wall_s for r in exact]))
    cpu = stats.median(stats.paired_ratios([r.cpu_s for r in heaptrack], [r.cpu_s for r in exact]))
    added = stats.median([(h.wall_s - b.wall_s) / (e.wall_s - b.wall_s)
                          for h, e, b in zip(heaptrack, exact, bare)])
    return ("stoke-exact-F1 vs heaptrack: heaptrack's wall time is %.2fx stoke's (CPU time "
            "%.2fx; time added to bare %.2fx), target at least %.0fx: %s"
            % (wall, cpu, added, TARGET_SPEEDUP, stats.verdict(wall >= TARGET_SPEEDUP)))


def size_verdict(exact, heaptrack):
    exact_bytes = stats.median([r.output_bytes for r in exact])
    heaptrack_bytes = stats.median([r.output_bytes for r in heaptrack])
    return ("stoke-exact-F1's output: %d bytes, heaptrack's: %d bytes (%.0fx), target "
            "smaller: %s"
            % (exact_bytes, heaptrack_bytes, heaptrack_bytes / exact_bytes,
               stats.verdict(exact_bytes < heaptrack_bytes)))

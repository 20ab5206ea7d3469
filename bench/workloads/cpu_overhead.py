"""cpu_overhead.py - figure 1: how much longer the bundled CPU workload
(examples/cpu_burn, a few seconds of work) takes under each profiler at
997 Hz than bare, all in the same interleaved rounds. bench/empty_sampler.c
runs beside them as the floor any in-process signal sampler pays here.

Owns: that comparison and its target (stoke at most 2% more wall time).
Never judges sampling rates: sample_rate.py does.
"""
import overhead
import stats
from profiled_run import profiled_run
from runner import interleave

NAME = "cpu_overhead"
SUMMARY = "wall time of examples/cpu_burn bare and under each profiler at 997 Hz"
DEFAULT_ROUNDS = 9
HZ = 997
TARGET_RATIO = 1.02
TOOLS = ["bare", "empty-sampler", "stoke", "perf", "gperftools"]


def run(ctx):
    tools = ctx.tools_named(TOOLS)
    argv = [ctx.cpu_burn]
    runs = interleave(ctx.rounds(DEFAULT_ROUNDS), tools, lambda t: profiled_run(ctx, t, argv, HZ))
    return [summary(runs, argv),
            overhead.raw_table("Overhead: raw runs (wall s / CPU s)", runs)]


def summary(runs, argv):
    table = overhead.summary_table(
        "Overhead at %d Hz: `%s` (interleaved rounds: %d)"
        % (HZ, " ".join(["cpu_burn"] + argv[1:]), len(next(iter(runs.values())))),
        runs, [("samples (median)", overhead.median_of("samples", stats.count))])
    if "stoke" in overhead.by_name(runs):
        table.note(overhead.verdict("stoke", runs, TARGET_RATIO))
    table.note("wall vs bare: the median of each round's ratio; best vs best: fastest run over "
               "fastest bare run. CPU s: user + system time of the command and all it waited "
               "for (for perf, its own process too). empty-sampler: bench/empty_sampler.c, "
               "signals at the same rate with a handler that does nothing.")
    return table

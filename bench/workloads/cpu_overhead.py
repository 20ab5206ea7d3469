"""cpu_overhead.py - figure 1: how much longer the bundled CPU workload
(examples/cpu_burn, a few seconds of work) takes under each profiler at
997 Hz than bare, all in the same interleaved rounds. bench/empty_sampler.c
runs beside them as the floor any in-process signal sampler pays here.

Owns: that comparison and its target (stoke at most 2% more wall time).
Never judges sampling rates: sample_rate.py does.
"""
import stats
from profiled_run import profiled_run
from runner import interleave
from table import Table

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
    return [summary(runs, argv), raw(runs)]


def summary(runs, argv):
    by_name = {tool.name: r for tool, r in runs.items()}
    bare = by_name["bare"]
    table = Table("Overhead at %d Hz: `%s` (interleaved rounds: %d)"
                  % (HZ, " ".join(["cpu_burn"] + argv[1:]), len(bare)),
                  ["tool", "wall s (median)", "wall vs bare (median of rounds)", "range",
                   "best vs best", "CPU s (median)", "CPU vs bare", "samples (median)"])
    wall_ratio, cpu_ratio = {}, {}
    for name, tool_runs in by_name.items():
        walls = [r.wall_s for r in tool_runs]
        wall = stats.paired_ratios(walls, [r.wall_s for r in bare])
        cpu = stats.paired_ratios([r.cpu_s for r in tool_runs], [r.cpu_s for r in bare])
        wall_ratio[name], cpu_ratio[name] = stats.median(wall), stats.median(cpu)
        table.add(name, stats.seconds(stats.median(walls)),
                  "%s (%s)" % (stats.ratio(wall_ratio[name]), stats.percent_more(wall_ratio[name])),
                  stats.spread(wall, stats.ratio),
                  stats.ratio(min(walls) / min(r.wall_s for r in bare)),
                  stats.seconds(stats.median([r.cpu_s for r in tool_runs])),
                  stats.ratio(cpu_ratio[name]),
                  stats.count(stats.median([r.samples for r in tool_runs])))
    if "stoke" in wall_ratio:
        table.note(stoke_verdict(wall_ratio["stoke"], cpu_ratio["stoke"],
                                 stats.relative_iqr([r.wall_s for r in bare])))
    table.note("wall vs bare: the median of each round's ratio; best vs best: fastest run over "
               "fastest bare run. CPU s: user + system time of the command and all it waited "
               "for (for perf, its own process too). empty-sampler: bench/empty_sampler.c, "
               "signals at the same rate with a handler that does nothing.")
    return table


def stoke_verdict(wall_ratio, cpu_ratio, bare_wander):
    """The target judged on wall time, unless the bare runs alone wandered
    more than the margin judged: then wall time cannot tell."""
    line = "stoke: %s wall time vs bare (CPU time %s), target at most %s: " % (
        stats.percent_more(wall_ratio), stats.percent_more(cpu_ratio),
        stats.percent_more(TARGET_RATIO))
    if bare_wander > TARGET_RATIO - 1:
        return line + ("UNDECIDED: the middle half of the bare runs spans %.1f%% of their "
                       "median, more than the margin; rerun on a quiet machine" % (bare_wander * 100))
    return line + stats.verdict(wall_ratio <= TARGET_RATIO)


def raw(runs):
    table = Table("Overhead: raw runs (wall s / CPU s)",
                  ["round"] + [tool.name for tool in runs])
    for i in range(len(next(iter(runs.values())))):
        table.add(i + 1, *("%.3f / %.3f" % (r[i].wall_s, r[i].cpu_s) for r in runs.values()))
    return table

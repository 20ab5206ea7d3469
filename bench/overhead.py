"""overhead.py - what every overhead figure does with its interleaved runs of
one command, bare and under each tool: the summary table (medians, ratios to
the bare run of the same round, extremes), the table of raw runs, and the
verdict against a target ratio of wall time.

Owns: those tables and the verdict's rule (see verdict()). Never runs
anything and never picks tools or targets: the workloads do.
"""
from dataclasses import dataclass

import stats
from table import Table


@dataclass
class ToBare:
    wall: float  # median over the rounds of each round's ratio to bare
    cpu: float


def by_name(runs):
    """{tool name: [runs]} from interleave's {tool: [runs]}."""
    return {tool.name: tool_runs for tool, tool_runs in runs.items()}


def compare_to_bare(runs):
    """{tool name: ToBare}; runs must hold a tool named bare."""
    named = by_name(runs)
    bare = named["bare"]
    return {name: ToBare(stats.median(wall_ratios(tool_runs, bare)),
                         stats.median(stats.paired_ratios([r.cpu_s for r in tool_runs],
                                                          [r.cpu_s for r in bare])))
            for name, tool_runs in named.items()}


def wall_ratios(tool_runs, bare_runs):
    return stats.paired_ratios([r.wall_s for r in tool_runs], [r.wall_s for r in bare_runs])


def summary_table(title, runs, extra_columns=()):
    """Medians and ratios to bare per tool; extra_columns are (header,
    function of a tool's runs -> cell)."""
    named = by_name(runs)
    bare = named["bare"]
    to_bare = compare_to_bare(runs)
    table = Table(title, ["tool", "wall s (median)", "wall vs bare (median of rounds)", "range",
                          "best vs best", "CPU s (median)", "CPU vs bare"]
                  + [header for header, _ in extra_columns])
    for name, tool_runs in named.items():
        walls = [r.wall_s for r in tool_runs]
        ratio = to_bare[name]
        table.add(name, stats.seconds(stats.median(walls)),
                  "%s (%s)" % (stats.ratio(ratio.wall), stats.percent_more(ratio.wall)),
                  stats.spread(wall_ratios(tool_runs, bare), stats.ratio),
                  stats.ratio(min(walls) / min(r.wall_s for r in bare)),
                  stats.seconds(stats.median([r.cpu_s for r in tool_runs])),
                  stats.ratio(ratio.cpu),
                  *(cell(tool_runs) for _, cell in extra_columns))
    return table


def raw_table(title, runs):
    table = Table(title, ["round"] + [tool.name for tool in runs])
    for i in range(len(next(iter(runs.values())))):
        table.add(i + 1, *("%.3f / %.3f" % (r[i].wall_s, r[i].cpu_s) for r in runs.values()))
    return table


def verdict(name, runs, target_ratio):
    """The target judged on the median of the paired wall-time ratios. When
    the bare runs alone wandered more than the margin judged, the median
    cannot tell: then only a verdict that holds for the middle half of the
    paired ratios (both quartiles on one side of the target) is given, and
    otherwise the figure is undecided."""
    ratio = compare_to_bare(runs)[name]
    named = by_name(runs)
    bare_wander = stats.relative_iqr([r.wall_s for r in named["bare"]])
    line = "%s: %s wall time vs bare (CPU time %s), target at most %s: " % (
        name, stats.percent_more(ratio.wall), stats.percent_more(ratio.cpu),
        stats.percent_more(target_ratio))
    if bare_wander <= target_ratio - 1:
        return line + stats.verdict(ratio.wall <= target_ratio)
    low, high = stats.quartiles(wall_ratios(named[name], named["bare"]))
    noisy = ("the middle half of the bare runs spans %.1f%% of their median, more than the "
             "margin, and the middle half of the paired ratios spans %s to %s"
             % (bare_wander * 100, stats.percent_more(low), stats.percent_more(high)))
    if low > target_ratio:
        return line + "MISSED (%s: all above the target)" % noisy
    if high <= target_ratio:
        return line + "met (%s: all within the target)" % noisy
    return line + "UNDECIDED: %s; rerun on a quiet machine" % noisy


def median_of(field, fmt):
    """An extra column: the median of one field of a tool's runs."""
    return lambda tool_runs: fmt(stats.median([getattr(r, field) for r in tool_runs]))

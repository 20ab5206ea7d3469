"""process_start.py - figure 10: what stoke adds to each short process, on a
shell loop that starts 1,000 of them (`/bin/true`), recorded without and
with heap tracking, in the same interleaved rounds. Every process loads the
agent, opens its trace, starts the writer thread and finishes its trace
(and with --heap writes an exit snapshot), so the loop's added time over
bare, divided by the processes, is what stoke costs one process's start
and exit.
Owns: that figure and its target (--heap at most 1.5 times the time of the
same loop recorded without it, i.e. well under 1 ms more per process).
Never measures sampling: the processes end before their first sample.
"""
import stats
from profiled_run import profiled_run
from runner import interleave
from table import Table

NAME = "process_start"
SUMMARY = "a shell loop of 1,000 short processes: bare, recorded, recorded with --heap"
DEFAULT_ROUNDS = 5
HZ = 997
PROCESSES = 1000
TARGET_RATIO = 1.5
TOOLS = ["bare", "stoke", "stoke-heap"]
LOOP = ["bash", "-c", "for i in $(seq %d); do /bin/true; done" % PROCESSES]


def run(ctx):
    tools = ctx.tools_named(TOOLS)
    runs = interleave(ctx.rounds(DEFAULT_ROUNDS), tools,
                      lambda tool: profiled_run(ctx, tool, LOOP, HZ))
    return [summary({tool.name: r for tool, r in runs.items()})]


def summary(runs):
    rounds = len(next(iter(runs.values())))
    table = Table("%d short processes (`/bin/true` in a bash loop), interleaved rounds: %d"
                  % (PROCESSES, rounds),
                  ["tool", "wall s (median)", "added per process vs bare (median)",
                   "vs stoke without --heap (median of rounds)", "range"])
    bare = [r.wall_s for r in runs["bare"]]
    plain = [r.wall_s for r in runs["stoke"]]
    for name, tool_runs in runs.items():
        walls = [r.wall_s for r in tool_runs]
        added_ms = [(w - b) * 1000 / PROCESSES for w, b in zip(walls, bare)]
        to_plain = stats.paired_ratios(walls, plain)
        table.add(name, stats.seconds(stats.median(walls)), "%.2f ms" % stats.median(added_ms),
                  stats.ratio(stats.median(to_plain)), stats.spread(to_plain, stats.ratio))
    heap = stats.median(stats.paired_ratios([r.wall_s for r in runs["stoke-heap"]], plain))
    table.note("stoke-heap: %s the time of the loop recorded without --heap, target at most "
               "%s: %s" % (stats.ratio(heap), stats.ratio(TARGET_RATIO),
                           stats.verdict(heap <= TARGET_RATIO)))
    table.note("stoke: `stoke record -F 997 --collect-only`; stoke-heap: `stoke record --heap "
               "--collect-only` (one exit snapshot per process)")
    return table

"""heap_memory.py - figure 7: the memory stoke's agent adds to a program
whose heap it tracks, and how it grows with the live allocations it
tracks: the peak resident set of bench/malloc_burn (4 million pairs) with
50k to 400k live blocks, bare, with sampled tracking (512 KiB) and with
exact tracking (every block tracked), in the same interleaved rounds.

The agent's memory is the program's peak RSS under stoke minus bare's with
the same live blocks (stoke's own process is smaller than the program and
is not counted: the runner reports the largest process of a run). A
sampled run tracks about live bytes / 512 KiB blocks, an exact run all.
Owns: that figure. Never times anything.
"""
import heap_program
import stats
from profiled_run import profiled_run
from runner import interleave
from table import Table

NAME = "heap_memory"
SUMMARY = "peak RSS added by stoke's heap tracking (sampled, exact) with 50k..400k live blocks"
DEFAULT_ROUNDS = 2
MILLION_PAIRS = 4  # enough sampled allocations for the agent's tables to reach their size
LIVE_BLOCKS = [50000, 100000, 200000, 400000]
INTERVALS = {"stoke-heap-F1": 512 * 1024, "stoke-exact-F1": 1}  # mean bytes per sample
TOOLS = ["bare"] + list(INTERVALS)
MIN_TRACKED_CHANGE = 1000  # below this, RSS noise swamps the growth per block


def run(ctx):
    keys = [(live, tool) for live in LIVE_BLOCKS for tool in ctx.tools_named(TOOLS)]
    runs = interleave(ctx.rounds(DEFAULT_ROUNDS), keys,
                      lambda key: profiled_run(ctx, key[1],
                                               heap_program.command(ctx, MILLION_PAIRS, key[0]),
                                               None))
    for live in LIVE_BLOCKS:
        heap_program.check_unchanged({tool.name: r for (l, tool), r in runs.items() if l == live})
    return [summary(runs)]


def tracked_blocks(tool_name, result):
    """About how many live blocks the agent tracks at the peak."""
    interval = INTERVALS.get(tool_name)
    if not interval:
        return 0
    return result.live_blocks if interval == 1 else result.live_bytes / interval


def summary(runs):
    rounds = len(next(iter(runs.values())))
    table = Table("Agent memory: peak RSS of `malloc_burn %d LIVE` (medians, interleaved "
                  "rounds: %d)" % (MILLION_PAIRS, rounds),
                  ["live blocks", "live MB", "tool", "peak RSS MB", "over bare MB",
                   "tracked blocks (about)", "growth from the previous row, bytes per tracked "
                   "block"])
    peaks = {key: stats.median([r.max_rss_mb for r in key_runs]) for key, key_runs in runs.items()}
    previous = {}
    for (live, tool), key_runs in runs.items():
        result = heap_program.result(key_runs[0].stdout)
        over = peaks[(live, tool)] - bare_peak(peaks, live)
        tracked = tracked_blocks(tool.name, result)
        table.add(live, "%.1f" % (result.live_bytes / 2 ** 20), tool.name,
                  "%.1f" % peaks[(live, tool)], "%+.1f" % over, stats.count(tracked),
                  growth(previous.get(tool.name), over, tracked))
        previous[tool.name] = (over, tracked)
    table.note("over bare: the peak RSS of the program under `stoke record --heap -F 1` "
               "(stoke-heap-F1) or `--heap-interval 1 -F 1` (stoke-exact-F1) minus bare's with "
               "the same live blocks. growth: the change of `over bare` since the row with half "
               "the live blocks, over the change of tracked blocks (- where too few blocks "
               "changed to tell).")
    return table


def bare_peak(peaks, live):
    return next(peak for (l, tool), peak in peaks.items() if l == live and tool.name == "bare")


def growth(previous, over, tracked):
    if not previous or tracked - previous[1] < MIN_TRACKED_CHANGE:
        return "-"
    return "%.0f" % ((over - previous[0]) * 2 ** 20 / (tracked - previous[1]))

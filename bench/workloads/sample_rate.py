"""sample_rate.py - figure 2: samples per CPU-second each profiler records
at -F 997 on 1 and on 4 busy threads (bench/threads_burn.c), in the same
interleaved rounds.

The CPU time is the spinning threads' own, as threads_burn reports it, so a
profiler's helper threads or processes do not dilute the rate.
Owns: that figure and its target (stoke at least 0.99 x 997).
Never measures overhead: cpu_overhead.py does.
"""
import re

import stats
from profiled_run import profiled_run
from runner import BenchError, interleave
from table import Table

NAME = "sample_rate"
SUMMARY = "samples per CPU-second at -F 997 on 1 and 4 busy threads (bench/threads_burn)"
DEFAULT_ROUNDS = 3
HZ = 997
TARGET_SHARE = 0.99
TOOLS = ["stoke", "perf", "gperftools"]
LOADS = [(1, 2.0), (4, 1.0)]  # (threads, CPU seconds each)


def run(ctx):
    burn = ctx.program("threads_burn")
    keys = [(load, tool) for load in LOADS for tool in ctx.tools_named(TOOLS)]
    runs = interleave(ctx.rounds(DEFAULT_ROUNDS), keys,
                      lambda key: measure(ctx, burn, key[0], key[1]))
    return [summary(runs), raw(runs)]


def measure(ctx, burn, load, tool):
    threads, seconds = load
    r = profiled_run(ctx, tool, [burn, str(threads), str(seconds)], HZ)
    return r.samples, cpu_seconds(r.stdout)


def cpu_seconds(stdout):
    found = re.search(r"cpu_seconds ([0-9.]+)", stdout)
    if not found:
        raise BenchError("threads_burn printed no CPU time: %r" % stdout)
    return float(found.group(1))


def summary(runs):
    rounds = len(next(iter(runs.values())))
    table = Table("Samples per CPU-second at -F %d (interleaved rounds: %d)" % (HZ, rounds),
                  ["threads x CPU s", "tool", "samples (median)", "per CPU-s (median)",
                   "x %d (median)" % HZ, "range"])
    for ((threads, seconds), tool), results in runs.items():
        shares = [samples / cpu / HZ for samples, cpu in results]
        table.add("%d x %.1f" % (threads, seconds), tool.name,
                  stats.count(stats.median([s for s, _ in results])),
                  stats.count(stats.median(shares) * HZ), stats.ratio(stats.median(shares)),
                  stats.spread(shares, stats.ratio))
        if tool.name == "stoke":
            table.note("stoke on %d thread%s: %s x %d, target at least %.2f: %s"
                       % (threads, "" if threads == 1 else "s", stats.ratio(stats.median(shares)),
                          HZ, TARGET_SHARE, stats.verdict(stats.median(shares) >= TARGET_SHARE)))
    return table


def raw(runs):
    table = Table("Sample rate: raw runs (samples / CPU s of the spinning threads)",
                  ["threads", "tool"] + ["round %d" % (i + 1)
                                         for i in range(len(next(iter(runs.values()))))])
    for ((threads, _), tool), results in runs.items():
        table.add(threads, tool.name, *("%d / %.3f" % (s, cpu) for s, cpu in results))
    return table

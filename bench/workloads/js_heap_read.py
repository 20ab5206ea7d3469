"""js_heap_read.py - figure 12: reading a V8 heap snapshot of about 200 MB
(bench/js_heap_graph.js, written once into the scratch directory), by
stoke's reader (tests/js_heap/js_heap_tool: `read`, and `summary`, which
adds the whole analysis: dominator tree, retained sizes, DevTools' groups)
against node's own `JSON.parse` of the file, in interleaved rounds.
Owns: that figure and its targets (reading in at most 2 times node's wall
time, with at most half its peak memory).
Never compares stoke's analysis with anything node does: JSON.parse is
only the parse.
"""
import os
import re

import stats
from runner import BenchError, interleave, run_command
from table import Table

NAME = "js_heap_read"
SUMMARY = "reading a ~200 MB .heapsnapshot: stoke's reader (and analysis) against node's JSON.parse"
DEFAULT_ROUNDS = 5
ORDERS = 150000  # js_heap_graph.js's objects: about 200 MB of snapshot
TARGET_TIME = 2.0
TARGET_MEMORY = 0.5
NODE_PARSE = "JSON.parse(require('fs').readFileSync(process.argv[1], 'utf8'))"
BENCH_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(ctx):
    tool = os.path.join(ctx.build, "bin", "js_heap_tool")
    if not os.path.exists(tool):
        raise BenchError("%s is missing (configure with -DBUILD_TESTING=ON)" % tool)
    snapshot = os.path.join(ctx.scratch, "graph.heapsnapshot")
    run_command(["node", os.path.join(BENCH_DIR, "js_heap_graph.js"), snapshot, str(ORDERS)],
                ctx.scratch)
    commands = {
        "stoke: read": [tool, "read", snapshot],
        "stoke: read + Summary": [tool, "summary", snapshot],
        "node: JSON.parse": ["node", "-e", NODE_PARSE, snapshot],
    }
    runs = interleave(ctx.rounds(DEFAULT_ROUNDS), list(commands),
                      lambda key: run_command(commands[key], ctx.scratch))
    counts = run_command([tool, "read", snapshot], ctx.scratch).stdout.strip()
    return [summary(runs, snapshot, counts, commands)]


def summary(runs, snapshot, counts, commands):
    rounds = len(next(iter(runs.values())))
    size_mb = os.path.getsize(snapshot) / 1e6
    table = Table("Reading a %.0f MB .heapsnapshot (%s; interleaved rounds: %d)"
                  % (size_mb, re.sub(r"\s+", " ", counts), rounds),
                  ["command", "wall s (median)", "range", "CPU s (median)", "peak MB (median)",
                   "wall / node's (median)", "peak / node's (median)"])
    node = runs["node: JSON.parse"]
    for key, key_runs in runs.items():
        walls = [r.wall_s for r in key_runs]
        peaks = [r.max_rss_mb for r in key_runs]
        table.add(key, stats.seconds(stats.median(walls)), stats.spread(walls, stats.seconds),
                  stats.seconds(stats.median([r.cpu_s for r in key_runs])),
                  "%.0f" % stats.median(peaks),
                  stats.ratio(stats.median(stats.paired_ratios(walls, [r.wall_s for r in node]))),
                  stats.ratio(stats.median(stats.paired_ratios(peaks,
                                                                [r.max_rss_mb for r in node]))))
    read = runs["stoke: read"]
    time_ratio = stats.median(stats.paired_ratios([r.wall_s for r in read], [r.wall_s for r in node]))
    memory_ratio = stats.median(stats.paired_ratios([r.max_rss_mb for r in read],
                                                    [r.max_rss_mb for r in node]))
    table.note("stoke's reader: %s node's wall time (target at most %s): %s; %s its peak memory "
               "(target at most %s): %s"
               % (stats.ratio(time_ratio), stats.ratio(TARGET_TIME),
                  stats.verdict(time_ratio <= TARGET_TIME), stats.ratio(memory_ratio),
                  stats.ratio(TARGET_MEMORY), stats.verdict(memory_ratio <= TARGET_MEMORY)))
    for key, argv in commands.items():
        table.note("%s: `%s`" % (key, " ".join(argv[:1] + [os.path.basename(a) if os.path.isabs(a)
                                                            else repr(a) if " " in a else a
                                                            for a in argv[1:]])))
    return table

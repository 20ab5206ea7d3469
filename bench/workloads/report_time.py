"""report_time.py - figure 4: how long `stoke report` (the HTML flame graph)
takes on traces of 100,000 and 1,000,000 samples, and that its time follows
the distinct stacks and addresses, not the samples.

Two kinds of trace: real ones, recorded by stoke at 50,000 Hz from
bench/threads_burn (two threads; ~100k and ~1M samples of one program),
and synthetic ones from tests/tools/make_trace (`make_trace bench`: random
stacks over the functions of stoke and the libraries it links), on a grid
of samples x distinct stacks.
Owns: that figure and its target (under 5 s for 1M samples).
Never times other tools: their reports are not the same work.
"""
import os
import re
import subprocess
from dataclasses import dataclass

import stats
from profiled_run import profiled_run
from runner import BenchError, interleave, run_command
from table import Table

NAME = "report_time"
SUMMARY = "`stoke report` time on 100k and 1M-sample traces, real and synthetic"
DEFAULT_ROUNDS = 3
TARGET_SECONDS = 5.0
LARGE_TRACE_SAMPLES = 900000  # judged against the target: "a million samples"
RECORD_HZ = 50000
REAL_LOADS = [(2, 1.1), (2, 11.0)]  # threads_burn threads x CPU s each: ~100k, ~1M samples
SYNTHETIC_SAMPLES = [100000, 1000000]
SYNTHETIC_STACKS = [30, 300, 3000, 30000]


@dataclass(frozen=True)
class Trace:
    kind: str  # real | synthetic
    detail: str
    path: str
    samples: int
    bytes: int
    stacks: str = "-"
    addresses: str = "-"

    def label(self):
        return "%s: %s" % (self.kind, self.detail)


def run(ctx):
    traces = real_traces(ctx) + synthetic_traces(ctx)
    timings = interleave(ctx.rounds(DEFAULT_ROUNDS), traces,
                         lambda t: run_command([ctx.stoke, "report", t.path, "-o",
                                                ctx.output_path("report.html")], ctx.scratch))
    return [summary(timings)]


def real_traces(ctx):
    burn, stoke = ctx.program("threads_burn"), ctx.tools["stoke"]
    traces = []
    for threads, seconds in REAL_LOADS:
        recorded = profiled_run(ctx, stoke, [burn, str(threads), str(seconds)], RECORD_HZ)
        traces.append(Trace("real", "threads_burn %d %g at %d Hz" % (threads, seconds, RECORD_HZ),
                            recorded.output, recorded.samples, recorded.output_bytes))
    return traces


def synthetic_traces(ctx):
    if not os.path.exists(ctx.make_trace):
        print("bench: %s: %s is missing (configure with -DBUILD_TESTING=ON); "
              "synthetic traces skipped" % (NAME, ctx.make_trace))
        return []
    binaries = [ctx.stoke, ctx.agent] + linked_libraries([ctx.stoke, ctx.agent])
    traces = []
    for stacks in SYNTHETIC_STACKS:
        for samples in SYNTHETIC_SAMPLES:
            path = ctx.output_path("synthetic.stoke")
            made = subprocess.run([ctx.make_trace, "bench", path, str(samples), str(stacks)]
                                  + binaries, check=True, stdout=subprocess.PIPE, text=True)
            found = re.search(r"distinct_addresses (\d+)", made.stdout)
            if not found:
                raise BenchError("make_trace bench printed no address count: %r" % made.stdout)
            traces.append(Trace("synthetic", "make_trace bench", path, samples,
                                os.path.getsize(path), str(stacks), found.group(1)))
    return traces


def linked_libraries(files):
    """The shared libraries the files load, as ldd resolves them."""
    ldd = subprocess.run(["ldd"] + files, check=True, stdout=subprocess.PIPE, text=True)
    return sorted(set(re.findall(r"=> (/\S+)", ldd.stdout)))


def summary(timings):
    rounds = len(next(iter(timings.values())))
    seconds = {trace: stats.median([r.wall_s for r in runs]) for trace, runs in timings.items()}
    table = Table("`stoke report TRACE -o flamegraph.html` (interleaved rounds: %d)" % rounds,
                  ["trace", "samples", "distinct stacks", "distinct addresses", "trace bytes",
                   "report s (median)", "range", "peak MB"])
    for trace, runs in timings.items():
        table.add(trace.label(), trace.samples, trace.stacks, trace.addresses, trace.bytes,
                  stats.seconds(seconds[trace]),
                  stats.spread([r.wall_s for r in runs], stats.seconds),
                  "%.0f" % stats.median([r.max_rss_mb for r in runs]))
    for small, large in same_stacks_pairs(list(timings)):
        table.note("%s: %.1fx the samples, %.2fx the report time"
                   % (group_name(small), large.samples / max(small.samples, 1),
                      seconds[large] / seconds[small]))
    for trace in timings:
        if trace.samples >= LARGE_TRACE_SAMPLES:
            table.note("stoke report on %d samples (%s): %.2f s, target under %.0f s: %s"
                       % (trace.samples, group_name(trace), seconds[trace], TARGET_SECONDS,
                          stats.verdict(seconds[trace] < TARGET_SECONDS)))
    return table


def group_name(trace):
    if trace.stacks == "-":
        return "%s traces" % trace.kind
    return "%s traces, %s distinct stacks" % (trace.kind, trace.stacks)


def same_stacks_pairs(traces):
    """(fewest samples, most samples) of each group of traces of the same kind
    and the same distinct stacks."""
    groups = {}
    for trace in traces:
        groups.setdefault((trace.kind, trace.stacks), []).append(trace)
    return [(min(g, key=lambda t: t.samples), max(g, key=lambda t: t.samples))
            for g in groups.values() if len(g) > 1]

"""trace_size.py - figure 3: bytes each profiler writes per sample on the
bundled CPU workload (examples/cpu_burn) at 997 Hz.

Steady state is the slope between a short and a long run of the same
program: (bytes long - bytes short) / (samples long - samples short), so
what every trace holds once (header, memory maps, the interned stacks)
drops out.
Owns: that figure and its target (stoke at most 4 bytes per sample).
Never times anything.
"""
import stats
from profiled_run import profiled_run
from runner import interleave
from table import Table

NAME = "trace_size"
SUMMARY = "bytes per sample in steady state on examples/cpu_burn at 997 Hz"
DEFAULT_ROUNDS = 2
HZ = 997
TARGET_BYTES = 4.0
TOOLS = ["stoke", "perf"]
SHORT, LONG = 4, 16  # cpu_burn rounds of work (about 0.17 s each)


def run(ctx):
    keys = [(length, tool) for tool in ctx.tools_named(TOOLS) for length in (SHORT, LONG)]
    runs = interleave(ctx.rounds(DEFAULT_ROUNDS), keys,
                      lambda key: profiled_run(ctx, key[1], [ctx.cpu_burn, str(key[0])], HZ))
    return [summary(runs)]


def summary(runs):
    table = Table("Trace size at %d Hz: `cpu_burn %d` vs `cpu_burn %d` "
                  "(medians, interleaved rounds: %d)"
                  % (HZ, SHORT, LONG, len(next(iter(runs.values())))),
                  ["tool", "short: samples", "short: bytes", "long: samples", "long: bytes",
                   "bytes/sample (whole file, long)", "bytes/sample (steady state)"])
    for tool in dict.fromkeys(tool for _, tool in runs):
        short = medians(runs[(SHORT, tool)])
        long_ = medians(runs[(LONG, tool)])
        steady = per_sample(long_[1] - short[1], long_[0] - short[0])
        table.add(tool.name, stats.count(short[0]), stats.count(short[1]), stats.count(long_[0]),
                  stats.count(long_[1]), "%.2f" % per_sample(long_[1], long_[0]), "%.2f" % steady)
        if tool.name == "stoke":
            table.note("stoke: %.2f bytes per sample in steady state, target at most %.0f: %s"
                       % (steady, TARGET_BYTES, stats.verdict(steady <= TARGET_BYTES)))
    return table


def per_sample(size, samples):
    """Bytes per sample; infinite when there are no (more) samples to share them."""
    return size / samples if samples > 0 else float("inf")


def medians(results):
    """(median samples, median bytes) of a tool's runs of one length."""
    return (stats.median([r.samples for r in results]),
            stats.median([r.output_bytes for r in results]))

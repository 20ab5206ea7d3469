"""profiled_run.py - one run of a workload under one tool, with what the tool
recorded read back: the measurement every profiler workload repeats.

Owns: pairing a tool's command with its output. Never chooses workloads,
rates or rounds.
"""
from dataclasses import dataclass

from runner import run_command


@dataclass
class ProfiledRun:
    wall_s: float
    cpu_s: float
    max_rss_mb: float  # the largest resident set among the processes of the run
    stdout: str
    samples: int  # 0 for a bare run; heap tools: allocations accounted for
    output_bytes: int  # 0 for a bare run
    output: str  # where the tool wrote what it recorded


def profiled_run(ctx, tool, argv, hz):
    out = ctx.output_path(tool.name)
    command, env = tool.command(argv, out, hz)
    run = run_command(command, ctx.scratch, env)
    return ProfiledRun(run.wall_s, run.cpu_s, run.max_rss_mb, run.stdout, tool.samples(out),
                       tool.output_bytes(out), out)

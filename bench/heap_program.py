"""heap_program.py - bench/malloc_burn.c, the program of the heap figures:
how it is compiled (every malloc and free kept as a call), its command
line, what its result line says, and the check that the result is the same
under every tool as bare (a profiler must not change what a program does).

Owns: knowledge of malloc_burn's arguments and output. Never times
anything.
"""
import re
from dataclasses import dataclass

from runner import BenchError

FLAGS = ["-fno-builtin-malloc", "-fno-builtin-free"]
OTHER_ALLOCATIONS = 67  # the ring's two arrays, 64 long-lived blocks, stdout's buffer
RESULT = re.compile(r"^malloc_burn: (\d+) pairs, (\d+) live blocks of (\d+) bytes, "
                    r"checksum ([0-9a-f]+)$", re.MULTILINE)


@dataclass(frozen=True)
class Result:
    line: str
    live_blocks: int
    live_bytes: int  # what the live blocks held at the end


def command(ctx, million_pairs, live_blocks):
    return [ctx.program("malloc_burn", FLAGS), str(million_pairs), str(live_blocks)]


def allocations(million_pairs, live_blocks):
    """How many allocations a run makes (one per pair, one per block of the
    ring when it is filled, and the others)."""
    return million_pairs * 1000000 + live_blocks + OTHER_ALLOCATIONS


def label(million_pairs, live_blocks):
    return "malloc_burn %d %d" % (million_pairs, live_blocks)


def result(stdout):
    """The result line of a run's stdout (heaptrack adds lines of its own)."""
    found = RESULT.search(stdout)
    if not found:
        raise BenchError("malloc_burn printed no result line: %r" % stdout[-200:])
    return Result(found.group(0), int(found.group(2)), int(found.group(3)))


def check_unchanged(named_runs):
    """Raises BenchError unless every run of {tool name: [runs]} printed the
    result of the bare runs."""
    expected = result(named_runs["bare"][0].stdout).line
    for name, runs in named_runs.items():
        for run in runs:
            got = result(run.stdout).line
            if got != expected:
                raise BenchError("malloc_burn's output changed under %s: %r instead of %r"
                                 % (name, got, expected))

"""gperf_heap.py - reads how many allocations a heap profile written by
gperftools' heap profiler (HEAPPROFILE=PREFIX) accounts for, from its text
header, so the benchmark needs neither pprof nor the profiled binaries.

The first line of PREFIX.NNNN.heap is
  heap profile:  LIVE_OBJECTS: LIVE_BYTES [ALLOC_OBJECTS: ALLOC_BYTES] @ heapprofile
where the bracket counts every allocation since profiling started.

Owns: reading that header. Never writes or symbolizes anything.
"""
import re

from runner import BenchError

HEADER = re.compile(r"heap profile:\s*\d+:\s*\d+\s*\[\s*(\d+):\s*\d+\s*\]")


def allocations_since_start(path):
    with open(path, encoding="ascii", errors="replace") as f:
        found = HEADER.match(f.readline())
    if not found:
        raise BenchError("%s: not a gperftools heap profile (bad first line)" % path)
    return int(found.group(1))

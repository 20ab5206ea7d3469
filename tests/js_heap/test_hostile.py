#!/usr/bin/env python3
"""test_hostile.py - damaged and hostile heap snapshots (hostile_snapshots.py)
given to stoke's reader and analysis (js_heap_tool summary): each ends in
time, within MEMORY_LIMIT_MIB, never by a signal; either with a report and
warnings (a file whose nodes are whole: truncated later, counts that lie,
edges to no node) or with one line naming the file and what is wrong.

usage: test_hostile.py CASE   (environment: see tests/js_heap/CMakeLists.txt)
"""
import os
import sys

import hostile_snapshots
from e2e_support import describe, expect, fresh_dir, main, run_measuring_memory, text

TOOL = os.environ["JS_HEAP_TOOL"]
MEMORY_LIMIT_MIB = 256
# In the sanitized build, AddressSanitizer keeps freed memory in quarantine
# (256 MiB by default) and the peak counts it; the bound is about what the
# reader holds, so the quarantine is kept small (the plain build ignores it).
os.environ["ASAN_OPTIONS"] = ":".join(filter(None, [os.environ.get("ASAN_OPTIONS"),
                                                    "quarantine_size_mb=16"]))


def write(directory, name, content):
    path = os.path.join(directory, name + ".heapsnapshot")
    with open(path, "w", encoding="latin-1") as f:  # one byte a character: "\xff" stays 0xff
        f.write(content)
    return path


def summary(path):
    """Runs js_heap_tool summary on path: (result, stdout, stderr); fails
    the test on a signal or too much memory."""
    result, peak = run_measuring_memory([TOOL, "summary", path])
    what = f"js_heap_tool summary {path}"
    expect(result.returncode in (0, 1), f"{what} ended with status {result.returncode}",
           describe(result))
    expect(peak < MEMORY_LIMIT_MIB, f"{what} held {peak:.0f} MiB at its peak", describe(result))
    return result, text(result.stdout), text(result.stderr)


def expect_report(path, warning=None):
    result, out, err = summary(path)
    expect(result.returncode == 0 and "\ntotal\t" in "\n" + out, f"{path}: no report",
           describe(result))
    for line in err.splitlines():
        expect(line.startswith(f"stoke: {path}: "), f"{path}: a warning without the file",
               describe(result))
    if warning:
        expect(warning in err, f"{path}: no warning \"{warning}\"", describe(result))


def expect_error(path, message):
    result, out, err = summary(path)
    expect(result.returncode == 1, f"{path}: read though it should not be", describe(result))
    lines = err.splitlines()
    expect(len(lines) == 1 and lines[0].startswith(path + ": ") and message in lines[0],
           f"{path}: the error is not one line naming the file and saying \"{message}\"",
           describe(result))


def truncated():
    """Cut at many places: after the nodes a partial report, before them an
    error."""
    work = fresh_dir("hostile_truncated")
    whole = hostile_snapshots.valid()
    expect_report(write(work, "whole", whole))
    end = hostile_snapshots.nodes_end(whole)
    for at in hostile_snapshots.cut_points(whole, 120):
        path = write(work, f"cut-{at}", whole[:at])
        if at > end:
            expect_report(path, "snapshot is truncated at byte")
        else:
            expect_error(path, "truncated" if "\"nodes\"" in whole[:at] else "")


def wrong_types():
    work = fresh_dir("hostile_wrong_types")
    for name, content, message in hostile_snapshots.wrong_types():
        expect_error(write(work, name, content), message)


def lying_counts():
    work = fresh_dir("hostile_lying_counts")
    for name, content in hostile_snapshots.lying_counts():
        expect_report(write(work, name, content), "the array is used" if "count" in name
                      else "edge counts add up to")


def bad_edges():
    work = fresh_dir("hostile_bad_edges")
    for name, content in hostile_snapshots.bad_edges():
        expect_report(write(work, name, content), "edges point to no node")


def cycles():
    """Every object in rings and cycles, from 10 to 200,000 of them."""
    work = fresh_dir("hostile_cycles")
    for objects in (10, 200000):
        expect_report(write(work, f"ring-{objects}", hostile_snapshots.valid(objects)))


def odd_values():
    work = fresh_dir("hostile_odd_values")
    for name, content, message in hostile_snapshots.odd_values():
        path = write(work, name, content)
        if message is None:
            expect_report(path)
        else:
            expect_error(path, message)


if __name__ == "__main__":
    sys.exit(main({"truncated": truncated, "wrong_types": wrong_types,
                   "lying_counts": lying_counts, "bad_edges": bad_edges, "cycles": cycles,
                   "odd_values": odd_values}))

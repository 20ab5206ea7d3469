#!/usr/bin/env python3
"""test_transparency.py - heap tracking must not change what a program
does: every heap test program is run bare and under `stoke record --heap`
(sampled at the default interval, report and all, as users run it) and
compared: stdout byte for byte (but the pid in "ready <pid>"), the exit
status (zero or not), and stderr but for stoke's own lines and the lines
the programs mark as run-dependent. Each profiled run must also have left
its exit snapshot, so the agent was really at work.

  transparency  all of the above

usage: test_transparency.py transparency
"""
import re
import subprocess

from e2e_support import expect, fresh_dir, main, program, record, run
from heap_support import exit_snapshot, expect_same_as_bare

HOOK_MODES = ("realloc", "aligned", "calloc", "reallocarray", "free_null", "usable_size",
              "threads", "fork")


def runs():
    """(name, argv) of every heap test program that ends by itself."""
    return [
        ("ground_truth", [program("ground_truth")]),
        ("growth", [program("growth")]),
        ("api_dump_usage", [program("api_dump")]),  # exit status 2
        ("blocker", [program("blocker"), "200"]),
        ("stress", [program("stress")]),  # no input: it stops at once
        ("oom", [program("oom"), "16"]),
        ("hooks_cpp", [program("hooks_cpp")]),
    ] + [(f"hooks_{mode}", [program("hooks"), mode]) for mode in HOOK_MODES]


def without_pid(result):
    """The run with "ready <pid>" lines made the same for every run."""
    stdout = re.sub(rb"^ready \d+$", b"ready <pid>", result.stdout, flags=re.M)
    return subprocess.CompletedProcess(result.args, result.returncode, stdout, result.stderr)


def transparency():
    work = fresh_dir("transparency")
    for name, argv in runs():
        bare = without_pid(run(argv, input=b""))
        profiled = without_pid(record(f"{work}/{name}", argv, ["--heap"], input=b""))
        expect_same_as_bare(bare, profiled, name)
        expect(exit_snapshot(f"{work}/{name}"), f"{name}: no exit snapshot")


if __name__ == "__main__":
    raise SystemExit(main({"transparency": transparency}))

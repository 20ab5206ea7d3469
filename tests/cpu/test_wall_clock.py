#!/usr/bin/env python3
"""test_wall_clock.py - a thread asleep in nanosleep/poll (sleeper's
sleepy_wait) shows in a --clock wall profile, with about as many samples
as the thread on CPU or more, and in the CPU-clock profile with no more
than the little CPU time its wake-ups cost (the program measures both
threads' CPU time); and profiling never cuts its sleeps short (the
program counts EINTR and must report none, with either clock).

The HTML report of a recording of two processes (a shell and the sleeper)
names its tabs after the clock: "Wall clock" and "Wall clock by process"
with --clock wall, "CPU" and "CPU by process" with the CPU clock.

usage: test_wall_clock.py wall_clock
"""
import os
import re
import sys

from e2e_support import (STOKE, VIEWER_TOOLS, describe, expect, fresh_dir, main, program,
                         record_ok, report_folded, run, text)

sys.path.insert(0, VIEWER_TOOLS)
from report_data import load_report  # noqa: E402

SPIN_MS = "800"
SLEEPER = "sleepy_wait"
SAMPLING_ERROR = 1.0  # percentage points: three standard errors at ~1% of ~800 samples


def record_sleeper(out, clock):
    """The folded profile, and the waiting thread's share of the two
    threads' CPU time (percent), as the program measured it."""
    result = record_ok(out, [program("sleeper"), SPIN_MS], ["--clock", clock])
    expect(text(result.stdout) == "sleeper: EINTR none\n",
           f"--clock {clock}: the sleeping thread's calls were interrupted",
           text(result.stdout))
    used = re.search(r"sleeper: CPU us: waiting (\d+) spinning (\d+)", text(result.stderr))
    expect(used, "sleeper did not say how much CPU time its threads used", text(result.stderr))
    waiting, spinning = int(used[1]), int(used[2])
    return report_folded(out)[0], 100.0 * waiting / max(waiting + spinning, 1)


def expect_tabs_named(recording, clock, words):
    record_ok(recording, ["sh", "-c", f"{program('sleeper')} 200 >/dev/null; true"],
              ["--clock", clock])
    html = os.path.join(recording, "flamegraph.html")
    names = [tab["name"] for tab in load_report(html)["tabs"]]
    expect(names == [words, words + " by process"],
           f"--clock {clock}: the tabs are named {names}, expected '{words}' and "
           f"'{words} by process'")


def wall_clock():
    work = fresh_dir("wall_clock")
    wall, _ = record_sleeper(f"{work}/wall", "wall")
    cpu, waiting_share = record_sleeper(f"{work}/cpu", "cpu")
    busy = cpu.with_frame("busy_main")
    expect(busy >= 600, f"--clock cpu: busy_main has {busy} samples, expected ~800 "
           f"for {SPIN_MS} ms of CPU", cpu.top())
    expect(cpu.share(SLEEPER) <= waiting_share + SAMPLING_ERROR,
           f"--clock cpu: {SLEEPER} has {cpu.share(SLEEPER):.1f} % of the samples, its thread "
           f"used {waiting_share:.1f} % of the CPU time", cpu.top())
    # The sleeper lives as long as busy_main spins, and a wall clock ticks
    # at least as fast as the spinner's CPU clock: as many samples or more.
    asleep, busy = wall.with_frame(SLEEPER), wall.with_frame("busy_main")
    expect(busy >= 600, f"--clock wall: busy_main has {busy} samples, expected ~800",
           wall.top())
    expect(asleep >= 0.8 * busy,
           f"--clock wall: {SLEEPER} has {asleep} samples, busy_main {busy}: the sleeping "
           "thread should have about as many", wall.top())
    expect_tabs_named(f"{work}/wall_tabs", "wall", "Wall clock")
    expect_tabs_named(f"{work}/cpu_tabs", "cpu", "CPU")


if __name__ == "__main__":
    raise SystemExit(main({"wall_clock": wall_clock}))

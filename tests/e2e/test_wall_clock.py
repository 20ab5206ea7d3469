#!/usr/bin/env python3
"""test_wall_clock.py - a thread asleep in nanosleep/poll (sleeper's
sleepy_wait) shows in a --clock wall profile, with about as many samples
as the thread on CPU or more, and not in the CPU-clock profile; and
profiling never cuts its sleeps short (the program counts EINTR and must
report none, with either clock).

usage: test_wall_clock.py wall_clock
"""
from e2e_support import expect, fresh_dir, main, program, record_ok, report_folded, text

SPIN_MS = "800"
SLEEPER = "sleepy_wait"


def record_sleeper(out, clock):
    result = record_ok(out, [program("sleeper"), SPIN_MS], ["--clock", clock])
    expect(text(result.stdout) == "sleeper: EINTR none\n",
           f"--clock {clock}: the sleeping thread's calls were interrupted",
           text(result.stdout))
    return report_folded(out)[0]


def wall_clock():
    work = fresh_dir("wall_clock")
    wall = record_sleeper(f"{work}/wall", "wall")
    cpu = record_sleeper(f"{work}/cpu", "cpu")
    busy = cpu.with_frame("busy_main")
    expect(busy >= 600, f"--clock cpu: busy_main has {busy} samples, expected ~800 "
           f"for {SPIN_MS} ms of CPU", cpu.top())
    expect(cpu.share(SLEEPER) < 1,
           f"--clock cpu: {SLEEPER} has {cpu.share(SLEEPER):.1f} % of the samples, "
           "expected none (< 1 %): it never runs", cpu.top())
    # The sleeper lives as long as busy_main spins, and a wall clock ticks
    # at least as fast as the spinner's CPU clock: as many samples or more.
    asleep, busy = wall.with_frame(SLEEPER), wall.with_frame("busy_main")
    expect(busy >= 600, f"--clock wall: busy_main has {busy} samples, expected ~800",
           wall.top())
    expect(asleep >= 0.8 * busy,
           f"--clock wall: {SLEEPER} has {asleep} samples, busy_main {busy}: the sleeping "
           "thread should have about as many", wall.top())


if __name__ == "__main__":
    raise SystemExit(main({"wall_clock": wall_clock}))

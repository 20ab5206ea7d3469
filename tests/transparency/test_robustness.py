#!/usr/bin/env python3
"""test_robustness.py - the agent under conditions that break weaker
profilers:

  sigkill        a target killed with SIGKILL (no destructor, no END record)
                 still leaves a trace that reports its hot function; stoke
                 exits 128 + 9 and says the trace was cut short
  dlopen_stress  a library loaded and unloaded in a tight loop while worker
                 threads spin, everything sampled at 10 kHz so samples land
                 inside dlopen and dlclose (with the loader's lock held):
                 five runs in a row each end cleanly, with the program's
                 exact output, and without hanging
  thread_churn   400 short threads at 20 kHz with heap tracking: a thread's
                 first sample often lands while the agent is still starting
                 its timer (the first period is random and may be a few
                 nanoseconds); three runs in a row end with the program's
                 exact output, without hanging

usage: test_robustness.py sigkill|dlopen_stress|thread_churn
"""
import os
import signal
import subprocess
import time

from e2e_support import (STOKE, TestFailure, describe, expect, fresh_dir, kill_quietly, main,
                         program, record, report_folded, run, samples_so_far, text, traces_in)

HOT = "hot_until_killed"
LIVE_WAIT_S = 20
STRESS_RUNS = 5
STRESS_CYCLES = "3000"
STRESS_WORKERS = "2"
STRESS_TIMEOUT_S = 30
CHURN_RUNS = 3
CHURN_TIMEOUT_S = 30


def target_pid(out):
    """The pid of the one process tracing into out, or None before it has."""
    traces = traces_in(out) if os.path.isdir(out) else []
    return int(traces[0].split(".")[-2]) if traces else None


def wait_until_reported(out, stoke):
    """Waits until the running target's trace reports HOT; returns the
    target's pid and the samples reported then."""
    deadline = time.monotonic() + LIVE_WAIT_S
    while time.monotonic() < deadline and stoke.poll() is None:
        pid = target_pid(out)
        samples = samples_so_far(os.path.join(out, traces_in(out)[0]), HOT) if pid else 0
        if samples:
            return pid, samples
        time.sleep(0.1)
    raise TestFailure(f"the live trace did not report {HOT} within {LIVE_WAIT_S} s")


def stop_unfinished(out, stoke):
    """After a failure: ends the target (stoke's child, so its pid is not
    reused while stoke lives), then stoke."""
    if stoke.poll() is not None:
        return
    pid = target_pid(out)
    if pid:
        kill_quietly(pid)
    stoke.kill()
    stoke.wait()


def sigkill():
    out = fresh_dir("sigkill")
    stoke = subprocess.Popen([STOKE, "record", "-o", out, "--", program("endless_hot")],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        target, samples_before_kill = wait_until_reported(out, stoke)
        os.kill(target, signal.SIGKILL)
        _, stderr = stoke.communicate(timeout=60)
    finally:
        stop_unfinished(out, stoke)
    expect(stoke.returncode == 128 + signal.SIGKILL,
           f"stoke exited {stoke.returncode}, expected {128 + signal.SIGKILL}", text(stderr))
    expect("cut short" in text(stderr), "stoke's summary does not say the trace was cut short",
           text(stderr))
    expect(os.path.exists(os.path.join(out, "flamegraph.html")),
           "stoke record wrote no flamegraph.html for the killed target", text(stderr))
    folded = report_folded(out)[0]
    samples = folded.with_frame(HOT)
    expect(samples >= samples_before_kill,
           f"the report of the killed target has {samples} samples of {HOT}, fewer than the "
           f"{samples_before_kill} its live trace reported before the kill", folded.top())
    expect(folded.share(HOT) >= 90, f"{HOT} has {folded.share(HOT):.1f} % of the samples",
           folded.top())


def repeated_runs(name, command, options, runs, timeout, output_start):
    """Records command runs times, each within timeout, each with the bare
    run's exact output; yields (attempt, folded) for the case's own checks."""
    work = fresh_dir(name)
    expected = run(command).stdout
    expect(expected.startswith(output_start), f"{name} fails without stoke", text(expected))
    for attempt in range(1, runs + 1):
        out = f"{work}/run{attempt}"
        result = record(out, command, options, timeout=timeout)
        expect(result.returncode == 0, f"run {attempt}: stoke record failed", describe(result))
        expect(result.stdout == expected, f"run {attempt}: the program's output changed",
               describe(result))
        yield attempt, report_folded(out)[0]


def dlopen_stress():
    command = [program("dl_stress"), program("libplugin.so"), STRESS_CYCLES, STRESS_WORKERS]
    for attempt, folded in repeated_runs("dlopen_stress", command, ["-F", "10000"], STRESS_RUNS,
                                         STRESS_TIMEOUT_S, b"dl_stress: "):
        expect(folded.with_frame("worker_spin") > 0,
               f"run {attempt}: the worker threads were not sampled", folded.top())
        in_loader = folded.with_frame(lambda f: f in ("dlopen", "dlclose"))
        expect(in_loader > 0, f"run {attempt}: no sample landed inside dlopen or dlclose, "
               "so the run proves nothing", folded.top())


def thread_churn():
    options = ["-F", "20000", "--heap-interval", "4096"]
    for attempt, folded in repeated_runs("thread_churn", [program("thread_churn")], options,
                                         CHURN_RUNS, CHURN_TIMEOUT_S, b"thread_churn: 400 threads"):
        expect(folded.with_frame("churn_worker") > 0,
               f"run {attempt}: the threads were not sampled", folded.top())


if __name__ == "__main__":
    raise SystemExit(main({"sigkill": sigkill, "dlopen_stress": dlopen_stress,
                           "thread_churn": thread_churn}))

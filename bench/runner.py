"""runner.py - runs one benchmark command and measures it, and interleaves
rounds of several commands so machine noise falls on all of them alike.

Owns: wall time (a monotonic clock around the child's whole life), CPU time
(user + system of the child and everything it waited for, from wait4), peak
memory (the largest resident set among them), and the rotation order of
interleaved rounds. Never interprets what a command produced: the tools and
workloads do that.
"""
import os
import subprocess
import time
from dataclasses import dataclass


class BenchError(Exception):
    """A command of the benchmark failed; the message says which and why."""


@dataclass
class Run:
    wall_s: float
    cpu_s: float
    max_rss_mb: float
    stdout: str


def run_command(argv, scratch, env_extra=None, cwd=None):
    """Runs argv to completion with stdin closed, in cwd (default: this
    process's); stdout and stderr go to files in scratch (no pipes that could
    fill and stall the timing)."""
    env = dict(os.environ, **(env_extra or {}))
    out_path = os.path.join(scratch, "last.stdout")
    err_path = os.path.join(scratch, "last.stderr")
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                cwd=cwd)
        _, status, usage = os.wait4(proc.pid, 0)
        wall_s = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
    if proc.returncode != 0:
        raise BenchError("`%s` exited with status %d: %s"
                         % (" ".join(argv), proc.returncode, last_line(err_path)))
    with open(out_path, encoding="utf-8", errors="replace") as out:
        stdout = out.read()
    return Run(wall_s, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, stdout)


def last_line(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = [line.strip() for line in f if line.strip()]
    return lines[-1] if lines else "(nothing on stderr)"


def interleave(rounds, keys, measure):
    """Calls measure(key) once per key per round, starting each round one
    key further along, so no key always runs first or right after another.
    Returns {key: [result of round 0, round 1, ...]}."""
    results = {key: [] for key in keys}
    for r in range(rounds):
        start = r % len(keys)
        for key in keys[start:] + keys[:start]:
            results[key].append(measure(key))
    return results

"""e2e_support.py - what every end-to-end test of stoke shares: where the
built pieces are (from the environment tests/CMakeLists.txt sets), a
fresh work directory per test, running stoke and its targets with a time
limit, reading folded stacks, and reporting a failed check with what stoke
said. Stdlib only. Never tests anything itself.
"""
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter

STOKE = os.environ["E2E_STOKE"]
AGENT = os.environ["E2E_AGENT"]
PROGRAMS = os.environ["E2E_PROGRAMS"]
VIEWER_TOOLS = os.environ["E2E_VIEWER_TOOLS"]
SOURCES = os.environ["E2E_SOURCES"]
WORK_ROOT = os.environ["E2E_WORK"]

RUN_TIMEOUT_S = 60
TRACE_HEADER_LEN = 16  # include/stoke_format.h: magic, versions, reserved


class TestFailure(Exception):
    pass


def expect(condition, what, details=""):
    """Fails the test with what (and details, e.g. stoke's stderr) unless
    condition holds."""
    if not condition:
        raise TestFailure(what + (f"\n--- details ---\n{details}" if details else ""))


SKIP_STATUS = 77  # the tests' ctest SKIP_RETURN_CODE


def skip(case, reason):
    """Ends the case as skipped (ctest shows it as Skipped, never as passed)
    because this machine cannot host it; reason says what is missing."""
    print(f"SKIP {case}: {reason}")
    raise SystemExit(SKIP_STATUS)


def program(name):
    return os.path.join(PROGRAMS, name)


def fresh_dir(test_name):
    """An empty directory of this test's own, under the build tree."""
    path = os.path.join(WORK_ROOT, test_name)
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def run(argv, input=None, env=None, cwd=None, timeout=RUN_TIMEOUT_S):
    """Runs argv to its end; returns the CompletedProcess, output as bytes."""
    try:
        return subprocess.run(argv, input=input, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env=env, cwd=cwd, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        raise TestFailure(f"{' '.join(argv)} did not end within {timeout} s "
                          f"(hang?)\nstderr so far:\n{text(e.stderr)}")


def run_measuring_memory(argv, timeout=RUN_TIMEOUT_S):
    """Runs argv to its end; returns (CompletedProcess, the most memory it
    held at once, its peak resident set, in MiB)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        child = subprocess.Popen(argv, stdout=out, stderr=err)
        deadline = time.monotonic() + timeout
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                kill_quietly(child.pid)
                os.wait4(child.pid, 0)
                err.seek(0)
                raise TestFailure(f"{' '.join(argv)} did not end within {timeout} s "
                                  f"(hang?)\nstderr so far:\n{text(err.read())}")
            time.sleep(0.02)
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        result = subprocess.CompletedProcess(argv, child.returncode, out.read(), err.read())
    return result, usage.ru_maxrss / 1024


def text(data):
    return (data or b"").decode("utf-8", "replace")


def describe(result):
    """What a finished run said, for a failure message."""
    return (f"command: {' '.join(map(str, result.args))}\nexit status: {result.returncode}\n"
            f"stdout:\n{text(result.stdout)}\nstderr:\n{text(result.stderr)}")


def record(out_dir, command, options=(), input=None, timeout=RUN_TIMEOUT_S):
    """stoke record -o out_dir [options] -- command."""
    return run([STOKE, "record", "-o", out_dir, *options, "--", *command],
               input=input, timeout=timeout)


def record_ok(out_dir, command, options=(), timeout=RUN_TIMEOUT_S):
    """stoke record that must succeed; returns the run."""
    result = record(out_dir, command, options, timeout=timeout)
    expect(result.returncode == 0, "stoke record failed", describe(result))
    return result


def agent_env(out_dir, hz=997, clock="cpu"):
    """The environment stoke record gives a command, for running it under
    the agent alone; creates out_dir as stoke record would."""
    os.makedirs(out_dir, exist_ok=True)
    env = dict(os.environ)
    env["LD_PRELOAD"] = AGENT + (" " + env["LD_PRELOAD"] if env.get("LD_PRELOAD") else "")
    env.update(STOKE_OUTPUT=os.path.abspath(out_dir), STOKE_HZ=str(hz), STOKE_CLOCK=clock)
    return env


def traces_in(out_dir):
    return sorted(f for f in os.listdir(out_dir) if f.endswith(".stoke"))


class Folded:
    """Folded stacks, as `stoke report --folded` writes them."""

    def __init__(self, folded_text):
        self.stacks = Counter()
        for line in folded_text.splitlines():
            names, _, count = line.rpartition(" ")
            expect(names and count.isdigit(), f"not a folded line: {line!r}")
            self.stacks[tuple(names.split(";"))] += int(count)

    def total(self, root=None):
        """Samples of every stack, or of the stacks under one root frame."""
        return sum(n for s, n in self.stacks.items() if root is None or s[0] == root)

    def with_frame(self, match, root=None):
        """Samples of the stacks that have a frame for which match(name)
        holds (or named match, when it is a string): inclusive samples."""
        if isinstance(match, str):
            name = match
            match = lambda frame: frame == name  # noqa: E731
        return sum(n for s, n in self.stacks.items()
                   if (root is None or s[0] == root) and any(match(f) for f in s))

    def share(self, match, root=None):
        """Inclusive share, in percent of the samples (under root)."""
        total = self.total(root)
        return 100.0 * self.with_frame(match, root) / total if total else 0.0

    def roots(self):
        return sorted({s[0] for s in self.stacks})

    def top(self, count=12):
        lines = [f"{n:6d} {';'.join(s)}" for s, n in self.stacks.most_common(count)]
        return "\n".join(lines)


def samples_so_far(trace, function):
    """Samples of function that a trace still being written already reports
    (0 while its first frame with samples is not complete)."""
    if not os.path.exists(trace) or os.path.getsize(trace) <= TRACE_HEADER_LEN:
        return 0
    result = run([STOKE, "report", trace, "--folded"])
    return Folded(text(result.stdout)).with_frame(function) if result.returncode == 0 else 0


def report_folded(path, options=()):
    """stoke report PATH --folded, which must succeed; returns (Folded, run)."""
    result = run([STOKE, "report", path, "--folded", *options])
    expect(result.returncode == 0, f"stoke report {path} --folded failed", describe(result))
    return Folded(text(result.stdout)), result


def main(cases):
    """Runs the case named by argv[1] from the dict cases (name -> function
    of no arguments); exits 0 when it passed, 1 with the reason when not."""
    if len(sys.argv) != 2 or sys.argv[1] not in cases:
        print(f"usage: {sys.argv[0]} {'|'.join(cases)}", file=sys.stderr)
        return 2
    try:
        cases[sys.argv[1]]()
    except TestFailure as e:
        print(f"FAIL {sys.argv[1]}: {e}")
        return 1
    print(f"ok {sys.argv[1]}")
    return 0


def free_port():
    """A TCP port of 127.0.0.1 that is free now (another program may take it
    before the caller does)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def kill_quietly(pid):
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass

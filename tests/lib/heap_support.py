"""heap_support.py - what the heap snapshot tests share, on top of
e2e_support.py: running a program under the agent with heap
tracking (by `stoke record` or the agent's environment), finding the
snapshot files it wrote, reading them back with `stoke report --folded
--measure` and `stoke diff --folded`, watching a program that is still
running, and comparing a profiled run with a bare one. Stdlib only. Never
decodes a snapshot itself and never tests anything itself.
"""
import os
import re
import select
import subprocess
import time

from e2e_support import (STOKE, Folded, TestFailure, agent_env, describe, expect,
                         kill_quietly, run, text)

MIB = 1 << 20
MEASURES = ("live-bytes", "live-objects", "alloc-bytes", "alloc-objects")
SEED = "1"  # STOKE_HEAP_SEED: sampled runs are reproducible, never flaky

# stderr lines that may differ between a bare and a profiled run: stoke's
# own, and what the programs mark as run-dependent (paths, pids).
VARIABLE_LINE_STARTS = ("stoke: ", "  ", "note: ", "dump", "written: ")


def heap_env(out_dir, interval):
    """The environment `stoke record --heap-interval interval` gives a
    command, with a fixed sampling seed."""
    env = agent_env(out_dir)
    env.update(STOKE_HEAP_INTERVAL=str(interval), STOKE_HEAP_SEED=SEED)
    return env


def seeded_env():
    """This process's environment with the sampling seed, for stoke record."""
    return dict(os.environ, STOKE_HEAP_SEED=SEED)


def record_heap(out_dir, command, options=("--heap-interval", "1")):
    """stoke record --collect-only [options] -o out_dir -- command, seeded;
    returns the run (its status is the command's)."""
    return run([STOKE, "record", "--collect-only", "-o", out_dir, *options, "--", *command],
               env=seeded_env())


# --- snapshot files ------------------------------------------------------------

SNAPSHOT_NAME = re.compile(r"^(?P<comm>.+)\.(?P<pid>\d+)\.heap\.(?P<seq>\d+)\."
                           r"(?P<time>\d{8}-\d{6})\.stoke$")


def snapshots(out_dir, pid=None):
    """The heap snapshots in out_dir (of one pid), oldest first, as
    (sequence, path) pairs."""
    found = []
    for name in os.listdir(out_dir):
        match = SNAPSHOT_NAME.match(name)
        if match and (pid is None or int(match["pid"]) == pid):
            found.append((int(match["seq"]), os.path.join(out_dir, name)))
    return sorted(found)


def exit_snapshot(out_dir, pid=None):
    """The snapshot a process wrote when it exited: its last one."""
    found = snapshots(out_dir, pid)
    expect(found, f"no heap snapshot{'' if pid is None else f' of pid {pid}'} in {out_dir}",
           " ".join(sorted(os.listdir(out_dir))))
    return found[-1][1]


def pids_with_snapshots(out_dir):
    return sorted({int(SNAPSHOT_NAME.match(n)["pid"]) for n in os.listdir(out_dir)
                   if SNAPSHOT_NAME.match(n)})


def wait_for_snapshots(out_dir, pid, count, timeout=5.0):
    """Waits until pid has at least count snapshots in out_dir."""
    deadline = time.monotonic() + timeout
    while len(snapshots(out_dir, pid)) < count:
        expect(time.monotonic() < deadline,
               f"pid {pid} has {len(snapshots(out_dir, pid))} heap snapshots after "
               f"{timeout} s, expected {count}", " ".join(sorted(os.listdir(out_dir))))
        time.sleep(0.01)


# --- reading snapshots back ------------------------------------------------------

def measure(snapshot, name="live-bytes"):
    """The snapshot's folded stacks by one measure (stoke report --folded)."""
    result = run([STOKE, "report", snapshot, "--folded", "--measure", name])
    expect(result.returncode == 0, f"stoke report {snapshot} --measure {name} failed",
           describe(result))
    return Folded(text(result.stdout))


def measures(snapshot):
    """All four measures of a snapshot: {measure name: Folded}."""
    return {name: measure(snapshot, name) for name in MEASURES}


def frame_is(name):
    """A frame matcher for a C++ function, whatever its parameters."""
    return lambda frame: frame == name or frame.startswith(name + "(")


class Diff:
    """`stoke diff A B --folded`: stack -> (count in A, count in B)."""

    def __init__(self, before, after):
        result = run([STOKE, "diff", before, after, "--folded"])
        expect(result.returncode == 0, "stoke diff --folded failed", describe(result))
        self.read(text(result.stdout))

    @classmethod
    def of_text(cls, folded):
        """The Diff of two-column folded stacks already written."""
        diff = cls.__new__(cls)
        diff.read(folded)
        return diff

    def read(self, folded):
        self.stacks = {}
        for line in folded.splitlines():
            fields = line.rsplit(" ", 2)
            expect(len(fields) == 3 and fields[1].isdigit() and fields[2].isdigit(),
                   f"not a 'stack before after' line: {line!r}", folded)
            stack = tuple(fields[0].split(";"))
            a, b = self.stacks.get(stack, (0, 0))
            self.stacks[stack] = (a + int(fields[1]), b + int(fields[2]))

    def change(self, match, outside=False):
        """The total change (after - before) of the stacks that have a frame
        for which match holds, or with outside, of those that have none."""
        return sum(b - a for s, (a, b) in self.stacks.items()
                   if any(match(f) for f in s) != outside)

    def changes(self):
        return "\n".join(f"{b - a:+12d} {';'.join(s)}" for s, (a, b) in self.stacks.items())


def expect_near(value, truth, tolerance, what, details=""):
    """value within tolerance (a fraction) of truth."""
    expect(abs(value - truth) <= tolerance * truth,
           f"{what}: {value}, expected {truth} within {tolerance:.0%} "
           f"(off by {100.0 * (value - truth) / truth:+.1f}%)", details)


def expect_exact(folded, function, truth, what):
    value = folded.with_frame(function)
    expect(value == truth, f"{what}: {value} on stacks through {function}, expected {truth}",
           folded.top(20))


# --- bare and profiled runs -------------------------------------------------------

def program_lines(stderr):
    """A run's stderr without the lines that may differ between runs."""
    return [line for line in text(stderr).splitlines()
            if not line.startswith(VARIABLE_LINE_STARTS)]


def expect_same_as_bare(bare, profiled, what):
    """Same stdout bytes and status; same stderr but for stoke's lines and
    the program's run-dependent ones."""
    details = f"bare:\n{describe(bare)}\n\nprofiled:\n{describe(profiled)}"
    expect(profiled.stdout == bare.stdout, f"{what}: stdout differs from a bare run", details)
    expect(profiled.returncode == bare.returncode,
           f"{what}: exit status {profiled.returncode}, bare {bare.returncode}", details)
    expect(program_lines(profiled.stderr) == program_lines(bare.stderr),
           f"{what}: the program's stderr differs from a bare run", details)


class Running:
    """A program started in the background whose stdout is read line by
    line while it runs; stderr goes to a file; stdin is a pipe when asked."""

    def __init__(self, argv, work_dir, env=None, stdin=False):
        self.argv = argv
        self.stderr_path = os.path.join(work_dir, "stderr")
        self.stderr_file = open(self.stderr_path, "wb")
        self.process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=self.stderr_file,
                                        stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                                        env=env)
        self.lines = []
        self.pending = b""
        self.target_pid = None  # the program's pid, when argv runs it as a child

    def stderr(self):
        with open(self.stderr_path, "rb") as f:
            return f.read()

    def say(self, line):
        self.process.stdin.write(line.encode() + b"\n")
        self.process.stdin.flush()

    def wait_line(self, pattern, timeout=10.0):
        """The match of the first new stdout line matching pattern."""
        deadline = time.monotonic() + timeout
        while True:
            while b"\n" in self.pending:
                line, self.pending = self.pending.split(b"\n", 1)
                self.lines.append(line.decode("utf-8", "replace"))
                match = re.search(pattern, self.lines[-1])
                if match:
                    return match
            left = deadline - time.monotonic()
            readable = left > 0 and select.select([self.process.stdout], [], [], left)[0]
            chunk = os.read(self.process.stdout.fileno(), 65536) if readable else b""
            if not chunk:
                self.kill()
                raise TestFailure(f"no line /{pattern}/ from {' '.join(self.argv)} within "
                                  f"{timeout} s\nstdout:\n" + "\n".join(self.lines) +
                                  f"\nstderr:\n{text(self.stderr())}")
            self.pending += chunk

    def finish(self, timeout=30.0):
        """Waits for the end; returns a CompletedProcess like run's."""
        if self.process.stdin:  # end of input: the programs that read it finish
            self.process.stdin.close()
            self.process.stdin = None
        try:
            rest, _ = self.process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise TestFailure(f"{' '.join(self.argv)} did not end within {timeout} s "
                              f"(deadlock?)\nstderr:\n{text(self.stderr())}")
        self.stderr_file.close()
        stdout = "".join(line + "\n" for line in self.lines).encode() + self.pending + rest
        return subprocess.CompletedProcess(self.argv, self.process.returncode, stdout,
                                           self.stderr())

    def kill(self):
        """Ends a run that failed: the program (when known), then argv."""
        if self.target_pid:
            kill_quietly(self.target_pid)
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()

"""transparency_support.py - what the tests of tests/transparency share on
top of tests/lib/e2e_support.py: comparing a profiled run with a bare one.
Stdlib only. Never tests anything itself.
"""
import time

from e2e_support import STOKE, TestFailure, describe, expect, record, report_folded, text


def shell_status(returncode):
    """The status stoke record (like a shell) gives for a finished child."""
    return 128 - returncode if returncode < 0 else returncode


def program_stderr(stderr):
    """stderr without stoke's lines: the agent's "stoke: ..." lines and the
    summary's indented lines that follow them."""
    kept, in_stoke = [], False
    for line in text(stderr).splitlines():
        in_stoke = line.startswith("stoke: ") or (in_stoke and line.startswith("  "))
        if not in_stoke:
            kept.append(line)
    return kept


def expect_same_as_bare(bare, profiled, what, stoke_may_fail=False):
    """Same status, stdout and program's stderr; and unless stoke_may_fail
    (a fault the test makes), no line of stoke's saying it could not do
    something."""
    details = f"bare:\n{describe(bare)}\n\nprofiled:\n{describe(profiled)}"
    expected = shell_status(bare.returncode) if profiled.args[0] == STOKE else bare.returncode
    expect(profiled.returncode == expected,
           f"{what}: exit status {profiled.returncode}, bare {bare.returncode}", details)
    expect(profiled.stdout == bare.stdout, f"{what}: stdout differs from the bare run", details)
    expect(program_stderr(profiled.stderr) == program_stderr(bare.stderr),
           f"{what}: the program's stderr differs from the bare run", details)
    if stoke_may_fail:
        return
    failures = [line for line in text(profiled.stderr).splitlines()
                if line.startswith("stoke: ") and "cannot" in line]
    expect(not failures, f"{what}: stoke could not do all its work", "\n".join(failures))



def expect_runs_as_bare(bare, work, name, command, options, runs, function, timeout):
    """command under stoke record options, runs times: each as bare, each
    trace reporting function, and none with a record the reader skips."""
    for attempt in range(1, runs + 1):
        out = f"{work}/{name}{attempt}"
        what = f"run {attempt} of {' '.join(command)} under stoke record {' '.join(options)}"
        profiled = record(out, command, options, timeout=timeout)
        expect_same_as_bare(bare, profiled, what)
        folded, report = report_folded(out)
        expect(folded.with_frame(function) > 0, f"{what}: {function} is not reported",
               folded.top())
        expect("damaged" not in text(report.stderr),
               f"{what}: the agent wrote records its own reader skips", text(report.stderr))


def target_of(stoke):
    """The pid of stoke's child (the program), once it exists; stoke is a
    Popen of stoke record."""
    deadline = time.monotonic() + 10
    path = f"/proc/{stoke.pid}/task/{stoke.pid}/children"
    while time.monotonic() < deadline:
        with open(path) as f:
            children = f.read().split()
        if children:
            return int(children[0])
        time.sleep(0.001)
    raise TestFailure("stoke started no program within 10 s")


# Every way of recording a program: the CPU clock, heap tracking sampled and
# exact, the wall clock, and a high rate (where crashes under signals show).
RECORDING_MODES = (("cpu", ()), ("heap", ("--heap",)), ("exact", ("--heap-interval", "1")),
                   ("wall", ("--clock", "wall")), ("fast", ("-F", "20000")))

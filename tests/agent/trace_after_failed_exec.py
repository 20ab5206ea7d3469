#!/usr/bin/env python3
"""trace_after_failed_exec.py - a process that goes on after a failed exec
leaves two traces, and the second names every stack it samples, also the
ones the first trace named already (each trace is read on its own).

usage: trace_after_failed_exec.py STOKE PROGRAM WORK_DIR
"""
import os
import shutil
import subprocess
import sys


def main():
    stoke, program, out = sys.argv[1:4]
    shutil.rmtree(out, ignore_errors=True)
    run = subprocess.run([stoke, "record", "--collect-only", "-o", out, "--", program],
                         capture_output=True, text=True, timeout=60)
    traces = sorted(name for name in os.listdir(out) if name.endswith(".stoke"))
    failures = [] if run.returncode == 0 and run.stdout == "done\n" else [
        f"the program ended with {run.returncode}, printed {run.stdout!r}"]
    if len(traces) != 2:
        failures.append(f"{len(traces)} traces, not 2: {traces}")
    for name in traces:
        folded = subprocess.run([stoke, "report", "--format", "folded", os.path.join(out, name)],
                                capture_output=True, text=True, timeout=60).stdout
        print(f"{name}:\n{folded}")
        if "[unknown stack]" in folded or ";spin " not in folded:
            failures.append(f"{name} does not name every stack it samples")
    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

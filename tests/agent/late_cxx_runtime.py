#!/usr/bin/env python3
"""late_cxx_runtime.py - a C program that loads a C++ library after it
started, with RTLD_LOCAL and with RTLD_GLOBAL, behaves under heap tracking
(stoke record --heap-interval 1) as without stoke: the agent looks the C++
operators up as it starts, when there are none yet, and serves the
library's new and delete without looking anything up later.

usage: late_cxx_runtime.py STOKE PROGRAM LIBRARY WORK_DIR
"""
import os
import shutil
import subprocess
import sys


def run(argv):
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    return done.returncode, done.stdout


def main():
    stoke, program, library, work = sys.argv[1:5]
    failures = 0
    for scope in ("local", "global"):
        argv = [program, library, scope]
        out = os.path.join(work, scope)
        shutil.rmtree(out, ignore_errors=True)
        bare = run(argv)
        profiled = run([stoke, "record", "--collect-only", "-o", out, "--heap-interval", "1",
                        "--", *argv])
        traces = [name for name in os.listdir(out) if name.endswith(".stoke")] \
            if os.path.isdir(out) else []
        ok = bare[0] == 0 and profiled == bare and traces
        print(f"{'ok' if ok else 'FAIL'} {scope}: bare {bare}, under stoke {profiled}, "
              f"{len(traces)} trace files")
        failures += not ok
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

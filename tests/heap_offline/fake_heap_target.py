#!/usr/bin/env python3
"""fake_heap_target.py - stands in for a program running under stoke's agent
with heap tracking, so `stoke heap` is tested without the agent: it maps a
file named libstoke.so (what `stoke heap` looks for in /proc/PID/maps) and,
on the dump signal its environment names (STOKE_HEAP_SIGNAL, default 12),
puts a copy of SNAPSHOT into STOKE_OUTPUT under the agent's file name
fake.<pid>.heap.<seq>.<time>.stoke (written under another name, then
renamed, so it appears whole).

usage: fake_heap_target.py DIR SNAPSHOT [ignore]
DIR receives the libstoke.so it maps; "ignore" ignores the signal instead.
Prints "ready" once the signal is handled, then waits until it is killed.
Never: used by stoke itself; it is a test tool.
"""
import mmap
import os
import shutil
import signal
import sys
import time


def main():
    directory, snapshot = sys.argv[1], sys.argv[2]
    ignore = len(sys.argv) > 3 and sys.argv[3] == "ignore"
    agent_path = os.path.join(directory, "libstoke.so")
    with open(agent_path, "wb") as f:
        f.write(b"\0" * 4096)
    agent = open(agent_path, "rb")
    mapping = mmap.mmap(agent.fileno(), 4096, prot=mmap.PROT_READ)
    output = os.environ.get("STOKE_OUTPUT", directory)
    signo = int(os.environ.get("STOKE_HEAP_SIGNAL", "12") or "12")
    sequence = [0]

    def dump(signum, frame):
        sequence[0] += 1
        name = "fake.%d.heap.%d.20240101-000000.stoke" % (os.getpid(), sequence[0])
        partial = os.path.join(output, ".writing")
        shutil.copyfile(snapshot, partial)
        os.rename(partial, os.path.join(output, name))

    if 0 < signo < signal.NSIG:
        signal.signal(signo, signal.SIG_IGN if ignore else dump)
    print("ready", flush=True)
    while mapping:
        time.sleep(1)


if __name__ == "__main__":
    main()

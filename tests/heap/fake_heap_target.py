#!/usr/bin/env python3
"""fake_heap_target.py - stands in for a program running under stoke's agent
with heap tracking, so `stoke heap` is tested without the agent: it maps a
file named libstoke.so (what `stoke heap` looks for in /proc/PID/maps),
keeps its trace open as the agent does (fake.<pid>.stoke in STOKE_OUTPUT,
or DIR) and has a thread named as the agent's writer, among whose
descriptors `stoke heap` looks for it, and on signal SIGNAL puts a copy of SNAPSHOT beside it under the
agent's file name fake.<pid>.heap.<seq>.<time>.stoke (written under
another name, then renamed, so it appears whole).

usage: fake_heap_target.py DIR SNAPSHOT handle|ignore SIGNAL none|TRACE_COMMAND...
TRACE_COMMAND writes the trace (make_trace process ...), its words {path}
and {pid} replaced by the trace's path and this process's pid; none: no
trace open. DIR receives the libstoke.so it maps; "ignore" ignores the
signal instead of handling it. Prints "ready" once the signal is handled,
then waits until it is killed.
Never: used by stoke itself; it is a test tool.
"""
import mmap
import os
import shutil
import signal
import subprocess
import sys
import threading
import time


def open_trace(output, command):
    """Writes the trace with command and keeps it open; None for none."""
    if command == ["none"]:
        return None
    path = os.path.join(output, "fake.%d.stoke" % os.getpid())
    words = {"{path}": path, "{pid}": str(os.getpid())}
    subprocess.run([words.get(word, word) for word in command], check=True)
    return open(path, "rb")


def writer_named(named):
    """A thread named as the agent's writer (its descriptors are the
    process's: Python's threads share one table); sets named once it is."""
    with open("/proc/self/task/%d/comm" % threading.get_native_id(), "w") as comm:
        comm.write("stoke-writer")
    named.set()
    while True:
        time.sleep(1)


def main():
    directory, snapshot, mode, signo = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    agent_path = os.path.join(directory, "libstoke.so")
    with open(agent_path, "wb") as f:
        f.write(b"\0" * 4096)
    agent = open(agent_path, "rb")
    mapping = mmap.mmap(agent.fileno(), 4096, prot=mmap.PROT_READ)  # noqa: F841 (kept)
    output = os.environ.get("STOKE_OUTPUT", directory)
    trace = open_trace(output, sys.argv[5:])  # noqa: F841 (kept open)
    sequence = [0]

    def dump(signum, frame):
        sequence[0] += 1
        name = "fake.%d.heap.%d.20240101-000000.stoke" % (os.getpid(), sequence[0])
        partial = os.path.join(output, ".writing")
        shutil.copyfile(snapshot, partial)
        os.rename(partial, os.path.join(output, name))

    if 0 < signo < signal.NSIG:
        signal.signal(signo, signal.SIG_IGN if mode == "ignore" else dump)
    named = threading.Event()
    threading.Thread(target=writer_named, args=(named,), daemon=True).start()
    named.wait()
    print("ready", flush=True)
    while True:  # the mapping and the trace stay open until the process is killed
        time.sleep(1)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""test_command.py - `stoke heap PID` against real processes, which it asks
through the trace they have open (the PROCESS record holds the heap
settings), not through their environment:

  title_process  title overwrites its environment strings in place for its
                 process title, as setproctitle does (/proc/PID/environ no
                 longer holds stoke's variables): stoke heap prints the new
                 snapshot's path, and the snapshot holds title's 1 MiB
                 (hold_title)
  redis          redis-server (it sets its process title the same way)
                 recorded with --heap on 127.0.0.1: stoke heap prints the
                 snapshot's path; the snapshot holds redis's allocations
                 (zmalloc)
  zombie         a recorded process that exited and that its parent has not
                 reaped: stoke heap says so (exit 1), and that it can take
                 no snapshot

usage: test_command.py title_process|redis|zombie
"""
import os
import re
import shutil
import signal
import time

from e2e_support import (STOKE, TestFailure, describe, expect, free_port, fresh_dir, kill_quietly,
                         main, program, run, skip, text)
from heap_support import Running, measure, seeded_env, snapshots

REDIS_ATTEMPTS = 3
ZOMBIE_WAIT_S = 10


def record_in_background(work, out, command, stdin=False):
    return Running([STOKE, "record", "--collect-only", "--heap-interval", "1", "-o", out, "--",
                    *command], work, env=seeded_env(), stdin=stdin)


def expect_environment_hidden(pid):
    with open(f"/proc/{pid}/environ", "rb") as f:
        environ = f.read()
    expect(b"STOKE_OUTPUT=" not in environ,
           f"process {pid} still shows stoke's variables in its environment: the test does "
           "not cover what it should")


def snapshot_by_stoke_heap(pid, out):
    result = run([STOKE, "heap", str(pid)])
    printed = text(result.stdout).strip()
    expect(result.returncode == 0 and printed in [p for _, p in snapshots(out, pid)],
           f"stoke heap {pid} did not print its new snapshot", describe(result))
    return printed


def title_process():
    work = fresh_dir("title_process")
    out = os.path.join(work, "out")
    title = record_in_background(work, out, [program("title")], stdin=True)
    pid = title.target_pid = int(title.wait_line(r"^ready (\d+)$")[1])
    expect_environment_hidden(pid)
    live = measure(snapshot_by_stoke_heap(pid, out))
    held = live.with_frame("hold_title")
    expect(held == 1 << 20, f"the snapshot holds {held} bytes through hold_title, expected "
           "1 MiB", live.top())
    result = title.finish()
    expect(result.returncode == 0, "title did not end well", describe(result))


def start_redis(work, out, server):
    """redis-server under stoke record, on a free port of 127.0.0.1."""
    for attempt in range(REDIS_ATTEMPTS):
        redis = record_in_background(work, out, [server, "--port", str(free_port()), "--bind",
                                                 "127.0.0.1", "--save", "", "--appendonly", "no"])
        try:
            ready = redis.wait_line(r"^(\d+):M .*Ready to accept connections")
            redis.target_pid = int(ready[1])
            return redis
        except TestFailure:  # the port was taken meanwhile: redis ended
            if attempt + 1 == REDIS_ATTEMPTS:
                raise
    return None


def redis():
    server = shutil.which("redis-server")
    if not server:
        skip("redis", "redis-server is not installed (scripts/setup.sh installs it)")
    work = fresh_dir("redis")
    out = os.path.join(work, "out")
    redis = start_redis(work, out, server)
    pid = redis.target_pid
    try:
        expect_environment_hidden(pid)
        live = measure(snapshot_by_stoke_heap(pid, out))
        expect(live.with_frame("zmalloc") > 0, "the snapshot holds nothing redis allocated "
               "through zmalloc", live.top())
    finally:
        os.kill(pid, signal.SIGTERM)
    result = redis.finish()
    expect(result.returncode == 0, "redis-server did not end well", describe(result))


def state_of(pid):
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rpartition(")")[2].split()[0]


def zombie():
    work = fresh_dir("zombie")
    out = os.path.join(work, "out")
    # sh's background child exits at once; sleep, which sh becomes, never reaps it.
    parent = record_in_background(work, out, ["sh", "-c", "true & echo $! $$; exec sleep 30"])
    child, parent.target_pid = map(int, parent.wait_line(r"^(\d+) (\d+)$").groups())
    try:
        deadline = time.monotonic() + ZOMBIE_WAIT_S
        while state_of(child) != "Z":
            expect(time.monotonic() < deadline, f"process {child} did not become a zombie")
            time.sleep(0.01)
        result = run([STOKE, "heap", str(child)])
        lines = text(result.stderr).splitlines()
        expect(result.returncode == 1 and len(lines) == 1 and
               re.search(rf"process {child} has exited: it is a zombie waiting for its parent "
                         rf"\(process {parent.target_pid}\).*no snapshot", lines[0]),
               "stoke heap on a zombie does not say it exited", describe(result))
    finally:
        kill_quietly(parent.target_pid)
    parent.finish()


if __name__ == "__main__":
    raise SystemExit(main({"title_process": title_process, "redis": redis, "zombie": zombie}))

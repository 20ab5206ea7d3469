#!/usr/bin/env python3
"""test_bad_input.py - heap snapshots when things go wrong: a clear message,
the program unharmed, nothing lost.

  dump_path_errors  stoke_heap_dump to a path in a missing directory and to
                    an existing directory: NULL with errno, one "stoke: "
                    line naming the path, no file left behind; the program
                    goes on and its next dumps (agent's name, a good path)
                    work
  queued_dumps      4 threads call stoke_heap_dump 5 times each at once,
                    while SIGUSR2 arrives too: every call returns its own
                    snapshot, all of them there (queued, not lost)
  heap_command      `stoke heap` against processes running the real agent:
                    with --heap it prints the snapshot; without heap
                    tracking, or with --heap-signal none, exit 1 and a
                    one-line reason
  oom               oom lowers its address space limit, allocates until
                    malloc fails, frees every other block and fills the
                    holes with 16-byte blocks: under exact tracking the
                    failures are the program's (ENOMEM from malloc, calloc,
                    realloc), its output and status are a bare run's, the
                    agent's tables cannot grow: what it could not track is
                    counted and the report says so, what it tracked stays
                    exact (leak_before_limit 1 MiB, the freed blocks 0)
  own_malloc        a program that exports a malloc of its own (which comes
                    before the agent's): its output is a bare run's, and
                    stoke says once, and the snapshot's report says, that no
                    allocation reaches the hooks (not an empty heap as if
                    that were the truth)
  short_processes   a shell loop of 40 short processes under --heap: one
                    exit snapshot each, no line of the agent's per process

usage: test_bad_input.py CASE
"""
import os
import signal
import time

from e2e_support import STOKE, describe, expect, fresh_dir, main, program, run, text
from heap_support import (MIB, Running, exit_snapshot, expect_exact,
                          expect_same_as_bare, measure, record_heap, snapshots)


def dump_path_errors():
    out = fresh_dir("dump_path_errors")
    heap_out, missing, directory = f"{out}/heap", f"{out}/missing/x.stoke", f"{out}/a_directory"
    good = f"{out}/good.stoke"
    os.makedirs(directory)
    result = record_heap(heap_out, [program("api_dump"), missing, directory, "-", good])
    lines = text(result.stdout).splitlines()
    expect(result.returncode == 0 and len(lines) == 4, "api_dump did not run to its end",
           describe(result))
    expect(lines[0] == f"dump {missing}: NULL errno=ENOENT",
           "a dump into a missing directory: expected NULL with ENOENT", describe(result))
    expect(lines[1].startswith(f"dump {directory}: NULL errno="),
           "a dump onto a directory: expected NULL with errno", describe(result))
    expect(lines[2].startswith("dump -: /") and lines[3] == f"dump {good}: {good}",
           "the dumps after the failed ones did not work", describe(result))
    for path in (missing, directory):
        said = [line for line in text(result.stderr).splitlines() if path in line]
        expect(len(said) == 1 and said[0].startswith("stoke: "),
               f"expected one 'stoke: ' line naming {path}", describe(result))
    expect(os.listdir(directory) == [] and sorted(os.listdir(out)) ==
           ["a_directory", "good.stoke", "heap"],
           "files left behind by the failed dumps", " ".join(sorted(os.listdir(out))))
    expect_exact(measure(good), "hold_api", MIB, "hold_api in the snapshot after the failures")


def queued_dumps():
    work = fresh_dir("queued_dumps")
    out = f"{work}/out"
    argv = [STOKE, "record", "--collect-only", "--heap", "-o", out, "--",
            program("api_dump"), "queue", "4", "5"]
    queue = Running(argv, work)
    deadline = time.monotonic() + 10
    while not os.path.isdir(out) or not snapshots(out):  # the dumps have begun
        expect(time.monotonic() < deadline and queue.process.poll() is None,
               "api_dump wrote no snapshot", text(queue.stderr()))
        time.sleep(0.002)
    pid = int(os.path.basename(snapshots(out)[0][1]).split(".")[1])
    for _ in range(3):
        os.kill(pid, signal.SIGUSR2)
        time.sleep(0.002)
    result = queue.finish()
    expect(result.returncode == 0 and
           text(result.stdout) == "queue: 20 written, 0 failed, 20 distinct paths\n",
           "concurrent stoke_heap_dump calls did not all get their own snapshot",
           describe(result))
    returned = [line.split(": ", 1)[1] for line in text(result.stderr).splitlines()
                if line.startswith("written: ")]
    missing = [p for p in returned if not os.path.isfile(p)]
    expect(len(returned) == 20 and not missing, f"returned paths not there: {missing}",
           describe(result))
    expect(len(snapshots(out, pid)) >= 21, "expected 20 API snapshots, the signals' and exit's",
           " ".join(sorted(os.listdir(out))))


def stoke_heap_refused(pid, reason, what):
    result = run([STOKE, "heap", "--timeout", "3", str(pid)])
    lines = text(result.stderr).splitlines()
    expect(result.returncode == 1 and len(lines) == 1 and reason in lines[0]
           and str(pid) in lines[0], f"{what}: expected exit 1 and one line with '{reason}'",
           describe(result))


def with_waiting_program(work, options, check):
    """Runs own_handler (it waits for its input) under stoke record with
    options, calls check(pid), then lets it end."""
    out = f"{work}/out{len(os.listdir(work))}"
    argv = [STOKE, "record", "--collect-only", "-o", out, *options, "--", program("own_handler")]
    waiting = Running(argv, work, env=dict(os.environ, SIGUSR2_COUNTER_AT_LOAD="0"),
                      stdin=True)
    waiting.target_pid = int(waiting.wait_line(r"^ready (\d+)$")[1])
    check(waiting.target_pid, out)
    result = waiting.finish()
    expect(result.returncode == 0, "own_handler did not end well", describe(result))


def heap_command():
    work = fresh_dir("heap_command")
    with_waiting_program(work, [], lambda pid, out: stoke_heap_refused(
        pid, "without heap tracking", "stoke heap on a process recorded without --heap"))
    with_waiting_program(work, ["--heap-signal", "none"], lambda pid, out: stoke_heap_refused(
        pid, "stoke_heap_dump()", "stoke heap on a process recorded with --heap-signal none"))

    def dump_on_usr1(pid, out):
        result = run([STOKE, "heap", str(pid)])
        printed = text(result.stdout).strip()
        expect(result.returncode == 0 and snapshots(out, pid) and
               printed == snapshots(out, pid)[0][1],
               "stoke heap on a process recorded with --heap-signal USR1 did not print its "
               "snapshot", describe(result))
    with_waiting_program(work, ["--heap", "--heap-signal", "USR1"], dump_on_usr1)


def oom():
    out = fresh_dir("oom")
    argv = [program("oom"), "16"]
    profiled = record_heap(out, argv)
    expect_same_as_bare(run(argv), profiled, "oom")
    snapshot = exit_snapshot(out)
    live, objects = measure(snapshot), measure(snapshot, "live-objects")
    expect_exact(live, "leak_before_limit", MIB, "leak_before_limit live bytes")
    expect_exact(objects, "leak_before_limit", 256, "leak_before_limit live objects")
    for freed in ("fill_to_limit", "fill_holes"):
        expect_exact(live, freed, 0, f"{freed} live bytes (all freed)")
    reported = run([STOKE, "report", snapshot, "-o", f"{out}/heap.html"])
    expect(reported.returncode == 0 and "untracked (stoke's tables were full)" in
           text(reported.stderr),
           "the report does not say that allocations went untracked", describe(reported))


OWN_MALLOC_NOTE = "the program uses its own malloc"


def own_malloc():
    out = fresh_dir("own_malloc")
    argv = [program("own_malloc")]
    profiled = record_heap(out, argv)
    expect_same_as_bare(run(argv), profiled, "own_malloc")
    said = text(profiled.stderr).count(f"stoke: {OWN_MALLOC_NOTE}")
    expect(said == 1, f"stoke said {said} times that the program has its own malloc",
           describe(profiled))
    reported = run([STOKE, "report", exit_snapshot(out), "-o", f"{out}/heap.html"])
    expect(reported.returncode == 0 and OWN_MALLOC_NOTE in text(reported.stderr),
           "the snapshot's report does not say the program has its own malloc",
           describe(reported))


SHORT_PROCESSES = 40


def short_processes():
    out = fresh_dir("short_processes")
    loop = f"i=0; while [ $i -lt {SHORT_PROCESSES} ]; do /bin/true; i=$((i + 1)); done"
    profiled = record_heap(out, ["sh", "-c", loop])
    expect(profiled.returncode == 0, "the loop failed under --heap", describe(profiled))
    agent_lines = [line for line in text(profiled.stderr).splitlines()
                   if line.startswith("stoke: heap snapshot written")]
    expect(not agent_lines, f"{len(agent_lines)} lines of the agent's for exit snapshots",
           "\n".join(agent_lines[:5]))
    exits = [path for _, path in snapshots(out) if os.path.basename(path).startswith("true.")]
    expect(len(exits) == SHORT_PROCESSES,
           f"{len(exits)} exit snapshots of true for {SHORT_PROCESSES} processes",
           " ".join(sorted(os.listdir(out))[:20]))


if __name__ == "__main__":
    raise SystemExit(main({"dump_path_errors": dump_path_errors,
                           "queued_dumps": queued_dumps, "heap_command": heap_command,
                           "oom": oom, "own_malloc": own_malloc,
                           "short_processes": short_processes}))

#!/usr/bin/env python3
"""test_node_heap.py - the JavaScript heap of a node server, beside its
native heap: an express app (programs/leak_server.js, express from npm)
keeps 20,000 Leak objects, each holding a 1,024-character string, when
asked; the truth is known by construction (20,000 x 1,024 bytes of
strings, plus the objects) and read from node's own snapshot files by an
independent reader (programs/leak_count.js, JSON.parse).

  node_heap_diff          two `stoke heap PID` snapshots around the leak:
                          each prints its native and JavaScript paths and
                          how long node paused; the server serves after
                          each; `stoke diff A B` ranks Leak first and its
                          growth is the truth within 10%, in the terminal
                          summary and in --folded; `stoke top` of the later
                          JavaScript snapshot lists 20,000 Leak objects; the
                          report has a native and a JS heap tab per snapshot
  node_heap_load          the same in one command: stoke record --heap -P
                          with a load that asks for the leak: the summary
                          says what grew during the load, Leak first, and
                          the report opens with "grew during the load" tabs
  node_heap_signal_taken  the server handles SIGUSR2 itself (as heapdump
                          does): stoke says which signal it moved to, stoke
                          heap takes both snapshots on it, and the
                          program's SIGUSR2 reaches the program only

usage: test_node_heap.py CASE
"""
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request

from e2e_support import (STOKE, VIEWER_TOOLS, TestFailure, describe, expect, fresh_dir, main,
                         run, text)

sys.path.insert(0, VIEWER_TOOLS)
from report_data import load_report  # noqa: E402

NODE = os.environ.get("E2E_NODE", "")
EXAMPLE = os.environ["E2E_NODE_EXAMPLE"]
SOURCES = os.environ["E2E_SOURCES"]
SERVER = os.path.join(SOURCES, "leak_server.js")
COUNTER = os.path.join(SOURCES, "leak_count.js")
LEAKED = 20000
STRING_BYTES = 1024
TRUTH = LEAKED * STRING_BYTES  # the strings alone; the objects add a little
TOLERANCE = 0.10
TIMEOUT_S = 90
GROWTH_ROW = re.compile(r"^\s+(\S+ \S+)\s+(\S+ \S+)\s+([+-]\d+)\s+(\d+)\s+(.*)$")


def needs_node():
    expect(os.access(NODE, os.X_OK) and os.path.isdir(os.path.join(EXAMPLE, "node_modules")),
           "needs node and the example's npm packages; run scripts/setup.sh")


def server_env(**extra):
    return dict(os.environ, NODE_PATH=os.path.join(EXAMPLE, "node_modules"), **extra)


class Server:
    """leak_server.js under `stoke record --heap`, in the background."""

    def __init__(self, work, env):
        self.out = os.path.join(work, "out")
        self.stderr_path = os.path.join(work, "stoke.stderr")
        with open(self.stderr_path, "wb") as err:
            self.stoke = subprocess.Popen(
                [STOKE, "record", "--heap", "-o", self.out, "--", NODE, SERVER],
                stdout=subprocess.PIPE, stderr=err, env=env, cwd=work)
        line = self.stoke.stdout.readline().decode()
        found = re.match(r"listening (\d+) (\d+)", line)
        if not found:
            self.stop()
            raise TestFailure(f"the server did not listen: {line!r}\n{self.stderr()}")
        self.port, self.pid = int(found[1]), int(found[2])

    def get(self, path):
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=30) as r:
            return r.read().decode()

    def stderr(self):
        with open(self.stderr_path, "rb") as f:
            return text(f.read())

    def stop(self):
        if self.stoke.poll() is None:
            try:
                os.kill(getattr(self, "pid", self.stoke.pid), signal.SIGINT)
            except ProcessLookupError:
                pass
            try:
                self.stoke.wait(timeout=TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.stoke.kill()
                self.stoke.wait()
        self.stoke.stdout.close()


def take_snapshot(server):
    """stoke heap PID: (native path, JavaScript path); the server serves after it."""
    result = run([STOKE, "heap", str(server.pid)], timeout=TIMEOUT_S)
    out = text(result.stdout) + text(result.stderr)
    native = re.search(r"(\S+\.heap\.\d+\.\S+\.stoke)", out)
    js = re.search(r"(\S+\.heapsnapshot)", out)
    expect(result.returncode == 0 and native and js,
           "stoke heap did not print a native and a JavaScript snapshot", describe(result))
    expect(re.search(r"paused.*\d+ ms", out), "stoke heap did not say how long node paused",
           describe(result))
    expect(server.get("/") == "ok", "the server stopped serving after a snapshot")
    return native[1], js[1]


def truth_of(js_snapshot):
    """(Leak objects, bytes of them and their strings) as read by leak_count.js."""
    result = run([NODE, COUNTER, js_snapshot], timeout=TIMEOUT_S)
    expect(result.returncode == 0, "leak_count.js failed", describe(result))
    count, nbytes = text(result.stdout).split()
    return int(count), int(nbytes)


def growth_rows(stderr):
    """The rows of the JavaScript growth table: [(constructor, objects change)]."""
    lines = stderr.splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith("  JavaScript heap, by "
                                                                  "constructor")), None)
    expect(start is not None, "no JavaScript growth table in the summary", stderr)
    rows = []
    for line in lines[start + 2:]:
        found = GROWTH_ROW.match(line)
        if not found:
            break
        rows.append((found[5], int(found[3])))
    return rows


def folded_leak_growth(lines):
    """Bytes added on the JavaScript heap's dominator paths through Leak,
    from "stack before after" lines."""
    grown = 0
    for line in lines.splitlines():
        stack, before, after = line.rsplit(" ", 2)
        frames = stack.split(";")
        if frames[0] == "JS heap" and "Leak" in frames:
            grown += int(after) - int(before)
    return grown


def expect_near_truth(value, truth, what):
    expect(truth <= value <= truth * (1 + TOLERANCE),
           f"{what}: {value} bytes, the truth is {truth} (strings) to "
           f"{int(truth * (1 + TOLERANCE))}")


def tab_names(report):
    return [tab["name"] for tab in load_report(report)["tabs"]]


def node_heap_diff():
    needs_node()
    work = fresh_dir("node_heap_diff")
    server = Server(work, server_env())
    try:
        before = take_snapshot(server)
        expect(server.get("/leak") == str(LEAKED), "the server did not keep the Leak objects")
        after = take_snapshot(server)
    finally:
        server.stop()
    count_before, bytes_before = truth_of(before[1])
    count_after, bytes_after = truth_of(after[1])
    expect(count_after - count_before == LEAKED,
           f"node's own snapshots hold {count_after - count_before} more Leak objects")
    expect_near_truth(bytes_after - bytes_before, TRUTH, "node's own snapshots (leak_count.js)")

    diff = run([STOKE, "diff", before[0], after[0], "-o", os.path.join(work, "diff.html")],
               timeout=TIMEOUT_S)
    expect(diff.returncode == 0, "stoke diff failed", describe(diff))
    rows = growth_rows(text(diff.stderr))
    expect(rows and rows[0] == ("Leak", LEAKED), "the summary does not rank Leak first with "
           f"{LEAKED} more objects", text(diff.stderr))
    expect("diff of native heap live bytes" in tab_names(os.path.join(work, "diff.html")) and
           "diff of JavaScript heap bytes" in tab_names(os.path.join(work, "diff.html")),
           "the differential report lacks its native or JavaScript half",
           " ".join(tab_names(os.path.join(work, "diff.html"))))
    folded = run([STOKE, "diff", before[0], after[0], "--folded"], timeout=TIMEOUT_S)
    js_lines = "\n".join(l for l in text(folded.stdout).splitlines() if l.startswith("JS heap;"))
    grown = folded_leak_growth(js_lines)
    expect_near_truth(grown, TRUTH, "Leak's growth in stoke diff --folded")
    expect(abs(grown - (bytes_after - bytes_before)) <= TOLERANCE * TRUTH,
           f"stoke says Leak grew {grown} bytes, node's own snapshots "
           f"{bytes_after - bytes_before}")

    top = run([STOKE, "top", after[1]], timeout=TIMEOUT_S)
    expect(re.search(rf"^\s+\S+ \S+\s+\S+ \S+\s+{count_after}\s+Leak$", text(top.stdout), re.M),
           f"stoke top does not list {count_after} Leak objects", describe(top))
    report = run([STOKE, "report", server.out], timeout=TIMEOUT_S)
    names = tab_names(os.path.join(server.out, "flamegraph.html"))
    expect(report.returncode == 0 and "native heap 1 (signal)" in names and
           "JS heap 2 (signal)" in names,
           "the report lacks a native or a JS heap tab per snapshot", " ".join(names))


LOAD = (f"{sys.executable} -c \"import urllib.request; "
        "print(urllib.request.urlopen('http://127.0.0.1:$PORT/leak').read())\"")


def node_heap_load():
    needs_node()
    work = fresh_dir("node_heap_load")
    out = os.path.join(work, "out")
    result = run([STOKE, "record", "--heap", "-o", out, "-P", LOAD, "--", NODE, SERVER],
                 env=server_env(), cwd=work, timeout=TIMEOUT_S)
    stderr = text(result.stderr)
    expect(result.returncode == 0, f"stoke record exited {result.returncode}", describe(result))
    expect(len(re.findall(r"heap snapshot as the load (starts|ends): \S+\.stoke and "
                          r"\S+\.heapsnapshot", stderr)) == 2,
           "no native and JavaScript snapshots as the load started and ended", stderr)
    expect("stoke: during the load:" in stderr, "the summary does not say what grew during "
           "the load", stderr)
    rows = growth_rows(stderr[stderr.index("stoke: during the load:"):])
    expect(rows and rows[0] == ("Leak", LEAKED), "what grew during the load does not rank "
           f"Leak first with {LEAKED} more objects", stderr)
    names = tab_names(os.path.join(out, "flamegraph.html"))
    expect("native heap: grew during the load" in names and
           "JS heap: grew during the load" in names,
           "the report lacks the tabs of what grew during the load", " ".join(names))


def node_heap_signal_taken():
    needs_node()
    work = fresh_dir("node_heap_signal_taken")
    server = Server(work, server_env(TAKE_USR2="1"))
    try:
        take_snapshot(server)
        expect(server.get("/usr2") == "0", "stoke's snapshot reached the program's SIGUSR2 "
               "handler")
        os.kill(server.pid, signal.SIGUSR2)
        deadline = time.monotonic() + 10
        while server.get("/usr2") != "1" and time.monotonic() < deadline:
            time.sleep(0.05)
        expect(server.get("/usr2") == "1", "the program's own SIGUSR2 did not reach it")
    finally:
        server.stop()
    expect(re.search(r"the program set its own action for SIGUSR2 .*heap snapshots are taken "
                     r"on signal \d+", server.stderr()),
           "stoke did not say which signal its snapshots moved to", server.stderr())


if __name__ == "__main__":
    raise SystemExit(main({"node_heap_diff": node_heap_diff, "node_heap_load": node_heap_load,
                           "node_heap_signal_taken": node_heap_signal_taken}))

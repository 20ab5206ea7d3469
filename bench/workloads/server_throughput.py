"""server_throughput.py - figure 9: requests per second of the example HTTP
server (examples/http_server.c, its CPU-heavy / route) under wrk, bare and
under each profiler at 997 Hz, in the same interleaved rounds.

Each run starts the server through the tool (`stoke record`, `perf record
-g`, or nothing) in a session of its own, pinned to CPU 0, waits until it
accepts connections, runs wrk pinned to CPU 1 for a few seconds, then sends
SIGINT to the session (the server stops through its handler, perf and stoke
finish their output) and reads wrk's Requests/sec.

Owns: that comparison and its target (stoke within 3% of bare throughput).
Never judges CPU-time overhead: cpu_overhead.py does.
"""
import os
import re
import shutil
import signal
import socket
import subprocess
import time

import stats
from runner import BenchError, interleave
from table import Table

NAME = "server_throughput"
SUMMARY = "requests/s of examples/http_server under wrk, bare and under each profiler"
DEFAULT_ROUNDS = 5
HZ = 997
TARGET_RATIO = 0.97
TOOLS = ["bare", "stoke", "perf"]
WRK_SECONDS = 3
READY_TIMEOUT_S = 10
REQUESTS_PER_S = re.compile(r"Requests/sec:\s+([\d.]+)")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_listening(port, server):
    deadline = time.monotonic() + READY_TIMEOUT_S
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise BenchError("the server ended before listening (status %d)" % server.returncode)
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise BenchError("the server did not listen on port %d within %d s"
                     % (port, READY_TIMEOUT_S))


def one_run(ctx, tool, server):
    out = ctx.output_path(tool.name)
    port = free_port()
    command, env = tool.command(["taskset", "-c", "0", server, "--port", str(port)], out, HZ)
    with open(os.path.join(ctx.scratch, "server.log"), "wb") as log:
        session = subprocess.Popen(command, env=dict(os.environ, **env), stdin=subprocess.DEVNULL,
                                   stdout=log, stderr=log, start_new_session=True)
        try:
            wait_until_listening(port, session)
            wrk = subprocess.run(["taskset", "-c", "1", "wrk", "-t1", "-c16",
                                  "-d%ds" % WRK_SECONDS, "http://127.0.0.1:%d/" % port],
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        finally:
            os.killpg(session.pid, signal.SIGINT)
            session.wait()
    match = REQUESTS_PER_S.search(wrk.stdout)
    if not match:
        raise BenchError("wrk printed no Requests/sec: %s" % wrk.stdout.strip()[-200:])
    return float(match.group(1)), tool.samples(out)


def run(ctx):
    server = os.path.join(ctx.build, "bin", "http_server")
    for needed in ("wrk", "taskset"):
        if not shutil.which(needed):
            raise BenchError("%s not found: install the Debian package %s"
                             % (needed, "wrk" if needed == "wrk" else "util-linux"))
    if not os.path.exists(server):
        raise BenchError("%s not found: build stoke (it builds examples/ too)" % server)
    tools = ctx.tools_named(TOOLS)
    runs = interleave(ctx.rounds(DEFAULT_ROUNDS), tools, lambda t: one_run(ctx, t, server))
    return [summary(runs)]


def summary(runs):
    by_name = {tool.name: results for tool, results in runs.items()}
    bare = [rps for rps, _ in by_name["bare"]]
    table = Table("Server throughput at %d Hz: `http_server` under `wrk -t1 -c16 -d%ds` "
                  "(interleaved rounds: %d)" % (HZ, WRK_SECONDS, len(bare)),
                  ["tool", "requests/s (median)", "range", "vs bare (median of rounds)",
                   "samples (median)"])
    for name, results in by_name.items():
        rps = [r for r, _ in results]
        ratio = stats.median(stats.paired_ratios(rps, bare))
        table.add(name, "%.0f" % stats.median(rps), stats.spread(rps, lambda v: "%.0f" % v),
                  stats.percent_more(ratio), stats.count(stats.median([s for _, s in results])))
    if "stoke" in by_name:
        ratio = stats.median(stats.paired_ratios([r for r, _ in by_name["stoke"]], bare))
        table.note("stoke at least %.0f%% of bare throughput: %s (%.3f)"
                   % (TARGET_RATIO * 100, stats.verdict(ratio >= TARGET_RATIO), ratio))
    table.note("The server is pinned to CPU 0 and wrk to CPU 1; each run starts the server "
               "through the tool, waits until it accepts, runs wrk, then stops the session "
               "with SIGINT. perf: `perf record -F %d -g`." % HZ)
    return table

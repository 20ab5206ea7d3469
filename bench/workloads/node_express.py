"""node_express.py - figure 11: the Node.js example app (examples/node/server.js:
express 5 and React 19 server-side rendering, NODE_ENV=production as a
server runs) under autocannon, bare, under
`stoke record -P` and under `0x -P` (the one-command Node.js profiler), in
the same interleaved rounds.

bare starts `node examples/node/server.js PORT`, waits until it accepts on
127.0.0.1:PORT, runs autocannon and stops the server with SIGINT. stoke and
0x each run as the one command a user types: the tool starts the server,
finds its port, runs the same autocannon command ($PORT filled in by the
tool), stops the server and writes its flame graph. Every command runs
pinned to CPU 0 (the server, the tool's own processes and its report) and
autocannon to CPU 1, in a fresh working directory of its own, so what a
tool leaves there (0x's V8 logs) is counted with its output.

Figures per tool: requests/s (autocannon's JSON, -j) and its ratio to the
bare run of the same round; the time from the command's start to its report
(whole command; bare has none); the report's bytes and every byte the
command left behind.
Owns: those commands, that comparison and its target (stoke at least 95%
of bare throughput). Never installs anything: it names what to install
(`npm ci --prefix examples/node`, `npm ci --prefix bench/node`).
"""
import json
import os
import shlex
import shutil
import signal
import subprocess
from dataclasses import dataclass

import stats
from context import BENCH_DIR
from runner import BenchError, interleave, run_command
from table import Table
from workloads.server_throughput import free_port, wait_until_listening

NAME = "node_express"
SUMMARY = ("requests/s of examples/node/server.js (express + React) under autocannon: bare, "
           "`stoke record -P`, `0x -P`; time to the report, report bytes")
DEFAULT_ROUNDS = 5
TARGET_RATIO = 0.95
CONNECTIONS = 10
LOAD_SECONDS = 5
STOP_TIMEOUT_S = 10
EXAMPLE = os.path.join(os.path.dirname(BENCH_DIR), "examples", "node")
SERVER = os.path.join(EXAMPLE, "server.js")
AUTOCANNON = os.path.join(EXAMPLE, "node_modules", ".bin", "autocannon")
ZERO_X_DIR = os.path.join(BENCH_DIR, "node")
ZERO_X = os.path.join(ZERO_X_DIR, "node_modules", ".bin", "0x")
REPORT = "flamegraph.html"  # the name both stoke and 0x give their report
# The server runs as servers do in production: React's production build.
SERVER_ENV = dict(os.environ, NODE_ENV="production")


@dataclass
class Result:
    requests_per_s: float  # autocannon's mean of its per-second counts
    failed_requests: int  # errors, timeouts and non-2xx responses
    load_s: float  # autocannon's own duration
    command_s: float = None  # start to report written; None for bare
    report_bytes: int = 0
    left_bytes: int = 0  # everything the command left in its working directory
    left_files: int = 0


def load_argv(url):
    """The load, the same for every tool: autocannon on CPU 1, JSON out."""
    return ["taskset", "-c", "1", AUTOCANNON, "-j", "-c", str(CONNECTIONS),
            "-d", str(LOAD_SECONDS), url]


def load_for_shell():
    """load_argv as the shell line stoke and 0x run, $PORT left for them."""
    return " ".join(shlex.quote(a) for a in load_argv("")[:-1]) + " http://127.0.0.1:$PORT/"


class Bare:
    name = "bare"

    def missing(self):
        return None

    def run(self, ctx, workdir):
        port = free_port()
        with open(ctx.output_path("bare-server.log"), "wb") as log:
            server = subprocess.Popen(["taskset", "-c", "0", "node", SERVER, str(port)],
                                      cwd=workdir, env=SERVER_ENV, stdin=subprocess.DEVNULL,
                                      stdout=log, stderr=log, start_new_session=True)
            try:
                wait_until_listening(port, server)
                load = subprocess.run(load_argv("http://127.0.0.1:%d/" % port),
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            finally:
                stop(server)
        if load.returncode != 0:
            raise BenchError("autocannon exited with status %d: %s"
                             % (load.returncode, load.stderr.strip()[-200:]))
        return autocannon_result(load.stdout)


class OneCommand:
    """A profiler run as its one command: start the server, run the load on
    its port, stop it, write OUT/flamegraph.html."""

    def __init__(self, name, argv_before_load):
        self.name = name
        self.argv_before_load = argv_before_load  # OUT -> the argv up to -P

    def missing(self):
        return None

    def run(self, ctx, workdir):
        out = os.path.join(workdir, "out")
        argv = (["taskset", "-c", "0"] + self.argv_before_load(out)
                + ["-P", load_for_shell(), "--", "node", SERVER])
        done = run_command(argv, ctx.scratch, env_extra={"NODE_ENV": "production"}, cwd=workdir)
        report = os.path.join(out, REPORT)
        if not os.path.exists(report):
            raise BenchError("`%s` wrote no %s" % (" ".join(argv), report))
        result = autocannon_result(done.stdout)
        result.command_s = done.wall_s
        result.report_bytes = os.path.getsize(report)
        result.left_files, result.left_bytes = files_and_bytes(workdir)
        return result


class ZeroX(OneCommand):
    def __init__(self):
        super().__init__("0x", lambda out: [ZERO_X, "--output-dir", out])

    def missing(self):
        if os.path.exists(ZERO_X):
            return None
        return ("%s not found: install 0x with `npm ci --prefix bench/node` (bench/node/"
                "package.json pins 0x 6.0.0)" % ZERO_X)


def stoke_tool(ctx):
    return OneCommand("stoke", lambda out: [ctx.stoke, "record", "-o", out])


def stop(server):
    """SIGINT to the server's session, as Ctrl-C would; SIGKILL if it hangs."""
    os.killpg(server.pid, signal.SIGINT)
    try:
        server.wait(timeout=STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()
        raise BenchError("examples/node/server.js did not stop within %d s of SIGINT"
                         % STOP_TIMEOUT_S)


def autocannon_result(stdout):
    """The figures of the last JSON line autocannon -j printed in stdout
    (the server's and the tool's own lines around it are skipped)."""
    for line in reversed(stdout.splitlines()):
        if line.startswith("{"):
            try:
                found = json.loads(line)
            except ValueError:
                continue
            if "requests" in found:
                return checked(found)
    raise BenchError("autocannon printed no JSON result: %s" % stdout.strip()[-200:])


def checked(found):
    if not found.get("2xx"):
        raise BenchError("the server answered no request with 2xx (errors %s, non-2xx %s): is "
                         "`npm ci --prefix examples/node` done?"
                         % (found.get("errors"), found.get("non2xx")))
    failed = found["errors"] + found["timeouts"] + found["non2xx"]
    return Result(found["requests"]["average"], failed, found["duration"])


def files_and_bytes(top):
    sizes = [os.path.getsize(os.path.join(d, f)) for d, _, files in os.walk(top) for f in files]
    return len(sizes), sum(sizes)


def missing_needs():
    """Why this machine cannot run the bare app under load, or None."""
    if not shutil.which("node"):
        return "node not found: install the Debian package nodejs"
    if not shutil.which("taskset"):
        return "taskset not found: install the Debian package util-linux"
    if not os.path.isdir(os.path.join(EXAMPLE, "node_modules", "express")):
        return "examples/node has no node_modules: run `npm ci --prefix examples/node`"
    if not os.path.exists(AUTOCANNON):
        return "%s not found: run `npm ci --prefix examples/node`" % AUTOCANNON
    return None


def run(ctx):
    why = missing_needs()
    if why:
        raise BenchError(why)
    tools = []
    for tool in (Bare(), stoke_tool(ctx), ZeroX()):
        if tool.missing():
            print("bench: %s: %s; its rows are left out" % (NAME, tool.missing()), flush=True)
        else:
            tools.append(tool)
    runs = interleave(ctx.rounds(DEFAULT_ROUNDS), tools,
                      lambda tool: tool.run(ctx, fresh_directory(ctx, tool.name)))
    named = {tool.name: results for tool, results in runs.items()}
    return [throughput_table(named), report_table(named), raw_table(named)]


def fresh_directory(ctx, label):
    path = ctx.output_path(label)
    os.mkdir(path)
    return path


def versions():
    node = subprocess.run(["node", "--version"], stdout=subprocess.PIPE, text=True).stdout.strip()
    found = ["node " + node]
    for name, package in (("autocannon", os.path.join(EXAMPLE, "node_modules", "autocannon")),
                          ("0x", os.path.join(ZERO_X_DIR, "node_modules", "0x"))):
        try:
            with open(os.path.join(package, "package.json")) as f:
                found.append("%s %s" % (name, json.load(f)["version"]))
        except OSError:
            pass
    return ", ".join(found)


def throughput_table(named):
    bare = [r.requests_per_s for r in named["bare"]]
    table = Table("examples/node/server.js (express + React SSR) under `autocannon -c %d -d %d`: "
                  "requests/s (interleaved rounds: %d)" % (CONNECTIONS, LOAD_SECONDS, len(bare)),
                  ["tool", "requests/s (median)", "range", "vs bare (median of rounds)",
                   "range of ratios", "failed requests (median)"])
    for name, results in named.items():
        rps = [r.requests_per_s for r in results]
        ratios = stats.paired_ratios(rps, bare)
        table.add(name, "%.0f" % stats.median(rps), stats.spread(rps, lambda v: "%.0f" % v),
                  "%s (%s)" % (stats.ratio(stats.median(ratios)),
                               stats.percent_more(stats.median(ratios))),
                  stats.spread(ratios, stats.ratio),
                  stats.count(stats.median([r.failed_requests for r in results])))
    if "stoke" in named:
        ratio = to_bare(named, "stoke")
        table.note("stoke at least %.0f%% of bare throughput: %s (%s)"
                   % (TARGET_RATIO * 100, stats.verdict(ratio >= TARGET_RATIO),
                      stats.ratio(ratio))
                   + ("; 0x: %s of bare" % stats.ratio(to_bare(named, "0x"))
                      if "0x" in named else ""))
    table.note("The server (and the tool's own processes) run pinned to CPU 0, autocannon "
               "pinned to CPU 1. bare: `node server.js PORT`, autocannon once it accepts, then "
               "SIGINT; stoke: `stoke record -o OUT -P '%s' -- node server.js`; "
               "0x: `0x --output-dir OUT -P '<the same>' -- node server.js`. %s."
               % (load_for_shell().replace(AUTOCANNON, "autocannon"), versions()))
    return table


def to_bare(named, name):
    return stats.median(stats.paired_ratios([r.requests_per_s for r in named[name]],
                                            [r.requests_per_s for r in named["bare"]]))


def report_table(named):
    table = Table("examples/node/server.js: time to the report and what each command leaves "
                  "(medians)",
                  ["tool", "command s", "range", "of which not the load, s", "report bytes",
                   "bytes left in all", "files left"])
    for name, results in named.items():
        if name == "bare":
            continue
        seconds = [r.command_s for r in results]
        table.add(name, stats.seconds(stats.median(seconds)), stats.spread(seconds, stats.seconds),
                  stats.seconds(stats.median([r.command_s - r.load_s for r in results])),
                  stats.count(stats.median([r.report_bytes for r in results])),
                  stats.count(stats.median([r.left_bytes for r in results])),
                  stats.count(stats.median([r.left_files for r in results])))
    table.note("command s: from the command's start until it exited with its report written "
               "(the server's start, the %d s load, the stop and the report); not the load: "
               "that time less autocannon's own duration. Report: OUT/%s; left: every file "
               "under the command's fresh working directory (OUT included: stoke's traces, "
               "0x's V8 logs and JSON)." % (LOAD_SECONDS, REPORT))
    return table


def raw_table(named):
    names = list(named)
    rounds = len(named[names[0]])
    table = Table("examples/node/server.js: raw runs (requests/s / command s)",
                  ["round"] + names)
    for i in range(rounds):
        cells = []
        for name in names:
            r = named[name][i]
            cells.append("%.0f" % r.requests_per_s if r.command_s is None
                         else "%.0f / %s" % (r.requests_per_s, stats.seconds(r.command_s)))
        table.add(i + 1, *cells)
    return table

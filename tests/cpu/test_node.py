"""test_node.py - JavaScript named out of the box: stoke record on the
Node.js example (examples/node: express 5 + React 19 server-side rendering,
from npm), with no flag from the user.

  node_express   the server under autocannon: the hottest JavaScript is the
                 app's Tree component, named "Tree lib/tree.js:L:C"
                 relative to the server's working directory; at most 2% of
                 samples end in unnamed code that elfutils can name; no
                 frame is a stack address; a function V8 compiled in two
                 tiers is one frame in --folded while the report keeps each
                 tier; stacks reach _start; no
                 isolate-*.log is left in the working directory and no perf
                 map in /tmp, and the report made again afterwards names the
                 same JavaScript; the server stops through its SIGINT handler
  node_cluster   cluster.js with two workers: three processes, every one with
                 samples (no empty trace of a fork before its exec), each
                 worker's JavaScript named
  node_npm       `npm run render` (npm, sh, then node): the JavaScript of the
                 node that npm starts is named
  node_options   NODE_OPTIONS the user set stays in force (a heap limit the
                 program reads back) and their own --perf-basic-prof keeps
                 its perf map, which stoke then leaves in place
  node_killed    node killed with SIGKILL (its agent cannot clean up) once its
                 live trace shows it rendering: stoke record removes its
                 perf map and isolate log, and the report names its
                 JavaScript from the trace

usage: test_node.py CASE
"""
import glob
import os
import re
import signal
import subprocess
import sys
import time

from e2e_support import (STOKE, VIEWER_TOOLS, Folded, describe, expect, fresh_dir, main,
                         report_folded, run, text, traces_in)

sys.path.insert(0, VIEWER_TOOLS)
from report_data import load_report  # noqa: E402

NODE = os.environ.get("E2E_NODE", "")
EXAMPLE = os.environ["E2E_NODE_EXAMPLE"]
AUTOCANNON = os.path.join(EXAMPLE, "node_modules", ".bin", "autocannon")
# a count of requests, not seconds: the same work however busy the machine is
LOAD = f"{AUTOCANNON} -a 1000 -c 4 http://127.0.0.1:$PORT/"
TIMEOUT_S = 90

TREE = re.compile(r"^Tree (\S*/)?lib/tree\.js:\d+(:\d+)?$")  # node 18 gives no column
UNNAMED = re.compile(r"^(.*)\+(0x[0-9a-f]+)$")
RAW_V8_NAME = re.compile(r"^(JS|LazyCompile|Function):")


def needs_node():
    expect(os.access(NODE, os.X_OK) and os.access(AUTOCANNON, os.X_OK),
           "needs node and the example's npm packages; run scripts/setup.sh")


def record(out, command, options=(), cwd=None, env=None):
    result = run([STOKE, "record", "-o", out, *options, "--", *command], timeout=TIMEOUT_S,
                 cwd=cwd, env=env)
    expect(result.returncode == 0, f"stoke record exited {result.returncode}", describe(result))
    return result


def pids_of(out):
    """The pids of the traces in out (<comm>.<pid>.stoke, and <comm>.<pid>.<n>.stoke for
    the trace of a later program of the same process)."""
    return sorted({int(re.search(r"\.(\d+)(?:\.\d+)?\.stoke$", t).group(1))
                   for t in traces_in(out)})


def share(folded, match):
    return 100.0 * folded.with_frame(match) / max(folded.total(), 1)


def expect_named_javascript(folded, what):
    tree = share(folded, lambda f: bool(TREE.match(f)))
    expect(tree >= 20, f"{what}: the Tree component holds {tree:.1f}% of the samples, "
           "expected at least 20%", folded.top())
    raw = [f for s in folded.stacks for f in s if RAW_V8_NAME.match(f)]
    expect(not raw, f"{what}: frames keep V8's raw names", " ".join(raw[:5]))


def node_modules():
    """Path of each file node runs code from, by the name stoke gives it."""
    listed = run(["ldd", NODE], timeout=TIMEOUT_S).stdout
    paths = re.findall(r"=> (/\S+)", text(listed))
    return {os.path.basename(p): p for p in [os.path.realpath(NODE), *paths]}


def names_elfutils_finds(path, offsets):
    """The offsets eu-addr2line names in path: a library without a symbol
    table (Debian's libnode) has functions no tool can name."""
    result = run(["eu-addr2line", "-f", "-e", path, *offsets], timeout=TIMEOUT_S)
    names = text(result.stdout).splitlines()[::2]
    return {o for o, name in zip(offsets, names) if name != "??"}


def unnamed_leaf_share(folded):
    """Share of samples whose leaf stoke left unnamed though it is
    nameable: code in no file, or an address elfutils names."""
    modules = node_modules()
    leaves = {}
    for stack, n in folded.stacks.items():
        found = UNNAMED.match(stack[-1])
        if found:
            leaves.setdefault(found.group(1), {}).setdefault(found.group(2), 0)
            leaves[found.group(1)][found.group(2)] += n
    unnamed = 0
    for module, counts in leaves.items():
        path = modules.get(module)
        nameable = names_elfutils_finds(path, list(counts)) if path else set(counts)
        unnamed += sum(n for offset, n in counts.items() if offset in nameable)
    return 100.0 * unnamed / max(folded.total(), 1)


def stack_address_frames(folded):
    """Samples with an unnamed frame that is not the leaf: a walk that read
    a stack address as a return address."""
    return sum(n for s, n in folded.stacks.items()
               if any(f.startswith("[unknown]+0x") for f in s[1:-1]))


def functions_in_several_tiers(report_path):
    """Names of JavaScript functions the report holds in more than one tier."""
    data = load_report(report_path)
    frames, strings = data["frames"], data["strings"]
    tiers = {}
    for name, tier in zip(frames["name"], frames["tier"]):
        if tier:
            tiers.setdefault(strings[name], set()).add(tier)
    return sorted(n for n, t in tiers.items() if len(t) > 1)


def expect_nothing_left(work, pids):
    logs = glob.glob(os.path.join(work, "isolate-*.log"))
    maps = [f"/tmp/perf-{pid}.map" for pid in pids if os.path.exists(f"/tmp/perf-{pid}.map")]
    expect(not logs and not maps, "stoke left node's files behind", " ".join(logs + maps))


def node_express():
    needs_node()
    work = fresh_dir("node_express")
    out = os.path.join(work, "out")
    server = os.path.join(EXAMPLE, "server.js")
    result = record(out, [NODE, server], ["-P", LOAD], cwd=work)
    expect("server.js: shutting down" in text(result.stdout),
           "the server was not stopped through its SIGINT handler", describe(result))
    pids = pids_of(out)
    expect(len(pids) == 1, "expected one trace", " ".join(traces_in(out)))
    expect_nothing_left(work, pids)
    folded, _ = report_folded(out)  # made now that the perf maps are gone
    expect_named_javascript(folded, "node server.js")
    unnamed = unnamed_leaf_share(folded)
    expect(unnamed <= 2, f"{unnamed:.1f}% of the samples end in unnamed code (at most 2%)",
           folded.top())
    junk = stack_address_frames(folded)
    expect(junk <= folded.total() // 200, f"{junk} samples hold an unnamed frame between named "
           "ones (a stack address taken for a return address)", folded.top())
    rooted = sum(n for s, n in folded.stacks.items()
                 if s[1:2] == ("_start",) and any(TREE.match(f) for f in s))
    in_tree = folded.with_frame(lambda f: bool(TREE.match(f)))
    expect(rooted >= 0.8 * in_tree, f"only {rooted} of {in_tree} samples in Tree have stacks "
           "down to _start", folded.top())
    tiered = functions_in_several_tiers(os.path.join(out, "flamegraph.html"))
    expect(tiered, "no function in more than one V8 tier: the tier merge went untested")
    expect(all(folded.with_frame(name) for name in tiered[:3]),
           "a function compiled in several tiers is missing from --folded", " ".join(tiered))


def node_cluster():
    needs_node()
    work = fresh_dir("node_cluster")
    out = os.path.join(work, "out")
    result = record(out, [NODE, os.path.join(EXAMPLE, "cluster.js"), "0", "2"], ["-P", LOAD],
                    cwd=work)
    expect("3 processes" in text(result.stderr), "expected the primary and two workers",
           describe(result))
    expect_nothing_left(work, pids_of(out))
    folded, _ = report_folded(out)  # a process's traces share its root, "node (pid)"
    for pid in pids_of(out):
        expect(folded.total(f"node ({pid})") > 0, f"node {pid} left no samples",
               describe(result))
    busy = 0
    for pid in pids_of(out):
        root = f"node ({pid})"
        tree = folded.with_frame(lambda f: bool(TREE.match(f)), root)
        busy += 100.0 * tree / folded.total(root) >= 20
    expect(busy == 2, f"{busy} of the processes render named JavaScript, expected both workers",
           describe(result))


def node_npm():
    needs_node()
    work = fresh_dir("node_npm")
    out = os.path.join(work, "out")
    result = record(out, ["npm", "run", "--silent", "render", "--", "400"], cwd=EXAMPLE)
    expect("render.js: 400 pages" in text(result.stdout), "npm run render did not run",
           describe(result))
    folded, _ = report_folded(out)
    expect_named_javascript(folded, "npm run render")
    expect_nothing_left(EXAMPLE, pids_of(out))


HEAP_LIMIT = ("const v8 = require('v8');"
              "console.log('heap limit MiB', Math.round(v8.getHeapStatistics().heap_size_limit"
              " / 1048576 / 32) * 32);")


def node_options():
    needs_node()
    work = fresh_dir("node_options")
    env = dict(os.environ, NODE_OPTIONS="--max-old-space-size=256")
    default = run([NODE, "-e", HEAP_LIMIT], env=dict(os.environ, NODE_OPTIONS=""))
    bare = run([NODE, "-e", HEAP_LIMIT], env=env)
    profiled = record(os.path.join(work, "limit"), [NODE, "-e", HEAP_LIMIT], env=env)
    expect(text(bare.stdout) != text(default.stdout), "--max-old-space-size changed nothing",
           describe(default) + describe(bare))
    expect(text(profiled.stdout) == text(bare.stdout),
           "the user's NODE_OPTIONS did not stay in force", describe(bare) + describe(profiled))
    own = dict(os.environ, NODE_OPTIONS="--perf-basic-prof")
    out = os.path.join(work, "own_map")
    record(out, [NODE, os.path.join(EXAMPLE, "bin", "render.js"), "200"], env=own, cwd=work)
    pids = pids_of(out)
    kept = [p for p in pids if os.path.exists(f"/tmp/perf-{p}.map")]
    try:
        expect(kept == pids, "the perf map the user asked for was removed", " ".join(map(str, pids)))
        folded, _ = report_folded(out)
        expect_named_javascript(folded, "node with the user's --perf-basic-prof")
    finally:
        for pid in kept:
            os.remove(f"/tmp/perf-{pid}.map")
        for log in glob.glob(os.path.join(work, "isolate-*.log")):
            os.remove(log)


def wait_until_rendering(out):
    """Waits until the live trace in out holds samples of the Tree
    component (node is past its start), and returns the pids of its traces."""
    deadline = time.monotonic() + TIMEOUT_S
    while True:
        live = run([STOKE, "report", out, "--folded"], timeout=TIMEOUT_S)
        if live.returncode == 0 and share(Folded(text(live.stdout)),
                                          lambda f: bool(TREE.match(f))) >= 30:
            return pids_of(out)
        expect(time.monotonic() < deadline, f"node rendered nothing within {TIMEOUT_S} s",
               describe(live))
        time.sleep(0.3)


def node_killed():
    needs_node()
    work = fresh_dir("node_killed")
    out = os.path.join(work, "out")
    script = os.path.join(EXAMPLE, "bin", "render.js")
    stoke = subprocess.Popen([STOKE, "record", "-o", out, "--", NODE, script, "100000"],
                             cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    pids = wait_until_rendering(out)
    expect(len(pids) == 1, "expected node's trace", " ".join(traces_in(out)))
    os.kill(pids[0], signal.SIGKILL)
    _, err = stoke.communicate(timeout=TIMEOUT_S)
    expect(stoke.returncode == 128 + signal.SIGKILL, f"stoke exited {stoke.returncode}",
           text(err))
    expect_nothing_left(work, pids)
    folded, _ = report_folded(out)
    expect_named_javascript(folded, "node killed with SIGKILL")


if __name__ == "__main__":
    raise SystemExit(main({"node_express": node_express, "node_cluster": node_cluster,
                           "node_npm": node_npm, "node_options": node_options,
                           "node_killed": node_killed}))

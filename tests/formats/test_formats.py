#!/usr/bin/env python3
"""test_formats.py - stoke's files in other tools' formats, read by those
tools: pprof by protoc (against pprof's own profile.proto), go tool pprof and
the pprof-format npm package; speedscope by its published JSON schema and
its own viewer; .cpuprofile rebuilt into stacks, and opened by speedscope's
viewer (which imports Chrome's format). Every file must tell the same totals and
stacks as `stoke report --folded` of the same trace. Also the errors of bad
input.

usage: test_formats.py CASE   (environment: see tests/CMakeLists.txt,
stoke_driver_tests; tests/lib/formats_support.py has the inputs and readers)
"""
import collections
import json
import os
import re
import sys

from e2e_support import describe, expect, run
from formats_support import (
    MAKE_TRACE, PERIOD_NS, SYM_TARGET, cpu_burn_recording, expect_fails,
    expect_pprof_matches_folded, folded, heap_snapshots, number, protoc_decode, run_cases,
    self_and_total, stoke_ok, string, sym_trace, value_types)

CHECKER_DIR = os.environ["FMT_CHECKER_DIR"]


def node_check(kind, path):
    expect(os.path.isdir(os.path.join(CHECKER_DIR, "node_modules", "pprof-format")),
           "the readers from npm are missing: run scripts/setup.sh (npm ci --prefix tests/formats)")
    r = run(["node", os.path.join(CHECKER_DIR, "check_formats.mjs"), kind, path])
    expect(r.returncode == 0, f"the {kind} reader failed", describe(r))
    return json.loads(r.stdout)


def open_in_speedscope(*paths):
    """{file name: (title, problems)} as speedscope's own viewer opened them."""
    r = run(["node", os.path.join(CHECKER_DIR, "open_in_speedscope.mjs"), *paths])
    expect(r.returncode == 0, "speedscope's viewer could not be driven", describe(r))
    return {d["file"]: (d["title"], d["problems"])
            for d in map(json.loads, r.stdout.decode().splitlines())}


def expect_opens_in_speedscope(path, title, work):
    """speedscope's viewer opens path (and refuses a .stoke trace, so the
    check is known to look)."""
    control = sym_trace(work, "control.stoke")
    opened = open_in_speedscope(path, control)
    expect(opened[os.path.basename(path)] == (f"{title} - speedscope", []),
           f"speedscope's viewer does not open {path}", str(opened))
    expect(opened["control.stoke"][1], "speedscope's viewer refuses a .stoke trace",
           str(opened))


def case_pprof_cpu(work):
    trace = sym_trace(work)
    stoke_ok("report", trace, "--format", "pprof", "-o", "sym.pb.gz", cwd=work)
    pb = os.path.join(work, "sym.pb.gz")
    d = protoc_decode(pb)
    expect(value_types(d) == ["samples/count", "cpu/nanoseconds"], "CPU sample types",
           str(value_types(d)))
    expect(value_types(d, "period_type") == ["cpu/nanoseconds"], "CPU period type")
    expect(number(d, "period") == PERIOD_NS, "period is the sampling period", str(d["period"]))
    build_id = run(["readelf", "-n", SYM_TARGET]).stdout.decode()
    build_id = re.search(r"Build ID: ([0-9a-f]+)", build_id).group(1)
    mapped = {(string(d, m, "filename"), string(d, m, "build_id")) for m in d["mapping"]}
    expect((SYM_TARGET, build_id) in mapped,
           "sym_target's mapping carries its path and build-id", str(mapped))
    expect(string(d, d["mapping"][0], "filename") == SYM_TARGET,
           "the main executable is mapping 1")
    functions = {f["id"][0]: (string(d, f, "name"), string(d, f, "filename"))
                 for f in d["function"]}
    chains = [[functions[line["function_id"][0]][0] for line in loc["line"]]
              for loc in d["location"]]
    expect(["stoke_test_inlined", "stoke_test_leaf"] in chains,
           "the inlined function and its caller are the lines of one location", str(chains))
    files = {name: file for name, file in functions.values()}
    expect(files["stoke_test_leaf"].endswith("sym_target.c"), "functions carry their file")
    lines = {number(line, "line") for loc in d["location"] for line in loc["line"]}
    expect(len(lines - {0}) >= 3, "lines carry line numbers", str(lines))
    samples = [int(v["value"][0]) for v in d["sample"]]
    nanos = [int(v["value"][1]) for v in d["sample"]]  # values are never zero here
    expect(nanos == [n * PERIOD_NS for n in samples], "cpu/nanoseconds = samples x period")
    expect_pprof_matches_folded(work, pb, folded(trace))

    rec = cpu_burn_recording(work)
    stoke_ok("report", rec, "-o", os.path.join(work, "burn.pb.gz"))  # by its extension
    stacks = folded(rec)
    expect_pprof_matches_folded(work, os.path.join(work, "burn.pb.gz"), stacks)
    self_v, _ = self_and_total(stacks)
    expect(self_v.most_common(1)[0][0] == "score_positions", "cpu_burn's hottest function",
           str(self_v.most_common(3)))
    npm = node_check("pprof", os.path.join(work, "burn.pb.gz"))
    expect(npm["sampleTypes"] == ["samples/count", "cpu/nanoseconds"] and
           npm["totals"][0] == sum(stacks.values()),
           "pprof-format decodes the same totals", json.dumps(npm))


def case_pprof_heap(work):
    snaps = heap_snapshots(work)
    pb = os.path.join(work, "heap.pb.gz")
    stoke_ok("report", snaps, "--format", "pprof", "-o", pb)
    d = protoc_decode(pb)
    expect(value_types(d) == ["alloc_objects/count", "alloc_space/bytes",
                              "inuse_objects/count", "inuse_space/bytes"],
           "heap sample types follow Go's", str(value_types(d)))
    expect(value_types(d, "period_type") == ["space/bytes"], "heap period type")
    expect(number(d, "period") > 0, "heap period is the sampling interval", str(d["period"]))
    for index, measure in (("inuse_space", "live-bytes"), ("inuse_objects", "live-objects"),
                           ("alloc_space", "alloc-bytes"), ("alloc_objects", "alloc-objects")):
        expect_pprof_matches_folded(work, pb, folded(snaps, "--measure", measure), index)
    npm = node_check("pprof", pb)
    expect(npm["totals"][3] == sum(folded(snaps, "--measure", "live-bytes").values()),
           "pprof-format decodes the same live bytes", json.dumps(npm))


def expect_evented_matches_folded(profiles, stacks, what, roots=1):
    """Evented profiles (one per thread) replay into stoke's stacks: frames
    nest, and each stack is open for the time of its samples (samples x
    period, less where a sample's span would reach back before the thread's
    previous sample, which the sampling timer's slack can cause) within 2
    points. roots: the synthetic frames above the code in stacks."""
    timed = collections.Counter()
    for profile in profiles:
        expect(profile["type"] == "evented" and profile["unit"] == "nanoseconds",
               f"{what}: evented profiles in nanoseconds", profile["name"])
        expect(not profile["nesting"], f"{what}: events nest", str(profile["nesting"][:5]))
        timed.update(profile["stacks"])
    code_stacks = collections.Counter()
    for stack, value in stacks.items():
        code_stacks[";".join(stack[roots:])] += value
    period = 1_000_000_000 // 997  # the agent's period at the default rate
    truth, total = sum(code_stacks.values()) * period, sum(timed.values())
    expect(0.95 * truth <= total <= truth * 1.001,
           f"{what}: the events span {total} ns, the samples stand for {truth}")
    for stack, value in code_stacks.most_common(5):
        share, timed_share = value * period / truth, timed[stack] / total
        expect(abs(share - timed_share) <= 0.02,
               f"{what}: {stack} holds {share:.3f} of the samples, {timed_share:.3f} of the time")


def case_speedscope(work):
    rec = cpu_burn_recording(work, threads="2")
    out = os.path.join(work, "burn.speedscope.json")
    stoke_ok("report", rec, "--format", "speedscope", "-o", out)
    checked = node_check("speedscope", out)
    expect(checked["valid"], "speedscope's schema refuses the file", json.dumps(checked))
    stacks = folded(rec)
    profiles = checked["profiles"]
    expect(len(profiles) == 2 and all(p["name"].startswith("thread ") for p in profiles),
           "one profile for each of the two threads, samples in time order",
           str([p["name"] for p in profiles]))
    expect_evented_matches_folded(profiles, stacks, "by thread")
    doc = json.load(open(out))
    frames = doc["shared"]["frames"]
    expect(any(f.get("file", "").endswith("cpu_burn.c") and f.get("line") for f in frames),
           "frames carry file and line")
    expect_opens_in_speedscope(out, doc["name"], work)

    stoke_ok("report", rec, "--threads", "--format", "speedscope", "-o", out)
    checked = node_check("speedscope", out)
    expect(checked["valid"] and len(checked["profiles"]) == 2,
           "--threads: one profile per thread", str([p["name"] for p in checked["profiles"]]))
    expect_evented_matches_folded(checked["profiles"], folded(rec, "--threads"), "--threads", 2)

    snaps = heap_snapshots(work)
    stoke_ok("report", snaps, "--format", "speedscope", "-o", out)
    checked = node_check("speedscope", out)
    live = folded(snaps)
    expect(checked["valid"] and checked["profiles"][0]["unit"] == "bytes" and
           checked["profiles"][0]["total"] == sum(live.values()),
           "heap snapshots: live bytes", json.dumps(checked))

    broken = dict(doc, profiles=[dict(doc["profiles"][0], unit="furlongs")])
    json.dump(broken, open(out, "w"))
    expect(not node_check("speedscope", out)["valid"],
           "the schema check catches a bad unit (so it is known to look)")


def case_cpuprofile(work):
    rec = cpu_burn_recording(work)
    out = os.path.join(work, "burn.cpuprofile")
    stoke_ok("report", rec, "--format", "cpuprofile", "-o", out)
    doc = json.load(open(out))
    nodes = {n["id"]: n for n in doc["nodes"]}
    expect(len(nodes) == len(doc["nodes"]) and doc["nodes"][0]["callFrame"]["functionName"]
           == "(root)", "node ids are unique, the first is (root)")
    parent = {}
    for n in doc["nodes"]:
        for c in n.get("children", []):
            expect(c in nodes and c not in parent, f"child {c} of {n['id']} is one node")
            parent[c] = n["id"]
    for n in doc["nodes"]:
        cf = n["callFrame"]
        expect(set(cf) >= {"functionName", "scriptId", "url", "lineNumber", "columnNumber"},
               "call frames have DevTools' fields", str(cf))
    expect(len(doc["samples"]) == len(doc["timeDeltas"]), "one time delta per sample")
    expect(doc["endTime"] - doc["startTime"] == sum(doc["timeDeltas"]),
           "the time deltas add up to the profile's span")
    rebuilt = collections.Counter()
    for sample in doc["samples"]:
        path, node = [], sample
        while node in parent:
            path.append(nodes[node]["callFrame"]["functionName"])
            node = parent[node]
        rebuilt[tuple(reversed(path))] += 1
    expect(rebuilt == folded(rec), "the samples' stacks are stoke's folded stacks")
    expect(sum(n["hitCount"] for n in doc["nodes"]) == len(doc["samples"]), "hit counts")
    expect_opens_in_speedscope(out, "burn.cpuprofile", work)
    urls = [n["callFrame"]["url"] for n in doc["nodes"]
            if n["callFrame"]["functionName"] == "score_positions"]
    expect(urls and urls[0].startswith("file:///") and urls[0].endswith("cpu_burn.c"),
           "frames link to their source file", str(urls))


def case_bad_input(work):
    trace = sym_trace(work)
    expect_fails(["report", trace, "--format", "svg"], 2, "unknown format 'svg'",
                 "html, folded, pprof, speedscope or cpuprofile")
    expect_fails(["merge", trace, "--format", "png"], 2, "unknown format 'png'")
    expect_fails(["report", trace, "--format", "pprof", "-o", "/nonexistent-dir/p.pb.gz"], 1,
                 "cannot write '/nonexistent-dir/p.pb.gz'")
    empty = sym_trace(work, "zero.stoke", kind="nosamples")
    for fmt in ("pprof", "speedscope", "cpuprofile"):
        expect_fails(["report", empty, "--format", fmt, "-o", os.path.join(work, "x")], 1,
                     "holds no samples")
        expect(not os.path.exists(os.path.join(work, "x")), "no file is left behind")
    expect_fails(["report", heap_snapshots(work), "--format", "cpuprofile", "-o",
                  os.path.join(work, "h.cpuprofile")], 1, "holds CPU time")
    huge = os.path.join(work, "huge.stoke")  # more samples than a .cpuprofile can list
    r = run([MAKE_TRACE, "bench", huge, "11000000", "100", SYM_TARGET])
    expect(r.returncode == 0, "make_trace bench failed", describe(r))
    expect_fails(["report", huge, "--format", "cpuprofile", "-o",
                  os.path.join(work, "huge.cpuprofile")], 1, "11000000",
                 "--format pprof or speedscope")


if __name__ == "__main__":
    sys.exit(run_cases(globals()))

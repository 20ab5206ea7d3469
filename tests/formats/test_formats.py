#!/usr/bin/env python3
"""test_formats.py - stoke's files in other tools' formats, read by those
tools: pprof by protoc (against pprof's own profile.proto), go tool pprof and
the pprof-format npm package; speedscope by its published JSON schema and
its own viewer; .cpuprofile rebuilt into stacks, and opened by speedscope's
viewer (which imports Chrome's format). Every file must tell the same totals and
stacks as `stoke report --folded` of the same trace. Also `stoke merge`
(the sum of its inputs, builds kept apart), `stoke push` against a local
HTTP server on 127.0.0.1 that checks the request as Pyroscope's ingest API
documents it, and the errors of bad input.

Traces: tests/tools/make_trace's (known stacks of sym_target with an inlined
function; heap snapshots named by a perf map) and a real recording of the
cpu_burn example.

usage: test_formats.py CASE   (environment: see tests/formats/CMakeLists.txt;
tests/e2e/e2e_support.py runs the case)
"""
import collections
import email.parser
import gzip
import http.server
import json
import os
import re
import shutil
import socket
import sys
import threading
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
from e2e_support import (STOKE, describe, expect, fresh_dir, main,  # noqa: E402
                         report_folded, run)

MAKE_TRACE = os.environ["FMT_MAKE_TRACE"]
SYM_TARGET = os.environ["FMT_SYM_TARGET"]
CPU_BURN = os.environ["FMT_CPU_BURN"]
PROTO = os.environ["FMT_PROFILE_PROTO"]
CHECKER_DIR = os.environ["FMT_CHECKER_DIR"]
PERIOD_NS = 1003009  # make_trace's period
START_S = 1700000000  # make_trace's start time


def stoke_ok(*args, cwd=None):
    r = run([STOKE, *args], cwd=cwd)
    expect(r.returncode == 0, "stoke failed", describe(r))
    return r


# --- inputs -----------------------------------------------------------------

def sym_trace(work, name="sym.stoke", exe=None, kind="valid"):
    """make_trace's trace of kind (valid: with samples) of sym_target (or of
    exe, a copy of it)."""
    info = run([SYM_TARGET]).stdout.decode()
    if exe:
        info = re.sub(r"^exe .*$", f"exe {exe}", info, flags=re.M)
    info_path = os.path.join(work, name + ".info")
    with open(info_path, "w") as f:
        f.write(info)
    path = os.path.join(work, name)
    r = run([MAKE_TRACE, kind, path, info_path])
    expect(r.returncode == 0, "make_trace failed", describe(r))
    return path


def heap_snapshots(work):
    d = os.path.join(work, "heap")
    os.makedirs(d, exist_ok=True)
    names = ["main", "run", "leak_a", "churn_b", "keep_c", "late_d", "early_e"]
    with open(os.path.join(d, "perf-4242.map"), "w") as f:
        for i, name in enumerate(names):
            f.write(f"{0x7f0000010000 + 0x100 * i:x} 100 {name}\n")
    for seq, trigger in ((1, "signal"), (2, "exit")):
        r = run([MAKE_TRACE, "heap", os.path.join(d, f"demo.4242.heap.{seq}.2024-{seq}.stoke"),
                 str(seq), trigger])
        expect(r.returncode == 0, "make_trace heap failed", describe(r))
    return d


def cpu_burn_recording(work, name="rec", threads="1"):
    out = os.path.join(work, name)
    r = run([STOKE, "record", "-o", out, "--collect-only", "--", CPU_BURN, "1", threads])
    expect(r.returncode == 0, "stoke record failed", describe(r))
    return out


def folded(path, *options):
    """{stack tuple: value} of stoke report --folded."""
    return report_folded(path, options)[0].stacks


def self_and_total(stacks):
    """Per function (process roots left out): self and total values."""
    self_v, total_v = collections.Counter(), collections.Counter()
    for stack, value in stacks.items():
        code = stack[1:]
        if not code:
            continue
        self_v[code[-1]] += value
        for name in set(code):
            total_v[name] += value
    return self_v, total_v


# --- readers ----------------------------------------------------------------

def protoc_decode(pb_gz):
    with open(pb_gz, "rb") as f:
        raw = gzip.decompress(f.read())
    r = run(["protoc", "--decode=perftools.profiles.Profile",
             f"--proto_path={os.path.dirname(PROTO)}", PROTO], input=raw)
    expect(r.returncode == 0, f"protoc cannot decode {pb_gz}", describe(r))
    return parse_text_format(r.stdout.decode())


def parse_text_format(text):
    """protobuf text format -> {field: [values or dicts]}."""
    root, stack = collections.defaultdict(list), []
    node = root
    for line in text.splitlines():
        line = line.strip()
        if line.endswith("{"):
            child = collections.defaultdict(list)
            node[line[:-1].strip()].append(child)
            stack.append(node)
            node = child
        elif line == "}":
            node = stack.pop()
        elif line:
            key, value = line.split(":", 1)
            value = value.strip()
            node[key].append(json.loads(value) if value.startswith('"') else value)
    return root


def go_env(work):
    env = dict(os.environ)
    env.update(GOCACHE=os.path.join(work, "gocache"), GOPATH=os.path.join(work, "gopath"),
               GOFLAGS="-mod=mod", GOPROXY="off", HOME=work, PPROF_TMPDIR=work,
               PPROF_BINARY_PATH=work)
    return env


def go_pprof_top(work, pb_gz, sample_index):
    """{function: (flat, cum)} and the total, from go tool pprof -top."""
    in_bytes = ["-unit=byte"] if sample_index.endswith("_space") else []  # not kB, MB
    r = run(["go", "tool", "pprof", "-top", "-symbolize=none", "-nodefraction=0", *in_bytes,
             "-nodecount=100000", f"-sample_index={sample_index}", pb_gz], env=go_env(work))
    expect(r.returncode == 0, "go tool pprof failed", describe(r))
    out = r.stdout.decode()
    total = re.search(r"of (\d+)B? total", out)
    expect(total, "go tool pprof printed no total", out)
    rows = {}
    for line in out.splitlines():
        m = re.match(r"\s*(\d+)B?\s+\S+%\s+\S+%\s+(\d+)B?\s+\S+%\s+(.*)$", line)
        if m:
            rows[m.group(3).removesuffix(" (inline)")] = (int(m.group(1)), int(m.group(2)))
    return rows, int(total.group(1))


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


def strings_of(decoded):
    return decoded["string_table"]


def number(message, key):
    """A number field of a decoded message (text format leaves out zeros)."""
    return int(message.get(key, ["0"])[0])


def string(decoded, message, key):
    return strings_of(decoded)[number(message, key)]


def value_types(decoded, field="sample_type"):
    return [f"{string(decoded, t, 'type')}/{string(decoded, t, 'unit')}"
            for t in decoded[field]]


# --- cases ------------------------------------------------------------------

def expect_pprof_matches_folded(work, pb_gz, stacks, sample_index="samples"):
    """go tool pprof -top: same functions, self, total and grand total."""
    rows, total = go_pprof_top(work, pb_gz, sample_index)
    self_v, total_v = self_and_total(stacks)
    expect(total == sum(stacks.values()), "go tool pprof's total is not stoke's",
           f"pprof {total}, stoke {sum(stacks.values())}")
    hottest = [name for name, _ in self_v.most_common(5)]
    for name in total_v:
        expect(name in rows, f"go tool pprof lacks {name}", str(rows))
        expect(rows[name] == (self_v[name], total_v[name]),
               f"{name}: go tool pprof's flat/cum differ from stoke's self/total",
               f"pprof {rows[name]}, stoke {(self_v[name], total_v[name])}")
    pprof_hottest = sorted(rows, key=lambda n: -rows[n][0])[:len(hottest)]
    expect({rows[n][0] for n in pprof_hottest} == {self_v[n] for n in hottest},
           "the hottest functions differ", f"{pprof_hottest} vs {hottest}")


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
    expect(("sym_target", build_id) in mapped, "sym_target's mapping carries its build-id",
           str(mapped))
    expect(string(d, d["mapping"][0], "filename") == "sym_target",
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


def case_speedscope(work):
    rec = cpu_burn_recording(work, threads="2")
    out = os.path.join(work, "burn.speedscope.json")
    stoke_ok("report", rec, "--format", "speedscope", "-o", out)
    checked = node_check("speedscope", out)
    expect(checked["valid"], "speedscope's schema refuses the file", json.dumps(checked))
    stacks = folded(rec)
    profiles = checked["profiles"]
    expect(len(profiles) == 1 and profiles[0]["unit"] == "nanoseconds",
           "one profile for the one process, in nanoseconds", json.dumps(profiles))
    doc = json.load(open(out))
    frames = doc["shared"]["frames"]
    expect(any(f.get("file", "").endswith("cpu_burn.c") and f.get("line") for f in frames),
           "frames carry file and line")
    rebuilt = collections.Counter()
    for sample, weight in zip(doc["profiles"][0]["samples"], doc["profiles"][0]["weights"]):
        rebuilt[tuple(frames[i]["name"] for i in sample)] += weight
    code_stacks = collections.Counter()
    for stack, value in stacks.items():
        code_stacks[stack[1:]] += value
    per_sample = {w // v for s, w in rebuilt.items() for v in [code_stacks[s]] if v}
    expect(len(per_sample) == 1, "every weight is samples x one period", str(per_sample))
    period = per_sample.pop()
    expect({s: w // period for s, w in rebuilt.items()} == code_stacks,
           "speedscope's stacks are stoke's")
    expect(checked["profiles"][0]["total"] == sum(stacks.values()) * period, "same totals")
    expect_opens_in_speedscope(out, doc["name"], work)

    stoke_ok("report", rec, "--threads", "--format", "speedscope", "-o", out)
    checked = node_check("speedscope", out)
    expect(checked["valid"] and len(checked["profiles"]) >= 2,
           "--threads: one profile per thread", json.dumps(checked["profiles"]))
    expect(sum(p["total"] for p in checked["profiles"]) == sum(stacks.values()) * period,
           "--threads: same totals")

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


def flip_build_id(work):
    """A copy of sym_target whose build-id differs by one byte."""
    copy = os.path.join(work, "sym_target")
    shutil.copy(SYM_TARGET, copy)
    notes = run(["readelf", "-n", SYM_TARGET]).stdout.decode()
    build_id = bytes.fromhex(re.search(r"Build ID: ([0-9a-f]+)", notes).group(1))
    data = bytearray(open(copy, "rb").read())
    at = data.find(build_id)
    data[at] ^= 0xff
    open(copy, "wb").write(data)
    return copy


def case_merge(work):
    a, b = cpu_burn_recording(work, "a"), cpu_burn_recording(work, "b", threads="2")
    merged = os.path.join(work, "merged.folded")
    stoke_ok("merge", a, b, "-o", merged)
    got = collections.Counter()
    for line in open(merged).read().splitlines():
        stack, value = line.rsplit(" ", 1)
        got[tuple(stack.split(";"))] += int(value)
    expect(got == folded(a) + folded(b), "merge is the sum of its inputs' folded stacks")
    stoke_ok("merge", a, b, "-o", os.path.join(work, "merged.html"))
    expect(os.path.getsize(os.path.join(work, "merged.html")) > 1000, "merge writes HTML")
    pb = os.path.join(work, "merged.pb.gz")
    stoke_ok("merge", a, b, "-o", pb)
    expect_pprof_matches_folded(work, pb, folded(a) + folded(b))

    one = sym_trace(work, "one.stoke")
    other = sym_trace(work, "other.stoke", exe=flip_build_id(work))
    r = stoke_ok("merge", one, other, "--format", "pprof", "-o", pb)
    expect(b"build-id differs" not in r.stderr, "each trace is symbolized by its own binary",
           describe(r))
    d = protoc_decode(pb)
    ids = {string(d, m, "build_id") for m in d["mapping"]
           if string(d, m, "filename") == "sym_target"}
    expect(len(ids) == 2, "two builds of sym_target are two mappings, kept apart", str(ids))
    stacks = folded(one) + folded(other)
    expect_pprof_matches_folded(work, pb, stacks)


class Ingest(http.server.BaseHTTPRequestHandler):
    """Records each request; answers as the server's mode says."""
    requests = []
    mode = "ok"

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        Ingest.requests.append((self.command, self.path, dict(self.headers), body))
        if Ingest.mode == "hang":
            threading.Event().wait(3)
            return
        status, text = {"ok": (200, b"ok"), "bad": (400, b"invalid profile: bad name\n"),
                        "down": (503, b"ingester unavailable")}[Ingest.mode]
        self.send_response(status)
        self.send_header("Content-Length", str(len(text)))
        self.end_headers()
        self.wfile.write(text)

    def log_message(self, *args):
        pass


def serve():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Ingest)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def profile_part(headers, body):
    msg = email.parser.BytesParser().parsebytes(
        f"Content-Type: {headers['Content-Type']}\r\n\r\n".encode() + body)
    for part in msg.get_payload():
        if part.get_param("name", header="content-disposition") == "profile":
            return part.get_payload(decode=True)
    return None


def without_proxies():
    """The environment without proxy settings, which libcurl would follow
    even to 127.0.0.1."""
    return {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}


def case_push(work):
    trace = sym_trace(work)
    env = without_proxies()
    server = serve()
    port = server.server_address[1]
    url = f"http://stoke-user:s3cret-pw@127.0.0.1:{port}"
    r = run([STOKE, "push", "--url", url, "--name", "myapp", "--label", "host=web-1",
             "--label", "region=eu", trace], env=env)
    expect(r.returncode == 0, "push to a server that answers 200", describe(r))
    expect(b"HTTP 200" in r.stderr, "push reports the server's answer", describe(r))
    method, path, headers, body = Ingest.requests[-1]
    parsed = urllib.parse.urlsplit(path)
    query = urllib.parse.parse_qs(parsed.query)
    expect(method == "POST" and parsed.path == "/ingest", "POST /ingest", path)
    expect(query["name"] == ["myapp{host=web-1,region=eu}"], "name=APP{labels}", str(query))
    expect(query["from"] == [str(START_S)] and int(query["until"][0]) > START_S,
           "from and until are the trace's", str(query))
    expect(query["format"] == ["pprof"] and query["sampleRate"] == ["997"] and
           query["spyName"] == ["stoke"], "format, sampleRate, spyName", str(query))
    expect(headers["Content-Type"].startswith("multipart/form-data; boundary="),
           "the profile goes as multipart/form-data", headers["Content-Type"])
    expect(headers.get("Authorization", "").startswith("Basic "),
           "user:password@ becomes basic authentication")
    profile = profile_part(headers, body)
    expect(profile, "a form file field named profile")
    open(os.path.join(work, "pushed.pb.gz"), "wb").write(profile)
    expect_pprof_matches_folded(work, os.path.join(work, "pushed.pb.gz"), folded(trace))

    outputs = [r.stdout + r.stderr]
    for mode, want in (("bad", b"HTTP 400: invalid profile: bad name"),
                       ("down", b"HTTP 503: ingester unavailable"),
                       ("hang", b"no answer from")):
        Ingest.mode = mode
        r = run([STOKE, "push", "--url", url, "--name", "myapp", "--timeout", "1", trace], env=env)
        outputs.append(r.stdout + r.stderr)
        expect(r.returncode == 1 and want in r.stderr, f"a {mode} server: exit 1, clear error",
               describe(r))
    server.shutdown()
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    r = run([STOKE, "push", "--url", f"http://stoke-user:s3cret-pw@127.0.0.1:{closed}",
             "--name", "myapp", trace], env=env)
    outputs.append(r.stdout + r.stderr)
    expect(r.returncode == 1 and b"cannot connect to http://127.0.0.1:" in r.stderr,
           "a refused connection: exit 1, clear error", describe(r))
    r = run([STOKE, "push", "--url", "ftp://stoke-user:s3cret-pw@host/", "--name", "a", trace], env=env)
    outputs.append(r.stdout + r.stderr)
    expect(r.returncode == 2, "a URL that is not http(s) is a usage error", describe(r))
    for out in outputs:
        expect(b"s3cret-pw" not in out and b"stoke-user" not in out,
               "push never prints the URL's credentials", out.decode(errors="replace"))


def expect_fails(args, status, *phrases, cwd=None):
    r = run([STOKE, *args], cwd=cwd)
    expect(r.returncode == status, f"stoke {' '.join(args)} exits {status}", describe(r))
    for phrase in phrases:
        expect(phrase.encode() in r.stderr, f"its message says {phrase!r}", describe(r))
    expect(b"Segmentation" not in r.stderr and r.returncode >= 0, "no crash", describe(r))


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
    expect_fails(["merge"], 2, "give the traces to merge")
    expect_fails(["merge", os.path.join(work, "missing.stoke"), "-o", "m.pb.gz"], 1,
                 "missing.stoke", cwd=work)
    expect_fails(["push", "--name", "a", trace], 2, "--url")
    expect_fails(["push", "--url", "http://127.0.0.1:9", trace], 2, "--name")
    expect_fails(["push", "--url", "http://127.0.0.1:9", "--name", "a", "--label", "novalue",
                  trace], 2, "--label 'novalue'")
    expect_fails(["push", "--url", "http://127.0.0.1:9", "--name", "a{b}", trace], 2, "--name")
    expect_fails(["push", "--url", "http://127.0.0.1:9", "--name", "a", "--timeout", "0",
                  trace], 2, "--timeout")
    expect_fails(["push", "--url", "http://127.0.0.1:9", "--name", "a", empty], 1,
                 "holds no samples")


def case(fn):
    """The case as e2e_support's main runs it: in a fresh directory."""
    name = fn.__name__[len("case_"):]
    return name, lambda: fn(fresh_dir(name))


if __name__ == "__main__":
    sys.exit(main(dict(case(fn) for name, fn in list(globals().items())
                       if name.startswith("case_"))))

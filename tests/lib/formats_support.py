"""formats_support.py - what the tests of stoke's files in other tools'
formats share (tests/formats, and the merge and push tests of tests/cli):
the traces they start from (tests/tools/make_trace's of sym_target, heap
snapshots, a real recording of the cpu_burn example), reading pprof files
as protoc and go tool pprof do, and checking a pprof file against
`stoke report --folded` of the same traces. Environment: see
tests/CMakeLists.txt (stoke_driver_tests); e2e_support.py runs each case.
Never tests anything itself.
"""
import collections
import gzip
import json
import os
import re

from e2e_support import STOKE, describe, expect, fresh_dir, main, report_folded, run

MAKE_TRACE = os.environ["FMT_MAKE_TRACE"]
SYM_TARGET = os.environ["FMT_SYM_TARGET"]
CPU_BURN = os.environ["FMT_CPU_BURN"]
PROTO = os.environ["FMT_PROFILE_PROTO"]
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


def expect_fails(args, status, *phrases, cwd=None):
    r = run([STOKE, *args], cwd=cwd)
    expect(r.returncode == status, f"stoke {' '.join(args)} exits {status}", describe(r))
    for phrase in phrases:
        expect(phrase.encode() in r.stderr, f"its message says {phrase!r}", describe(r))
    expect(b"Segmentation" not in r.stderr and r.returncode >= 0, "no crash", describe(r))



def case(fn):
    """The case as e2e_support's main runs it: in a fresh directory."""
    name = fn.__name__[len("case_"):]
    return name, lambda: fn(fresh_dir(name))


def run_cases(namespace):
    """Runs the case argv[1] names among the case_* functions of namespace
    (a driver's globals()); returns the exit status."""
    return main(dict(case(fn) for name, fn in list(namespace.items())
                     if name.startswith("case_")))

#!/usr/bin/env python3
"""test_matrix.py - real programs from Debian, each run three times on the
same fresh input: bare, under `stoke record --heap` (CPU samples and sampled
heap tracking) and under `stoke record --heap-interval 1` (every allocation
tracked). Each profiled run must match the bare one: stdout byte for byte,
the exit status, and stderr once stoke's own lines are taken out. Each
profiled run must also have left traces that report (the HTML report of
every trace and snapshot, `stoke report DIR --folded`, the first process's
exit snapshot by each measure), naming the program's own functions: by name where Debian ships them in the symbol tables, as
module+offset where it ships none (git, the sqlite3 and xz front ends, and
liblzma's internal functions, where xz's threads spend their time).

  python3  json, re, hashlib and a thread pool, on /usr/bin/python3
  perl     hashes, regular expressions, sort and sprintf
  git      init, add, commit, diff, log, gc and fsck on a new repository
  sqlite3  5000 inserts in a transaction, an index, queries
  xz       -T2: two compressing threads
  gcc      compiles, links and runs a C program (gcc, cc1, as, collect2, ld)
  node     Map, JSON, zlib and a promise
  bash     pipelines, command and process substitution, a read loop
  redis    redis-server on 127.0.0.1 under redis-benchmark, then redis-cli

The runtimes servers run on, each with a program of ours, twice in every
recording mode (transparency_support.RECORDING_MODES: crashes under signals
are intermittent):

  go       a cgo program (Debian's golang-go): four goroutines computing on
           their 2 KiB-grown stacks, C.malloc, os.Exit (the raw exit_group);
           the profile names main.spin on whole goroutine stacks (from
           runtime.goexit). Go's runtime takes every signal over, and leaves
           through exit_group, so its heap modes have no snapshot to check
  go_static a Go program without cgo (go_static.go): statically linked, no preload
           reaches it; it runs as bare and stoke says so in one line
  jvm      four Java threads computing and allocating on Debian's default
           JDK (guard pages at the low end of every thread stack); the
           compiled Java method is named, on whole stacks, with no flag from
           the user, and the JVM's stderr is as bare (no notice of stoke's
           JAVA_TOOL_OPTIONS)
  sandboxed_strict, sandboxed_strict_raw, sandboxed_filter
           a program that enters seccomp strict mode (prctl or the seccomp
           system call) or a filter that kills it on any system call it
           does not need, then computes (programs/sandboxed.c)

usage: test_matrix.py CASE
"""
import os
import random
import re
import socket
import subprocess
import time

from e2e_support import (PROGRAMS, STOKE, TestFailure, describe, expect, free_port, fresh_dir,
                         kill_quietly, main, program, report_folded, run, text)
from heap_support import MEASURES, SEED, exit_snapshot, measure, snapshots
from transparency_support import RECORDING_MODES, expect_same_as_bare

MODES = (("heap", ("--heap",)), ("exact", ("--heap-interval", "1")))
HEAP_MODES = ("heap", "exact")
RUN_TIMEOUT_S = 60
SNAPSHOTS_SEARCHED = 8


# --- the programs -----------------------------------------------------------------

class Case:
    """A program's inputs (setup writes them into an empty directory), how
    it runs (argv, or a function of (directory, prefix, env) returning a
    CompletedProcess) and what its reports must name: cpu and heap are lists
    of (comm, frame matcher, what) that must hold in some process of that
    comm, in the CPU profile and in the exact run's heap snapshots. modes
    and runs: how it is recorded, how many times each; snapshots: whether
    its heap modes leave exit snapshots; check: more to hold of the CPU
    profile (a function of the Folded stacks and what)."""

    def __init__(self, setup, command, cpu, heap, env=None, modes=MODES, runs=1,
                 snapshots=True, check=None):
        self.setup, self.command, self.cpu, self.heap = setup, command, cpu, heap
        self.env = env or {}
        self.modes, self.runs, self.snapshots, self.check = modes, runs, snapshots, check

    def run(self, directory, prefix, env):
        if callable(self.command):
            return self.command(directory, prefix, env)
        return run([*prefix, *self.command], cwd=directory, env=env, timeout=RUN_TIMEOUT_S)


def named(name):
    return name, lambda frame: frame == name


def named_prefix(prefix):
    """A C++ function or method, whatever its parameters."""
    return prefix, lambda frame: frame.startswith(prefix)


def module_offset(module):
    """An address of a module without symbols, shown as module+0xoffset."""
    return f"{module}+0x...", lambda frame: re.fullmatch(re.escape(module) + r"\+0x[0-9a-f]+",
                                                         frame) is not None


def write(directory, name, content):
    with open(os.path.join(directory, name), "w" if isinstance(content, str) else "wb") as f:
        f.write(content)


def no_inputs(directory):
    pass


PYTHON_SCRIPT = """
import hashlib, json, re
from concurrent.futures import ThreadPoolExecutor
records = [{"id": i, "name": f"item{i}", "tags": ["t%d" % (i % 7)] * (i % 5)} for i in range(40000)]
encoded = json.dumps(records)
decoded = json.loads(encoded)
words = re.findall(r"item(\\d+)7\\b", encoded)
def digest(i):
    return hashlib.sha256(encoded[i::4].encode()).hexdigest()[:12]
with ThreadPoolExecutor(max_workers=4) as pool:
    digests = list(pool.map(digest, range(4)))
print(len(encoded), len(decoded), len(words), " ".join(digests))
"""

PERL_SCRIPT = r"""
my %count;
for my $i (1 .. 150000) {
    my $key = sprintf("k%05d", $i % 9973);
    $count{$key} .= chr(65 + $i % 26);
}
my @sorted = sort { length($count{$b}) <=> length($count{$a}) || $a cmp $b } keys %count;
my $vowels = 0;
$vowels += () = $count{$_} =~ /[AEIOU]/g for @sorted;
print scalar(@sorted), " $sorted[0] $sorted[-1] $vowels\n";
"""

GIT_SCRIPT = """
set -e
git init -q -b main repo
cd repo
for i in $(seq 1 60); do echo "line $i" > "f$i.txt"; done
git add .
git commit -q -m first
sed -i s/line/LINE/ f1*.txt
git commit -q -am second
git log --oneline
git diff --stat HEAD~1 | tail -n 1
git gc -q
git count-objects -v | grep -v size
git fsck --no-progress
git cat-file -p HEAD:f42.txt
"""

# Fixed names and dates: commit ids then depend on the content only.
GIT_ENV = {"GIT_AUTHOR_NAME": "stoke", "GIT_AUTHOR_EMAIL": "stoke@example.org",
           "GIT_COMMITTER_NAME": "stoke", "GIT_COMMITTER_EMAIL": "stoke@example.org",
           "GIT_AUTHOR_DATE": "2024-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2024-01-01T00:00:00Z",
           "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null"}


def sqlite_inputs(directory):
    lines = ["create table items(id integer primary key, name text, price real);", "begin;"]
    lines += [f"insert into items(name, price) values('item{i}', {i % 97}.5);"
              for i in range(5000)]
    lines += ["commit;", "create index by_price on items(price);",
              "select count(*), sum(price), max(name) from items;",
              "select price, count(*) from items where price > 90 group by price;"]
    write(directory, "script.sql", "\n".join(lines) + "\n")


def xz_inputs(directory):
    generator = random.Random(7)
    words = [bytes(generator.choices(b"abcdefghij", k=generator.randint(2, 9))) for _ in range(500)]
    write(directory, "input", b" ".join(generator.choices(words, k=400_000)))


C_PROGRAM = """
#include <stdio.h>
#include <stdlib.h>
static int compare(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }
int main(void)
{
    int values[1000];
    for (int i = 0; i < 1000; i++) values[i] = (i * 7919) % 1000;
    qsort(values, 1000, sizeof values[0], compare);
    printf("%d %d %d\\n", values[0], values[500], values[999]);
    return 0;
}
"""

NODE_SCRIPT = """
const zlib = require('zlib');
const items = new Map();
for (let i = 0; i < 100000; i++) items.set('k' + i, {i, s: 'x'.repeat(i % 30)});
let sum = 0;
for (const v of items.values()) sum += v.i + v.s.length;
const json = JSON.stringify([...items.entries()].slice(0, 20000));
const packed = zlib.gzipSync(json, {level: 6});
Promise.resolve(zlib.gunzipSync(packed).length).then(n => console.log(sum, json.length, n));
"""

BASH_SCRIPT = r"""
set -o pipefail
sort -rn numbers | head -n 5 | tr '\n' ' '; echo
awk '{ s += $1 } END { print s }' numbers | tr 0-9 a-j
count=0
while read -r n; do (( n % 1000 == 0 )) && count=$((count + 1)); done < numbers
echo "multiples of 1000: $count"
diff <(seq 1 100) <(seq 1 100 | sort -n) && echo same
words=$(grep -c 7 numbers)
echo "with a 7: $words"
seq 1 20000 | paste -sd+ | bc
"""


def bash_inputs(directory):
    write(directory, "numbers", "".join(f"{(i * 7919) % 100003}\n" for i in range(10000)))


# --- redis: a server under load ------------------------------------------------------

REDIS_REQUESTS = "2000"
REDIS_PORT_ATTEMPTS = 5
REDIS_LOG_PREFIX = re.compile(rb"^\d+:[A-Z] \d\d [A-Za-z]{3} \d{4} [\d:.]+ ", re.M)


def serving(port, server, directory, timeout=10.0):
    """True once this server listens on port, False if it ended (the port
    was taken meanwhile). Another server that took the port is not it:
    each runs in its own directory."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and server.poll() is None:
        with socket.socket() as s:
            listening = s.connect_ex(("127.0.0.1", port)) == 0
        if listening:
            answer = run(["redis-cli", "-h", "127.0.0.1", "-p", str(port), "CONFIG", "GET", "dir"])
            return os.path.realpath(directory).encode() in answer.stdout
        time.sleep(0.05)
    expect(server.poll() is not None, f"redis-server did not listen on 127.0.0.1:{port} "
           f"within {timeout} s")
    return False


def redis_cli(port, *command):
    result = run(["redis-cli", "-h", "127.0.0.1", "-p", str(port), *command])
    expect(result.returncode == 0, f"redis-cli {' '.join(command)} failed", describe(result))
    return result.stdout


def start_redis(directory, prefix, env):
    """redis-server listening on a free port; returns (process, port)."""
    for _ in range(REDIS_PORT_ATTEMPTS):
        port = free_port()
        server = subprocess.Popen([*prefix, "redis-server", "--port", str(port), "--bind",
                                   "127.0.0.1", "--save", "", "--appendonly", "no",
                                   "--loglevel", "warning"], cwd=directory, env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if serving(port, server, directory):
            return server, port
        stop(server)
    raise TestFailure(f"redis-server found no free port in {REDIS_PORT_ATTEMPTS} attempts")


def stop(server):
    if server.poll() is None:
        kill_quietly(server.pid)
        server.wait()


def redis_session(directory, prefix, env):
    """redis-server under load, asked a few questions, shut down: its
    output (timestamps and pid taken out) after redis-cli's answers."""
    server, port = start_redis(directory, prefix, env)
    try:
        bench = run(["redis-benchmark", "-h", "127.0.0.1", "-p", str(port), "-n", REDIS_REQUESTS,
                     "-c", "4", "-q", "-t", "set,get,incr,lpush,lrange_100"])
        expect(bench.returncode == 0, "redis-benchmark failed", describe(bench))
        answers = b"".join(redis_cli(port, *c) for c in (
            ("GET", "counter:__rand_int__"), ("LLEN", "mylist"), ("DBSIZE",)))
        redis_cli(port, "SHUTDOWN", "NOSAVE")
        stdout, stderr = server.communicate(timeout=RUN_TIMEOUT_S)
    finally:
        stop(server)
    log = re.sub(rb"pid=\d+", b"pid=<pid>", REDIS_LOG_PREFIX.sub(b"", stdout))
    return subprocess.CompletedProcess(server.args, server.returncode, answers + log, stderr)


CASES = {
    "python3": Case(
        lambda d: write(d, "work.py", PYTHON_SCRIPT), ["/usr/bin/python3", "work.py"],
        cpu=[("python3", *named("Py_BytesMain"))],
        heap=[("python3", *named("PyEval_EvalCode")), ("python3", *named("PyUnicode_New"))]),
    "perl": Case(
        lambda d: write(d, "work.pl", PERL_SCRIPT), ["perl", "work.pl"],
        cpu=[("perl", *named("perl_run"))],
        heap=[("perl", *named("Perl_safesysmalloc")), ("perl", *named("perl_run"))]),
    "git": Case(
        lambda d: write(d, "work.sh", GIT_SCRIPT), ["sh", "work.sh"],
        cpu=[("git", *module_offset("git"))],
        heap=[("git", *module_offset("git")), ("sh", *module_offset("dash"))],
        env=GIT_ENV),
    "sqlite3": Case(
        sqlite_inputs, ["sh", "-c", "sqlite3 items.db < script.sql"],
        cpu=[("sqlite3", *module_offset("sqlite3"))],
        heap=[("sqlite3", *named("sqlite3_step")), ("sqlite3", *named("sqlite3Malloc"))]),
    "xz": Case(
        xz_inputs, ["xz", "-T2", "--block-size=512KiB", "-3", "-c", "input"],
        cpu=[("xz", *module_offset("liblzma.so.5"))],
        heap=[("xz", *named("lzma_stream_encoder_mt")), ("xz", *module_offset("xz"))]),
    "gcc": Case(
        lambda d: write(d, "prog.c", C_PROGRAM),
        ["sh", "-c", "gcc -O2 -c prog.c -o prog.o && gcc prog.o -o prog && ./prog && "
                     "sha256sum prog.o"],
        cpu=[("cc1", *named("toplev::main(int, char**)"))],
        heap=[("cc1", *named("xmalloc")), ("as", *module_offset("x86_64-linux-gnu-as")),
              ("ld", *named_prefix("bfd_"))]),
    "node": Case(
        lambda d: write(d, "work.js", NODE_SCRIPT), ["node", "work.js"],
        cpu=[("node", *named_prefix("node::Start("))],
        heap=[("node", *named_prefix("node::Start(")), ("node", *named_prefix("v8::"))]),
    "bash": Case(
        lambda d: (bash_inputs(d), write(d, "work.sh", BASH_SCRIPT)), ["bash", "work.sh"],
        cpu=[("bash", *named("execute_command"))],
        heap=[("bash", *named("xmalloc")), ("bash", *named("execute_command")),
              ("sort", *module_offset("sort")), ("bc", *module_offset("bc"))]),
    "redis": Case(
        no_inputs, redis_session,
        cpu=[("redis-server", *named("aeMain"))],
        heap=[("redis-server", *named("zmalloc")), ("redis-server", *named("processCommand"))]),
}


# --- the runtimes ---------------------------------------------------------------------

RUNTIME_RUNS = 2
GOROUTINE_ROOT = "runtime.goexit.abi0"
WHOLE_STACK_SHARE = 0.9


def goroutine_stacks(folded, what):
    """main.spin's samples are on whole goroutine stacks: from the
    goroutine's start (runtime.goexit) down to main.spin."""
    spin = folded.with_frame("main.spin")
    whole = sum(n for s, n in folded.stacks.items() if "main.spin" in s and GOROUTINE_ROOT in s)
    expect(spin and whole >= WHOLE_STACK_SHARE * spin,
           f"{what}: {whole} of main.spin's {spin} samples have a whole goroutine stack "
           f"(from {GOROUTINE_ROOT})", folded.top())


JAVA_WORK = "JvmWorkers.work(int, int)"
JAVA_THREAD_ROOT = "JavaThread::thread_main_inner()"
JAVA_INTERPRETER = "Interpreter"  # HotSpot's template interpreter, as its perf map names it


def java_methods(folded, what):
    """The JIT-compiled Java method is named (the JVM's perf map, which stoke
    asks for) and holds most samples on CPU outside the interpreter (with the
    wall clock, the JVM's waiting threads have many more; how long the
    workers stay interpreted depends on when the busy machine lets the
    compiler threads run, and interpreted code has no name in any perf
    map), on whole stacks down to the thread's start (frame pointers kept
    in compiled code)."""
    work = folded.with_frame(JAVA_WORK)
    whole = sum(n for s, n in folded.stacks.items() if JAVA_WORK in s and JAVA_THREAD_ROOT in s)
    compiled = sum(n for s, n in folded.stacks.items()
                   if "futex" not in s[-1] and s[-1] != JAVA_INTERPRETER)
    expect(work >= 0.5 * compiled, f"{what}: {JAVA_WORK} holds {work} of the {compiled} "
           "samples on CPU outside the interpreter, expected at least half", folded.top())
    expect(whole >= WHOLE_STACK_SHARE * work, f"{what}: {whole} of {JAVA_WORK}'s {work} "
           f"samples have a whole stack (from {JAVA_THREAD_ROOT})", folded.top())


def java(directory, prefix, env):
    return run([*prefix, "java", "-cp", PROGRAMS, "JvmWorkers"], cwd=directory, env=env,
               timeout=RUN_TIMEOUT_S)


def runtime_case(command, cpu, heap=(), **more):
    return Case(no_inputs, command, cpu=list(cpu), heap=list(heap), modes=RECORDING_MODES,
                runs=RUNTIME_RUNS, **more)


def sandboxed(mode):
    return runtime_case([program("sandboxed"), mode],
                        cpu=[("sandboxed", *named("compute_in_sandbox"))])


RUNTIME_CASES = {
    "go": runtime_case([program("go_workers")], cpu=[("go_workers", *named("main.spin"))],
                       snapshots=False, check=goroutine_stacks),
    "jvm": runtime_case(java, cpu=[("java", *named(JAVA_THREAD_ROOT))],
                        heap=[("java", *named_prefix("os::malloc("))], check=java_methods),
    "sandboxed_strict": sandboxed("strict"),
    "sandboxed_strict_raw": sandboxed("strict_raw"),
    "sandboxed_filter": sandboxed("filter"),
}


def check_go_static():
    """A static Go binary runs as bare; stoke says in one line why it has
    no profile."""
    work = fresh_dir("go_static")
    bare = run([program("go_static")], cwd=work, timeout=RUN_TIMEOUT_S)
    expect(bare.returncode == 0, "go_static fails without stoke", describe(bare))
    profiled = run([STOKE, "record", "-o", os.path.join(work, "out"), "--", program("go_static")],
                   cwd=work, timeout=RUN_TIMEOUT_S)
    expect_same_as_bare(bare, profiled, "go_static under stoke record", stoke_may_fail=True)
    said = [line for line in text(profiled.stderr).splitlines() if "statically linked" in line]
    expect(len(said) == 1, "stoke did not say once that go_static is statically linked",
           describe(profiled))


# --- checks ----------------------------------------------------------------------

def roots_of(folded, comm):
    return [r for r in folded.roots() if r.startswith(f"{comm} (")]


def expect_named(folded, comm, match, name, what):
    roots = roots_of(folded, comm)
    expect(roots, f"{what}: no process {comm} in the profile", "\n".join(folded.roots()))
    expect(any(folded.with_frame(match, r) for r in roots),
           f"{what}: no stack of {comm} names {name}", folded.top(20))


def expect_snapshots_report(out, what):
    """Every heap snapshot is in the HTML report stoke record made; the
    first process's last one also reports by every measure. Returns them."""
    taken = [path for _, path in snapshots(out)]
    expect(taken, f"{what}: no heap snapshot in {out}", " ".join(sorted(os.listdir(out))))
    first_pid = min(int(os.path.basename(p).split(".")[-5]) for p in taken)
    for name in MEASURES:
        measure(exit_snapshot(out, first_pid), name)
    return taken


def expect_heap_named(taken, comm, match, name, what):
    """Some snapshot of comm (of the first few) names the function."""
    mine = [p for p in taken if os.path.basename(p).startswith(f"{comm}.")][:SNAPSHOTS_SEARCHED]
    expect(mine, f"{what}: no heap snapshot of {comm}", " ".join(taken))
    allocated = []
    for path in mine:
        allocated.append(measure(path, "alloc-bytes"))
        if allocated[-1].with_frame(match):
            return
    raise TestFailure(f"{what}: no allocation stack of {comm} names {name}\n" +
                      "\n\n".join(a.top(15) for a in allocated))


def expect_reports(case, out, mode, what):
    expect(os.path.exists(os.path.join(out, "flamegraph.html")),
           f"{what}: stoke record wrote no flamegraph.html")
    folded = report_folded(out)[0]
    expect(folded.total() > 0, f"{what}: the CPU profile is empty")
    for comm, name, match in case.cpu:
        expect_named(folded, comm, match, name, what)
    if case.check:
        case.check(folded, what)
    if mode not in HEAP_MODES or not case.snapshots:
        return
    taken = expect_snapshots_report(out, what)
    if mode == "exact":
        for comm, name, match in case.heap:
            expect_heap_named(taken, comm, match, name, what)


def check(name):
    case = CASES[name]
    work = fresh_dir(name)
    env = dict(os.environ, STOKE_HEAP_SEED=SEED, **case.env)

    def fresh_run(label, prefix):
        directory = os.path.join(work, label)
        os.makedirs(directory)
        case.setup(directory)
        return case.run(directory, prefix, env)

    bare = fresh_run("bare", [])
    expect(bare.returncode == 0, f"{name} fails without stoke", describe(bare))
    for mode, options in case.modes:
        for attempt in range(1, case.runs + 1):
            label = f"{mode}{attempt}"
            out = os.path.join(work, f"{label}.out")
            what = f"run {attempt} of {name} under stoke record {' '.join(options)}"
            profiled = fresh_run(label, [STOKE, "record", "-o", out, *options, "--"])
            expect_same_as_bare(bare, profiled, what)
            expect_reports(case, out, mode, what)


if __name__ == "__main__":
    CASES.update(RUNTIME_CASES)
    cases = {name: (lambda n=name: check(n)) for name in CASES}
    cases["go_static"] = check_go_static
    raise SystemExit(main(cases))

"""tools.py - the ways to run a workload that the benchmark compares: bare,
under bench/empty_sampler.c (the cost floor of signal sampling), under
stoke, under perf record, under gperftools' CPU profiler; and for the heap
figures: with bench/idle_thread.c (the cost floor of an agent's own
thread), stoke with its CPU sampling nearly off (-F 1: the agent's hooks
alone), stoke with heap tracking (sampled and exact), heaptrack,
gperftools' heap profiler, and tcmalloc alone (the allocator that profiler
swaps in, without the profiling).

Each tool says what it lacks on this machine (and which Debian package
brings it), how to wrap a command so it writes its output to a given path,
how much that output holds (CPU samples, or for heap tools the allocations
it accounts for) and how many bytes it takes. The stoke variants beyond
plain `stoke` bring their own CPU rate (-F 1, or stoke's default) and
ignore the workload's.
Owns: the exact command line of every tool. Never installs anything and
never decides what is measured: workloads do.
"""
import glob
import os
import re
import shutil
import subprocess

import gperf_heap
import gperf_profile
from runner import BenchError


class Bare:
    name = "bare"

    def missing(self):
        return None

    def command(self, argv, out, hz):
        return argv, {}

    def samples(self, out):
        return 0

    def output_bytes(self, out):
        return 0


class EmptySampler:
    name = "empty-sampler"

    def __init__(self, ctx):
        self.ctx = ctx

    def missing(self):
        return None

    def command(self, argv, out, hz):
        return argv, {"LD_PRELOAD": preloading(self.ctx.library("empty_sampler")),
                      "EMPTY_SAMPLER_HZ": str(hz),
                      "EMPTY_SAMPLER_OUTPUT": out}

    def samples(self, out):
        with open(out) as f:
            return int(f.read())

    def output_bytes(self, out):
        return 0


class IdleThread:
    """The program with bench/idle_thread.c preloaded: one extra thread that
    only sleeps (what any agent with a thread of its own makes glibc's
    malloc pay)."""
    name = "idle-thread"

    def __init__(self, ctx):
        self.ctx = ctx

    def missing(self):
        return None

    def command(self, argv, out, hz):
        return argv, {"LD_PRELOAD": preloading(self.ctx.library("idle_thread"))}

    def samples(self, out):
        return 0

    def output_bytes(self, out):
        return 0


class Stoke:
    """stoke record, at the workload's CPU sampling rate unless the tool has
    options of its own (then they are part of its name)."""

    def __init__(self, stoke, name="stoke", options=None):
        self.stoke = stoke
        self.name = name
        self.options = options

    def missing(self):
        return None  # the harness refuses to start without stoke's build

    def command(self, argv, out, hz):
        options = self.options if self.options is not None else ["-F", str(hz)]
        return [self.stoke, "record"] + options + ["--collect-only", "-o", out, "--"] + argv, {}

    def samples(self, out):
        return self.folded_total(out, [])

    def output_bytes(self, out):
        """The CPU traces and heap snapshots together."""
        return sum(os.path.getsize(p) for p in glob.glob(os.path.join(out, "*.stoke")))

    def folded_total(self, out, options):
        """The sum of the counts `stoke report OUT --folded OPTIONS` prints."""
        folded = subprocess.run([self.stoke, "report", out, "--folded"] + options, check=True,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        return sum(int(line.rsplit(" ", 1)[1]) for line in folded.stdout.splitlines() if line)


class StokeHeap(Stoke):
    """stoke record with heap tracking; counts the allocations its last
    snapshot (the one at exit) accounts for since the start: exact with
    --heap-interval 1, an unbiased estimate when sampled."""

    def samples(self, out):
        return self.folded_total(out, ["--measure", "alloc-objects"])


class Perf:
    name = "perf"

    def missing(self):
        return None if shutil.which("perf") else "not found: install the Debian package linux-perf"

    def command(self, argv, out, hz):
        return ["perf", "record", "-F", str(hz), "-g", "-o", out, "--"] + argv, {}

    def samples(self, out):
        # one line per sample: -F tid leaves the call chains out
        script = subprocess.run(["perf", "script", "-i", out, "-F", "tid"], check=True,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        return len(script.stdout.splitlines())

    def output_bytes(self, out):
        return os.path.getsize(out)


class Gperftools:
    name = "gperftools"

    def __init__(self):
        self.library = find_library("libprofiler.so.0")

    def missing(self):
        return library_missing(self.library, "libprofiler.so.0")

    def command(self, argv, out, hz):
        return argv, {"LD_PRELOAD": preloading(self.library), "CPUPROFILE": out,
                      "CPUPROFILE_FREQUENCY": str(hz)}

    def samples(self, out):
        return gperf_profile.sample_count(out)

    def output_bytes(self, out):
        return os.path.getsize(out)


class Heaptrack:
    """heaptrack as users run it: the program with heaptrack's preload, its
    interpreter process and a compressor (zstd when installed, else gzip)
    behind a pipe, writing OUT.zst or OUT.gz."""
    name = "heaptrack"

    def missing(self):
        if shutil.which("heaptrack") and shutil.which("heaptrack_print"):
            return None
        return "heaptrack not found: install the Debian package heaptrack"

    def command(self, argv, out, hz):
        return ["heaptrack", "-o", out] + argv, {}

    def samples(self, out):
        """The allocation calls heaptrack_print counts in the file."""
        summary = subprocess.run(["heaptrack_print", "-f", self.written(out), "-p", "0", "-a", "0",
                                  "-T", "0"], check=True, stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, text=True)
        found = re.search(r"calls to allocation functions: (\d+)", summary.stdout)
        if not found:
            raise BenchError("heaptrack_print printed no allocation count for %s" % out)
        return int(found.group(1))

    def output_bytes(self, out):
        return os.path.getsize(self.written(out))

    @staticmethod
    def written(out):
        found = glob.glob(out + ".*")
        if len(found) != 1:
            raise BenchError("heaptrack wrote %s instead of one %s.zst or .gz"
                             % (found or "nothing", out))
        return found[0]


class Tcmalloc:
    """The program on tcmalloc, nothing profiled: what gperftools' heap
    profiler costs beyond swapping the allocator."""
    name = "tcmalloc"

    def __init__(self):
        self.library = find_library("libtcmalloc.so.4")

    def missing(self):
        return library_missing(self.library, "libtcmalloc.so.4")

    def command(self, argv, out, hz):
        return argv, {"LD_PRELOAD": preloading(self.library)}

    def samples(self, out):
        return 0

    def output_bytes(self, out):
        return 0


class GperftoolsHeap(Tcmalloc):
    """gperftools' heap profiler: tcmalloc with HEAPPROFILE, which records
    every allocation and writes OUT.0001.heap, ... (one per GiB allocated,
    and at exit)."""
    name = "gperftools-heap"

    def command(self, argv, out, hz):
        return argv, {"LD_PRELOAD": preloading(self.library), "HEAPPROFILE": out}

    def samples(self, out):
        return gperf_heap.allocations_since_start(self.written(out)[-1])

    def output_bytes(self, out):
        return sum(os.path.getsize(p) for p in self.written(out))

    @staticmethod
    def written(out):
        found = sorted(glob.glob(out + ".*.heap"))
        if not found:
            raise BenchError("gperftools' heap profiler wrote no %s.*.heap" % out)
        return found


LIBRARY_DIRS = ["/usr/lib/*", "/usr/lib", "/usr/local/lib"]


def find_library(file_name):
    """The first of the usual library directories holding file_name, or None."""
    found = [p for d in LIBRARY_DIRS for p in sorted(glob.glob(os.path.join(d, file_name)))]
    return found[0] if found else None


def library_missing(path, file_name):
    if path:
        return None
    return "%s not found: install the Debian package libgoogle-perftools-dev" % file_name


def preloading(library):
    """LD_PRELOAD with library first, keeping what the environment preloads."""
    return " ".join(filter(None, [library, os.environ.get("LD_PRELOAD")]))


def all_tools(ctx):
    """Every tool, in the order the tables list them."""
    return [Bare(), EmptySampler(ctx), Stoke(ctx.stoke), Perf(), Gperftools(),
            IdleThread(ctx), Stoke(ctx.stoke, "stoke-F1", ["-F", "1"]),
            StokeHeap(ctx.stoke, "stoke-heap-F1", ["--heap", "-F", "1"]),
            StokeHeap(ctx.stoke, "stoke-heap", ["--heap"]),
            StokeHeap(ctx.stoke, "stoke-exact-F1", ["--heap-interval", "1", "-F", "1"]),
            Heaptrack(), Tcmalloc(), GperftoolsHeap()]

"""tools.py - the ways to run a workload that the benchmark compares: bare,
under bench/empty_sampler.c (the cost floor of signal sampling), under
stoke, under perf record, under gperftools' CPU profiler.

Each tool says what it lacks on this machine (and which Debian package
brings it), how to wrap a command so it writes its output to a given path,
how many samples that output holds and how many bytes it takes.
Owns: the exact command line of every tool. Never installs anything and
never decides what is measured: workloads do.
"""
import glob
import os
import shutil
import subprocess

import gperf_profile


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


class Stoke:
    name = "stoke"

    def __init__(self, stoke):
        self.stoke = stoke

    def missing(self):
        return None  # the harness refuses to start without stoke's build

    def command(self, argv, out, hz):
        return [self.stoke, "record", "-F", str(hz), "--collect-only", "-o", out, "--"] + argv, {}

    def samples(self, out):
        folded = subprocess.run([self.stoke, "report", out, "--folded"], check=True,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        return sum(int(line.rsplit(" ", 1)[1]) for line in folded.stdout.splitlines() if line)

    def output_bytes(self, out):
        return sum(os.path.getsize(p) for p in glob.glob(os.path.join(out, "*.stoke")))


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
    LIBRARY_PATTERNS = ["/usr/lib/*/libprofiler.so.0", "/usr/lib/libprofiler.so.0",
                        "/usr/local/lib/libprofiler.so.0"]

    def __init__(self):
        found = [p for pattern in self.LIBRARY_PATTERNS for p in sorted(glob.glob(pattern))]
        self.library = found[0] if found else None

    def missing(self):
        if self.library:
            return None
        return "libprofiler.so.0 not found: install the Debian package libgoogle-perftools-dev"

    def command(self, argv, out, hz):
        return argv, {"LD_PRELOAD": preloading(self.library), "CPUPROFILE": out,
                      "CPUPROFILE_FREQUENCY": str(hz)}

    def samples(self, out):
        return gperf_profile.sample_count(out)

    def output_bytes(self, out):
        return os.path.getsize(out)


def preloading(library):
    """LD_PRELOAD with library first, keeping what the environment preloads."""
    return " ".join(filter(None, [library, os.environ.get("LD_PRELOAD")]))


def all_tools(ctx):
    """Every tool, in the order the tables list them."""
    return [Bare(), EmptySampler(ctx), Stoke(ctx.stoke), Perf(), Gperftools()]

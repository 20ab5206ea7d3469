"""harness.py - the command line of stoke's benchmark (bench/run.sh runs it):
picks the workloads, says what this machine lacks, describes the machine,
runs each workload and prints its tables as Markdown.

Owns: options, the machine description and the scratch directory's life.
Never measures anything itself: workloads/ does, with runner.py.
"""
import argparse
import datetime
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

from context import Context
from runner import BenchError
from workloads import WORKLOADS

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="bench/run.sh",
        description="Runs stoke side by side with perf, gperftools and heaptrack on the same "
                    "workloads, interleaved, and prints medians and ratios as Markdown tables.",
        epilog="workloads: " + "; ".join("%s: %s" % (n, w.SUMMARY) for n, w in WORKLOADS.items()))
    parser.add_argument("workloads", nargs="*", metavar="workload",
                        help="workloads to run (default: all)")
    parser.add_argument("--build", default=os.path.join(REPO, "build"),
                        help="stoke's build directory (default: build/ of this checkout)")
    parser.add_argument("--rounds", type=int,
                        help="interleaved rounds for every workload (default: each its own)")
    parser.add_argument("--keep", action="store_true",
                        help="keep the scratch directory with every run's output")
    args = parser.parse_args(argv)
    unknown = [w for w in args.workloads if w not in WORKLOADS]
    if unknown:
        parser.error("unknown workload '%s'; the workloads are %s"
                     % (unknown[0], ", ".join(WORKLOADS)))
    if args.rounds is not None and args.rounds < 1:
        parser.error("--rounds must be at least 1")
    return args


def machine_description(ctx):
    lines = ["date: " + datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z"),
             "cpu: %s, %d cores" % (cpu_model(), os.cpu_count()),
             "system: %s, Linux %s" % (debian_version(), platform.release()),
             "load average at start: %.2f %.2f %.2f" % os.getloadavg(),
             "stoke: " + first_line([ctx.stoke, "--version"]) + " (" + ctx.build + ")"]
    if "perf" in ctx.tools:
        lines.append("perf: " + first_line(["perf", "--version"]))
    if "gperftools" in ctx.tools:
        lines.append("gperftools: " + ctx.tools["gperftools"].library)
    if "tcmalloc" in ctx.tools:
        lines.append("tcmalloc: " + ctx.tools["tcmalloc"].library)
    if "heaptrack" in ctx.tools:
        lines.append("heaptrack: " + first_line(["heaptrack", "--version"]))
    return lines


def cpu_model():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "unknown"


def debian_version():
    try:
        with open("/etc/debian_version") as f:
            return "Debian " + f.read().strip()
    except OSError:
        return platform.system()


def first_line(argv):
    done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return done.stdout.strip().splitlines()[0] if done.stdout.strip() else "unknown"


def warn_if_busy():
    load, cores = os.getloadavg()[0], os.cpu_count()
    if load >= cores / 2:
        print("bench: the machine is busy (load average %.1f on %d cores): wall-time ratios will "
              "be noisy; CPU-time ratios hold better\n" % (load, cores), flush=True)


def run_workloads(ctx, names):
    failed = 0
    for name in names:
        started = time.monotonic()
        print("### %s\n" % name, flush=True)
        try:
            for table in WORKLOADS[name].run(ctx):
                print(table.markdown(), flush=True)
        except (BenchError, subprocess.CalledProcessError, OSError) as e:
            print("bench: %s failed: %s\n" % (name, e), flush=True)
            failed += 1
        print("(%s took %.0f s)\n" % (name, time.monotonic() - started), flush=True)
    return failed


def main(argv):
    args = parse_args(argv)
    scratch = tempfile.mkdtemp(prefix="stoke-bench-")
    try:
        return bench(args, scratch)
    finally:
        if args.keep:
            print("bench: every run's output is in %s" % scratch)
        else:
            shutil.rmtree(scratch, ignore_errors=True)


def bench(args, scratch):
    ctx = Context(os.path.abspath(args.build), scratch, args.rounds)
    missing = ctx.missing_build()
    if missing:
        print("bench: %s is missing; build stoke first: cmake -S . -B build && cmake --build build "
              "(or pass --build DIR)" % missing[0], file=sys.stderr)
        return 1
    for why in ctx.missing_tools:
        print("bench: %s; its rows are left out" % why, file=sys.stderr)
    started = time.monotonic()
    print("\n".join("- " + line for line in machine_description(ctx)) + "\n", flush=True)
    warn_if_busy()
    failed = run_workloads(ctx, args.workloads or list(WORKLOADS))
    print("- load average at end: %.2f %.2f %.2f; whole run %.0f s"
          % (os.getloadavg() + (time.monotonic() - started,)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""test_processes.py - everything a program may run besides its own plain
code is followed and named:

  fork          the forked child writes its own trace; child_work is named
                under the child's pid, parent_work under the parent's
  exec          the exec'd program keeps the agent and writes its own trace
                (same pid, new name) naming after_exec
  pipeline      `sh -c 'pipe_a | pipe_b'` profiles both ends
  dlopen        a library loaded with dlopen, run and unloaded ten times has
                its function named, with its true share of the time, from
                the first sample after each load
  cpp_demangle  C++ names come demangled (namespace::Class::method)
  inline        a function inlined with always_inline is its own frame, with
                its file and line in the HTML report's data
  jit_perf_map  code in an anonymous executable page is named from the
                program's /tmp/perf-<pid>.map
  daemon        a daemon (double fork, setsid, every inherited descriptor
                closed, /dev/null on 0-2) whose first process exits at once:
                stoke says which process it left running and waits for it,
                exits with the first process's status, and reports the
                daemon's daemon_work with the samples its CPU time justifies
  daemon_interrupted
                the same daemon left waiting after its work: Ctrl-C
                (SIGINT), then SIGTERM in a second run, to stoke stops the
                wait: stoke reports what the daemon's trace holds so far
                (its daemon_work), marks it still running, exits 0 (the
                first process's status) and leaves the daemon running

usage: test_processes.py fork|exec|pipeline|dlopen|cpp_demangle|inline|jit_perf_map|daemon|
                         daemon_interrupted
"""
import os
import re
import signal
import subprocess
import sys
import time

from e2e_support import (STOKE, SOURCES, VIEWER_TOOLS, TestFailure, expect, fresh_dir,
                         kill_quietly, main, program, record_ok, report_folded, samples_so_far,
                         text, traces_in)

sys.path.insert(0, VIEWER_TOOLS)
from report_data import load_report_data, stacks  # noqa: E402

TOLERANCE_POINTS = 5


def pid_printed(result, pattern):
    match = re.search(pattern, text(result.stdout))
    expect(match, f"the program did not print /{pattern}/", text(result.stdout))
    return int(match.group(1))


def expect_named_under(folded, function, root, at_least):
    samples = folded.with_frame(function, root)
    expect(samples >= at_least,
           f"{function}: {samples} samples under '{root}', expected >= {at_least}", folded.top())


def expect_trace_files(out, names):
    traces = traces_in(out)
    missing = [n for n in names if n not in traces]
    expect(not missing, f"no trace {', '.join(missing)} in {out}", " ".join(traces))


def fork():
    out = fresh_dir("fork")
    result = record_ok(out, [program("forker"), "300"])
    child = pid_printed(result, r"forker: child (\d+) exited 0")
    folded = report_folded(out)[0]
    parent_roots = [r for r in folded.roots() if r != f"forker ({child})"]
    expect(len(parent_roots) == 1, f"expected the parent and the child {child} as roots",
           "\n".join(folded.roots()))
    parent_root = parent_roots[0]
    parent = int(parent_root.split("(")[1].rstrip(")"))
    expect_trace_files(out, [f"forker.{parent}.stoke", f"forker.{child}.stoke"])
    expect_named_under(folded, "child_work", f"forker ({child})", 200)
    expect_named_under(folded, "parent_work", parent_root, 200)
    expect(folded.with_frame("parent_work", f"forker ({child})") == 0,
           "the child's trace holds the parent's samples", folded.top())
    expect(folded.with_frame("child_work", parent_root) == 0,
           "the parent's trace holds the child's samples", folded.top())
    expect_merged_tab(out, folded)


def expect_merged_tab(out, folded):
    """The HTML's first tab merges the processes of one command under one
    root, with every sample; its second splits them by process."""
    path = os.path.join(out, "flamegraph.html")
    merged, split = load_report_data(path, "CPU"), load_report_data(path, "CPU by process")
    merged_stacks = list(stacks(merged, [0]))
    roots = {stack[0] for stack, _ in merged_stacks}
    expect(roots == {"forker (all processes)"}, f"merged tab roots: {sorted(roots)}")
    expect(sum(v[0] for _, v in merged_stacks) == folded.total() ==
           sum(v[0] for _, v in stacks(split, [0])),
           "the merged and split tabs do not hold every sample once")


def exec_():
    out = fresh_dir("exec")
    result = record_ok(out, [program("exec_first"), "250", program("exec_second"), "300"])
    pid = pid_printed(result, r"exec_first: pid (\d+)")
    expect(f"exec_second: pid {pid}\n" in text(result.stdout),
           "exec_second did not run in exec_first's process", text(result.stdout))
    expect_trace_files(out, [f"exec_first.{pid}.stoke", f"exec_second.{pid}.stoke"])
    folded = report_folded(out)[0]
    expect_named_under(folded, "before_exec", f"exec_first ({pid})", 150)
    expect_named_under(folded, "after_exec", f"exec_second ({pid})", 200)


def pipeline():
    out = fresh_dir("pipeline")
    line = f"'{program('pipe_a')}' 300 1000 | '{program('pipe_b')}' 300"
    result = record_ok(out, ["sh", "-c", line])
    expect(text(result.stdout) == "pipe_b: 1000 items\n", "the pipeline's output is wrong",
           text(result.stdout))
    folded = report_folded(out)[0]
    for comm, function in (("pipe_a", "produce_items"), ("pipe_b", "consume_items")):
        roots = [r for r in folded.roots() if r.startswith(f"{comm} (")]
        expect(len(roots) == 1, f"expected one root for {comm}", "\n".join(folded.roots()))
        expect_named_under(folded, function, roots[0], 200)


def dlopen():
    out = fresh_dir("dlopen")
    # 400 ms in the library (loaded, run and unloaded 10 times), then 100 ms
    # in the host after the last dlclose: 80 %.
    record_ok(out, [program("dl_host"), program("libplugin.so"), "400", "10"])
    folded = report_folded(out)[0]
    unnamed = folded.with_frame(lambda f: f.startswith("[unknown]"))
    expect(unnamed == 0,
           f"{unnamed} samples have an [unknown] frame, though every instruction the "
           "program ran lies in a loaded ELF object with symbols", folded.top())
    share = folded.share("plugin_crunch")
    expect(abs(share - 80) <= TOLERANCE_POINTS,
           f"plugin_crunch has {share:.1f} % of the samples, truth 80 % "
           f"(+-{TOLERANCE_POINTS})", folded.top())


def cpp_demangle():
    out = fresh_dir("cpp_demangle")
    record_ok(out, [program("cpp_target"), "400"])
    folded = report_folded(out)[0]
    method = "e2e_shapes::Polygon::walk_perimeter(unsigned int) const"
    share = folded.share(method)
    expect(share >= 90, f"'{method}' has {share:.1f} % of the samples, expected ~100 %",
           folded.top())
    template = folded.with_frame(lambda f: "e2e_shapes::measure_all<e2e_shapes::Polygon>" in f)
    expect(template >= folded.with_frame(method),
           "the template function measure_all<Polygon> is not named above the method",
           folded.top())
    mangled = folded.with_frame(lambda f: f.startswith("_Z"))
    expect(mangled == 0, f"{mangled} samples have a frame still mangled (_Z...)", folded.top())


def function_lines(source, name):
    """The first and last line of a C function's definition in source."""
    with open(source) as f:
        lines = f.read().splitlines()
    first = next(i for i, line in enumerate(lines, 1)
                 if re.search(rf"\b{name}\(", line) and not line.rstrip().endswith(";"))
    last = next(i for i, line in enumerate(lines, 1) if i > first and line == "}")
    return first, last


def inline():
    out = fresh_dir("inline")
    record_ok(out, [program("inline_target"), "400"])
    folded = report_folded(out)[0]
    nested = sum(n for stack, n in folded.stacks.items()
                 if any(a == "outer_loop" and b == "inner_kernel"
                        for a, b in zip(stack, stack[1:])))
    expect(nested >= 0.9 * folded.total(),
           f"only {nested} of {folded.total()} samples have inner_kernel as its own frame "
           "right under outer_loop", folded.top())
    source = os.path.join(SOURCES, "inline_target.c")
    first, last = function_lines(source, "inner_kernel")
    data = load_report_data(os.path.join(out, "flamegraph.html"))
    strings, frames = data["strings"], data["frames"]
    found = [(strings[frames["file"][i]], frames["line"][i], frames["inlined"][i])
             for i, name in enumerate(frames["name"]) if strings[name] == "inner_kernel"]
    expect(found, "the HTML report has no inner_kernel frame")
    for file, line, inlined in found:
        expect(os.path.realpath(file) == os.path.realpath(source) and first <= line <= last,
               f"inner_kernel is at {file}:{line}, expected {source}:{first}..{last}")
        expect(inlined == 1, "inner_kernel is not marked inlined in the HTML data")


def remove_perf_maps(out):
    """Removes the /tmp/perf-<pid>.map of every process that left a trace."""
    for trace in traces_in(out):
        pid = trace.split(".")[-2]
        if os.path.exists(f"/tmp/perf-{pid}.map"):
            os.remove(f"/tmp/perf-{pid}.map")


def jit_perf_map():
    out = fresh_dir("jit_perf_map")
    try:
        record_ok(out, [program("jit_target"), "400"])
        folded = report_folded(out)[0]
    finally:
        remove_perf_maps(out)
    share = folded.share("jit_spin_loop")
    expect(share >= 90, f"jit_spin_loop has {share:.1f} % of the samples, expected ~100 %",
           folded.top())


DAEMON_MS = 500
DAEMON_WAITING_MS = 300
SAMPLING_HZ = 997  # stoke record's default rate
SAMPLES_TOLERANCE = 0.2
LIVE_TRACE_WAIT_S = 20


def expected_samples(ms):
    return SAMPLING_HZ * ms / 1000


def expect_waited_for(stderr, pid):
    expect(f"left 1 process running: daemon ({pid})" in stderr and "Ctrl-C or SIGTERM" in stderr,
           f"stoke did not say it waits for the daemon {pid}", stderr)


def daemon():
    out = fresh_dir("daemon")
    result = record_ok(out, [program("daemon"), str(DAEMON_MS)])
    pid = pid_printed(result, r"daemon: pid (\d+)")
    expect_waited_for(text(result.stderr), pid)
    folded = report_folded(out)[0]
    samples = folded.with_frame("daemon_work", f"daemon ({pid})")
    truth = expected_samples(DAEMON_MS)
    expect(abs(samples - truth) <= SAMPLES_TOLERANCE * truth,
           f"daemon_work has {samples} samples under 'daemon ({pid})', its {DAEMON_MS} ms of "
           f"CPU time justify {truth:.0f} (+-{SAMPLES_TOLERANCE:.0%})", folded.top())


def wait_for_live_samples(trace, at_least, stoke):
    deadline = time.monotonic() + LIVE_TRACE_WAIT_S
    while samples_so_far(trace, "daemon_work") < at_least:
        if time.monotonic() > deadline or stoke.poll() is not None:
            raise TestFailure(f"{trace} did not report {at_least:.0f} samples of daemon_work "
                              f"within {LIVE_TRACE_WAIT_S} s while stoke waited")
        time.sleep(0.1)


def interrupt_waiting(work, stop_signal):
    """Records the waiting daemon, stops stoke's wait with stop_signal once
    the daemon's trace reports its work; checks what stoke did."""
    out = os.path.join(work, signal.Signals(stop_signal).name)
    stoke = subprocess.Popen([STOKE, "record", "-o", out, "--", program("daemon"),
                              str(DAEMON_WAITING_MS), "wait"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    pid = None
    try:
        printed = re.match(rb"daemon: pid (\d+)\n", stoke.stdout.readline())
        expect(printed, "the daemon's first process did not print the daemon's pid")
        pid = int(printed.group(1))
        at_least = (1 - SAMPLES_TOLERANCE) * expected_samples(DAEMON_WAITING_MS)
        wait_for_live_samples(os.path.join(out, f"daemon.{pid}.stoke"), at_least, stoke)
        stoke.send_signal(stop_signal)
        _, stderr = stoke.communicate(timeout=30)
        expect(stoke.returncode == 0, f"stoke exited {stoke.returncode} after "
               f"{signal.Signals(stop_signal).name}, expected the first process's 0",
               text(stderr))
        expect_waited_for(text(stderr), pid)
        expect(re.search(rf"daemon \({pid}\): \d+ samples, still running", text(stderr)),
               "the summary does not mark the daemon still running", text(stderr))
        expect(os.path.exists(f"/proc/{pid}") and open(f"/proc/{pid}/stat").read().split()[2]
               != "Z", f"the daemon {pid} did not stay running", text(stderr))
        folded = report_folded(out)[0]
        expect(folded.with_frame("daemon_work", f"daemon ({pid})") >= at_least,
               "the report lacks what the daemon's trace held", folded.top())
    finally:
        if pid:
            kill_quietly(pid)
        if stoke.poll() is None:
            stoke.kill()
            stoke.wait()


def daemon_interrupted():
    work = fresh_dir("daemon_interrupted")
    for stop_signal in (signal.SIGINT, signal.SIGTERM):
        interrupt_waiting(work, stop_signal)


if __name__ == "__main__":
    raise SystemExit(main({"fork": fork, "exec": exec_, "pipeline": pipeline, "dlopen": dlopen,
                           "cpp_demangle": cpp_demangle, "inline": inline,
                           "jit_perf_map": jit_perf_map, "daemon": daemon,
                           "daemon_interrupted": daemon_interrupted}))

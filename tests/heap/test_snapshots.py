#!/usr/bin/env python3
"""test_snapshots.py - heap snapshots hold what the program really did:

  ground_truth_exact    --heap-interval 1: the snapshot ground_truth takes
                        with stoke_heap_dump(NULL) shows leak_a = 10 MiB and
                        keep_c = 30 MiB live exactly, churn_b 0 live and 200
                        MiB allocated, objects exact too; the exit snapshot
                        keeps leak_a and drops keep_c (freed); the output is
                        the bare run's
  ground_truth_sampled  --heap-interval 16K with a fixed seed: leak_a, keep_c
                        and churn_b's allocated bytes within 10%, churn_b 0
                        live
  cleared_environment   ground_truth started by `env -i` (no environment at
                        all) under --heap-interval 1: the agent gives it
                        stoke's variables back, so its snapshot is exact as
                        in ground_truth_exact
  diff_exact            growth's two snapshots around +8 MiB on grow_g:
                        `stoke diff --folded` shows exactly +8 MiB on
                        grow_g's stack and 0 elsewhere (base_x unchanged,
                        churn_y gone)
  diff_sampled          the same at 16K, seeded: +8 MiB within 10% on grow_g,
                        ~0 (under 2% of the growth) elsewhere
  window_growth_exact   growth timed (no snapshot taken): `stoke report
                        --from BEFORE --until AFTER --measure live-bytes
                        --folded`, the moments the program printed, shows
                        exactly +8 MiB on grow_g from the live heap over time
                        in the CPU trace, 0 elsewhere; the HTML report of the
                        same window has a "grew in the window" tab
  window_growth_sampled the same at 16K, seeded: within 10%, ~0 elsewhere
  window_growth_parts   the same, exact, of a trace split into parts
                        (--max-size, none removed; wall-clock samples at
                        20 kHz fill them): each later part restates the
                        live heap, which must not count twice
  window_growth_dropped a trace whose first parts were removed: a window
                        starting in the removed span is refused, naming
                        --from and --max-size (the live heap then is not
                        known)
  api                   stoke_heap_dump: NULL with ENOSYS without the agent,
                        ENOTSUP with the agent but no heap tracking (preloaded
                        alone, or stoke record without --heap); with --heap
                        the path written, named <comm>.<pid>.heap.<seq>.<UTC
                        time>.stoke in the output directory, mode 0600, logged
                        by the agent, holding the program's 1 MiB; a path
                        given is written as given
  early_stacks          the allocations a program makes as soon as main
                        starts (api_dump's hold_api) get their whole stack,
                        from _start on, in every one of 60 runs: none is
                        cut to "[incomplete stack]" while the agent starts
                        up (with or without libc's debug info installed)

usage: test_snapshots.py CASE
"""
import datetime
import os
import re
import stat

from e2e_support import (AGENT, STOKE, describe, expect, fresh_dir, main, program, record,
                         run, text)
from heap_support import (MIB, SNAPSHOT_NAME, Diff, exit_snapshot, expect_exact, expect_near,
                          expect_same_as_bare, heap_env, measure, measures, record_heap,
                          snapshots)

A_BYTES, C_BYTES, B_BYTES = 10 * MIB, 30 * MIB, 200 * MIB
SAMPLED_TOLERANCE = 0.10


def dump_path(result, label="dump"):
    """The path a program printed as "<label>: <path>" on stderr."""
    match = re.search(rf"^{label}: (/\S+)$", text(result.stderr), re.M)
    expect(match, f"the program printed no '{label}: <path>'", describe(result))
    expect(os.path.isfile(match[1]), f"{match[1]} was printed but is not there",
           describe(result))
    return match[1]


def run_ground_truth(case, options):
    out = fresh_dir(case)
    result = record_heap(out, [program("ground_truth")], options)
    expect_same_as_bare(run([program("ground_truth")]), result, "ground_truth")
    return out, dump_path(result)


def ground_truth_exact():
    out, snapshot = run_ground_truth("ground_truth_exact", ["--heap-interval", "1"])
    m = measures(snapshot)
    expect_exact(m["live-bytes"], "leak_a", A_BYTES, "leak_a live bytes")
    expect_exact(m["live-bytes"], "keep_c", C_BYTES, "keep_c live bytes")
    expect_exact(m["live-bytes"], "churn_b", 0, "churn_b live bytes")
    expect_exact(m["live-objects"], "leak_a", 10240, "leak_a live objects")
    expect_exact(m["live-objects"], "keep_c", 480, "keep_c live objects")
    expect_exact(m["alloc-bytes"], "churn_b", B_BYTES, "churn_b allocated bytes")
    expect_exact(m["alloc-objects"], "churn_b", 51200, "churn_b allocated objects")
    expect_exact(m["alloc-bytes"], "leak_a", A_BYTES, "leak_a allocated bytes")
    last = exit_snapshot(out)
    expect(last != snapshot, "no exit snapshot after the API's")
    at_exit = measure(last)
    expect_exact(at_exit, "leak_a", A_BYTES, "leak_a live bytes at exit")
    expect_exact(at_exit, "keep_c", 0, "keep_c live bytes at exit (freed)")


def ground_truth_sampled():
    _, snapshot = run_ground_truth("ground_truth_sampled", ["--heap-interval", "16K"])
    live, allocated = measure(snapshot), measure(snapshot, "alloc-bytes")
    expect_near(live.with_frame("leak_a"), A_BYTES, SAMPLED_TOLERANCE, "leak_a live bytes",
                live.top())
    expect_near(live.with_frame("keep_c"), C_BYTES, SAMPLED_TOLERANCE, "keep_c live bytes",
                live.top())
    expect_near(allocated.with_frame("churn_b"), B_BYTES, SAMPLED_TOLERANCE,
                "churn_b allocated bytes", allocated.top())
    expect_exact(live, "churn_b", 0, "churn_b live bytes")


def cleared_environment():
    out = fresh_dir("cleared_environment")
    command = ["env", "-i", program("ground_truth")]
    result = record_heap(out, command, ["--heap-interval", "1"])
    expect_same_as_bare(run(command), result, "ground_truth started by env -i")
    live = measure(dump_path(result))
    expect_exact(live, "leak_a", A_BYTES, "leak_a live bytes, started with no environment")
    expect_exact(live, "keep_c", C_BYTES, "keep_c live bytes, started with no environment")


def growth_diff(case, options):
    out = fresh_dir(case)
    result = record_heap(out, [program("growth")], options)
    expect_same_as_bare(run([program("growth")]), result, "growth")
    return Diff(dump_path(result, "dump 1"), dump_path(result, "dump 2"))


def expect_exact_growth(diff, what):
    """grow_g's +8 MiB exactly, 0 elsewhere."""
    grown = diff.change(lambda f: f == "grow_g")
    expect(grown == 8 * MIB, f"grow_g grew by {grown} bytes{what}, expected {8 * MIB}",
           diff.changes())
    elsewhere = diff.change(lambda f: f == "grow_g", outside=True)
    expect(elsewhere == 0, f"{elsewhere} bytes changed outside grow_g, expected 0",
           diff.changes())


def diff_exact():
    diff = growth_diff("diff_exact", ["--heap-interval", "1"])
    expect_exact_growth(diff, "")
    base = [ab for s, ab in diff.stacks.items() if "base_x" in s]
    expect(base and all(a == b == 4 * MIB for a, b in base),
           "base_x is not 4 MiB in both snapshots", diff.changes())


def expect_sampled_growth(diff, what):
    """grow_g's +8 MiB within 10%, ~0 (under 2% of it) elsewhere."""
    expect_near(diff.change(lambda f: f == "grow_g"), 8 * MIB, SAMPLED_TOLERANCE, what,
                diff.changes())
    elsewhere = diff.change(lambda f: f == "grow_g", outside=True)
    expect(abs(elsewhere) <= 0.02 * 8 * MIB,
           f"{elsewhere} bytes changed outside grow_g, expected ~0", diff.changes())


def diff_sampled():
    expect_sampled_growth(growth_diff("diff_sampled", ["--heap-interval", "16K"]),
                          "grow_g's growth")


# The agent starts before main: the moments growth prints are later than the
# recording's start by its start-up, far less than this (and than the quiet
# time of 1.5 s around each moment).
STARTUP_MARGIN_S = 0.3


def window_growth(case, options):
    """Records growth timed; returns the Diff of the window between the
    moments it printed, and the recording."""
    out = fresh_dir(case)
    result = record_heap(out, [program("growth"), "timed"], options)
    expect(result.returncode == 0, "growth timed failed under stoke", describe(result))
    at = dict(line.split() for line in text(result.stdout).splitlines() if " " in line
              and not line.startswith("growth:"))
    start = int(at["start"])
    window = [f"{(int(at[k]) - start) / 1e9 + STARTUP_MARGIN_S:.3f}" for k in ("before", "after")]
    report = run([STOKE, "report", out, "--folded", "--measure", "live-bytes",
                  "--from", window[0], "--until", window[1]])
    expect(report.returncode == 0, "stoke report of the window failed", describe(report))
    return Diff.of_text(text(report.stdout)), out, window


def window_growth_exact():
    diff, out, window = window_growth("window_growth_exact", ["--heap-interval", "1"])
    expect_exact_growth(diff, " in the window")
    html = run([STOKE, "report", out, "--from", window[0], "--until", window[1],
                "-o", os.path.join(out, "window.html")])
    expect(html.returncode == 0 and b"grew by 8388608 bytes" in html.stderr,
           "the HTML report of the window says what grew", describe(html))


def window_growth_sampled():
    diff, _, _ = window_growth("window_growth_sampled", ["--heap-interval", "16K"])
    expect_sampled_growth(diff, "grow_g's growth in the window")


def window_growth_parts():
    options = ["--heap-interval", "1", "--clock", "wall", "-F", "20000", "--max-size", "256K"]
    diff, out, _ = window_growth("window_growth_parts", options)
    parts = [f for f in os.listdir(out) if ".part-" in f]
    expect(len(parts) >= 2, f"the trace was not split into parts: {os.listdir(out)}")
    expect_exact_growth(diff, " in the window across parts")


def window_growth_dropped():
    out = fresh_dir("window_growth_dropped")
    options = ["--heap-interval", "1", "--clock", "wall", "-F", "20000", "--max-size", "64K"]
    result = record_heap(out, [program("growth"), "timed"], options)
    expect(not any(re.fullmatch(r"growth\.\d+\.stoke", f) for f in os.listdir(out)),
           "the first part was not removed", f"{os.listdir(out)}\n{describe(result)}")
    report = run([STOKE, "report", out, "--folded", "--measure", "live-bytes", "--from", "0.1"])
    message = text(report.stderr)
    expect(report.returncode != 0 and "--from 0.1" in message and "--max-size" in message and
           not report.stdout, "a window starting in the removed span is refused clearly",
           describe(report))


def expect_dump_line(result, expected, what):
    expect(result.returncode == 0 and text(result.stdout) == expected + "\n",
           f"{what}: expected '{expected}'", describe(result))


def expect_named_now(path, out, pid):
    match = SNAPSHOT_NAME.match(os.path.basename(path))
    expect(os.path.dirname(path) == out and match and match["comm"] == "api_dump"
           and int(match["pid"]) == pid and match["seq"] == "1",
           f"{path} is not {out}/api_dump.{pid}.heap.1.<time>.stoke")
    written = datetime.datetime.strptime(match["time"], "%Y%m%d-%H%M%S")
    now = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
    expect(abs((now - written).total_seconds()) < 300,
           f"the time in {path} is not now in UTC ({now:%Y%m%d-%H%M%S})")
    expect(stat.S_IMODE(os.stat(path).st_mode) == 0o600, f"{path} is not mode 0600")


def api():
    out = fresh_dir("api")
    argv = [program("api_dump"), "-"]
    expect_dump_line(run(argv), "dump -: NULL errno=ENOSYS", "without the agent")
    preloaded = dict(os.environ, LD_PRELOAD=AGENT)
    expect_dump_line(run(argv, env=preloaded), "dump -: NULL errno=ENOTSUP",
                     "preloaded with no output directory")
    expect_dump_line(record(f"{out}/cpu", argv, ["--collect-only"]),
                     "dump -: NULL errno=ENOTSUP", "stoke record without --heap")

    given = f"{out}/given.stoke"
    heap_out = f"{out}/heap"
    result = record_heap(heap_out, argv + [given])
    lines = text(result.stdout).splitlines()
    expect(result.returncode == 0 and len(lines) == 2 and lines[0].startswith("dump -: /")
           and lines[1] == f"dump {given}: {given}",
           "with --heap: expected 'dump -: <path>' then the path given", describe(result))
    path = lines[0][len("dump -: "):]
    pid = int(SNAPSHOT_NAME.match(os.path.basename(path))["pid"])
    expect_named_now(path, os.path.abspath(heap_out), pid)
    for written in (path, given):
        expect(f"stoke: heap snapshot written to {written}\n" in text(result.stderr),
               f"the agent did not log {written}", describe(result))
        live = measure(written)
        expect_exact(live, "hold_api", MIB, f"hold_api's live bytes in {written}")
    sequence = [s for s, _ in snapshots(heap_out, pid)]
    expect(len(sequence) == 2 and sequence[0] == 1,
           "expected the API's snapshot (1) and the exit one in the output directory",
           " ".join(os.listdir(heap_out)))


EARLY_RUNS = 60
# The C library's frame between __libc_start_main and main: named where its
# debug info is installed (libc6-dbg), libc.so.6+0x... where it is not.
LIBC_CALLS_MAIN = re.compile(r"__libc_start_call_main|libc\.so\.6\+0x[0-9a-f]+")


def whole_early_stack(frames):
    """True for hold_api's stack from the process's first frame (_start):
    the walk reached the root, whether or not libc's debug info is here."""
    return (len(frames) == 5 and frames[:2] == ("_start", "__libc_start_main")
            and LIBC_CALLS_MAIN.fullmatch(frames[2]) is not None
            and frames[3:] == ("main", "hold_api"))


def early_stacks():
    work = fresh_dir("early_stacks")
    cut = []
    for number in range(EARLY_RUNS):
        out = f"{work}/run{number}"
        result = run([program("api_dump"), "-"], env=heap_env(out, 1))
        expect(result.returncode == 0, "api_dump failed under the agent", describe(result))
        allocated = measure(exit_snapshot(out), "alloc-objects")
        complete = sum(n for s, n in allocated.stacks.items() if whole_early_stack(s[1:]))
        if complete != 16:
            cut.append(f"run {number}: {complete} of hold_api's 16 blocks with their whole "
                       f"stack:\n{allocated.top()}")
    expect(not cut, f"{len(cut)} of {EARLY_RUNS} runs lost stacks of early allocations",
           "\n".join(cut))


if __name__ == "__main__":
    raise SystemExit(main({"ground_truth_exact": ground_truth_exact,
                           "ground_truth_sampled": ground_truth_sampled,
                           "cleared_environment": cleared_environment,
                           "diff_exact": diff_exact, "diff_sampled": diff_sampled,
                           "window_growth_exact": window_growth_exact,
                           "window_growth_sampled": window_growth_sampled,
                           "window_growth_parts": window_growth_parts,
                           "window_growth_dropped": window_growth_dropped,
                           "api": api, "early_stacks": early_stacks}))

#!/usr/bin/env python3
"""test_max_size.py - a trace bounded in size (stoke record --max-size).
phases spends its CPU in phase_one, then as long in phase_two, printing the
wall-clock moment each starts and ends. At 20 kHz its trace passes the
bound several times over:

  parts_whole   a bound large enough to keep every part: the trace is split
                into parts (several files), none removed, and reads as one
                trace: the phases are as long as each other, windows
                inside each phase hold that phase only, and windows that
                split the recording at a part's edge add up to the whole
  drops_oldest  a bound it passes: while the program runs, its trace files
                never take more than the bound; the first part is removed;
                the summary and the HTML report say from when the trace
                is kept; what is kept
                is that span's samples, no more and no less: phase_one's
                share of them is the share of the kept span it ran; a
                window starting in the removed span warns so
  bad_size      --max-size below 64K or not a size is refused naming the
                option; STOKE_MAX_SIZE below it leaves the agent idle and
                the program's output as without stoke

usage: test_max_size.py CASE
"""
import glob
import os
import re
import subprocess
import sys
import time

from e2e_support import (AGENT, STOKE, VIEWER_TOOLS, Folded, describe, expect, fresh_dir,
                         main, program, report_folded, run, text)

sys.path.insert(0, VIEWER_TOOLS)
from report_data import load_report_data  # noqa: E402

HZ = "20000"
MAX_SIZE = 64 * 1024
STARTUP_MARGIN_S = 0.5


def moments(stdout):
    """{one, two, end} in seconds since phase_one began."""
    at = dict(line.split() for line in text(stdout).splitlines())
    start = int(at["one"])
    return {k: (int(v) - start) / 1e9 for k, v in at.items()}


def trace_files(rec):
    return sorted(glob.glob(os.path.join(rec, "phases.*.stoke")))


def record_bounded(rec, max_size, phase_ms, watch=False):
    """Records phases with --max-size; returns (stoke record's result as
    text, moments, the largest size its trace files took while it ran)."""
    command = [STOKE, "record", "-F", HZ, "--max-size", str(max_size), "-o", rec, "--",
               program("phases"), str(phase_ms), "0"]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    largest = 0
    while watch and child.poll() is None:
        largest = max(largest, sum(os.path.getsize(f) for f in trace_files(rec)
                                   if os.path.exists(f)))
        time.sleep(0.02)
    out, err = child.communicate(timeout=120)
    result = subprocess.CompletedProcess(command, child.returncode, out, err)
    expect(result.returncode == 0, "stoke record --max-size failed", describe(result))
    return result, moments(out), largest


def window(rec, *bounds):
    return report_folded(rec, bounds)[0]


def expect_phase_only(rec, start, end, phase, other):
    folded = window(rec, "--from", f"{start:.3f}", "--until", f"{end:.3f}")
    expect(folded.with_frame(other) == 0 and folded.with_frame(phase) > 0,
           f"[{start:.2f}, {end:.2f}] s holds {folded.with_frame(phase)} samples of {phase} "
           f"and {folded.with_frame(other)} of {other} (expected 0)", folded.top())


def parts_whole():
    rec = os.path.join(fresh_dir("parts_whole"), "rec")
    result, at, _ = record_bounded(rec, 2 * MAX_SIZE, 1500)
    files = trace_files(rec)
    expect(len(files) >= 3 and any(".part-" in f for f in files),
           f"the trace was not split into parts: {files}", describe(result))
    expect(b"removed by --max-size" not in result.stderr, "a part was removed under the bound",
           describe(result))
    whole = window(rec)
    one, two = whole.with_frame("phase_one"), whole.with_frame("phase_two")
    expect(one > 0 and abs(one - two) <= 0.06 * max(one, two),
           f"phase_one has {one} samples, phase_two {two}: the same CPU time should give "
           "the same count within 6%", whole.top())
    expect_phase_only(rec, STARTUP_MARGIN_S, at["two"], "phase_one", "phase_two")
    expect_phase_only(rec, at["two"] + STARTUP_MARGIN_S, at["end"], "phase_two", "phase_one")
    for cut in (f"{at['two'] / 2:.3f}", f"{at['two']:.3f}", f"{at['end'] * 0.8:.3f}"):
        before, after = window(rec, "--until", cut), window(rec, "--from", cut)
        expect(before.stacks + after.stacks == whole.stacks,
               f"--until {cut} and --from {cut} do not add up to the whole recording")


def drops_oldest():
    rec = os.path.join(fresh_dir("drops_oldest"), "rec")
    result, at, largest = record_bounded(rec, MAX_SIZE, 2000, watch=True)
    files = trace_files(rec)
    on_disk = sum(os.path.getsize(f) for f in files)
    expect(largest <= MAX_SIZE and on_disk <= MAX_SIZE,
           f"the trace took {largest} bytes while the program ran and {on_disk} at its end; "
           f"--max-size was {MAX_SIZE}", "\n".join(files))
    expect(not any(re.search(r"phases\.\d+\.stoke$", f) for f in files),
           "the first part is still there", "\n".join(files))
    kept = re.search(rb"its first ([0-9.]+) s removed by --max-size \(the trace keeps "
                     rb"([0-9.]+)-([0-9.]+) s\)", result.stderr)
    expect(kept, "the summary does not say which span the trace keeps", describe(result))
    kept_from = float(kept[1])
    processes = load_report_data(os.path.join(rec, "flamegraph.html"))["processes"]
    in_html = processes[0].get("kept_from_us", 0) / 1e6
    expect(abs(in_html - kept_from) < 0.06,
           f"the HTML report says the trace keeps {in_html} s on, the summary {kept_from}",
           str(processes))
    whole = window(rec)
    one, two = whole.with_frame("phase_one"), whole.with_frame("phase_two")
    # The kept span [kept_from, end] ran phase_one until "two": its share of
    # the samples is the share of that span's CPU time (the program is busy
    # throughout). The moments are since phase_one began, a few ms after the
    # recording's start.
    early = run([STOKE, "report", rec, "--folded", "--from", f"{kept_from / 2:.3f}"])
    expect(early.returncode == 0 and b"before the trace of phases" in early.stderr and
           b"--max-size" in early.stderr and
           Folded(text(early.stdout)).stacks == whole.stacks,
           "a window that starts in the removed span says so and holds what is kept",
           describe(early))
    expected = max(0.0, at["two"] - kept_from) / (at["end"] - kept_from)
    share = one / (one + two)
    expect(abs(share - expected) <= 0.05,
           f"phase_one holds {share:.3f} of the kept samples; it ran {expected:.3f} of the "
           f"kept span [{kept_from:.2f}, {at['end']:.2f}] s", whole.top())


def bad_size():
    work = fresh_dir("bad_size")
    for value in ("10K", "64", "big", "1X"):
        result = run([STOKE, "record", "--max-size", value, "-o", os.path.join(work, "rec"),
                      "--", "true"])
        expect(result.returncode != 0 and f"--max-size '{value}'".encode() in result.stderr and
               b"64K" in result.stderr, f"--max-size {value} is not refused clearly",
               describe(result))
    bare = run([program("phases"), "10", "0"])
    env = dict(os.environ, LD_PRELOAD=AGENT, STOKE_OUTPUT=work, STOKE_MAX_SIZE="1000")
    agent = subprocess.run([program("phases"), "10", "0"], env=env, capture_output=True)
    expect(agent.returncode == 0 and b"STOKE_MAX_SIZE='1000'" in agent.stderr and
           len(agent.stdout.splitlines()) == len(bare.stdout.splitlines()) and
           not trace_files(work), "STOKE_MAX_SIZE=1000 should leave the agent idle, saying why",
           describe(agent))


if __name__ == "__main__":
    raise SystemExit(main({"parts_whole": parts_whole, "drops_oldest": drops_oldest,
                           "bad_size": bad_size}))

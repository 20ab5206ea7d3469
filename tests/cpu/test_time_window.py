#!/usr/bin/env python3
"""test_time_window.py - what happened when. phases spends 1.5 s of CPU in
phase_one, then 1.5 s in phase_two, printing the wall-clock moment each
starts and ends; the windows of --from and --until inside each phase
must hold that phase's function only, windows that split the recording must
add up to the whole, and the speedscope export must place the phases where
they were, in time order.

usage: test_time_window.py time_window speedscope_times window_errors
"""
import json
import os

from e2e_support import (STOKE, describe, expect, fresh_dir, main, program, record_ok,
                         report_folded, run, text)

PHASE_MS = 1500
# The agent starts before main: the moments the program prints are later
# than the recording's start by its start-up, which stays far below this.
STARTUP_MARGIN_S = 0.5
HZ = 997


def record_phases(work):
    """Records phases; returns (recording, {one, two, end} in seconds since
    main began)."""
    out = os.path.join(work, "rec")
    result = record_ok(out, [program("phases"), str(PHASE_MS), "0"])
    moments = dict(line.split() for line in text(result.stdout).splitlines())
    start = int(moments["one"])
    return out, {k: (int(v) - start) / 1e9 for k, v in moments.items()}


def window(rec, *bounds):
    return report_folded(rec, bounds)[0]


def expect_phase_only(rec, start, end, phase, other):
    """The window [start, end) s holds samples of phase, none of other, and
    no more than one thread's CPU could give."""
    folded = window(rec, "--from", str(start), "--until", str(end))
    mine, others = folded.with_frame(phase), folded.with_frame(other)
    longest = (end - start) * HZ * 1.05 + 5
    expect(others == 0 and 0 < mine <= longest,
           f"[{start:.2f}, {end:.2f}] s: {mine} samples of {phase} (at most {longest:.0f}: "
           f"one thread's CPU), {others} of {other} (expected 0)", folded.top())


def time_window():
    rec, at = record_phases(fresh_dir("time_window"))
    whole = window(rec)
    expect(window(rec, "--from", "0").stacks == whole.stacks and
           window(rec, "--until", "3600").stacks == whole.stacks,
           "a window of the whole recording is the plain report")
    expect_phase_only(rec, STARTUP_MARGIN_S, at["two"], "phase_one", "phase_two")
    expect_phase_only(rec, at["two"] + STARTUP_MARGIN_S, at["end"], "phase_two", "phase_one")
    cut = str(at["two"])
    before, after = window(rec, "--until", cut), window(rec, "--from", cut)
    expect(before.stacks + after.stacks == whole.stacks,
           f"--until {cut} and --from {cut} do not add up to the whole recording",
           f"before:\n{before.top()}\nafter:\n{after.top()}\nwhole:\n{whole.top()}")


def speedscope_times():
    work = fresh_dir("speedscope_times")
    rec, at = record_phases(work)
    out = os.path.join(work, "phases.speedscope.json")
    result = run([STOKE, "report", rec, "--format", "speedscope", "-o", out])
    expect(result.returncode == 0, "stoke report --format speedscope failed", describe(result))
    doc = json.load(open(out))
    names = [f["name"] for f in doc["shared"]["frames"]]
    spans = {}  # function -> [first open, last close] in seconds
    for profile in doc["profiles"]:
        expect(profile["type"] == "evented", "CPU samples are written in time order",
               profile["type"])
        for event in profile["events"]:
            name, t = names[event["frame"]], event["at"] / 1e9
            if name in ("phase_one", "phase_two"):
                first, last = spans.get(name, (t, t))
                spans[name] = (min(first, t), max(last, t))
    expect(set(spans) == {"phase_one", "phase_two"}, "both phases are in the events",
           str(spans))
    one, two = spans["phase_one"], spans["phase_two"]
    expect(one[1] <= two[0], f"phase_one runs until {one[1]:.3f} s, after phase_two "
           f"starts at {two[0]:.3f} s")
    for name, span, truth in (("phase_one", one, at["two"]),
                              ("phase_two", two, at["end"] - at["two"])):
        length = span[1] - span[0]
        expect(abs(length - truth) <= 0.1 * truth + 0.05,
               f"{name} spans {length:.3f} s of the timeline; the program measured {truth:.3f}")
    gap = two[0] - one[0]
    expect(abs(gap - at["two"]) <= 0.1,
           f"phase_two starts {gap:.3f} s after phase_one; the program measured "
           f"{at['two']:.3f}")


def expect_refused(rec, args, words):
    """stoke report REC ARGS fails with a message holding every word, and
    writes nothing on standard output."""
    result = run([STOKE, "report", rec, "--folded", *args])
    message = text(result.stderr)
    expect(result.returncode != 0 and not result.stdout and all(w in message for w in words),
           f"{' '.join(args)}: expected a refusal naming {words}", describe(result))


def window_errors():
    work = fresh_dir("window_errors")
    rec, _ = record_phases(work)
    expect_refused(rec, ["--from", "2", "--until", "1"], ["--from 2", "--until 1", "before"])
    expect_refused(rec, ["--from", "3600"], ["--from 3600", "end of", rec])
    expect_refused(rec, ["--until", "0"], ["--until 0", "start of"])
    expect_refused(rec, ["--from", "load-start"], ["--from load-start", "-P", rec])
    expect_refused(rec, ["--until", "soon"], ["--until 'soon'", "seconds"])
    expect_refused(rec, ["--from", "-1"], ["--from '-1'"])
    folded = os.path.join(work, "phases.folded")
    with open(folded, "w") as f:
        f.write(text(run([STOKE, "report", rec, "--folded"]).stdout))
    expect_refused(folded, ["--from", "1"], ["--from", "folded stacks", folded])


if __name__ == "__main__":
    raise SystemExit(main({"time_window": time_window, "speedscope_times": speedscope_times,
                           "window_errors": window_errors}))

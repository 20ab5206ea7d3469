#!/usr/bin/env python3
"""test_stored_names.py - a recording keeps the names of its addresses
(stoke-names.zst beside its traces), so it reports the same (functions,
and the lines sampled in them) after its
program is rebuilt at the same path, deleted, or when the recording is
copied elsewhere; a new recording of the rebuilt program is named by the
new build, never by the stored names; a damaged store is told and ignored;
a recording in a directory stoke cannot write still reports.

The program (programs/rebuilt_target.c) is built by the test itself, gcc
-O2 -g, into the case's directory; rebuilding it with a line added at the
top moves every function down a line and changes its build-id. The ground
truth is the source: the line each function is defined on.

usage: test_stored_names.py rebuilt moved_and_copied new_build damaged
                            collect_only read_only
"""
import json
import os
import shutil
import subprocess

from e2e_support import (SOURCES, STOKE, describe, expect, fresh_dir, main, record_ok, run,
                         text)

SOURCE = os.path.join(SOURCES, "rebuilt_target.c")
INCLUDE = os.path.join(os.path.dirname(SOURCES), "..", "lib")
STORE = "stoke-names.zst"
FUNCTIONS = ("alpha_phase", "mix_steps", "beta_phase")
STORED_SAID = "named from the names stored with the recording"
NOBODY_UID = 65534


def build(work, added_line=False):
    """Builds the program at work/target from a copy of its source, with a
    comment line added at the top when added_line; returns the program and
    {function: line it is defined on}."""
    with open(SOURCE) as f:
        lines = f.read().splitlines(keepends=True)
    if added_line:
        lines.insert(0, "/* REBUILT_LINE: every function moves down a line */\n")
    source = os.path.join(work, "target.c")
    with open(source, "w") as f:
        f.writelines(lines)
    target = os.path.join(work, "target")
    result = subprocess.run(["gcc", "-O2", "-g", "-I", INCLUDE, "-o", target, source],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    expect(result.returncode == 0, "gcc failed", text(result.stderr))
    defined = {}
    for number, line in enumerate(lines, 1):
        for name in FUNCTIONS:
            if f" {name}(" in line and line.rstrip().endswith(")"):
                defined[name] = number
    return target, defined


def report(rec, options=()):
    """(folded text, speedscope frames, stderr) of a recording."""
    folded = run([STOKE, "report", rec, "--folded", *options])
    expect(folded.returncode == 0, f"stoke report {rec} --folded failed", describe(folded))
    path = os.path.join(os.path.dirname(rec.rstrip("/")), "frames.speedscope.json")
    speedscope = run([STOKE, "report", rec, "--format", "speedscope", "-o", path, *options])
    expect(speedscope.returncode == 0, f"stoke report {rec} --format speedscope failed",
           describe(speedscope))
    with open(path) as f:
        frames = json.load(f)["shared"]["frames"]
    os.unlink(path)
    return text(folded.stdout), frames, text(folded.stderr)


def places(frames, source):
    """{function: line} of the frames of our functions in source."""
    return {f["name"]: f.get("line") for f in frames
            if f["name"] in FUNCTIONS and f.get("file") == source}


def expect_true_names(rec, source, defined):
    """The recording names our functions at the lines the source defines
    them on; returns its (folded, frames)."""
    folded, frames, stderr = report(rec)
    expect(places(frames, source) == defined,
           f"the functions are not named as the source defines them: "
           f"{places(frames, source)} (expected {defined})", folded + stderr)
    expect(STORED_SAID not in stderr, "a report named by its own binaries says stored names "
           "were used", stderr)
    return folded, frames


def expect_same_report(rec, before, why):
    """rec reports exactly as before, and says once that stored names were used."""
    folded, frames, stderr = report(rec)
    expect((folded, frames) == before, f"{why}: the recording no longer reports as it did",
           f"before:\n{before[0]}\nnow:\n{folded}\nstderr:\n{stderr}")
    expect(len(stderr.splitlines()) == 1 and STORED_SAID in stderr,
           f"{why}: the report does not say, in one line, that stored names were used", stderr)
    expect("+0x" not in folded, f"{why}: frames left unnamed", folded)


def recorded(work, options=()):
    """Builds and records the program; returns (recording, program, {function: line},
    the first report)."""
    target, defined = build(work)
    rec = os.path.join(work, "rec")
    record_ok(rec, [target], options)
    before = expect_true_names(rec, os.path.join(work, "target.c"), defined)
    expect(os.path.isfile(os.path.join(rec, STORE)), f"no {STORE} in the recording",
           " ".join(os.listdir(rec)))
    return rec, target, defined, before


def sampled_lines(rec):
    """stoke report --folded --lines of rec: each frame at the line sampled."""
    result = run([STOKE, "report", rec, "--folded", "--lines"])
    expect(result.returncode == 0, "stoke report --folded --lines failed", describe(result))
    return text(result.stdout)


def rebuilt():
    work = fresh_dir("stored_names_rebuilt")
    rec, _, defined, before = recorded(work)
    lines = sampled_lines(rec)
    expect("target.c:" in lines, "the recording's frames name no line", lines)
    _, moved = build(work, added_line=True)
    expect(all(moved[f] == defined[f] + 1 for f in FUNCTIONS), "the rebuild moved no line")
    expect_same_report(rec, before, "after a rebuild at the same path")
    expect(sampled_lines(rec) == lines, "after a rebuild, the lines sampled are not the run's",
           f"before:\n{lines}\nnow:\n{sampled_lines(rec)}")
    html = os.path.join(work, "report.html")
    result = run([STOKE, "report", rec, "-o", html])
    with open(html, encoding="utf-8") as f:
        expect(result.returncode == 0 and STORED_SAID in f.read(),
               "the HTML report does not say that stored names were used", describe(result))


def moved_and_copied():
    work = fresh_dir("stored_names_moved_and_copied")
    rec, target, _, before = recorded(work)
    os.unlink(target)
    expect_same_report(rec, before, "after the program was deleted")
    copy = os.path.join(work, "elsewhere", "rec")
    shutil.copytree(rec, copy)
    shutil.rmtree(rec)
    expect_same_report(copy, before, "copied elsewhere, the program gone")


def new_build():
    """The build-id check: a new recording of the rebuilt program is named
    by the new build (its lines), not by names stored for the old one, even
    in the same directory."""
    work = fresh_dir("stored_names_new_build")
    rec, _, defined, _ = recorded(work)
    _, moved = build(work, added_line=True)
    source = os.path.join(work, "target.c")
    record_ok(rec, [os.path.join(work, "target")])
    folded, frames, stderr = report(rec)
    expect(places(frames, source) == moved,
           f"the new recording is not named by the new build: {places(frames, source)} "
           f"(expected {moved}, the old build's were {defined})", folded + stderr)
    expect(STORED_SAID not in stderr, "the new recording used stored names", stderr)


def damaged():
    """A store cut short, or of garbage, is told and ignored: the binary
    (its build-id the run's) names the recording as before, and no crash."""
    work = fresh_dir("stored_names_damaged")
    rec, _, _, before = recorded(work)
    store = os.path.join(rec, STORE)
    with open(store, "rb") as f:
        whole = f.read()
    for damage in (whole[:len(whole) // 2], whole[:20], b"STOKENAM" + b"\xff" * 40,
                   whole[:-1] + bytes([whole[-1] ^ 1])):
        with open(store, "wb") as f:
            f.write(damage)
        folded, frames, stderr = report(rec)
        expect((folded, frames) == before, "a damaged store changed the report",
               f"before:\n{before[0]}\nnow:\n{folded}\nstderr:\n{stderr}")
        expect(STORE in stderr and "ignored" in stderr, "a damaged store was not told", stderr)
    folded, _, stderr = report(rec)
    expect(STORE not in stderr, "the store was not written anew after it was found damaged",
           stderr)


def collect_only():
    """--collect-only stores the names too, while the program is there."""
    work = fresh_dir("stored_names_collect_only")
    target, defined = build(work)
    rec = os.path.join(work, "rec")
    record_ok(rec, [target], ["--collect-only"])
    expect(os.path.isfile(os.path.join(rec, STORE)), "--collect-only stored no names",
           " ".join(os.listdir(rec)))
    build(work, added_line=True)
    folded, frames, stderr = report(rec)
    expect(places(frames, os.path.join(work, "target.c")) == defined and
           stderr.count(STORED_SAID) == 1,
           "a --collect-only recording is not named as the run's build was", folded + stderr)


def as_nobody():
    os.setgid(NOBODY_UID)
    os.setuid(NOBODY_UID)


def read_only():
    """A recording in a directory stoke cannot write reports as usual and
    warns once that its names could not be stored."""
    work = fresh_dir("stored_names_read_only")
    rec, _, _, before = recorded(work)
    os.unlink(os.path.join(rec, STORE))
    is_root = os.geteuid() == 0
    if is_root:
        shutil.chown(rec, NOBODY_UID, NOBODY_UID)
        for name in os.listdir(rec):
            shutil.chown(os.path.join(rec, name), NOBODY_UID, NOBODY_UID)
        os.chmod(work, 0o755)
    os.chmod(rec, 0o555)
    try:
        result = subprocess.run([STOKE, "report", rec, "--folded"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, preexec_fn=as_nobody if is_root else None)
    finally:
        os.chmod(rec, 0o755)
    stderr = text(result.stderr)
    expect(result.returncode == 0 and text(result.stdout) == before[0],
           "a read-only recording does not report as before", describe(result))
    expect(stderr.count("cannot be written") == 1 and STORE in stderr,
           "a read-only recording does not warn once that its names could not be stored", stderr)


if __name__ == "__main__":
    raise SystemExit(main({"rebuilt": rebuilt, "moved_and_copied": moved_and_copied,
                           "new_build": new_build, "damaged": damaged,
                           "collect_only": collect_only, "read_only": read_only}))

#!/usr/bin/env python3
"""tests/diff - `stoke diff` on real recordings, against ground truth.

rebuild_gcc, rebuild_clang: programs/three_functions.c built -O2 -g by
  that compiler (A), then edited and rebuilt at the same path (B: comment
  lines above the functions, so every line shifts, and beta_warm twice as
  slow), each recorded with `stoke record`: A is named from the names its
  recording kept, its binary gone. As recorded (--absolute), the diff shows
  beta_warm doubled and alpha_hot and gamma_cool unchanged within sampling
  error, in the folded stacks (each stack once, both sides) and the summary
  (each function once); normalised (the default), the shares the program's
  costs give; the HTML report's flame graph and table agree (in Chromium).
normalised: one binary, one side with half the rounds: normalised, no
  function's share moves by more than sampling error; --absolute, the
  totals differ twice over.
kinds: two traces, two heap snapshots and a recording against folded
  stacks compare; a recording of CPU samples against a heap snapshot is an
  error naming both.
"""
import json
import os
import re
import shutil
import sys
from collections import Counter

from e2e_support import (STOKE, SOURCES, describe, expect, fresh_dir, main, record_ok, run,
                         skip, text)

CPU_SPIN_DIR = os.path.join(SOURCES, "..", "..", "lib")
MAKE_TRACE = os.environ["FMT_MAKE_TRACE"]
NODE = os.environ.get("E2E_NODE", "")
BROWSER_CHECK = os.path.join(SOURCES, "..", "browser_diff_test.mjs")
FUNCTIONS = ("alpha_hot", "beta_warm", "gamma_cool")
COST_MS = {"alpha_hot": 5, "beta_warm": 3, "gamma_cool": 2}  # the program's defines
SLOWED = "beta_warm"
ROUNDS = 100               # 1 s of CPU time before, 1.3 s after: ~1000 samples a side at 997 Hz
RATIO_ERROR = 0.15         # a function of >= 200 samples a side, binomial: < 5 sigma
SHARE_ERROR_PTS = 4.0      # shares of ~1000 samples: sigma < 1.6 points
EDIT_LINES = 7             # comment lines B adds above the functions


def build(cc, source_text, out_dir):
    """The program from source_text, built by cc -O2 -g, as out_dir/prog
    (replacing the one there)."""
    os.makedirs(out_dir, exist_ok=True)
    source = os.path.join(out_dir, "three_functions.c")
    with open(source, "w") as f:
        f.write(source_text)
    prog = os.path.join(out_dir, "prog")
    result = run([cc, "-O2", "-g", "-Wl,--build-id", "-I", CPU_SPIN_DIR, source, "-o", prog])
    expect(result.returncode == 0, f"{cc} failed", describe(result))
    return prog


def edited(source_text):
    """B: comment lines above the functions, beta_warm twice as slow."""
    original = source_text
    source_text = source_text.replace("#define BETA_MS 3", "#define BETA_MS 6")
    comment = "".join(f"/* an edit: line {i} */\n" for i in range(EDIT_LINES))
    source_text = source_text.replace("static volatile uint64_t sink;",
                                      comment + "static volatile uint64_t sink;")
    expect(source_text.count("an edit") == EDIT_LINES and "BETA_MS 6" in source_text
           and original != source_text, "three_functions.c no longer has what the edit changes")
    return source_text


def recorded(work, name, prog, rounds, options=()):
    out = os.path.join(work, name)
    record_ok(out, [prog, str(rounds)], options)
    return out


def diff(before, after, *options):
    """stoke diff BEFORE AFTER OPTIONS, which must succeed."""
    result = run([STOKE, "diff", before, after, *options])
    expect(result.returncode == 0, "stoke diff failed", describe(result))
    return result


def folded_diff(before, after, *options):
    """The diff's "stack before after" lines: {stack: (before, after)}; each stack once."""
    lines = text(diff(before, after, "--folded", *options).stdout).splitlines()
    stacks = {}
    for line in lines:
        stack, a, b = line.rsplit(" ", 2)
        expect(stack not in stacks, f"stack written twice: {stack}", "\n".join(lines))
        stacks[stack] = (int(a), int(b))
    return stacks


def inclusive(stacks, function):
    """(before, after) of the stacks through function."""
    through = [v for s, v in stacks.items() if function in s.split(";")]
    return sum(v[0] for v in through), sum(v[1] for v in through)


SUMMARY_LINE = re.compile(r"^\s+(\S+(?: \S+)?)\s+(.*?)\s{2}(\S+)$")


def summary_changes(stderr):
    """{function: (change, rest)} from the summary; each function once."""
    lines = text(stderr).splitlines()
    start = next((i for i, l in enumerate(lines) if "largest changes" in l), None)
    expect(start is not None, "no summary of changes", "\n".join(lines))
    names = Counter()
    found = {}
    for line in lines[start + 1:]:
        m = SUMMARY_LINE.match(line)
        if not m:
            break
        names[m.group(3)] += 1
        found[m.group(3)] = (m.group(1), m.group(2))
    twice = [n for n, c in names.items() if c > 1]
    expect(not twice, f"functions listed more than once: {twice}", "\n".join(lines))
    return found


def expected_shares(slowed_factor):
    costs = dict(COST_MS)
    costs[SLOWED] *= slowed_factor
    whole = sum(costs.values())
    return {f: 100.0 * c / whole for f, c in costs.items()}


def check_absolute(recA, recB, work):
    stacks = folded_diff(recA, recB, "--absolute")
    for function in FUNCTIONS:
        before, after = inclusive(stacks, function)
        expect(before >= 150 and after >= 150, f"{function}: too few samples: {before} -> {after}")
        want = 2.0 if function == SLOWED else 1.0
        ratio = after / before
        expect(abs(ratio - want) <= RATIO_ERROR * want,
               f"{function}: after/before {ratio:.2f}, want {want} (folded diff)",
               "\n".join(f"{s} {v}" for s, v in stacks.items()))
        heaviest = max((s for s in stacks if function in s.split(";")), key=lambda s: sum(stacks[s]))
        expect(min(stacks[heaviest]) > 0,
               f"{heaviest} is on one side only: {stacks[heaviest]}: its frames were not matched")
    result = diff(recA, recB, "--absolute", "-o", os.path.join(work, "absolute.html"))
    changes = summary_changes(result.stderr)
    change, _ = changes.get(SLOWED, ("", ""))
    before, after = inclusive(stacks, SLOWED)
    expect(change.startswith("+") and abs(int(change) - (after - before)) <= 0.1 * (after - before),
           f"summary: {SLOWED} {change}, want +{after - before}", text(result.stderr))
    for function in FUNCTIONS:
        if function != SLOWED and function in changes:
            moved = abs(int(changes[function][0]))
            expect(moved <= RATIO_ERROR * inclusive(stacks, function)[0],
                   f"summary: {function} moved {moved}", text(result.stderr))


def check_normalised(recA, recB):
    result = diff(recA, recB, "-o", os.path.join(os.path.dirname(recA), "shares.html"))
    err = text(result.stderr)
    expect("compared as shares of each side's total" in err, "the default is not normalised", err)
    expect(re.search(r"before \d+ \(1 process\), after \d+ \(1 process\)", err),
           "one process a side", err)
    changes = summary_changes(result.stderr)
    before, after = expected_shares(1), expected_shares(2)
    for function in FUNCTIONS:
        expect(function in changes, f"summary: {function} not listed", err)
        m = re.match(r"\s*([\d.]+)% ->\s+([\d.]+)%", changes[function][1])
        expect(m, f"summary: no shares for {function}", err)
        got = (float(m.group(1)), float(m.group(2)))
        want = (before[function], after[function])
        expect(all(abs(g - w) <= SHARE_ERROR_PTS for g, w in zip(got, want)),
               f"summary: {function} {got[0]}% -> {got[1]}%, want {want[0]:.1f}% -> {want[1]:.1f}%",
               err)
    return os.path.join(os.path.dirname(recA), "shares.html")


def check_browser(report):
    if not NODE:
        skip("rebuild", "node is not installed (scripts/setup.sh installs it)")
    result = run([NODE, BROWSER_CHECK, report, "normalised", *FUNCTIONS], timeout=120)
    expect(result.returncode == 0, "the report's flame graph and table disagree", describe(result))
    seen = json.loads(text(result.stdout).splitlines()[0])
    pct = lambda s: float(s.rstrip("%"))  # noqa: E731
    want = expected_shares(2)
    for function in FUNCTIONS:
        share = pct(seen[function]["table"]["shareAfter"])
        expect(abs(share - want[function]) <= SHARE_ERROR_PTS,
               f"report: {function} is {share}% after, want {want[function]:.1f}%")


def rebuild(cc):
    compiler = shutil.which(cc)
    if not compiler:
        skip(f"rebuild_{cc}", f"{cc} is not installed")
    work = fresh_dir(f"rebuild_{cc}")
    with open(os.path.join(SOURCES, "three_functions.c")) as f:
        source_text = f.read()
    where = os.path.join(work, "bin")  # B replaces A, as a rebuild does
    recA = recorded(work, "A", build(compiler, source_text, where), ROUNDS)
    recB = recorded(work, "B", build(compiler, edited(source_text), where), ROUNDS)
    check_absolute(recA, recB, work)
    check_browser(check_normalised(recA, recB))


def normalised():
    work = fresh_dir("normalised")
    with open(os.path.join(SOURCES, "three_functions.c")) as f:
        prog = build(shutil.which("cc") or "cc", f.read(), os.path.join(work, "bin"))
    full = recorded(work, "full", prog, ROUNDS)
    half = recorded(work, "half", prog, ROUNDS // 2)
    stacks = folded_diff(full, half)
    whole = [sum(v[i] for v in stacks.values()) for i in (0, 1)]
    for function in FUNCTIONS:
        before, after = inclusive(stacks, function)
        moved = 100.0 * abs(after / whole[1] - before / whole[0])
        expect(moved <= SHARE_ERROR_PTS, f"normalised: {function} moved {moved:.1f} points",
               f"{function}: {before} -> {after} of {whole}")
    raw = folded_diff(full, half, "--absolute")
    ratio = sum(v[0] for v in raw.values()) / sum(v[1] for v in raw.values())
    expect(1.8 <= ratio <= 2.2, f"--absolute: totals {ratio:.2f} to 1, want 2")
    scaled = sum(v[1] for v in stacks.values()) / sum(v[0] for v in stacks.values())
    expect(0.99 <= scaled <= 1.01, f"normalised: the sides total {scaled:.3f} to 1, want 1")


def kinds():
    work = fresh_dir("kinds")
    with open(os.path.join(SOURCES, "three_functions.c")) as f:
        prog = build(shutil.which("cc") or "cc", f.read(), os.path.join(work, "bin"))
    recA = recorded(work, "A", prog, ROUNDS // 4)
    recB = recorded(work, "B", prog, ROUNDS // 4)
    traces = [os.path.join(r, t) for r in (recA, recB) for t in os.listdir(r) if t.endswith(".stoke")]
    expect(len(traces) == 2, f"one trace a recording: {traces}")
    stacks = folded_diff(*traces)
    expect(all(inclusive(stacks, f)[0] > 0 and inclusive(stacks, f)[1] > 0 for f in FUNCTIONS),
           "two traces: functions matched", str(stacks))
    folded = os.path.join(work, "B.folded")
    report = run([STOKE, "report", recB, "--folded"])
    expect(report.returncode == 0, "stoke report --folded failed", describe(report))
    with open(folded, "wb") as f:
        f.write(report.stdout)
    stacks = folded_diff(recA, folded)
    for function in FUNCTIONS:
        before, after = inclusive(stacks, function)
        expect(before > 0 and after > 0, f"recording vs folded: {function} {before} -> {after}",
               "\n".join(f"{s} {v}" for s, v in stacks.items()))
    snaps = [os.path.join(work, f"snap{i}.stoke") for i in (1, 2)]
    for i, snap in enumerate(snaps, 1):
        made = run([MAKE_TRACE, "heap", snap, str(i), "exit"])
        expect(made.returncode == 0, "make_trace heap failed", describe(made))
    stacks = folded_diff(*snaps)
    expect(any(a != b for a, b in stacks.values()), "two snapshots: what changed", str(stacks))
    for before, after in ((recA, snaps[0]), (snaps[0], recA)):
        mixed = run([STOKE, "diff", before, after])
        err = text(mixed.stderr)
        expect(mixed.returncode == 1, "CPU against heap: exit status 1", describe(mixed))
        expect(before in err and after in err and "CPU" in err and "heap snapshot" in err,
               "CPU against heap: the error names both inputs and what each holds", err)


if __name__ == "__main__":
    sys.exit(main({"rebuild_gcc": lambda: rebuild("gcc"), "rebuild_clang": lambda: rebuild("clang"),
                   "normalised": normalised, "kinds": kinds}))

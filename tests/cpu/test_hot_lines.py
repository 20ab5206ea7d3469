#!/usr/bin/env python3
"""test_hot_lines.py - each sample is put on the line it was at, in every
output that holds lines, checked against the program's known split and
against real tools on the same addresses:

  hot_lines     hot_lines runs two loops of the same work in one function,
                each on a line of its own, the first twice as many rounds:
                `stoke report --folded --lines` and `go tool pprof -list`
                of stoke's pprof put two thirds of two_loops' samples on
                the first line and one third on the second (within 5
                points); `go tool pprof -disasm` finds the function's
                instructions in the binary and the same samples on them;
                every address pprof holds for two_loops is at the line
                eu-addr2line gives for it
  inline_lines  inline_target's inner_kernel is inlined into outer_loop:
                the folded stacks put outer_loop on the line of the call
                and inner_kernel on a line of its own body, the chain
                eu-addr2line -i gives for the sampled addresses
  report_lines  the HTML report of hot_lines shows two_loops' hottest lines
                under its sandwich, opened from the flame graph and from
                the table, with their shares and the program's own source
                text (a hostile comment shown as text), at 1400x900 and
                800x600 in headless Chromium (browser_hot_lines_test.mjs)

usage: test_hot_lines.py hot_lines|inline_lines|report_lines
"""
import os
import re

from e2e_support import (SOURCES, describe, expect, fresh_dir, main, program, record_ok,
                         report_folded, run)
from formats_support import go_env, protoc_decode, string, number, stoke_ok

TOLERANCE_POINTS = 5
ROUNDS = "300000000"  # about a second of CPU time


NODE = os.environ.get("E2E_NODE") or "node"
BROWSER_TEST = os.path.join(SOURCES, "..", "..", "viewer", "browser_hot_lines_test.mjs")


def marked_line(source, mark):
    """The number of the line of source that holds mark."""
    with open(source, errors="replace") as f:
        for number_, line in enumerate(f, 1):
            if mark in line:
                return number_
    raise AssertionError(f"{mark} is not in {source}")


def lines_of(folded, function):
    """{(file, line): samples} of the frames of function, as `--lines`
    names them ("function file:line")."""
    found = {}
    for stack, n in folded.stacks.items():
        for frame in stack:
            m = re.fullmatch(re.escape(function) + r" (.+):(\d+)", frame)
            if m:
                key = (m.group(1), int(m.group(2)))
                found[key] = found.get(key, 0) + n
                break
    return found


def expect_split(where, on_first, on_second, total):
    """on_first and on_second hold (about) 2/3 and 1/3 of total."""
    expect(total > 300, f"{where}: only {total} samples of two_loops")
    first = 100.0 * on_first / total
    second = 100.0 * on_second / total
    expect(abs(first - 200 / 3) <= TOLERANCE_POINTS and abs(second - 100 / 3) <= TOLERANCE_POINTS,
           f"{where}: the loops' lines hold {first:.1f}% and {second:.1f}% of two_loops, "
           f"expected 66.7% and 33.3% (+-{TOLERANCE_POINTS})")


def pprof_list(work, pb_gz, function):
    """{line: flat samples} from go tool pprof -list."""
    # -source_path: pprof's guess from the working directory can trim the path wrong
    r = run(["go", "tool", "pprof", "-sample_index=samples", f"-source_path={SOURCES}", "-list",
             f"^{function}$", pb_gz], env=go_env(work))
    expect(r.returncode == 0, "go tool pprof -list failed", describe(r))
    flat = {}
    for line in r.stdout.decode(errors="replace").splitlines():
        m = re.match(r"\s*(\S+)\s+\S+\s+(\d+):", line)
        if m and m.group(1) != ".":
            flat[int(m.group(2))] = int(m.group(1))
    expect(flat, f"go tool pprof -list {function} shows no sampled line",
           r.stdout.decode(errors="replace"))
    return flat


def pprof_disasm_total(work, pb_gz, function):
    """The samples go tool pprof -disasm puts on the function's instructions."""
    r = run(["go", "tool", "pprof", "-sample_index=samples", "-disasm", function, pb_gz],
            env=go_env(work))
    expect(r.returncode == 0, "go tool pprof -disasm failed", describe(r))
    total = 0
    for line in r.stdout.decode().splitlines():
        m = re.match(r"\s*(\d+)\s+\S+\s+[0-9a-f]+:", line)
        if m:
            total += int(m.group(1))
    return total, r.stdout.decode()


def function_locations(decoded, function):
    """(address, file, line) of each location whose innermost line is in
    function, from stoke's pprof decoded."""
    functions = {number(f, "id"): f for f in decoded["function"]}
    found = []
    for loc in decoded["location"]:
        lines = loc.get("line", [])
        if not lines:
            continue
        fn = functions[number(lines[0], "function_id")]
        if string(decoded, fn, "name") == function:
            found.append((number(loc, "address"), string(decoded, fn, "filename"),
                          number(lines[0], "line")))
    return found


def file_line(text):
    """eu-addr2line's "file:line:column" as (file, line)."""
    file, line = re.sub(r":(\d+):\d+$", r":\1", text).rsplit(":", 1)
    return file, int(line)


def addr2line(binary, addresses):
    """eu-addr2line's (file, line) of each address."""
    r = run(["eu-addr2line", "-e", binary, *(hex(a) for a in addresses)])
    expect(r.returncode == 0, "eu-addr2line failed", describe(r))
    return [file_line(line) for line in r.stdout.decode().splitlines()]


def addr2line_chain(binary, address):
    """eu-addr2line -i's lines at address: the innermost inlined function's
    first, then the line of each inlined call around it."""
    r = run(["eu-addr2line", "-e", binary, "-i", hex(address)])
    expect(r.returncode == 0, "eu-addr2line -i failed", describe(r))
    return [file_line(line)[1] for line in r.stdout.decode().splitlines()]


def hot_lines():
    out = fresh_dir("hot_lines")
    binary = program("hot_lines")
    source = os.path.join(SOURCES, "hot_lines.c")
    first = marked_line(source, "/* HOT_TWO_THIRDS */")
    second = marked_line(source, "/* HOT_ONE_THIRD */")
    record_ok(os.path.join(out, "rec"), [binary, ROUNDS])
    rec = os.path.join(out, "rec")

    folded, _ = report_folded(rec, ["--lines"])
    lines = lines_of(folded, "two_loops")
    total = sum(lines.values())
    at = {line: n for (file, line), n in lines.items()
          if os.path.realpath(file) == os.path.realpath(source)}
    expect_split("--folded --lines", at.get(first, 0), at.get(second, 0), total)

    pb_gz = os.path.join(out, "profile.pb.gz")
    stoke_ok("report", rec, "-o", pb_gz)
    listed = pprof_list(out, pb_gz, "two_loops")
    expect_split("go tool pprof -list", listed.get(first, 0), listed.get(second, 0),
                 sum(listed.values()))
    disasm, text = pprof_disasm_total(out, pb_gz, "two_loops")
    expect(disasm == sum(listed.values()),
           f"go tool pprof -disasm puts {disasm} samples on two_loops' instructions, "
           f"-list {sum(listed.values())}", text)

    locations = function_locations(protoc_decode(pb_gz), "two_loops")
    expect(locations, "stoke's pprof has no location in two_loops")
    truth = addr2line(binary, [a for a, _, _ in locations])
    for (address, file, line), (real_file, real_line) in zip(locations, truth):
        expect(os.path.realpath(real_file) == os.path.realpath(file) and real_line == line,
               f"two_loops at {address:#x}: stoke says {file}:{line}, "
               f"eu-addr2line {real_file}:{real_line}")


def inline_lines():
    out = fresh_dir("inline_lines")
    binary = program("inline_target")
    source = os.path.join(SOURCES, "inline_target.c")
    call = marked_line(source, "x = inner_kernel(x, ms / 10);")
    rec = os.path.join(out, "rec")
    record_ok(rec, [binary, "400"])
    folded, _ = report_folded(rec, ["--lines"])
    outer = lines_of(folded, "outer_loop")
    total = sum(outer.values())
    expect(total > 100, f"only {total} samples in outer_loop", folded.top())
    on_call = sum(n for (file, line), n in outer.items() if line == call)
    expect(on_call >= 0.95 * total,
           f"outer_loop is on line {call} (the inlined call) in {on_call} of {total} samples",
           str(outer))
    pb_gz = os.path.join(out, "profile.pb.gz")
    stoke_ok("report", rec, "-o", pb_gz)
    decoded = protoc_decode(pb_gz)
    functions = {number(f, "id"): string(decoded, f, "name") for f in decoded["function"]}
    leaves = {number(s, "location_id") for s in decoded["sample"]}  # the first id of each
    checked = 0
    for loc in decoded["location"]:
        names = [functions[number(line, "function_id")] for line in loc.get("line", [])]
        if "inner_kernel" not in names or number(loc, "address") == 0:
            continue
        # a return address is named by its call instruction, as stoke does
        address = number(loc, "address") - (number(loc, "id") not in leaves)
        ours = [number(line, "line") for line in loc["line"]]
        theirs = addr2line_chain(binary, address)
        expect(ours == theirs, f"the inline chain at {address:#x}: stoke's lines {ours} "
               f"({names}), eu-addr2line -i's {theirs}")
        checked += 1
    expect(checked, "stoke's pprof has no location of inner_kernel with an address")


def report_lines():
    out = fresh_dir("report_lines")
    source = os.path.join(SOURCES, "hot_lines.c")
    first = marked_line(source, "/* HOT_TWO_THIRDS */")
    second = marked_line(source, "/* HOT_ONE_THIRD */")
    rec = os.path.join(out, "rec")
    record_ok(rec, [program("hot_lines"), ROUNDS])
    html = os.path.join(out, "report.html")
    stoke_ok("report", rec, "-o", html)
    r = run([NODE, BROWSER_TEST, html, source, "two_loops", str(first), str(second),
             os.path.join(out, "shots")], timeout=120)
    expect(r.returncode == 0, "the hottest lines in the browser", describe(r))


if __name__ == "__main__":
    raise SystemExit(main({"hot_lines": hot_lines, "inline_lines": inline_lines,
                           "report_lines": report_lines}))

#!/usr/bin/env python3
"""test_heap_timeline.py - the live heap over time in the report of a real
recording: the heap program growth, run "timed" (it grows by exactly 8 MiB
through grow_g between the two moments it prints, tests/heap/programs/
growth.c), recorded with --heap --heap-interval 1 (every allocation) and
without --heap; heap_totals reads what the --heap trace says of its live
heap (HEAP_TOTALS) with stoke's reader alone; browser_heap_timeline_test.mjs
then drives both reports in headless Chromium.

usage: test_heap_timeline.py heap_timeline_browser
"""
import glob
import os

from e2e_support import describe, expect, fresh_dir, main, program, record_ok, run, text

NODE = os.environ.get("E2E_NODE", "node")
HEAP_TOTALS = os.environ["VIEWER_HEAP_TOTALS"]
BROWSER_TEST = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                            "browser_heap_timeline_test.mjs")


def record_growth(out, options):
    """Records growth timed; returns the moments it printed (ns since the
    epoch) by name."""
    result = record_ok(out, [program("growth"), "timed"], options)
    return dict(line.split() for line in text(result.stdout).splitlines()
                if " " in line and not line.startswith("growth:"))


def cpu_trace(out):
    traces = [t for t in glob.glob(os.path.join(out, "growth.*.stoke")) if ".heap." not in t]
    expect(len(traces) == 1, f"expected one CPU trace in {out}", "\n".join(traces))
    return traces[0]


def heap_timeline_browser():
    work = fresh_dir("heap_timeline_browser")
    heap, cpu = os.path.join(work, "heap"), os.path.join(work, "cpu")
    at = record_growth(heap, ["--heap", "--heap-interval", "1"])
    record_growth(cpu, [])
    totals = run([HEAP_TOTALS, cpu_trace(heap)])
    expect(totals.returncode == 0, "heap_totals cannot read the --heap trace", describe(totals))
    peak = text(totals.stdout).split()[-1]
    browser = run([NODE, BROWSER_TEST, os.path.join(heap, "flamegraph.html"),
                   os.path.join(cpu, "flamegraph.html"), at["before"], at["after"], peak,
                   os.path.join(work, "screenshots")], timeout=150)
    print(text(browser.stdout), end="")
    expect(browser.returncode == 0, "the browser test of the live heap over time failed",
           describe(browser))


if __name__ == "__main__":
    raise SystemExit(main({"heap_timeline_browser": heap_timeline_browser}))

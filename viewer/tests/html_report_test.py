#!/usr/bin/env python3
"""html_report_test.py - checks stoke's HTML reports without a browser: the
stacks embedded in the page equal `--folded` output of the same profile,
nothing in the page would be fetched, and hostile names appear only escaped.

Usage: html_report_test.py DEMO.html DEMO.folded SYNTHETIC.html SYNTHETIC.folded
(written by html_demo and html_synthetic)
"""
import os
import subprocess
import sys

TOOLS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools")
# Text of the demo's hostile names and title that must never appear raw.
RAW_HOSTILE = ["<img src=x", "</script><script>alert(2)", "<b>title", "<!-- comment"]


def run_tool(name, *args):
    return subprocess.run([sys.executable, os.path.join(TOOLS, name), *args],
                          capture_output=True, encoding="utf-8", errors="replace")


def check_same_stacks(html, folded):
    result = run_tool("html_to_folded.py", html)
    if result.returncode != 0:
        return [f"html_to_folded.py {html} failed: {result.stderr.strip()}"]
    with open(folded, encoding="utf-8", errors="replace") as f:
        want = sorted(f.read().splitlines())
    got = sorted(result.stdout.splitlines())
    if got == want:
        return []
    missing = sorted(set(want) - set(got))[:3]
    extra = sorted(set(got) - set(want))[:3]
    return [f"{html}: stacks differ from {folded} ({len(got)} vs {len(want)} lines); "
            f"missing e.g. {missing}, unexpected e.g. {extra}"]


def check_offline(html):
    result = run_tool("html_check_offline.py", html)
    return [] if result.returncode == 0 else [result.stdout.strip() or result.stderr.strip()]


def check_no_raw_hostile(html):
    with open(html, encoding="utf-8") as f:
        text = f.read()
    return [f"{html}: contains raw {s!r}" for s in RAW_HOSTILE if s in text]


def main():
    if len(sys.argv) != 5:
        print(__doc__.strip().splitlines()[-2], file=sys.stderr)
        return 2
    demo_html, demo_folded, big_html, big_folded = sys.argv[1:]
    problems = (check_same_stacks(demo_html, demo_folded) + check_offline(demo_html) +
                check_no_raw_hostile(demo_html) + check_same_stacks(big_html, big_folded) +
                check_offline(big_html))
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

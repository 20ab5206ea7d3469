#!/usr/bin/env python3
"""test_html.py - the HTML report of a real recording is self-contained
(viewer/tools/html_check_offline.py finds nothing fetched from a network:
no http(s) URL, no external src/href, a CSP that forbids it), and the
stacks it embeds are exactly those of `stoke report --folded`, with and
without --threads. A copy with one external image added must be caught by
the same check, so the check is known to look.

usage: test_html.py self_contained
"""
import os
import sys

from e2e_support import (VIEWER_TOOLS, describe, expect, fresh_dir, main, program, record_ok,
                         run, text, STOKE)

CHECK_OFFLINE = os.path.join(VIEWER_TOOLS, "html_check_offline.py")
HTML_TO_FOLDED = os.path.join(VIEWER_TOOLS, "html_to_folded.py")


def sorted_lines(data):
    return sorted(text(data).splitlines())


def expect_offline(html):
    result = run([sys.executable, CHECK_OFFLINE, html])
    expect(result.returncode == 0, f"{html} is not self-contained", describe(result))


def expect_same_as_folded(html, trace_dir, options):
    """The report's by-process tab (a recording of several processes has
    one after the merged tab) holds exactly the stacks of --folded."""
    from_html = run([sys.executable, HTML_TO_FOLDED, html, "--tab", "CPU by process"])
    expect(from_html.returncode == 0, f"cannot read the data of {html}", describe(from_html))
    folded = run([STOKE, "report", trace_dir, "--folded", *options])
    expect(folded.returncode == 0, "stoke report --folded failed", describe(folded))
    html_lines, folded_lines = sorted_lines(from_html.stdout), sorted_lines(folded.stdout)
    expect(len(folded_lines) >= 3, "the folded report is nearly empty", text(folded.stdout))
    missing = set(folded_lines) - set(html_lines)
    extra = set(html_lines) - set(folded_lines)
    expect(html_lines == folded_lines,
           f"{html} {' '.join(options)}: its stacks differ from --folded",
           "only in --folded:\n" + "\n".join(sorted(missing)[:10]) +
           "\nonly in the HTML:\n" + "\n".join(sorted(extra)[:10]))


def expect_check_catches(html, work):
    tampered = os.path.join(work, "tampered.html")
    with open(html, encoding="utf-8") as f:
        page = f.read()
    with open(tampered, "w", encoding="utf-8") as f:
        f.write(page.replace("</body>", '<img src="https://example.com/x.png"></body>', 1))
    result = run([sys.executable, CHECK_OFFLINE, tampered])
    expect(result.returncode != 0, "html_check_offline.py accepts a report that loads an image "
           "from the network, so its verdict on the real report means nothing", describe(result))


def self_contained():
    work = fresh_dir("self_contained")
    out = os.path.join(work, "rec")
    # several processes (a shell, a parent and its child) and threads
    script = f"'{program('forker')}' 150 && '{program('shares')}' 2 30"
    record_ok(out, ["sh", "-c", script])
    record_html = os.path.join(out, "flamegraph.html")
    expect_offline(record_html)
    expect_same_as_folded(record_html, out, [])
    threads_html = os.path.join(work, "threads.html")
    report = run([STOKE, "report", out, "-o", threads_html, "--threads"])
    expect(report.returncode == 0, "stoke report --threads failed", describe(report))
    expect_offline(threads_html)
    expect_same_as_folded(threads_html, out, ["--threads"])
    expect_check_catches(record_html, work)


if __name__ == "__main__":
    raise SystemExit(main({"self_contained": self_contained}))

#!/usr/bin/env python3
"""html_report_test.py - checks stoke's HTML reports without a browser: the
stacks embedded in the page equal `--folded` output of the same profile (in
a report of several tabs: every value of every tab, and the before/after
pairs of a differential tab), nothing in the page would be fetched, and
hostile names appear only escaped. For a Node.js profile: the frame table
carries each JavaScript frame's line, column and V8 tier, and the stacks
read with their tiers keep one function's tiers apart.

Usage: html_report_test.py DEMO.html DEMO.folded SYNTHETIC.html SYNTHETIC.folded TABS.html TABS_DIR
                           NODE.html NODE.folded NODE_NATIVE.folded
(written by html_demo, html_synthetic, html_tabs and html_node)
"""
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "viewer", "tools"))
from report_data import frame_column, load_report

TOOLS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "viewer", "tools")
# Text of the demo's hostile names and title that must never appear raw.
RAW_HOSTILE = ["<img src=x", "</script><script>alert(2)", "<b>title", "<!-- comment", "<b>1</b>",
               "<i>test"]
# html_tabs: the tabs, and the diff tab's stacks as difffolded.pl would write them.
TABS = ["0\tCPU\t0=samples",
        "1\theap <b>1</b> (exit)\t0=live_bytes, 1=live_objects, 2=alloc_bytes, 3=alloc_objects",
        "2\tdiff 1 \u2192 2 (differential)\t0=before, 1=after"]
DIFF_TAB_STACKS = """\
server (100);main;cache_put;malloc 20971520 31457280
server (100);main;handle;make_buffer;malloc 4194304 1048576
server (100);main;handle;new_path;malloc 0 524288
server (100);main;load_config;malloc 10485760 10485760
server (100);main;warmup;malloc 2097152 0
"""


# html_node: the stacks through renderTree (compiled by three tiers), with
# each tier's mark, and its frames' (line, column, tier).
HANDLE = ("node (4242);main (4242);_start;__libc_start_main;main;node::Start;uv_run;uv__io_poll;"
          "Builtin:JSEntry;*emit node:events:517:28;^handle express/lib/router/layer.js:152:42;")
RENDER_TREE = "renderTree lib/tree.js:20:15"
NODE_TIER_STACKS = [f"{HANDLE}*{RENDER_TREE} 50", f"{HANDLE}*{RENDER_TREE};Builtin:LoadIC 16",
                    f"{HANDLE}*{RENDER_TREE};v8::internal::Heap::CollectGarbage 15",
                    f"{HANDLE}^{RENDER_TREE} 12", f"{HANDLE}~{RENDER_TREE} 3",
                    f"{HANDLE}~{RENDER_TREE};Builtin:LoadIC 4"]
RENDER_TREE_FRAMES = [(20, 15, ord("*")), (20, 15, ord("^")), (20, 15, ord("~"))]


def run_tool(name, *args):
    return subprocess.run([sys.executable, os.path.join(TOOLS, name), *args],
                          capture_output=True, encoding="utf-8", errors="replace")


def read_lines(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return sorted(f.read().splitlines())


def html_stacks(html, *options):
    """The sorted folded lines of html_to_folded.py, or an error string."""
    result = run_tool("html_to_folded.py", html, *options)
    if result.returncode != 0:
        return f"html_to_folded.py {html} {' '.join(options)} failed: {result.stderr.strip()}"
    return sorted(result.stdout.splitlines())


def compare(what, got, want):
    if isinstance(got, str):
        return [got]
    if got == want:
        return []
    missing = sorted(set(want) - set(got))[:3]
    extra = sorted(set(got) - set(want))[:3]
    return [f"{what}: stacks differ ({len(got)} vs {len(want)} lines); "
            f"missing e.g. {missing}, unexpected e.g. {extra}"]


def check_same_stacks(html, folded):
    return compare(f"{html} vs {folded}", html_stacks(html), read_lines(folded))


def check_tabs(html, folded_dir):
    """Every value of every tab against html_tabs' folded files; tabs by
    name; the differential tab's before/after pairs."""
    listing = run_tool("html_to_folded.py", html, "--tabs")
    problems = []
    if listing.stdout.splitlines() != TABS:
        problems.append(f"{html}: tabs listed as {listing.stdout.splitlines()}, want {TABS}")
    for tab in range(len(TABS)):
        values = TABS[tab].split("\t")[2].split(", ")
        for v in range(len(values)):
            folded = os.path.join(folded_dir, f"tab{tab}.value{v}.folded")
            problems += compare(f"{html} tab {tab} value {v} vs {folded}",
                                html_stacks(html, "--tab", str(tab), "--value", str(v)),
                                read_lines(folded))
    problems += compare(f"{html} tab CPU (by name)", html_stacks(html, "--tab", "CPU"),
                        read_lines(os.path.join(folded_dir, "tab0.value0.folded")))
    problems += compare(f"{html} diff tab before,after", html_stacks(html, "--tab", "2", "--value", "0,1"),
                        sorted(DIFF_TAB_STACKS.splitlines()))
    return problems


def check_node(html, folded, native_folded):
    """The Node.js tab (tiers merged into one stack per path, as --folded
    has them) and the native one; with --tiers renderTree's three tiers
    apart; its frames' line, column and tier in the frame table."""
    problems = compare(f"{html} vs {folded}", html_stacks(html), read_lines(folded))
    problems += compare(f"{html} tab 1 vs {native_folded}", html_stacks(html, "--tab", "1"),
                        read_lines(native_folded))
    tiers = html_stacks(html, "--tiers")
    if not isinstance(tiers, str):
        tiers = [line for line in tiers if RENDER_TREE in line]
    problems += compare(f"{html} --tiers (renderTree)", tiers, sorted(NODE_TIER_STACKS))
    data = load_report(html)
    frames = data["frames"]
    lengths = {key: len(column) for key, column in frames.items()}
    if set(lengths.values()) != {len(frames["name"])} or "column" not in frames or "tier" not in frames:
        problems.append(f"{html}: frame table columns {lengths}")
    columns = zip(frames["name"], frames["line"], frame_column(data, "column"), frame_column(data, "tier"))
    got = sorted((line, column, tier) for name, line, column, tier in columns
                 if data["strings"][name] == RENDER_TREE)
    if got != sorted(RENDER_TREE_FRAMES):
        problems.append(f"{html}: renderTree frames (line, column, tier) {got}, want {RENDER_TREE_FRAMES}")
    return problems


def check_offline(html):
    result = run_tool("html_check_offline.py", html)
    return [] if result.returncode == 0 else [result.stdout.strip() or result.stderr.strip()]


def check_no_raw_hostile(html):
    with open(html, encoding="utf-8") as f:
        text = f.read()
    return [f"{html}: contains raw {s!r}" for s in RAW_HOSTILE if s in text]


def main():
    if len(sys.argv) != 10:
        print("\n".join(__doc__.strip().splitlines()[-4:-1]), file=sys.stderr)
        return 2
    demo_html, demo_folded, big_html, big_folded, tabs_html, tabs_dir = sys.argv[1:7]
    node_html, node_folded, node_native_folded = sys.argv[7:]
    problems = (check_same_stacks(demo_html, demo_folded) + check_offline(demo_html) +
                check_no_raw_hostile(demo_html) + check_same_stacks(big_html, big_folded) +
                check_offline(big_html) + check_tabs(tabs_html, tabs_dir) +
                check_offline(tabs_html) + check_no_raw_hostile(tabs_html) +
                check_node(node_html, node_folded, node_native_folded) + check_offline(node_html))
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

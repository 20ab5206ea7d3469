#!/usr/bin/env python3
"""html_to_folded.py - prints the stacks embedded in a stoke HTML report as
folded stacks, in the format of `stoke report --folded` ("a;b;c 123" per
stack), so a test can check the HTML holds the same data. With --value A,B
each line carries several values ("a;b;c 10 12", as difffolded.pl writes a
before/after pair). With --tiers a JavaScript frame compiled by a V8 tier
has the tier's mark before its name, as node's perf map writes it
("*renderTree ..."), so the tiers of one function stay apart. Lines come in
the report's tree order: sort both sides before comparing. --tabs lists the
report's tabs and their values.

Usage: html_to_folded.py REPORT.html [--tab N|NAME] [--value N[,N...]] [--tiers] [--tabs]
"""
import argparse
import sys

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
from report_data import ReportError, load_report, load_report_data, stacks

# What `stoke report --folded` writes instead of the characters that would
# break a folded line (output/folded.c).
FOLDED_REPLACEMENTS = str.maketrans({";": ":", "\n": " ", "\r": " ", "\t": " "})


def folded_name(name):
    return name.translate(FOLDED_REPLACEMENTS)


def value_indices(text):
    try:
        indices = [int(v) for v in text.split(",")]
    except ValueError:
        raise ReportError(f"--value {text}: give value indices like 0 or 0,1")
    return indices


def list_tabs(path):
    for i, tab in enumerate(load_report(path)["tabs"]):
        values = ", ".join(f"{v}={value['name']}" for v, value in enumerate(tab["values"]))
        kind = " (differential)" if tab["differential"] else ""
        print(f"{i}\t{tab['name']}{kind}\t{values}")


def print_stacks(path, tab, value_text, with_tiers):
    data = load_report_data(path, tab)
    indices = value_indices(value_text)
    nvalues = len(data["tree"]["self"])
    for v in indices:
        if not 0 <= v < nvalues:
            raise ReportError(f"--value {v}: tab {data['name']!r} has {nvalues} value type(s)")
    out = sys.stdout
    for path_names, values in stacks(data, indices, with_tiers):
        out.write(";".join(folded_name(n) for n in path_names) + " " +
                  " ".join(str(v) for v in values) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report")
    parser.add_argument("--tab", default="0", help="tab number (from 0) or name (default 0)")
    parser.add_argument("--value", default="0",
                        help="value index, or indices separated by commas (default 0)")
    parser.add_argument("--tiers", action="store_true",
                        help="write each V8 tier's mark before the name of a frame it compiled")
    parser.add_argument("--tabs", action="store_true", help="list the tabs and their values")
    args = parser.parse_args()
    try:
        if args.tabs:
            list_tabs(args.report)
        else:
            print_stacks(args.report, args.tab, args.value, args.tiers)
    except ReportError as e:
        print(f"html_to_folded: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

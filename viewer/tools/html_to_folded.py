#!/usr/bin/env python3
"""html_to_folded.py - prints the stacks embedded in a stoke HTML report as
folded stacks, in the format of `stoke report --folded` ("a;b;c 123" per
stack), so a test can check the HTML holds the same data. Lines come in the
report's tree order: sort both sides before comparing.

Usage: html_to_folded.py REPORT.html [--value N]
"""
import argparse
import sys

sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
from report_data import ReportError, load_report_data, stacks

# What `stoke report --folded` writes instead of the characters that would
# break a folded line (symbolizer/folded.c).
FOLDED_REPLACEMENTS = str.maketrans({";": ":", "\n": " ", "\r": " ", "\t": " "})


def folded_name(name):
    return name.translate(FOLDED_REPLACEMENTS)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report")
    parser.add_argument("--value", type=int, default=0, help="value index (default 0)")
    args = parser.parse_args()
    try:
        data = load_report_data(args.report)
        if not 0 <= args.value < len(data["tree"]["self"]):
            raise ReportError(f"--value {args.value}: the report has "
                              f"{len(data['tree']['self'])} value type(s)")
        out = sys.stdout
        for path, value in stacks(data, args.value):
            out.write(";".join(folded_name(n) for n in path) + f" {value}\n")
    except ReportError as e:
        print(f"html_to_folded: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

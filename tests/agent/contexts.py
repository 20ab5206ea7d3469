#!/usr/bin/env python3
"""contexts.py - every function a header of the agent declares says the
contexts it runs in, in one form: its comment ends with a line

    Context: WORD[, WORD...].

where each word is one of docs/internals.md's contexts of the agent. A
comment may stand for the declarations right below it, one to a line with
no blank line between them (records_begin ... records_end). Names that
begin with two underscores are the C library's (__vfprintf_chk), not the
agent's.

usage: contexts.py PROFILER_DIR
"""
import os
import re
import sys

WORDS = {"program", "handler", "hooks", "writer", "keeper", "any"}
CONTEXT = re.compile(r"Context: ([a-z]+(?:, [a-z]+)*)\.\s*(?:\*/)?\s*$")
# A function declared or defined at the top of a header: a line at column 0
# that opens a parameter list (a prototype, a static inline function, or a
# pointer to a function such as unwind_getcontext); attributes taken out.
FUNCTION = re.compile(r"^(?!#|typedef|(?:struct|enum|union) \w+ \{)[A-Za-z_][^;{(=]*?"
                      r"(?:\(\*(\w+)\)|\b(\w+))\s*\((?!\*)")
ATTRIBUTE = re.compile(r"__attribute__\(\(.*?\)\)\s*")


def declarations(lines):
    """(line number, name) of each function declared at the top level."""
    depth = 0
    for number, line in enumerate(lines, 1):
        if depth == 0 and not line.startswith((" ", "\t", "/*", " *")):
            match = FUNCTION.match(ATTRIBUTE.sub("", line))
            name = match and (match.group(1) or match.group(2))
            if name and not name.startswith("__"):  # the C library's, or an attribute
                yield number, name
        depth += line.count("{") - line.count("}")


def comment_above(lines, number):
    """The last line of the comment that stands for the declaration at
    line number (1-based), or None."""
    i = number - 2
    while i >= 0:
        text = lines[i].rstrip()
        if text.endswith("*/"):
            return text
        if not text or text.startswith("#"):
            return None
        i -= 1  # a declaration of the same group, or its continuation
    return None


def check(root):
    failures, count = [], 0
    for folder, _, files in sorted(os.walk(root)):
        for name in sorted(files):
            if not name.endswith(".h"):
                continue
            path = os.path.join(folder, name)
            lines = open(path).read().split("\n")
            for number, function in declarations(lines):
                count += 1
                last = comment_above(lines, number)
                match = CONTEXT.search(last or "")
                where = f"{os.path.relpath(path, root)}:{number}: {function}"
                if not match:
                    failures.append(f"{where}: no 'Context: ...' line ends its comment")
                elif not set(match.group(1).split(", ")) <= WORDS:
                    failures.append(f"{where}: unknown context in '{match.group(0).strip()}'")
    return failures, count


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    failures, count = check(sys.argv[1])
    for failure in failures:
        print("FAIL:", failure)
    print(f"{count} functions declared in the agent's headers, {len(failures)} without "
          f"their context")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""test_merge.py - `stoke merge`: the report of many traces is the sum of
theirs (folded stacks, HTML, pprof read by go tool pprof), each trace named
by its own binary (two builds of one program stay two mappings), and the
errors of bad input.

usage: test_merge.py CASE   (environment: see tests/CMakeLists.txt,
stoke_driver_tests)
"""
import collections
import os
import re
import shutil
import sys

from e2e_support import describe, expect, run
from formats_support import (
    SYM_TARGET, cpu_burn_recording, expect_fails, expect_pprof_matches_folded, folded,
    protoc_decode, run_cases, stoke_ok, string, sym_trace)


def flip_build_id(work):
    """A copy of sym_target whose build-id differs by one byte."""
    copy = os.path.join(work, "sym_target")
    shutil.copy(SYM_TARGET, copy)
    notes = run(["readelf", "-n", SYM_TARGET]).stdout.decode()
    build_id = bytes.fromhex(re.search(r"Build ID: ([0-9a-f]+)", notes).group(1))
    data = bytearray(open(copy, "rb").read())
    at = data.find(build_id)
    data[at] ^= 0xff
    open(copy, "wb").write(data)
    return copy


def case_merge(work):
    a, b = cpu_burn_recording(work, "a"), cpu_burn_recording(work, "b", threads="2")
    merged = os.path.join(work, "merged.folded")
    stoke_ok("merge", a, b, "-o", merged)
    got = collections.Counter()
    for line in open(merged).read().splitlines():
        stack, value = line.rsplit(" ", 1)
        got[tuple(stack.split(";"))] += int(value)
    expect(got == folded(a) + folded(b), "merge is the sum of its inputs' folded stacks")
    stoke_ok("merge", a, b, "-o", os.path.join(work, "merged.html"))
    expect(os.path.getsize(os.path.join(work, "merged.html")) > 1000, "merge writes HTML")
    pb = os.path.join(work, "merged.pb.gz")
    stoke_ok("merge", a, b, "-o", pb)
    expect_pprof_matches_folded(work, pb, folded(a) + folded(b))

    one = sym_trace(work, "one.stoke")
    other = sym_trace(work, "other.stoke", exe=flip_build_id(work))
    r = stoke_ok("merge", one, other, "--format", "pprof", "-o", pb)
    expect(b"build-id differs" not in r.stderr, "each trace is symbolized by its own binary",
           describe(r))
    d = protoc_decode(pb)
    ids = {string(d, m, "build_id") for m in d["mapping"]
           if os.path.basename(string(d, m, "filename")) == "sym_target"}
    expect(len(ids) == 2, "two builds of sym_target are two mappings, kept apart", str(ids))
    stacks = folded(one) + folded(other)
    expect_pprof_matches_folded(work, pb, stacks)
    expect_fails(["merge"], 2, "give the traces to merge")
    expect_fails(["merge", os.path.join(work, "missing.stoke"), "-o", "m.pb.gz"], 1,
                 "missing.stoke", cwd=work)


if __name__ == "__main__":
    sys.exit(run_cases(globals()))

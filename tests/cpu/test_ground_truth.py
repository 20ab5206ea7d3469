#!/usr/bin/env python3
"""test_ground_truth.py - stoke's numbers against known truth. The shares
program spends exactly 60/30/10 % of its CPU time in share_sixty,
share_thirty and share_ten, below a 10-deep recursion; the report's
inclusive shares must match within 5 points, and each function must sit
under the recursion. The same per-thread work on two threads must get twice
the samples of one thread (+-10 %), since each thread has its own clock.

usage: test_ground_truth.py shares|thread_scaling
"""
from e2e_support import expect, fresh_dir, main, program, record_ok, report_folded

SHARES = {"share_sixty": 60, "share_thirty": 30, "share_ten": 10}
TOLERANCE_POINTS = 5
RECURSION_DEPTH = 10


def record_shares(work, name, threads, rounds):
    """Records shares (rounds of 10 ms CPU per thread); returns its Folded."""
    out = f"{work}/{name}"
    record_ok(out, [program("shares"), str(threads), str(rounds)])
    return report_folded(out)[0]


def shares():
    work = fresh_dir("shares")
    folded = record_shares(work, "one_thread", 1, 120)  # 1.2 s of CPU
    total = folded.total()
    expect(total >= 1000, f"expected >= 1000 samples for 1.2 CPU-s, got {total}", folded.top())
    for function, truth in SHARES.items():
        measured = folded.share(function)
        expect(abs(measured - truth) <= TOLERANCE_POINTS,
               f"{function}: {measured:.1f} % of samples, truth {truth} % "
               f"(+-{TOLERANCE_POINTS})", folded.top())
    shallow = sum(n for stack, n in folded.stacks.items()
                  if any(f in SHARES for f in stack) and stack.count("descend") < RECURSION_DEPTH)
    expect(shallow <= total * 0.01,
           f"{shallow} samples of the share functions are not under "
           f"{RECURSION_DEPTH} descend frames", folded.top())


def thread_scaling():
    work = fresh_dir("thread_scaling")
    one = record_shares(work, "one_thread", 1, 50).total()
    two = record_shares(work, "two_threads", 2, 50).total()
    expect(one >= 400, f"one thread: expected >= 400 samples for 0.5 CPU-s, got {one}")
    ratio = two / one
    expect(1.8 <= ratio <= 2.2,
           f"two threads got {two} samples, one thread {one}: ratio {ratio:.2f}, expected 2 +-10 %")


if __name__ == "__main__":
    raise SystemExit(main({"shares": shares, "thread_scaling": thread_scaling}))

#!/usr/bin/env python3
"""test_stacks.py - the agent's work never lands on the program's stack,
and the program sees its alternate signal stacks as it set them. Each case
runs programs/small_stack bare and three times in every recording mode
(transparency_support.RECORDING_MODES): the same output and status, and a
report.

  small_stack  a thread on a 64 KiB stack burns CPU (and allocates) with
               less than 2 KiB of it left: sampled and hooked there, it
               must not overflow
  altstack     a thread finds no alternate signal stack, sets its own, its
               SA_ONSTACK handler runs on it, and disabling it leaves none:
               the agent's own alternate stack never shows
  coroutine    a coroutine on a stack of its own (swapcontext), between
               guard pages, burns CPU: sampled there, nothing faults, and
               the profile names it

usage: test_stacks.py CASE
"""
from e2e_support import describe, expect, fresh_dir, main, program, run
from transparency_support import RECORDING_MODES, expect_runs_as_bare

RUNS = 3
RUN_TIMEOUT_S = 30


def under_every_mode(case, argv, function):
    work = fresh_dir(case)
    bare = run(argv, timeout=RUN_TIMEOUT_S)
    expect(bare.returncode == 0, f"{' '.join(argv)} fails without stoke", describe(bare))
    for mode, options in RECORDING_MODES:
        expect_runs_as_bare(bare, work, mode, argv, options, RUNS, function, RUN_TIMEOUT_S)


if __name__ == "__main__":
    raise SystemExit(main({
        "small_stack": lambda: under_every_mode("small_stack", [program("small_stack"), "deep"],
                                                "burn_at_bottom"),
        "altstack": lambda: under_every_mode("altstack", [program("small_stack"), "altstack"],
                                             "burn_at_bottom"),
        "coroutine": lambda: under_every_mode("coroutine", [program("small_stack"), "coroutine"],
                                              "run_coroutine"),
    }))

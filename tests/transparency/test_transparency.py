#!/usr/bin/env python3
"""test_transparency.py - profiling must not change what a program does.
Each of several runs (output on both streams with binary bytes and no final
newline, a nonzero exit, death by SIGTERM and by SIGKILL, input on stdin, a
shell, the signal masks a program sees and passes to what it starts) is made
bare and profiled, and compared:

  under_record        under `stoke record`: stdout byte-identical; stderr
                      the program's bytes, then only stoke's own lines;
                      stoke's status the program's (128 + N for signal N)
  under_agent         under the agent alone (the environment stoke record
                      sets): stdout, stderr and status all identical
  allocator_untouched without --heap the program calls libc's malloc and
                      free, not the agent's (stoke record preloads
                      libstoke-cpu.so); with --heap, libstoke.so's hooks;
                      libstoke-cpu.so preloaded by hand with heap tracking
                      asked for says it tracks no heap and still profiles

Each profiled run must also have left a trace, and one that names the
program's function when the program ends normally (a killed one loses its
last second), so the comparison is made with the agent really at work.

usage: test_transparency.py under_record|under_agent|allocator_untouched
"""
import os
import random

from e2e_support import (AGENT, describe, expect, fresh_dir, main, program, record,
                         report_folded, run, text, traces_in, agent_env)

STOKE_LINE_STARTS = ("stoke: ", "  ")


def chatty_input():
    generator = random.Random(2)
    return bytes(generator.getrandbits(8) for _ in range(300_000))


def cases():
    """(name, argv, stdin bytes, function that must be in the profile or
    None when the run is too short for a killed process to keep any,
    stoke record's options)."""
    chatty = program("chatty")
    return [
        ("mixed_exit_3", [chatty, "mixed", "3", "two words", "", "\u00fc;x"], None, "chatter",
         ()),
        ("mixed_exit_0", [chatty, "mixed", "0"], None, "chatter", ()),
        ("sigterm", [chatty, "signal", "15"], None, None, ()),
        ("sigkill", [chatty, "signal", "9"], None, None, ()),
        ("stdin", [chatty, "stdin"], chatty_input(), "chatter", ()),
        ("shell", ["sh", "-c", f"{chatty} mixed 5 a; echo shell err >&2; exit 7"], None,
         "chatter", ()),
        # the signal masks the program sees and hands on, with heap tracking (and so the
        # dump signal) on: under the agent alone env passes the variable and is itself
        # preloaded, as a wrapper is
        ("signal_masks", ["env", "STOKE_HEAP_INTERVAL=524288", program("masks"),
                          program("sigblk_static")], None, None, ("--heap",)),
    ]


def shell_status(returncode):
    """The status a shell reports for a finished child."""
    return 128 - returncode if returncode < 0 else returncode


def expect_profiled(out, function, name):
    expect(traces_in(out), f"{name}: the profiled run left no trace in {out}")
    if function is None:
        return
    folded = report_folded(out)[0]
    expect(folded.with_frame(function) > 0,
           f"{name}: the trace does not show {function}: was the agent sampling?", folded.top())


def expect_stoke_tail(tail, name, profiled):
    lines = text(tail).splitlines()
    expect(lines and all(line.startswith(STOKE_LINE_STARTS) for line in lines),
           f"{name}: after the program's stderr, stoke's stderr holds more than stoke's "
           "own lines", describe(profiled))


def under_record():
    work = fresh_dir("under_record")
    for name, argv, stdin, function, options in cases():
        bare = run(argv, input=stdin)
        out = f"{work}/{name}"
        profiled = record(out, argv, options, input=stdin)
        expect(profiled.stdout == bare.stdout, f"{name}: stdout differs from a bare run",
               describe(profiled))
        expect(profiled.stderr.startswith(bare.stderr),
               f"{name}: stderr does not start with the bare run's stderr", describe(profiled))
        expect_stoke_tail(profiled.stderr[len(bare.stderr):], name, profiled)
        expect(profiled.returncode == shell_status(bare.returncode),
               f"{name}: stoke exited {profiled.returncode}, the bare run "
               f"{bare.returncode} (expected {shell_status(bare.returncode)})",
               describe(profiled))
        expect_profiled(out, function, name)


SNAPSHOT_LINE = b"stoke: heap snapshot written to "


def without_snapshot_lines(stderr):
    """stderr without the agent's lines naming the heap snapshots it wrote
    (the one thing the agent is meant to say with heap tracking on)."""
    return b"".join(line for line in stderr.splitlines(keepends=True)
                    if not line.startswith(SNAPSHOT_LINE))


def under_agent():
    work = fresh_dir("under_agent")
    for name, argv, stdin, function, _ in cases():
        bare = run(argv, input=stdin)
        out = f"{work}/{name}"
        profiled = run(argv, input=stdin, env=agent_env(out))
        profiled.stderr = without_snapshot_lines(profiled.stderr)
        for stream in ("stdout", "stderr", "returncode"):
            expect(getattr(profiled, stream) == getattr(bare, stream),
                   f"{name}: {stream} differs under the agent",
                   f"bare:\n{describe(bare)}\n\nunder the agent:\n{describe(profiled)}")
        expect_profiled(out, function, name)


def allocator_untouched():
    work = fresh_dir("allocator_untouched")
    command = [program("which_malloc")]
    bare = run(command)
    expect(bare.stdout == b"malloc: libc.so.6\nfree: libc.so.6\n",
           "which_malloc does not find libc's malloc without stoke", describe(bare))
    cpu = record(f"{work}/cpu", command)
    expect(cpu.returncode == 0 and cpu.stdout == bare.stdout,
           "without --heap the program's malloc is not libc's", describe(cpu))
    heap = record(f"{work}/heap", command, ("--heap",))
    expect(heap.returncode == 0 and heap.stdout == b"malloc: libstoke.so\nfree: libstoke.so\n",
           "with --heap the agent does not hook malloc", describe(heap))
    env = agent_env(f"{work}/by_hand")
    env.update(LD_PRELOAD=os.path.join(os.path.dirname(AGENT), "libstoke-cpu.so"),
               STOKE_HEAP_INTERVAL="1")
    by_hand = run(command, env=env)
    expect(by_hand.stdout == bare.stdout and b"libstoke-cpu.so tracks no heap" in by_hand.stderr
           and traces_in(f"{work}/by_hand"),
           "libstoke-cpu.so asked for heap tracking did not say it tracks none, or left no trace",
           describe(by_hand))


if __name__ == "__main__":
    raise SystemExit(main({"under_record": under_record,
                           "under_agent": under_agent,
                           "allocator_untouched": allocator_untouched}))

#!/usr/bin/env python3
"""test_signals.py - programs that use the signals, timers and blocking
calls the agent also uses (programs/signal_user.c, one mode per case) must
behave exactly as bare while the agent samples a CPU-burning thread at
10 kHz: with the CPU clock and heap tracking (--heap-interval 4096), and
with the wall clock. stdout, the exit status and the program's stderr must
match the bare run's, and each trace must report.

  own_sigprof    its own SIGPROF handler and setitimer(ITIMER_PROF)
  real_itimer    setitimer(ITIMER_REAL), SIGALRM without SA_RESTART: read
                 and nanosleep end with EINTR once per alarm, as bare
  signalfd       SIGALRM and SIGUSR1 blocked and read from a signalfd
  prof_signalfd  SIGPROF blocked in every thread, from ITIMER_PROF, read
                 from a signalfd (the agent's sampling signal: its own
                 signals must not be read there, the program's must not
                 kill it)
  blocking       accept, pthread_cond_timedwait, a contended mutex,
                 sem_wait, poll, nanosleep and read on a pipe: no EINTR,
                 full timeouts; short polls between CPU bursts: no EINTR
  inherited_ignore
                 a shell ignores SIGPROF and execs the program: it finds
                 SIGPROF ignored and survives raising it, as bare, in every
                 recording mode
  raw_mask_wait  every signal blocked with the raw system call through
                 syscall(), then sigtimedwait on all: no signal of the
                 agent's is received, and the thread is still sampled
  asm_mask_wait  the same with an instruction of the program's own: no
                 signal of the agent's is received (it cannot sample there)
  default_sigint SIGINT, at its default action, sent to the program: it
                 ends by SIGINT as bare (stoke exits 130), the trace is
                 complete, and with --heap the exit snapshot is written
  ignored_sigint_reset
                 the same where a shell started the program with SIGINT
                 ignored, and the program set it to the default and then
                 to a handler that raises it again with SA_RESETHAND (as
                 node does)
  exit_in_loader a handler calls _exit while another thread holds the
                 dynamic loader's lock (in a library's constructor that
                 never returns): the program ends with its status at once,
                 as bare, in every recording mode (nothing on the way to
                 the real _exit may wait for the loader)
  dlopen_alloc_stress
                 one thread loads and unloads a library (which allocates
                 in its constructor and destructor) in a loop while four
                 threads allocate and free, sampled at 20 kHz with heap
                 samples every 512 bytes on average, five runs: each ends,
                 in time, with the program's exact output

usage: test_signals.py CASE
"""
import os
import signal
import subprocess

from e2e_support import (STOKE, describe, expect, fresh_dir, main, program, record,
                         report_folded, run, text)
from heap_support import snapshots
from transparency_support import (RECORDING_MODES, expect_runs_as_bare, expect_same_as_bare,
                                  target_of)

OPTION_SETS = (("-F", "10000", "--heap-interval", "4096"), ("--clock", "wall", "-F", "10000"))
MODES = ("own_sigprof", "real_itimer", "signalfd", "prof_signalfd", "blocking")
RUN_TIMEOUT_S = 30

STRESS_RUNS = 5
STRESS_OPTIONS = ("-F", "20000", "--heap-interval", "512")
STRESS_CYCLES = "200"
STRESS_TIMEOUT_S = 30


def signal_mode(mode):
    work = fresh_dir(mode)
    command = [program("signal_user"), mode]
    bare = run(command, timeout=RUN_TIMEOUT_S)
    expect(bare.returncode == 0, f"signal_user {mode} fails without stoke", describe(bare))
    for number, options in enumerate(OPTION_SETS):
        out = f"{work}/run{number}"
        what = f"signal_user {mode} under stoke record {' '.join(options)}"
        profiled = record(out, command, options, timeout=RUN_TIMEOUT_S)
        expect_same_as_bare(bare, profiled, what)
        folded = report_folded(out)[0]
        expect(folded.total() > 0, f"{what}: the trace reports no sample", describe(profiled))


def dlopen_alloc_stress():
    work = fresh_dir("dlopen_alloc_stress")
    command = [program("dl_alloc_stress"), program("libdl_alloc_plugin.so"), STRESS_CYCLES]
    bare = run(command, timeout=STRESS_TIMEOUT_S)
    expect(bare.returncode == 0, "dl_alloc_stress fails without stoke", describe(bare))
    expect_runs_as_bare(bare, work, "run", command, STRESS_OPTIONS, STRESS_RUNS,
                        "allocate_and_free", STRESS_TIMEOUT_S)


def exit_in_loader():
    as_bare_in_every_mode("exit_in_loader",
                          [program("exit_in_loader"), program("libhold_loader.so")], 7,
                          "exit_in_loader does not end with 7 without stoke")


def inherited_ignore():
    as_bare_in_every_mode(
        "inherited_ignore",
        ["sh", "-c", f"trap '' PROF; exec {program('signal_user')} inherited_ignore"], 0,
        "the program does not find SIGPROF ignored without stoke")


def as_bare_in_every_mode(case, command, bare_status, bare_failed):
    """command ends with bare_status bare, and exactly as bare under every
    recording mode."""
    work = fresh_dir(case)
    bare = run(command, timeout=RUN_TIMEOUT_S)
    expect(bare.returncode == bare_status, bare_failed, describe(bare))
    for mode, options in RECORDING_MODES:
        profiled = record(f"{work}/{mode}", command, options, timeout=RUN_TIMEOUT_S)
        expect_same_as_bare(bare, profiled, f"{case} under stoke record {mode}")


def mask_and_wait(mode, sampled_function):
    """signal_mode's checks; and where the thread can be sampled, its
    function is in the profile."""
    signal_mode(mode)
    if sampled_function:
        out = f"{fresh_dir(mode + '_profile')}/out"
        record(out, [program("signal_user"), mode], (), timeout=RUN_TIMEOUT_S)
        folded = report_folded(out)[0]
        expect(folded.with_frame(sampled_function) > 0,
               f"{mode}: {sampled_function} was not sampled", folded.top())


SIGINT_WAIT_S = 10


def interrupted(command, out=None, options=()):
    """Runs command (under stoke record into out, if given) until it says it
    burns, then sends SIGINT to the program itself; returns the
    CompletedProcess of what was run."""
    argv = [STOKE, "record", "-o", out, *options, "--", *command] if out else command
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    line = process.stdout.readline()
    expect(line == b"burning until SIGINT\n", f"{' '.join(argv)} did not start burning",
           text(line))
    os.kill(target_of(process) if out else process.pid, signal.SIGINT)
    stdout, stderr = process.communicate(timeout=SIGINT_WAIT_S)
    return subprocess.CompletedProcess(argv, process.returncode, line + stdout, stderr)


def default_sigint():
    ends_by_sigint("default_sigint", [program("signal_user"), "wait_for_sigint"])


def ignored_sigint_reset():
    ends_by_sigint("ignored_sigint_reset",
                   ["sh", "-c", f"trap '' INT; exec {program('signal_user')} reset_sigint"])


def ends_by_sigint(case, command):
    """SIGINT sent to command ends it as bare, with a whole trace."""
    work = fresh_dir(case)
    bare = interrupted(command)
    expect(bare.returncode == -signal.SIGINT, "the program did not end by SIGINT",
           describe(bare))
    for mode, options in (("cpu", ()), ("heap", ("--heap",))):
        out = f"{work}/{mode}"
        what = f"SIGINT under stoke record {' '.join(options)}"
        profiled = interrupted(command, out, options)
        expect(profiled.returncode == -signal.SIGINT, f"{what}: stoke did not end by SIGINT "
               "as the program did", describe(profiled))
        as_the_program = subprocess.CompletedProcess(command, bare.returncode, profiled.stdout,
                                                     profiled.stderr)
        expect_same_as_bare(bare, as_the_program, what)
        expect("cut short" not in text(profiled.stderr),
               f"{what}: the trace was cut short", describe(profiled))
        expect(report_folded(out)[0].with_frame("burn_until_sigint") > 0,
               f"{what}: burn_until_sigint is not reported")
        if options:
            expect(snapshots(out), f"{what}: no exit heap snapshot",
                   " ".join(sorted(os.listdir(out))))


if __name__ == "__main__":
    cases = {mode: (lambda m=mode: signal_mode(m)) for mode in MODES}
    cases["dlopen_alloc_stress"] = dlopen_alloc_stress
    cases["inherited_ignore"] = inherited_ignore
    cases["exit_in_loader"] = exit_in_loader
    cases["raw_mask_wait"] = lambda: mask_and_wait("raw_mask_wait", "burn_blocked")
    cases["asm_mask_wait"] = lambda: mask_and_wait("asm_mask_wait", None)
    cases["default_sigint"] = default_sigint
    cases["ignored_sigint_reset"] = ignored_sigint_reset
    raise SystemExit(main(cases))

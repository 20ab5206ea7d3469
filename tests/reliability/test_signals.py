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
  dlopen_alloc_stress
                 one thread loads and unloads a library (which allocates
                 in its constructor and destructor) in a loop while four
                 threads allocate and free, sampled at 20 kHz with heap
                 samples every 512 bytes on average, five runs: each ends,
                 in time, with the program's exact output

usage: test_signals.py CASE
"""
from e2e_support import (describe, expect, fresh_dir, main, program, record, report_folded,
                         run)
from reliability_support import expect_same_as_bare

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
    for attempt in range(1, STRESS_RUNS + 1):
        out = f"{work}/run{attempt}"
        what = f"run {attempt} of dl_alloc_stress under stoke record {' '.join(STRESS_OPTIONS)}"
        profiled = record(out, command, STRESS_OPTIONS, timeout=STRESS_TIMEOUT_S)
        expect_same_as_bare(bare, profiled, what)
        folded = report_folded(out)[0]
        expect(folded.with_frame("allocate_and_free") > 0,
               f"{what}: the allocating threads were not sampled", folded.top())


if __name__ == "__main__":
    cases = {mode: (lambda m=mode: signal_mode(m)) for mode in MODES}
    cases["dlopen_alloc_stress"] = dlopen_alloc_stress
    raise SystemExit(main(cases))

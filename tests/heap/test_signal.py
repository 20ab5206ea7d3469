#!/usr/bin/env python3
"""test_signal.py - snapshots on the dump signal, and what the program sees:

  signal_no_eintr      blocker's threads sit in poll, epoll_wait, select,
                       read on a pipe and nanosleep while SIGUSR2 arrives
                       three times (kill, `stoke heap <pid>`, kill): every
                       call ends as without the signal (no EINTR), each
                       request writes a snapshot holding blocker's 2 MiB
                       (hold_blocker),
                       `stoke heap` prints the new snapshot's path
  own_handler_at_load  the program's library handles SIGUSR2 from before the
                       agent starts (as node's heapdump module does): every
                       SIGUSR2 reaches the program's handler and no snapshot
                       is taken on it; stoke says on stderr which signal
                       snapshots moved to, and `stoke heap <pid>` takes one
                       on it unseen by the program
  own_handler_in_main  the same with the handler installed in main, after
                       the agent started
  stress               SIGUSR2 50 times, 5 ms apart, while 4 threads malloc,
                       calloc, realloc and free in a loop, exact and sampled,
                       several runs: no deadlock, no corrupt block, exit 0,
                       several complete snapshots, no temporary file left

usage: test_signal.py CASE
"""
import os
import re
import signal
import time

from e2e_support import (STOKE, describe, expect, fresh_dir, main, program, run, text)
from heap_support import (MIB, Running, exit_snapshot, heap_env, measure, seeded_env,
                          snapshots, wait_for_snapshots)

BLOCK_MS = 2500
SIGNALS_WITHIN_S = 1.8  # all three requests answered while the calls still block
STRESS_RUNS = ("1", "4096", "524288") * 4  # intervals: exact, small, the default
STRESS_SIGNALS = 50


def record_in_background(out, command, work, options=("--heap-interval", "1"), stdin=False):
    return Running([STOKE, "record", "--collect-only", "-o", out, *options, "--", *command],
                   work, env=seeded_env(), stdin=stdin)


def stoke_heap(pid):
    result = run([STOKE, "heap", str(pid)])
    expect(result.returncode == 0, f"stoke heap {pid} failed", describe(result))
    return text(result.stdout).strip()


def signal_no_eintr():
    work = fresh_dir("signal_no_eintr")
    out = f"{work}/out"
    blocker = record_in_background(out, [program("blocker"), str(BLOCK_MS)], work)
    pid = blocker.target_pid = int(blocker.wait_line(r"^ready (\d+)$")[1])
    ready = time.monotonic()
    time.sleep(0.1)  # the threads are in their calls
    os.kill(pid, signal.SIGUSR2)
    wait_for_snapshots(out, pid, 1)
    printed = stoke_heap(pid)
    wait_for_snapshots(out, pid, 2)
    expect(printed == snapshots(out, pid)[1][1],
           f"stoke heap printed {printed!r}, not the second snapshot",
           " ".join(sorted(os.listdir(out))))
    os.kill(pid, signal.SIGUSR2)
    wait_for_snapshots(out, pid, 3)
    answered_s = time.monotonic() - ready
    result = blocker.finish()
    expect(answered_s < SIGNALS_WITHIN_S,
           f"three snapshots took {answered_s:.2f} s, so the signals may have come after "
           f"the calls ended ({BLOCK_MS} ms)", describe(result))
    expect(result.returncode == 0 and text(result.stdout).count(": ok\n") == 5,
           "a blocking call did not end as it does without the signal", describe(result))
    taken = snapshots(out, pid)
    expect(len(taken) == 4, "expected 3 snapshots on request and 1 at exit",
           " ".join(sorted(os.listdir(out))))
    for _, path in taken[:3]:
        live = measure(path)
        expect(live.total() >= 2 * MIB and live.with_frame("hold_blocker") > 0,
               f"{path} does not hold blocker's 2 MiB (hold_blocker)", live.top())


def own_handler(case, at_load, stoke_says):
    work = fresh_dir(case)
    out = f"{work}/out"
    env = dict(seeded_env(), SIGUSR2_COUNTER_AT_LOAD="1" if at_load else "0")
    argv = [STOKE, "record", "--collect-only", "--heap", "-o", out, "--", program("own_handler")]
    handler = Running(argv, work, env=env, stdin=True)
    pid = handler.target_pid = int(handler.wait_line(r"^ready (\d+)$")[1])
    for sent in range(1, 4):
        os.kill(pid, signal.SIGUSR2)
        expect_handled(handler, sent)
    asked = run([STOKE, "heap", str(pid)], timeout=30)
    expect(asked.returncode == 0 and ".heap" in text(asked.stdout),
           "stoke heap took no snapshot on the signal it moved to", describe(asked))
    expect_handled(handler, 3)
    result = handler.finish()
    expect(result.returncode == 0 and text(result.stdout).endswith("handled 3\n"),
           "own_handler did not end well", describe(result))
    expect(re.search(stoke_says, text(result.stderr)),
           f"stoke did not say /{stoke_says}/ on stderr", describe(result))
    expect(len(snapshots(out, pid)) == 2,
           "expected the snapshot stoke heap asked for and the exit one, none on SIGUSR2",
           " ".join(sorted(os.listdir(out))))


def expect_handled(handler, sent):
    """The program's handler has run sent times (asked until it has, 5 s)."""
    deadline = time.monotonic() + 5
    while True:
        handler.say("count")
        count = int(handler.wait_line(r"^handled (\d+)$")[1])
        if count == sent or time.monotonic() > deadline:
            break
        time.sleep(0.02)
    expect(count == sent, f"the program's handler got {count} of {sent} SIGUSR2",
           text(handler.stderr()))


def own_handler_at_load():
    own_handler("own_handler_at_load", True,
                r"stoke: the program already set an action for SIGUSR2 \(User defined signal "
                r"2\); heap snapshots are taken on signal \d+ instead \(stoke heap sends it\)")


def own_handler_in_main():
    own_handler("own_handler_in_main", False,
                r"stoke: the program set its own action for SIGUSR2 \(User defined signal 2\); "
                r"heap snapshots are taken on signal \d+ from now on \(stoke heap sends it\)")


def stress_run(work, run_number, interval):
    out = f"{work}/run{run_number}"
    stress = Running([program("stress")], work, env=heap_env(out, interval), stdin=True)
    stress.target_pid = stress.process.pid
    stress.wait_line(r"^ready \d+$")
    for _ in range(STRESS_SIGNALS):
        os.kill(stress.process.pid, signal.SIGUSR2)
        time.sleep(0.005)
    result = stress.finish(timeout=30)
    what = f"run {run_number} (interval {interval})"
    expect(result.returncode == 0 and
           text(result.stdout).endswith("stress: 4 threads, 0 corrupt blocks\n"),
           f"{what}: stress did not end well", describe(result))
    taken = snapshots(out)
    expect(len(taken) >= 5, f"{what}: {len(taken)} snapshots for {STRESS_SIGNALS} signals",
           describe(result))
    logged = text(result.stderr).count("stoke: heap snapshot written to ")
    expect(logged == len(taken) - 1, f"{what}: {logged} snapshots logged, {len(taken)} written "
           "(every one but the exit snapshot is logged)", describe(result))
    leftovers = [n for n in os.listdir(out) if n.endswith(".tmp")]
    expect(not leftovers, f"{what}: temporary files left: {leftovers}")
    # mid-run: how much each snapshot holds depends on how far the threads
    # got (a loaded machine may barely run them), so the last one must
    # show them; the exit snapshot always must
    for path in (taken[-2][1], exit_snapshot(out)):
        allocated = measure(path, "alloc-objects")
        expect(allocated.with_frame("allocate") > 0, f"{what}: {path} shows no allocate",
               allocated.top())


def stress():
    work = fresh_dir("stress")
    for number, interval in enumerate(STRESS_RUNS, 1):
        stress_run(work, number, interval)


if __name__ == "__main__":
    raise SystemExit(main({"signal_no_eintr": signal_no_eintr,
                           "own_handler_at_load": own_handler_at_load,
                           "own_handler_in_main": own_handler_in_main, "stress": stress}))

#!/usr/bin/env python3
"""test_hooks.py - the malloc family behaves under the agent as without it,
and exact tracking (--heap-interval 1) counts what the program leaves:
each case runs a mode of hooks (or hooks_cpp) bare and under `stoke record
--heap-interval 1`, compares their output and exit status, and checks the
exit snapshot: the program's leak_* function holds exactly the bytes and
objects it leaked, and nothing else is live but the C library's own stdio
buffers and thread bookkeeping.

  realloc       realloc chains (NULL, grow, shrink, to 0, a failing one)
  aligned       posix_memalign, aligned_alloc, memalign, valloc, pvalloc
  calloc        zeroed memory; overflowing and huge requests fail, ENOMEM
  reallocarray  growing; an overflowing count fails, the block lives on
  free_null     free(NULL), malloc(0): zero-byte blocks are objects too
  usable_size   malloc_usable_size >= the size asked, all of it writable
  threads       4 threads freeing each other's blocks: all 80000 counted,
                none left live
  helper_thread a thread the C library made (a SIGEV_THREAD timer's) joins
                the main thread in the hooks: tracking turns from one thread
                working alone to shared tables, and stays exact (the
                helper's own stacks are not unwound: it has no thread state)
  signal_in_switch  a signal whose handler allocates arrives in the middle of
                that switch (a preloaded library raises it after the
                agent's membarrier): the switch ends, the leak is exact
  seccomp       a seccomp filter that kills on membarrier and on sleeping,
                then a thread: the program never dies of the agent's
                system calls
  fork_switching  forks while a C library thread switches the agent's tables
                to shared: no child is left waiting for the switch
  failed_exec   an exec that fails while the C library has a thread of its
                own: blocks allocated before it are freed after it, and none
                stays live
  fork_filtered a fork under a seccomp filter the agent could not see coming
                (installed with the raw system call): the child starts with
                shared tables, and the blocks it inherited and freed are gone
  fork          the child's exit snapshot has the blocks it inherited and
                its own; the parent's has its own only; both exit 0
  cpp           new/delete through a class in a namespace: demangled names,
                Cache::leak's 100000 bytes exactly, every new int counted

usage: test_hooks.py CASE
"""
import os
import re

from e2e_support import STOKE, describe, expect, fresh_dir, main, program, run, skip, text
from heap_support import (MIB, exit_snapshot, expect_same_as_bare, frame_is, measures, seeded_env,
                          pids_with_snapshots, record_heap)

# What the C library itself keeps until exit: stdio buffers, thread
# descriptors and their TLS. Live bytes under these are not the program's.
LIBC_KEEPS = ("_IO_file_doallocate", "allocate_stack", "_dl_allocate_tls")


def run_mode(case, argv):
    """argv bare and under exact tracking; returns (profiled run, out dir)."""
    out = fresh_dir(case)
    profiled = record_heap(out, argv)
    expect_same_as_bare(run(argv), profiled, case)
    return profiled, out


def expect_only_live(m, leaks, what):
    """leaks: {function: (live bytes, live objects)} (None: not checked
    here); every other live stack is the C library's own."""
    for function, (live_bytes, live_objects) in leaks.items():
        for name, truth in (("live-bytes", live_bytes), ("live-objects", live_objects)):
            if truth is None:
                continue  # accounted for, checked by the case itself
            value = m[name].with_frame(frame_is(function))
            expect(value == truth, f"{what}: {function} has {value} {name}, expected {truth}",
                   m[name].top(20))

    def accounted(frame):
        return any(frame_is(f)(frame) for f in leaks) or any(k in frame for k in LIBC_KEEPS)

    for name in ("live-bytes", "live-objects"):
        stray = [f"{n} {';'.join(s)}" for s, n in m[name].stacks.items()
                 if n and not any(accounted(f) for f in s)]
        expect(not stray, f"{what}: {name} on stacks that are neither the program's leaks "
               "nor the C library's own:\n" + "\n".join(stray), m[name].top(20))


def hooks_case(mode, leaks, more_checks=lambda m: None):
    """A case: hooks MODE as bare, leaving exactly leaks; more_checks(measures
    of the exit snapshot) for what else the mode knows."""
    def case():
        profiled, out = run_mode(mode, [program("hooks"), mode])
        expect(text(profiled.stdout) == f"{mode}: ok\n", f"hooks {mode} failed a check",
               describe(profiled))
        m = measures(exit_snapshot(out))
        expect_only_live(m, leaks, f"exit snapshot of {mode}")
        more_checks(m)
    return case


def every_block_passed(m):
    """threads: all 4 x 20000 blocks handed over were counted, and freed;
    mode_threads, which only starts the threads, allocated nothing itself
    (the agent's own block for each new thread is not the program's)."""
    for name, truth in (("alloc-objects", 80000), ("live-objects", 0), ("live-bytes", 0)):
        value = m[name].with_frame("pass_block")
        expect(value == truth, f"pass_block has {value} {name}, expected {truth}",
               m[name].top(20))
    own = sum(n for s, n in m["alloc-objects"].stacks.items() if s[-1] == "mode_threads")
    expect(own == 0, f"{own} allocations filed under mode_threads itself, expected none (the "
           "agent's thread start blocks?)", m["alloc-objects"].top(20))


def helper_thread():
    """The helper's 20200 allocations (and its thread's own bookkeeping) are
    counted under an incomplete stack; all of them but the bookkeeping are
    freed; the main thread's leak after the switch is exact."""
    profiled, out = run_mode("helper_thread", [program("hooks"), "helper_thread"])
    expect(text(profiled.stdout) == "helper_thread: ok\n", "hooks helper_thread failed a check",
           describe(profiled))
    m = measures(exit_snapshot(out))
    expect_only_live(m, {"leak_after_helper": (64000, 64), "[incomplete stack]": (None, None)},
                     "exit snapshot of helper_thread")
    helper = [(s, n) for s, n in m["alloc-objects"].stacks.items() if "[incomplete stack]" in s]
    made = sum(n for _, n in helper)
    expect(made >= 20200, f"{made} allocations by the helper thread, expected at least 20200",
           m["alloc-objects"].top(20))
    left = m["live-bytes"].with_frame(frame_is("[incomplete stack]"))
    expect(left <= 4096, f"{left} bytes of the helper thread still live, expected only its "
           "thread bookkeeping (at most 4096)", m["live-bytes"].top(20))


def seccomp_filtered():
    """1 when this process (and so the programs it starts) runs under a
    seccomp filter: the agent then never works alone, and never switches."""
    with open("/proc/self/status") as status:
        return not any(line.split() == ["Seccomp:", "0"] for line in status)


def signal_in_switch():
    if seccomp_filtered():
        skip("signal_in_switch", "runs under a seccomp filter, so the agent's tables start "
             "shared and never switch")
    out = fresh_dir("signal_in_switch")
    argv = [program("hooks"), "signal_in_switch"]
    # stoke itself runs with the library preloaded too: an ASan build of it must not mind
    asan = ":".join(filter(None, [os.environ.get("ASAN_OPTIONS"), "verify_asan_link_order=0"]))
    env = dict(seeded_env(), LD_PRELOAD=program("libsignal_in_switch.so"), ASAN_OPTIONS=asan)
    profiled = run([STOKE, "record", "--collect-only", "-o", out, "--heap-interval", "1", "--",
                    *argv], env=env)
    expect_same_as_bare(run(argv), profiled, "signal_in_switch")
    expect(text(profiled.stdout) == "signal_in_switch: ok\n", "hooks signal_in_switch failed a "
           "check", describe(profiled))
    expect("note: the handler ran 1 times" in text(profiled.stderr),
           "the signal did not come during the switch (is libsignal_in_switch.so preloaded?)",
           describe(profiled))
    expect_only_live(measures(exit_snapshot(out)), {"leak_signal_in_switch": (5000, 10)},
                     "exit snapshot of signal_in_switch")


def fork_filtered():
    profiled, out = run_mode("fork_filtered", [program("hooks"), "fork_filtered"])
    expect(text(profiled.stdout) == "child: ok\nfork_filtered: ok\n",
           "hooks fork_filtered failed a check", describe(profiled))
    child = int(re.search(r"^note: child (\d+)$", text(profiled.stderr), re.M)[1])
    pids = pids_with_snapshots(out)
    expect(len(pids) == 2 and child in pids,
           f"expected snapshots of the parent and of the child {child}", describe(profiled))
    parent = next(p for p in pids if p != child)
    expect_only_live(measures(exit_snapshot(out, child)), {"leak_fork_filtered": (300, 3)},
                     f"the child's exit snapshot (pid {child})")
    expect_only_live(measures(exit_snapshot(out, parent)), {"leak_fork_filtered": (0, 0)},
                     f"the parent's exit snapshot (pid {parent})")


def fork_switching():
    profiled, _ = run_mode("fork_switching", [program("hooks"), "fork_switching"])
    expect(text(profiled.stdout) == "fork_switching: ok\n", "hooks fork_switching failed a "
           "check (a child that never exited waited for a switch)", describe(profiled))


def fork():
    profiled, out = run_mode("fork", [program("hooks"), "fork"])
    expect(text(profiled.stdout) == "child: ok\nfork: ok\n", "hooks fork failed a check",
           describe(profiled))
    child = int(re.search(r"^note: child (\d+)$", text(profiled.stderr), re.M)[1])
    pids = pids_with_snapshots(out)
    expect(len(pids) == 2 and child in pids,
           f"expected snapshots of the parent and of the child {child}", describe(profiled))
    parent = next(p for p in pids if p != child)
    expect_only_live(measures(exit_snapshot(out, child)),
                     {"keep_before_fork": (3 * MIB, 48), "leak_fork_child": (MIB, 16)},
                     f"the child's exit snapshot (pid {child})")
    expect_only_live(measures(exit_snapshot(out, parent)),
                     {"keep_before_fork": (3 * MIB, 48), "leak_fork_child": (0, 0)},
                     f"the parent's exit snapshot (pid {parent})")


def cpp():
    profiled, out = run_mode("cpp", [program("hooks_cpp")])
    expect(text(profiled.stdout).startswith("hooks_cpp: ok "), "hooks_cpp failed",
           describe(profiled))
    m = measures(exit_snapshot(out))
    leak, fill = "heap_cpp::Cache::leak", "heap_cpp::Cache::fill"
    expect_only_live(m, {leak: (100000, 100)}, "hooks_cpp's exit snapshot")
    mangled = [f for s in m["alloc-bytes"].stacks for f in s if f.startswith("_Z")]
    expect(not mangled, f"frames still mangled: {mangled[:5]}", m["alloc-bytes"].top(20))
    new_int = sum(n for s, n in m["alloc-objects"].stacks.items()
                  if len(s) >= 2 and frame_is(fill)(s[-2]) and s[-1].startswith("operator new"))
    expect(new_int == 20000, f"{new_int} objects by new directly in {fill}, expected 20000",
           m["alloc-objects"].top(20))
    expect(m["live-bytes"].with_frame(frame_is(fill)) == 0,
           f"{fill}'s containers are all destroyed, yet some of it is live",
           m["live-bytes"].top(20))


if __name__ == "__main__":
    raise SystemExit(main({
        "realloc": hooks_case("realloc", {"leak_realloc": (2000, 1)}),
        "aligned": hooks_case("aligned", {"leak_aligned": (16660, 5)}),
        "calloc": hooks_case("calloc", {"leak_calloc": (10000, 1)}),
        "reallocarray": hooks_case("reallocarray", {"leak_reallocarray": (2000, 1)}),
        "free_null": hooks_case("free_null", {"leak_free_null": (0, 3)}),
        "usable_size": hooks_case("usable_size", {"leak_usable_size": (777, 1)}),
        "threads": hooks_case("threads", {"leak_threads": (262144, 256)}, every_block_passed),
        "helper_thread": helper_thread,
        "signal_in_switch": signal_in_switch,
        "seccomp": hooks_case("seccomp", {"leak_seccomp": (3000, 10)}),
        "failed_exec": hooks_case("failed_exec", {"leak_failed_exec": (700, 7)}),
        "fork_filtered": fork_filtered,
        "fork_switching": fork_switching,
        "fork": fork, "cpp": cpp}))

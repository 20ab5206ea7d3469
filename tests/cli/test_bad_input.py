#!/usr/bin/env python3
"""test_bad_input.py - every kind of bad input gets a clear message on
stderr (lines starting "stoke: ", the one at fault naming the file or
command) and the documented exit status; nothing crashes:

  missing_command    a command that does not exist: 127, nothing created
  not_executable     a file without execute permission, a directory: 126
  static_binary      a statically linked program: a warning that the agent
                     cannot be preloaded; it still runs, with its status
  setuid_binary      a program setuid to another user: refused (1) with a
                     message naming it, and not run (as root)
  unwritable_output  -o under a regular file: 1, and the command not run
  empty_trace        an empty .stoke file: 1
  nothing_recorded   a run whose trace holds no record (the agent's first
                     frame cannot be written: a file size limit of 16
                     bytes, the header's): a warning naming the trace, and
                     stoke's status is the program's (0, 3), not 1
  bad_folded         folded stacks with malformed lines, empty frame names,
                     a count too large, counts that add up past the largest,
                     a NUL byte, no stack at all: 1, one line naming the
                     file, the first bad line and how many more; the
                     largest total reads
  foreign_trace      files that are not traces: 1; in a directory with a
                     good trace they are skipped and the good one reports
  truncated_trace    a real trace cut in the middle of its last compressed
                     frame: reports everything before the cut, and says how
                     many bytes were lost
  corrupted_trace    a real trace with bytes flipped: a message, and never a
                     sample that was not recorded (no invented stacks or
                     counts)
  newer_version      a trace of a newer major format: 1, saying to upgrade;
                     a newer minor version still reads
  planted_trace_link a symbolic link planted where the agent will write a
                     trace: left alone, nothing written through it, the
                     trace written beside it; traces and the report 0600
  fifo_paths         FIFOs where stoke reads: a trace naming one as a module,
                     a perf map that is one, a FIFO as the trace itself:
                     the report never blocks; the module shows as
                     module+offset, with a warning naming it
  inflated_sections  a module (right build-id) whose compressed .debug_str,
                     .debug_info or .strtab really decompresses to 1 GiB:
                     the report stays small in memory, names the function
                     from the symbol table (or shows module+offset when the
                     symbol table is the one inflated) and says which file
                     and section, once
  perf_map_bounds    a perf map of 1 GiB, sparse, with names in its first
                     lines and a line too long among them: the names are
                     used, the report stays small in memory and says how
                     much of the map it read
  planted_perf_map   a /tmp/perf-<pid>.map of another user than the trace's
                     owner: ignored, with a warning naming it and its owner;
                     read when the trace's owner or root owns it (as root)
  deep_folded        folded stacks of megabytes of ';' (empty frame names:
                     refused, naming the line) and one stack millions of
                     frames deep (cut to STOKE_MAX_FOLDED_DEPTH, with a
                     warning): every output format stays small in memory
                     and in size

usage: test_bad_input.py CASE
"""
import os
import resource
import shutil
import signal
import stat
import subprocess

from e2e_support import (STOKE, TRACE_HEADER_LEN, Folded, describe, expect, fresh_dir, main,
                         program, record, record_ok, run, run_measuring_memory, skip, text,
                         traces_in)
from hostile_inputs import build_id, inflate_section, one_sample_trace

HELLO_LINE = b"hello from a program stoke cannot preload into\n"
NOBODY_UID = 65534


def stderr_lines(result):
    return text(result.stderr).splitlines()


def expect_messages(result, names, what):
    """stderr holds only stoke's lines, and one of them names every string
    of names (the file or option at fault, the reason)."""
    lines = stderr_lines(result)
    expect(lines and all(line.startswith("stoke") for line in lines),
           f"{what}: stderr is empty or holds more than stoke's messages", describe(result))
    expect(any(all(n in line for n in names) for line in lines),
           f"{what}: no message line names {names}", describe(result))


def expect_one_line_error(result, status, names, what):
    expect(result.returncode == status,
           f"{what}: exit status {result.returncode}, expected {status}", describe(result))
    expect(len(stderr_lines(result)) == 1, f"{what}: the error is not one line",
           describe(result))
    expect_messages(result, names, what)


def report(path, *options):
    return run([STOKE, "report", path, "--folded", *options])


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def write_bytes(path, data):
    with open(path, "wb") as f:
        f.write(data)


def missing_command():
    work = fresh_dir("missing_command")
    out = os.path.join(work, "out")
    result = record(out, ["no-such-command-for-stoke-e2e", "arg"])
    expect_one_line_error(result, 127, ["'no-such-command-for-stoke-e2e'",
                                        "No such file or directory"], "missing command")
    expect(not os.path.exists(out), "the missing command left an output directory")


def not_executable():
    work = fresh_dir("not_executable")
    plain = os.path.join(work, "not_a_program")
    write_bytes(plain, b"#!/bin/sh\necho should not run\n")
    os.chmod(plain, 0o644)
    for target in (plain, work):
        result = record(os.path.join(work, "out"), [target])
        expect_one_line_error(result, 126, [f"'{target}'"], f"not executable {target}")
        expect(result.stdout == b"", f"{target} ran", describe(result))


def expect_runs_unprofiled(executable, out, reason):
    result = record(out, [executable])
    expect(result.returncode == 0, f"{executable}: stoke exited {result.returncode}, the "
           "program's status is 0", describe(result))
    expect(result.stdout == HELLO_LINE, f"{executable}: its output did not pass through",
           describe(result))
    expect_messages(result, [executable, reason], f"{executable}")
    expect(not os.path.isdir(out) or not traces_in(out),
           f"{executable}: a trace was written though the preload is ignored")


def static_binary():
    out = os.path.join(fresh_dir("static_binary"), "out")
    expect_runs_unprofiled(program("hello_static"), out, "statically linked")


def setuid_binary():
    if os.geteuid() != 0:
        skip("setuid_binary", "needs root to make a program setuid to another user")
    work = fresh_dir("setuid_binary")
    setuid_hello = os.path.join(work, "setuid_hello")
    shutil.copy(program("hello"), setuid_hello)
    os.chown(setuid_hello, NOBODY_UID, -1)
    os.chmod(setuid_hello, stat.S_ISUID | 0o755)
    out = os.path.join(work, "out")
    result = record(out, [setuid_hello])
    expect_one_line_error(result, 1, [setuid_hello, "setuid", "change privileges"],
                          "setuid program")
    expect(result.stdout == b"", "the setuid program ran", describe(result))
    expect(not os.path.isdir(out) or not traces_in(out), "the setuid program left a trace")


def unwritable_output():
    work = fresh_dir("unwritable_output")
    plain = os.path.join(work, "plain_file")
    write_bytes(plain, b"")
    for out in (os.path.join(plain, "sub"), "/etc/passwd/stoke-e2e"):
        result = record(out, [program("hello")])
        expect_one_line_error(result, 1, [f"'{out}'"], f"-o {out}")
        expect(result.stdout == b"", f"-o {out}: the command ran though the output directory "
               "cannot be used", describe(result))


def empty_trace():
    work = fresh_dir("empty_trace")
    empty = os.path.join(work, "empty.1.stoke")
    write_bytes(empty, b"")
    expect_one_line_error(report(empty), 1, [empty, "empty"], "empty trace")


def limit_files_to_header():
    """In the child: files may grow to the trace header and no further, and
    the writes past it fail (EFBIG) instead of raising SIGXFSZ."""
    resource.setrlimit(resource.RLIMIT_FSIZE, (TRACE_HEADER_LEN, TRACE_HEADER_LEN))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


def nothing_recorded():
    work = fresh_dir("nothing_recorded")
    for command, status, output in (([program("hello")], 0, HELLO_LINE),
                                    (["sh", "-c", "exit 3"], 3, b"")):
        out = os.path.join(work, f"status{status}")
        result = subprocess.run([STOKE, "record", "-o", out, "--", *command],
                                capture_output=True, preexec_fn=limit_files_to_header)
        expect(result.returncode == status and result.stdout == output,
               f"{command}: stoke exited {result.returncode}, the program {status}",
               describe(result))
        traces = traces_in(out)
        expect(len(traces) == 1 and os.path.getsize(os.path.join(out, traces[0])) ==
               TRACE_HEADER_LEN, "expected one trace of its header alone", " ".join(traces))
        expect_messages(result, [traces[0], "warning", "holds no records"], f"{command}")


def bad_folded():
    work = fresh_dir("bad_folded")
    cases = {"malformed.folded": (b"a;b 10\nno count here\n;c\nx 5 y\n7\n",
                                  ["malformed.folded:2:", "a blank and a count",
                                   "and 3 more malformed lines"]),
             "huge.folded": (b"a;b 99999999999999999999\n", ["huge.folded:1:", "too large"]),
             "sum.folded": (b"a;b 9223372036854775807\nc;d 1\n",
                            ["sum.folded:2:", "add up to more than 9223372036854775807"]),
             "nul.folded": (b"a;b 1\nx\0y 2\n", ["nul.folded:2:", "NUL byte"]),
             "comments.folded": (b"# nothing but a comment\n\n", ["comments.folded", "no stacks"]),
             "empty.folded": (b"a;b 1\na;;b 2\n;c 3\nd; 4\n",
                              ["empty.folded:2:", "empty frame name", "and 2 more malformed lines"])}
    for name, (data, names) in cases.items():
        path = os.path.join(work, name)
        write_bytes(path, data)
        expect_one_line_error(report(path), 1, names, name)
    largest = os.path.join(work, "largest.folded")
    write_bytes(largest, b"a;b 9223372036854775806\na;b 1\n")
    result = report(largest)
    expect(result.returncode == 0 and Folded(text(result.stdout)).with_frame("b") ==
           9223372036854775807, "counts adding up to exactly the largest do not read",
           describe(result))


def foreign_trace():
    work = fresh_dir("foreign_trace")
    foreign = {"elf.1.stoke": read_bytes(program("hello")),
               "text.2.stoke": b"STOKE is not a trace\n" * 10,
               "magic_only.3.stoke": b"STOKETRC"}
    for name, data in foreign.items():
        path = os.path.join(work, name)
        write_bytes(path, data)
        expect_one_line_error(report(path), 1, [path], f"foreign file {name}")
    good = os.path.join(work, "good")
    record_ok(good, [program("shares"), "1", "20"], ["--collect-only"])
    for name in foreign:
        shutil.copy(os.path.join(work, name), good)
    mixed = report(good)
    expect(mixed.returncode == 0, "a directory with a good trace and foreign files does not "
           "report", describe(mixed))
    expect(Folded(text(mixed.stdout)).with_frame("share_sixty") > 0,
           "the good trace's samples are missing", describe(mixed))
    for name in foreign:
        expect_messages(mixed, [name], f"skipping {name}")


def real_trace(work, command, name="rec"):
    """Records command (traces only); returns the one trace's path."""
    out = os.path.join(work, name)
    record_ok(out, command, ["--collect-only"])
    traces = traces_in(out)
    expect(len(traces) == 1, f"expected one trace in {out}", " ".join(traces))
    return os.path.join(out, traces[0])


ZSTD_FRAME_MAGIC = b"\x28\xb5\x2f\xfd"


def last_frame_start(data):
    """Offset of the last compressed frame (they follow the 16-byte file
    header, each starting with zstd's magic number)."""
    expect(data[TRACE_HEADER_LEN:TRACE_HEADER_LEN + 4] == ZSTD_FRAME_MAGIC,
           "the trace does not start with a zstd frame after its header")
    return data.rfind(ZSTD_FRAME_MAGIC, TRACE_HEADER_LEN)


def invented(damaged, whole):
    """Stacks of damaged with more samples than whole has for them."""
    return [(";".join(s), n) for s, n in damaged.stacks.items() if n > whole.stacks.get(s, 0)]


def truncated_trace():
    work = fresh_dir("truncated_trace")
    # phase_one, then a pause longer than the agent's 1 s flush interval, so
    # all of phase_one lies in frames before the last one; then phase_two,
    # whose end is in the last frame.
    trace = real_trace(work, [program("phases"), "300", "1500"])
    whole = Folded(text(report(trace).stdout))
    kept = whole.with_frame("phase_one")
    expect(kept >= 200 and whole.with_frame("phase_two") >= 200,
           "the whole trace lacks phase_one or phase_two", whole.top())
    data = read_bytes(trace)
    start = last_frame_start(data)
    expect(start > TRACE_HEADER_LEN, "the trace has a single frame; the test needs two")
    cut = os.path.join(work, "cut.1.stoke")
    cut_data = data[:(start + len(data)) // 2]
    write_bytes(cut, cut_data)
    result = report(cut)
    expect(result.returncode == 0, "a truncated trace does not report", describe(result))
    folded = Folded(text(result.stdout))
    expect(folded.with_frame("phase_one") == kept,
           f"the truncated trace shows {folded.with_frame('phase_one')} samples of phase_one, "
           f"the whole one {kept}, all of them before the cut", describe(result))
    expect(not invented(folded, whole), "the truncated trace shows samples the whole one has "
           "not", describe(result))
    lost = len(cut_data) - start
    expect_messages(result, [cut, f"{lost} bytes"],
                    f"truncated trace (the {lost} bytes of its cut last frame are lost)")


CORRUPTION_POINTS = 24


def corruption_problems(path, whole):
    """What is wrong with the report of the damaged trace at path."""
    result = report(path)
    said = f"(stderr: {text(result.stderr).strip()!r})"
    if result.returncode not in (0, 1):
        return [f"exit status {result.returncode} {said}"]
    problems = []
    folded = Folded(text(result.stdout))
    # zstd ignores some bits of a frame (the unused bit of its header, a window
    # larger than it needs): such a flip reads the whole trace, unharmed
    unharmed = result.returncode == 0 and folded.stacks == whole.stacks
    if not unharmed and not any(path in line for line in stderr_lines(result)):
        problems.append(f"no message names the file {said}")
    made_up = invented(folded, whole)
    if made_up:
        stack, count = made_up[0]
        problems.append(f"{len(made_up)} stacks with samples the trace never held, e.g. "
                        f"{count} x ...{stack[-80:]} {said}")
    return problems


def corrupted_trace():
    work = fresh_dir("corrupted_trace")
    trace = real_trace(work, [program("phases"), "200", "1100"])
    whole = Folded(text(report(trace).stdout))
    data = read_bytes(trace)
    failures = []
    for i in range(CORRUPTION_POINTS):
        offset = TRACE_HEADER_LEN + (len(data) - TRACE_HEADER_LEN) * (2 * i + 1) // (
            2 * CORRUPTION_POINTS)
        damaged = bytearray(data)
        damaged[offset] ^= 0x5A
        path = os.path.join(work, f"flip{offset}.1.stoke")
        write_bytes(path, damaged)
        failures += [f"byte {offset}: {p}" for p in corruption_problems(path, whole)]
    bad = len({f.split(":")[0] for f in failures})
    expect(not failures, f"{bad} of {CORRUPTION_POINTS} one-byte corruptions of {trace} "
           f"({len(data)} bytes, {whole.total()} samples) are not handled", "\n".join(failures))


def version_bumped(data, offset):
    """data with the 16-bit little-endian version at offset made newer."""
    version = int.from_bytes(data[offset:offset + 2], "little") + 1
    return data[:offset] + version.to_bytes(2, "little") + data[offset + 2:]


MAJOR_OFFSET, MINOR_OFFSET = 8, 10  # include/stoke_format.h, file header


def newer_version():
    work = fresh_dir("newer_version")
    trace = real_trace(work, [program("shares"), "1", "20"])
    data = read_bytes(trace)
    newer_major = os.path.join(work, "major.1.stoke")
    write_bytes(newer_major, version_bumped(data, MAJOR_OFFSET))
    expect_one_line_error(report(newer_major), 1, [newer_major, "upgrade"],
                          "newer major version")
    newer_minor = os.path.join(work, "minor.1.stoke")
    write_bytes(newer_minor, version_bumped(data, MINOR_OFFSET))
    result = report(newer_minor)
    expect(result.returncode == 0 and result.stdout == report(trace).stdout,
           "a trace of a newer minor version does not read the same", describe(result))


def planted_trace_link():
    work = fresh_dir("planted_trace_link")
    out, victim = os.path.join(work, "out"), os.path.join(work, "victim")
    # sh writes sh.<pid>.stoke; hello, exec'd in the same process, would
    # write hello.<pid>.stoke, where sh plants a link first.
    planted = f'ln -s "{victim}" "{out}/hello.$$.stoke" && exec "{program("hello")}"'
    result = record_ok(out, ["sh", "-c", planted])
    expect(not os.path.lexists(victim), "the agent wrote through the planted link",
           describe(result))
    links = [f for f in traces_in(out) if os.path.islink(os.path.join(out, f))]
    expect(len(links) == 1 and os.readlink(os.path.join(out, links[0])) == victim,
           f"the planted link was changed or removed: {traces_in(out)}", describe(result))
    traces = [f for f in traces_in(out) if f not in links]
    expect(any(f.startswith("hello.") for f in traces),
           f"hello left no trace beside the link: {traces}", describe(result))
    modes = {f: oct(stat.S_IMODE(os.stat(os.path.join(out, f)).st_mode))
             for f in traces + ["flamegraph.html"]}
    expect(all(m == "0o600" for m in modes.values()), f"file modes {modes}, expected 0600")


def trace_naming(module_path, pid):
    """A trace of one sample whose stack is an address in module_path and a
    JIT address (named from perf-<pid>.map)."""
    return one_sample_trace(pid, [(module_path, b"")], [(0, 0x7F0000001000), (1, 0x1234)])


def fifo_paths():
    work = fresh_dir("fifo_paths")
    module, pid = os.path.join(work, "module.fifo"), 4242
    os.mkfifo(module)
    os.mkfifo(os.path.join(work, f"perf-{pid}.map"))
    trace = os.path.join(work, "demo.4242.stoke")
    write_bytes(trace, trace_naming(module, pid))
    result = run([STOKE, "report", trace, "--folded"], timeout=20)
    expect(result.returncode == 0, "a trace naming FIFOs did not report", describe(result))
    expect(text(result.stdout) == "demo (4242);module.fifo+0x1234;[unknown]+0x7f0000001000 1\n",
           "the module in a FIFO is not shown as module+offset", describe(result))
    expect(any(module in line and "not a regular file" in line
               for line in stderr_lines(result)), "no warning names the FIFO module",
           describe(result))
    fifo_trace = os.path.join(work, "fifo.1.stoke")
    os.mkfifo(fifo_trace)
    result = run([STOKE, "report", fifo_trace, "--folded"], timeout=20)
    expect_one_line_error(result, 1, [fifo_trace, "not a trace file"], "a FIFO as the trace")


# Far above what stoke needs for these inputs once they are bounded (in the
# sanitized build too); far below what they cost before.
MEMORY_LIMIT_MIB = 256
INFLATED_BYTES = 1 << 30


def expect_small(result, peak_mib, what):
    expect(peak_mib < MEMORY_LIMIT_MIB, f"{what}: stoke held {peak_mib:.0f} MiB at its peak "
           f"(at most {MEMORY_LIMIT_MIB} MiB expected)", describe(result))


def symbol_offset(elf_path, name):
    result = run(["nm", elf_path])
    for line in text(result.stdout).splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[2] == name:
            return int(fields[0], 16)
    expect(False, f"nm finds no {name} in {elf_path}", describe(result))


def inflated_sections():
    work = fresh_dir("inflated_sections")
    hello = program("hello")
    leaf = symbol_offset(hello, "main") + 4
    shown = {".debug_str": ("main", "symbol table only"), ".debug_info": ("main", "symbol table only"),
             ".strtab": (None, "module+offset")}
    for section, (name, outcome) in shown.items():
        module = os.path.join(work, "hello" + section.replace(".", "-"))
        elf = inflate_section(hello, section, INFLATED_BYTES, module)
        trace = os.path.join(work, f"demo{section}.4242.stoke")
        write_bytes(trace, one_sample_trace(4242, [(module, build_id(elf))], [(1, leaf)]))
        result, peak = run_measuring_memory([STOKE, "report", trace, "--folded"])
        what = f"{section} claiming {INFLATED_BYTES} bytes"
        expect(result.returncode == 0, f"{what}: the report failed", describe(result))
        frame = name or f"{os.path.basename(module)}+0x{leaf:x}"
        expect(text(result.stdout) == f"demo (4242);{frame} 1\n",
               f"{what}: the sample is not shown as {frame}", describe(result))
        expect_one_line_error(result, 0, [module, f"section {section} claims", outcome], what)
        expect_small(result, peak, what)


def perf_map_bounds():
    work = fresh_dir("perf_map_bounds")
    pid = 4243
    trace = os.path.join(work, f"demo.{pid}.stoke")
    write_bytes(trace, one_sample_trace(pid, [], [(0, 0x7F0000001010), (0, 0x7F0000002010)]))
    perf_map = os.path.join(work, f"perf-{pid}.map")
    with open(perf_map, "wb") as f:
        f.write(b"7f0000002000 100 caller_fn\n" + b"7f0000003000 100 " + b"x" * 5000 + b"\n" +
                b"7f0000001000 100 leaf_fn\n")
        f.truncate(1 << 30)  # sparse: nothing on disk, 1 GiB of zero bytes to read
    result, peak = run_measuring_memory([STOKE, "report", trace, "--folded"])
    expect(result.returncode == 0 and text(result.stdout) == f"demo ({pid});caller_fn;leaf_fn 1\n",
           "the names of the map's first lines are not used", describe(result))
    expect_one_line_error(result, 0, [perf_map, "first 256 MiB", "768 MiB", "ignored"],
                          "a perf map of 1 GiB")
    expect_small(result, peak, "a perf map of 1 GiB")


PLANTED_PID = 3987654


def planted_perf_map():
    if os.geteuid() != 0:
        skip("planted_perf_map", "needs root to give files to another user")
    work = fresh_dir("planted_perf_map")
    trace = os.path.join(work, f"demo.{PLANTED_PID}.stoke")
    write_bytes(trace, one_sample_trace(PLANTED_PID, [], [(0, 0x7F0000001010)]))
    planted = f"/tmp/perf-{PLANTED_PID}.map"
    if os.path.lexists(planted):
        os.unlink(planted)
    fd = os.open(planted, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    os.write(fd, b"7f0000001000 100 planted_name\n")
    os.close(fd)
    named = f"demo ({PLANTED_PID});planted_name 1\n"
    try:
        os.chown(planted, NOBODY_UID, -1)
        result = report(trace)
        expect(text(result.stdout) == f"demo ({PLANTED_PID});[unknown]+0x7f0000001010 1\n",
               "a perf map of another user named the trace's code", describe(result))
        expect_one_line_error(result, 0, [planted, "ignored", "nobody"], "a planted perf map")
        for trace_owner, map_owner in ((NOBODY_UID, NOBODY_UID), (NOBODY_UID, 0)):
            os.chown(trace, trace_owner, -1)
            os.chown(planted, map_owner, -1)
            result = report(trace)
            expect(result.returncode == 0 and text(result.stdout) == named and not result.stderr,
                   f"a map of uid {map_owner} for a trace of uid {trace_owner} is not read",
                   describe(result))
    finally:
        os.unlink(planted)


FOLDED_BYTES = 8 << 20
FORMATS = {"folded": "out.folded", "html": "out.html", "pprof": "out.pb.gz",
           "speedscope": "out.speedscope.json", "cpuprofile": "out.cpuprofile"}


def deep_folded():
    work = fresh_dir("deep_folded")
    semicolons = os.path.join(work, "semicolons.folded")
    write_bytes(semicolons, b";" * FOLDED_BYTES + b" 1\n")
    deep = os.path.join(work, "deep.folded")
    write_bytes(deep, b"a;" * (FOLDED_BYTES // 2) + b"leaf 3\nmain;work 2\n")
    for format_name, name in FORMATS.items():
        out = os.path.join(work, name)
        result, peak = run_measuring_memory([STOKE, "report", semicolons, "--format",
                                             format_name, "-o", out])
        what = f"{FOLDED_BYTES} bytes of ';' as {format_name}"
        expect_one_line_error(result, 1, ["semicolons.folded:1:", "empty frame name"], what)
        expect_small(result, peak, what)
        result, peak = run_measuring_memory([STOKE, "report", deep, "--format", format_name,
                                             "-o", out])
        what = f"a stack {FOLDED_BYTES // 2} frames deep as {format_name}"
        expect(result.returncode == 0, f"{what}: the report failed", describe(result))
        expect_messages(result, ["deep.folded", "1 stack deeper than 4096 frames", "cut"], what)
        expect_small(result, peak, what)
        expect(os.path.getsize(out) < 1 << 20, f"{what}: {os.path.getsize(out)} bytes written")
    folded = Folded(open(os.path.join(work, "out.folded")).read())
    deepest = max(folded.stacks, key=len)
    expect(len(deepest) == 4096 and deepest[:3] == ("a", "[incomplete stack]", "a") and
           deepest[-1] == "leaf" and folded.stacks[deepest] == 3 and
           folded.stacks[("main", "work")] == 2,
           "the deep stack is not its root, [incomplete stack] and its innermost frames",
           folded.top())


if __name__ == "__main__":
    raise SystemExit(main({
        "missing_command": missing_command, "not_executable": not_executable,
        "static_binary": static_binary, "setuid_binary": setuid_binary,
        "unwritable_output": unwritable_output, "empty_trace": empty_trace,
        "nothing_recorded": nothing_recorded, "bad_folded": bad_folded,
        "foreign_trace": foreign_trace, "truncated_trace": truncated_trace,
        "corrupted_trace": corrupted_trace, "newer_version": newer_version,
        "planted_trace_link": planted_trace_link, "fifo_paths": fifo_paths,
        "inflated_sections": inflated_sections, "perf_map_bounds": perf_map_bounds,
        "planted_perf_map": planted_perf_map, "deep_folded": deep_folded}))

#!/usr/bin/env python3
"""test_output_dir.py - the output directory of stoke record holds what the
user keeps there, and stoke writes only where the user alone decides:

  earlier_recording  recording again removes exactly the files the earlier
                     recording wrote (its manifest names them, with inode
                     and size) and says which: a trace the user renamed or
                     copied, a text file foo.stoke and other files stay, a
                     file of the earlier recording changed since stays (and
                     stoke says so); the new report holds the new run alone
  planted_output     (as root) -o naming a symbolic link or a directory of
                     another user (nobody; the directory mode 0777): refused
                     before the program runs (1), the message naming the
                     path and its owner; nothing written there; a directory
                     of the user's own, a link of the user's own to one, and
                     (run as nobody) a directory of root's, mode 1777, work

usage: test_output_dir.py earlier_recording|planted_output
"""
import os
import re
import shutil
import subprocess

from e2e_support import (STOKE, describe, expect, fresh_dir, main, program, record, record_ok,
                         skip, text, traces_in)

MANIFEST = "stoke-manifest.txt"
NOBODY_UID = 65534


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def manifest_entries(out):
    """{name: (inode, size)} of the manifest in out."""
    path = os.path.join(out, MANIFEST)
    expect(os.path.isfile(path), f"stoke record left no {MANIFEST} in {out}",
           " ".join(sorted(os.listdir(out))))
    lines = read_bytes(path).decode().splitlines()
    expect(lines and lines[0] == "stoke-manifest 1", "the manifest has no header", "\n".join(lines))
    entries = {}
    for line in lines[1:]:
        inode, size, name = line.split(" ", 2)
        entries[name] = (int(inode), int(size))
    return entries


def expect_manifest_of(out, names):
    entries = manifest_entries(out)
    expect(sorted(entries) == sorted(names), f"the manifest names {sorted(entries)}, the run "
           f"wrote {sorted(names)}")
    for name, (inode, size) in entries.items():
        st = os.stat(os.path.join(out, name))
        expect((st.st_ino, st.st_size) == (inode, size),
               f"the manifest's inode and size of {name} are not the file's")


def hello_run(out):
    """Records hello into out; returns (run, the new trace's name)."""
    before = set(traces_in(out)) if os.path.isdir(out) else set()
    result = record_ok(out, [program("hello")])
    new = sorted(set(traces_in(out)) - before)
    expect(len(new) == 1, f"expected one new trace in {out}", " ".join(traces_in(out)))
    pid = new[0].split(".")[-2]
    expect(", 1 process\n" in text(result.stderr) and f"hello ({pid})" in text(result.stderr),
           "the report does not hold the new run alone", describe(result))
    return result, new[0]


def removal_line(result):
    lines = [line for line in text(result.stderr).splitlines() if " earlier recording " in line]
    return "\n".join(lines)


def earlier_recording():
    out = fresh_dir("earlier_recording")
    _, first = hello_run(out)
    expect_manifest_of(out, [first, "flamegraph.html"])
    os.rename(os.path.join(out, first), os.path.join(out, "mine.stoke"))
    shutil.copy(os.path.join(out, "mine.stoke"), os.path.join(out, "copy.stoke"))
    kept = {"foo.stoke": b"a text file, not a trace\n", "notes.txt": b"notes\n"}
    for name, data in kept.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    kept.update({name: read_bytes(os.path.join(out, name)) for name in ("mine.stoke",
                                                                        "copy.stoke")})
    second_run, second = hello_run(out)
    expect(removal_line(second_run) ==
           f"stoke: removed 1 file of the earlier recording from {out}/: flamegraph.html",
           "stoke did not say it removed the earlier report alone", describe(second_run))
    expect("foo.stoke" not in text(second_run.stderr),
           "the recording read foo.stoke, a file from before it", describe(second_run))
    for name, data in kept.items():
        expect(os.path.exists(os.path.join(out, name)) and
               read_bytes(os.path.join(out, name)) == data, f"{name} did not stay as it was")
    expect_manifest_of(out, [second, "flamegraph.html"])
    with open(os.path.join(out, second), "ab") as f:
        f.write(b"changed")
    third_run, third = hello_run(out)
    said = removal_line(third_run)
    expect(f"removed 1 file of the earlier recording from {out}/: flamegraph.html" in said and
           re.search(rf"kept 1 file of the earlier recording in {re.escape(out)}/, changed .*: "
                     rf"{re.escape(second)}$", said, re.M),
           "stoke did not say it kept the changed trace", describe(third_run))
    expect(os.path.exists(os.path.join(out, second)), f"the changed {second} was removed")
    expect_manifest_of(out, [third, "flamegraph.html"])


def expect_refused(out, owner, what):
    result = record(out, [program("hello")])
    lines = text(result.stderr).splitlines()
    expect(result.returncode == 1 and len(lines) == 1 and f"'{out}'" in lines[0] and
           owner in lines[0] and "choose another with -o" in lines[0],
           f"{what}: expected status 1 and one line naming {out}, {owner} and -o",
           describe(result))
    expect(result.stdout == b"", f"{what}: the program ran", describe(result))


def expect_used(out, what, as_nobody=False):
    prefix = ["setpriv", f"--reuid={NOBODY_UID}", f"--regid={NOBODY_UID}",
              "--clear-groups"] if as_nobody else []
    result = subprocess.run([*prefix, STOKE, "record", "-o", out, "--", program("hello")],
                            capture_output=True)
    expect(result.returncode == 0 and traces_in(out), f"{what}: the recording failed",
           describe(result))


def planted_output():
    if os.geteuid() != 0:
        skip("planted_output", "needs root to make files of another user (nobody)")
    work = fresh_dir("planted_output")
    mine, theirs = os.path.join(work, "mine"), os.path.join(work, "theirs")
    os.mkdir(mine)
    os.mkdir(theirs)
    os.chmod(theirs, 0o777)
    os.chown(theirs, NOBODY_UID, -1)
    planted_link = os.path.join(work, "planted_link")
    os.symlink(mine, planted_link)
    os.lchown(planted_link, NOBODY_UID, -1)
    my_link_to_theirs = os.path.join(work, "my_link_to_theirs")
    os.symlink(theirs, my_link_to_theirs)
    expect_refused(planted_link, "nobody", "a link of nobody's")
    expect_refused(theirs, "nobody", "a directory of nobody's, mode 0777")
    expect_refused(my_link_to_theirs, "nobody", "a link of root's to a directory of nobody's")
    expect(os.listdir(mine) == [] and os.listdir(theirs) == [],
           "stoke wrote into a refused directory", " ".join(os.listdir(mine) + os.listdir(theirs)))
    expect_used(mine, "a directory of the user's own")
    my_link = os.path.join(work, "my_link")
    os.symlink(mine, my_link)
    expect_used(my_link, "a link of the user's own to a directory of the user's own")
    shared = os.path.join(work, "shared")
    os.mkdir(shared)
    os.chmod(shared, 0o1777)
    expect_used(shared, "a directory of root's, mode 1777, for nobody", as_nobody=True)


if __name__ == "__main__":
    raise SystemExit(main({"earlier_recording": earlier_recording,
                           "planted_output": planted_output}))

#!/usr/bin/env python3
"""test_output_dir.py - stoke record writes only where the user alone
decides:

  planted_output     (as root) -o naming a symbolic link or a directory of
                     another user (nobody; the directory mode 0777): refused
                     before the program runs (1), the message naming the
                     path and its owner; nothing written there; a directory
                     of the user's own, a link of the user's own to one, and
                     (run as nobody) a directory of root's, mode 1777, work

usage: test_output_dir.py planted_output
"""
import os
import subprocess

from e2e_support import (STOKE, describe, expect, fresh_dir, main, program, record, skip, text,
                         traces_in)

NOBODY_UID = 65534


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
    raise SystemExit(main({"planted_output": planted_output}))

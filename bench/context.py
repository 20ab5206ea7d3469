"""context.py - what every workload of the benchmark works with: stoke's
build, the tools this machine has, a scratch directory for outputs, how many
rounds to run, and the bench's own C programs and preload libraries
(compiled on first use).

Owns: finding things and naming output paths. Never measures anything.
"""
import os
import shutil
import subprocess

from runner import BenchError
from tools import all_tools

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))


class Context:
    def __init__(self, build, scratch, rounds_override):
        self.build = build
        self.scratch = scratch
        self.rounds_override = rounds_override
        self.stoke = os.path.join(build, "bin", "stoke")
        self.agent = os.path.join(build, "lib", "libstoke.so")
        self.cpu_burn = os.path.join(build, "bin", "cpu_burn")
        self.make_trace = os.path.join(build, "bin", "make_trace")
        self.tools, self.missing_tools = {}, []
        for tool in all_tools(self):
            why = tool.missing()
            if why:
                self.missing_tools.append("%s: %s" % (tool.name, why))
            else:
                self.tools[tool.name] = tool
        self._programs = {}
        self._outputs = 0

    def missing_build(self):
        """The files of stoke's build the benchmark cannot run without."""
        return [p for p in (self.stoke, self.agent, self.cpu_burn) if not os.path.exists(p)]

    def rounds(self, default):
        return self.rounds_override or default

    def tools_named(self, names):
        """The tools of names this machine has, in the order given."""
        return [self.tools[n] for n in names if n in self.tools]

    def output_path(self, label):
        """A fresh path in the scratch directory for one run's output."""
        self._outputs += 1
        return os.path.join(self.scratch, "%04d-%s" % (self._outputs, label))

    def program(self, name, flags=()):
        """bench/<name>.c compiled (optimised, with debug info, as users
        build what they profile, and with the given extra flags) into the
        scratch directory, once."""
        return self._compiled(name, name, list(flags))

    def library(self, name):
        """bench/<name>.c compiled into a shared library to preload, once."""
        return self._compiled(name, name + ".so", ["-shared", "-fPIC"])

    def _compiled(self, name, output, flags):
        if output not in self._programs:
            cc = os.environ.get("CC", "cc")
            if not shutil.which(cc):
                raise BenchError("%s not found: install the Debian package build-essential" % cc)
            path = os.path.join(self.scratch, output)
            source = os.path.join(BENCH_DIR, name + ".c")
            subprocess.run([cc, "-O2", "-g", "-pthread", "-Wall", "-Wextra"] + flags
                           + ["-o", path, source], check=True)
            self._programs[output] = path
        return self._programs[output]

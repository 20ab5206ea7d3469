"""gperf_profile.py - counts the samples in a CPU profile written by
gperftools' profiler (CPUPROFILE=FILE), from its documented binary layout,
so the benchmark needs neither pprof nor the profiled binaries.

The file is a sequence of machine words (64-bit little endian here):
  header   0, 3, 0, sampling period in microseconds, 0
  records  sample count, number of PCs (n), PC 1 .. PC n   (one per stack)
  trailer  0, 1, 0
followed by the text of /proc/self/maps.

Owns: reading that layout. Never writes or symbolizes anything.
"""
import struct

from runner import BenchError

WORD = struct.Struct("<Q")


class ProfileFormatError(BenchError):
    pass


def sample_count(path):
    with open(path, "rb") as f:
        data = f.read()
    words = _Words(data, path)
    if [words.next() for _ in range(5)][:3] != [0, 3, 0]:
        raise ProfileFormatError("%s: not a gperftools CPU profile (bad header)" % path)
    total = 0
    while True:
        count, npcs = words.next(), words.next()
        if count == 0 and npcs == 1:
            words.next()  # the trailer's last word
            return total
        words.skip(npcs)
        total += count


class _Words:
    def __init__(self, data, path):
        self.data, self.path, self.offset = data, path, 0

    def next(self):
        if self.offset + WORD.size > len(self.data):
            raise ProfileFormatError("%s: gperftools CPU profile ends early" % self.path)
        (value,) = WORD.unpack_from(self.data, self.offset)
        self.offset += WORD.size
        return value

    def skip(self, n):
        self.offset += n * WORD.size

"""hostile_inputs.py - small files built to cost stoke's offline side as
much as they can, for the bad-input tests: traces written record by record
(include/stoke_format.h). Stdlib only, plus the zstd command. Never runs
stoke.
"""
import subprocess

PROCESS, MAP, STACK, SAMPLES, END = 1, 2, 5, 6, 7
FILE_HEADER = b"STOKETRC" + bytes([1, 0, 1, 0]) + bytes(4)  # magic, version 1.1


def leb128(value):
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def zigzag(value):
    return value * 2 if value >= 0 else -value * 2 - 1


def record_bytes(record_type, *fields):
    """One record: fields are ints (unsigned LEB128) or bytes (length-prefixed)."""
    payload = b"".join(leb128(f) if isinstance(f, int) else leb128(len(f)) + f
                       for f in fields)
    return bytes([record_type]) + leb128(len(payload)) + payload


def stack_record(stack_id, frames):
    """A STACK record of frames (module id, offset), leaf first; an offset in
    the module of the frame before is written as the difference."""
    fields, previous = [stack_id, 0, len(frames)], None
    for module, offset in frames:
        delta = offset - previous[1] if previous and previous[0] == module else offset
        fields += [module, zigzag(delta)]
        previous = (module, offset)
    return record_bytes(STACK, *fields)


def one_sample_trace(pid, modules, frames):
    """A trace of process demo (pid) with one sample: modules are (path,
    build_id bytes) for module ids 1, 2, ...; frames as for stack_record
    (module 0: a JIT address, named from perf-<pid>.map)."""
    records = [record_bytes(PROCESS, pid, 1, 0, 0, 0, 0, 1000, 1000000, b"demo", b"", b"")]
    records += [record_bytes(MAP, i, 0x1000, 0x2000, 0, build_id, path.encode(), 0)
                for i, (path, build_id) in enumerate(modules, 1)]
    records += [stack_record(0, frames), record_bytes(SAMPLES, pid, 0, 1, 0, 0, 0),
                record_bytes(END, 1, 0, 0, 1000, 1)]
    frame = subprocess.run(["zstd", "-q", "-c"], input=b"".join(records),
                           stdout=subprocess.PIPE, check=True).stdout
    return FILE_HEADER + frame


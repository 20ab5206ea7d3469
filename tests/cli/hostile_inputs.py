"""hostile_inputs.py - small files built to cost stoke's offline side as
much as they can, for the bad-input tests: traces written record by record
(include/stoke_format.h), and an ELF file whose compressed section claims
(and, decompressed, really holds) far more than the file. Stdlib only, plus
the zstd command. Never runs stoke.
"""
import struct
import subprocess
import zlib

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


# --- ELF files ----------------------------------------------------------------

SHF_COMPRESSED = 0x800
ELFCOMPRESS_ZLIB = 1
ZERO_CHUNK = 1 << 24


def sections(elf):
    """{name: offset of its section header} of a 64-bit little-endian ELF file."""
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    entsize, count, names_index = struct.unpack_from("<HHH", elf, 0x3A)
    names_at, = struct.unpack_from("<Q", elf, shoff + names_index * entsize + 24)
    out = {}
    for i in range(count):
        header = shoff + i * entsize
        name, = struct.unpack_from("<I", elf, header)
        out[bytes(elf[names_at + name:]).split(b"\0", 1)[0].decode()] = header
    return out


def build_id(elf):
    """The GNU build-id of an ELF file (bytes), from .note.gnu.build-id."""
    header = sections(elf)[".note.gnu.build-id"]
    offset, = struct.unpack_from("<Q", elf, header + 24)
    name_size, desc_size = struct.unpack_from("<II", elf, offset)
    start = offset + 12 + (name_size + 3) // 4 * 4
    return bytes(elf[start:start + desc_size])


def zlib_of_zeros(size):
    """A zlib stream of size (a multiple of 16 MiB) zero bytes, made in a
    moment: after a full flush each 16 MiB chunk compresses to the same bytes."""
    compressor = zlib.compressobj(9)
    chunk = compressor.compress(bytes(ZERO_CHUNK)) + compressor.flush(zlib.Z_FULL_FLUSH)
    adler32 = ((size % 65521) << 16) | 1  # of zero bytes only
    final_empty_block = b"\x03\x00"
    return (chunk[:2] + chunk[2:] * (size // ZERO_CHUNK) + final_empty_block +
            struct.pack(">I", adler32))


def inflate_section(elf_path, section, size, out_path):
    """Writes a copy of elf_path whose section (SHF_COMPRESSED from now on)
    decompresses to size zero bytes, its compression header claiming so;
    the data goes at the end of the copy."""
    elf = bytearray(open(elf_path, "rb").read())
    header = sections(elf)[section]
    payload = struct.pack("<IIQQ", ELFCOMPRESS_ZLIB, 0, size, 1) + zlib_of_zeros(size)
    elf += bytes(-len(elf) % 8)
    flags, = struct.unpack_from("<Q", elf, header + 8)
    struct.pack_into("<Q", elf, header + 8, flags | SHF_COMPRESSED)
    struct.pack_into("<QQ", elf, header + 24, len(elf), len(payload))
    elf += payload
    with open(out_path, "wb") as f:
        f.write(elf)
    return bytes(elf)

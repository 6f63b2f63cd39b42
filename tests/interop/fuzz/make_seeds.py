#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Writes the seed corpus of arrow_import_fuzz.cpp (corpus/*.bin): a few valid arrays of each
# layout, in the target's encoding (bytes read front to back):
#   entry: bit 0 import_arrow_table, bit 1 null schema pointer, bit 2 null array pointer
#   node:  format index, flags, length, offset, null_count, n_buffers, per buffer: mode + bytes,
#          children byte, then each child node.
import pathlib
import re
import struct

here = pathlib.Path(__file__).resolve().parent
formats = re.findall(r'\{"([^"]*)", layout::', (here / "arrow_import_fuzz.cpp").read_text())


def fmt(f):
    return bytes([formats.index(f)])


def count(n):  # mode 0: one byte; mode 1: two bytes
    return bytes([0, n]) if n < 256 else bytes([1]) + struct.pack("<H", n)


NONNULL = 1     # flags: the schema has a name
NC_UNKNOWN = 0  # null_count byte: -1
NC_ZERO = 1     # null_count byte: 0
NATURAL = 0     # n_buffers byte: the format's count


def node(f, length, offset=0, nc=NC_ZERO, buffers=(), children=0):
    out = fmt(f) + bytes([NONNULL]) + count(length) + count(offset) + bytes([nc, NATURAL])
    for b in buffers:
        out += b
    return out + bytes([children])


def absent():
    return bytes([0])


def present(data):
    return bytes([1]) + data


def offsets(start, steps):  # mode 0x11: offsets built by the target, one step per entry
    return bytes([0x11, 1, start]) + bytes(steps)


seeds = {
    "int32": bytes([0]) + node("i", 4, buffers=[absent(), present(struct.pack("<4i", 1, -2, 3, 4))]),
    "int64_nulls": bytes([0]) + node("l", 5, 2, NC_UNKNOWN,
                                     [present(bytes([0b1011101])), present(struct.pack("<7q", *range(7)))]),
    "bool_offset": bytes([0]) + node("b", 10, 3, NC_UNKNOWN, [present(b"\xf5\x3c"), present(b"\x5a\x0f")]),
    "decimal128": bytes([0]) + node("d:38,4", 2, 1, NC_UNKNOWN, [present(b"\x06"), present(bytes(range(48)))]),
    "utf8": bytes([0]) + node("u", 3, 0, NC_ZERO, [absent(), offsets(0, [2, 0, 3, 0]), present(b"abcde")]),
    "large_utf8_nulls": bytes([0]) + node("U", 3, 1, NC_UNKNOWN,
                                          [present(b"\x0b"), offsets(0, [1, 1, 2, 1, 0]), present(b"wxyzq")]),
    "timestamp_tz": bytes([0]) + node("tsn:UTC", 2, buffers=[absent(), present(bytes(16))]),
    "struct": bytes([1]) + node("+s", 3, 0, NC_ZERO, [absent()], children=2)
    + node("l", 3, buffers=[absent(), present(struct.pack("<3q", 7, 8, 9))])
    + node("u", 3, 0, NC_ZERO, [absent(), offsets(0, [1, 2, 3, 0]), present(b"abcdef")]),
    "struct_offset": bytes([1]) + node("+s", 2, 1, NC_UNKNOWN, [present(b"\x07")], children=1)
    + node("s", 4, buffers=[absent(), present(struct.pack("<4h", 1, 2, 3, 4))]),
    "bad_decimal": bytes([0]) + node("d:99,2", 1, buffers=[absent(), present(bytes(16))]),
}
corpus = here / "corpus"
corpus.mkdir(exist_ok=True)
for name, data in seeds.items():
    (corpus / f"{name}.bin").write_bytes(data)
print(f"{len(seeds)} seeds in {corpus}")

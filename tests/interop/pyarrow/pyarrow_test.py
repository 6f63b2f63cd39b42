# SPDX-License-Identifier: Apache-2.0
"""colx's Arrow C Data Interface against pyarrow, both ways.

Usage: pyarrow_test.py <path of the colx_pyarrow_bridge shared library>

colx -> pyarrow: the bridge exports a fixed demo table (every colx type, with nulls), whole and
sliced; pyarrow imports it and every column's type, values, nulls and offset are compared with the
values written down here. pyarrow -> colx: pyarrow exports arrays and record batches (sliced ones
with non-zero offsets included); the bridge imports them and describes what it got as text, which
is compared with a description computed here from pyarrow's values.
"""
import ctypes
import sys
from decimal import Decimal

import pyarrow as pa

ARRAY_BYTES = 80  # sizeof(struct ArrowArray)
SCHEMA_BYTES = 72  # sizeof(struct ArrowSchema)
ARRAY_RELEASE_OFFSET = 64  # also in an ArrowDeviceArray, which begins with its ArrowArray
DEVICE_ARRAY_BYTES = 128  # sizeof(struct ArrowDeviceArray): the array, device_id, device_type, sync_event, reserved
DEVICE_TYPE_OFFSET = ARRAY_BYTES + 8
ARROW_DEVICE_CPU = 1

lib = ctypes.CDLL(sys.argv[1])
lib.colx_export_demo.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64]
lib.colx_export_demo.restype = ctypes.c_int
lib.colx_describe.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
lib.colx_describe.restype = ctypes.c_void_p
lib.colx_free.argtypes = [ctypes.c_void_p]
lib.colx_release_schema.argtypes = [ctypes.c_void_p]
lib.colx_release_array.argtypes = [ctypes.c_void_p]

failures = []
checks = 0


def check(condition, what):
    global checks
    checks += 1
    if not condition:
        failures.append(what)
        print("FAILED:", what)


# ---- colx -> pyarrow ------------------------------------------------------------------------------

N = 40


def is_null(i):
    return i % 3 == 1 or i % 7 == 0


def column(f, nulls=True):
    return [None if nulls and is_null(i) else f(i) for i in range(N)]


def dec(scale_arrow):
    return lambda i: Decimal(i * 12345 - 99).scaleb(-scale_arrow)


# name -> (pyarrow type, expected values (ticks for temporal types), exported by copy)
DEMO = {
    "bool": (pa.bool_(), column(lambda i: i % 2 == 0), True),
    "int8": (pa.int8(), column(lambda i: i * 3 - 50), False),
    "int16": (pa.int16(), column(lambda i: i * 300 - 5000), False),
    "int32": (pa.int32(), column(lambda i: i * 70000 - 1000000), False),
    "int64": (pa.int64(), column(lambda i: i * 10000000000 - 7), False),
    "uint8": (pa.uint8(), column(lambda i: i * 6), False),
    "uint16": (pa.uint16(), column(lambda i: i * 1600), False),
    "uint32": (pa.uint32(), column(lambda i: i * 100000000), False),
    "uint64": (pa.uint64(), column(lambda i: i * 400000000000000000), False),
    "float32": (pa.float32(), column(lambda i: i * 0.5 - 3.0), False),
    "float64": (pa.float64(), column(lambda i: i * 0.25 - 3.0), False),
    "date32": (pa.date32(), column(lambda i: i * 1000 + 7), False),
    "ts_s": (pa.timestamp("s"), column(lambda i: i * 1000 + 7), False),
    "ts_ms": (pa.timestamp("ms"), column(lambda i: i * 1000 + 7), False),
    "ts_us": (pa.timestamp("us"), column(lambda i: i * 1000 + 7), False),
    "ts_ns": (pa.timestamp("ns"), column(lambda i: i * 1000 + 7), False),
    "dur_days": (pa.duration("s"), column(lambda i: (i - 5) * 86400), True),
    "dur_s": (pa.duration("s"), column(lambda i: i * 1000 - 7), False),
    "dur_ms": (pa.duration("ms"), column(lambda i: i * 1000 - 7), False),
    "dur_us": (pa.duration("us"), column(lambda i: i * 1000 - 7), False),
    "dur_ns": (pa.duration("ns"), column(lambda i: i * 1000 - 7), False),
    "dec32": (pa.decimal32(9, 2), column(dec(2)), False),
    "dec64": (pa.decimal64(18, 3), column(dec(3)), False),
    "dec128": (pa.decimal128(38, 20), column(dec(20)), False),
    "utf8": (pa.string(), column(lambda i: "s%d" % i), False),
    "large_utf8": (pa.large_string(), column(lambda i: "large-%d" % i), False),
    "dense": (pa.int64(), column(lambda i: i, nulls=False), False),
    "dict": (pa.dictionary(pa.uint8(), pa.string()), column(lambda i: ["alpha", "beta", "gamma"][i % 3]), False),
}


def ticks(array):
    """Values of an array as plain Python values: temporal types as their integer ticks."""
    t = array.type
    if pa.types.is_date32(t):
        return array.view(pa.int32()).to_pylist()
    if pa.types.is_timestamp(t) or pa.types.is_duration(t):
        return array.view(pa.int64()).to_pylist()
    return array.to_pylist()


def import_demo(begin, end):
    schema = ctypes.create_string_buffer(SCHEMA_BYTES)
    array = ctypes.create_string_buffer(ARRAY_BYTES)
    rc = lib.colx_export_demo(ctypes.addressof(schema), ctypes.addressof(array), begin, end)
    check(rc == 0, "colx_export_demo(%d, %d) returned %d" % (begin, end, rc))
    return pa.RecordBatch._import_from_c(ctypes.addressof(array), ctypes.addressof(schema))


for begin, end in [(0, N), (3, 37), (33, 40), (1, 2), (5, 5)]:
    batch = import_demo(begin, end)
    check(batch.num_rows == end - begin, "demo[%d:%d] has %d rows" % (begin, end, batch.num_rows))
    check(batch.schema.names == list(DEMO), "demo column names: %s" % batch.schema.names)
    for name, (pa_type, values, copied) in DEMO.items():
        col = batch.column(name)
        where = "demo[%d:%d].%s" % (begin, end, name)
        check(col.type == pa_type, "%s: type %s, expected %s" % (where, col.type, pa_type))
        expected = values[begin:end]
        check(ticks(col) == expected, "%s: values %s, expected %s" % (where, ticks(col), expected))
        check(col.null_count == sum(v is None for v in expected), "%s: null_count %d" % (where, col.null_count))
        expected_offset = 0 if copied else begin
        check(col.offset == expected_offset, "%s: offset %d, expected %d" % (where, col.offset, expected_offset))
        col.validate(full=True)
    del batch  # releases colx's memory (the release callback)


# ---- pyarrow -> colx ------------------------------------------------------------------------------

COLX_TYPE = {
    pa.bool_(): "bool8", pa.int8(): "int8", pa.int16(): "int16", pa.int32(): "int32", pa.int64(): "int64",
    pa.uint8(): "uint8", pa.uint16(): "uint16", pa.uint32(): "uint32", pa.uint64(): "uint64",
    pa.float32(): "float32", pa.float64(): "float64", pa.date32(): "timestamp[days]",
    pa.string(): "string", pa.large_string(): "string",
}
UNIT = {"s": "s", "ms": "ms", "us": "us", "ns": "ns"}


def colx_type(t):
    if pa.types.is_dictionary(t):
        return "dictionary(codes %s) of %s" % (t.index_type, colx_type(t.value_type))
    if t in COLX_TYPE:
        return COLX_TYPE[t]
    if pa.types.is_timestamp(t):
        return "timestamp[%s]" % UNIT[t.unit]
    if pa.types.is_duration(t):
        return "duration[%s]" % UNIT[t.unit]
    if pa.types.is_decimal(t):
        return "decimal%d(precision %d, scale %d)" % (t.bit_width, t.precision, -t.scale)
    raise ValueError(t)


def text(value, t):
    if value is None:
        return "null"
    if pa.types.is_boolean(t):
        return "1" if value else "0"
    if pa.types.is_floating(t):
        return "%.17g" % value
    if pa.types.is_decimal(t):
        return str(int(value.scaleb(t.scale)))
    return str(value)


def describe(name, array):
    plain = array.dictionary_decode() if pa.types.is_dictionary(array.type) else array
    return "%s|%s|%d|%s\n" % (name, colx_type(array.type), array.null_count,
                              ",".join(text(v, plain.type) for v in ticks(plain)))


def colx_describe(exportable, device=False):
    """What colx imports from pyarrow's export, through the C Data Interface or (device) the C
    Device Data Interface."""
    schema = ctypes.create_string_buffer(SCHEMA_BYTES)
    array = ctypes.create_string_buffer(DEVICE_ARRAY_BYTES if device else ARRAY_BYTES)
    export = exportable._export_to_c_device if device else exportable._export_to_c
    export(ctypes.addressof(array), ctypes.addressof(schema))
    p = (lib.colx_describe_device if device else lib.colx_describe)(ctypes.addressof(schema), ctypes.addressof(array))
    out = ctypes.string_at(p).decode()
    lib.colx_free(p)
    released = ctypes.c_void_p.from_buffer(array, ARRAY_RELEASE_OFFSET).value is None
    if out.startswith("error:"):
        check(not released, "a rejected array stays with its producer")
        lib.colx_release_array(ctypes.addressof(array))
    else:
        check(released, "colx moved the imported array (release set to NULL)")
    lib.colx_release_schema(ctypes.addressof(schema))
    return out


def nullable(n, f):
    return [None if is_null(i) else f(i) for i in range(n)]


ARRAYS = {
    "bool": pa.array(nullable(70, lambda i: i % 3 == 0), pa.bool_()),
    "int8": pa.array(nullable(70, lambda i: i - 30), pa.int8()),
    "int16": pa.array(nullable(70, lambda i: i * 100 - 3000), pa.int16()),
    "int32": pa.array(nullable(70, lambda i: i * 1000 - 30), pa.int32()),
    "int64": pa.array(nullable(70, lambda i: i * 10**12), pa.int64()),
    "uint8": pa.array(nullable(70, lambda i: i * 3), pa.uint8()),
    "uint16": pa.array(nullable(70, lambda i: i * 900), pa.uint16()),
    "uint32": pa.array(nullable(70, lambda i: i * 60000000), pa.uint32()),
    "uint64": pa.array(nullable(70, lambda i: i * 2**57), pa.uint64()),
    "float32": pa.array(nullable(70, lambda i: i * 0.125), pa.float32()),
    "float64": pa.array(nullable(70, lambda i: i / 3.0), pa.float64()),
    "date32": pa.array(nullable(70, lambda i: i * 365), pa.int32()).cast(pa.date32()),
    "ts_ms_utc": pa.array(nullable(70, lambda i: i * 10**9), pa.int64()).cast(pa.timestamp("ms", tz="UTC")),
    "ts_ns_paris": pa.array(nullable(70, lambda i: i * 10**15), pa.int64()).cast(pa.timestamp("ns", tz="Europe/Paris")),
    "ts_s": pa.array(nullable(70, lambda i: i), pa.int64()).cast(pa.timestamp("s")),
    "ts_us": pa.array(nullable(70, lambda i: -i), pa.int64()).cast(pa.timestamp("us")),
    "dur_s": pa.array(nullable(70, lambda i: i), pa.int64()).cast(pa.duration("s")),
    "dur_ns": pa.array(nullable(70, lambda i: i * 7), pa.int64()).cast(pa.duration("ns")),
    "dec128": pa.array(nullable(70, lambda i: Decimal(i * 101 - 500).scaleb(-2)), pa.decimal128(10, 2)),
    "dec128_negative_scale": pa.array(nullable(70, lambda i: Decimal(i).scaleb(3)), pa.decimal128(10, -3)),
    "dec64": pa.array(nullable(70, lambda i: Decimal(i * 7 - 9).scaleb(-4)), pa.decimal64(15, 4)),
    "dec32": pa.array(nullable(70, lambda i: Decimal(i * 3).scaleb(-3)), pa.decimal32(7, 3)),
    "utf8": pa.array(nullable(70, lambda i: "x" * (i % 4) + str(i)), pa.string()),
    "large_utf8": pa.array(nullable(70, lambda i: "y" * (i % 3)), pa.large_string()),
    "no_nulls": pa.array(list(range(70)), pa.int32()),
    "dict_utf8": pa.array(nullable(70, lambda i: ["north", "south", "", "héllo"][i % 4])).dictionary_encode(),
    "dict_int8_codes": pa.DictionaryArray.from_arrays(pa.array(nullable(70, lambda i: (i * 7) % 5), pa.int8()),
                                                      pa.array([10.5, -2.0, 0.0, 7.25, 1e300])),
}

for name, array in ARRAYS.items():
    for begin, length in [(0, 70), (1, 60), (3, 40), (32, 30), (33, 37), (69, 1), (10, 0)]:
        piece = array.slice(begin, length)
        field = pa.field(name, piece.type)
        got = colx_describe_field = None
        schema = ctypes.create_string_buffer(SCHEMA_BYTES)
        out = colx_describe(pa.RecordBatch.from_arrays([piece], schema=pa.schema([field])))
        want = describe(name, piece)
        check(out == want, "pyarrow %s[%d:+%d] -> colx:\n  got  %r\n  want %r" % (name, begin, length, out, want))
        if begin == 3:  # also as a lone array (no struct around it), whose offset is its own
            lone = colx_describe(piece)
            check(lone == describe("", piece), "pyarrow lone %s[3:] -> colx: %r" % (name, lone))

# A record batch of several columns, sliced: the struct's children carry the offset.
batch = pa.RecordBatch.from_arrays(list(ARRAYS.values()), names=list(ARRAYS))
for begin, length in [(0, 70), (5, 50), (33, 20)]:
    piece = batch.slice(begin, length)
    out = colx_describe(piece)
    want = "".join(describe(n, piece.column(n)) for n in ARRAYS)
    check(out == want, "pyarrow batch[%d:+%d] -> colx differs:\n%s\nvs\n%s" % (begin, length, out, want))

# What colx has no type for is rejected, naming the format; the array stays with pyarrow.
for array, culprit in [
    (pa.array([1.0, 2.0], pa.float16()), '"e"'),
    (pa.array([[1], [2, 3]]), '"+l"'),
    (pa.DictionaryArray.from_arrays(pa.array([0, 1], pa.int32()), pa.array(["a", "a"])), "repeat"),
    (pa.DictionaryArray.from_arrays(pa.array([0, 1], pa.int32()), pa.array(["a", None])), "null values"),
    (pa.array([b"x"], pa.binary()), '"z"'),
    (pa.array([Decimal("1.5")], pa.decimal256(40, 1)), "256"),
]:
    out = colx_describe(array)
    check(out.startswith("error:") and culprit in out, "pyarrow %s -> colx: %r should name %s" % (array.type, out, culprit))

# ---- the C Device Data Interface (ARROW_DEVICE_CPU), where this pyarrow has it ---------------------
# pyarrow's wheels from pip have no CUDA; CPU device arrays are what they import and export.
if hasattr(pa.RecordBatch, "_import_from_c_device") and hasattr(pa.RecordBatch, "_export_to_c_device"):
    lib.colx_export_demo_device.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64]
    lib.colx_export_demo_device.restype = ctypes.c_int
    lib.colx_describe_device.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    lib.colx_describe_device.restype = ctypes.c_void_p
    for begin, end in [(0, N), (3, 37), (5, 5)]:
        schema = ctypes.create_string_buffer(SCHEMA_BYTES)
        device_array = ctypes.create_string_buffer(DEVICE_ARRAY_BYTES)
        rc = lib.colx_export_demo_device(ctypes.addressof(schema), ctypes.addressof(device_array), begin, end)
        check(rc == 0, "colx_export_demo_device(%d, %d) returned %d" % (begin, end, rc))
        device_type = ctypes.c_int32.from_buffer(device_array, DEVICE_TYPE_OFFSET).value
        check(device_type == ARROW_DEVICE_CPU, "colx's host export has device_type %d" % device_type)
        batch = pa.RecordBatch._import_from_c_device(ctypes.addressof(device_array), ctypes.addressof(schema))
        check(batch.num_rows == end - begin, "device demo[%d:%d] has %d rows" % (begin, end, batch.num_rows))
        for name, (pa_type, values, copied) in DEMO.items():
            col = batch.column(name)
            where = "device demo[%d:%d].%s" % (begin, end, name)
            check(col.type == pa_type, "%s: type %s, expected %s" % (where, col.type, pa_type))
            check(ticks(col) == values[begin:end], "%s: values %s" % (where, ticks(col)))
        del batch

    for begin, length in [(0, 70), (33, 20)]:
        piece = pa.RecordBatch.from_arrays(list(ARRAYS.values()), names=list(ARRAYS)).slice(begin, length)
        out = colx_describe(piece, device=True)
        want = "".join(describe(n, piece.column(n)) for n in ARRAYS)
        check(out == want, "pyarrow device batch[%d:+%d] -> colx differs:\n%s\nvs\n%s" % (begin, length, out, want))
    print("C Device Data Interface (CPU): checked both ways")
else:
    print("this pyarrow has no C Device Data Interface; skipped that part")

print("%d checks, %d failed" % (checks, len(failures)))
sys.exit(1 if failures else 0)

#!/usr/bin/env python3
"""Writes the Parquet files the reader's tests read (tests/io/parquet/data), with pyarrow and, where
it is installed, DuckDB. Every value is a formula of its row number, which the C++ test
(parquet_read_test.cpp, `expected`) computes again: the files are the only thing shared.

    python3 tests/io/parquet/make_files.py tests/io/parquet/data

The files are committed, so the tests need no Python; run this again only to change them.
"""
import datetime
import decimal
import os
import sys

import pyarrow as pa
import pyarrow.parquet as pq


def column(n, f, null_every=None, null_at=0):
    return [None if null_every and i % null_every == null_at else f(i) for i in range(n)]


def table(n):
    d = decimal.Decimal
    epoch = datetime.date(1970, 1, 1)
    cols = {
        "i32": pa.array(column(n, lambda i: (i * 7919) % 20001 - 10000, 7, 3), pa.int32()),
        "i64": pa.array(column(n, lambda i: i * 1000000007 - 5000000000000), pa.int64()),
        "i8": pa.array(column(n, lambda i: i % 256 - 128), pa.int8()),
        "u16": pa.array(column(n, lambda i: (i * 37) % 65536), pa.uint16()),
        "u32": pa.array(column(n, lambda i: (i * 2654435761) % 2**32), pa.uint32()),
        "u64": pa.array(column(n, lambda i: 2**63 + i), pa.uint64()),
        "f32": pa.array(column(n, lambda i: i * 0.5), pa.float32()),
        "f64": pa.array(column(n, lambda i: i * 0.25 - 100, 11, 5), pa.float64()),
        "b": pa.array(column(n, lambda i: i % 3 == 0, 13, 1), pa.bool_()),
        "s": pa.array(column(n, lambda i: "s%d" % (i % 97), 5, 2), pa.string()),
        "u": pa.array(column(n, lambda i: "row-%d-\u00e9" % (i * 31 % 1000003), 17, 16), pa.string()),
        "d": pa.array(column(n, lambda i: epoch + datetime.timedelta(days=10957 + i % 5000)), pa.date32()),
        "ts_ms": pa.array(column(n, lambda i: i * 1000003), pa.timestamp("ms")),
        "ts_us": pa.array(column(n, lambda i: i * 1000003, 19, 7), pa.timestamp("us")),
        "ts_ns": pa.array(column(n, lambda i: i * 1000003), pa.timestamp("ns")),
        "dec": pa.array(column(n, lambda i: d(i * 12345 - 5000000).scaleb(-2), 9, 4), pa.decimal128(15, 2)),
        "dec9": pa.array(column(n, lambda i: d(i * 7 - 3000).scaleb(-3)), pa.decimal128(9, 3)),
        "dec38": pa.array(column(n, lambda i: d(i * 10**20 + i).scaleb(-10)), pa.decimal128(38, 10)),
        "fixed": pa.array(column(n, lambda i: b"%04d" % (i % 10000)), pa.binary(4)),
    }
    return pa.table(cols)


def main(out):
    os.makedirs(out, exist_ok=True)
    n = 1029
    t = table(n)
    common = dict(row_group_size=400, data_page_size=1024, write_statistics=True)
    # PLAIN, uncompressed, v1 pages; decimals as integers where they fit.
    pq.write_table(t, f"{out}/plain.parquet", use_dictionary=False, compression="none",
                   store_decimal_as_integer=True, **common)
    # Dictionary pages (pyarrow's default), SNAPPY, v1.
    pq.write_table(t, f"{out}/dict_snappy.parquet", compression="snappy", **common)
    # v2 data pages, ZSTD, decimals as fixed-length byte arrays (pyarrow's default).
    pq.write_table(t, f"{out}/v2_zstd.parquet", compression="zstd", data_page_version="2.0", **common)
    # A dictionary that outgrows its page limit: the chunk falls back to PLAIN part way. GZIP.
    pq.write_table(t, f"{out}/dict_fallback.parquet", compression="gzip", dictionary_pagesize_limit=128, **common)
    # The DELTA encodings and BYTE_STREAM_SPLIT.
    enc = {"i32": "DELTA_BINARY_PACKED", "i64": "DELTA_BINARY_PACKED", "u32": "DELTA_BINARY_PACKED",
           "d": "DELTA_BINARY_PACKED", "ts_ns": "DELTA_BINARY_PACKED",
           "s": "DELTA_BYTE_ARRAY", "u": "DELTA_LENGTH_BYTE_ARRAY", "fixed": "DELTA_BYTE_ARRAY",
           "f32": "BYTE_STREAM_SPLIT", "f64": "BYTE_STREAM_SPLIT", "b": "RLE",
           "dec": "DELTA_BYTE_ARRAY", "dec38": "DELTA_BYTE_ARRAY"}  # decimals sharing leading bytes
    pq.write_table(t, f"{out}/delta.parquet", use_dictionary=False, column_encoding=enc, compression="none",
                   data_page_version="2.0", **common)
    pq.write_table(t, f"{out}/delta_v1.parquet", use_dictionary=False, column_encoding=enc, compression="snappy",
                   **common)
    # Edges: no rows, one row; INT96 timestamps; a nested list and struct beside flat columns.
    pq.write_table(table(0), f"{out}/empty.parquet")
    pq.write_table(table(1), f"{out}/one_row.parquet")
    pq.write_table(pa.table({"ts_ns": t["ts_ns"]}), f"{out}/int96.parquet", use_deprecated_int96_timestamps=True)
    nested = pa.table({"id": pa.array(range(5), pa.int64()),
                       "tags": pa.array([[1, 2], [], None, [3], [4, 5, 6]], pa.list_(pa.int32())),
                       "point": pa.array([{"x": i, "y": -i} for i in range(5)])})
    pq.write_table(nested, f"{out}/nested.parquet")
    try:
        import duckdb
    except ImportError:
        print("duckdb is not installed: duckdb.parquet not written")
    else:
        con = duckdb.connect()
        con.register("t", t.select(["i32", "i64", "f64", "b", "s", "u", "d", "dec", "dec9"]))
        con.execute(f"COPY (SELECT * FROM t) TO '{out}/duckdb.parquet' (FORMAT parquet, ROW_GROUP_SIZE 512)")
    for name in sorted(os.listdir(out)):
        print(f"{name}: {os.path.getsize(os.path.join(out, name))} bytes")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "data"))

#!/usr/bin/env python3
"""Files written by colx read back in pyarrow and DuckDB with the values of the files they came
from. Each input (the test files, less nested.parquet; the 8 TPC-H tables at scale factor 0.1 from
tpchgen-cli) is read and written again by colx (colx_parquet_rewrite) with several settings: codecs,
dictionary or PLAIN, row groups and pages. pyarrow's reading of each written file must equal its
reading of the input, and DuckDB's likewise, column for column, value for value (a fixed-length
byte array, which colx reads as a string, compared as one). Exit 0 when all agree, 1 on a
difference, 77 (skipped) without pyarrow, duckdb or tpchgen-cli, unless COLX_REQUIRE_DUCKDB=1.

    check_written.py --rewrite build/host/tests/colx_parquet_rewrite [--tpch-scale 0.1]
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

from compare_duckdb import duckdb, input_files, skip

try:
    import pyarrow as pa
    import pyarrow.parquet as pq
except ImportError:
    skip("pyarrow is not installed (pip install pyarrow)")

SETTINGS = [
    ["--codec", "snappy"],
    ["--codec", "zstd", "--no-dictionary", "--row-group-rows", "7777"],
    ["--codec", "gzip", "--page-bytes", "3000", "--row-group-rows", "100000"],
    ["--codec", "none", "--no-statistics"],
]


def normalized(table):
    """The table's columns as single arrays, byte arrays of every kind as strings."""
    out = {}
    for name, col in zip(table.column_names, table.columns):
        a = col.combine_chunks()
        if pa.types.is_fixed_size_binary(a.type) or pa.types.is_large_binary(a.type) or pa.types.is_binary(a.type):
            a = a.cast(pa.binary()).cast(pa.string())
        elif pa.types.is_large_string(a.type) or pa.types.is_string_view(a.type):
            a = a.cast(pa.string())
        out[name] = a
    return out


def differences(got, want):
    """What differs between two tables, as text ('' when nothing does)."""
    g, w = normalized(got), normalized(want)
    if list(g) != list(w):
        return f"columns {list(g)} != {list(w)}"
    problems = []
    for name in w:
        a, b = g[name], w[name]
        if a.type != b.type:
            try:
                a = a.cast(b.type)
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as e:
                problems.append(f"{name}: type {g[name].type} vs {b.type} ({e})")
                continue
        if not a.equals(b):
            first = next((i for i in range(len(b)) if i >= len(a) or a[i] != b[i]), None)
            problems.append(f"{name} ({b.type}): row {first}: {a[first] if first is not None and first < len(a) else '-'}"
                            f" vs {b[first] if first is not None else '-'}")
    return "; ".join(problems)


def duckdb_table(con, path):
    r = con.sql(f"SELECT * FROM read_parquet('{path}')").arrow()
    return r.read_all() if hasattr(r, "read_all") else r


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--rewrite", required=True)
    p.add_argument("--tpch-scale", type=float, default=0)
    p.add_argument("files", nargs="*")
    a = p.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    files, tmp = input_files(a.files, a.tpch_scale)
    if not a.files:
        files.append(os.path.join(here, "data", "int96.parquet"))
    out_dir = tempfile.mkdtemp(prefix="colx_written_")
    con = duckdb.connect()
    checked = failed = 0
    for f in files:
        for i, setting in enumerate(SETTINGS):
            out = os.path.join(out_dir, f"{i}_{os.path.basename(f)}")
            r = subprocess.run([a.rewrite, f, out, *setting], capture_output=True, text=True)
            label = f"{os.path.basename(f)} {' '.join(setting)}"
            if r.returncode != 0:
                print(f"FAIL {label}: colx could not write it: {r.stderr.strip()}")
                failed += 1
                continue
            written = pq.read_table(out)
            readings = [("pyarrow", written, pq.read_table(f, columns=written.column_names))]
            if not f.endswith("int96.parquet"):  # (DuckDB reads INT96 to microseconds; colx wrote the nanoseconds)
                readings.append(("DuckDB", duckdb_table(con, out), duckdb_table(con, f).select(written.column_names)))
            for reader, got, want in readings:
                checked += 1
                d = differences(got, want)
                if d:
                    failed += 1
                    print(f"FAIL {label}, read by {reader}: {d}")
            os.remove(out)
    shutil.rmtree(out_dir, ignore_errors=True)
    if tmp:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{checked} readings of the {len(files) * len(SETTINGS)} files colx wrote, by pyarrow and DuckDB: "
          f"{checked - failed} agree with the originals, {failed} differ")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Reads Parquet files with colx (colx_parquet_digest) and with DuckDB and compares every column:
non-null count, sum (strings: total bytes), min and max; exact except for floating-point sums
(relative 1e-9). Files: the given ones, or the test files (tests/io/parquet/data) plus the 8 TPC-H
tables at scale factor 0.1 from tpchgen-cli (pip), written to a temporary folder.
Exit 0 when all agree, 1 on a difference, 77 (skipped) without duckdb (or tpchgen-cli when asked
for TPC-H). COLX_REQUIRE_DUCKDB=1 turns the skip into a failure (CI).

    compare_duckdb.py --digest build/host/tests/colx_parquet_digest [--tpch-scale 0.1] [FILE...]
"""
import argparse
import decimal
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile


def skip(why):
    print(f"skipped: {why}")
    sys.exit(1 if os.environ.get("COLX_REQUIRE_DUCKDB") == "1" else 77)


try:
    import duckdb
except ImportError:
    skip("duckdb is not installed (pip install duckdb)")

TICKS = {"timestamp[days]": "(c - DATE '1970-01-01')", "timestamp[ms]": "epoch_ms(c)",
         "timestamp[us]": "epoch_us(c)", "timestamp[ns]": "epoch_ns(c)"}


def reference(con, path, column, kind, scale):
    """(count, sum, min, max) of one column computed by DuckDB, in the digest's units."""
    c = '"' + column.replace('"', '""') + '"'
    src = f"read_parquet('{path}')"
    if kind == "string":
        row = con.execute(f"SELECT count(c), coalesce(sum(strlen(c)), 0), min(c), max(c) FROM (SELECT {c}::VARCHAR AS c FROM {src})").fetchone()
        return row[0], int(row[1]), row[2], row[3]
    if kind.startswith("decimal") or kind.startswith("float"):
        count, total, lo, hi = con.execute(f"SELECT count(c), sum(c), min(c), max(c) FROM (SELECT {c} AS c FROM {src})").fetchone()
        if kind.startswith("float"):
            return count, float(total or 0), lo, hi
        unscale = lambda v: None if v is None else int(decimal.Decimal(v).scaleb(-scale))
        return count, unscale(total) or 0, unscale(lo), unscale(hi)
    # Integers, booleans, dates (days) and timestamps (ticks): exact, as 128-bit sums.
    expr = TICKS.get(kind, "c::INTEGER" if kind == "bool8" else "c")
    count, total, lo, hi = con.execute(f"SELECT count(v), sum(v::HUGEINT), min(v::HUGEINT), max(v::HUGEINT) "
                                       f"FROM (SELECT {expr} AS v FROM (SELECT {c} AS c FROM {src}))").fetchone()
    return count, int(total or 0), None if lo is None else int(lo), None if hi is None else int(hi)


def same(kind, a, b):
    if kind.startswith("float") and isinstance(a, float) and isinstance(b, float):
        return a == b or abs(a - b) <= 1e-9 * max(abs(a), abs(b))
    return a == b


def input_files(files, tpch_scale):
    """The files given, or the test files; and the TPC-H tables at tpch_scale (if > 0) in a
    temporary folder, returned second (None without), for the caller to remove."""
    files = list(files)
    tmp = None
    if not files:
        here = os.path.dirname(os.path.abspath(__file__))
        # Not nested.parquet (colx refuses its nested columns) nor int96.parquet (DuckDB reads INT96
        # to microseconds; colx keeps the nanoseconds, which parquet_read_test checks).
        files = sorted(f for f in glob.glob(os.path.join(here, "data", "*.parquet"))
                       if os.path.basename(f) not in ("nested.parquet", "int96.parquet"))
    if tpch_scale > 0:
        gen = shutil.which("tpchgen-cli")
        if gen is None:
            skip("tpchgen-cli is not installed (pip install tpchgen-cli)")
        tmp = tempfile.mkdtemp(prefix="colx_tpch_")
        subprocess.run([gen, "parquet", "-s", str(tpch_scale), f"--output-dir={tmp}"], check=True)
        files += sorted(glob.glob(os.path.join(tmp, "*.parquet")))
    return files, tmp


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--digest", required=True)
    p.add_argument("--tpch-scale", type=float, default=0)
    p.add_argument("files", nargs="*")
    a = p.parse_args()
    files, tmp = input_files(a.files, a.tpch_scale)
    con = duckdb.connect()
    compared = failed = 0
    for f in files:
        out = subprocess.run([a.digest, f], capture_output=True, text=True)
        if out.returncode != 0:
            print(f"FAIL {f}: colx could not read it: {out.stderr.strip()}")
            failed += 1
            continue
        for line in out.stdout.splitlines():
            d = json.loads(line)
            got = (d["count"], d["sum"] if d["type"].startswith("float") else int(d["sum"]),
                   d["min"] if d["type"] in ("string",) or d["type"].startswith("float") or d["min"] is None else int(d["min"]),
                   d["max"] if d["type"] in ("string",) or d["type"].startswith("float") or d["max"] is None else int(d["max"]))
            want = reference(con, f, d["column"], d["type"], d["scale"])
            compared += 1
            if not all(same(d["type"], g, w) for g, w in zip(got, want)):
                failed += 1
                print(f"FAIL {os.path.basename(f)} column {d['column']} ({d['type']}): colx {got}, DuckDB {want}")
    if tmp:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{compared} columns of {len(files)} files compared with DuckDB: {compared - failed} agree, {failed} differ")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

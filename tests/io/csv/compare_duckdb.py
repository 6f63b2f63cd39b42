#!/usr/bin/env python3
"""Reads CSV files with colx (colx_parquet_digest, which reads .csv/.tbl/.tsv files as CSV) and with
DuckDB and compares every column: non-null count, sum (strings: total bytes), min and max; exact
except for doubles (relative 1e-9). DuckDB reads each file with its own sniffer's dialect and header
but every value as text, which is then cast to the type colx detected, so that the comparison is
of values, not of the two sniffers' choices of types (and the sniffers must agree on the header
and the field count). Files: the given ones, or texts DuckDB and pyarrow write here across dialects
and types with nulls, plus TPC-H at scale factor 0.1 from tpchgen-cli in its csv and tbl formats.
Exit 0 when all agree, 1 on a difference, 77 (skipped) without duckdb, pyarrow or tpchgen-cli,
unless COLX_REQUIRE_DUCKDB=1.

    compare_duckdb.py --digest build/host/tests/colx_parquet_digest [--tpch-scale 0.1] [FILE...]
"""
import argparse
import decimal
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "parquet"))
from compare_duckdb import TICKS, duckdb, same, skip  # noqa: E402 (the Parquet test's helpers)

try:
    import pyarrow as pa
    import pyarrow.csv as pacsv
except ImportError:
    skip("pyarrow is not installed (pip install pyarrow)")


def write_inputs(out):
    """Texts across dialects and types, with nulls, written by DuckDB and pyarrow."""
    con = duckdb.connect()
    con.execute("""CREATE TABLE t AS SELECT i AS id,
        CASE WHEN i % 7 = 3 THEN NULL ELSE (i * 37) % 20001 - 10000 END AS small,
        (i * 12345 - 5000000)::DECIMAL(15, 2) / 100 AS amount,
        i * 0.25 - 100 AS ratio,
        i % 3 = 0 AS flag,
        DATE '1995-01-01' + (i % 3000)::INTEGER AS day,
        TIMESTAMP '2020-01-01 00:00:00' + to_microseconds(i * 1000003) AS at,
        CASE WHEN i % 5 = 2 THEN NULL WHEN i % 4 = 1 THEN 'with, comma ' || i WHEN i % 4 = 2 THEN 'say "hi" ' || i
             WHEN i % 4 = 3 THEN E'two\\nlines ' || i ELSE 'plain ' || i END AS note
        FROM range(20000) r(i)""")
    files = []
    for name, options in [("duckdb_default.csv", "HEADER"), ("duckdb_pipe.csv", "HEADER, DELIMITER '|'"),
                          ("duckdb_semicolon_noheader.csv", "HEADER false, DELIMITER ';'"),
                          ("duckdb_tab.tsv", "HEADER, DELIMITER '\t'"), ("duckdb_quote_all.csv", "HEADER, FORCE_QUOTE *")]:
        path = os.path.join(out, name)
        con.execute(f"COPY t TO '{path}' ({options})")
        files.append(path)
    table = con.sql("SELECT * FROM t").arrow()
    table = table.read_all() if hasattr(table, "read_all") else table
    path = os.path.join(out, "pyarrow.csv")
    pacsv.write_csv(table, path)
    files.append(path)
    return files


def reference(con, path, index, kind, scale):
    """(count, sum, min, max) of column `index` (from 1) as DuckDB reads it, cast to colx's type."""
    header = con.execute("SELECT HasHeader FROM sniff_csv(?)", [path]).fetchone()[0]
    src = f"read_csv('{path}', all_varchar = true, header = {str(header).lower()})"
    c = f"#{index}"
    if kind == "string":
        row = con.execute(f"SELECT count(c), coalesce(sum(strlen(c)), 0), min(c), max(c) FROM (SELECT {c} AS c FROM {src})").fetchone()
        return row[0], int(row[1]), row[2], row[3]
    if kind.startswith("decimal") or kind.startswith("float"):
        target = "DOUBLE" if kind.startswith("float") else f"DECIMAL(38, {-scale})"
        count, total, lo, hi = con.execute(f"SELECT count(c), sum(c), min(c), max(c) FROM (SELECT {c}::{target} AS c FROM {src})").fetchone()
        if kind.startswith("float"):
            return count, float(total or 0), lo, hi
        unscale = lambda v: None if v is None else int(decimal.Decimal(v).scaleb(-scale))
        return count, unscale(total) or 0, unscale(lo), unscale(hi)
    cast = {"bool8": "BOOLEAN", "timestamp[days]": "DATE"}.get(kind, "TIMESTAMP" if kind.startswith("timestamp") else "HUGEINT")
    expr = TICKS.get(kind, "c::INTEGER" if kind == "bool8" else "c")
    count, total, lo, hi = con.execute(f"SELECT count(v), sum(v::HUGEINT), min(v::HUGEINT), max(v::HUGEINT) "
                                       f"FROM (SELECT {expr} AS v FROM (SELECT {c}::{cast} AS c FROM {src}))").fetchone()
    return count, int(total or 0), None if lo is None else int(lo), None if hi is None else int(hi)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--digest", required=True)
    p.add_argument("--tpch-scale", type=float, default=0)
    p.add_argument("files", nargs="*")
    a = p.parse_args()
    tmp = tempfile.mkdtemp(prefix="colx_csv_")
    files = list(a.files) or write_inputs(tmp)
    if a.tpch_scale > 0:
        gen = shutil.which("tpchgen-cli")
        if gen is None:
            skip("tpchgen-cli is not installed (pip install tpchgen-cli)")
        for fmt in ("csv", "tbl"):
            subprocess.run([gen, fmt, "-s", str(a.tpch_scale), f"--output-dir={tmp}/{fmt}"], check=True)
            files += sorted(os.path.join(tmp, fmt, f) for f in os.listdir(os.path.join(tmp, fmt)))
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
            textual = d["type"] == "string" or d["type"].startswith("float")
            got = (d["count"], d["sum"] if d["type"].startswith("float") else int(d["sum"]),
                   d["min"] if textual or d["min"] is None else int(d["min"]),
                   d["max"] if textual or d["max"] is None else int(d["max"]))
            want = reference(con, f, d["index"], d["type"], d["scale"])
            compared += 1
            if not all(same(d["type"], g, w) for g, w in zip(got, want)):
                failed += 1
                print(f"FAIL {os.path.basename(f)} column {d['column']} ({d['type']}): colx {got}, DuckDB {want}")
    shutil.rmtree(tmp, ignore_errors=True)
    print(f"{compared} columns of {len(files)} CSV files compared with DuckDB: {compared - failed} agree, {failed} differ")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

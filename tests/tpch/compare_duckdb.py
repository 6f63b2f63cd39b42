#!/usr/bin/env python3
"""Runs the TPC-H queries with colx (colx-tpch --out DIR) and with DuckDB on the same Parquet files,
and compares the answers row for row: decimals and integers exactly, doubles (averages) to a
relative 1e-9, strings and dates as text. DuckDB runs each query's SQL text as it stands in the
comment of include/colx/tpch/queries/qNN.hpp, so the two run the same query. Data: --data DIR, or
tpchgen-cli's Parquet tables at --tpch-scale (default 0.1), written to a temporary folder.
Prints a line per query and "N passed, M failed" (queries not built yet are listed, not failed).
Exit 0 when every built query agrees, 1 otherwise, 77 (skipped) without duckdb or tpchgen-cli;
COLX_REQUIRE_DUCKDB=1 turns the skip into a failure (CI).

    compare_duckdb.py --runner build/host/examples/tpch/colx-tpch [--tpch-scale 0.1] [--data DIR]
"""
import argparse
import csv
import datetime
import decimal
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
QUERIES = os.path.join(HERE, "..", "..", "include", "colx", "tpch", "queries")
TABLES = ["nation", "region", "part", "supplier", "partsupp", "customer", "orders", "lineitem"]


def skip(why):
    print(f"skipped: {why}")
    sys.exit(1 if os.environ.get("COLX_REQUIRE_DUCKDB") == "1" else 77)


try:
    import duckdb
except ImportError:
    skip("duckdb is not installed (pip install duckdb)")


def sql_of(number):
    """The SQL text in the comment of qNN.hpp, between '// ---- SQL ----' and '// ---- end ----'."""
    path = os.path.join(QUERIES, f"q{number:02d}.hpp")
    if not os.path.exists(path):
        return None
    text = open(path).read()
    match = re.search(r"// ---- SQL ----\n(.*?)// ---- end ----", text, re.S)
    return "\n".join(line[3:] if line.startswith("// ") else line[2:] for line in match.group(1).splitlines())


def same_cell(expected, text):
    """Whether colx's CSV text `text` is DuckDB's value `expected`."""
    if expected is None:
        return text == ""
    if isinstance(expected, bool):
        return text == ("true" if expected else "false")
    if isinstance(expected, int):
        return text.lstrip("-").isdigit() and int(text) == expected
    if isinstance(expected, decimal.Decimal):
        try:
            return decimal.Decimal(text) == expected
        except decimal.InvalidOperation:
            return False
    if isinstance(expected, float):
        try:
            got = float(text)
        except ValueError:
            return False
        return got == expected or abs(got - expected) <= 1e-9 * max(abs(got), abs(expected))
    if isinstance(expected, (datetime.date, datetime.datetime)):
        return text == str(expected)
    return text == str(expected)


def compare(number, con, answers, scale):
    sql = sql_of(number).replace(":sf", repr(scale))  # (Q11's fraction is 0.0001 / SF)
    path = os.path.join(answers, f"q{number:02d}.csv")
    if not os.path.exists(path):
        return f"no answer from colx ({path})"
    expected = con.execute(sql).fetchall()
    with open(path, newline="") as f:
        rows = list(csv.reader(f))[1:]  # (the header: colx's names)
    if len(rows) != len(expected):
        return f"{len(rows)} rows, DuckDB has {len(expected)}"
    for r, (want, got) in enumerate(zip(expected, rows)):
        if len(got) != len(want):
            return f"row {r}: {len(got)} columns, DuckDB has {len(want)}"
        for c, (w, g) in enumerate(zip(want, got)):
            if not same_cell(w, g):
                return f"row {r}, column {c + 1}: colx {g!r}, DuckDB {w!r}\n    colx:   {got}\n    DuckDB: {list(want)}"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runner", required=True, help="the colx-tpch executable")
    parser.add_argument("--data", help="a folder of the 8 tables as tpchgen-cli parquet writes them")
    parser.add_argument("--tpch-scale", default="0.1", help="the scale factor to generate without --data")
    parser.add_argument("--queries", default="1-22")
    args = parser.parse_args()

    scratch = tempfile.mkdtemp(prefix="colx_tpch_")
    try:
        data = args.data
        if data is None:
            gen = shutil.which("tpchgen-cli")
            if gen is None:
                skip("tpchgen-cli is not installed (pip install tpchgen-cli)")
            data = os.path.join(scratch, "data")
            subprocess.run([gen, "parquet", "-s", args.tpch_scale, "--output-dir", data], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        answers = os.path.join(scratch, "answers")
        os.makedirs(answers)
        run = subprocess.run([args.runner, "--data", data, "--queries", args.queries, "--out", answers, "--rows", "4"],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        log = run.stdout
        con = duckdb.connect()
        for t in TABLES:
            con.execute(f"CREATE VIEW {t} AS SELECT * FROM read_parquet('{os.path.join(data, t + '.parquet')}')")
        scale = con.execute("SELECT count(*) / 10000 FROM supplier").fetchone()[0]
        wanted = []
        for part in args.queries.split(","):
            first, _, last = part.partition("-")
            wanted += range(int(first), int(last or first) + 1)
        passed, failed, missing = [], [], []
        for q in wanted:
            if sql_of(q) is None:
                missing.append(q)
                continue
            why = compare(q, con, answers, scale)
            if why is None:
                passed.append(q)
                print(f"Q{q}: same as DuckDB")
            else:
                failed.append(q)
                print(f"Q{q}: DIFFERENT: {why}")
                for line in log.splitlines():
                    if line.startswith(f"Q{q} failed"):
                        print("    " + line)
        if missing:
            print("not built yet: " + " ".join(f"Q{q}" for q in missing))
        print(f"{len(passed)} passed, {len(failed)} failed")
        if failed or run.returncode not in (0, 1):
            if run.returncode not in (0, 1):
                print(log[-3000:])
            sys.exit(1)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()

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
    compare_duckdb.py --answers DIR --data DIR [--log RUNNER_OUTPUT]   (answers made elsewhere)
    compare_duckdb.py --runner build/host/examples/tpch/colx-tpch-dist --launcher "mpiexec -n 2"   (distributed)
"""
import argparse
import csv
import datetime
import decimal
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

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


def duckdb_answer(number, con, scale, repeat):
    """DuckDB's answer to query `number` and the median of its times in ms (the first of several runs
    is a warm-up, as colx-tpch's)."""
    sql = sql_of(number).replace(":sf", repr(scale))  # (Q11's fraction is 0.0001 / SF)
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        expected = con.execute(sql).fetchall()
        times.append((time.perf_counter() - started) * 1e3)
    times = sorted(times[1:] if len(times) > 1 else times)
    return expected, times[len(times) // 2]


def order_keys(sql):
    """The names in the query's last ORDER BY (without ASC/DESC), as its output columns are named."""
    found = re.findall(r"order by (.*?)(?:\blimit\b|$)", sql, re.S | re.I)
    if not found:
        return []
    return [item.split()[0] for item in found[-1].replace("\n", " ").split(",") if item.strip()]


def same_row(want, got):
    return len(got) == len(want) and all(same_cell(w, g) for w, g in zip(want, got))


def compare(expected, number, answers, keys):
    """None when colx's answer is DuckDB's row for row; rows that tie on every ORDER BY key may come
    in either order (SQL leaves their order open), so a run of such rows is compared as a set."""
    path = os.path.join(answers, f"q{number:02d}.csv")
    if not os.path.exists(path):
        return f"no answer from colx ({path})"
    with open(path, newline="") as f:
        table = list(csv.reader(f))
    header, rows = table[0], table[1:]
    # A one-column table's null is an empty line, which the reader returns as no fields at all.
    rows = [[""] if not row and len(header) == 1 else row for row in rows]
    if len(rows) != len(expected):
        return f"{len(rows)} rows, DuckDB has {len(expected)}"
    at = [header.index(k) for k in keys if k in header] if all(k in header for k in keys) else []
    r = 0
    while r < len(expected):
        end = r + 1
        while at and end < len(expected) and all(expected[end][k] == expected[r][k] for k in at):
            end += 1
        unmatched = list(expected[r:end])
        for c, got in enumerate(rows[r:end]):
            match = next((j for j, want in enumerate(unmatched) if same_row(want, got)), None)
            if match is None:
                want = expected[r + c]
                if len(got) != len(want):
                    return f"row {r + c}: {len(got)} columns, DuckDB has {len(want)}"
                bad = next(k for k, (w, g) in enumerate(zip(want, got)) if not same_cell(w, g))
                return (f"row {r + c}, column {bad + 1}: colx {got[bad]!r}, DuckDB {want[bad]!r}\n"
                        f"    colx:   {got}\n    DuckDB: {list(want)}")
            unmatched.pop(match)
        r = end
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runner", help="the colx-tpch executable (or colx-tpch-dist, with --launcher)")
    parser.add_argument("--launcher", default="", help="what runs the runner, e.g. \"mpiexec -n 2\" for colx-tpch-dist")
    parser.add_argument("--runner-args", default="", help="more options for the runner, e.g. \"--broadcast-rows 1000\"")
    parser.add_argument("--answers", help="a folder of colx-tpch's answers (qNN.csv, from --out) made elsewhere, e.g. on a "
                                          "GPU machine, to compare instead of running --runner; --log then names its output")
    parser.add_argument("--data", help="a folder of the 8 tables as tpchgen-cli parquet writes them")
    parser.add_argument("--tpch-scale", default="0.1", help="the scale factor to generate without --data")
    parser.add_argument("--parts", type=int, default=1,
                        help="generate each table in this many files (tpchgen-cli --parts: DIR/<table>/<table>.<k>.parquet)")
    parser.add_argument("--queries", default="1-22")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs of each query by colx and by DuckDB; with more than one, the times (median after a "
                             "warm-up) are printed side by side")
    parser.add_argument("--load", action="store_true",
                        help="DuckDB reads the tables into memory first (else it queries the Parquet files)")
    parser.add_argument("--log", help="write colx-tpch's output (its answers and times) to this file")
    args = parser.parse_args()
    if (args.runner is None) == (args.answers is None):
        parser.error("give either --runner or --answers")

    scratch = tempfile.mkdtemp(prefix="colx_tpch_")
    try:
        data = args.data
        if data is None:
            gen = shutil.which("tpchgen-cli")
            if gen is None:
                skip("tpchgen-cli is not installed (pip install tpchgen-cli)")
            data = os.path.join(scratch, "data")
            parts = ["--parts", str(args.parts)] if args.parts > 1 else []
            subprocess.run([gen, "parquet", "-s", args.tpch_scale, "--output-dir", data] + parts, check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if args.answers:
            answers = args.answers
            log = open(args.log).read() if args.log else ""
            returncode = 0
        else:
            answers = os.path.join(scratch, "answers")
            os.makedirs(answers)
            run = subprocess.run(shlex.split(args.launcher) + [args.runner, "--data", data, "--queries", args.queries, "--out", answers, "--rows", "4",
                                  "--repeat", str(args.repeat)] + shlex.split(args.runner_args),
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            log, returncode = run.stdout, run.returncode
            if args.log:
                with open(args.log, "w") as f:
                    f.write(log)
        colx_ms = {int(m.group(1)): float(m.group(2)) for m in re.finditer(r"^Q(\d+)\s+([0-9.]+)$", log, re.M)}
        con = duckdb.connect()
        kind = "TABLE" if args.load else "VIEW"
        for t in TABLES:
            files = os.path.join(data, t, "*.parquet") if os.path.isdir(os.path.join(data, t)) else os.path.join(data, t + ".parquet")
            con.execute(f"CREATE {kind} {t} AS SELECT * FROM read_parquet('{files}')")
        scale = con.execute("SELECT count(*) / 10000 FROM supplier").fetchone()[0]
        wanted = []
        for part in args.queries.split(","):
            first, _, last = part.partition("-")
            wanted += range(int(first), int(last or first) + 1)
        passed, failed, missing = [], [], []
        duckdb_times = {}
        for q in wanted:
            if sql_of(q) is None:
                missing.append(q)
                continue
            expected, duckdb_times[q] = duckdb_answer(q, con, scale, args.repeat)
            why = compare(expected, q, answers, order_keys(sql_of(q)))
            times = f" (colx {colx_ms[q]:.3f} ms, DuckDB {duckdb_times[q]:.1f} ms)" if args.repeat > 1 and q in colx_ms else ""
            if why is None:
                passed.append(q)
                print(f"Q{q}: same as DuckDB{times}")
            else:
                failed.append(q)
                print(f"Q{q}: DIFFERENT: {why}")
                for line in log.splitlines():
                    if line.startswith(f"Q{q} failed"):
                        print("    " + line)
        if args.repeat > 1:
            print(f"sum of medians: colx {sum(colx_ms.get(q, 0) for q in passed):.3f} ms, DuckDB "
                  f"{sum(duckdb_times[q] for q in passed):.1f} ms (the queries that agree)")
        if missing:
            print("not built yet: " + " ".join(f"Q{q}" for q in missing))
        print(f"{len(passed)} passed, {len(failed)} failed")
        if failed or returncode not in (0, 1):
            if returncode not in (0, 1):
                print(log[-3000:])
            sys.exit(1)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()

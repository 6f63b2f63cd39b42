#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""colx against DuckDB: run colx_differential for N random cases, run each case's SQL in DuckDB on
the same tables, and compare the rows (as a multiset unless the query orders them; integers,
strings, dates and booleans exactly, floating point to a relative and absolute 1e-9).

    run.py --binary build/host/tests/colx_differential --cases 2000 --seed 1 [--work DIR]

Prints `N passed, M failed` and, for each failure, its seed and shape, the pipeline, the SQL, the
first differing rows and a reproduction shrunk to the fewest rows of each table that still fail.
Exit status 1 when a case fails, 77 (skipped) when duckdb is not importable (1 with
COLX_REQUIRE_DUCKDB=1, as CI sets).

Intended differences, which the SQL of each shape spells out so that DuckDB computes colx's
semantics (README, "Semantics, where languages differ"):
- if_else is null where its condition is null (Arrow); SQL's CASE WHEN takes the else branch.
- any/all of no valid value are false/true (pandas); SQL's bool_or/bool_and are null.
- Running sums leave a null row null (pandas); SQL's window writes the running value there.
- A float cast to an integer truncates and is null out of range; SQL's CAST rounds and raises.
- i16 * i8 computes in int (C++ promotion); DuckDB keeps SMALLINT and raises on overflow.
- NaN compares as IEEE in colx and as the largest value in DuckDB: the tables hold no NaN.
- Integer overflow wraps in colx and raises in DuckDB: the tables' ranges cannot overflow.
"""
import argparse
import datetime
import decimal
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile


def read_text(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def header_columns(path):
    """A case CSV's first line as (name, DuckDB type) pairs; DECIMAL(15,2) holds a comma of its own."""
    line = open(path, encoding="utf-8").readline().rstrip("\n")
    return [h.split(":", 1) for h in re.split(r",(?![^()]*\))", line)]


def load_csv(con, name, path):
    columns = header_columns(path)
    spec = ", ".join(f"'{n}': '{t}'" for n, t in columns)
    con.execute(
        f"CREATE OR REPLACE TABLE {name} AS SELECT * FROM read_csv('{path}', header = true, auto_detect = false, "
        f"delim = ',', quote = '\"', escape = '\"', nullstr = '', allow_quoted_nulls = false, columns = {{{spec}}})")


def normal(v):
    return v  # decimals stay exact; same() compares a decimal with a float as floats


def sort_key(row):
    return tuple((0,) if v is None else (1, str(type(v)), v) for v in row)


def same(a, b):
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, decimal.Decimal) and isinstance(b, decimal.Decimal):
        return a == b  # exact: the scales are compared as the columns' types
    if isinstance(a, float) or isinstance(b, float) or isinstance(a, decimal.Decimal) or isinstance(b, decimal.Decimal):
        if isinstance(a, bool) or isinstance(b, bool):
            return False
        a, b = float(a), float(b)
        if math.isnan(a) or math.isnan(b):  # a var of infinite values: NaN on both sides
            return math.isnan(a) and math.isnan(b)
        if math.isinf(a) or math.isinf(b):
            return a == b
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
    return a == b


def compare(con, case_dir):
    """None when colx and DuckDB agree on the case, else a description of the difference."""
    load_csv(con, "t", os.path.join(case_dir, "t.csv"))
    load_csv(con, "u", os.path.join(case_dir, "u.csv"))
    error = os.path.join(case_dir, "error.txt")
    sql = read_text(os.path.join(case_dir, "query.sql")) if os.path.exists(os.path.join(case_dir, "query.sql")) else None
    want_types = []
    try:
        result = con.execute(sql) if sql else None
        want = [tuple(normal(v) for v in row) for row in result.fetchall()] if sql else None
        want_types = [str(d[1]) for d in result.description] if sql else []
    except Exception as e:  # noqa: BLE001 - DuckDB's refusal is itself a finding
        want_error = str(e).splitlines()[0]
        if os.path.exists(error):
            return None  # both refuse
        return f"DuckDB raised: {want_error}"
    if os.path.exists(error):
        return f"colx raised: {read_text(error).strip()}"
    got_types = [t for _, t in header_columns(os.path.join(case_dir, "colx.csv"))]
    for k, (g, w) in enumerate(zip(got_types, want_types)):
        if w.startswith("DECIMAL") and g != w:  # a decimal result's precision and scale are part of the answer
            return f"column {k}: colx type {g}, DuckDB {w}"
    load_csv(con, "r", os.path.join(case_dir, "colx.csv"))
    got = [tuple(normal(v) for v in row) for row in con.execute("SELECT * FROM r").fetchall()]
    if not os.path.exists(os.path.join(case_dir, "ordered.txt")):
        want.sort(key=sort_key)
        got.sort(key=sort_key)
    if len(want) != len(got):
        return f"{len(got)} rows from colx, {len(want)} from DuckDB; first rows colx {got[:3]} DuckDB {want[:3]}"
    for k, (g, w) in enumerate(zip(got, want)):
        if len(g) != len(w) or not all(same(x, y) for x, y in zip(g, w)):
            return f"row {k}: colx {g}, DuckDB {w}"
    return None


def case_info(case_dir):
    info = {}
    for line in read_text(os.path.join(case_dir, "case.txt")).splitlines():
        k, v = line.split(" ", 1)
        info[k] = v
    return info


def shrink(con, binary, case_dir, work):
    """The case again with each table cut to the fewest rows (a prefix) that still fail."""
    info = case_info(case_dir)
    rows, urows = int(info["rows"]), int(info["urows"])
    replay = os.path.join(work, "shrink")

    def fails(n, m):
        shutil.rmtree(replay, ignore_errors=True)
        subprocess.run([binary, "--out", replay, "--replay", info["seed"], "--rows", str(n), "--urows", str(m),
                        "--shape", info["shape"]], check=True, stdout=subprocess.DEVNULL)
        return compare(con, replay) is not None

    for _ in range(64):
        for n, m in ((rows // 2, urows), (rows - 1, urows), (rows, urows // 2), (rows, urows - 1)):
            if n >= 0 and m >= 0 and (n, m) != (rows, urows) and fails(n, m):
                rows, urows = n, m
                break
        else:
            break
    fails(rows, urows)
    return rows, urows, replay


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--work", default=None)
    parser.add_argument("--show", type=int, default=5, help="failures to describe in full")
    args = parser.parse_args()
    try:
        import duckdb
    except ImportError:
        if os.environ.get("COLX_REQUIRE_DUCKDB") == "1":
            print("duckdb is not importable and COLX_REQUIRE_DUCKDB=1: failed (pip install duckdb)")
            return 1
        print("duckdb is not importable: skipped (pip install duckdb)")
        return 77
    work = args.work or tempfile.mkdtemp(prefix="colx-differential-")
    cases = os.path.join(work, "cases")
    shutil.rmtree(cases, ignore_errors=True)
    run = subprocess.run([args.binary, "--out", cases, "--cases", str(args.cases), "--seed", str(args.seed)],
                         capture_output=True, text=True)
    print(run.stdout.strip())
    if run.returncode != 0:
        print(run.stderr)
        print(f"colx_differential exited with {run.returncode}")
        return 1
    con = duckdb.connect()
    failed = []
    by_shape = {}
    for i in range(args.cases):
        case_dir = os.path.join(cases, str(i))
        shape = case_info(case_dir)["shape"]
        result = compare(con, case_dir)
        by_shape.setdefault(shape, [0, 0])[0 if result is None else 1] += 1
        if result is not None:
            failed.append((i, case_dir, result))
    for i, case_dir, result in failed[: args.show]:
        info = case_info(case_dir)
        print(f"\nFAILED case {i} (--seed {args.seed}): shape {info['shape']}, case seed {info['seed']}, "
              f"{info['rows']} and {info['urows']} rows")
        print("  colx: " + read_text(os.path.join(case_dir, "colx.txt")).strip()
              if os.path.exists(os.path.join(case_dir, "colx.txt")) else "  colx: (raised)")
        print("  SQL:  " + read_text(os.path.join(case_dir, "query.sql")).strip())
        print("  " + result)
        rows, urows, replay = shrink(con, args.binary, case_dir, work)
        print(f"  shrunk to {rows} rows of t and {urows} of u: {compare(con, replay)}")
        print(f"  reproduce: {args.binary} --out DIR --replay {info['seed']} --rows {rows} --urows {urows} "
              f"--shape {info['shape']}")
        for name in ("t.csv", "u.csv"):
            text = read_text(os.path.join(replay, name))
            if text.count("\n") <= 12:
                print(f"  {name}:\n    " + text.strip().replace("\n", "\n    "))
    print("\nper shape (passed, failed): " + ", ".join(f"{k} {v[0]}/{v[1]}" for k, v in sorted(by_shape.items())))
    print(f"{args.cases - len(failed)} passed, {len(failed)} failed (seed {args.seed})")
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

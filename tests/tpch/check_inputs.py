#!/usr/bin/env python3
"""Checks include/colx/tpch/queries/inputs.hpp against the queries' SQL: each query's list of the
columns it reads is the set of TPC-H column names its SQL text (the comment block of qNN.hpp)
names, in the order the schemas in tables.hpp declare them. With --print, prints the lists that
inputs.hpp should hold.

usage: check_inputs.py QUERIES_DIR [--print]"""
import pathlib
import re
import sys


def columns_of_schemas(tables: str) -> list[str]:
    return re.findall(r'field<"([a-z]+_[a-z]+)"', tables)


def sql_of(header: str) -> str:
    block = header.split("// ---- SQL ----", 1)[1].split("// ---- end ----", 1)[0]
    return "\n".join(line[2:].split("--")[0] for line in block.splitlines())  # comment markers and SQL comments off


def wanted_lists(queries: pathlib.Path) -> dict[int, list[str]]:
    order = columns_of_schemas((queries / "tables.hpp").read_text())
    lists = {}
    for n in range(1, 23):
        words = set(re.findall(r"\b[a-z]+_[a-z]+\b", sql_of((queries / f"q{n:02d}.hpp").read_text())))
        lists[n] = [c for c in order if c in words]
    return lists


def listed(queries: pathlib.Path) -> dict[int, list[str]]:
    text = (queries / "inputs.hpp").read_text()
    return {int(n): names.split() for n, names in re.findall(r'\{(\d+), "([a-z_ ]+)"\}', text)}


def main() -> int:
    queries = pathlib.Path(sys.argv[1])
    wanted = wanted_lists(queries)
    if "--print" in sys.argv:
        for n, names in wanted.items():
            print(f'    {{{n}, "{" ".join(names)}"}},')
        return 0
    have = listed(queries)
    problems = 0
    for n, names in wanted.items():
        if have.get(n) != names:
            print(f"Q{n}: inputs.hpp lists {have.get(n)}, its SQL reads {names}")
            problems += 1
    print(f"check_inputs: {problems} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

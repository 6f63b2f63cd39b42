#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The house rules of include/colx, checked on every test run:

- The include graph runs one way, from higher layers to lower ones (the order below): memory
  never includes exec, exec never includes column, expr never includes frame, frame never
  includes io. A file may include files of its own layer and of any layer below it.
- No header is longer than 400 lines: one job a file.

Usage: check_structure.py INCLUDE_DIR. Prints every violation and exits 1 when there is one.
"""
import pathlib
import re
import sys

# Lowest first. host/ and gpu/ are the two backends of exec/; a subfolder (frame/group_by/) is
# part of its parent's layer.
LAYERS = [
    ["core"],
    ["types"],
    ["memory"],
    ["exec", "host", "gpu"],
    ["column"],
    ["expr"],
    ["frame"],
    ["table"],
    ["interop"],
    ["io"],
    ["dist"],
    ["tpch"],
    [""],  # the umbrellas, colx.hpp and cuda.cuh
]
MOST_LINES = 400
INCLUDE = re.compile(r'^\s*#\s*include\s*<colx/([^>]+)>', re.MULTILINE)


def rank_of(relative: str) -> int:
    parts = relative.split("/")
    top = parts[0] if len(parts) > 1 else ""
    for rank, names in enumerate(LAYERS):
        if top in names:
            return rank
    raise SystemExit(f"check_structure: {relative} is in no layer: add its folder to LAYERS")


def main() -> int:
    root = pathlib.Path(sys.argv[1]) / "colx"
    problems = []
    for path in sorted(root.rglob("*")):
        if path.suffix not in (".hpp", ".cuh"):
            continue
        relative = path.relative_to(root).as_posix()
        text = path.read_text()
        lines = text.count("\n")
        if lines > MOST_LINES:
            problems.append(f"{relative}: {lines} lines, more than {MOST_LINES}: split it by job")
        rank = rank_of(relative)
        for target in INCLUDE.findall(text):
            if rank_of(target) > rank:
                problems.append(f"{relative} includes <colx/{target}>, a higher layer: move the shared part down")
    for p in problems:
        print(p)
    print(f"check_structure: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

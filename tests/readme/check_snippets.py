#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every code snippet in the README is compiled by the build: each fenced ```cpp or ```cmake block
follows a line `<!-- snippet: PATH -->` naming a file of the repository that holds the block's
lines, in order (indentation aside), and that the build compiles (an example, a packaging consumer).
A block that drifts from its file, or has no file, fails this test with the first line missing.

usage: check_snippets.py README.md REPOSITORY_ROOT
"""
import pathlib
import re
import sys

MARKER = re.compile(r"^<!--\s*snippet:\s*(\S+)\s*-->\s*$")
FENCE = re.compile(r"^```(\w*)\s*$")
CHECKED = {"cpp", "c++", "cmake", "cu"}


def blocks(lines):
    """(language, marker path or None, first line number, block lines) for each fenced block."""
    i, marker = 0, None
    while i < len(lines):
        m = MARKER.match(lines[i].strip())
        if m:
            marker = m.group(1)
            i += 1
            continue
        f = FENCE.match(lines[i].strip())
        if f:
            start, body = i + 1, []
            i += 1
            while i < len(lines) and not FENCE.match(lines[i].strip()):
                body.append(lines[i])
                i += 1
            yield f.group(1).lower(), marker, start, body
        elif lines[i].strip():
            marker = None  # a marker names the block right below it only
        i += 1


def missing_line(body, target):
    """The first line of body not found (in order) among target's lines, or None."""
    want = [line.strip() for line in body if line.strip()]
    have = [line.strip() for line in target if line.strip()]
    j = 0
    for line in want:
        while j < len(have) and have[j] != line:
            j += 1
        if j == len(have):
            return line
        j += 1
    return None


def main():
    readme, root = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    errors, checked = [], 0
    for lang, path, line, body in blocks(readme.read_text().splitlines()):
        if lang not in CHECKED:
            continue
        checked += 1
        if path is None:
            errors.append(f"{readme}:{line}: a {lang} snippet with no `<!-- snippet: FILE -->` line above it")
            continue
        target = root / path
        if not target.is_file():
            errors.append(f"{readme}:{line}: the snippet's file {path} does not exist")
            continue
        missing = missing_line(body, target.read_text().splitlines())
        if missing is not None:
            errors.append(f"{readme}:{line}: {path} does not have this snippet line (in order): {missing}")
    for e in errors:
        print(e)
    print(f"{checked - len(errors)} passed, {len(errors)} failed")
    return 1 if errors or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())

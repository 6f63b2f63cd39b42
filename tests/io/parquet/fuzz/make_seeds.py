#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the seed corpus of parquet_fuzz.cpp (corpus/*.parquet): small files of 20 rows over
every encoding, both page versions, nulls and no compression or SNAPPY (the codecs the fuzz build
may link), so the fuzzer starts from files that parse and mutates from there.

    python3 tests/io/parquet/fuzz/make_seeds.py
"""
import os
import pathlib
import sys

here = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(here.parent))
import make_files  # noqa: E402  (the test files' table)
import pyarrow.parquet as pq  # noqa: E402

out = here / "corpus"
os.makedirs(out, exist_ok=True)
t = make_files.table(20).select(["i32", "i64", "b", "s", "fixed", "dec", "f64", "d"])
enc = {"i32": "DELTA_BINARY_PACKED", "i64": "DELTA_BINARY_PACKED", "s": "DELTA_BYTE_ARRAY", "fixed": "DELTA_BYTE_ARRAY",
       "f64": "BYTE_STREAM_SPLIT", "b": "RLE", "d": "DELTA_BINARY_PACKED"}
small = dict(row_group_size=8, data_page_size=64)
pq.write_table(t, out / "plain.parquet", use_dictionary=False, compression="none", **small)
pq.write_table(t, out / "dict_v2.parquet", compression="none", data_page_version="2.0", **small)
pq.write_table(t, out / "dict_snappy.parquet", compression="snappy", **small)
pq.write_table(t, out / "delta.parquet", use_dictionary=False, column_encoding=enc, compression="none",
               data_page_version="2.0", **small)
for f in sorted(out.iterdir()):
    print(f.name, f.stat().st_size, "bytes")

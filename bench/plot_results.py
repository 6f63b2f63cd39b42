#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Draws the recorded benchmark figures as a PNG bar chart, with the standard library only.

    python3 bench/plot_results.py [bench/results] [bench/results/roofline.png]

Reads every *.json file in the results folder (as bench/bench_common.cuh writes them:
{"benchmark", "device", "records": [{"name", "ms", "bytes", "GBps", <share>...}]}) and draws one
horizontal bar per record that has a bandwidth ("GBps"): its achieved bandwidth as a share of
the memory roofline, labelled with the record's name, the share and the GB/s. Records without a
bandwidth (memory_bench's allocation timings) are counted in a note under their group.

The share is the benchmark's own, so the chart says what the run said:
- a field named pct_of_<something> (fusion_bench's pct_of_roofline: GB/s over the bandwidth of
  the device-to-device copy measured in the same run, or over CUB's for the reduction;
  memory_bench's pct_of_raw: the raw cudaMemcpyAsync time in the same direction over the time);
- where a record has none, its GB/s over that of the file's reference: the first record whose
  name says "copy" or "raw" and which carries no share of its own, else the fastest record.
A share of exactly 100 marks a reference measurement (the roofline itself); those bars are grey.
The dashed line is 100%; shares above it come from plans that skip bytes the count includes.

The title names the device(s) and the date of the figures: a "date" field in the JSON if a
benchmark writes one, else the date of the file's last git commit, else its modification date.

matplotlib is not needed: the PNG is written with zlib and struct, and text is drawn with the
classic 5x7 LCD font below
(with descenders added for g, j, p, q, y).
"""
import argparse
import datetime
import json
import os
import struct
import subprocess
import sys
import zlib

# ---- 5x7 font: five column bytes per character, bit 0 the top row -------------------------------
FONT_FIRST = 0x20
FONT = bytes.fromhex(
    "0000000000" "00005f0000" "0007000700" "147f147f14" "242a7f2a12" "2313086462" "3649552250" "0005030000"
    "001c224100" "0041221c00" "082a1c2a08" "08083e0808" "0050300000" "0808080808" "0060600000" "2010080402"
    "3e5149453e" "00427f4000" "4261514946" "2141454b31" "1814127f10" "2745454539" "3c4a494930" "0171090503"
    "3649494936" "064949291e" "0036360000" "0056360000" "0008142241" "1414141414" "4122140800" "0201510906"
    "324979413e" "7e1111117e" "7f49494936" "3e41414122" "7f4141221c" "7f49494941" "7f09090101" "3e41415132"
    "7f0808087f" "00417f4100" "2040413f01" "7f08142241" "7f40404040" "7f0204027f" "7f0408107f" "3e4141413e"
    "7f09090906" "3e4151215e" "7f09192946" "4649494931" "01017f0101" "3f4040403f" "1f2040201f" "7f2018207f"
    "6314081463" "0304780403" "6151494543" "00007f4141" "0204081020" "41417f0000" "0402010204" "4040404040"
    "0001020400" "2054545478" "7f48444438" "3844444420" "384444487f" "3854545418" "087e090102" "081454543c"
    "7f08040478" "00447d4000" "2040443d00" "007f102844" "00417f4000" "7c04180478" "7c08040478" "3844444438"
    "7c14141408" "081414187c" "7c08040408" "4854545420" "043f444020" "3c4040207c" "1c2040201c" "3c4030403c"
    "4428102844" "0c5050503c" "4464544c44" "0008364100" "00007f0000" "0041360800" "1008081008"
)
# Descenders for g, j, p, q and y, in an eighth row: the LCD font squeezes them into seven.
DESCENDERS = {"g": "18a4a4a47c", "j": "4080847d00", "p": "fc24242418", "q": "18242418fc", "y": "1ca0a0a07c"}
GLYPH_W, GLYPH_H = 5, 8


def glyph(ch):
    """The five column bytes of ch; '?' stands in outside ASCII."""
    if ch in DESCENDERS:
        return bytes.fromhex(DESCENDERS[ch])
    code = ord(ch) - FONT_FIRST
    if not 0 <= code < len(FONT) // GLYPH_W:
        code = ord("?") - FONT_FIRST
    return FONT[code * GLYPH_W:(code + 1) * GLYPH_W]

WHITE = (255, 255, 255)
BLACK = (20, 20, 20)
GREY = (150, 150, 150)
LIGHT = (228, 228, 228)
ROOFLINE = (200, 40, 40)
GROUP_COLOURS = [(52, 101, 164), (78, 154, 6), (117, 80, 123), (193, 125, 17), (32, 145, 160)]


class canvas:
    """An RGB image in a bytearray, with the few primitives a bar chart needs."""

    def __init__(self, width, height, background=WHITE):
        self.width, self.height = width, height
        self.pixels = bytearray(bytes(background) * (width * height))

    def fill_rect(self, x, y, w, h, colour):
        x0, y0 = max(x, 0), max(y, 0)
        x1, y1 = min(x + w, self.width), min(y + h, self.height)
        if x1 <= x0:
            return
        row = bytes(colour) * (x1 - x0)
        for yy in range(y0, y1):
            start = (yy * self.width + x0) * 3
            self.pixels[start:start + len(row)] = row

    def dashed_vline(self, x, y0, y1, colour, dash=6):
        for y in range(y0, y1, 2 * dash):
            self.fill_rect(x, y, 2, min(dash, y1 - y), colour)

    def text(self, x, y, s, colour=BLACK, scale=2):
        """Draws s with its top-left corner at (x, y); returns the x after it."""
        for ch in s:
            for col, bits in enumerate(glyph(ch)):
                for row in range(GLYPH_H):
                    if bits >> row & 1:
                        self.fill_rect(x + col * scale, y + row * scale, scale, scale, colour)
            x += (GLYPH_W + 1) * scale
        return x

    def png(self):
        # Filter type 0 (none) on every row: the image is flat colour, zlib does the rest.
        raw = b"".join(b"\x00" + bytes(self.pixels[y * self.width * 3:(y + 1) * self.width * 3])
                       for y in range(self.height))

        def chunk(kind, data):
            return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)  # 8-bit RGB
        return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9))
                + chunk(b"IEND", b""))


def text_width(s, scale=2):
    return len(s) * (GLYPH_W + 1) * scale


# ---- reading the results ----------------------------------------------------------------------------

def figures_date(path, document):
    if "date" in document:
        return str(document["date"])
    try:
        out = subprocess.run(["git", "log", "-1", "--format=%cs", "--", os.path.basename(path)],
                             cwd=os.path.dirname(os.path.abspath(path)), capture_output=True, text=True,
                             timeout=10)
        if out.returncode == 0 and out.stdout.strip():
            return out.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    return datetime.date.fromtimestamp(os.path.getmtime(path)).isoformat()


def share_field(record):
    return next((k for k in record if k.startswith("pct_of_")), None)


def reference_gbps(records):
    """The bandwidth that shares are computed against when a record carries none."""
    for r in records:
        name = r["name"].lower()
        if share_field(r) is None and ("copy" in name or "raw" in name):
            return r["GBps"]
    return max(r["GBps"] for r in records)


def load_group(path):
    with open(path) as f:
        document = json.load(f)
    records = document.get("records", [])
    measured = [r for r in records if isinstance(r.get("GBps"), (int, float)) and r["GBps"] > 0]
    bars = []
    for r in measured:
        field = share_field(r)
        pct = float(r[field]) if field else 100.0 * r["GBps"] / reference_gbps(measured)
        bars.append({"name": r["name"], "pct": pct, "gbps": float(r["GBps"]), "field": field or "computed"})
    return {
        "benchmark": document.get("benchmark", os.path.splitext(os.path.basename(path))[0]),
        "device": document.get("device", "unknown device"),
        "date": figures_date(path, document),
        "bars": bars,
        "skipped": len(records) - len(measured),
    }


def load_groups(folder):
    paths = sorted(os.path.join(folder, n) for n in os.listdir(folder) if n.endswith(".json"))
    groups = [load_group(p) for p in paths]
    return [g for g in groups if g["bars"] or g["skipped"]]


# ---- drawing --------------------------------------------------------------------------------------

MARGIN = 24
ROW = 28  # pixels per bar
BAR = 18
HEADING = 40  # pixels above a group's bars
NOTE = 22
AXIS = 30  # tick labels under the bars


def axis_limit(groups):
    top = max([b["pct"] for g in groups for b in g["bars"]] + [100.0])
    return 50 * int(top // 50 + 1) if top % 50 else int(top)


def joined(values):
    unique = list(dict.fromkeys(values))
    return ", ".join(unique)


FOOTNOTES = [
    "Dashed line: the roofline each benchmark measured in the same run (device copy, raw cudaMemcpyAsync or CUB);",
    "grey bars are those reference measurements. Above 100%: the plan skips bytes its byte count includes",
    "(short-circuit filters read some columns only for rows an earlier condition kept).",
]


def title_lines(groups):
    return ["colx benchmarks: achieved bandwidth as % of the memory roofline",
            "%s, %s" % (joined(g["device"] for g in groups), joined(g["date"] for g in groups))]


def heading(group):
    fields = joined(b["field"] for b in group["bars"]) or "no bandwidth records"
    return "%s (share: %s)" % (group["benchmark"], fields)


def value_label(bar):
    gbps = "%.0f" % bar["gbps"] if bar["gbps"] >= 100 else "%.1f" % bar["gbps"]
    return "%.1f%%  %s GB/s" % (bar["pct"], gbps)


def draw_axis(img, x0, width, y_top, y_bottom, limit):
    step = 25 if limit <= 200 else 50
    for pct in range(0, limit + 1, step):
        x = x0 + round(width * pct / limit)
        if pct != 100:
            img.fill_rect(x, y_top, 1, y_bottom - y_top, LIGHT)
        label = "%d%%" % pct
        img.text(x - text_width(label) // 2, y_bottom + 8, label, GREY)
    x100 = x0 + round(width * 100 / limit)
    img.dashed_vline(x100, y_top, y_bottom, ROOFLINE)
    img.text(x100 + 6, y_top + 2, "roofline", ROOFLINE)


def draw_group(img, group, colour, x0, width, y, limit):
    img.text(MARGIN, y + 12, heading(group), BLACK)
    y += HEADING
    for bar in group["bars"]:
        img.text(MARGIN, y + (BAR - 14) // 2, bar["name"], BLACK)
        w = max(1, round(width * bar["pct"] / limit))
        img.fill_rect(x0, y, w, BAR, GREY if abs(bar["pct"] - 100.0) < 1e-9 else colour)
        label = value_label(bar)
        # A white box under the label, so the roofline's dashes do not run through it.
        img.fill_rect(x0 + w + 4, y, text_width(label) + 8, BAR, WHITE)
        img.text(x0 + w + 8, y + (BAR - 14) // 2, label, BLACK)
        y += ROW
    if group["skipped"]:
        img.text(MARGIN, y + 2, "(%d records without a bandwidth not shown)" % group["skipped"], GREY)
        y += NOTE
    return y


def render(groups):
    limit = axis_limit(groups)
    names = [b["name"] for g in groups for b in g["bars"]]
    label_w = max(text_width(n) for n in names) + 16
    bar_w = 720
    value_w = max(text_width(value_label(b)) for g in groups for b in g["bars"]) + 16
    titles = title_lines(groups)
    width = max(MARGIN + label_w + bar_w + value_w + MARGIN, max(text_width(t) for t in titles + FOOTNOTES) + 2 * MARGIN,
                max(text_width(heading(g)) for g in groups) + 2 * MARGIN)
    body = sum(HEADING + ROW * len(g["bars"]) + (NOTE if g["skipped"] else 0) for g in groups)
    y_top = MARGIN + 24 * len(titles) + 8
    height = y_top + body + AXIS + 12 + 22 * len(FOOTNOTES) + MARGIN

    img = canvas(width, height)
    for i, t in enumerate(titles):
        img.text(MARGIN, MARGIN + 24 * i, t, BLACK)
    x0 = MARGIN + label_w
    draw_axis(img, x0, bar_w, y_top, y_top + body, limit)
    y = y_top
    for i, g in enumerate(groups):
        y = draw_group(img, g, GROUP_COLOURS[i % len(GROUP_COLOURS)], x0, bar_w, y, limit)
    for i, note in enumerate(FOOTNOTES):
        img.text(MARGIN, y + AXIS + 12 + 22 * i, note, GREY)
    return img


def main(argv=None):
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", nargs="?", default=os.path.join(here, "results"),
                        help="folder of benchmark JSON files (default: bench/results)")
    parser.add_argument("output", nargs="?", default=os.path.join(here, "results", "roofline.png"),
                        help="PNG to write (default: bench/results/roofline.png)")
    args = parser.parse_args(argv)
    groups = load_groups(args.results)
    if not any(g["bars"] for g in groups):
        sys.exit("no benchmark records with a bandwidth (GBps) in %s" % args.results)
    with open(args.output, "wb") as f:
        f.write(render(groups).png())
    bars = sum(len(g["bars"]) for g in groups)
    print("wrote %s: %d bars from %d files" % (args.output, bars, len(groups)))


if __name__ == "__main__":
    main()

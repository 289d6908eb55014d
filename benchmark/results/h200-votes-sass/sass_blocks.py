#!/usr/bin/env python3
"""The heavy stretches of one kernel's SASS from an ncu source page
(`ncu -i REPORT --page source --csv --print-source sass`): consecutive
instructions executed the same number of times (a basic block, near
enough), each with its share of the kernel's warp instructions and stall
samples and its commonest opcodes; stretches under 0.4 % of both are left
out.

  python3 sass_blocks.py votes-2d-face-d0.5-sass.csv
"""

import collections
import csv
import sys


def main(path):
    rows = list(csv.reader(open(path)))[1:]  # the first line names the kernel
    header = {name: i for i, name in enumerate(rows[0])}
    lines = []
    for row in rows[1:]:
        if len(row) < len(header):
            continue
        source = row[header["Source"]].strip()
        opcode = source.split()[1] if source.startswith("@") else source.split()[0]
        executed = int(row[header["Instructions Executed"]] or 0)
        samples = int(row[header["Warp Stall Sampling (All Samples)"]] or 0)
        lines.append((opcode, executed, samples))
    total = sum(line[1] for line in lines)
    total_samples = sum(line[2] for line in lines)
    print(f"{total} warp instructions, {total_samples} stall samples, {len(lines)} SASS lines")
    stretches = []
    for index, (opcode, executed, samples) in enumerate(lines):
        if stretches and stretches[-1]["executed"] == executed:
            stretch = stretches[-1]
        else:
            stretch = {"start": index, "executed": executed, "samples": 0, "opcodes": []}
            stretches.append(stretch)
        stretch["samples"] += samples
        stretch["opcodes"].append(opcode.split(".")[0])
    for s in stretches:
        share = s["executed"] * len(s["opcodes"]) / total
        sample_share = s["samples"] / total_samples
        if share > 0.004 or sample_share > 0.004:
            common = collections.Counter(s["opcodes"]).most_common(4)
            print(
                f"line {s['start']:5d}: {len(s['opcodes']):4d} instructions x {s['executed']:9d}"
                f"  {share * 100:5.2f} % of instructions  {sample_share * 100:5.2f} % of samples  {common}"
            )


if __name__ == "__main__":
    main(sys.argv[1])

#!/usr/bin/env python3
"""Where one kernel's warps wait, from ncu's SASS source page (call3.sh:
ncu -i REPORT --page source --csv --print-source sass, xz-compressed).

  python3 sass_hot_lines.py call3/slices-face-sass.csv.xz          # the 40 lines with most stall samples
  python3 sass_hot_lines.py call3/slices-face-sass.csv.xz 574 658  # lines [574, 658): each, then their share

Each line: its index, share of the kernel's warp stall samples,
instructions executed (warp level) and threads active on average."""

import csv
import lzma
import sys


def main():
    rows = list(csv.reader(lzma.open(sys.argv[1], "rt")))
    header, data = rows[1], rows[2:]
    source = header.index("Source")
    samples = header.index("Warp Stall Sampling (All Samples)")
    executed = header.index("Instructions Executed")
    threads = header.index("Avg. Threads Executed")
    total_samples = sum(int(r[samples]) for r in data)
    total_executed = sum(int(r[executed]) for r in data)
    print(f"{len(data)} SASS lines, {total_samples} samples, {total_executed / 1e6:.1f} M instructions")

    def show(k):
        r = data[k]
        print(f"{k:5d} {100 * int(r[samples]) / total_samples:5.1f}% {int(r[executed]) / 1e6:7.2f} M "
              f"{r[threads]:>4} threads  {r[source].strip()[:80]}")

    if len(sys.argv) > 3:
        first, end = int(sys.argv[2]), int(sys.argv[3])
        for k in range(first, end):
            show(k)
        part = data[first:end]
        print(f"lines [{first}, {end}): {100 * sum(int(r[samples]) for r in part) / total_samples:.1f} % of the samples, "
              f"{100 * sum(int(r[executed]) for r in part) / total_executed:.1f} % of the instructions")
    else:
        for k in sorted(range(len(data)), key=lambda k: -int(data[k][samples]))[:40]:
            show(k)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The kernels of one ncu CSV (--csv --print-units base), largest time
first: time, DRAM bytes read and written, bandwidth, warps active and
instructions, each kernel's launches summed (occupancy averaged), and how
many launches that is. cca_benchmark runs each image once more than its
--reps, untimed, to measure its device memory: with --warmup 0 --reps 1
every kernel of a run launches twice, and a run's own figures are half
the sums (h200-planar-entries call 6).

  ncu --clock-control none --print-units base --csv --metrics \\
      gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,\\
      sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum \\
      cca_benchmark ... > run.csv
  python3 benchmark/ncu_kernel_table.py run.csv [--top 12]
"""

import argparse
import csv
import re

SCALE = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "nsecond": 1, "usecond": 1e3, "msecond": 1e6}


def kernel_name(raw):
    name = re.sub(r"<.*", "", re.sub(r"\(.*", "", raw)).replace("void ", "")
    for prefix in ("cca::", "cub::", "cuda::"):
        name = name.replace(prefix, "")
    return name


def read_kernels(path):
    """Kernel name -> each metric summed over its launches (time in ns, DRAM
    bytes in bytes), with its launches and occupancy samples counted."""
    kernels = {}
    with open(path) as f:
        for row in csv.reader(f):
            if len(row) <= 10 or not row[-3].startswith(("gpu__", "dram__", "sm__", "smsp__")):
                continue
            metric, unit = row[-3], row[-2]
            try:
                value = float(row[-1].replace(",", ""))
            except ValueError:
                continue
            k = kernels.setdefault(kernel_name(row[4]), {"occupancy_samples": 0})
            if metric.startswith(("dram__bytes", "gpu__time")):
                value *= SCALE.get(unit, 1)
            if metric.startswith("sm__warps"):
                k["occupancy_samples"] += 1
            if metric.startswith("gpu__time"):
                k["launches"] = k.get("launches", 0) + 1
            k[metric] = k.get(metric, 0) + value
    return kernels


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv")
    parser.add_argument("--top", type=int, default=12)
    args = parser.parse_args()
    kernels = read_kernels(args.csv)
    total = sum(k.get("gpu__time_duration.sum", 0) for k in kernels.values())
    print(
        "  total %.0f us (us, DRAM read MB, write MB, GB/s, warps active %%, M instructions, launches; all launches summed)"
        % (total / 1e3)
    )
    ordered = sorted(kernels.items(), key=lambda kv: -kv[1].get("gpu__time_duration.sum", 0))
    for name, k in ordered[: args.top]:
        t = k.get("gpu__time_duration.sum", 0)
        read, written = k.get("dram__bytes_read.sum", 0), k.get("dram__bytes_write.sum", 0)
        occupancy = k.get("sm__warps_active.avg.pct_of_peak_sustained_active", 0) / max(1, k["occupancy_samples"])
        print(
            "  %-40s %7.0f us  R %7.1f  W %7.1f  %6.0f GB/s  occ %4.1f  %7.1f Minst  x%d"
            % (name[:40], t / 1e3, read / 1e6, written / 1e6, (read + written) / t if t else 0, occupancy,
               k.get("smsp__inst_executed.sum", 0) / 1e6, k.get("launches", 0))
        )


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Per-kernel time of one run in timelines of h200-host-waits'
timeline-injection.cpp, one timeline a density: a table of kernels (rows)
by timeline (columns), us summed over the kernel's launches in the run,
and each run's span. cca_benchmark --warmup 1 --reps 1 makes three runs
(warm-up, timed, the untimed one for device memory); RUN 1 is the timed.
Usage: kernel_sums.py RUN LABEL=TIMELINE.tsv ...
"""
import collections
import re
import sys


def short(name):
    if "cub" in name:
        return "cub " + ("radix sort" if "radix" in name else "scan" if "scan" in name else "other")
    match = re.search(r"cuda\d+(\w+?Kernel)", name)
    if match:
        return match.group(1)
    return name[:40]


def one_run(path, run):
    rows = [line.rstrip("\n").split("\t") for line in open(path)]
    rows = [(int(k), int(s), int(e), n) for k, s, e, _st, _c, n in rows]
    gpu = sorted([r for r in rows if r[0] == 0], key=lambda r: r[1])
    starts = [i for i, r in enumerate(gpu) if "CountByteRuns" in r[3] or "CountRunsKernel" in r[3]]
    end = starts[run + 1] if run + 1 < len(starts) else len(gpu)
    sums = collections.Counter()
    for _k, start, stop, name in gpu[starts[run]:end]:
        sums[short(name)] += (stop - start) / 1000
    span = (gpu[end - 1][2] - gpu[starts[run]][1]) / 1000
    return sums, span


run = int(sys.argv[1])
columns = []
for arg in sys.argv[2:]:
    label, path = arg.split("=", 1)
    columns.append((label, *one_run(path, run)))
names = sorted({n for _l, s, _sp in columns for n in s}, key=lambda n: -sum(s[n] for _l, s, _sp in columns))
print(f"{'kernel (us)':32}" + "".join(f"{l:>9}" for l, _s, _sp in columns))
for n in names:
    print(f"{n[:32]:32}" + "".join(f"{s[n]:9.1f}" for _l, s, _sp in columns))
print(f"{'kernels summed':32}" + "".join(f"{sum(s.values()):9.1f}" for _l, s, _sp in columns))
print(f"{'span':32}" + "".join(f"{sp:9.1f}" for _l, _s, sp in columns))

#!/usr/bin/env python3
"""One run's kernels in a timeline of timeline-injection.cpp
(h200-host-waits): for each kernel, the idle time before it (none while
another kernel runs), its duration and its name, in order; then the
run's span and its time without any kernel. A run begins at a run count
kernel.
Usage: timeline_kernels.py TIMELINE.tsv [RUN]   (RUN: which run, from 0;
default the last but one: the last is a fresh engine's, which measures
its device memory)
"""
import sys

rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
rows = [(int(k), int(s), int(e), n) for k, s, e, _, _, n in rows]
kernels = sorted((r for r in rows if r[0] == 0), key=lambda r: r[1])
starts = [i for i, r in enumerate(kernels) if "CountByteRuns" in r[3] or "CountRunsKernel" in r[3]]
k = int(sys.argv[2]) if len(sys.argv) > 2 else len(starts) - 2
run = kernels[starts[k]:starts[k + 1]] if k + 1 < len(starts) else kernels[starts[k]:]
prev = run[0][1]
idle = 0  # time without any kernel (kernels of the side streams overlap)
for _, s, e, n in run:
    n = n.replace("_ZN3cca4cuda", "").replace("_ZN3cub", "cub")
    print(f"{max(0, s - prev) / 1000:7.1f} {(e - s) / 1000:8.1f}  {n[:70]}")
    idle += max(0, s - prev)
    prev = max(prev, e)
span = prev - run[0][1]
print(f"{len(run)} kernels, span {span / 1000:.1f} us, idle {idle / 1000:.1f} us")

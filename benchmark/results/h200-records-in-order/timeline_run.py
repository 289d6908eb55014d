#!/usr/bin/env python3
"""The kernels of one run in a timeline of h200-host-waits'
timeline-injection.cpp, from its run count kernel to the next: start
(us from the run's first kernel), duration (us), stream, name; copies and
memsets over 5 us too. cca_benchmark --warmup 1 --reps 1 makes three runs
(warm-up, timed, the untimed one for device memory); RUN 1 is the timed.
Usage: timeline_run.py TIMELINE.tsv [RUN]
"""
import re
import sys

rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
rows = [(int(k), int(s), int(e), int(st), n) for k, s, e, st, c, n in rows]
gpu = sorted([r for r in rows if r[0] < 3], key=lambda r: r[1])
starts = [i for i, r in enumerate(gpu) if r[0] == 0 and ("CountByteRuns" in r[4] or "CountRuns" in r[4])]
run = int(sys.argv[2]) if len(sys.argv) > 2 else len(starts) - 1
end = starts[run + 1] if run + 1 < len(starts) else len(gpu)
t0 = gpu[starts[run]][1]
for kind, start, stop, stream, name in gpu[starts[run]:end]:
    if kind == 0 or stop - start > 5000:
        match = re.search(r"cuda\d+(\w+?Kernel)|(memcpy.*|memset.*)", name)
        short = (match.group(1) or match.group(2)) if match else name[:40]
        if "cub" in name:
            short = "cub " + ("radix sort" if "radix" in name else "scan")
        print(f"{(start - t0) / 1000:8.1f} {(stop - start) / 1000:7.1f}  stream {stream:<3} {short}")

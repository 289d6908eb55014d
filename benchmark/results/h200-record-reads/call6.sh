#!/usr/bin/env bash
# Call 6 (H200): call 4 at g = 4 (where the full table is 1.16-1.18x BKE in
# 8-connected planes, 1.2x asked): ncu per kernel, one run, no warm-up, at
# 8192^2 8-conn. and 4-conn. d = 0.5 and 512^3 26-conn. d = 0.4. The
# figures add up two runs of the pipeline (the benchmark's untimed run for
# the device memory, then the timed one).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
B=/tmp/b/n/build-gpu/benchmark/cca_benchmark
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
for c in "2 8192 full 0.5" "2 8192 face 0.5" "3 512 full 0.4"; do
  set -- $c
  n=$1d-$3-d$4
  Q="--labels-on-device --no-atomic-counts --outputs all --g 4 --dimension $1 --size $2 --connectivity $3 --density $4 --warmup 0 --reps 1"
  timeout 120 ncu --clock-control none --print-units base --metrics $M --csv $B $Q > $L/ncu-$n.csv 2> $L/ncu-$n.err
  echo "== $n (rc=$?, at $SECONDS s): us, DRAM read MB, write MB, GB/s, occupancy %, M instructions"
  python3 - "$L/ncu-$n.csv" <<'PY'
import csv, sys, re
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10 and r[-3].startswith(("gpu__", "dram__", "sm__", "smsp__"))]
name = lambda r: re.sub(r"<.*", "", re.sub(r"\(.*", "", r[4])).replace("void ", "").replace("cca::", "").replace("cub::", "").replace("cuda::", "")
agg = {}
for r in rows:
    d = agg.setdefault(name(r), {})
    v = float(r[-1].replace(",", ""))
    u = r[-2]
    m = r[-3]
    if m.startswith("dram__bytes"):
        v *= {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9}.get(u, 1)
    if m.startswith("gpu__time"):
        v *= {"nsecond": 1, "usecond": 1e3, "msecond": 1e6}.get(u, 1)
    if m.startswith("sm__warps"):
        d.setdefault("occ_n", 0); d["occ_n"] += 1
    d[m] = d.get(m, 0) + v
tot = sum(d.get("gpu__time_duration.sum", 0) for d in agg.values())
print("  total %.0f us" % (tot / 1e3))
for k, d in sorted(agg.items(), key=lambda kv: -kv[1].get("gpu__time_duration.sum", 0))[:12]:
    t = d.get("gpu__time_duration.sum", 0)
    rd, wr = d.get("dram__bytes_read.sum", 0), d.get("dram__bytes_write.sum", 0)
    print("  %-40s %7.0f us  R %7.1f  W %7.1f  %6.0f GB/s  occ %4.1f  %7.1f Minst" % (k[:40], t / 1e3, rd / 1e6, wr / 1e6, (rd + wr) / t if t else 0,
          d.get("sm__warps_active.avg.pct_of_peak_sustained_active", 0) / max(1, d.get("occ_n", 1)), d.get("smsp__inst_executed.sum", 0) / 1e6))
PY
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L

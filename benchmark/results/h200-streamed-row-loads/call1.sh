#!/usr/bin/env bash
# Call 1 (H200): the union-find over rows' foreground bits
# (LinkByteRowsKernel) writes 0.57-0.60 GB of DRAM an image at 512^3
# 26-conn. g = 1 d = 0.2-0.5, where its parents are 8-33 MB: the rows it
# streams through the L2 (about 0.5 GB an image) push the parents out
# between walks. s = the rows' loads in LoadRowPairLane marked streaming
# (__ldcs, evict first), t = only the mask's rows streamed (the facing rows
# of tubes and strips, the rows themselves in planes without strips; a
# strip image's rows, read by four neighbour pairs, cached as before);
# n = main (b9265ef's kernels, the q binary of h200-sparse-and-all-on).
# ncu of that kernel alone first, then n s t t s n, full table, g = 1.
# Carry: .devcarry/gpu.tar.xz.
set -u
L=$OUT/logs; mkdir -p $L/ncu /tmp/b && xz -dc .devcarry/gpu.tar.xz | tar -C /tmp/b -xf -
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L; nvidia-smi --query-gpu=driver_version,clocks.max.sm --format=csv,noheader
for v in n s t; do
  for d in 0.2 0.5; do
    timeout 60 ncu --clock-control none --print-units base --csv -k regex:LinkByteRows \
      --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum \
      /tmp/b/$v/build-gpu/benchmark/cca_benchmark --labels-on-device --no-atomic-counts --outputs all --warmup 0 --reps 1 \
      --dimension 3 --size 512 --connectivity full --g 1 --density $d > $L/ncu/$v-$d.csv 2> $L/ncu/$v-$d.err
    echo "== ncu $v 26-conn. d = $d rc=$?"
    python3 - $L/ncu/$v-$d.csv <<'PY'
import csv, sys, collections
rows = [r for r in csv.reader(l for l in open(sys.argv[1]) if l.startswith('"'))]
head = rows[0]; i = {k: head.index(k) for k in ("Kernel Name", "Metric Name", "Metric Value", "ID")}
per = collections.defaultdict(dict)
for r in rows[1:]:
    per[r[i["ID"]]][r[i["Metric Name"]]] = float(r[i["Metric Value"]].replace(",", ""))
tot = collections.Counter(); hit = []
for m in per.values():
    for k in ("gpu__time_duration.sum", "dram__bytes_read.sum", "dram__bytes_write.sum", "smsp__inst_executed.sum"):
        tot[k] += m.get(k, 0)
    hit.append(m.get("lts__t_sector_hit_rate.pct", 0))
print(f"  launches {len(per)}: {tot['gpu__time_duration.sum']/1e3:.0f} us, DRAM read {tot['dram__bytes_read.sum']/1e6:.0f} MB, write {tot['dram__bytes_write.sum']/1e6:.0f} MB, "
      f"{tot['smsp__inst_executed.sum']/1e6:.0f} M instructions, L2 hit % by launch {' '.join(f'{h:.0f}' for h in hit)}")
PY
  done
done
ab() { # logs, common arguments, then the sets
  local logs=$1 common=$2; shift 2
  python3 benchmark/ab_compare.py --logs $L/$logs --variant n="/tmp/b/n/build-gpu/benchmark/cca_benchmark" \
    --variant s="/tmp/b/s/build-gpu/benchmark/cca_benchmark" --variant t="/tmp/b/t/build-gpu/benchmark/cca_benchmark" \
    --common "$common" "$@" --order "n s t t s n" --per-image
  echo "$logs done at $SECONDS s"
}
ab g1 "--labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all --g 1" \
  --set 3d-full="--dimension 3 --size 512 --connectivity full" \
  --set 2d-full="--dimension 2 --size 8192 --connectivity full" \
  --set 2d-face="--dimension 2 --size 8192 --connectivity face" \
  --set 3d-face="--dimension 3 --size 512 --connectivity face"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
echo "done at $SECONDS s"

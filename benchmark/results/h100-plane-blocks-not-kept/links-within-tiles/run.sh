#!/usr/bin/env bash
# Session 22, call 2: plane blocks v2 (stretch heads, plain up-links within tiles of rows) against the runs; tile rows by CCA_PLANE_TILE_ROWS
set -u
L=$OUT/logs; mkdir -p $L
mkdir -p /tmp/b && tar -C /tmp/b -xJf .devcarry/b22b.tar.xz
N=/tmp/b/new/cca_benchmark
nvidia-smi -L > $L/device.txt; nvidia-smi --query-gpu=driver_version --format=csv,noheader >> $L/device.txt
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
sumline() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[a-z/]* (pixels\/summed time; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
timeout 60 $N --dimension 2 --size 8192 --g 4 --connectivity full --reps 3 --warmup 1 --outputs labels --labels-on-device --no-atomic-counts > $L/warmup.log 2>&1
b() { local tag=$1 mode=$2 tile=$3 extra=$4; local f=$L/k2-$tag
  [ $SECONDS -gt 400 ] && { echo "skip $f" >> $L/summary.txt; return; }
  CCA_PLANE_TILE_ROWS=$tile timeout 100 $N --dimension 2 --size 8192 --connectivity full --reps 5 --warmup 1 --outputs labels --labels-on-device --no-atomic-counts --block-labeling $mode $extra --json $f.json > $f.log 2>&1
  echo "$tag rc=$? at $SECONDS s: $(sumline $f.log)" >> $L/summary.txt; }
b always-t16 always 16 ""; b never never 16 ""; b always-t8 always 8 "--g 1"; b always-t32 always 32 "--g 1"; b always-t4 always 4 "--g 1"; b always-tinf always 100000 "--g 1"; b always-t16b always 16 "--g 1"; b never-b never 16 "--g 1"
for d in 0.5; do
  CCA_PLANE_TILE_ROWS=16 timeout 60 $NCU --metrics gpu__time_duration.sum --csv $N --dimension 2 --size 8192 --g 1 --density $d --connectivity full --reps 1 --warmup 0 --outputs labels --labels-on-device --no-atomic-counts --block-labeling always > $L/ncu-$d.csv 2> $L/ncu-$d.err
  echo "=== blocks t16 d=$d" >> $L/prof.txt; python3 /tmp/b/ncusum.py $L/ncu-$d.csv >> $L/prof.txt 2>&1
done
left=$((560 - SECONDS)); [ $left -gt 120 ] && left=120
( CCA_PLANE_TILE_ROWS=3 timeout $left /tmp/b/new/ccaCudaBackendTest > $L/backend.log 2>&1; echo "backend (tile rows 3) rc=$? at $SECONDS s" ) >> $L/summary.txt
tail -2 $L/backend.log >> $L/summary.txt
python3 - $L > $L/perdensity.txt <<'PY'
import json,sys,glob,os
L=sys.argv[1]
rows={}
for f in sorted(glob.glob(L+'/k2-*.json')):
    tag=os.path.basename(f)[3:-5]
    for m in json.load(open(f))['measurements']:
        if m['g']!=1 or m['allForeground']: continue
        rows.setdefault(round(m['density'],1),{})[tag]=m['kernelMs']
tags=sorted({t for r in rows.values() for t in r})
print('d    '+' '.join('%12s'%t for t in tags))
for d in sorted(rows):
    print('%.1f  '%d+' '.join('%12.3f'%rows[d].get(t,float('nan')) for t in tags))
PY
cd $OUT && tar czf logs.tgz logs && cp logs/summary.txt logs/prof.txt logs/perdensity.txt . 2>/dev/null; true

#!/usr/bin/env bash
# Call 4 (H200): what g = 1 can reach with the full table, on this code
# (7e87f9d): labels only, then the full table, on the same images in one
# call (8192^2 4- and 8-conn., 512^3 6- and 26-conn., g = 1), and
# benchmark/output_floor.py: labels-only time plus the outputs' bytes
# (160-byte entries, 16-byte runs) at the H200's 4.8 TB/s, against issue
# 13's targets.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
B=/tmp/b/x/build-gpu/benchmark/cca_benchmark
for d in 2 3; do
  s=$([[ $d == 2 ]] && echo 8192 || echo 512)
  for o in labels all; do
    r=$([[ $o == labels ]] && echo 5 || echo 3)
    timeout 150 $B --labels-on-device --no-atomic-counts --warmup 1 --reps $r --outputs $o --g 1 --dimension $d \
      --size $s --connectivity both --json $OUT/k$d-$o.json > $L/k$d-$o.log 2>&1
    echo "k$d-$o rc=$? at $SECONDS s"; grep '^==' $L/k$d-$o.log
  done
done
python3 benchmark/output_floor.py --labels $OUT/k2-labels.json $OUT/k3-labels.json --all $OUT/k2-all.json $OUT/k3-all.json
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L

#!/usr/bin/env bash
# Call 6 (H200): the review's change (dependent launches only where the
# kernels were compiled for sm_90: their PTX version) still launches them so
# on the H200: the quick GPU test, then the all-foreground plane and the
# 2D 4-conn. g = 16 images with and without --no-dependent-launches.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu; N=$B/benchmark/cca_benchmark
nvidia-smi -L > $L/device.txt
timeout 40 $B/test/gpu/ccaCudaBackendTest --quick > $L/quick.log 2>&1; echo "quick rc=$? at $SECONDS s"; grep -E "^total|FAIL" $L/quick.log | head -5
P="--reps 20 --warmup 2 --labels-on-device --no-atomic-counts --dimension 2 --size 8192 --connectivity face"
for v in N O N O; do
  case $v in N) run="$N";; O) run="$N --no-dependent-launches";; esac
  for c in "1 1" "16 0.5"; do
    set -- $c
    r=$(timeout 20 $run $P --outputs all --g $1 --density $2 | grep '^Default' | awk '{print $5, $6, $7, $8}')
    echo "$v g=$1 d=$2 components, upload, label, features ms: $r"
  done
done | tee $L/ab.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L

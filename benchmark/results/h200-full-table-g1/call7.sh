#!/usr/bin/env bash
# Call 7 (H200): the feature votes in component order where the runs'
# grouping sorts the runs anyway (--vote-order auto, the new default, A)
# against raster order (never, R), one binary, full table, A R A R, 2D and
# 3D, every granularity; features only (no runs: no shared sort) always
# against never in volumes; then the GPU tests. Logs in logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu
nvidia-smi -L > $L/device.txt
P="--reps 5 --warmup 1 --labels-on-device --no-atomic-counts"
X=$B/benchmark/cca_benchmark
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
$X $P --outputs all --dimension 2 --size 8192 --g 4 > /dev/null 2>&1 # warm-up
for v in A1 R1 A2 R2; do
  o=auto; [[ $v == R* ]] && o=never
  timeout 60 $X $P --vote-order $o --outputs all --dimension 2 --size 8192 --connectivity both --json $L/k2-$v.json > $L/k2-$v.log 2>&1
  echo "2D all $v rc=$? at $SECONDS s: $(s $L/k2-$v.log)"
  timeout 90 $X $P --vote-order $o --outputs all --dimension 3 --size 512 --connectivity both --json $L/k3-$v.json > $L/k3-$v.log 2>&1
  echo "3D all $v rc=$? at $SECONDS s: $(s $L/k3-$v.log)"
done
for o in always never; do
  timeout 90 $X $P --vote-order $o --outputs features --dimension 3 --size 512 --connectivity both --json $L/k3-features-$o.json > $L/k3-features-$o.log 2>&1
  echo "3D features $o rc=$? at $SECONDS s: $(s $L/k3-features-$o.log)"
done
timeout 150 $B/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1; echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL|vote orders" $L/backend.log | head -10
timeout 30 $B/test/gpu/ccaDeviceMemoryTest > $L/devmem.log 2>&1; echo "devmem rc=$? at $SECONDS s"; tail -1 $L/devmem.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L

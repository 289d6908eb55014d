#!/usr/bin/env bash
# Call 8 (H200), call 7's binary: compute-sanitizer memcheck and racecheck
# on the representative subsets of earlier sessions; then features only
# (no runs, so no sort to share) in volumes with the votes in component
# order always against never. Logs in logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu
nvidia-smi -L > $L/device.txt
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 3 $B/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY|vote orders" $L/memcheck.log
timeout 240 compute-sanitizer --tool racecheck --error-exitcode 3 $B/test/gpu/ccaCudaBackendTest --quick --cases 15 --algorithm Default > $L/racecheck.log 2>&1; echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $L/racecheck.log
P="--reps 5 --warmup 1 --no-atomic-counts --outputs features --dimension 3 --size 512 --connectivity both"
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
for o in always never; do
  timeout 60 $B/benchmark/cca_benchmark $P --vote-order $o --json $L/k3-features-$o.json > $L/k3-features-$o.log 2>&1
  echo "3D features $o rc=$? at $SECONDS s: $(s $L/k3-features-$o.log)"
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L

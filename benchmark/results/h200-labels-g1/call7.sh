#!/usr/bin/env bash
# Call 7 (H200): the union-find's pass over all runs (LinkRunsKernel) on a
# grid of 4 waves of resident blocks, each thread many runs (N), against
# one run a thread (B, call 4's binary): labels only 3D 6-conn. g = 1,
# N B N B; 3D labels only every granularity and the 2D full table at g = 1
# and 4, N B. Then the GPU test, memcheck and racecheck on N. Logs in logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu; xz -dc .devcarry/before/cca_benchmark.xz > /tmp/b/before && chmod +x /tmp/b/before
nvidia-smi -L > $L/device.txt
P="--reps 5 --warmup 1 --labels-on-device --no-atomic-counts"
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
$B/benchmark/cca_benchmark $P --outputs labels --dimension 3 --size 512 --g 4 > /dev/null 2>&1 # warm-up
for v in N1 B1 N2 B2; do
  X=$B/benchmark/cca_benchmark; [[ $v == B* ]] && X=/tmp/b/before
  timeout 40 $X $P --outputs labels --dimension 3 --size 512 --g 1 --connectivity face --json $L/k3-g1-$v.json > $L/k3-g1-$v.log 2>&1
  echo "3D6 g1 labels $v rc=$? at $SECONDS s: $(s $L/k3-g1-$v.log)"
done
for v in N B; do
  X=$B/benchmark/cca_benchmark; [[ $v == B* ]] && X=/tmp/b/before
  timeout 60 $X $P --outputs labels --dimension 3 --size 512 --connectivity both --json $L/k3-labels-$v.json > $L/k3-labels-$v.log 2>&1
  echo "3D labels $v rc=$? at $SECONDS s: $(s $L/k3-labels-$v.log)"
  for g in 1 4; do
    timeout 40 $X $P --outputs all --dimension 2 --size 8192 --g $g --connectivity both --json $L/k2-all-g$g-$v.json > $L/k2-all-g$g-$v.log 2>&1
    echo "2D all g$g $v rc=$? at $SECONDS s: $(s $L/k2-all-g$g-$v.log)"
  done
done
timeout 100 $B/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1; echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL" $L/backend.log | head -10
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 $B/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
timeout $((440 - SECONDS)) compute-sanitizer --tool racecheck --error-exitcode 3 $B/test/gpu/ccaCudaBackendTest --quick --cases 15 --algorithm Default > $L/racecheck.log 2>&1; echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $L/racecheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L

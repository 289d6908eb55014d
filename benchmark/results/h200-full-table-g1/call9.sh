#!/usr/bin/env bash
# Call 9 (H200): the final code (B: the review's one sort stage) through
# the quick GPU test and memcheck; then two experiments in binary N: the
# votes' kernel with 3 blocks an SM (__launch_bounds__(256, 3): 80
# registers, against 126 and 2 blocks) against B, full table at g = 4,
# B N B N; and in N, the votes' pair counts from the mask's pixels for
# images of up to 14 (the default), 20 or 26 pixels a run
# (CCA_PAIRS_PER_RUN, full connectivity), T14 T20 T26 twice. Logs in logs.tgz.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
B=/tmp/b/build-gpu; xz -dc .devcarry/n/cca_benchmark.xz > /tmp/b/n && chmod +x /tmp/b/n
nvidia-smi -L > $L/device.txt
timeout 60 $B/test/gpu/ccaCudaBackendTest --quick > $L/backend-quick.log 2>&1; echo "backend quick rc=$? at $SECONDS s"; grep -E "^total|FAIL|vote orders" $L/backend-quick.log | head -5
timeout 100 compute-sanitizer --tool memcheck --error-exitcode 3 $B/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
P="--reps 5 --warmup 1 --labels-on-device --no-atomic-counts --outputs all --g 4"
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
$B/benchmark/cca_benchmark $P --dimension 2 --size 8192 > /dev/null 2>&1 # warm-up
for v in B1 N1 B2 N2; do
  X=$B/benchmark/cca_benchmark; [[ $v == N* ]] && X=/tmp/b/n
  timeout 30 $X $P --dimension 2 --size 8192 --connectivity both --json $L/k2-$v.json > $L/k2-$v.log 2>&1
  echo "2D g4 all $v rc=$? at $SECONDS s: $(s $L/k2-$v.log)"
  timeout 30 $X $P --dimension 3 --size 512 --connectivity both --json $L/k3-$v.json > $L/k3-$v.log 2>&1
  echo "3D g4 all $v rc=$? at $SECONDS s: $(s $L/k3-$v.log)"
done
for v in T14a T20a T26a T14b T20b T26b; do
  t=${v:1:2}
  CCA_PAIRS_PER_RUN=$t timeout 30 /tmp/b/n $P --dimension 2 --size 8192 --connectivity full --json $L/p2-$v.json > $L/p2-$v.log 2>&1
  echo "2D8 g4 pairs<=$t $v rc=$? at $SECONDS s: $(s $L/p2-$v.log)"
  CCA_PAIRS_PER_RUN=$t timeout 30 /tmp/b/n $P --dimension 3 --size 512 --connectivity full --json $L/p3-$v.json > $L/p3-$v.log 2>&1
  echo "3D26 g4 pairs<=$t $v rc=$? at $SECONDS s: $(s $L/p3-$v.log)"
done
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L

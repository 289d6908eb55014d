#!/usr/bin/env bash
# Call 6 (H200): N, the label image written right after the numbering
# (before the sort and the table) where no selection follows, against B,
# main with calls 2-5's code (2d3c304). Full table, 8192^2 and 512^3,
# g = 0, 16, 4, both connectivities, B N B N. Then the GPU tests and
# memcheck on N (its kernels are B's; the order changed). A first attempt
# ran before its binaries were packed (call6/first-attempt.txt: B only).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
N=/tmp/b/build-gpu; xz -dc .devcarry/before-main/cca_benchmark.xz > /tmp/b/before && chmod +x /tmp/b/before
exec > >(tee $OUT/summary.txt) 2>&1
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
$N/benchmark/cca_benchmark --reps 3 --warmup 1 --labels-on-device --outputs all --dimension 2 --size 8192 --g 4 > /dev/null 2>&1 # warm-up
P="--reps 11 --warmup 1 --labels-on-device --no-atomic-counts --outputs all --connectivity both"
for v in B1 N1 B2 N2; do
  X=$N/benchmark/cca_benchmark; [[ $v == B* ]] && X=/tmp/b/before
  for c in "2 8192 0" "3 512 0" "2 8192 16" "3 512 16" "2 8192 4" "3 512 4"; do
    set -- $c
    n=all-$1d-g$3-$v
    timeout 60 $X $P --g $3 --dimension $1 --size $2 > $L/$n.log 2>&1; echo "${1}D g$3 $v rc=$? at $SECONDS s: $(s $L/$n.log)"
  done
done
timeout 150 $N/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1; echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL" $L/backend.log | head -10
for suite in labels intensity selection; do
  timeout 60 $N/test/engine/ccaFeatureGroupsTest $suite cuda > $L/groups-$suite.log 2>&1; echo "groups $suite cuda rc=$? at $SECONDS s"; tail -n 1 $L/groups-$suite.log
done
timeout 30 $N/test/gpu/ccaDeviceMemoryTest > $L/devmem.log 2>&1; echo "devmem rc=$? at $SECONDS s"; tail -n 1 $L/devmem.log
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 $N/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L

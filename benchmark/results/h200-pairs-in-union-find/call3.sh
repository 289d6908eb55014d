#!/usr/bin/env bash
# Call 3 (H200): N = the perimeter pairs counted by the union-find
# (cuda/PrecedingPairs.cuh) against B = call 1's binary (main 0dbbc4c's
# defaults). Full table, summed, full connectivity at every granularity,
# face at g = 4 (unchanged code path), B N B N; then the GPU tests,
# memcheck and racecheck on N.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
G=/tmp/b/build-gpu
xz -dc .devcarry/bench-n.xz > /tmp/b/B && chmod +x /tmp/b/B && cp $G/benchmark/cca_benchmark /tmp/b/N
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
/tmp/b/N --labels-on-device --outputs all --reps 3 --warmup 1 --dimension 2 --size 8192 --g 4 > /dev/null 2>&1
P="--labels-on-device --no-atomic-counts --outputs all --warmup 1"
for v in B1 N1 B2 N2; do
  for c in "2 8192 4 11 full" "2 8192 1 5 full" "2 8192 16 11 full" "2 8192 0 11 full" "3 512 4 11 full" "3 512 1 5 full" "3 512 16 11 full" "3 512 0 11 full" "2 8192 4 11 face" "3 512 4 11 face"; do
    set -- $c; n=$1d-g$3-$5-$v
    timeout 60 /tmp/b/${v:0:1} $P --reps $4 --connectivity $5 --dimension $1 --size $2 --g $3 > $L/$n.log 2>&1
    echo "$n rc=$? at $SECONDS s: $(s $L/$n.log)"
  done
done
for s in oracle large exactness; do
  timeout 120 $G/test/engine/ccaEngineOracleTest $s cuda > $L/oracle-$s.log 2>&1; echo "engine $s cuda rc=$? at $SECONDS s: $(tail -n 1 $L/oracle-$s.log)"
done
timeout 180 $G/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1; echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL|long-run" $L/backend.log | head -10
for suite in labels intensity selection large; do
  timeout 60 $G/test/engine/ccaFeatureGroupsTest $suite cuda > $L/groups-$suite.log 2>&1; echo "groups $suite cuda rc=$? at $SECONDS s"; tail -n 1 $L/groups-$suite.log
done
timeout 30 $G/test/gpu/ccaDeviceMemoryTest > $L/devmem.log 2>&1; echo "devmem rc=$? at $SECONDS s"; tail -n 1 $L/devmem.log
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 3 $G/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
timeout 120 compute-sanitizer --tool racecheck --error-exitcode 3 $G/test/gpu/ccaCudaBackendTest --quick --cases 15 --algorithm Default > $L/racecheck.log 2>&1; echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $L/racecheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L

#!/usr/bin/env bash
# Call 5 (H200): N = call 3's change made cheaper for the union-find: four
# counters in 32-bit arithmetic, and the counting kernel held to 8 blocks
# a multiprocessor (32 registers); B = call 1's binary. Registers of every
# LinkRunsKernel by cuobjdump; full table under full connectivity and
# labels only (the kernel without the tally, now under launch bounds),
# summed, B N B N; then the GPU tests, memcheck and racecheck on N.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
G=/tmp/b/build-gpu
xz -dc .devcarry/bench-n.xz > /tmp/b/B && chmod +x /tmp/b/B && cp $G/benchmark/cca_benchmark /tmp/b/N
exec > >(tee $OUT/summary.txt) 2>&1
for v in B N; do
  cuobjdump --dump-resource-usage /tmp/b/$v 2>/dev/null | grep -A1 "LinkRunsKernel" | grep -oE "REG:[0-9]+ STACK:[0-9]+" | sort | uniq -c | sed "s/^/$v /"
done
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
/tmp/b/N --labels-on-device --outputs all --reps 3 --warmup 1 --dimension 2 --size 8192 --g 4 > /dev/null 2>&1
P="--labels-on-device --no-atomic-counts --warmup 1"
for v in B1 N1 B2 N2; do
  for c in "2 8192 4 11 full all" "2 8192 1 3 full all" "2 8192 16 11 full all" "3 512 4 11 full all" "3 512 1 3 full all" "2 8192 1 5 face labels" "3 512 4 11 full labels"; do
    set -- $c; n=$1d-g$3-$5-$6-$v
    timeout 60 /tmp/b/${v:0:1} $P --reps $4 --connectivity $5 --outputs $6 --dimension $1 --size $2 --g $3 > $L/$n.log 2>&1
    echo "$n rc=$? at $SECONDS s: $(s $L/$n.log)"
  done
done
for s in oracle large exactness; do
  timeout 60 $G/test/engine/ccaEngineOracleTest $s cuda > $L/oracle-$s.log 2>&1; echo "engine $s cuda rc=$? at $SECONDS s: $(tail -n 1 $L/oracle-$s.log)"
done
timeout 100 $G/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1; echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL|long-run" $L/backend.log | head -10
for suite in labels intensity selection; do
  timeout 30 $G/test/engine/ccaFeatureGroupsTest $suite cuda > $L/groups-$suite.log 2>&1; echo "groups $suite cuda rc=$? at $SECONDS s"; tail -n 1 $L/groups-$suite.log
done
timeout 30 $G/test/gpu/ccaDeviceMemoryTest > $L/devmem.log 2>&1; echo "devmem rc=$? at $SECONDS s"; tail -n 1 $L/devmem.log
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 $G/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
timeout 110 compute-sanitizer --tool racecheck --error-exitcode 3 $G/test/gpu/ccaCudaBackendTest --quick --cases 15 --algorithm Default > $L/racecheck.log 2>&1; echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $L/racecheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L

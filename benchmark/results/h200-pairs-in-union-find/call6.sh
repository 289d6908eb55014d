#!/usr/bin/env bash
# Call 6 (H200): the final form (the counting union-find a kernel of its
# own, LinkRunsCountingPairsKernel; LinkRunsKernel as in B, without launch
# bounds): registers by cuobjdump, the full table under full connectivity
# at g = 4, 16 and all foreground and labels only, B N B N; then the GPU
# tests, memcheck and a shorter racecheck (device time ran short).
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
G=/tmp/b/build-gpu
xz -dc .devcarry/bench-n.xz > /tmp/b/B && chmod +x /tmp/b/B && cp $G/benchmark/cca_benchmark /tmp/b/N
exec > >(tee $OUT/summary.txt) 2>&1
for v in B N; do
  cuobjdump --dump-resource-usage /tmp/b/$v 2>/dev/null | grep -A1 "LinkRuns" | grep -oE "Function [A-Za-z_0-9]*LinkRuns[A-Za-z]*Kernel|REG:[0-9]+ STACK:[0-9]+" | paste - - | sort | uniq -c | sed "s/^/$v /"
done
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*device memory <= \([0-9.]*\).*/\1 (\2) \3 B\/px/' | tr '\n' ' '; }
/tmp/b/N --labels-on-device --outputs all --reps 3 --warmup 1 --dimension 2 --size 8192 --g 4 > /dev/null 2>&1
P="--labels-on-device --no-atomic-counts --warmup 1 --reps 7"
for v in B1 N1 B2 N2; do
  for c in "2 8192 4 full all" "3 512 16 full all" "2 8192 0 full all" "3 512 0 full all" "3 512 4 full labels" "2 8192 4 full labels"; do
    set -- $c; n=$1d-g$3-$4-$5-$v
    timeout 30 /tmp/b/${v:0:1} $P --connectivity $4 --outputs $5 --dimension $1 --size $2 --g $3 > $L/$n.log 2>&1
    echo "$n rc=$? at $SECONDS s: $(s $L/$n.log)"
  done
done
timeout 30 $G/test/engine/ccaEngineOracleTest oracle cuda > $L/oracle.log 2>&1; echo "engine oracle cuda rc=$? at $SECONDS s: $(tail -n 1 $L/oracle.log)"
timeout 80 $G/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1; echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL|long-run" $L/backend.log | head -10
for suite in labels intensity selection; do
  timeout 20 $G/test/engine/ccaFeatureGroupsTest $suite cuda > $L/groups-$suite.log 2>&1; echo "groups $suite cuda rc=$? at $SECONDS s"; tail -n 1 $L/groups-$suite.log
done
timeout 40 compute-sanitizer --tool memcheck --error-exitcode 3 $G/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
timeout 45 compute-sanitizer --tool racecheck --error-exitcode 3 $G/test/gpu/ccaCudaBackendTest --quick --cases 4 --algorithm Default > $L/racecheck.log 2>&1; echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $L/racecheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L

#!/usr/bin/env bash
# Call 9 (H200): the votes' fold through shared memory, blocks of 128
# threads at 5 an SM (96 registers; X, branch next/votes-shared-fold)
# against main (N), each its own binary. Full table, summed: 8192^2 8- and
# 4-conn. g = 4 N X X N, 8192^2 4-conn. g = 1 N X; then X's GPU tests
# (oracle, large, backend, groups, device memory, memcheck --quick,
# racecheck of 2 cases a check), as device time allows.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b
tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
exec > >(tee $OUT/summary.txt) 2>&1
declare -A B=([n]=/tmp/b/main-benchmark [x]=/tmp/b/x/build-gpu/benchmark/cca_benchmark)
run() { # name binary dim size conn g
  local n=$1 b=$2 d=$3 z=$4 c=$5 g=$6
  timeout 60 ${B[$b]} --labels-on-device --no-atomic-counts --warmup 1 --reps 3 --outputs all --dimension $d --size $z --connectivity $c --g $g --json $L/$n.json > $L/$n.log 2>&1
  local rc=$?
  python3 - $L/$n.json "$n rc=$rc at $SECONDS s" $d $z <<'PY'
import json, sys
try:
    m = json.load(open(sys.argv[1]))["measurements"]
except Exception as e:
    print(sys.argv[2], "no result", e); sys.exit()
px = int(sys.argv[4]) ** int(sys.argv[3])
t = sum(x["kernelMs"] for x in m)
print("%-30s %6.2f (%6.2f)  %s  objects %d runs %d" % (sys.argv[2], px * len(m) / (t * 1e6), sum(px / (x["kernelMs"] * 1e6) for x in m) / len(m),
      " ".join("%.3f" % x["kernelMs"] for x in m), sum(x["components"] for x in m), sum(x["runs"] for x in m)))
PY
}
for c in full face; do
  for v in n1 x1 x2 n2; do run 2d-$c-g4-$v ${v:0:1} 2 8192 $c 4; done
done
for v in n1 x1; do run 2d-face-g1-$v ${v:0:1} 2 8192 face 1; done
G=/tmp/b/x/build-gpu
timeout 30 $G/test/engine/ccaEngineOracleTest oracle cuda > $L/oracle.log 2>&1
echo "engine oracle cuda rc=$? at $SECONDS s: $(tail -n 1 $L/oracle.log)"
timeout 15 $G/test/engine/ccaEngineOracleTest large cuda > $L/large.log 2>&1
echo "engine large cuda rc=$? at $SECONDS s: $(tail -n 1 $L/large.log)"
timeout 80 $G/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1
echo "backend rc=$? at $SECONDS s: $(grep -E '^total' $L/backend.log)"; grep FAIL $L/backend.log | head -5
for suite in labels intensity selection; do
  timeout 20 $G/test/engine/ccaFeatureGroupsTest $suite cuda > $L/groups-$suite.log 2>&1
  echo "groups $suite cuda rc=$? at $SECONDS s: $(tail -n 1 $L/groups-$suite.log)"
done
timeout 20 $G/test/gpu/ccaDeviceMemoryTest > $L/devmem.log 2>&1
echo "devmem rc=$? at $SECONDS s: $(tail -n 1 $L/devmem.log)"
timeout 40 compute-sanitizer --tool memcheck --error-exitcode 3 $G/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1
echo "memcheck rc=$? at $SECONDS s: $(grep -E '^total|ERROR SUMMARY' $L/memcheck.log | tr '\n' ' ')"
left=$((235 - SECONDS))
[ $left -gt 20 ] && timeout $left compute-sanitizer --tool racecheck --error-exitcode 3 $G/test/gpu/ccaCudaBackendTest --quick --cases 2 --algorithm Default > $L/racecheck.log 2>&1
echo "racecheck rc=$? at $SECONDS s (limit $left s): $(grep -E '^total|RACECHECK SUMMARY' $L/racecheck.log | tr '\n' ' ')"
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L

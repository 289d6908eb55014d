#!/usr/bin/env bash
# Call 2 (H200): N, reads of device counts from mapped host memory that a
# kernel writes (StreamDevice::Read) and rows of at least 64 pixels a run
# made from their runs at every width; against B, main (aeb3adc). Full
# table and labels only, 8192^2 and 512^3, g = 0 (all foreground), 16, 4,
# 1, both connectivities, B N B N. Then the GPU tests, memcheck and
# racecheck on N.
set -u
L=$OUT/logs; mkdir -p $L /tmp/b && tar -C /tmp/b -xJf .devcarry/gpu.tar.xz
N=/tmp/b/build-gpu; xz -dc .devcarry/before-main/cca_benchmark.xz > /tmp/b/before && chmod +x /tmp/b/before
exec > >(tee $OUT/summary.txt) 2>&1
nvidia-smi -L > $L/device.txt
s() { grep '^==' $1 | sed 's/.*kernel \([0-9.]*\) G[^;]*; \([0-9.]*\) mean.*/\1 (\2)/' | tr '\n' ' '; }
$N/benchmark/cca_benchmark --reps 3 --warmup 1 --labels-on-device --outputs all --dimension 2 --size 8192 --g 0 > /dev/null 2>&1 # warm-up
for out in all labels; do
  P="--reps 11 --warmup 1 --labels-on-device --no-atomic-counts --outputs $out --connectivity both"
  gs="0 16 4 1"; [[ $out == labels ]] && gs="0 1"
  for v in B1 N1 B2 N2; do
    X=$N/benchmark/cca_benchmark; [[ $v == B* ]] && X=/tmp/b/before
    for g in $gs; do
      for d in "2 8192" "3 512"; do
        set -- $d
        n=$out-$1d-g$g-$v
        timeout 60 $X $P --g $g --dimension $1 --size $2 --json $L/$n.json > $L/$n.log 2>&1; echo "$out ${1}D g$g $v rc=$? at $SECONDS s: $(s $L/$n.log)"
      done
    done
  done
done
timeout 150 $N/test/gpu/ccaCudaBackendTest > $L/backend.log 2>&1; echo "backend rc=$? at $SECONDS s"; grep -E "^total|FAIL|wide rows" $L/backend.log | head -10
for suite in labels intensity selection large; do
  timeout 60 $N/test/engine/ccaFeatureGroupsTest $suite cuda > $L/groups-$suite.log 2>&1; echo "groups $suite cuda rc=$? at $SECONDS s"; tail -n 1 $L/groups-$suite.log
done
timeout 30 $N/test/gpu/ccaDeviceMemoryTest > $L/devmem.log 2>&1; echo "devmem rc=$? at $SECONDS s"; grep -E "FAIL|mapped|late kernels" $L/devmem.log | head -8; tail -n 1 $L/devmem.log
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 $N/test/gpu/ccaCudaBackendTest --quick > $L/memcheck.log 2>&1; echo "memcheck rc=$? at $SECONDS s"; grep -E "^total|ERROR SUMMARY" $L/memcheck.log
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 $N/test/gpu/ccaDeviceMemoryTest > $L/devmem-memcheck.log 2>&1; echo "devmem memcheck rc=$? at $SECONDS s"; grep -E "ERROR SUMMARY" $L/devmem-memcheck.log; tail -n 1 $L/devmem-memcheck.log
for d in 2 3; do
  n=$([[ $d == 2 ]] && echo 2048 || echo 128)
  timeout 60 compute-sanitizer --tool racecheck --error-exitcode 3 $N/benchmark/cca_benchmark --reps 1 --warmup 0 --outputs all --connectivity both --dimension $d --size $n --g 0 > $L/racecheck-${d}d-g0.log 2>&1; echo "racecheck ${d}D $n all foreground rc=$? at $SECONDS s"; grep -E "RACECHECK SUMMARY" $L/racecheck-${d}d-g0.log
done
timeout 150 compute-sanitizer --tool racecheck --error-exitcode 3 $N/test/gpu/ccaCudaBackendTest --quick --cases 15 --algorithm Default > $L/racecheck.log 2>&1; echo "racecheck rc=$? at $SECONDS s"; grep -E "^total|RACECHECK SUMMARY" $L/racecheck.log
tar -C $OUT -czf $OUT/logs.tgz logs && rm -rf $L
